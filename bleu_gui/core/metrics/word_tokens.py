"""Many distinct words through sacreBLEU's 13a or intl tokenizer in one call, each with the context it has in a line.

Each word is wrapped in stand-in context characters and the words are concatenated: ``WS`` (private use U+E000)
behaves like whitespace for every rule of 13a and intl, ``NOTHING`` (U+2189, a number that is not a digit 0-9)
like the absence of a character for intl (a line's first or last word). Neither is punctuation or a symbol, so
no rule inserts a space next to them or joins two words across them; afterwards they are dropped and each
word's tokens are read between them. ``tests/test_tokenizers.py`` holds the result to whole-line sacreBLEU calls.
"""

from __future__ import annotations

import re
from collections.abc import Callable

WS = "\ue000"
NOTHING = "\u2189"
# Between two words stand the right context of one and the left context of the next.
_BOUNDARY = re.compile(f"[{WS}{NOTHING}][ ]*[{WS}{NOTHING}]")


def words_tokens(tokenizer: Callable[[str], str], keys: list[str], edges: bool) -> tuple[list[int], list[str]]:
    """(token count of each word, all their tokens in order) from one call of ``tokenizer``.

    ``edges`` (intl): a key starting or ending with "\\n" is a word at a line's start or end, which sees nothing
    on that side instead of whitespace.
    """
    if WS in "".join(keys) or NOTHING in "".join(keys):
        return _one_by_one(tokenizer, keys, edges)
    if edges:
        text = "".join((NOTHING if key.startswith("\n") else WS) + key.strip("\n")
                       + (NOTHING if key.endswith("\n") else WS) for key in keys)
    else:
        text = WS + (WS + WS).join(keys) + WS
    out = tokenizer(text).strip(f" {WS}{NOTHING}")
    pieces = _BOUNDARY.split(out)
    if len(pieces) != len(keys):  # cannot happen by the argument above; stay exact regardless
        return _one_by_one(tokenizer, keys, edges)
    # No list per word is kept: many of them alive at once wake the garbage collector, whose full passes
    # walk every line of the open files (~100 ms a pass at a million lines).
    return list(map(len, map(str.split, pieces))), " ".join(pieces).split()


def _one_by_one(tokenizer: Callable[[str], str], keys: list[str], edges: bool) -> tuple[list[int], list[str]]:
    lengths: list[int] = []
    tokens: list[str] = []
    for key in keys:
        word = key.strip("\n")
        if edges:
            word = ("" if key.startswith("\n") else " ") + word + ("" if key.endswith("\n") else " ")
        word_tokens = tokenizer(word).split()
        lengths.append(len(word_tokens))
        tokens.extend(word_tokens)
    return lengths, tokens
