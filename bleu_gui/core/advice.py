"""What the user should know about the settings: which differ from the variant's defaults, and which
tokenizer sacreBLEU recommends for the references' script."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from .config import SMOOTH_DEFAULTS, BleuConfig
from .errors import ConfigError

_SAMPLE_LINES = 2000


def non_default_settings(cfg: BleuConfig) -> list[str]:
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


def _script(ch: str) -> str | None:
    code = ord(ch)
    if 0xAC00 <= code <= 0xD7A3 or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
        return "hangul"
    if 0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF or 0xFF66 <= code <= 0xFF9F:
        return "kana"
    if unicodedata.category(ch) == "Lo" and "CJK" in unicodedata.name(ch, ""):
        return "han"
    return None


def _available(name: str) -> bool:
    from .tokenizers import load_tokenizer

    try:
        load_tokenizer(name)
    except ConfigError:
        return False
    return True


def tokenizer_advice(references: Sequence[Sequence[str]], cfg: BleuConfig) -> tuple[str, str] | None:
    """(tokenizer, why) when the references are mostly Chinese, Japanese or Korean but ``cfg`` uses 13a.

    sacreBLEU recommends ``zh`` for Chinese, ``ja-mecab`` for Japanese and
    ``ko-mecab`` for Korean; ``char`` stands in when the MeCab extra is not
    installed. 13a splits only at spaces and punctuation, so a whole CJK clause
    becomes one token, which can flip which system wins.
    """
    if cfg.tokenizer_name != "13a" or not references:
        return None
    counts = {"hangul": 0, "kana": 0, "han": 0}
    letters = 0
    for ref in references:
        for line in ref[:_SAMPLE_LINES]:
            for ch in line:
                if ch.isalpha():
                    letters += 1
                    script = _script(ch)
                    if script is not None:
                        counts[script] += 1
    cjk = sum(counts.values())
    if letters == 0 or cjk / letters < 0.5:
        return None
    share = f"{100 * cjk / letters:.0f}% of the references' letters are"
    if counts["hangul"] >= max(counts["kana"], counts["han"]):
        language, name = "Korean", "ko-mecab"
    elif counts["kana"] >= 0.1 * cjk:
        language, name = "Japanese", "ja-mecab"
    else:
        language, name = "Chinese", "zh"
    why = (f"{share} {language} script; sacreBLEU recommends -tok {name} (13a cuts CJK text only at spaces "
           "and punctuation, which can flip which system wins)")
    if not _available(name):
        why += "; its extra is not installed here, so char (one token per character) stands in"
        name = "char"
    return name, why
