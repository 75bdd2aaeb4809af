"""The Qt-free scoring core of bleu-gui.

Nothing in this package imports PySide6 or pyqtgraph (a test proves it): the
command line and the window both stand on it, and nothing computes a score any
other way.
"""

from .errors import Cancelled, ConfigError, InputError
from .inputs.run_inputs import read_run_inputs
from .inputs.text_files import SegmentFile, read_segments
from .metrics.base import Metric, MetricConfig, Score
from .metrics.bleu.config import BleuConfig
from .metrics.bleu.details import SentenceDetails, sentence_details
from .metrics.bleu.metric import Bleu
from .metrics.bleu.scores import BleuScore, RowScores
from .run import Run, RunConfig, ScoredSystem, Significance, rescore, score_run, subset_run

__all__ = [
    "Bleu", "BleuConfig", "BleuScore", "Cancelled", "ConfigError", "InputError", "Metric", "MetricConfig", "RowScores",
    "Run", "RunConfig", "Score", "ScoredSystem", "SegmentFile", "SentenceDetails", "Significance", "read_run_inputs",
    "read_segments", "rescore", "score_run", "sentence_details", "subset_run",
]
