"""Approximate randomization for every pair of systems at once: sacreBLEU's ``--paired-ar`` p-values.

With the coin flips ``pos`` of a trial, ``pos @ (stats_i − stats_j)`` is ``P_i − P_j`` where ``P_k = pos @ stats_k``:
one product per chunk of trials for all systems, then every pair's pseudo-systems are scored with the vectorised
formula. A trial counts when its difference exceeds the observed one; only that side matters, so the trials are
scored approximately and those near the observed difference again exactly (:func:`_past`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..metrics.base import APPROXIMATE, Metric
from .significance import SideBySide, ar_chunks

Progress = Callable[[float], None]


Exceeding = Callable[[np.ndarray], np.ndarray]  # a chunk's coin flips -> per pair, trials past the observed Δ


def _past(metric: Metric, a: np.ndarray, b: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """Whether each trial's difference |score(a) − score(b)| exceeds its pair's ``observed`` one (rows of summed
    statistics, one observed difference per row), as the exact scores say. Only the side matters: the scores are
    approximate, and the trials whose difference lies within twice the approximation of the observed one (ties
    among them: sacreBLEU counts a tie as not past) are scored again exactly."""
    if not metric.approximates:  # the exact scores at once: nothing to score twice
        return np.abs(metric.scores_of_sums(a) - metric.scores_of_sums(b)) > observed
    diff = np.abs(metric.approximate_scores_of_sums(a) - metric.approximate_scores_of_sums(b))
    near = np.flatnonzero(np.abs(diff - observed) <= 2 * APPROXIMATE)
    if len(near):
        diff[near] = np.abs(metric.scores_of_sums(a[near]) - metric.scores_of_sums(b[near]))
    return diff > observed


def _fractional_trials(stats: Sequence[np.ndarray], metric: Metric, observed: np.ndarray, first: np.ndarray,
                       second: np.ndarray) -> Exceeding:
    """AR trials for statistics that are not whole numbers (TER's mean reference lengths), in sacreBLEU's
    arithmetic: a trial's pseudo-systems are ``pos @ S_i + ~pos @ S_j`` and ``~pos @ S_i + pos @ S_j``. Differences
    of sums would round otherwise, and a trial whose difference ties the observed one to the last bit (it happens
    when both systems' lengths are the same fractions) would count differently."""
    floats = [s.astype(np.float64) for s in stats]

    def exceeding(pos: np.ndarray) -> np.ndarray:
        # The coin flips as 0.0/1.0 once per chunk: ``pos @ s`` would convert them again for every system (the
        # products, and so their rounding, are the same).
        taken_by, left_by = pos.astype(np.float64), (~pos).astype(np.float64)
        taken = [taken_by @ s for s in floats]
        left = [left_by @ s for s in floats]
        counts = np.zeros(len(first), np.int64)
        for x, (i, j) in enumerate(zip(first.tolist(), second.tolist())):
            a = metric.scores_of_sums(taken[i] + left[j])
            b = metric.scores_of_sums(left[i] + taken[j])
            counts[x] = int(np.sum(np.abs(a - b) > observed[x]))
        return counts

    return exceeding


def _integer_trials(stats: Sequence[np.ndarray], metric: Metric, observed: np.ndarray, first: np.ndarray,
                    second: np.ndarray) -> Exceeding:
    """AR trials for whole-number statistics, with exact integer sums: only differences to system 0 are
    multiplied, P_i − P_j = pos @ (S_i − S_0) − pos @ (S_j − S_0), so k systems cost k − 1 systems' columns (two
    systems: one product, as a single pair test needs)."""
    k, cols = len(stats), stats[0].shape[1]
    side = SideBySide([s.astype(np.int64) - stats[0] for s in stats[1:]])  # signed
    totals = np.stack([s.sum(axis=0) for s in stats]).astype(np.int64)

    def exceeding(pos: np.ndarray) -> np.ndarray:
        moved_all = np.zeros((len(pos), k, cols), np.int64)
        moved_all[:, 1:] = side.sums(pos, 1).reshape(len(pos), k - 1, cols)
        # Pair (i, j) as sacreBLEU with i the baseline: the trial swaps where the coin says so, moving
        # pos @ (stats_i - stats_j) from i to j.
        moved = moved_all[:, first] - moved_all[:, second]          # trials × pairs × columns
        a = (totals[second][None] + moved).reshape(-1, cols)
        b = (totals[first][None] - moved).reshape(-1, cols)
        return _past(metric, a, b, np.tile(observed, len(pos))).reshape(len(pos), -1).sum(axis=0)

    return exceeding


def ar_p_values(stats: Sequence[np.ndarray], metric: Metric, real: np.ndarray, n: int, seed: int | None,
          progress: Progress | None, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """sacreBLEU's approximate randomization p-value of each pair (first[x], second[x])."""
    observed = np.abs(real[first] - real[second])
    trials = (_integer_trials if metric.integer_statistics else _fractional_trials)(stats, metric, observed, first,
                                                                                   second)
    counts = np.zeros(len(first), np.int64)
    done = 0
    for pos in ar_chunks(len(stats[0]), n, seed):
        if progress is not None:
            progress(done / n)  # between the draw and the product, each about half of a chunk's time
        counts += trials(pos)
        done += len(pos)
        if progress is not None:
            progress(done / n)
    return (counts + 1) / (n + 1)


def wide_ar_p_values(stats: Sequence[np.ndarray], metric: Metric, real: np.ndarray, n: int, seed: int | None,
               progress: Progress | None, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """:func:`ar_p_values` for many sets of statistics: each chunk of coin flips multiplies every set's columns at once
    (``pos @ S`` and ``~pos @ S``), then every pair forms sacreBLEU's pseudo-systems ``pos @ A + ~pos @ B`` and
    ``~pos @ A + pos @ B`` from them. The products' sums may round in another order than one product per set: a
    trial whose difference ties the observed one to the last bit could count otherwise (none does on
    continuous scores; systems with the same gaps take the exact path)."""
    cols = stats[0].shape[1]
    stacked = np.concatenate([s.astype(np.float64) for s in stats], axis=1)
    observed = np.abs(real[first] - real[second])
    counts = np.zeros(len(first), np.int64)
    done = 0
    for pos in ar_chunks(len(stats[0]), n, seed):
        if progress is not None:
            progress(done / n)
        taken = (pos.astype(np.float64) @ stacked).reshape(len(pos), len(stats), cols)
        left = ((~pos).astype(np.float64) @ stacked).reshape(len(pos), len(stats), cols)
        a = (taken[:, first] + left[:, second]).reshape(-1, cols)
        b = (left[:, first] + taken[:, second]).reshape(-1, cols)
        counts += _past(metric, a, b, np.tile(observed, len(pos))).reshape(len(pos), -1).sum(axis=0)
        done += len(pos)
        if progress is not None:
            progress(done / n)
    return (counts + 1) / (n + 1)
