"""What the user should know about the settings: which differ from the defaults, which tokenizer sacreBLEU
recommends for the references' script, and whether TER can see the words of Chinese and Japanese text."""

from __future__ import annotations

import dataclasses
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..errors import ConfigError
from ..metrics.base import MetricConfig
from ..metrics.bleu.config import SMOOTH_DEFAULTS, BleuConfig
from ..metrics.chrf.chrf import ChrfConfig
from ..metrics.ter.ter import TerConfig
from ..metrics.tokenizers import install_hint


@dataclass(frozen=True)
class Advice:
    """Advice that would change a number: why (``text``), what following it does (``action``, as a button says
    it) and the metric's settings that follow it (``config``)."""

    text: str
    action: str
    config: MetricConfig

_SAMPLE_LINES = 2000


_CHRF_LABELS = {"char_order": "character order", "word_order": "word order", "beta": "β", "whitespace": "whitespace kept",
                "lowercase": "lowercased", "eps_smoothing": "eps smoothing"}
_TER_LABELS = {"case_sensitive": "case-sensitive", "asian_support": "Asian support", "no_punct": "no punctuation",
               "normalized": "normalized"}


def non_default_settings(cfg: MetricConfig) -> list[str]:
    """A short label for every setting of a metric's ``cfg`` that differs from its default (empty: all default);
    chrF's and TER's labels name the metric."""
    if isinstance(cfg, BleuConfig):
        return _bleu_non_default(cfg)
    for kind, labels, metric in ((ChrfConfig, _CHRF_LABELS, "chrF"), (TerConfig, _TER_LABELS, "TER")):
        if isinstance(cfg, kind):
            default = kind()
            out = []
            for f in dataclasses.fields(kind):
                value = getattr(cfg, f.name)
                if value != getattr(default, f.name):
                    out.append(f"{metric} {labels[f.name]}" + ("" if isinstance(value, bool) else f": {value}"))
            return out
    return []


def _bleu_non_default(cfg: BleuConfig) -> list[str]:
    """A short label for every setting of ``cfg`` that differs from its variant's default (empty: all default)."""
    default = BleuConfig(variant=cfg.variant)
    labels = []
    if cfg.variant != BleuConfig().variant:
        labels.append(f"variant: {cfg.variant}")
    if cfg.tokenizer_name != default.tokenizer_name:
        labels.append(f"tokenizer: {cfg.tokenizer_name}")
    if cfg.lowercase:
        labels.append("lowercased")
    reads = cfg.scorer.settings
    if "smooth_method" in reads and cfg.smooth_method != default.smooth_method:
        labels.append(f"smoothing: {cfg.smooth_method}")
    if ("smooth_value" in reads and cfg.smooth_value is not None
            and cfg.smooth_value != SMOOTH_DEFAULTS[cfg.smooth_method]):
        labels.append(f"smoothing value: {cfg.smooth_value:g}")
    if cfg.max_order != default.max_order:
        labels.append(f"max order: {cfg.max_order}")
    if "nltk_smoothing" in reads and cfg.nltk_smoothing != default.nltk_smoothing:
        labels.append(f"NLTK smoothing: method{cfg.nltk_smoothing}")
    if "weights" in reads and cfg.weights is not None:
        labels.append("weights: " + ",".join(f"{w:g}" for w in cfg.weights))
    if "auto_reweigh" in reads and cfg.auto_reweigh:
        labels.append("auto_reweigh")
    if cfg.empty_refs != default.empty_refs:
        labels.append(f"empty references: {cfg.empty_refs}")
    return labels


# Scripts counted with compiled patterns at C speed (a character loop in Python took 0.3 s on 4 references):
# everything but the script is deleted and what is left is measured.
_SCRIPT_RANGES = {
    "hangul": "\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f",
    "kana": "\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f",
    "han": "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f",
}
_NOT_SCRIPT = {script: re.compile(f"[^{chars}]+") for script, chars in _SCRIPT_RANGES.items()}
_ANY_CJK = re.compile(f"[{''.join(_SCRIPT_RANGES.values())}]")
_NOT_LETTER = re.compile(r"[\W\d_]+")
_ASCII_LETTERS = string.ascii_letters.encode("ascii")
_SAMPLE_CHARS = 200_000


