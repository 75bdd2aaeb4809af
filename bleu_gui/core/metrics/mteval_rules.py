"""sacreBLEU's last tokenizing step for 13a and zh (``TokenizerRegexp``: mteval-v13a's regular expressions) and
zh's spacing of Chinese characters, applied with a translation table where that gives the very same text.

``TokenizerRegexp`` runs four ``re.sub`` with group templates (``r' \\1 '``). In CPython 3.11 a template with a
group is expanded by a Python function per match, and its first rule matches every space and ASCII symbol: on
Chinese text, where zh first puts a space on either side of every Chinese character, that was 1.7M Python calls
for the 30,555 lines of WMT22 en-zh (1.9 s of the 3.3 s zh took). The first rule's class is single ASCII
characters, each replaced by itself between spaces, matches never overlapping: ``str.translate`` with a table
does exactly that, in C. zh's loop over the characters (a space, the character, a space for each Chinese
character, as sacreBLEU's ``_is_chinese_char`` decides) is the same table, built one distinct character at a time.
The other three rules look at pairs of characters and stay sacreBLEU's own ``re.sub``, run on a line that holds
a period, comma or dash they need.

sacreBLEU's objects are used as they are: their rules and their Chinese ranges are read from them, and when the
first rule is not the one this module knows (another sacreBLEU), the tokenizer is left unchanged. The tests hold
the output to sacreBLEU's for 13a and zh on generated text and on every shared data set.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

# sacreBLEU 2.x's rules: the first (ASCII symbols and the space, each set between spaces), then three that split
# periods, commas and dashes by their neighbours — each with the characters a match needs (none: no match).
_FIRST_RULE = (r"([\{-\~\[-\` -\&\(-\+\:-\@\/])", r" \1 ")
_PAIR_RULES = ((r"([^0-9])([\.,])", r"\1 \2 ", ".,"), (r"([\.,])([^0-9])", r" \1 \2", ".,"),
               (r"([0-9])(-)", r"\1 \2 ", "-"))
_MAX_ENTRIES = 65_536  # distinct characters a zh table keeps (a few MB; real text has a few thousand)


class _Table(dict[int, str]):
    """A ``str.translate`` table filled on demand: the first time a character is met, ``value(ch)`` decides
    what it becomes; after that the look-up stays in C."""

    def __init__(self, value: Callable[[str], str]):
        super().__init__()
        self._value = value

    def __missing__(self, code: int) -> str:
        if len(self) >= _MAX_ENTRIES:  # text of every script at once: start again rather than grow without end
            self.clear()
        out = self[code] = self._value(chr(code))
        return out


class FastRegexp:
    """sacreBLEU's ``TokenizerRegexp`` (``original``), its first rule as a translation table."""

    def __init__(self, original: Any):
        rules = list(original._re)
        if [(p.pattern, r) for p, r in rules] != [_FIRST_RULE, *((p, r) for p, r, _ in _PAIR_RULES)]:
            raise ValueError("sacreBLEU's mteval rules are not the ones this module knows")
        first = rules[0][0]
        self._first = {code: f" {chr(code)} " for code in range(128) if first.fullmatch(chr(code))}
        self._rest: list[tuple[re.Pattern[str], str, str]] = [
            (pattern, repl, needs) for (pattern, repl), (_, _, needs) in zip(rules[1:], _PAIR_RULES)]

    def first_rule(self, ch: str) -> str:
        """What the first rule makes of one character."""
        return self._first.get(ord(ch), ch)

    def finish(self, line: str) -> str:
        """The rules after the first, then one space between tokens (sacreBLEU's ``' '.join(line.split())``)."""
        for pattern, repl, needs in self._rest:
            if any(ch in line for ch in needs):  # a line without them has nothing to match (Chinese, mostly)
                line = pattern.sub(repl, line)
        return " ".join(line.split())

    def __call__(self, line: str) -> str:
        return self.finish(line.translate(self._first))


class FastZh:
    """sacreBLEU's ``TokenizerZh`` (``original``): strip, a space either side of each Chinese character, then the
    mteval rules — the spacing and the first rule in one table."""

    def __init__(self, original: Any):
        self._rules = FastRegexp(original._post_tokenizer)
        is_chinese: Callable[[str], bool] = original._is_chinese_char

        def value(ch: str) -> str:
            spaced = f" {ch} " if is_chinese(ch) else ch
            return "".join(self._rules.first_rule(c) for c in spaced)

        self._table = _Table(value)

    def __call__(self, line: str) -> str:
        return self._rules.finish(line.strip().translate(self._table))

    def signature(self) -> str:
        return "zh"


def faster(name: str, tokenizer: Any) -> Any:
    """``tokenizer`` (sacreBLEU's, for ``name``) with its mteval rules applied by table where it has them: zh
    replaced by :class:`FastZh`, 13a given a :class:`FastRegexp` as its last step. Another sacreBLEU whose rules
    differ keeps its own tokenizer."""
    try:
        if name == "zh":
            return FastZh(tokenizer)
        if name == "13a":
            tokenizer._post_tokenizer = FastRegexp(tokenizer._post_tokenizer)
    except (AttributeError, ValueError, TypeError):
        pass
    return tokenizer
