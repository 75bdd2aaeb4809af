"""The run model: which files were scored, with which metrics and settings, and everything computed from them.

A :class:`Run` is what the command line prints, what the window shows and what
every export writes. :func:`score_run` is the one place that orchestrates
scoring: read files and a :class:`RunConfig` go in, a run comes out, with
progress and cancel (the progress callback may raise
:class:`~bleu_gui.core.errors.Cancelled`). :func:`rescore` is the one way to
score a run again (more systems, another baseline, other settings), and
:func:`subset_run` scores a slice of it.

Every metric of the run is a :class:`~.metrics.base.Metric`; each system has
one :class:`MetricResult` per metric, in the run's order, and the comparison one
:class:`MetricComparison` per metric. Nothing here asks which metric it holds,
except for BLEU's n-gram wins, which only BLEU's reference index can give.

What a run holds is in :mod:`.results`, scoring it in :mod:`.scoring`, the comparison with the baseline in
:mod:`.comparison`; the names the rest of the program uses are here.
"""

from __future__ import annotations

from .results import Comparison, Run, RunConfig, ScoredSystem, Significance
from .scoring import (
    bleu_lines,
    check_labels,
    confidences,
    renamed,
    rescore,
    score_in_stages,
    score_run,
    scored_already,
    subset_run,
)

__all__ = ["Comparison", "Run", "RunConfig", "ScoredSystem", "Significance", "bleu_lines", "check_labels",
           "confidences", "renamed", "rescore", "score_in_stages", "score_run", "scored_already", "subset_run"]
