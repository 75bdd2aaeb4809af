"""Every pair of systems at once: paired bootstrap and approximate randomization p-values, equal to sacreBLEU's.

sacreBLEU's ``--paired-bs`` and ``--paired-ar`` test one baseline against the
others. Both tests are symmetric in the pair and draw the same random numbers
for every system (the bootstrap resample indices, the AR coin flips: sacreBLEU
reseeds for each system), so the p-value of a pair does not depend on which of
the two is the baseline. That is what lets one pass serve all N·(N−1)/2 pairs:

- bootstrap: each system's resample scores are computed once (one matrix
  product for all systems per chunk of resamples); a pair's p-value is
  sacreBLEU's formula on the two score vectors;
- AR: with the coin flips ``pos`` of a trial, ``pos @ (stats_i − stats_j)`` is
  ``P_i − P_j`` where ``P_k = pos @ stats_k``: one product per chunk for all
  systems, then every pair is scored with the vectorised formula.

For whole-number statistics the sums are exact integers (float64 products of
small integers), so the p-values are sacreBLEU's bit for bit; the tests compare
every pair with sacreBLEU. Nothing here asks which metric it holds.

Ranks follow the clustering of WMT's metrics tooling: systems sorted best first
(highest, or lowest for a metric such as TER), walking down the list, a system
starts a new rank when it is significantly worse (p ≤ α) than any system already
in the current rank; otherwise it joins it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..metrics.base import Metric
from .significance import (
    DEFAULT_SEED,
    SideBySide,
    SystemTest,
    ar_chunks,
    bootstrap_scores,
    check_metric,
    delta_interval,
    estimate_ci,
)

Progress = Callable[[float], None]
TESTS = ("bs", "ar")
TEST_NAMES = {"bs": "paired bootstrap", "ar": "paired approximate randomization"}
CORRECTIONS = ("none", "holm")
DEFAULT_ALPHA = 0.05


@dataclass(frozen=True)
class PairMatrix:
    """p-values of every pair of systems (indices in the run's order; symmetric, NaN on the diagonal).

    ``resampled``: each system's corpus score in every bootstrap resample (systems × resamples),
    from which any pair's Δ distribution and 95% interval follow. ``higher_is_better``: the metric's direction.
    """

    names: list[str]
    scores: np.ndarray
    p_bs: np.ndarray | None
    p_ar: np.ndarray | None
    resampled: np.ndarray | None
    bs_samples: int | None
    ar_trials: int | None
    seed: int | None
    higher_is_better: bool = True

    @property
    def size(self) -> int:
        return len(self.names)

    @property
    def tests(self) -> list[str]:
        return [t for t in TESTS if self.raw(t) is not None]

    @property
    def rank_test(self) -> str | None:
        """The test ranks come from: the permutation test (AR) as WMT's metrics tooling, else the bootstrap."""
        return "ar" if self.p_ar is not None else ("bs" if self.p_bs is not None else None)

    def raw(self, test: str) -> np.ndarray | None:
        return {"bs": self.p_bs, "ar": self.p_ar}[test]

    def p(self, test: str, correction: str = "none") -> np.ndarray | None:
        """The p-value matrix of ``test``, corrected for multiple comparisons if asked."""
        raw = self.raw(test)
        if raw is None:
            return None
        return holm(raw) if correction == "holm" else raw.copy()

    def by_score(self) -> list[int]:
        """System indices, best first (ties keep the run's order)."""
        sign = -1.0 if self.higher_is_better else 1.0
        return sorted(range(self.size), key=lambda i: sign * float(self.scores[i]))

    def deltas(self, a: int, b: int) -> np.ndarray | None:
        """Δ (b − a) in every bootstrap resample (in float64: chrF's and TER's resampled scores are float32, as
        sacreBLEU's are, and their difference is for showing, not for a p-value)."""
        if self.resampled is None:
            return None
        return self.resampled[b].astype(np.float64) - self.resampled[a].astype(np.float64)

    def interval(self, a: int, b: int) -> tuple[float, float] | None:
        """The 95% interval of Δ (b − a) by sacreBLEU's rule (see :func:`significance.delta_interval`)."""
        d = self.deltas(a, b)
        return None if d is None else delta_interval(d)

    def ranks(self, alpha: float = DEFAULT_ALPHA, correction: str = "none") -> list[int] | None:
        """Each system's rank (run order) from :attr:`rank_test`'s p-values; None without significance tests."""
        test = self.rank_test
        if test is None:
            return None
        p = self.p(test, correction)
        assert p is not None
        return assign_ranks(self.by_score(), p, alpha, self.scores)


    def baseline_tests(self, test: str) -> list[SystemTest] | None:
        """sacreBLEU's ``--paired-bs`` / ``--paired-ar`` layout: system 0 against each of the others."""
        raw = self.raw(test)
        if raw is None:
            return None
        out = []
        for i, name in enumerate(self.names):
            mean = ci = None
            if test == "bs" and self.resampled is not None:
                mean, ci = estimate_ci(self.resampled[i])
            p = None if i == 0 else float(raw[0, i])
            deltas = self.deltas(0, i) if test == "bs" and i > 0 else None
            out.append(SystemTest(name, float(self.scores[i]), p, mean, ci, deltas=deltas))
        return out

    def permuted(self, order: Sequence[int]) -> PairMatrix:
        """The same matrix with the systems in another order (``order[k]`` is the old index of new system k)."""
        ix = np.asarray(order, np.int64)

        def both(m: np.ndarray | None) -> np.ndarray | None:
            return None if m is None else m[np.ix_(ix, ix)]

        return replace(self, names=[self.names[i] for i in ix], scores=self.scores[ix], p_bs=both(self.p_bs),
                       p_ar=both(self.p_ar), resampled=None if self.resampled is None else self.resampled[ix])

    def renamed(self, names: Sequence[str]) -> PairMatrix:
        return replace(self, names=list(names))


def holm(p: np.ndarray) -> np.ndarray:
    """Holm–Bonferroni adjusted p-values of a symmetric pair matrix (one family: every pair once).

    The k-th smallest of m p-values becomes max over j ≤ k of min(1, (m − j + 1)·p_(j)).
    """
    n = len(p)
    rows, cols = np.triu_indices(n, 1)
    values = p[rows, cols]
    out = np.full_like(p, np.nan)
    if not len(values):
        return out
    m = len(values)
    order = np.argsort(values, kind="stable")
    scaled = np.minimum(1.0, (m - np.arange(m)) * values[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    out[rows, cols] = adjusted
    out[cols, rows] = adjusted
    return out


def significant(p: np.ndarray, scores: Sequence[float] | np.ndarray | None, alpha: float) -> np.ndarray:
    """Which pairs differ significantly: p ≤ alpha, and (given ``scores``) the two scores differ.

    Two systems with the same BLEU are never "significantly" apart: two identical outputs get
    p = 1/(n+1) from sacreBLEU's formula, which says nothing about them. Every mark, colour and rank uses this.
    """
    with np.errstate(invalid="ignore"):
        out = np.asarray(p <= alpha)
    if scores is not None:
        s = np.asarray(scores, np.float64)
        out = out & (s[:, None] != s[None, :])
    return out


def assign_ranks(by_score: Sequence[int], p: np.ndarray, alpha: float,
                 scores: Sequence[float] | np.ndarray | None = None) -> list[int]:
    """Ranks (1 = best) in the run's order: walk the systems best first; a system opens a new rank when it is
    :func:`significant`-ly worse than any system already in the current rank, else it joins that rank."""
    apart = significant(p, scores, alpha)
    ranks = [0] * len(by_score)
    current: list[int] = []
    rank = 0
    for i in by_score:
        if not current or any(apart[j, i] for j in current):
            rank += 1
            current = []
        current.append(i)
        ranks[i] = rank
    return ranks


def sign_test(wins: int, losses: int) -> float:
    """Two-sided sign test p-value of ``wins`` against ``losses`` (ties left out): P(|X − n/2| ≥ |k − n/2|)
    for X ~ Binomial(n, 1/2), summed in log space (exact to about 1e-12 relative)."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    # log C(n, i) for i = 0..k, from the ratios C(n, i) / C(n, i-1) = (n - i + 1) / i.
    i = np.arange(1, k + 1, dtype=np.float64)
    log_terms = np.concatenate([[0.0], np.cumsum(np.log((n - i + 1) / i))]) + n * math.log(0.5)
    top = float(log_terms.max())
    tail = math.exp(top + math.log(float(np.exp(log_terms - top).sum())))
    return min(1.0, 2.0 * tail)


def win_tie_loss(a: np.ndarray, b: np.ndarray) -> tuple[int, int, int]:
    """Sentences where b scores higher than a, the same, lower (an undefined score counts as 0)."""
    d = np.nan_to_num(np.asarray(b, float)) - np.nan_to_num(np.asarray(a, float))
    return int(np.sum(d > 0)), int(np.sum(d == 0)), int(np.sum(d < 0))


def _real_scores(stats: Sequence[np.ndarray], metric: Metric) -> np.ndarray:
    return np.array([metric.value(s) for s in stats])


def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(n, 1)


def _bootstrap_p(resampled: np.ndarray, real: np.ndarray) -> np.ndarray:
    k, n = resampled.shape
    p = np.full((k, k), np.nan)
    for i, j in zip(*_pairs(k)):
        diffs = np.abs(resampled[j] - resampled[i])
        count = int(np.sum((diffs - diffs.mean()) > abs(real[i] - real[j])))
        p[i, j] = p[j, i] = (count + 1) / (n + 1)
    return p


Exceeding = Callable[[np.ndarray], np.ndarray]  # a chunk's coin flips -> per pair, trials past the observed Δ


def _fractional_trials(stats: Sequence[np.ndarray], metric: Metric, observed: np.ndarray) -> Exceeding:
    """AR trials for statistics that are not whole numbers (TER's mean reference lengths), in sacreBLEU's
    arithmetic: a trial's pseudo-systems are ``pos @ S_i + ~pos @ S_j`` and ``~pos @ S_i + pos @ S_j``. Differences
    of sums would round otherwise, and a trial whose difference ties the observed one to the last bit (it happens
    when both systems' lengths are the same fractions) would count differently."""
    first, second = _pairs(len(stats))
    floats = [s.astype(np.float64) for s in stats]

    def exceeding(pos: np.ndarray) -> np.ndarray:
        # The coin flips as 0.0/1.0 once per chunk: ``pos @ s`` would convert them again for every system (the
        # products, and so their rounding, are the same).
        taken_by, left_by = pos.astype(np.float64), (~pos).astype(np.float64)
        taken = [taken_by @ s for s in floats]
        left = [left_by @ s for s in floats]
        counts = np.zeros(len(first), np.int64)
        for x, (i, j) in enumerate(zip(first, second)):
            a = metric.scores_of_sums(taken[i] + left[j])
            b = metric.scores_of_sums(left[i] + taken[j])
            counts[x] = int(np.sum(np.abs(a - b) > observed[x]))
        return counts

    return exceeding


def _integer_trials(stats: Sequence[np.ndarray], metric: Metric, observed: np.ndarray) -> Exceeding:
    """AR trials for whole-number statistics, with exact integer sums: only differences to system 0 are
    multiplied, P_i − P_j = pos @ (S_i − S_0) − pos @ (S_j − S_0), so k systems cost k − 1 systems' columns (two
    systems: one product, as a single pair test needs)."""
    k, cols = len(stats), stats[0].shape[1]
    side = SideBySide([s.astype(np.int64) - stats[0] for s in stats[1:]])  # signed
    totals = np.stack([s.sum(axis=0) for s in stats]).astype(np.int64)
    first, second = _pairs(k)

    def exceeding(pos: np.ndarray) -> np.ndarray:
        moved_all = np.zeros((len(pos), k, cols), np.int64)
        moved_all[:, 1:] = side.sums(pos, 1).reshape(len(pos), k - 1, cols)
        # Pair (i, j) as sacreBLEU with i the baseline: the trial swaps where the coin says so, moving
        # pos @ (stats_i - stats_j) from i to j.
        moved = moved_all[:, first] - moved_all[:, second]          # trials × pairs × columns
        a = (totals[second][None] + moved).reshape(-1, cols)
        b = (totals[first][None] - moved).reshape(-1, cols)
        diff = np.abs(metric.scores_of_sums(a) - metric.scores_of_sums(b)).reshape(len(pos), -1)
        return np.sum(diff > observed[None], axis=0)

    return exceeding


def _ar_p(stats: Sequence[np.ndarray], metric: Metric, real: np.ndarray, n: int, seed: int | None,
          progress: Progress | None) -> np.ndarray:
    k = len(stats)
    first, second = _pairs(k)
    observed = np.abs(real[first] - real[second])
    trials = (_integer_trials if metric.integer_statistics else _fractional_trials)(stats, metric, observed)
    counts = np.zeros(len(first), np.int64)
    done = 0
    for pos in ar_chunks(len(stats[0]), n, seed):
        if progress is not None:
            progress(done / n)  # between the draw and the product, each about half of a chunk's time
        counts += trials(pos)
        done += len(pos)
        if progress is not None:
            progress(done / n)
    p = np.full((k, k), np.nan)
    p[first, second] = p[second, first] = (counts + 1) / (n + 1)
    return p


def pair_matrix(stats: Sequence[np.ndarray], metric: Metric, names: Sequence[str], bootstrap: int | None,
                approximate: int | None, seed: int | None = DEFAULT_SEED,
                progress: Progress | None = None) -> PairMatrix:
    """Both paired tests for every pair of systems (``None``: that test is not run).

    Each pair's p-values equal sacreBLEU's ``--paired-bs`` / ``--paired-ar`` run with either
    system of the pair as the baseline and the same seed.
    """
    check_metric(metric)
    real = _real_scores(stats, metric)
    resampled = p_bs = p_ar = None
    bs_share = 0.3 if bootstrap and approximate else 1.0

    def part(start: float, span: float) -> Progress | None:
        return None if progress is None else (lambda f: progress(start + span * f))

    if bootstrap:
        resampled = bootstrap_scores(stats, metric, bootstrap, seed, part(0.0, bs_share))
        p_bs = _bootstrap_p(resampled, real)
    if approximate:
        start = bs_share if bootstrap else 0.0
        p_ar = _ar_p(stats, metric, real, approximate, seed, part(start, 1.0 - start))
    return PairMatrix(list(names), real, p_bs, p_ar, resampled, bootstrap or None, approximate or None, seed,
                      metric.higher_is_better)