def _available(name: str) -> bool:
    from ..metrics.tokenizers import load_tokenizer

    try:
        load_tokenizer(name)
    except ConfigError:
        return False
    return True


_CJK_TOKENIZERS = {"zh": "Chinese", "ja-mecab": "Japanese", "ko-mecab": "Korean"}


def _script(references: Sequence[Sequence[str]]) -> tuple[str, str, float] | None:
    """(language, sacreBLEU's tokenizer for it, share of letters) when the references are mostly Chinese,
    Japanese or Korean script; None otherwise."""
    sample = "\n".join(line for ref in references for line in ref[:_SAMPLE_LINES])[:_SAMPLE_CHARS]
    if not _ANY_CJK.search(sample):
        return None
    # ASCII letters are letters: more than twice as many as CJK characters and those cannot be half the letters.
    # Counted on bytes (C speed); a Unicode letter class took 20 ms over a Latin sample with a few CJK characters.
    raw = sample.encode("utf-8", "surrogatepass")
    if len(raw) - len(raw.translate(None, _ASCII_LETTERS)) > 2 * len(_ANY_CJK.findall(sample)):
        return None
    letters = len(_NOT_LETTER.sub("", sample))
    counts = {script: len(pattern.sub("", sample)) for script, pattern in _NOT_SCRIPT.items()}
    cjk = sum(counts.values())
    if letters == 0 or cjk / letters < 0.5:
        return None
    if counts["hangul"] >= max(counts["kana"], counts["han"]):
        return "Korean", "ko-mecab", cjk / letters
    if counts["kana"] >= 0.1 * cjk:
        return "Japanese", "ja-mecab", cjk / letters
    return "Chinese", "zh", cjk / letters


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
    found = _script(references)
    if found is None:
        if name == "13a":
            return None
        return "13a", (f"the references are not {_CJK_TOKENIZERS[name]} (nor Chinese, Japanese or Korean), but the "
                       f"tokenizer is {name}; sacreBLEU's tokenizer for other languages is 13a")
    language, wanted, share = found
    if name == wanted:
        return None
    why = (f"{100 * share:.0f}% of the references' letters are {language} script; sacreBLEU recommends -tok {wanted} "
           + ("(13a cuts CJK text only at spaces and punctuation, which can flip which system wins)" if name == "13a"
              else f"(not {name}, its tokenizer for {_CJK_TOKENIZERS[name]})"))
    if not _available(wanted):
        why += f"; its extra is not installed here, so char (one token per character) stands in: {install_hint(wanted)}"
        wanted = "char"
    return wanted, why


_ASIAN = {"zh": "Chinese", "ja": "Japanese"}


def ter_advice(references: Sequence[Sequence[str]], cfg: TerConfig, language: str = "") -> Advice | None:
    """Advice on TER's Asian support for the references' language (``language``: the target language declared or
    given; else their script decides).

    TER's words are split at spaces: a Chinese or Japanese sentence is one word, so each scores 0 or 100 (the
    WMT22 en-ja corpus: 109.48). sacreBLEU's ``--ter-asian-support`` splits their characters, and only within
    ``--ter-normalized`` (alone it changes nothing). Korean is written with spaces (and Hangul is not split).
    On other text Asian support finds nothing to split: it is said, since the signature then differs from the
    default's."""
    primary = language.replace("_", "-").split("-")[0].lower()
    found = _script(references) if references else None
    if primary in _ASIAN:
        named, said = _ASIAN[primary], f"the target language is {_ASIAN[primary]}"
    elif found is not None and found[0] in _ASIAN.values():
        named, said = found[0], f"{100 * found[2]:.0f}% of the references' letters are {found[0]} script"
    else:
        named, said = None, ""
    if named is not None and not (cfg.asian_support and cfg.normalized):
        return Advice(f"{said}: TER splits words at spaces, so a {named} sentence is one word and scores 0 or 100; "
                      "sacreBLEU's --ter-asian-support with --ter-normalized splits its characters (Asian support "
                      "alone changes nothing)", "Use Asian support and normalization",
                      replace(cfg, asian_support=True, normalized=True))
    if named is None and cfg.asian_support:
        return Advice("TER's Asian support is on, but the references are not Chinese or Japanese: it changes no "
                      "number here, and the signature differs from sacreBLEU's default (--ter-asian-support off)",
                      "Turn Asian support off", replace(cfg, asian_support=False))
    return None
