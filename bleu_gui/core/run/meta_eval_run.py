"""A run's metrics against its human scores (:mod:`..analysis.meta_eval`), the metrics named as the command line and
the window name them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..analysis.disagree import Disagreement, disagreements
from ..analysis.meta_eval import MetaEvaluation, meta_evaluate
from ..errors import InputError, term
from .results import Run


def metric_index(run: Run, name: str) -> int:
    """The run's metric called ``name`` (its key or its name, in any case); :class:`InputError` naming the others."""
    for k, m in enumerate(run.metrics):
        if name.lower() in (m.key.lower(), m.name.lower()):
            return k
    raise InputError(f"{term('meta_eval', name)}: not a metric of the run ({', '.join(m.key for m in run.metrics)}; "
                     f"{term('metrics')} adds one)")


def human_candidates(run: Run) -> list[int]:
    """The metrics of the run that may hold human judgement: MQM and every score read from a file."""
    return [k for k, m in enumerate(run.metrics) if m.key == "mqm" or m.read_from() is not None]


def human_index(run: Run, name: str, metric_is_human: bool = False) -> int:
    """The run's human scores called ``name``; a metric computed from the text (BLEU, COMET) is refused as the
    humans, naming the run's human scores, unless ``metric_is_human`` (a metric against another, asked for)."""
    k = metric_index(run, name)
    humans = human_candidates(run)
    if k in humans or metric_is_human:
        return k
    held = ", ".join(run.metrics[h].key for h in humans) or "none (MQM from annotations, or a scores column)"
    raise InputError(f"{term('meta_eval', name)}: {run.metrics[k].name} is computed from the text, not a human "
                     f"judgement; the run's human scores: {held} ({term('meta_eval_human_is_metric')} takes a metric "
                     "as the humans anyway)")


def meta_evaluate_run(run: Run, human: str, wanted: Sequence[str] | None = None,
                      progress: Callable[[float], None] | None = None,
                      metric_is_human: bool = False) -> MetaEvaluation:
    """Every metric of the run (or those ``wanted``) against the human scores ``human`` (see :func:`human_index`)."""
    h = human_index(run, human, metric_is_human)
    evaluated = [metric_index(run, n) for n in wanted] if wanted else None
    stats = [[s.results[k].stats for s in run.systems] for k in range(len(run.metrics))]
    sentences = [[s.results[k].sentences for s in run.systems] for k in range(len(run.metrics))]
    return meta_evaluate(h, run.metrics, stats, sentences, [s.name for s in run.systems], evaluated, progress)


def segments_apart(run: Run, human: str, metric: str, a: str, b: str, top: int = 10) -> list[Disagreement]:
    """For the systems ``a`` and ``b`` (by name): the segments that pull ``metric`` and the humans furthest apart —
    the disagreement view's measure (:func:`..analysis.disagree.disagreements`) on each segment's difference
    a − b under the metric and under the humans, each read in its own direction. ``first`` is the metric's
    difference, ``second`` the humans'; segments without a human score are left out."""
    k, h = metric_index(run, metric), metric_index(run, human)
    names = [s.name for s in run.systems]
    i, j = names.index(a), names.index(b)

    def delta(m: int) -> np.ndarray:
        return (np.asarray(run.systems[i].results[m].sentences, np.float64)
                - np.asarray(run.systems[j].results[m].sentences, np.float64))

    return disagreements(delta(k), delta(h), run.metrics[k].higher_is_better, run.metrics[h].higher_is_better, top)


def meta_eval_dict(run: Run, found: MetaEvaluation, top: int = 10) -> dict[str, object]:
    """``found`` as JSON, each pair a metric orders against the humans with its ``top`` segments apart (1-based
    lines, both differences a − b)."""
    def apart(metric: str, a: str, b: str) -> list[dict[str, object]]:
        return [{"segment": run.line_number(d.segment), "metric_delta": d.first, "human_delta": d.second}
                for d in segments_apart(run, found.human, metric, a, b, top)]

    return found.to_dict(apart)
