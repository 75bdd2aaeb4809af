"""Every setting that changes a BLEU number, in one object: its fields (named, offered and checked as the other
families' are, with sacreBLEU's own flags), its validation, the tokenizer the target language chooses, and the
tokenizer sacreBLEU recommends for the references' script."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from ...errors import ConfigError, term
from ..family import Advice, Family
from ..sacre_tokenizers import TOKENIZER_NAMES, install_hint, tokenizer_available
from ..scripts import cjk_script
from ..settings import MetricSettings, setting, shown
from .variants import VARIANTS, get_variant

if TYPE_CHECKING:
    from .variant import Variant

MAX_SUPPORTED_ORDER = 9  # the highest n-gram order offered
SMOOTH_METHODS = ("exp", "floor", "add-k", "none")
# sacreBLEU's defaults for the smoothing value (Chen & Cherry 2014).
SMOOTH_DEFAULTS = {"exp": None, "floor": 0.1, "add-k": 1.0, "none": None}
NLTK_METHODS = tuple(range(8))
# How an empty reference line is read: as an empty reference (sacreBLEU's command line, and its WMT
# XML reading), or as a reference missing for that sentence (``None`` in sacreBLEU's API).
EMPTY_REF_RULES = ("empty", "missing")
EMPTY_REF_LABELS = {"empty": "empty reference", "missing": "missing reference"}
_CJK_TOKENIZERS = {"zh": "Chinese", "ja-mecab": "Japanese", "ko-mecab": "Korean"}


def _read(name: str) -> Callable[[Any], bool]:
    """Whether the settings' variant reads the setting ``name`` (sacreBLEU has no NLTK smoothing, NLTK no exp)."""
    return lambda cfg: name in get_variant(cfg.variant).settings if cfg.variant in VARIANTS else True


def _smooth_value_read(cfg: Any) -> bool:
    return _read("smooth_value")(cfg) and SMOOTH_DEFAULTS.get(cfg.smooth_method) is not None


