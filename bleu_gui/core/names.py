"""Display names for input files: short, and never two alike."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


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
