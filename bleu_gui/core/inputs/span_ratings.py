"""Human ratings that come as a segment score with the error spans behind it — ESA (Kocmi et al. 2024, WMT24/25's
human evaluation) and Pearmut's logs — read as they are released, for ``--annotations`` (the spans) and as a human
score column (``esa``; ``da`` for a Pearmut campaign that marked no spans).

- **WMT's ESA lines** (``wmt24_esa.jsonl``): one JSON object per rater and segment, ``system``, ``src``, ``tgt``,
  ``line_id`` (the segment's 0-based line in the test set), ``annotator``, ``esa_score`` (0–100) and ``esa_spans``.
- **WMT's ESA per segment** (``wmt24-genmt-humeval.jsonl``): one object per segment, ``src_text``,
  ``tgt_text`` (system → its text) and ``scores`` (system → a list of ``{score, annotator, errors}``).
- **Pearmut's log** (``data/outputs/CAMPAIGN.jsonl``, or the dashboard's download, ``{campaign: [lines]}``): one
  object per submitted item, ``user_id``, ``item_i``, ``item`` (what was shown: ``src`` and ``tgt``, model → text)
  and ``annotation`` (model → ``{score, error_spans}``); a document item holds lists of both, in step.

A span is ``{start_i, end_i, severity, category?}``, character offsets into the system's text with ``end_i``
*inclusive* (as Appraise and Pearmut mark them); ``"missing"`` offsets mark an omission (an error without a span).
These files name segments by their text, not by a line of the run: a rating belongs to the segment of its system
whose text is the rated text (and whose source the rated source, when the run has one); ``line_id`` decides
between equal texts. A rating whose text no segment holds is left out and counted, never put on a neighbour.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from .corpus import Context
from .ratings import severity_of
from .raw_input import read_bytes
from .score_files import ScoreRow, ScoreTable, json_objects, system_index
from .text_files import SegmentFile, decode_text_files

ESA, DA = "esa", "da"  # the score column's name: an ESA score (spans marked), a DA score (none marked)


@dataclass(frozen=True)
class Span:
    """One marked error: ``start``/``end`` code-point offsets (end exclusive; None for an omission)."""

    start: int | None
    end: int | None
    severity: str
    category: str


@dataclass(frozen=True)
class SpanRating:
    """What one rater said of one system's segment: the score (None when not given) and the spans."""

    line: int
    system: str
    rater: str
    score: float | None
    spans: tuple[Span, ...]
    target: str
    source: str | None
    position: int | None  # the segment's 0-based line in the test set, when the file says


@dataclass(frozen=True)
class SpanRatings:
    """A file's ratings, the format it was read as, and whether any rating marked spans (ESA) or none (DA)."""

    path: Path
    kind: str
    ratings: list[SpanRating]
    marks_spans: bool
    unclassified: int  # spans without a severity (Pearmut's null), read as Neutral


def _score(path: Path, line: int, value: object) -> float | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "null", "nan")):
        return None
    if isinstance(value, bool):
        raise InputError(f"{path}: line {line}: the score {json.dumps(value)} is not a number")
    try:
        number = float(value) if isinstance(value, int | float | str) else math.nan
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise InputError(f"{path}: line {line}: the score {json.dumps(value, ensure_ascii=False)} is not a number")
    return number


