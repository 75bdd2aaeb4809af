"""The Qt-free scoring core of bleu-gui.

Nothing in this package imports PySide6 or pyqtgraph (a test proves it): the
command line and the window both stand on it, and nothing computes a score any
other way.

Its names load with the module that defines them, when first used (PEP 562): ``from bleu_gui.core import
InputError`` does not load the scoring (``bleu-score --help`` starts in the time it takes to build its parser).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .errors import Cancelled, ConfigError, InputError
    from .inputs.run_inputs import read_run_inputs
    from .inputs.text_files import SegmentFile, read_segments
    from .metrics.base import Metric, Score
    from .metrics.bleu.config import BleuConfig
    from .metrics.bleu.details import SentenceDetails, sentence_details
    from .metrics.bleu.metric import Bleu
    from .metrics.bleu.scores import BleuScore, RowScores
    from .metrics.family import MetricConfig
    from .run import Run, RunConfig, ScoredSystem, Significance, rescore, score_run, subset_run

_WHERE = {
    "Cancelled": "errors", "ConfigError": "errors", "InputError": "errors", "read_run_inputs": "inputs.run_inputs",
    "SegmentFile": "inputs.text_files", "read_segments": "inputs.text_files", "Metric": "metrics.base",
    "MetricConfig": "metrics.family", "Score": "metrics.base", "BleuConfig": "metrics.bleu.config",
    "SentenceDetails": "metrics.bleu.details", "sentence_details": "metrics.bleu.details",
    "Bleu": "metrics.bleu.metric", "BleuScore": "metrics.bleu.scores", "RowScores": "metrics.bleu.scores",
    "Run": "run", "RunConfig": "run", "ScoredSystem": "run", "Significance": "run", "rescore": "run",
    "score_run": "run", "subset_run": "run",
}

__all__ = [
    "Bleu", "BleuConfig", "BleuScore", "Cancelled", "ConfigError", "InputError", "Metric", "MetricConfig", "RowScores",
    "Run", "RunConfig", "Score", "ScoredSystem", "SegmentFile", "SentenceDetails", "Significance", "read_run_inputs",
    "read_segments", "rescore", "score_run", "sentence_details", "subset_run",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
