"""Metrics whose corpus score is the mean of segment scores that may be missing: scores read from a file
(COMET, MetricX), human MQM. A segment's statistics are ``[score, 1]``, or ``[0, 0]`` when it has no score;
they sum over a corpus, and the corpus score is the sum of scores over the scores present. So documents,
slices, leave-one-out and both of sacreBLEU's paired tests serve them unchanged — its procedure applied to the
mean, in float64 (a mean is not one of sacreBLEU's metrics, and its float32 sums would only add rounding); a pair
of systems is tested on the segments both have a score for."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from .base import Metric


class SegmentMeans(Metric):
    """The statistics and scores every mean of segment scores shares (see the module)."""

    integer_statistics = False
    bootstrap_float32 = False

    def __init__(self, n_lines: int):
        self._n = n_lines

    @property
    def n_lines(self) -> int:
        return self._n

    @staticmethod
    def rows(values: np.ndarray) -> np.ndarray:
        """The statistics of segment scores (NaN: missing)."""
        column = np.asarray(values, dtype=np.float64)
        present = ~np.isnan(column)
        return np.stack([np.where(present, column, 0.0), present.astype(np.float64)], axis=1)

    def stats_with_scores(self, stats: np.ndarray, scores: Mapping[int, float]) -> np.ndarray:
        out = np.array(stats, dtype=np.float64, copy=True)
        for segment, score in scores.items():
            out[segment] = self.rows(np.array([score]))[0]
        return out

    def scores_of_sums(self, sums: np.ndarray, float32: bool = False) -> np.ndarray:
        sums = np.atleast_2d(np.asarray(sums, dtype=np.float64))
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(sums[:, 1] > 0, sums[:, 0] / np.where(sums[:, 1] > 0, sums[:, 1], 1.0), np.nan)

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return np.where(stats[:, 1] > 0, stats[:, 0], np.nan)

    def statistics_table(self, stats: np.ndarray) -> tuple[list[str], np.ndarray]:
        return ["score", "present"], stats

    def scored(self, stats: np.ndarray) -> np.ndarray | None:
        return stats[:, 1] > 0

    def keep_only(self, stats: np.ndarray, segments: np.ndarray) -> np.ndarray:
        return np.where(segments[:, None], stats, 0.0)

    def score_scale(self, sentence_scores: np.ndarray) -> tuple[float, float]:
        """The scores' own range, widened to whole numbers (MQM: -25 to 0; COMET: 0 to 1)."""
        finite = sentence_scores[np.isfinite(sentence_scores)]
        if not len(finite):
            return 0.0, 1.0
        low, high = math.floor(float(finite.min())), math.ceil(float(finite.max()))
        return float(low), float(high if high > low else low + 1)
