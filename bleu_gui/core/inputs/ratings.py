"""What a rater said of a segment (MQM): the errors with their spans, severities and categories, and who rated it.
Read by :mod:`.annotations`; a :class:`~.text_files.SegmentFile` holds one :class:`Ratings` per segment."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError

TARGET, SOURCE = "target", "source"  # the side of the segment a span marks
SEVERITIES = ("Critical", "Major", "Minor", "Neutral", "No-error")
_SEVERITY = {s.lower().replace("-", ""): s for s in SEVERITIES} | {"noerrors": "No-error", "none": "No-error"}


def severity_of(path: Path, line: int | str, value: str) -> str:
    """A severity as real files spell it (``Major``, ``minor``, ``No-error``, ``no_error``) in one spelling;
    :class:`InputError` otherwise (``line``: the file's line, or where in the file in words)."""
    key = re.sub(r"[\s_\-]+", "", value).lower()
    if key in _SEVERITY:
        return _SEVERITY[key]
    where = f"line {line}" if isinstance(line, int) else line
    raise InputError(f"{path}: {where}: severity {value!r} is none of {', '.join(SEVERITIES)} (case, spaces "
                     "and hyphens aside)")


@dataclass(frozen=True)
class ErrorSpan:
    """One error a rater marked: its category and severity, the span (``start``/``end``: code-point offsets into
    the text of ``side``, marks taken out; None when no span was marked), the marked text, the rater's comment,
    and the line of the file it was read from."""

    rater: str
    category: str
    severity: str
    start: int | None = None
    end: int | None = None
    side: str = TARGET
    text: str = ""
    comment: str = ""
    line: int = 0

    def to_dict(self) -> dict[str, object]:
        return {"rater": self.rater, "category": self.category, "severity": self.severity, "start": self.start,
                "end": self.end, "side": self.side, "text": self.text, "comment": self.comment}


@dataclass(frozen=True)
class Ratings:
    """A segment's ratings: the raters who rated it (a rater who found no error among them) and their errors;
    ``corrections``: a rater's corrected translation, where one was given."""

    raters: tuple[str, ...]
    errors: tuple[ErrorSpan, ...]
    corrections: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class RaterScore:
    """One rater's score of a segment (a human ESA or DA score), and the file and line it was read from."""

    rater: str
    score: float
    path: Path
    line: int
