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

Segments without a score (imported scores: a system absent from the file, an unrated segment) make no claim:
a pair is tested on the segments both of its systems have (:attr:`PairMatrix.common` says how many), each pair's
own masked statistics resampled with the same random numbers as every other pair; a pair with no such segment,
or a bootstrap resample that drew none of them, has no p-value (:meth:`PairMatrix.reason` says why); a system
with no score at all has no rank.

Ranks follow the clustering of WMT's metrics tooling: systems sorted best first
(highest, or lowest for a metric such as TER), walking down the list, a system
starts a new rank when it is significantly worse (p ≤ α) than any system already
in the current rank; otherwise it joins it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

import numpy as np

from ..metrics.base import Metric
from .randomization import ar_p_values, wide_ar_p_values
from .resampling import DEFAULT_SEED
from .significance import (
    SystemTest,
    bootstrap_chunks,
    bootstrap_scores,
    check_metric,
    delta_interval,
    estimate_ci,
    resample_weights,
)

Progress = Callable[[float], None]
T = TypeVar("T")
TESTS = ("bs", "ar")
TEST_NAMES = {"bs": "paired bootstrap", "ar": "paired approximate randomization"}
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
    # With segments that have no score (see the module): per pair the segments both systems scored (systems ×
    # systems), Δ (b − a) in every resample of those segments for a < b, and why a pair has no p-value.
    common: np.ndarray | None = None
    pair_deltas: dict[tuple[int, int], np.ndarray] | None = None
    reasons: dict[tuple[int, int], str] | None = None          # neither test (no segment scored by both)
    bootstrap_gaps: dict[tuple[int, int], int] | None = None   # resamples that drew no segment scored by both
    same: np.ndarray | None = None  # pairs that score the same on the segments they were tested on (None: scores)
    # Segment scores (imported, MQM): per pair the segments both scored where the two differ. A pair whose scores
    # differ in too few segments can be significant under no test (see :func:`fewest_differing`).
    differing: np.ndarray | None = None

    def can_be_significant(self, a: int, b: int, alpha: float = DEFAULT_ALPHA) -> bool:
        """Whether a small p-value of systems ``a`` and ``b`` may be called significant: they score differently on
        the segments they were tested on, and (segment scores) in enough of them (:meth:`too_few_differ`)."""
        if self.too_few_differ(a, b, alpha) is not None:
            return False
        if self.same is not None:
            return not bool(self.same[a, b])
        return bool(self.scores[a] != self.scores[b])

    def too_few_differ(self, a: int, b: int, alpha: float = DEFAULT_ALPHA) -> str | None:
        """Why no test of the pair (a, b) can be significant at ``alpha`` (None: one can): its segment scores differ
        in fewer segments than :func:`fewest_differing` (an identical pair is said otherwise)."""
        if self.differing is None or a == b:
            return None
        k = int(self.differing[a, b])
        if k == 0 or k >= fewest_differing(alpha):
            return None
        return (f"{self.names[a]} and {self.names[b]} differ in {'one segment' if k == 1 else f'{k} segments'}: "
                f"no paired test of so few can be significant at {alpha:g} (an exact permutation test's smallest "
                f"p is 2^(1 − {k}) = {2.0 ** (1 - k):.3g}; {fewest_differing(alpha)} are needed)")

    def apart(self, p: np.ndarray, alpha: float) -> np.ndarray:
        """Which pairs differ significantly under the p-values ``p``: p ≤ alpha and the two score differently on
        the segments they were tested on, in enough of them (see :func:`significant`)."""
        return significant(p, self.scores, alpha, self.same, self.differing)

    @property
    def size(self) -> int:
        return len(self.names)

    def scored(self, i: int) -> bool:
        """Whether system ``i`` has a score (a system whose imported scores are all missing has none)."""
        return not math.isnan(float(self.scores[i]))

    def reason(self, a: int, b: int, test: str = "bs") -> str | None:
        """Why the pair (a, b) has no p-value under ``test`` (None: it has one, or no test was run)."""
        if not (self.scored(a) and self.scored(b)):
            return f"{self.names[b if self.scored(a) else a]} has no scores"
        pair = (min(a, b), max(a, b))
        said = (self.reasons or {}).get(pair)
        gaps = (self.bootstrap_gaps or {}).get(pair, 0)
        if said is None and test == "bs" and gaps:
            said = (f"{gaps:,} of {self.bs_samples:,} bootstrap resamples drew none of the "
                    f"{self.tested_on(a, b):,} segments both scored")
        return said

    def no_interval(self, i: int) -> str | None:
        """Why system ``i`` has no bootstrap mean and interval (None: it has them, or there is no bootstrap)."""
        if self.resampled is None:
            return None
        if not self.scored(i):
            return "no scores"
        unscored = int(np.isnan(self.resampled[i]).sum())
        if not unscored:
            return None
        have = f" {int(self.common[i, i]):,}" if self.common is not None else ""
        return f"{unscored:,} of {self.bs_samples:,} bootstrap resamples drew none of its{have} scored segments"

    def tested_on(self, a: int, b: int) -> int | None:
        """How many segments the pair (a, b) was tested on (None: every segment)."""
        return None if self.common is None else int(self.common[a, b])

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
        """System indices, best first (ties keep the run's order); systems with no score last."""
        sign = -1.0 if self.higher_is_better else 1.0
        return sorted(range(self.size), key=lambda i: (not self.scored(i), sign * float(self.scores[i])
                                                       if self.scored(i) else 0.0))

    def deltas(self, a: int, b: int) -> np.ndarray | None:
        """Δ (b − a) in every bootstrap resample (in float64: chrF's and TER's resampled scores are float32, as
        sacreBLEU's are, and their difference is for showing, not for a p-value); None without the bootstrap or
        where the pair has no p-value."""
        if self.resampled is None or self.reason(a, b, "bs") is not None:
            return None
        if self.pair_deltas is not None:
            d = self.pair_deltas[(min(a, b), max(a, b))]
            return d if a < b else -d
        return self.resampled[b].astype(np.float64) - self.resampled[a].astype(np.float64)

    def interval(self, a: int, b: int) -> tuple[float, float] | None:
        """The 95% interval of Δ (b − a) by sacreBLEU's rule (see :func:`significance.delta_interval`)."""
        d = self.deltas(a, b)
        return None if d is None else delta_interval(d)

    def ranks(self, alpha: float = DEFAULT_ALPHA, correction: str = "none") -> list[int | None] | None:
        """Each system's rank (run order) from :attr:`rank_test`'s p-values; None without significance tests, and
        None for a system with no score (it is left out of the ranking)."""
        test = self.rank_test
        if test is None:
            return None
        p = self.p(test, correction)
        assert p is not None
        ranked = [i for i in self.by_score() if self.scored(i)]
        ranks = assign_ranks(ranked, p, alpha, self.scores, self.same, self.differing)
        return [ranks[i] if self.scored(i) else None for i in range(self.size)]


    def baseline_tests(self, test: str) -> list[SystemTest] | None:
        """sacreBLEU's ``--paired-bs`` / ``--paired-ar`` layout: system 0 against each of the others."""
        raw = self.raw(test)
        if raw is None:
            return None
        out = []
        for i, name in enumerate(self.names):
            mean = ci = None
            if test == "bs" and self.resampled is not None and self.no_interval(i) is None:
                mean, ci = estimate_ci(self.resampled[i])
            p = None if i == 0 or math.isnan(raw[0, i]) else float(raw[0, i])
            deltas = self.deltas(0, i) if test == "bs" and i > 0 else None
            out.append(SystemTest(name, float(self.scores[i]), p, mean, ci, deltas=deltas))
        return out

    def permuted(self, order: Sequence[int]) -> PairMatrix:
        """The same matrix with the systems in another order (``order[k]`` is the old index of new system k)."""
        ix = np.asarray(order, np.int64)

        def both(m: np.ndarray | None) -> np.ndarray | None:
            return None if m is None else m[np.ix_(ix, ix)]

        where = {old: new for new, old in enumerate(ix.tolist())}
        return replace(self, names=[self.names[i] for i in ix], scores=self.scores[ix], p_bs=both(self.p_bs),
                       p_ar=both(self.p_ar), resampled=None if self.resampled is None else self.resampled[ix],
                       common=both(self.common), pair_deltas=_renumbered(self.pair_deltas, where, np.negative),
                       reasons=_renumbered(self.reasons, where), bootstrap_gaps=_renumbered(self.bootstrap_gaps, where),
                       same=both(self.same), differing=both(self.differing))

    def renamed(self, names: Sequence[str]) -> PairMatrix:
        return replace(self, names=list(names))


