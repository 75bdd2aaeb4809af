"""The BLEU variants on offer, by name: sacreBLEU's (the default), NLTK's and the d2l textbook's.

A variant's module (its arithmetic, with numpy) is imported when the variant is first asked for, as a family's
metric module is (:meth:`..family.Family.bind`): the settings and the command line's parser name the variants
without loading any of them."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .variant import Variant

VARIANTS = ("sacrebleu", "nltk", "d2l")
_WHERE = {"sacrebleu": ("variant_sacrebleu", "SacreBleu"), "nltk": ("variant_nltk", "NltkBleu"),
          "d2l": ("variant_d2l", "D2lBleu")}
_MADE: dict[str, Variant] = {}


def variant_modules() -> list[str]:
    """The modules :func:`get_variant` imports by name (a bundler must be told: no import statement names them)."""
    return [f"{__package__}.{module}" for module, _ in _WHERE.values()]


def get_variant(name: str) -> Variant:
    """The variant registered under ``name`` (``KeyError`` for an unknown name; config validation says so first)."""
    if name not in _MADE:
        module, cls = _WHERE[name]
        made: Variant = getattr(importlib.import_module(f"{__package__}.{module}"), cls)()
        _MADE[name] = made
    return _MADE[name]
