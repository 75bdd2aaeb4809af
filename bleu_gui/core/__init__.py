"""The Qt-free scoring core of bleu-gui.

Nothing in this package imports PySide6 or pyqtgraph (a test proves it): the
command line and the window both stand on it, and nothing computes a score any
other way.
"""

from .config import BleuConfig
from .details import SentenceDetails, sentence_details
from .errors import Cancelled, ConfigError, InputError
from .evaluate import Evaluator
from .inputs import read_run_inputs
from .readers import SegmentFile, read_segments
from .run import Run, ScoredSystem, Significance, score_run
from .scores import BleuScore, RowScores

__all__ = [
    "BleuConfig", "BleuScore", "Cancelled", "ConfigError", "Evaluator", "InputError", "RowScores", "Run",
    "ScoredSystem", "SegmentFile", "SentenceDetails", "Significance", "read_run_inputs", "read_segments", "score_run",
    "sentence_details",
]