def _renumbered(found: dict[tuple[int, int], T] | None, where: dict[int, int],
                flip: Callable[[T], T] | None = None) -> dict[tuple[int, int], T] | None:
    """A per-pair table keyed (a, b) with a < b after the systems moved (``where``: old index -> new); ``flip``
    turns a value about when its pair's order turns (a Δ changes sign)."""
    if found is None:
        return None
    out = {}
    for (a, b), value in found.items():
        x, y = where[a], where[b]
        out[(min(x, y), max(x, y))] = flip(value) if flip is not None and x > y else value
    return out


def holm(p: np.ndarray) -> np.ndarray:
    """Holm–Bonferroni adjusted p-values of a symmetric pair matrix (one family: every pair once).

    The k-th smallest of m p-values becomes max over j ≤ k of min(1, (m − j + 1)·p_(j)).
    """
    n = len(p)
    rows, cols = np.triu_indices(n, 1)
    tested = ~np.isnan(p[rows, cols])  # a pair with no p-value is no comparison of the family
    rows, cols = rows[tested], cols[tested]
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


def fewest_differing(alpha: float) -> int:
    """The fewest differing segments with which a paired test of segment scores can reach ``alpha``: an exact
    permutation test of k segments that differ has 2^k equally likely sign flips, so its smallest two-sided p is
    2^(1 − k) (6 segments at 0.05). sacreBLEU's approximate randomization counts a trial only when it exceeds the
    observed difference, so with one differing segment every trial ties and p = 1/(n+1): a number that says nothing."""
    return max(1, math.ceil(1 + math.log2(1 / alpha))) if alpha > 0 else 1 << 30


