"""A run's scores as error-free detectors against its human labels (:mod:`..analysis.error_free`): which column
labels the segments, and which metrics are detectors (never one made of the same human ratings)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..analysis.error_free import ESA_THRESHOLD, Curve, curve, label
from ..errors import InputError, term
from .meta_eval_run import HUMAN_KEYS
from .results import Run


@dataclass(frozen=True)
class ErrorFree:
    """Every detector of the run on the labelled segments, and what labelled them."""

    definition: str
    labelled: int
    curves: tuple[Curve, ...]  # best average precision first
    left_out: tuple[str, ...]  # human columns not taken as detectors

    def to_dict(self, wanted: float) -> dict[str, object]:
        return {"definition": self.definition, "segments": self.labelled, "detectors": [c.to_dict(wanted)
                                                                                      for c in self.curves],
                "human_columns_not_detectors": list(self.left_out)}


def human_column(run: Run) -> str | None:
    """The human segment-score column of the run (ESA or DA, as read with its raters), if any."""
    for system in run.systems:
        for name in system.file.rated:
            return name
    return None


def run_labels(run: Run, threshold: float = ESA_THRESHOLD) -> tuple[str, list[list[bool | None]]]:
    """The definition used and each system's segment labels (None: unknown)."""
    column = human_column(run)
    annotated = any(s.file.annotations for s in run.systems)
    if column is None and not annotated:
        raise InputError(f"{term('error_free')}: the run has no human ratings (an ESA or DA file as "
                         f"{term('scores')}, or MQM/ESA spans as {term('annotations')})")
    labels = []
    for system in run.systems:
        scores = system.file.scores.get(column) if column is not None else None
        annotations = system.file.annotations or ()
        row: list[bool | None] = []
        for i in range(len(system.lines)):
            score = scores[i] if scores is not None and i < len(scores) else None
            ratings = annotations[i] if i < len(annotations) else None
            row.append(label(score if score is not None and math.isfinite(score) else None, ratings, threshold)
                       if column is None or (score is not None and math.isfinite(score)) else None)
        labels.append(row)
    if column is not None:
        spans = " and no error span" if annotated else ""
        definition = f"error-free: human {column.upper()} ≥ {threshold:g}{spans} (WMT26's rule)"
    else:
        definition = "error-free: no rater marked a Critical, Major or Minor error (MQM)"
    return definition, labels


def run_error_free(run: Run, threshold: float = ESA_THRESHOLD) -> ErrorFree:
    """Every metric of the run that is not human judgement, as an error-free detector."""
    definition, labels = run_labels(run, threshold)
    column = human_column(run)
    human = {k for k, m in enumerate(run.metrics) if m.key in HUMAN_KEYS or m.name == column
             or (column is not None and m.key == column)}
    found = []
    for k, metric in enumerate(run.metrics):
        if k in human:
            continue
        sign = 1.0 if metric.higher_is_better else -1.0
        scores, ys = [], []
        for system, row in zip(run.systems, labels):
            values = np.asarray(system.results[k].sentences, np.float64)
            for i, y in enumerate(row):
                if y is not None and i < len(values) and math.isfinite(values[i]):
                    scores.append(sign * values[i])
                    ys.append(y)
        if scores:
            found.append(curve(metric.name, scores, ys, negated=sign < 0))
    if not found:
        raise InputError(f"{term('error_free')}: no metric of the run scores the labelled segments (add one to "
                         f"{term('metrics')}: COMET, CometKiwi, BLEU, an LLM judge, a scores file)")
    found.sort(key=lambda c: (-(c.average_precision if math.isfinite(c.average_precision) else -1), c.metric))
    labelled = sum(1 for row in labels for y in row if y is not None)
    return ErrorFree(definition, labelled, tuple(found), tuple(run.metrics[k].name for k in sorted(human)))


def human_files(run: Run) -> list[str]:
    """The files the run's human ratings were read from (scores' raters, annotations' spans)."""
    found: dict[str, None] = {}
    for system in run.systems:
        for per_segment in system.file.rated.values():
            found.update((str(r.path), None) for scores in per_segment for r in scores)
        for ratings in system.file.annotations or ():
            for rater_file in ratings.sources if ratings is not None else ():
                found[rater_file[1]] = None
    return [f for f in found if f]
