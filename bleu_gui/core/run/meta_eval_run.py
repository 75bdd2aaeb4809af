"""A run's metrics against its human scores (:mod:`..analysis.meta_eval`), the metrics named as the command line and
the window name them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

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


def meta_evaluate_run(run: Run, human: str, wanted: Sequence[str] | None = None,
                      progress: Callable[[float], None] | None = None) -> MetaEvaluation:
    """Every metric of the run (or those ``wanted``) against the human scores ``human``."""
    h = metric_index(run, human)
    evaluated = [metric_index(run, n) for n in wanted] if wanted else None
    stats = [[s.results[k].stats for s in run.systems] for k in range(len(run.metrics))]
    sentences = [[s.results[k].sentences for s in run.systems] for k in range(len(run.metrics))]
    return meta_evaluate(h, run.metrics, stats, sentences, [s.name for s in run.systems], evaluated, progress)