def significant(p: np.ndarray, scores: Sequence[float] | np.ndarray | None, alpha: float,
                same: np.ndarray | None = None, differing: np.ndarray | None = None) -> np.ndarray:
    """Which pairs differ significantly: p ≤ alpha, and (given ``scores``) the two scores differ — on the segments
    the pair was tested on, where ``same`` says which pairs score the same there — in at least
    :func:`fewest_differing` segments where ``differing`` counts them (segment scores).

    Two systems with the same score are never "significantly" apart: two identical outputs get
    p = 1/(n+1) from sacreBLEU's formula, which says nothing about them. Every mark, colour and rank uses this.
    """
    with np.errstate(invalid="ignore"):
        out = np.asarray(p <= alpha)
    if same is not None:
        out = out & ~same
    elif scores is not None:
        s = np.asarray(scores, np.float64)
        out = out & (s[:, None] != s[None, :])
    if differing is not None:
        out = out & (differing >= fewest_differing(alpha))
    return out


def assign_ranks(by_score: Sequence[int], p: np.ndarray, alpha: float,
                 scores: Sequence[float] | np.ndarray | None = None, same: np.ndarray | None = None,
                 differing: np.ndarray | None = None) -> list[int]:
    """Ranks (1 = best) in the run's order: walk the systems best first; a system opens a new rank when it is
    :func:`significant`-ly worse than any system already in the current rank, else it joins that rank."""
    apart = significant(p, scores, alpha, same, differing)
    ranks = [0] * len(p)  # indexed by system: a system left out of ``by_score`` (no score) keeps its place, at 0
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


def win_tie_loss(a: np.ndarray, b: np.ndarray, both: np.ndarray | None = None) -> tuple[int, int, int]:
    """Sentences where b scores higher than a, the same, lower (an undefined score counts as 0); ``both``: only
    these segments count (those both systems have a score for)."""
    d = np.nan_to_num(np.asarray(b, float)) - np.nan_to_num(np.asarray(a, float))
    if both is not None:
        d = d[both]
    return int(np.sum(d > 0)), int(np.sum(d == 0)), int(np.sum(d < 0))


