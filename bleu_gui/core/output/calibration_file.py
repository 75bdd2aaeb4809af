"""Writing a calibration (``bleu-score … --error-free --error-free-out FILE``): each metric's error-free curve on
human-rated segments, signed with the human files it was made on (their SHA-256) and each metric's signature, for
triage on new text (:mod:`..inputs.calibration` reads it back and says the file's layout).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..analysis.error_free import Curve
from ..inputs.calibration import VERSION, sha256_of
from . import score_text
from .exports import write_atomic


def write_calibration(path: str | Path, curves: Sequence[Curve], signatures: dict[str, str], definition: str,
                      human_files: Sequence[str | Path]) -> Path:
    """Write the curves (atomically); ``signatures``: each metric's, by name."""
    data = {"calibration": VERSION, "definition": definition,
            "human_files": [{"path": str(h), "sha256": sha256_of(h)} for h in human_files],
            "metrics": {c.metric: {"signature": signatures[c.metric], "negated": c.negated, "segments": c.segments,
                                   "error_free": c.error_free, "thresholds": list(c.thresholds),
                                   "precision": list(c.precision), "recall": list(c.recall)} for c in curves}}
    return write_atomic(path, score_text.dumps(data) + "\n", protected=[str(h) for h in human_files])
