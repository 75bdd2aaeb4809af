"""The languages XLM-R was pretrained on (Conneau et al. 2020, table 6: CC-100's 100 languages; ISO 639-1 codes where
one exists, the romanized variants folded into their language), the encoder of every Unbabel COMET model. A language
outside it gets a note: COMET's scores there are unreliable (COMET #18)."""

from __future__ import annotations

XLMR_LANGUAGES = frozenset("""
af am ar as az be bg bn br bs ca cs cy da de el en eo es et eu fa fi fr fy ga gd gl gu ha he hi hr hu hy id is it ja
jv ka kk km kn ko ku ky la lo lt lv mg mk ml mn mr ms my ne nl no om or pa pl ps pt ro ru sa sd si sk sl so sq sr su
sv sw ta te th tl tr ug uk ur uz vi xh yi zh
""".split())
# Codes the same languages also go by (ISO 639-2/3, older or macro-language codes).
_ALIASES = {"nb": "no", "nn": "no", "iw": "he", "in": "id", "ji": "yi", "fil": "tl", "zho": "zh", "cmn": "zh",
            "yue": "zh", "jpn": "ja", "kor": "ko", "deu": "de", "ger": "de", "eng": "en", "rus": "ru", "ces": "cs",
            "hrv": "hr", "srp": "sr", "bos": "bs", "ukr": "uk", "pol": "pl", "fra": "fr", "spa": "es", "por": "pt",
            "ita": "it", "nld": "nl", "tur": "tr", "ara": "ar", "hin": "hi", "ben": "bn", "fas": "fa", "pes": "fa"}


def outside_xlmr(code: str) -> bool:
    """Whether the language ``code`` (``de``, ``zh-Hant``, ``pt_BR``) is not one XLM-R was pretrained on (an empty
    code is unknown, not outside)."""
    primary = code.replace("_", "-").split("-")[0].lower()
    return bool(primary) and _ALIASES.get(primary, primary) not in XLMR_LANGUAGES
