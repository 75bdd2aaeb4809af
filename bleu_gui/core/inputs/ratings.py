"""What a rater said of a segment (MQM): the errors with their spans, severities and categories, and who rated it.
Read by :mod:`.annotations`; a :class:`~.text_files.SegmentFile` holds one :class:`Ratings` per segment.

Also the one validation of a human rating, which every reader of ratings and the review desk share: a severity is
one a file of that protocol may hold (:func:`severity_of`; ESA's are Minor and Major, Kocmi et al. 2024, and
WMT's "undecided"), and a segment score a number in its protocol's range (:func:`rating_score`: ESA and DA 0–100,
written in digits 0–9 — a string such as WMT's ``"98"`` included, ``"١٥٠"`` not)."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError

TARGET, SOURCE = "target", "source"  # the side of the segment a span marks
SEVERITIES = ("Critical", "Major", "Minor", "Neutral", "No-error")
ESA_SEVERITIES = ("Major", "Minor")  # what an ESA rater marks (an undecided one is read as Neutral)
_SEVERITY = {s.lower().replace("-", ""): s for s in SEVERITIES} | {"noerrors": "No-error", "none": "No-error"}
# Each protocol's segment-score range: ESA's 0-100 slider (Kocmi et al. 2024), DA's 0-100 (Graham et al. 2013),
# Pearmut's too.
SCORE_RANGES = {"esa": (0.0, 100.0), "da": (0.0, 100.0)}
_DIGITS = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def severity_of(path: Path, line: int | str, value: str, allowed: tuple[str, ...] = SEVERITIES) -> str:
    """A severity as real files spell it (``Major``, ``minor``, ``No-error``, ``no_error``) in one spelling, one of
    ``allowed`` (a protocol's own: :data:`ESA_SEVERITIES`); :class:`InputError` otherwise (``line``: the file's
    line, or where in the file in words)."""
    key = re.sub(r"[\s_\-]+", "", value).lower()
    if _SEVERITY.get(key) in allowed:
        return _SEVERITY[key]
    where = f"line {line}" if isinstance(line, int) else line
    raise InputError(f"{path}: {where}: severity {value!r} is none of {', '.join(allowed)} (case, spaces "
                     "and hyphens aside)")


def rating_score(value: object, protocol: str, where: str) -> float | None:
    """A rater's segment score as a file (or the desk) gives it, checked as its ``protocol`` (``esa``, ``da``)
    says: a JSON number, or a string of digits 0-9 (WMT writes ``"98"``), within :data:`SCORE_RANGES`; None for no
    score (null, an empty string, ``None``, ``NaN``). :class:`InputError` names ``where`` (``FILE: line N``) and
    what is wrong: never a number read that the rater did not give."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "null", "nan")):
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise InputError(f"{where}: the score {type(value).__name__} is not a number")
    low, high = SCORE_RANGES[protocol]
    if isinstance(value, int) and not low <= value <= high:  # before float(): an integer may be too large for one
        shown = str(value) if abs(value) < 10 ** 40 else f"of about {int(value.bit_length() * math.log10(2)) + 1:,} digits"
        raise InputError(f"{where}: the {protocol.upper()} score {shown} is outside {low:g}-{high:g}")
    shown = json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)
    shown = shown if len(shown) <= 40 else shown[:39] + "…"
    if isinstance(value, str):
        if not _DIGITS.fullmatch(value.strip()):
            raise InputError(f"{where}: the score {shown} is not a number written in digits 0-9")
        value = value.strip()
    number = float(value)
    if not math.isfinite(number) or not low <= number <= high:
        raise InputError(f"{where}: the {protocol.upper()} score {shown} is outside {low:g}-{high:g}")
    return number + 0.0  # -0 is 0


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
    source: str = field(default="", compare=False)  # the file it was read from (or written to: a review's)
    time: str = field(default="", compare=False)  # when it was marked (ISO 8601), where the file says

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
    # (rater, file) for each file a rater's rating of the segment was read from: a review replaces only its own.
    sources: tuple[tuple[str, str], ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class RaterScore:
    """One rater's score of a segment (a human ESA or DA score), and the file and line it was read from."""

    rater: str
    score: float
    path: Path
    line: int
