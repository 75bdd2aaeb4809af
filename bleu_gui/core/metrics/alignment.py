"""Map tokens back to character offsets in the line the user reads.

The tokenizers we use only insert spaces, lowercase, and (13a) drop
``<skipped>`` and ``-`` before a line break, and turn ``&quot; &amp; &lt; &gt;`` into characters. We replay
those edits on the original line while remembering where every character came
from, then find the tokens in order. A token that cannot be found (a MeCab
normalisation, say) gets ``None`` and the window falls back to showing tokens.
"""

from __future__ import annotations

from collections.abc import Sequence

Span = tuple[int, int]

# 13a's preprocessing, in sacreBLEU's order (Tokenizer13a.__call__).
# ``-\n`` is mteval's end-of-line hyphenation: a token it joins spans the line break it took out.
_13A_REPLACEMENTS = (("<skipped>", ""), ("-\n", ""), ("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


def _replace_tracked(text: str, origin: list[Span], old: str, new: str) -> tuple[str, list[Span]]:
    out, out_origin = [], []
    i = 0
    while i < len(text):
        if text.startswith(old, i):
            src = (origin[i][0], origin[i + len(old) - 1][1])
            for ch in new:
                out.append(ch)
                out_origin.append(src)
            i += len(old)
        else:
            out.append(text[i])
            out_origin.append(origin[i])
            i += 1
    return "".join(out), out_origin


def _lowercase_origin(text: str, lowered: str) -> list[Span]:
    """Source character of each character of ``text.lower()``.

    Lowercasing one character at a time gives the same pieces except for the
    context-dependent final sigma, which is still one character for one.
    """
    origin: list[Span] = []
    j = 0
    for i, ch in enumerate(text):
        piece = ch.lower()
        step = len(piece) if lowered.startswith(piece, j) else 1
        origin.extend([(i, i + 1)] * step)
        j += step
    return origin


def _normalised(text: str, lowercase: bool, tokenizer: str) -> tuple[str, list[Span] | None]:
    """The text as the tokenizer reads it and each of its characters' span in ``text`` (None: the text itself,
    each character its own, the usual case, which then builds no list)."""
    origin: list[Span] | None = None
    if lowercase:
        lowered = text.lower()
        if len(lowered) != len(text):  # a character whose lowercase form has several code points (e.g. U+0130)
            origin = _lowercase_origin(text, lowered)
        text = lowered
    if tokenizer == "13a":
        for old, new in _13A_REPLACEMENTS:
            if old in text:
                text, origin = _replace_tracked(text, origin or [(i, i + 1) for i in range(len(text))], old, new)
    return text, origin


def char_spans(text: str, tokens: Sequence[str], lowercase: bool = False, tokenizer: str = "13a",
               lookahead: int = 12) -> list[Span | None]:
    """Character span ``(start, end)`` in ``text`` of each token, or ``None`` where it cannot be placed."""
    norm, origin = _normalised(text, lowercase, tokenizer)
    spans: list[Span | None] = []
    cursor = 0
    for tok in tokens:
        while cursor < len(norm) and norm[cursor].isspace():
            cursor += 1
        pos = cursor if norm.startswith(tok, cursor) else norm.find(tok, cursor, cursor + len(tok) + lookahead)
        if not tok or pos < 0:
            spans.append(None)
            continue
        end = pos + len(tok)
        spans.append((pos, end) if origin is None else (origin[pos][0], origin[end - 1][1]))
        cursor = end
    return spans