def _spans(path: Path, line: int, target: str, value: object, counts: list[int]) -> tuple[Span, ...]:
    """The spans of one rating; ``counts[0]`` grows by the spans without a severity."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InputError(f"{path}: line {line}: the error spans are not a list")
    out = []
    for span in value:
        if not isinstance(span, dict):
            raise InputError(f"{path}: line {line}: an error span is not an object: {json.dumps(span)[:60]}")
        severity = span.get("severity")
        if severity is None or str(severity).strip().lower() in ("", "undecided"):
            counts[0] += 1
            severity = "Neutral"
        start, end = span.get("start_i"), span.get("end_i")
        category = str(span.get("category") or span.get("error_type") or "")
        if start == "missing" or end == "missing" or (start is None and end is None):
            out.append(Span(None, None, severity_of(path, line, str(severity)), category))
            continue
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end)):
            raise InputError(f"{path}: line {line}: start_i and end_i must be character offsets (whole numbers), "
                             f"got {json.dumps(start)} and {json.dumps(end)}")
        assert isinstance(start, int) and isinstance(end, int)
        if not 0 <= start <= end < max(len(target), 1):
            raise InputError(f"{path}: line {line}: the span {start}..{end} (end inclusive) is outside its text of "
                             f"{len(target)} characters")
        out.append(Span(start, end + 1, severity_of(path, line, str(severity)), category))
    return tuple(out)


def _text(value: object) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _esa_lines(path: Path, objects: list[tuple[int, dict[str, object]]], counts: list[int]) -> Iterator[SpanRating]:
    for n, obj in objects:
        if "system" not in obj or "tgt" not in obj:
            raise InputError(f"{path}: line {n}: an ESA line needs \"system\" and \"tgt\" (keys: {', '.join(obj)})")
        target = _text(obj["tgt"])
        position = obj.get("line_id")
        yield SpanRating(n, _text(obj["system"]), _text(obj.get("annotator")) or "(unnamed)",
                         _score(path, n, obj.get("esa_score")), _spans(path, n, target, obj.get("esa_spans"), counts),
                         target, _text(obj["src"]) if "src" in obj else None,
                         position if isinstance(position, int) and not isinstance(position, bool) else None)


def _esa_segments(path: Path, objects: list[tuple[int, dict[str, object]]],
                  counts: list[int]) -> Iterator[SpanRating]:
    for n, obj in objects:
        scores, texts = obj.get("scores"), obj.get("tgt_text")
        if not isinstance(scores, dict) or not isinstance(texts, dict):
            raise InputError(f"{path}: line {n}: a segment of WMT's ESA needs \"scores\" and \"tgt_text\" objects")
        for system, ratings in scores.items():
            if system not in texts or not isinstance(ratings, list):
                raise InputError(f"{path}: line {n}: system {system!r} has no text in tgt_text, or its ratings are "
                                 "not a list")
            target = _text(texts[system])
            for rating in ratings:
                if not isinstance(rating, dict):
                    raise InputError(f"{path}: line {n}: a rating of {system!r} is not an object")
                yield SpanRating(n, system, _text(rating.get("annotator")) or "(unnamed)",
                                 _score(path, n, rating.get("score")),
                                 _spans(path, n, target, rating.get("errors"), counts), target,
                                 _text(obj["src_text"]) if "src_text" in obj else None, None)


def _pearmut(path: Path, objects: list[tuple[int, dict[str, object]]], counts: list[int]) -> Iterator[SpanRating]:
    for n, obj in objects:
        annotation, item = obj.get("annotation"), obj.get("item")
        if item is None:
            raise InputError(f"{path}: line {n}: a Pearmut line without \"item\" (what was shown) cannot be placed "
                             "on the run's segments")
        pairs = (list(zip(annotation, item, strict=False)) if isinstance(annotation, list) and isinstance(item, list)
                 else [(annotation, item)])
        if isinstance(annotation, list) != isinstance(item, list) or (
                isinstance(annotation, list) and isinstance(item, list) and len(annotation) != len(item)):
            raise InputError(f"{path}: line {n}: \"annotation\" and \"item\" are not in step (one per shown segment)")
        for marks, shown in pairs:
            if not isinstance(marks, dict) or not isinstance(shown, dict) or not isinstance(shown.get("tgt"), dict):
                raise InputError(f"{path}: line {n}: an item needs \"tgt\" (model → text) and its annotation an "
                                 "object (model → score and error_spans)")
            texts = shown["tgt"]
            assert isinstance(texts, dict)
            for model, said in marks.items():
                if not isinstance(said, dict):
                    raise InputError(f"{path}: line {n}: the annotation of {model!r} is not an object")
                if model not in texts:
                    raise InputError(f"{path}: line {n}: {model!r} was annotated but the item shows no text of it")
                target = _text(texts[model])
                counts[1] += "error_spans" in said
                yield SpanRating(n, model, _text(obj.get("user_id")) or "(unnamed)", _score(path, n, said.get("score")),
                                 _spans(path, n, target, said.get("error_spans"), counts), target,
                                 _text(shown["src"]) if "src" in shown else None, None)


def _objects(path: Path, text: str) -> list[tuple[int, dict[str, object]]]:
    try:
        whole = json.loads(text)  # Pearmut's dashboard download, one object: {campaign: [lines]}
    except json.JSONDecodeError:
        whole = None  # JSON Lines
    if isinstance(whole, dict) and whole and all(isinstance(v, list) for v in whole.values()):
        return [(1, line) for lines in whole.values() for line in lines if isinstance(line, dict)]
    return json_objects(path, text, "ratings")[1]


def kind_of(first: Mapping[str, object]) -> str | None:
    """Which of the module's formats an object of a file is (its first), None when none."""
    if "esa_score" in first or "esa_spans" in first:
        return "WMT ESA"
    if isinstance(first.get("scores"), dict) and isinstance(first.get("tgt_text"), dict):
        return "WMT ESA per segment"
    if "annotation" in first and ("user_id" in first or "item_i" in first):
        return "Pearmut"
    return None


