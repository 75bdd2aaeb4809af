"""Every setting that changes a BLEU number, in one object, and its validation."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ...errors import ConfigError
from ..ngram_stats import MAX_SUPPORTED_ORDER
from ..tokenizers import TOKENIZER_NAMES
from .variant import VARIANTS, Variant, get_variant

if TYPE_CHECKING:
    from ..base import Metric
    from .metric import Bleu

SMOOTH_METHODS = ("exp", "floor", "add-k", "none")
# sacreBLEU's defaults for the smoothing value (Chen & Cherry 2014).
SMOOTH_DEFAULTS = {"exp": None, "floor": 0.1, "add-k": 1.0, "none": None}
NLTK_METHODS = tuple(range(8))
# How an empty reference line is read: as an empty reference (sacreBLEU's command line, and its WMT
# XML reading), or as a reference missing for that sentence (``None`` in sacreBLEU's API).
EMPTY_REF_RULES = ("empty", "missing")


@dataclass(frozen=True)
class BleuConfig:
    """Settings for one BLEU computation.

    ``tokenizer=None`` means the variant's default. ``weights`` apply to the
    ``nltk`` variant (sacreBLEU uses uniform 1/N, d2l uses 1/2^n).
    ``nltk_epsilon``, ``nltk_alpha`` and ``nltk_k`` are NLTK's
    ``SmoothingFunction(epsilon, alpha, k)`` parameters.
    """

    variant: str = "sacrebleu"
    tokenizer: str | None = None
    lowercase: bool = False
    smooth_method: str = "exp"
    smooth_value: float | None = None
    max_order: int = 4
    weights: tuple[float, ...] | None = None
    nltk_smoothing: int = 0
    auto_reweigh: bool = False
    nltk_epsilon: float = 0.1
    nltk_alpha: float = 5.0
    nltk_k: float = 5.0
    empty_refs: str = "empty"

    key = "bleu"

    def bind(self, references: Sequence[Sequence[str]], progress: Callable[[float], None] | None = None,
             like: Metric | None = None) -> Bleu:
        """BLEU with these settings against ``references``; ``like``: a BLEU whose tokenized words are reused
        when it tokenizes alike (a slice of its corpus)."""
        from .metric import Bleu

        tokenization = None
        if isinstance(like, Bleu):
            same = (like.config.tokenizer_name, like.config.lowercase, like.variant.token_split)
            if same == (self.tokenizer_name, self.lowercase, self.scorer.token_split):
                tokenization = like.tokenization
        return Bleu(references, self, progress, tokenization=tokenization)

    @property
    def scorer(self) -> Variant:
        """The variant object that computes this config's numbers."""
        return get_variant(self.variant)

    @property
    def tokenizer_name(self) -> str:
        # sacreBLEU's default is 13a; NLTK and d2l are fed whitespace-split tokens in their tutorials.
        return self.tokenizer or self.scorer.default_tokenizer

    def for_target_language(self, language: str) -> BleuConfig:
        """The config with the tokenizer the variant picks for a target language when none is given (sacreBLEU:
        zh, ja-mecab, ko-mecab, as ``sacrebleu -l en-ja``); itself when a tokenizer is given or the language has
        none. A region or script subtag is ignored (zh-CN, zh_Hant are zh): the input declares Chinese."""
        primary = language.replace("_", "-").split("-")[0].lower()
        wanted = self.scorer.language_tokenizers.get(primary)
        return self if self.tokenizer is not None or wanted is None else replace(self, tokenizer=wanted)

    @property
    def smoothing_value(self) -> float | None:
        """The smoothing value in effect for sacreBLEU's ``floor`` and ``add-k``."""
        if self.smooth_value is not None:
            return self.smooth_value
        return SMOOTH_DEFAULTS[self.smooth_method]

    @property
    def nltk_weights(self) -> tuple[float, ...]:
        return tuple(self.weights) if self.weights is not None else (1.0 / self.max_order,) * self.max_order

    @property
    def stats_order(self) -> int:
        """Highest n-gram order the statistics need (NLTK's method5 and method7 also look at 5-grams)."""
        return self.scorer.stats_order(self)

    def for_other_files(self) -> BleuConfig:
        """The tokenizer suits the files it was chosen for (their language, or their being tokenized already):
        other files start from their target language's."""
        return replace(self, tokenizer=None)

    def validated(self) -> BleuConfig:
        """Return the config (with weights normalised to a tuple) or raise :class:`ConfigError`."""
        if self.variant not in VARIANTS:
            raise ConfigError(f"unknown variant {self.variant!r}; choose one of {', '.join(VARIANTS)}")
        if self.tokenizer is not None and self.tokenizer not in TOKENIZER_NAMES:
            raise ConfigError(f"unknown tokenizer {self.tokenizer!r}; choose one of {', '.join(TOKENIZER_NAMES)}")
        if self.smooth_method not in SMOOTH_METHODS:
            raise ConfigError(f"unknown smoothing method {self.smooth_method!r}; choose one of {', '.join(SMOOTH_METHODS)}")
        if not 1 <= self.max_order <= MAX_SUPPORTED_ORDER:
            raise ConfigError(f"max n-gram order must be 1..{MAX_SUPPORTED_ORDER}, got {self.max_order}")
        if self.empty_refs not in EMPTY_REF_RULES:
            raise ConfigError(f"empty reference rule must be one of {', '.join(EMPTY_REF_RULES)}, got {self.empty_refs!r}")
        if self.nltk_smoothing not in NLTK_METHODS:
            raise ConfigError(f"NLTK smoothing method must be 0..7, got {self.nltk_smoothing}")
        if self.smooth_value is not None and not (math.isfinite(self.smooth_value) and self.smooth_value >= 0):
            raise ConfigError(f"smoothing value must be a finite number 0 or larger, got {self.smooth_value}")
        self.scorer.validate(self)
        cfg = self
        if self.weights is not None:
            weights = tuple(float(w) for w in self.weights)
            if not 1 <= len(weights) <= MAX_SUPPORTED_ORDER:
                raise ConfigError(f"give 1..{MAX_SUPPORTED_ORDER} weights, got {len(weights)}")
            if not all(math.isfinite(w) for w in weights):
                raise ConfigError(f"weights must be finite numbers, got {', '.join(map(str, weights))}")
            if any(w < 0 for w in weights) or sum(weights) <= 0:
                raise ConfigError("weights must be non-negative and not all zero")
            cfg = replace(cfg, weights=weights, max_order=len(weights))
        return cfg
