"""Which script a set of references is mostly written in: Chinese, Japanese, Korean or none of them (sacreBLEU's
tokenizer and TER's Asian support follow it)."""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Sequence

_SAMPLE_LINES = 2000
# Scripts counted with compiled patterns at C speed (a character loop in Python took 0.3 s on 4 references):
# everything but the script is deleted and what is left is measured.
_SCRIPT_RANGES = {
    "hangul": "\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f",
    "kana": "\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f",
    "han": "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f",
}
_ASCII_LETTERS = string.ascii_letters.encode("ascii")
_SAMPLE_CHARS = 200_000


@functools.cache
def _patterns() -> tuple[dict[str, re.Pattern[str]], re.Pattern[str], re.Pattern[str]]:
    """(everything but each script, any CJK character, what is not a letter), compiled when first asked for:
    compiling these character classes took 5 ms at every start of the command."""
    not_script = {script: re.compile(f"[^{chars}]+") for script, chars in _SCRIPT_RANGES.items()}
    return not_script, re.compile(f"[{''.join(_SCRIPT_RANGES.values())}]"), re.compile(r"[\W\d_]+")


def cjk_script(references: Sequence[Sequence[str]]) -> tuple[str, str, float] | None:
    """(language, sacreBLEU's tokenizer for it, share of letters) when the references are mostly Chinese,
    Japanese or Korean script; None otherwise."""
    sample = "\n".join(line for ref in references for line in ref[:_SAMPLE_LINES])[:_SAMPLE_CHARS]
    not_script, any_cjk, not_letter = _patterns()
    if not any_cjk.search(sample):
        return None
    # ASCII letters are letters: more than twice as many as CJK characters and those cannot be half the letters.
    # Counted on bytes (C speed); a Unicode letter class took 20 ms over a Latin sample with a few CJK characters.
    raw = sample.encode("utf-8", "surrogatepass")
    if len(raw) - len(raw.translate(None, _ASCII_LETTERS)) > 2 * len(any_cjk.findall(sample)):
        return None
    letters = len(not_letter.sub("", sample))
    counts = {script: len(pattern.sub("", sample)) for script, pattern in not_script.items()}
    cjk = sum(counts.values())
    if letters == 0 or cjk / letters < 0.5:
        return None
    if counts["hangul"] >= max(counts["kana"], counts["han"]):
        return "Korean", "ko-mecab", cjk / letters
    if counts["kana"] >= 0.1 * cjk:
        return "Japanese", "ja-mecab", cjk / letters
    return "Chinese", "zh", cjk / letters