def sniff(path: str | Path, encoding: str = "utf-8") -> bool:
    """Whether ``path`` is a file of this module's formats (JSON or JSON Lines whose first object is one)."""
    path = Path(path)
    if path.suffix.lower() not in (".jsonl", ".json"):
        return False
    try:
        text = decode_text_files([path], [read_bytes(path, encoding)], encoding)[0]
        objects = _objects(path, "\n".join(text.lines))
    except (InputError, json.JSONDecodeError, UnicodeDecodeError):
        return False
    return bool(objects) and kind_of(objects[0][1]) is not None


def read_span_ratings(path: str | Path, encoding: str = "utf-8") -> SpanRatings:
    """A file of ESA or Pearmut ratings (see the module); :class:`InputError` names the line and what is wrong."""
    path = Path(path)
    text = decode_text_files([path], [read_bytes(path, encoding)], encoding)[0]
    objects = _objects(path, "\n".join(text.lines))
    kind = kind_of(objects[0][1])
    counts = [0, 0]  # spans without a severity; Pearmut ratings with error_spans
    reader = {"WMT ESA": _esa_lines, "WMT ESA per segment": _esa_segments, "Pearmut": _pearmut}.get(kind or "")
    if reader is None:
        raise InputError(f"{path}: line {objects[0][0]}: neither WMT's ESA nor a Pearmut log (keys: "
                         f"{', '.join(objects[0][1])})")
    ratings = list(reader(path, objects, counts))
    assert kind is not None
    return SpanRatings(path, kind, ratings, kind != "Pearmut" or counts[1] > 0, counts[0])


@dataclass(frozen=True)
class Placed:
    """The ratings of a file placed on the run: each with its system's and segment's index, and what was left out."""

    ratings: list[tuple[SpanRating, int, int]]
    other_systems: dict[str, int]
    not_found: int      # ratings whose text no segment of their system holds
    ambiguous: int      # ratings whose text several segments hold, with nothing to decide between them