@dataclass(frozen=True)
class BleuConfig(MetricSettings):
    """Settings for one BLEU computation.

    ``tokenizer=None`` means the variant's default (or the one the target language chooses). ``weights`` apply
    to the ``nltk`` variant (sacreBLEU uses uniform 1/N, d2l uses 1/2^n). ``nltk_epsilon``, ``nltk_alpha`` and
    ``nltk_k`` are NLTK's ``SmoothingFunction(epsilon, alpha, k)`` parameters.
    """

    variant: str = setting("sacrebleu", label="variant", choices=VARIANTS,
                           help="whose BLEU to compute (default sacrebleu)")
    tokenizer: str | None = setting(
        None, label="tokenizer", choices=TOKENIZER_NAMES, file_bound=True,
        none_label="(variant default)",
        help="sacreBLEU tokenizer (default: 13a for sacrebleu, or zh, ja-mecab, ko-mecab when the input declares "
             "that target language; none = whitespace for nltk and d2l)")
    lowercase: bool = setting(False, label="lowercased",
                              help="lowercase before tokenizing")
    smooth_method: str = setting("exp", label="smoothing", choices=SMOOTH_METHODS,
                                 applies=_read("smooth_method"), help="sacreBLEU smoothing (default: exp)")
    smooth_value: float | None = setting(None, label="smoothing value", low=0,
                                         high=100, applies=_smooth_value_read,
                                         help="value for floor (default 0.1) and add-k (default 1)")
    max_order: int = setting(4, label="max order", low=1, high=MAX_SUPPORTED_ORDER,
                             metavar="N", help="highest n-gram order, 1..9 (default 4)")
    weights: tuple[float, ...] | None = setting(None, label="weights", metavar="W", window=False,
                                                applies=_read("weights"), help="n-gram weights (nltk variant)")
    nltk_smoothing: int = setting(0, label="NLTK smoothing", choices=NLTK_METHODS,
                                  metavar="0..7", applies=_read("nltk_smoothing"), display=lambda n: f"method{n}",
                                  help="NLTK SmoothingFunction().methodK (default 0)")
    auto_reweigh: bool = setting(False, label="auto_reweigh", window=False,
                                 applies=_read("auto_reweigh"), help="NLTK's auto_reweigh")
    nltk_epsilon: float = setting(0.1, label="NLTK epsilon", cli=False, window=False, help="NLTK's epsilon")
    nltk_alpha: float = setting(5.0, label="NLTK alpha", cli=False, window=False, help="NLTK's alpha")
    nltk_k: float = setting(5.0, label="NLTK k", cli=False, window=False, help="NLTK's k")
    empty_refs: str = setting(
        "empty", label="empty references", choices=EMPTY_REF_RULES,
        display=lambda rule: EMPTY_REF_LABELS[rule],
        help="an empty reference line is an empty reference (default, as sacreBLEU's command line) or a reference "
             "missing for that sentence (sacreBLEU's API, None)")

    # The test set the run was read from by name (sacreBLEU's -t NAME -l PAIR), as NAME|PAIR: set from the files
    # (for_test_set), never chosen; its signature names it as sacreBLEU's does.
    test: str = setting("", label="test set", cli=False, window=False, file_bound=True,
                        help="the test set the files were read from by name, as NAME|PAIR")

    key: ClassVar[str] = "bleu"

    @property
    def scorer(self) -> Variant:
        """The variant object that computes this config's numbers."""
        return get_variant(self.variant)

    @property
    def tokenizer_name(self) -> str:
        # sacreBLEU's default is 13a; NLTK and d2l are fed whitespace-split tokens in their tutorials.
        return self.tokenizer or self.scorer.default_tokenizer

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

    def for_target_language(self, languages: tuple[str, str] | None, declared: str = "") -> tuple[BleuConfig, str]:
        """The tokenizer the variant picks for the target language of ``languages`` (source, target) when none is
        given (sacreBLEU: zh, ja-mecab, ko-mecab, as ``sacrebleu -l en-ja``), and a note saying so (``declared``:
        who declared the language). A region or script subtag is ignored (zh-CN, zh_Hant are zh)."""
        source, target = languages or ("", "")
        primary = target.replace("_", "-").split("-")[0].lower()
        wanted = self.scorer.language_tokenizers.get(primary)
        if self.tokenizer is not None or wanted is None:
            return self, ""
        return replace(self, tokenizer=wanted), (
            f"tokenizer {wanted} for target language {target} ({declared}), as sacrebleu -l {source or 'xx'}-"
            f"{primary} chooses it; {term('bleu.tokenizer')} overrides")

    @property
    def significance(self) -> bool:
        return self.scorer.significance

    def why_no_tests(self) -> str:
        return f"need the sacrebleu variant (not {self.variant})"

    def why_unread(self, name: str) -> str:
        owners = [v for v in VARIANTS if name in get_variant(v).settings]
        if name == "smooth_value" and name in self.scorer.settings:
            return f"is for the floor and add-k smoothing methods, not {self.smooth_method}"
        return f"applies to the {' and '.join(owners)} variant only, not {self.variant}"

    def non_default(self) -> list[str]:
        """A short label for every setting that differs from its variant's default (empty: all default)."""
        default = BleuConfig(variant=self.variant)
        labels = []
        if self.variant != BleuConfig().variant:
            labels.append(f"variant: {self.variant}")
        if self.tokenizer_name != default.tokenizer_name:
            labels.append(f"tokenizer: {self.tokenizer_name}")
        if self.lowercase:
            labels.append("lowercased")
        if self.applies("smooth_method") and self.smooth_method != default.smooth_method:
            labels.append(f"smoothing: {self.smooth_method}")
        if (self.applies("smooth_value") and self.smooth_value is not None
                and self.smooth_value != SMOOTH_DEFAULTS[self.smooth_method]):
            labels.append(f"smoothing value: {self.smooth_value:g}")
        if self.max_order != default.max_order:
            labels.append(f"max order: {self.max_order}")
        if self.applies("nltk_smoothing") and self.nltk_smoothing != default.nltk_smoothing:
            labels.append(f"NLTK smoothing: method{self.nltk_smoothing}")
        if self.applies("weights") and self.weights is not None:
            labels.append(f"weights: {shown(self.weights)}")
        if self.applies("auto_reweigh") and self.auto_reweigh:
            labels.append("auto_reweigh")
        if self.empty_refs != default.empty_refs:
            labels.append(f"empty references: {self.empty_refs}")
        return labels

    def hint(self) -> str:
        variant = self.scorer
        by_language = ", ".join(f"{tok} for {lang}" for lang, tok in variant.language_tokenizers.items())
        return (f"{variant.hint} Default tokenizer: {variant.default_tokenizer}"
                + (f" ({by_language} when the input declares its target language)." if by_language else "."))

    def advice(self, references: Sequence[Sequence[str]], language: str) -> Advice | None:
        """The tokenizer that suits the references' script, as sacreBLEU sees it (see :func:`tokenizer_advice`)."""
        found = tokenizer_advice(references, self)
        return None if found is None else Advice(found[1], f"Use {found[0]}", replace(self, tokenizer=found[0]))

    def check_given(self, given: dict[str, Any]) -> None:
        if "weights" in given and "max_order" in given and given["max_order"] != len(given["weights"]):
            raise ConfigError(f"{term('bleu.max_order', given['max_order'])} with {len(given['weights'])} weights: "
                              "give one weight per order (the weights set the order)")

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


