"""Does a metric agree with human judgement on this run? The statistics of WMT's metrics task as mt-metrics-eval
(google-research/mt-metrics-eval, "MTME") defines them, computed on the run's own systems and segments:

- system level: pairwise accuracy (MTME's ``Agreement``: the share of system pairs the metric orders as the humans do,
  a pair tied in both counting as agreement), Pearson's r, and soft pairwise accuracy (SPA, WMT24: MTME's
  ``PairwiseConfidenceError``, one minus the mean gap between the humans' and the metric's one-sided paired
  permutation p-values over every pair);
- segment level: acc*_eq with tie calibration (Deutsch et al. 2023, "Ties Matter"; MTME's ``KendallWithTiesOpt``,
  variant acc23, averaged by item, every pair: per segment over its systems, with the one threshold ε under which
  metric differences count as ties that maximises it), Pearson's r and Kendall's τ_b over every system × segment,
  and PDP (pairwise difference Pearson, MTME's ``pdp=True``, 2025: the correlation of the two sides' differences
  between every two systems on the same segment).

The segments are those every system has a human score for (the others are counted, never imputed: MTME #15). A
system's human score is the mean of its segment scores; its metric score is the metric's corpus score on those
segments (BLEU's corpus BLEU, not a mean of sentence BLEU); the segment-level statistics and SPA read the metric's
segment scores (sentence BLEU). A metric whose lower is better (TER, edit distance, MetricX) is negated first.
Baselines (MTME #14): a constant metric (every pair a metric tie) and a random one (uniform segment scores, 100
draws: their mean and spread).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ..errors import InputError, term
from ..metrics.base import Metric

PERMUTATIONS = 1000  # MTME's num_permutations for SPA
PCE_SEED = 4         # MTME's pce.compute_pairwise_p_values seed
RANDOM_DRAWS = 100
RANDOM_SEED = 12345
# A pair's segments that pull a metric and the humans apart, as JSON: (metric, a, b) -> their objects (the run knows
# them: core.run.meta_eval_run.segments_apart).
Apart = Callable[[str, str, str], list[dict[str, object]]]
STATISTICS = ("system_pairwise_accuracy", "system_pearson", "spa", "segment_acc_eq", "segment_pearson",
              "segment_kendall", "segment_pdp")


# -- the statistics, each on plain arrays ------------------------------------------------------------------------------
def pairwise_accuracy(human: np.ndarray, metric: np.ndarray) -> float:
    """MTME's ``Agreement`` as a share: pairs (i < j) with sign(h_i − h_j) == sign(m_i − m_j), over all pairs."""
    upper = np.triu_indices(len(human), 1)
    h = np.sign(human[:, None] - human[None, :])[upper]
    m = np.sign(metric[:, None] - metric[None, :])[upper]
    return float(np.mean(h == m)) if len(h) else math.nan


def pearson(x: np.ndarray, y: np.ndarray) -> float | None:
    """Pearson's r; None where either side is constant (undefined, never NaN)."""
    x, y = np.asarray(x, np.float64).ravel(), np.asarray(y, np.float64).ravel()
    if len(x) < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return None
    dx, dy = x - x.mean(), y - y.mean()
    return float(np.dot(dx, dy) / math.sqrt(float(np.dot(dx, dx)) * float(np.dot(dy, dy))))


