"""A system's human-marked errors (MQM) by category and severity, each count with the segments behind it: the
table an analyst reads first, and clicks to see those segments."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..inputs.text_files import SegmentFile

SEVERITY_ORDER = ("Critical", "Major", "Minor", "Neutral")


@dataclass(frozen=True)
class ErrorTable:
    """``counts[(category, severity)]``: error rows over all raters; ``segments[...]``: the segments (0-based,
    ascending) holding one; the categories most errors first, the severities present in Critical…Neutral order."""

    system: str
    categories: list[str]
    severities: list[str]
    counts: dict[tuple[str, str], int]
    segments: dict[tuple[str, str], list[int]]
    rated: int

    def total(self, category: str | None = None, severity: str | None = None) -> int:
        return sum(n for (c, s), n in self.counts.items()
                   if (category is None or c == category) and (severity is None or s == severity))

    def rows_of(self, category: str | None, severity: str | None) -> list[int]:
        """The segments with an error of ``category`` and ``severity`` (None: any)."""
        return sorted({i for (c, s), rows in self.segments.items() for i in rows
                       if (category is None or c == category) and (severity is None or s == severity)})


def error_table(system: SegmentFile, rows: Sequence[int] | None = None, name: str | None = None) -> ErrorTable:
    """The errors of ``system``'s annotations over segments ``rows`` (all), by category and severity; ``name``: the
    system's name as shown (its file's by default)."""
    annotations = system.annotations or ()
    counts: dict[tuple[str, str], int] = {}
    segments: dict[tuple[str, str], list[int]] = {}
    rated = 0
    for i in rows if rows is not None else range(len(annotations)):
        ratings = annotations[i] if i < len(annotations) else None
        if ratings is None:
            continue
        rated += 1
        for error in ratings.errors:
            key = (error.category or "(none)", error.severity)
            counts[key] = counts.get(key, 0) + 1
            held = segments.setdefault(key, [])
            if not held or held[-1] != i:
                held.append(i)
    by_category: dict[str, int] = {}
    for (category, _), n in counts.items():
        by_category[category] = by_category.get(category, 0) + n
    present = {s for _, s in counts}
    severities = [s for s in SEVERITY_ORDER if s in present] + sorted(present - set(SEVERITY_ORDER))
    categories = sorted(by_category, key=lambda c: (-by_category[c], c))
    return ErrorTable(name or system.name, categories, severities, counts, segments, rated)