def place(found: Mapping[str, int], ratings: Sequence[SpanRating], systems: Sequence[SegmentFile],
          context: Context) -> Placed:
    """Each rating on the segment of its system (``found``: file system name → index) whose text is the rated
    text (see the module)."""
    where: list[dict[str, list[int]]] = []
    for f in systems:
        lines: dict[str, list[int]] = {}
        for i, line in enumerate(f.lines):
            lines.setdefault(line, []).append(i)
        where.append(lines)
    source = context.source.lines if context.source is not None else None
    placed: list[tuple[SpanRating, int, int]] = []
    other: dict[str, int] = {}
    not_found = ambiguous = 0
    for r in ratings:
        system = found.get(r.system)
        if system is None:
            other[r.system] = other.get(r.system, 0) + 1
            continue
        candidates = where[system].get(r.target, [])
        if source is not None and r.source is not None and len(candidates) > 1:
            candidates = [i for i in candidates if source[i] == r.source] or candidates
        if r.position is not None and r.position in candidates:
            candidates = [r.position]
        if len(candidates) == 1:
            placed.append((r, system, candidates[0]))
        elif candidates:
            ambiguous += 1
        else:
            not_found += 1
    return Placed(placed, other, not_found, ambiguous)


def _system_table(path: Path, ratings: Sequence[SpanRating]) -> ScoreTable:
    return ScoreTable(path, [ScoreRow(r.line, r.system, "", "", {}) for r in ratings], False, False, [])


PlacedFile = tuple[SpanRatings, Placed, list[str]]  # a file's ratings, placed on the run, and the notes said


def placed_ratings(path: str | Path, systems: Sequence[SegmentFile], names: Sequence[str], context: Context,
                   encoding: str = "utf-8") -> PlacedFile:
    """The file's ratings placed on the run's segments, and notes on what was left out and how it was read."""
    read = read_span_ratings(path, encoding)
    found = system_index(_system_table(read.path, read.ratings), systems, names)
    placed = place(found, read.ratings, systems, context)
    name = read.path.name
    notes = [f"{name}: read as {read.kind} ({len(read.ratings):,} ratings; span ends inclusive)"]
    if placed.other_systems:
        notes.append(f"{name}: ratings of systems the run does not hold left out: "
                     + ", ".join(f"{s} ({c:,})" for s, c in placed.other_systems.items()))
    if placed.not_found:
        notes.append(f"{name}: {placed.not_found:,} ratings of a text that is no segment of its system left out")
    if placed.ambiguous:
        notes.append(f"{name}: {placed.ambiguous:,} ratings of a text several segments of its system hold (and "
                     "nothing in the file tells which) left out")
    if read.unclassified:
        notes.append(f"{name}: {read.unclassified:,} error spans without a severity read as Neutral (weight 0)")
    return read, placed, notes


def score_table(read: SpanRatings, placed: Placed, names: Sequence[str]) -> ScoreTable | None:
    """The ratings' scores as a score file's table: one row per system and segment (1-based line), its score the
    mean over the raters who gave one — ESA's and DA's segment score (Kocmi et al. 2024); None when no rating
    gave a score (spans only). The rated segments are a sample: the others are unrated, not refused."""
    sums: dict[tuple[int, int], list[float]] = {}
    for r, system, segment in placed.ratings:
        if r.score is not None:
            sums.setdefault((system, segment), []).append(r.score)
    if not sums:
        return None
    column = ESA if read.marks_spans else DA
    rows = [ScoreRow(0, names[system], "", str(segment + 1), {column: repr(sum(v) / len(v))})
            for (system, segment), v in sorted(sums.items())]
    return ScoreTable(read.path, rows, False, False, [column], partial=True)


def score_tables(paths: Sequence[str | Path], systems: Sequence[SegmentFile], names: Sequence[str], context: Context,
                 encoding: str = "utf-8") -> tuple[list[ScoreTable], list[str]]:
    """Each file's scores as a score file's table (:func:`score_table`), and the notes on how each was read."""
    tables, notes = [], []
    for path in paths:
        read, placed, said = placed_ratings(path, systems, names, context, encoding)
        table = score_table(read, placed, names)
        if table is not None:
            tables.append(table)
        notes += said
    return tables, notes
