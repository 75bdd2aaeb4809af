"""Where in the candidate the text a judge quotes is: an LLM quotes, it gives no offsets. The quote is looked for in
its own segment's candidate only (never across segments): an exact occurrence first — the first one no earlier
error of the segment has taken, so that two errors quoting the same word land on its two occurrences — then the
nearest passage by rapidfuzz's partial ratio (a quote with its spacing or quotes changed), taken when at least
:data:`NEAREST` similar. A quote found nowhere stays a segment-level error: counted and shown, never drawn."""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz import fuzz

NEAREST = 80.0  # rapidfuzz's 0-100 similarity a near passage needs (below, a quote of another sentence places itself)


def place_quote(quote: str, candidate: str, taken: Sequence[tuple[int, int]] = ()) -> tuple[int, int, str] | None:
    """The span ``(start, end, how)`` of ``quote`` in ``candidate`` — ``how`` is ``exact`` or ``nearest`` — or None
    (see the module); ``taken``: the spans earlier errors of the segment were placed on."""
    wanted = quote.strip()
    if not wanted or not candidate:
        return None
    starts = []
    at = candidate.find(wanted)
    while at >= 0:
        starts.append(at)
        at = candidate.find(wanted, at + 1)
    if starts:
        free = [s for s in starts if (s, s + len(wanted)) not in taken]
        start = (free or starts)[0]
        return start, start + len(wanted), "exact"
    if len(wanted) > len(candidate) * 2:  # a quote of more than the candidate holds is not a part of it
        return None
    found = fuzz.partial_ratio_alignment(wanted, candidate, score_cutoff=NEAREST)
    if found is None or found.dest_end <= found.dest_start:
        return None
    start, end = found.dest_start, found.dest_end
    while start < end and candidate[start].isspace():
        start += 1
    while end > start and candidate[end - 1].isspace():
        end -= 1
    return (start, end, "nearest") if end > start else None
