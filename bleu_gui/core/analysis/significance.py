"""Paired significance tests and confidence intervals for any :class:`~..metrics.base.Metric`, equal to sacreBLEU's
with the same seed.

Matched to ``sacrebleu/significance.py`` (2.x) number for number:
- the resample indices are ``np.random.default_rng(seed).choice(L, (n, L))``
  and the AR coin flips ``default_rng(seed).integers(2, (n, L), dtype=bool)``,
  drawn here in row chunks that consume the generator exactly as one big draw
  (for the coin flips a chunk must hold a multiple of 32 values, since numpy
  buffers 32 random bits per call);
- bootstrap scores are computed from float32 statistics, as sacreBLEU does
  (for BLEU its modified precisions are then float32 numbers);
- ``estimate_ci``: sorted scores, the (n//40)-th from each end, half their
  distance; numpy's mean for paired tests, ``statistics.mean`` for
  ``--confidence``;
- p-values are ``(count + 1) / (n + 1)``.

What differs: sacreBLEU keeps every resample's statistics in memory at once
(1000 × L × columns) and scores each resample in Python; here resamples are
sums of rows taken chunk by chunk (a resample is a count per sentence, times the
statistics matrix) and scored with the vectorised formula. Sums are exact
integers; sacreBLEU's float32 sums are exact below 2^24 per column, so the two
agree wherever sacreBLEU's own arithmetic is exact.
"""

from __future__ import annotations

import math
import statistics as pystats
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import ConfigError
from ..metrics.base import Metric
from .resampling import BS_SAMPLES, DEFAULT_SEED

_CHUNK_VALUES = 2_000_000  # random draws held in memory at once (and between cancel checks)
_ABS_ROWS = 1 << 14  # rows whose magnitudes are summed at once (a few megabytes of temporary)
_FLOAT32_EXACT = 2**24  # every integer of smaller magnitude is a float32, and so is every sum that stays below


@dataclass(frozen=True)
class SystemTest:
    """One system's result in a paired test (the baseline has ``p_value`` None)."""

    name: str
    score: float
    p_value: float | None
    mean: float | None
    ci: float | None
    # Bootstrap only: per-resample score differences to the baseline (system - baseline).
    deltas: np.ndarray | None = None


