"""Display names for input files: short, and never two alike."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .text_files import SegmentFile


def display_names(paths: Sequence[str | Path]) -> list[str]:
    """The shortest path suffix of each file that tells it apart from the others.

    ``exp1/hyp.txt`` and ``exp2/hyp.txt`` become those two names, not ``hyp.txt``
    twice; a file whose name is unique keeps just its name. The same file given
    twice keeps its full path both times (nothing shorter tells them apart).
    """
    parts = [Path(p).resolve().parts for p in paths]
    depth = [1] * len(parts)
    while True:
        names = ["/".join(p[-d:]) for p, d in zip(parts, depth)]
        clashes = {n for n in names if names.count(n) > 1}
        grow = [i for i, n in enumerate(names) if n in clashes and depth[i] < len(parts[i])]
        if not grow:
            break
        for i in grow:
            depth[i] += 1
    return ["/".join(p[-d:]).lstrip("/") or "/" for p, d in zip(parts, depth)]


def file_names(files: Sequence[SegmentFile]) -> list[str]:
    """Display names for system or reference files: a structured file's field names (``Online-B``,
    ``ref:A``) when they tell the files apart, else path suffixes with the field after a colon."""
    fields = [f.field for f in files]
    if all(fields) and len(set(fields)) == len(fields):
        return fields
    paths = display_names([f.path for f in files])
    names = [f"{p}:{f.field}" if f.field else p for p, f in zip(paths, files)]
    if len(set(names)) == len(names):
        return names
    # The same file and field twice: only the full path, and a position, tell them apart.
    return [f"{n} ({i + 1})" if names.count(n) > 1 else n for i, n in enumerate(names)]