def pairwise_p_values(segments: np.ndarray, permutations: int = PERMUTATIONS, seed: int = PCE_SEED,
                      both: bool = False) -> np.ndarray:
    """One-sided paired permutation p-values that system i beats system j (i < j) from summed segment scores
    (systems × segments), drawn as MTME's ``pce.compute_pairwise_p_values`` draws them (numpy's ``default_rng(4)``,
    float32, one sign matrix for every pair) so that the numbers are MTME's; NaN below the diagonal unless ``both``
    (then p[j, i] is j's over i)."""
    n_systems, n_segments = segments.shape
    # C order, as MTME's arrays are: float32 BLAS sums a matrix laid out otherwise in another order, and tied MQM
    # sums then round apart (SPA 4e-5 .. 1e-4 off MTME's on a real 13-system set).
    scores = np.ascontiguousarray(segments, dtype=np.float32)
    totals = np.sum(scores, axis=1)
    partial = np.matmul(_signs(permutations, n_segments, seed), scores.T)
    first, second = np.nonzero(~np.eye(n_systems, dtype=bool) if both else np.triu(np.ones((n_systems,) * 2, bool), 1))
    p = np.full((n_systems, n_systems), np.nan)
    # Every pair at once, in MTME's float32 arithmetic: null deltas against the observed one.
    p[first, second] = np.sum(partial[:, first] - partial[:, second] >= totals[first] - totals[second],
                              axis=0) / permutations
    return p


@functools.lru_cache(maxsize=4)
def _signs(permutations: int, n_segments: int, seed: int) -> np.ndarray:
    """MTME's ±1 matrix (drawn once for a shape and seed: the random baseline's draws reuse it, as MTME's calls do)."""
    signs = np.random.default_rng(seed).random(size=(permutations, n_segments), dtype=np.float32)
    np.rint(signs, out=signs, casting="same_kind")
    signs *= 2.0
    signs -= 1.0
    signs.setflags(write=False)
    return signs


def soft_pairwise_accuracy(human_p: np.ndarray, metric_p: np.ndarray) -> float:
    """SPA: one minus the mean |p_human − p_metric| over the pairs (MTME's ``compute_one_minus_pce``)."""
    upper = np.triu_indices(len(human_p), 1)
    return float(1.0 - np.mean(np.abs(human_p - metric_p)[upper]))


def acc_eq(human: np.ndarray, metric: np.ndarray) -> tuple[float, float]:
    """acc*_eq with tie calibration over items (rows: segments, columns: systems), every pair (MTME's
    ``tau_optimization`` with ``acc_23``, sample rate 1): (the best accuracy, its threshold ε). A pair is right when
    humans and metric order it alike or both tie; raising ε turns the metric's closest pairs into ties, one
    distinct difference at a time, and the best ε (the first, smallest, on equal accuracy) is kept."""
    n_items, n_systems = human.shape
    i, j = np.triu_indices(n_systems, 1)
    dh, dm = human[:, i] - human[:, j], metric[:, i] - metric[:, j]
    right = (np.sign(dh) == np.sign(dm)).astype(np.int64).ravel()  # concordant, or tied in both
    as_tie = (dh == 0).astype(np.int64).ravel()                     # right once the metric calls it a tie
    gap = np.abs(dm).ravel()
    order = np.argsort(gap, kind="stable")
    gap, change = gap[order], (as_tie - right)[order]
    total = right.sum()
    if not len(gap):
        return math.nan, 0.0
    ends = np.r_[np.nonzero(np.diff(gap))[0], len(gap) - 1]  # the last pair of each distinct gap
    counts = total + np.cumsum(change)[ends]
    thresholds = gap[ends]
    if thresholds[0] == 0.0:  # the metric's own ties: ε = 0 already holds them
        candidates, values = thresholds, counts
    else:
        candidates, values = np.r_[0.0, thresholds], np.r_[total, counts]
    best = int(np.argmax(values))
    return float(values[best]) / (n_items * len(i)), float(candidates[best])


def pairwise_difference_pearson(human: np.ndarray, metric: np.ndarray) -> float | None:
    """PDP (mt-metrics-eval's ``Pearson(average_by='item', pdp=True)``, 2025): Pearson's r between the humans' and
    the metric's score differences of every two systems on the same segment (rows: segments, columns: systems),
    all segments' differences in one correlation. Both orders of a pair and a system against itself are among
    MTME's differences; they make the mean zero and add nothing else, so r is Σ Δh·Δm / √(Σ Δh² · Σ Δm²) over the
    pairs; None where either side has no difference."""
    i, j = np.triu_indices(human.shape[1], 1)
    dh = (human[:, i] - human[:, j]).ravel()
    dm = (metric[:, i] - metric[:, j]).ravel()
    norm = float(np.dot(dh, dh)) * float(np.dot(dm, dm))
    return float(np.dot(dh, dm) / math.sqrt(norm)) if norm > 0 else None