def _rows_per_chunk(L: int, values_multiple: int = 1, scale: int = 1) -> int:
    """Resamples drawn at once: about ``scale`` × _CHUNK_VALUES values, and a multiple of ``values_multiple``."""
    step = values_multiple // math.gcd(max(L, 1), values_multiple)
    rows = max(1, scale * _CHUNK_VALUES // max(L, 1))
    return max(step, rows - rows % step)


def bootstrap_chunks(L: int, n: int, seed: int | None) -> Iterator[np.ndarray]:
    rng = np.random.default_rng(seed)
    step = _rows_per_chunk(L)
    for start in range(0, n, step):
        yield rng.choice(L, size=(min(step, n - start), L), replace=True)


def ar_chunks(L: int, n: int, seed: int | None) -> Iterator[np.ndarray]:
    rng = np.random.default_rng(seed)
    # numpy draws boolean coin flips from a 32-bit buffer that lives for one call only. A coin is one byte
    # (a resample index eight), so twice the values: fewer, larger products (4.3 s -> 3.5 s for 10,000 trials
    # of 4 x 100k lines) and still about 200 ms between cancel checks at 300k lines.
    step = _rows_per_chunk(L, values_multiple=32, scale=2)
    for start in range(0, n, step):
        yield rng.integers(2, size=(min(step, n - start), L), dtype=bool)


def resample_weights(idx: np.ndarray) -> np.ndarray:
    """How often each sentence is drawn in each resample (resamples × sentences), as floats for the product that
    sums the resamples: float32, which holds every count exactly, below 2^24 sentences."""
    k, L = idx.shape
    out = np.empty((k, L), np.float32 if L < _FLOAT32_EXACT else np.float64)
    # One resample's counters at a time stay in the processor's cache; counting every resample of a chunk into one
    # long array scattered the increments over megabytes (17,000 sentences: 2.5-4x the time).
    for row, drawn in zip(out, idx):
        row[:] = np.bincount(drawn, minlength=L)
    return out


class SideBySide:
    """Several systems' whole-number statistics side by side (sentences × systems·columns): one BLAS product
    resamples all.

    Sums are exact: in float32 when no partial sum can reach 2^24 (then every partial sum BLAS forms, in any
    order, is an integer a float32 holds exactly), twice the speed of float64 at half the memory; otherwise in
    float64, exact below 2^53. (Statistics that are not whole numbers are summed as sacreBLEU sums them, see
    :func:`bootstrap_scores`.)
    """

    def __init__(self, systems: Sequence[np.ndarray]):
        self.stats = np.concatenate([s.astype(np.int64, copy=False) for s in systems], axis=1)
        # The largest column sum of magnitudes, a slice of rows at a time: np.abs of the whole matrix would
        # write a temporary as large as it (48 MB at 300k lines and two systems, ~150 ms of fresh pages).
        column_totals = np.zeros(self.stats.shape[1], self.stats.dtype)
        for start in range(0, len(self.stats), _ABS_ROWS):
            column_totals += np.abs(self.stats[start:start + _ABS_ROWS]).sum(axis=0)
        self.abs_total = column_totals.max().item() if self.stats.size else 0
        self._as: dict[type, np.ndarray] = {}

    def _matrix(self, dtype: type) -> np.ndarray:
        if dtype not in self._as:
            self._as[dtype] = self.stats.astype(dtype)
        return self._as[dtype]

    def sums(self, weights: np.ndarray, largest_weight: int) -> np.ndarray:
        """Column sums of each resample (``weights``: resamples × sentences, none above ``largest_weight``),
        exact integers."""
        exact32 = largest_weight * self.abs_total < _FLOAT32_EXACT
        dtype = np.float32 if exact32 else np.float64
        product = weights.astype(dtype, copy=False) @ self._matrix(dtype)
        return np.rint(product).astype(np.int64)


def check_metric(metric: Metric) -> None:
    if not metric.significance:
        raise ConfigError("significance tests and confidence intervals follow sacreBLEU and need the sacrebleu variant")


def sequential_sums(stats: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Each resample's column sums (resamples × columns), rounded as sacreBLEU's ``_s.sum(0)`` rounds them: rows
    added one after another. A column of whole numbers whose sums stay exact is summed in any order; any other
    column keeps the order (the last of a running sum). Three times the speed of ``stats[idx].sum(axis=1)``,
    equal to it bit for bit."""
    exact = 2.0 ** (24 if stats.dtype == np.float32 else 53)  # every whole number below it is held exactly
    out = np.empty((len(idx), stats.shape[1]), dtype=stats.dtype)
    for c in range(stats.shape[1]):
        column = stats[:, c]
        drawn = column[idx]  # resamples × rows drawn, contiguous
        whole = bool(np.all(column == np.floor(column)))
        if whole and float(np.abs(column).max(initial=0.0)) * idx.shape[1] < exact:
            out[:, c] = drawn.sum(axis=1)
        else:
            out[:, c] = np.cumsum(drawn, axis=1)[:, -1]
    return out


def bootstrap_scores(systems: Sequence[np.ndarray], metric: Metric, n: int = BS_SAMPLES,
                     seed: int | None = DEFAULT_SEED, progress: Callable[[float], None] | None = None) -> np.ndarray:
    """The corpus score of each system in ``n`` bootstrap resamples of the sentences, the same resamples for
    every system (sacreBLEU's ``_bootstrap_resample``): systems × n."""
    check_metric(metric)
    k, cols = len(systems), systems[0].shape[1]
    if progress is not None:
        progress(0.0)  # a cancel check before the matrix is put together, and another before the first draw
    # Statistics that are not whole numbers (TER's mean reference lengths) are summed as sacreBLEU sums them:
    # float32 values added one resampled row after another, whose rounding a product in another order would not
    # repeat.
    summed_as = np.float32 if metric.bootstrap_float32 else np.float64
    as_float32 = None if metric.integer_statistics else [s.astype(summed_as) for s in systems]
    side = SideBySide(systems) if as_float32 is None else None
    if progress is not None:
        progress(0.0)
    out, done = [], 0
    for idx in bootstrap_chunks(len(systems[0]), n, seed):
        if as_float32 is not None:
            if progress is not None:
                progress(done / n)
            per_system = np.concatenate([sequential_sums(s, idx) for s in as_float32])
        else:
            weights = resample_weights(idx)
            if progress is not None:
                progress(done / n)  # the first chunk writes to fresh memory (~0.3 s at 300k lines): a check halfway
            assert side is not None
            sums = side.sums(weights, int(weights.max()))
            per_system = sums.reshape(len(idx), k, cols).transpose(1, 0, 2).reshape(k * len(idx), cols)
        out.append(metric.scores_of_sums(per_system, float32=True).reshape(k, len(idx)))
        done += len(idx)
        if progress is not None:
            progress(done / n)
    return np.concatenate(out, axis=1) if out else np.zeros((k, 0))


def estimate_ci(scores: np.ndarray, exact_mean: bool = False) -> tuple[float, float]:
    """(mean, half-width of the 95% interval) as sacreBLEU: the (n//40)-th smallest and largest."""
    ordered = np.sort(scores)
    n = len(ordered)
    lower = n // 40
    upper = n - lower - 1
    ci = 0.5 * (ordered[upper] - ordered[lower])
    mean = pystats.mean(ordered.tolist()) if exact_mean else ordered.mean()
    return float(mean), float(ci)


def delta_interval(deltas: np.ndarray | Sequence[float]) -> tuple[float, float]:
    """The 95% interval of bootstrap differences by sacreBLEU's rule: the (n//40)-th smallest and largest.

    The ΔBLEU chart, its saved SVG and the report all draw these two lines.
    """
    ordered = np.sort(np.asarray(deltas, np.float64))
    lower = len(ordered) // 40
    return float(ordered[lower]), float(ordered[len(ordered) - lower - 1])


@dataclass(frozen=True)
class Interval:
    """``sacrebleu --confidence`` of one system: bootstrap mean and 95% half-width, or why there is none."""

    mean: float | None
    half_width: float | None
    why_none: str | None = None

    @property
    def pair(self) -> tuple[float, float] | None:
        return None if self.mean is None or self.half_width is None else (self.mean, self.half_width)


def confidence(stats: np.ndarray, metric: Metric, n: int = BS_SAMPLES, seed: int | None = DEFAULT_SEED,
               progress: Callable[[float], None] | None = None) -> Interval:
    """``sacrebleu --confidence``: bootstrap mean and 95% half-width of one system; none for a system with no
    scores, or when a resample drew none of its scored segments (a resample's score would be made up)."""
    scored = metric.scored(stats)
    if scored is not None and not scored.any():
        return Interval(None, None, "no scores")
    resampled = bootstrap_scores([stats], metric, n, seed, progress)[0]
    unscored = int(np.isnan(resampled).sum())
    if unscored:
        have = int(scored.sum()) if scored is not None else len(stats)
        return Interval(None, None, f"{unscored:,} of {n:,} bootstrap resamples drew none of its {have:,} scored "
                                    "segments")
    return Interval(*estimate_ci(resampled, exact_mean=True))


