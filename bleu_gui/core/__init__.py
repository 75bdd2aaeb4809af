"""The Qt-free scoring core of bleu-gui.

Nothing in this package imports PySide6 or pyqtgraph (a test proves it): the
command line and the window both stand on it, and nothing computes a score any
other way.
"""

from .errors import Cancelled, ConfigError, InputError
from .inputs.run_inputs import read_run_inputs
from .inputs.text_files import SegmentFile, read_segments
from .metrics.bleu_config import BleuConfig
from .metrics.bleu_details import SentenceDetails, sentence_details
from .metrics.bleu_evaluator import Evaluator
from .metrics.scores import BleuScore, RowScores
from .run import Run, ScoredSystem, Significance, score_run

__all__ = [
    "BleuConfig", "BleuScore", "Cancelled", "ConfigError", "Evaluator", "InputError", "RowScores", "Run",
    "ScoredSystem", "SegmentFile", "SentenceDetails", "Significance", "read_run_inputs", "read_segments", "score_run",
    "sentence_details",
]