def _real_scores(stats: Sequence[np.ndarray], metric: Metric) -> np.ndarray:
    return np.array([metric.value(s) for s in stats])


def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(n, 1)


def _bootstrap_p(resampled: np.ndarray, real: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """sacreBLEU's bootstrap p-value of each pair (first[x], second[x]) from the systems' resampled scores."""
    n = resampled.shape[1]
    out = np.empty(len(first))
    for x, (i, j) in enumerate(zip(first.tolist(), second.tolist())):
        diffs = np.abs(resampled[j] - resampled[i])
        count = int(np.sum((diffs - diffs.mean()) > abs(real[i] - real[j])))
        out[x] = (count + 1) / (n + 1)
    return out


def _symmetric(k: int, first: np.ndarray, second: np.ndarray, values: np.ndarray) -> np.ndarray:
    out = np.full((k, k), np.nan)
    out[first, second] = out[second, first] = values
    return out


def pair_matrix(stats: Sequence[np.ndarray], metric: Metric, names: Sequence[str], bootstrap: int | None,
                approximate: int | None, seed: int | None = DEFAULT_SEED,
                progress: Progress | None = None) -> PairMatrix:
    """Both paired tests for every pair of systems (``None``: that test is not run).

    Each pair's p-values equal sacreBLEU's ``--paired-bs`` / ``--paired-ar`` run with either
    system of the pair as the baseline and the same seed. Where segments have no score, see the module.
    """
    check_metric(metric)
    if any(metric.scored(s) is not None for s in stats):
        return _matrix_with_gaps(stats, metric, names, bootstrap, approximate, seed, progress)
    real = _real_scores(stats, metric)
    resampled = p_bs = p_ar = None
    bs_share = 0.3 if bootstrap and approximate else 1.0
    k = len(stats)
    first, second = _pairs(k)
    if bootstrap:
        resampled = bootstrap_scores(stats, metric, bootstrap, seed, _part(progress, 0.0, bs_share))
        p_bs = _symmetric(k, first, second, _bootstrap_p(resampled, real, first, second))
    if approximate:
        start = bs_share if bootstrap else 0.0
        p_ar = _symmetric(k, first, second, ar_p_values(stats, metric, real, approximate, seed,
                                                  _part(progress, start, 1.0 - start), first, second))
    return PairMatrix(list(names), real, p_bs, p_ar, resampled, bootstrap or None, approximate or None, seed,
                      metric.higher_is_better)


def _part(progress: Progress | None, start: float, span: float) -> Progress | None:
    return None if progress is None else (lambda f: progress(start + span * f))


class _PairStatistics:
    """Each system's statistics as a pair sees them: with the segments the other system lacks made missing. The
    same (system, segments) is held once; a system whose every segment the other has keeps its own statistics."""

    def __init__(self, stats: Sequence[np.ndarray], metric: Metric):
        length = len(stats[0])
        found = [metric.scored(s) for s in stats]
        self.masks = [m if m is not None else np.ones(length, bool) for m in found]
        self.stats: list[np.ndarray] = []
        self._index: dict[tuple[int, bytes], int] = {}
        self._given, self._metric = stats, metric
        self.own = [self.of(i, self.masks[i]) for i in range(len(stats))]

    def of(self, system: int, segments: np.ndarray) -> int:
        """The index in :attr:`stats` of ``system`` on ``segments`` (a subset of its own)."""
        key = (system, np.packbits(segments).tobytes())
        if key not in self._index:
            self._index[key] = len(self.stats)
            own = bool(np.array_equal(segments, self.masks[system]))
            self.stats.append(self._given[system] if own else self._metric.keep_only(self._given[system], segments))
        return self._index[key]


def _wide_bootstrap_scores(stats: Sequence[np.ndarray], metric: Metric, n: int, seed: int | None,
                           progress: Progress | None = None) -> np.ndarray:
    """:func:`~.significance.bootstrap_scores` of many sets of statistics with one product per chunk of resamples
    (each resample's draw counts times all columns side by side, in float64): the per-pair statistics of systems
    with different gaps are hundreds of sets, and summing each one on its own took seconds."""
    cols = stats[0].shape[1]
    stacked = np.concatenate([s.astype(np.float64) for s in stats], axis=1)
    out, done = [], 0
    for idx in bootstrap_chunks(len(stats[0]), n, seed):
        sums = resample_weights(idx).astype(np.float64) @ stacked
        per_set = sums.reshape(len(idx), len(stats), cols).transpose(1, 0, 2).reshape(-1, cols)
        out.append(metric.scores_of_sums(per_set).reshape(len(stats), len(idx)))
        done += len(idx)
        if progress is not None:
            progress(done / n)
    return np.concatenate(out, axis=1)


def _matrix_with_gaps(stats: Sequence[np.ndarray], metric: Metric, names: Sequence[str], bootstrap: int | None,
                      approximate: int | None, seed: int | None, progress: Progress | None) -> PairMatrix:
    """Both tests of every pair on the segments both of its systems have (see the module): one bootstrap and one
    AR pass over every pair's statistics, the same random numbers for all."""
    k = len(stats)
    held = _PairStatistics(stats, metric)
    common = np.zeros((k, k), np.int64)
    differing = np.zeros((k, k), np.int64)
    reasons: dict[tuple[int, int], str] = {}
    tested: list[tuple[int, int, int, int]] = []  # (i, j, held i, held j)
    for i, j in zip(*(a.tolist() for a in _pairs(k))):
        both = held.masks[i] & held.masks[j]
        common[i, j] = common[j, i] = int(both.sum())
        differing[i, j] = differing[j, i] = int(np.any(stats[i][both] != stats[j][both], axis=1).sum())
        if common[i, j]:
            tested.append((i, j, held.of(i, both), held.of(j, both)))
        elif held.masks[i].any() and held.masks[j].any():
            reasons[(i, j)] = "no segment scored by both"
    np.fill_diagonal(common, [int(m.sum()) for m in held.masks])
    real = _real_scores(stats, metric)
    real_held = _real_scores(held.stats, metric)
    same = np.ones((k, k), bool)  # a pair with no segment in common shows no difference either
    for i, j, vi, vj in tested:
        same[i, j] = same[j, i] = bool(real_held[vi] == real_held[vj])
    pairs = np.array([t[:2] for t in tested], np.int64).reshape(-1, 2)
    v_first = np.array([t[2] for t in tested], np.int64)
    v_second = np.array([t[3] for t in tested], np.int64)
    resampled = p_bs = p_ar = None
    deltas: dict[tuple[int, int], np.ndarray] = {}
    gaps: dict[tuple[int, int], int] = {}
    bs_share = 0.3 if bootstrap and approximate else 1.0
    # Every pair on its own systems' statistics (the systems miss the same segments: MQM's unrated ones) is the
    # exact per-system path; pairs that see each other's gaps are summed in one product for all
    # (see randomization.wide_ar_p_values).
    wide = len(held.stats) > k
    if bootstrap:
        score_all = _wide_bootstrap_scores if wide else bootstrap_scores
        every = score_all(held.stats, metric, bootstrap, seed, _part(progress, 0.0, bs_share))
        resampled = every[held.own]
        values = _bootstrap_p(every, real_held, v_first, v_second)
        for x, (i, j, vi, vj) in enumerate(tested):
            unscored = int(np.sum(np.isnan(every[vi]) | np.isnan(every[vj])))
            if unscored:
                values[x] = np.nan
                gaps[(i, j)] = unscored
            else:
                deltas[(i, j)] = every[vj].astype(np.float64) - every[vi].astype(np.float64)
        p_bs = _symmetric(k, pairs[:, 0], pairs[:, 1], values)
    if approximate:
        start = bs_share if bootstrap else 0.0
        test = wide_ar_p_values if wide else ar_p_values
        values = test(held.stats, metric, real_held, approximate, seed, _part(progress, start, 1.0 - start),
                      v_first, v_second) if tested else np.zeros(0)
        p_ar = _symmetric(k, pairs[:, 0], pairs[:, 1], values)
    return PairMatrix(list(names), real, p_bs, p_ar, resampled, bootstrap or None, approximate or None, seed,
                      metric.higher_is_better, common=common, pair_deltas=deltas if bootstrap else None,
                      reasons=reasons, bootstrap_gaps=gaps, same=same, differing=differing)
