"""Where in the candidate the text a judge quotes is: an LLM quotes, it gives no offsets. The quote is looked for in
its own segment's candidate only (never across segments), in this order, each time on the first occurrence that no
earlier error of the segment has taken (so that two errors quoting the same word land on its two occurrences):

1. the quote exactly (``exact``);
2. the quote with its spacing changed or its case changed — the whole quote, its words in order with any run of
   spaces between them (``nearest``);
3. the nearest passage by rapidfuzz's partial ratio (quotes or a letter changed), taken when at least
   :data:`NEAREST` similar, the passages earlier errors took set aside first (``nearest``).

A quote found nowhere stays a segment-level error: counted and shown, never drawn."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rapidfuzz import fuzz

NEAREST = 80.0  # rapidfuzz's 0-100 similarity a near passage needs (below, a quote of another sentence places itself)
_SET_ASIDE = "\x00"  # what a taken passage is replaced with for the fuzzy search: matches no quoted character


def place_quote(quote: str, candidate: str, taken: Sequence[tuple[int, int]] = ()) -> tuple[int, int, str] | None:
    """The span ``(start, end, how)`` of ``quote`` in ``candidate`` — ``how`` is ``exact`` or ``nearest`` — or None
    (see the module); ``taken``: the spans earlier errors of the segment were placed on."""
    wanted = quote.strip()
    if not wanted or not candidate:
        return None
    exact = [(m.start(), m.start() + len(wanted)) for m in re.finditer(f"(?={re.escape(wanted)})", candidate)]
    if exact:
        return (*_first_free(exact, taken), "exact")
    words = r"\s+".join(re.escape(w) for w in wanted.split())
    for flags in (0, re.IGNORECASE):
        spaced = [(m.start(), m.end()) for m in re.finditer(words, candidate, flags)]
        if spaced:
            return (*_first_free(spaced, taken), "nearest")
    if len(wanted) > len(candidate) * 2:  # a quote of more than the candidate holds is not a part of it
        return None
    for text in (_set_aside(candidate, taken), candidate) if taken else (candidate,):
        found = _nearest(wanted, text)
        if found is not None:
            return (*found, "nearest")
    return None


def _first_free(spans: list[tuple[int, int]], taken: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The first of ``spans`` that overlaps no taken span, else the first of them (two errors on one passage)."""
    free = [s for s in spans if not any(s[0] < end and start < s[1] for start, end in taken)]
    return (free or spans)[0]


def _set_aside(candidate: str, taken: Sequence[tuple[int, int]]) -> str:
    """``candidate`` with the taken passages blanked, every offset kept."""
    chars = list(candidate)
    for start, end in taken:
        chars[start:end] = _SET_ASIDE * (end - start)
    return "".join(chars)


def _nearest(wanted: str, text: str) -> tuple[int, int] | None:
    found = fuzz.partial_ratio_alignment(wanted, text, score_cutoff=NEAREST)
    if found is None or found.dest_end <= found.dest_start:
        return None
    start, end = found.dest_start, found.dest_end
    while start < end and (text[start].isspace() or text[start] == _SET_ASIDE):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] == _SET_ASIDE):
        end -= 1
    return (start, end) if end > start else None
