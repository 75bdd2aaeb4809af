"""Which segments to ask the humans about, and how many.

- Samples of a run's rows, seeded (the same seed, the same rows): at random, whole documents, or stratified by a
  metric's segment scores (equal shares from each quantile bin, so that bad and good segments are both asked).
- How many segments a human campaign needs to separate two systems, estimated from a metric's own segment scores:
  the smallest sample whose paired t-test (two-sided, ``alpha``) finds the systems' difference in ``power`` of the
  bootstrap samples of that size. It is the metric's estimate, not the humans': humans disagree with a metric and
  with each other, so treat it as a floor.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

BINS = 5              # quantile bins of a stratified sample
POWER_RESAMPLES = 1000
SIZES = (10, 15, 20, 30, 40, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 5000)


def random_rows(rows: Sequence[int], n: int, seed: int) -> list[int]:
    """``n`` of ``rows`` drawn at random without replacement, in the rows' order (all of them when ``n`` is more)."""
    if n >= len(rows):
        return list(rows)
    picked = np.random.default_rng(seed).choice(len(rows), size=n, replace=False)
    return [rows[k] for k in sorted(picked)]


def document_rows(rows: Sequence[int], docs: Sequence[str], n: int, seed: int) -> list[int]:
    """Whole documents drawn at random until they hold at least ``n`` of ``rows`` (``docs``: each row's document,
    indexed by row), in the rows' order."""
    by_doc: dict[str, list[int]] = {}
    for row in rows:
        by_doc.setdefault(docs[row], []).append(row)
    names = list(by_doc)
    order = np.random.default_rng(seed).permutation(len(names))
    chosen: set[str] = set()
    count = 0
    for k in order:
        if count >= n:
            break
        chosen.add(names[k])
        count += len(by_doc[names[k]])
    return [row for row in rows if docs[row] in chosen]


def quantile_rows(rows: Sequence[int], scores: Sequence[float], n: int, seed: int, bins: int = BINS) -> list[int]:
    """``n`` of ``rows`` in equal shares from each of ``bins`` quantile bins of ``scores`` (indexed by row; NaN rows
    are left out), in the rows' order; a bin too small to give its share gives all it has."""
    scored = [row for row in rows if not math.isnan(scores[row])]
    if n >= len(scored):
        return scored
    ranked = sorted(scored, key=lambda row: (scores[row], row))
    edges = np.linspace(0, len(ranked), bins + 1).round().astype(int)
    rng = np.random.default_rng(seed)
    picked: list[int] = []
    for b in range(bins):
        members = ranked[edges[b]:edges[b + 1]]
        share = n // bins + (1 if b < n % bins else 0)
        if share >= len(members):
            picked += members
        else:
            picked += [members[k] for k in rng.choice(len(members), size=share, replace=False)]
    kept = set(picked)
    return [row for row in rows if row in kept]


def separating_power(differences: np.ndarray, size: int, seed: int, alpha: float = 0.05,
                     resamples: int = POWER_RESAMPLES) -> float:
    """The share of ``resamples`` bootstrap samples of ``size`` paired ``differences`` whose paired t-test
    (two-sided, ``alpha``; the normal quantile) rejects a zero mean, in the direction of the whole's mean."""
    from statistics import NormalDist

    d = np.asarray(differences, dtype=float)
    if d.size == 0 or size < 2:
        return 0.0
    draws = d[np.random.default_rng(seed).integers(0, d.size, size=(resamples, size))]
    mean = draws.mean(axis=1)
    sd = draws.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(sd > 0, mean / (sd / math.sqrt(size)), np.sign(mean) * np.inf)
    z = NormalDist().inv_cdf(1 - alpha / 2)
    direction = 1.0 if d.mean() >= 0 else -1.0
    return float(np.mean(direction * t > z))


def segments_needed(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, seed: int, alpha: float = 0.05,
                    power: float = 0.8, most: int | None = None) -> int | None:
    """The fewest segments (of :data:`SIZES`, at most ``most``) whose paired test separates systems ``a`` and
    ``b`` (their segment scores, paired; NaN pairs left out) in ``power`` of the bootstrap samples; None when no
    size up to ``most`` does (the metric sees them as equal, or too close for a campaign of that size). The power
    is taken to grow with the size (it does, but for the bootstrap's noise near ``power``)."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    keep = ~(np.isnan(x) | np.isnan(y))
    differences = (x - y)[keep]
    if differences.size < 2 or not np.any(differences):
        return None
    sizes = [size for size in SIZES if most is None or size <= most]

    def separates(k: int) -> bool:
        return separating_power(differences, sizes[k], seed, alpha) >= power

    # The power grows with the size: a binary search over the sizes (5 of 19 computed, not up to 19; 15 systems'
    # 105 pairs took minutes one size after another), the largest first (no size separates systems the metric
    # sees as equal).
    if not sizes or not separates(len(sizes) - 1):
        return None
    low, high = 0, len(sizes) - 1  # sizes[high] separates
    while low < high:
        middle = (low + high) // 2
        if separates(middle):
            high = middle
        else:
            low = middle + 1
    return sizes[high]