def _inversions(values: np.ndarray, block: int = 256) -> int:
    """Pairs (a < b) with values[a] > values[b], in blocks (each against a sorted prefix, and within itself)."""
    count, seen = 0, np.empty(0, values.dtype)
    for start in range(0, len(values), block):
        part = values[start:start + block]
        count += int(np.sum(len(seen) - np.searchsorted(seen, part, side="right")))
        count += int(np.sum(np.triu(part[:, None] > part[None, :], 1)))
        seen = np.sort(np.r_[seen, part])
    return count


def _tied_pairs(values: np.ndarray) -> int:
    _, counts = np.unique(values, return_counts=True)
    return int(np.sum(counts * (counts - 1) // 2))


def kendall_tau_b(x: np.ndarray, y: np.ndarray) -> float | None:
    """Kendall's τ_b (as scipy's ``kendalltau``): (concordant − discordant) / √((n0 − ties_x)(n0 − ties_y)); None
    where either side is constant."""
    x, y = np.asarray(x, np.float64).ravel(), np.asarray(y, np.float64).ravel()
    n0 = len(x) * (len(x) - 1) // 2
    order = np.lexsort((y, x))
    xs, ys = x[order], y[order]
    ties_x, ties_y = _tied_pairs(xs), _tied_pairs(ys)
    joint = _tied_pairs(xs + 1j * ys) if len(xs) else 0
    if n0 == 0 or ties_x == n0 or ties_y == n0:
        return None
    difference = n0 - ties_x - ties_y + joint - 2 * _inversions(ys)
    return float(difference / math.sqrt((n0 - ties_x) * (n0 - ties_y)))


def _zscore(x: np.ndarray) -> np.ndarray:
    """scipy's ``zscore`` (as MTME's ``PermutationSigDiff`` takes it): NaN everywhere for a constant metric, whose
    every pair then counts as ordered unlike the humans, in the observed scores and in every resample."""
    spread = x.std()
    with np.errstate(invalid="ignore", divide="ignore"):
        return (x - x.mean()) / spread


def _pairwise_accuracies(human: np.ndarray, metrics: np.ndarray) -> np.ndarray:
    """Pairwise accuracy of each row of ``metrics`` (draws × systems) against ``human``."""
    upper = np.triu_indices(len(human), 1)
    h = np.sign(human[:, None] - human[None, :])[upper]
    m = np.sign(metrics[:, :, None] - metrics[:, None, :])[:, upper[0], upper[1]]
    return np.mean(m == h[None, :], axis=1)


def better_p_value(human: np.ndarray, better: np.ndarray, worse: np.ndarray, resamples: int = PERMUTATIONS,
                   seed: int = RANDOM_SEED) -> float:
    """The p-value that the metric ``better`` orders the systems as the humans do more often than ``worse`` (system
    pairwise accuracy), by MTME's ``PermutationSigDiff`` (PERM-BOTH, Deal & Hacker 2021: each metric's system scores
    z-scored, each system's pair of scores swapped between the metrics at random, 1,000 resamples): the share of
    resamples whose difference is at least the observed one. numpy's ``default_rng(seed)`` draws the swaps (MTME
    draws them unseeded). A constant metric z-scores to NaN, as in MTME: it orders no pair, and every metric that
    orders one beats it with p = 0."""
    first, second = _zscore(better), _zscore(worse)
    delta = float(np.diff(_pairwise_accuracies(human, np.stack([second, first])))[0])
    swap = np.random.default_rng(seed).binomial(1, 0.5, (resamples, len(human)))
    one, two = swap * first + (1 - swap) * second, (1 - swap) * first + swap * second
    return float(np.mean(_pairwise_accuracies(human, one) - _pairwise_accuracies(human, two) >= delta))


def assign_ranks(p_values: np.ndarray, alpha: float = 0.05) -> list[int]:
    """Ranks of metrics sorted best first from ``p_values[i, j]`` (i < j: the p-value that i beats j), as MTME's
    ``AssignRanks`` draws WMT's clusters: a metric opens a new rank when one of its current rank beats it
    significantly."""
    ranks, rank, start = [], 1, 0
    for i in range(len(p_values)):
        if any(p_values[k, i] <= alpha for k in range(start, i)):
            rank, start = rank + 1, i
        ranks.append(rank)
    return ranks


# -- a run's metrics against its humans --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Agreement:
    """One metric against the humans: each statistic (None where undefined: a constant metric's correlation)."""

    metric: str
    system_pairwise_accuracy: float
    system_pearson: float | None
    spa: float
    segment_acc_eq: float
    segment_epsilon: float
    segment_pearson: float | None
    segment_kendall: float | None
    segment_pdp: float | None = None  # pairwise difference Pearson (MTME, 2025)
    lower_is_better: bool = False  # negated before it was compared
    rank: int | None = None        # WMT's cluster by system pairwise accuracy (1: best)
    system_scores: tuple[float, ...] = ()  # each system's metric score on the segments compared (negated if so)
    # The system pairs it orders against the humans: (a, b, human Δ, metric Δ, human p, metric p) with Δ = a − b
    # and p the one-sided p-value that a beats b.
    parted: tuple[tuple[str, str, float, float, float, float], ...] = ()

    def to_dict(self, apart: Apart | None = None) -> dict[str, object]:
        """As JSON; ``apart(metric, a, b)``: a pair's segments that pull the metric and the humans apart."""
        return {"metric": self.metric, **{s: getattr(self, s) for s in STATISTICS}, "segment_epsilon":
                self.segment_epsilon, "negated": self.lower_is_better, "rank": self.rank,
                "system_scores": list(self.system_scores),
                "pairs_against_humans": [{"a": a, "b": b, "human_delta": dh, "metric_delta": dm, "human_p": ph,
                                          "metric_p": pm} | ({"segments_apart": apart(self.metric, a, b)}
                                                             if apart is not None else {})
                                         for a, b, dh, dm, ph, pm in self.parted]}


@dataclass(frozen=True)
class Ceiling:
    """The raters against each other, where every system's segment has two raters or more: on those segments, the
    first rater of each (in the files' order) taken as the humans and the second as a metric — the same statistics — and each
    metric against the first rater on the same segments, so that a metric's agreement reads as a share of the
    raters' own."""

    segments: int
    raters: Agreement
    metrics: tuple[Agreement, ...]

    def share(self, metric: str, statistic: str = "system_pairwise_accuracy") -> float | None:
        """A metric's statistic as a share of the raters' (None where either is undefined or the raters' is not
        positive)."""
        ours = next((getattr(m, statistic) for m in self.metrics if m.metric == metric), None)
        theirs = getattr(self.raters, statistic)
        if not isinstance(ours, float) or not isinstance(theirs, float) or theirs <= 0:
            return None
        return ours / theirs

    def to_dict(self) -> dict[str, object]:
        return {"segments": self.segments, "raters": self.raters.to_dict(),
                "metrics": [m.to_dict() | {"share_of_raters": {s: self.share(m.metric, s) for s in
                                                               ("system_pairwise_accuracy", "segment_acc_eq")}}
                            for m in self.metrics]}


def rater_ceiling(first: np.ndarray, second: np.ndarray,
                  metrics: Sequence[tuple[str, np.ndarray, np.ndarray]]) -> Ceiling:
    """The :class:`Ceiling` on segments every system has two raters for: ``first`` and ``second``, the two raters'
    segment scores (systems × those segments, higher is better), and each metric's (name, segment scores, system
    scores — its corpus score on those segments), higher is better. A rater's system score is the mean of its
    segment scores, as the humans' is."""
    human_sys = first.mean(axis=1)
    human_p = pairwise_p_values(first, both=True)
    raters = _statistics("raters (second against first)", first, second, human_sys, second.mean(axis=1), human_p)
    found = tuple(_statistics(name, first, seg, human_sys, sys, human_p) for name, seg, sys in metrics)
    return Ceiling(first.shape[1], raters, found)


@dataclass(frozen=True)
class MetaEvaluation:
    """The metrics of a run against its human scores (see the module)."""

    human: str
    systems: tuple[str, ...]
    segments: int
    left_out: int
    metrics: tuple[Agreement, ...]
    baselines: dict[str, dict[str, object]] = field(default_factory=dict)
    human_scores: tuple[float, ...] = ()  # each system's mean human score on the segments compared (negated if so)
    human_negated: bool = False  # the human score's lower is better: negated before it was compared
    human_columns: tuple[str, ...] = ()  # other human judgement in the run (MQM from the same spans): not ranked
    ceiling: Ceiling | None = None  # the raters against each other, where segments have two

    def below_random(self, agreement: Agreement) -> list[str]:
        """The statistics on which ``agreement`` is below the random band (its mean less two spreads)."""
        band = self.baselines.get("random", {})
        out = []
        for s in STATISTICS:
            value, mean, spread = getattr(agreement, s), band.get(s), band.get(f"{s}_sd")
            if isinstance(value, float) and isinstance(mean, float) and isinstance(spread, float) \
                    and value < mean - 2 * spread:
                out.append(s)
        return out

    def to_dict(self, apart: Apart | None = None) -> dict[str, object]:
        return {"human": self.human, "human_negated": self.human_negated, "systems": list(self.systems),
                "human_scores": list(self.human_scores),
                "segments": self.segments,
                "left_out": self.left_out, "metrics": [m.to_dict(apart) | {"below_random": self.below_random(m)}
                                                       for m in self.metrics],
                "baselines": self.baselines, "definitions": "mt-metrics-eval (WMT metrics task)",
                "human_columns_not_ranked": list(self.human_columns),
                "rater_ceiling": self.ceiling.to_dict() if self.ceiling is not None else None}


def _statistics(name: str, human_seg: np.ndarray, metric_seg: np.ndarray, human_sys: np.ndarray,
                metric_sys: np.ndarray, human_p: np.ndarray, negated: bool = False,
                systems: Sequence[str] = ()) -> Agreement:
    accuracy, epsilon = acc_eq(human_seg.T, metric_seg.T)
    metric_p = pairwise_p_values(metric_seg, both=bool(systems))
    return Agreement(name, pairwise_accuracy(human_sys, metric_sys), pearson(human_sys, metric_sys),
                     soft_pairwise_accuracy(human_p, metric_p), accuracy, epsilon,
                     pearson(human_seg, metric_seg), kendall_tau_b(human_seg, metric_seg),
                     pairwise_difference_pearson(human_seg.T, metric_seg.T), negated,
                     parted=_parted(systems, human_sys, metric_sys, human_p, metric_p) if systems else ())


def _parted(systems: Sequence[str], human: np.ndarray, metric: np.ndarray, human_p: np.ndarray,
            metric_p: np.ndarray) -> tuple[tuple[str, str, float, float, float, float], ...]:
    """The pairs the metric orders against the humans, the humans' clearest first; each written better-by-the-
    humans first."""
    out = []
    for i, j in zip(*np.triu_indices(len(human), 1)):
        if np.sign(human[i] - human[j]) != np.sign(metric[i] - metric[j]):
            a, b = (int(i), int(j)) if human[i] >= human[j] else (int(j), int(i))
            out.append((systems[a], systems[b], float(human[a] - human[b]), float(metric[a] - metric[b]),
                        float(human_p[a, b]), float(metric_p[a, b])))
    return tuple(sorted(out, key=lambda r: r[4]))


def _ranked(found: list[Agreement], system_scores: list[np.ndarray], human_sys: np.ndarray) -> list[Agreement]:
    """The metrics, best system pairwise accuracy first, each with its WMT cluster (see :func:`assign_ranks`)."""
    # MTME's order: the best first, equal accuracies by name (its CompareMetrics).
    order = sorted(range(len(found)), key=lambda k: (-found[k].system_pairwise_accuracy, found[k].metric))
    p = np.full((len(order), len(order)), np.nan)
    for a in range(len(order)):
        for b in range(a + 1, len(order)):
            p[a, b] = better_p_value(human_sys, system_scores[order[a]], system_scores[order[b]])
    ranks = assign_ranks(p)
    return [replace(found[k], rank=r, system_scores=tuple(float(v) for v in system_scores[k]))
            for k, r in zip(order, ranks)]


def in_words(found: MetaEvaluation) -> str:
    """What the table says, in one or two sentences a translator reads, never more than the tests allow: the
    metrics WMT's significance clusters cannot separate from the best are named together (a tie, whatever the
    decimals say); when even the best is within the random band, that no metric agrees better than chance; else
    the metric that agrees most, how many system pairs it orders as the raters do against a random metric, and the
    one that agrees least when it is no better than chance."""
    if not found.metrics:
        return ""
    n = len(found.systems)
    pairs = n * (n - 1) // 2
    band = found.baselines.get("random", {})
    mean, spread = band.get("system_pairwise_accuracy"), band.get("system_pairwise_accuracy_sd")
    known = isinstance(mean, float) and isinstance(spread, float)
    chance = f" (a random metric: {mean:.2f} ± {spread:.2f})" if known else ""

    def ordered(m: Agreement) -> str:
        return f"orders {round(m.system_pairwise_accuracy * pairs)} of {pairs} system pairs as the raters do"

    def by_chance(m: Agreement) -> bool:
        return (isinstance(mean, float) and isinstance(spread, float)
                and m.system_pairwise_accuracy <= mean + 2 * spread)

    best, worst = found.metrics[0], found.metrics[-1]
    where = f"On these {found.segments:,} segments of {n} systems"
    top = [m for m in found.metrics if best.rank is not None and m.rank == best.rank]
    if by_chance(best):
        said = (f"{where}, no metric agrees with {found.human} better than chance: the best, {best.metric}, "
                f"{ordered(best)}, pairwise accuracy {best.system_pairwise_accuracy:.2f}{chance}.")
        top = list(found.metrics)  # no metric is said to be worse than another either
    elif len(top) > 1:
        names = ", ".join(m.metric for m in top[:-1]) + f" and {top[-1].metric}"
        said = (f"{where}, {names} agree most with {found.human}, tied: the significance test separates none of "
                f"them (p > 0.05); {best.metric} {ordered(best)}, pairwise accuracy "
                f"{best.system_pairwise_accuracy:.2f}{chance}.")
    else:
        said = (f"{where}, {best.metric} agrees most with {found.human}: it {ordered(best)}, pairwise accuracy "
                f"{best.system_pairwise_accuracy:.2f}{chance}.")
    if worst not in top and by_chance(worst):
        said += f" {worst.metric} {ordered(worst)}: no better than chance."
    if found.ceiling is not None:
        share = found.ceiling.share(best.metric)
        theirs = found.ceiling.raters.system_pairwise_accuracy
        said += (f" On the {found.ceiling.segments:,} segments two raters rated, the raters order {theirs:.0%} of "
                 "the pairs alike" + (f"; {best.metric} reaches {share:.0%} of that." if share is not None else "."))
    if found.human_columns:
        said += (f" {', '.join(found.human_columns)}: human ratings too (the same raters' judgements), shown "
                 "apart and never ranked as a metric.")
    return said


CONSTANT_SPA = ("A constant metric ties every pair of systems: its soft pairwise accuracy is high where the raters "
                "themselves hardly separate the systems (their p-values near a tie's), so a metric is worth trusting "
                "only where it beats this row, not 0.5")


def _baselines(human_seg: np.ndarray, human_sys: np.ndarray, human_p: np.ndarray,
               progress: Callable[[float], None] | None) -> dict[str, dict[str, object]]:
    constant = _statistics("constant", human_seg, np.zeros_like(human_seg), human_sys, np.zeros_like(human_sys),
                           human_p)
    rng = np.random.default_rng(RANDOM_SEED)
    draws = []
    for k in range(RANDOM_DRAWS):
        scores = rng.random(human_seg.shape)
        draws.append(_statistics("random", human_seg, scores, human_sys, scores.mean(axis=1), human_p))
        if progress is not None:
            progress((k + 1) / RANDOM_DRAWS)
    random: dict[str, object] = {}
    for s in STATISTICS:
        values = [v for d in draws if (v := getattr(d, s)) is not None]
        random[s] = float(np.mean(values)) if values else None
        random[f"{s}_sd"] = float(np.std(values)) if values else None
    return {"constant": {s: getattr(constant, s) for s in STATISTICS}, "random": random | {"draws": RANDOM_DRAWS}}


def meta_evaluate(human: int, metrics: Sequence[Metric], stats: Sequence[Sequence[np.ndarray]],
                  sentence_scores: Sequence[Sequence[np.ndarray]], systems: Sequence[str],
                  evaluated: Sequence[int] | None = None,
                  progress: Callable[[float], None] | None = None) -> MetaEvaluation:
    """Every metric of ``evaluated`` (all but ``human`` by default) against the metric ``human`` (MQM, an imported
    human column). ``stats[k][s]`` and ``sentence_scores[k][s]``: metric k's statistics and segment scores of
    system s. See the module for the definitions."""
    if len(systems) < 2:
        raise InputError(f"{term('meta_eval')}: metrics are compared with humans on two or more systems")
    chosen = [k for k in (evaluated if evaluated is not None else range(len(metrics))) if k != human]
    # A human score whose lower is better (a penalty, an error count) is negated like a metric's: the statistics
    # read higher as better on both sides.
    human_sign = 1.0 if metrics[human].higher_is_better else -1.0
    human_scores = human_sign * np.asarray([sentence_scores[human][s] for s in range(len(systems))], np.float64)
    kept = np.all(np.isfinite(human_scores), axis=0)
    for k in chosen:  # a metric's own missing segment scores (an imported column) leave the segment out too
        kept &= np.all(np.isfinite(np.asarray([sentence_scores[k][s] for s in range(len(systems))])), axis=0)
    if kept.sum() < 2:
        raise InputError(f"{term('meta_eval')}: fewer than two segments have a {metrics[human].name} score for every "
                         "system")
    human_seg = human_scores[:, kept]
    human_sys = human_seg.mean(axis=1)
    human_p = pairwise_p_values(human_seg, both=True)
    out: list[Agreement] = []
    system_scores: list[np.ndarray] = []
    for n, k in enumerate(chosen):
        metric, sign = metrics[k], 1.0 if metrics[k].higher_is_better else -1.0
        metric_sys = sign * np.asarray([metric.value(np.asarray(stats[k][s])[kept]) for s in range(len(systems))])
        metric_seg = sign * np.asarray([np.asarray(sentence_scores[k][s], np.float64)[kept]
                                        for s in range(len(systems))])
        out.append(_statistics(metric.name, human_seg, metric_seg, human_sys, metric_sys, human_p,
                               not metric.higher_is_better, systems))
        system_scores.append(metric_sys)
        if progress is not None:
            progress(0.5 * (n + 1) / max(len(chosen), 1))
    out = _ranked(out, system_scores, human_sys)
    baselines = _baselines(human_seg, human_sys, human_p,
                           (lambda f: progress(0.5 + 0.5 * f)) if progress is not None else None)
    return MetaEvaluation(metrics[human].name, tuple(systems), int(kept.sum()), int((~kept).sum()), tuple(out),
                          baselines, tuple(float(v) for v in human_sys), human_sign < 0)
