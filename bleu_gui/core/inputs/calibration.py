"""A calibration, read back for triage on new, unrated text (``--triage calibrated:0.95 --triage-calibration
FILE``): the threshold of a metric that reached a precision on human-rated segments. A metric scored otherwise
(another model, other settings) is refused: the file holds each metric's signature.

The file (written by :mod:`..output.calibration_file`) is JSON: ``{"calibration": 1, "definition", "human_files":
[{"path", "sha256"}], "metrics": {NAME: {"signature", "negated", "segments", "error_free", "thresholds",
"precision", "recall"}}}``, the thresholds in the curve's own direction (a lower-is-better metric's negated),
ascending. It is read through the one JSON door and checked: lengths agree, thresholds ascend, precision and recall
lie in 0..1.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError, term
from .raw_input import read_bytes
from .text_files import decode_text_files
from .untrusted_json import parse

VERSION = 1


@dataclass(frozen=True)
class Calibrated:
    """One metric's threshold for a precision, and what it was calibrated on (for the triage's signature)."""

    metric: str
    threshold: float  # in the metric's own direction
    precision: float
    recall: float
    segments: int
    path: str
    sha256: str
    human_files: tuple[str, ...]

    def words(self, higher_is_better: bool) -> str:
        sign = "below" if higher_is_better else "above"
        return (f"score {sign} {self.threshold:.6g}, calibrated on {self.segments:,} human-rated segments "
                f"({', '.join(Path(h).name for h in self.human_files)}): above it error-free {self.precision:.0%} "
                f"of the time, catching {self.recall:.0%} of the error-free ones")

    def signature(self) -> str:
        return f"calibrated:{Path(self.path).name}#sha256:{self.sha256[:12]}"


def sha256_of(path: str | Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _numbers(where: str, values: object, name: str, unit: bool) -> list[float]:
    if not isinstance(values, list) or not all(isinstance(v, int | float) and not isinstance(v, bool)
                                               for v in values):
        raise InputError(f"{where}: {name} is not a list of numbers")
    out = [float(v) for v in values]
    if not all(math.isfinite(v) for v in out) or (unit and not all(0.0 <= v <= 1.0 for v in out)):
        raise InputError(f"{where}: {name} holds a number outside {'0..1' if unit else 'the finite ones'}")
    return out


def calibrated_threshold(path: str | Path, metric: str, signature: str, wanted: float) -> Calibrated:
    """The lowest threshold of ``metric``'s curve reaching precision ``wanted``; :class:`InputError` when the file
    is not a calibration, holds no such metric, was made with another signature, or no threshold reaches it."""
    where = str(path)
    # Decoded as every text input is (a BOM, CRLF, bytes that are not UTF-8: said in one line), then the one door.
    text = decode_text_files([Path(path)], [read_bytes(Path(path))])[0]
    data = parse("\n".join(text.lines), where)
    if not isinstance(data, dict) or data.get("calibration") != VERSION or not isinstance(data.get("metrics"), dict):
        raise InputError(f"{where}: not a calibration (write one with {term('error_free')} and "
                         f"{term('error_free_out')} on human-rated segments)")
    entry = data["metrics"].get(metric)
    if not isinstance(entry, dict):
        raise InputError(f"{where}: no calibration of {metric} (it holds {', '.join(map(str, data['metrics']))})")
    if entry.get("signature") != signature:
        raise InputError(f"{where}: {metric} was calibrated as {entry.get('signature')!r}; this run's is "
                         f"{signature!r}: a threshold holds only for the metric it was found with")
    thresholds = _numbers(where, entry.get("thresholds"), "thresholds", False)
    precision = _numbers(where, entry.get("precision"), "precision", True)
    recall = _numbers(where, entry.get("recall"), "recall", True)
    if not len(thresholds) == len(precision) == len(recall) or thresholds != sorted(thresholds):
        raise InputError(f"{where}: {metric}'s curve is not a curve (lengths differ or thresholds do not ascend)")
    segments = entry.get("segments")
    files = data.get("human_files")
    if not isinstance(segments, int) or not isinstance(files, list):
        raise InputError(f"{where}: {metric}: segments or human_files missing")
    negated = entry.get("negated") is True
    for t, p, r in zip(thresholds, precision, recall):
        if p >= wanted - 1e-12:
            return Calibrated(metric, -t if negated else t, p, r, segments, where, sha256_of(path),
                              tuple(str(f.get("path")) for f in files if isinstance(f, dict)))
    raise InputError(f"{where}: no threshold of {metric} is error-free {wanted:.0%} of the time on its "
                     f"{segments:,} calibration segments (ask a lower precision)")
