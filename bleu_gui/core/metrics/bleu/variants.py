"""The BLEU variants on offer, by name: sacreBLEU's (the default), NLTK's and the d2l textbook's."""

from __future__ import annotations

from .variant import Variant
from .variant_d2l import D2lBleu
from .variant_nltk import NltkBleu
from .variant_sacrebleu import SacreBleu

VARIANTS = ("sacrebleu", "nltk", "d2l")
_REGISTRY: dict[str, Variant] = {v.name: v for v in (SacreBleu(), NltkBleu(), D2lBleu())}


def get_variant(name: str) -> Variant:
    """The variant registered under ``name`` (``KeyError`` for an unknown name; config validation says so first)."""
    return _REGISTRY[name]