def tokenizer_advice(references: Sequence[Sequence[str]], cfg: BleuConfig) -> tuple[str, str] | None:
    """(tokenizer, why) when the tokenizer does not suit the references' script, as sacreBLEU sees it.

    sacreBLEU recommends ``zh`` for Chinese, ``ja-mecab`` for Japanese and
    ``ko-mecab`` for Korean (``char`` stands in when the MeCab extra is not
    installed), and 13a for every other language. 13a splits only at spaces and
    punctuation, so a whole CJK clause becomes one token, which can flip which
    system wins; a CJK tokenizer on other text (left over from a CJK run) gives
    numbers no one else reports.
    """
    name = cfg.tokenizer_name
    if not references or (name != "13a" and name not in _CJK_TOKENIZERS):
        return None
    found = cjk_script(references)
    if found is None:
        if name == "13a":
            return None
        return "13a", (f"the references are not {_CJK_TOKENIZERS[name]} (nor Chinese, Japanese or Korean), but the "
                       f"tokenizer is {name}; sacreBLEU's tokenizer for other languages is 13a")
    language, wanted, share = found
    if name == wanted:
        return None
    why = (f"{100 * share:.0f}% of the references' letters are {language} script; sacreBLEU recommends "
           f"{term('bleu.tokenizer', wanted)} "
           + ("(13a cuts CJK text only at spaces and punctuation, which can flip which system wins)" if name == "13a"
              else f"(not {name}, its tokenizer for {_CJK_TOKENIZERS[name]})"))
    if not tokenizer_available(wanted):
        why += f"; its extra is not installed here, so char (one token per character) stands in: {install_hint(wanted)}"
        wanted = "char"
    return wanted, why


def find_bleu_config(metrics: Sequence[object]) -> BleuConfig | None:
    """BLEU's settings among ``metrics`` (None without BLEU): the n-gram order the window offers follows them."""
    return next((m for m in metrics if isinstance(m, BleuConfig)), None)


FAMILY = Family("bleu", "BLEU", BleuConfig, "bleu.metric", prefixed=False, always_in_window=True,
                about="BLEU is always computed in the window: its n-gram evidence, what-if edits and n-gram wins are "
                      "BLEU's")
