"""Which score tells an error-free translation (WMT26's binary error-free detection): every segment score of a run
as a detector of the segments the humans found no error in.

The human label of a segment (the thresholds stated and settable):

- ESA (a human ``esa`` column with its spans): error-free when its score — the mean over its raters — is at least
  :data:`ESA_THRESHOLD` (85, WMT26's) and no rater marked an error span (Neutral/undecided ones aside);
- DA (a human score with no spans): its score at least the threshold;
- MQM (annotations only): no rater marked a Critical, Major or Minor error.

A score is read higher-is-more-error-free (a lower-is-better one, TER or MetricX, negated). As scikit-learn's
``precision_recall_curve`` and ``average_precision_score`` define them: each distinct score is a threshold (the
segments at or above it said error-free), precision and recall there, and the average precision Σ (Rₙ − Rₙ₋₁) Pₙ
over the thresholds from the highest; F1 at its best threshold; and the lowest threshold whose precision reaches the
precision asked for (the one that catches most error-free segments at that precision) — the calibrated threshold
triage takes. A detector that knows nothing scores the base rate (the share error-free) as its average precision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..inputs.ratings import Ratings

ESA_THRESHOLD = 85.0
DEFAULT_PRECISION = 0.95
ERRORS = ("Critical", "Major", "Minor")


def has_error(ratings: Ratings) -> bool:
    """Whether any rater of the segment marked a Critical, Major or Minor error."""
    return any(e.severity in ERRORS for e in ratings.errors)


def label(score: float | None, ratings: Ratings | None, threshold: float) -> bool | None:
    """A segment's human label: error-free (True), not (False), unknown (None: unrated). ``score``: its human
    segment score (ESA/DA; None for MQM alone)."""
    if score is not None and math.isfinite(score):
        return score >= threshold and (ratings is None or not has_error(ratings))
    if ratings is None or not ratings.raters:
        return None
    return not has_error(ratings)


@dataclass(frozen=True)
class Curve:
    """One score as an error-free detector on the labelled segments."""

    metric: str
    segments: int
    error_free: int
    thresholds: tuple[float, ...]  # ascending; precision[k], recall[k]: segments scoring ≥ thresholds[k]
    precision: tuple[float, ...]
    recall: tuple[float, ...]
    average_precision: float
    best_f1: float
    best_threshold: float
    negated: bool = False  # the metric's lower is better: its scores were negated

    @property
    def base_rate(self) -> float:
        return self.error_free / self.segments if self.segments else math.nan

    def shown(self, value: float) -> float:
        """A threshold in the metric's own direction."""
        return -value if self.negated else value

    def at_precision(self, wanted: float) -> tuple[float, float, float] | None:
        """(threshold, its precision, its recall): the lowest threshold reaching precision ``wanted``; None when no
        threshold does."""
        for t, p, r in zip(self.thresholds, self.precision, self.recall):
            if p >= wanted - 1e-12:
                return t, p, r
        return None

    def in_words(self, wanted: float, unit: str = "rated segments") -> str:
        """"On your N rated segments, METRIC ≥ T is error-free P% of the time and catches R% of the error-free
        ones" — or that no threshold reaches it."""
        found = self.at_precision(wanted)
        where = f"On these {self.segments:,} {unit} ({self.error_free:,} error-free, {self.base_rate:.0%})"
        if found is None:
            return f"{where}, no threshold of {self.metric} is error-free {wanted:.0%} of the time."
        t, p, r = found
        sign = "≤" if self.negated else "≥"
        return (f"{where}, {self.metric} {sign} {self.shown(t):.4g} is error-free {p:.0%} of the time and catches "
                f"{r:.0%} of the error-free ones.")

    def to_dict(self, wanted: float = DEFAULT_PRECISION) -> dict[str, object]:
        found = self.at_precision(wanted)
        return {"metric": self.metric, "segments": self.segments, "error_free": self.error_free,
                "base_rate": self.base_rate, "average_precision": self.average_precision, "best_f1": self.best_f1,
                "best_threshold": self.shown(self.best_threshold), "negated": self.negated,
                "precision_wanted": wanted,
                "calibrated": None if found is None else {"threshold": self.shown(found[0]), "precision": found[1],
                                                          "recall": found[2]}}


def curve(metric: str, scores: Sequence[float], labels: Sequence[bool], negated: bool = False) -> Curve:
    """``scores`` (higher: more error-free) against ``labels`` (True: error-free), on the finite scores."""
    s = np.asarray(scores, np.float64)
    y = np.asarray(labels, bool)
    keep = np.isfinite(s)
    s, y = s[keep], y[keep]
    positives = int(y.sum())
    if not len(s):
        return Curve(metric, 0, 0, (), (), (), math.nan, math.nan, math.nan, negated)
    order = np.argsort(-s, kind="stable")
    s, y = s[order], y[order]
    last = np.r_[np.nonzero(np.diff(s))[0], len(s) - 1]  # the last segment of each distinct score, highest first
    tp = np.cumsum(y)[last].astype(np.float64)
    said = (last + 1).astype(np.float64)
    precision = tp / said
    recall = tp / positives if positives else np.zeros_like(tp)
    ap = float(np.sum(np.diff(np.r_[0.0, recall]) * precision)) if positives else math.nan
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0.0)
    best = int(np.argmax(f1))
    thresholds = s[last]
    return Curve(metric, len(s), positives, tuple(float(v) for v in thresholds[::-1]),
                 tuple(float(v) for v in precision[::-1]), tuple(float(v) for v in recall[::-1]), ap,
                 float(f1[best]), float(thresholds[best]), negated)
