"""Where two metrics disagree on a system's segments: each segment's place among the others under each metric,
and the segments whose places differ most (a surface metric against a neural or human one).

A segment's place is its rank as a share of the way from worst (0) to best (1), ties sharing their mean rank,
each metric read in its own direction (TER: lower is better). Segments a metric has no score for (a missing
imported score) are left out. Spearman's ρ over the segments both score says how far the two agree overall.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Disagreement:
    """One segment: its index in the run, both metrics' scores and places (0 worst, 1 best)."""

    segment: int
    first: float
    second: float
    place_first: float
    place_second: float

    @property
    def difference(self) -> float:
        return abs(self.place_first - self.place_second)


def places(values: np.ndarray, higher_is_better: bool = True) -> np.ndarray:
    """Each value's place among the finite ones, 0 (worst) to 1 (best), ties at their mean rank; NaN stays."""
    values = np.asarray(values, dtype=np.float64)
    finite = np.isfinite(values)
    out = np.full(len(values), np.nan)
    kept = values[finite] if higher_is_better else -values[finite]
    n = len(kept)
    if n == 0:
        return out
    order = np.argsort(kept, kind="stable")
    ranks = np.empty(n)
    ranks[order] = np.arange(n, dtype=np.float64)
    _, tie, counts = np.unique(kept, return_inverse=True, return_counts=True)
    mean_rank = np.bincount(tie, weights=ranks) / counts
    out[finite] = mean_rank[tie] / (n - 1) if n > 1 else 0.5
    return out


def spearman(first: np.ndarray, second: np.ndarray, first_higher: bool = True, second_higher: bool = True) -> float:
    """Spearman's ρ of the segments both metrics score, each read in its own direction (so 1 is full agreement
    on which segments are better, whatever the scales); NaN with fewer than two."""
    both = np.isfinite(first) & np.isfinite(second)
    if both.sum() < 2:
        return float("nan")
    a, b = places(first[both], first_higher), places(second[both], second_higher)
    if np.std(a) == 0 or np.std(b) == 0:
        return float("nan")
    return float(np.corrcoef(a, b)[0, 1])


def disagreements(first: np.ndarray, second: np.ndarray, first_higher: bool = True, second_higher: bool = True,
                  top: int = 10) -> list[Disagreement]:
    """The ``top`` segments whose places under the two metrics differ most (most first; ties by segment)."""
    a, b = places(first, first_higher), places(second, second_higher)
    gap = np.abs(a - b)
    candidates = np.flatnonzero(np.isfinite(gap))
    ranked = candidates[np.lexsort((candidates, -gap[candidates]))][:max(top, 0)]
    return [Disagreement(int(i), float(first[i]), float(second[i]), float(a[i]), float(b[i])) for i in ranked]
