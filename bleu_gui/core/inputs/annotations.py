"""Human error annotations (MQM): which span of a translation a rater marked as an error, its category and
severity — read from the files MT evaluation exchanges them in, and attached to each system's segments.

- **Google's MQM TSV** (``system doc doc_id seg_id rater source target category severity [comment]``): one row
  per error, or one ``No-error`` row per segment and rater; the error's span is marked ``<v>…</v>`` inside the
  target (or, for an omission, inside the source). Spans are kept as character offsets into the text as shown,
  marks taken out. Fields are read literally, a field in CSV quoting as the text it quotes (:mod:`.tsv`).
- **Marot's TSV** (``system doc docSegId globalSegId rater source target category severity metadata``, the
  header optional): the same, with a JSON ``metadata`` column whose ``note`` is the rater's comment and whose
  ``corrected_translation`` the rater's correction; a row without a rater carries metadata, not a rating.
- **ESA and Pearmut ratings** (:mod:`.span_ratings`): a segment score with the spans behind it; their spans are
  read here, their scores as the human score column ``esa`` (by :mod:`..metrics.imported`).
- **JSON Lines of spans**, as span-producing metrics (xCOMET, GEMBA-MQM) write them: ``{"system": …, "seg_id"
  or "segment": …, "start": …, "end": …, "severity": …, "category"?, "rater"?, "side"?}``, offsets into the
  system's text (``"side": "source"``: into the source, an omission). A row with a rater and no severity rates the
  segment without an error; its ``esa`` (0–100), where given, is the human column ``esa`` — as the window's review
  files write them (:mod:`..output.review_file`).

Severities are read as real files spell them (``Major``, ``minor``, ``No-error``, ``no_error``, ``Neutral``,
``Critical``); anything else is refused naming the file, line and field. A segment with a rating but no error
(a ``No-error`` row) is rated: its MQM is 0. A segment with no row is unrated: missing, never 0.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import InputError, term
from .corpus import Context
from .ratings import SEVERITIES, SOURCE, TARGET, ErrorSpan, Ratings, rating_score, severity_of
from .raw_input import read_bytes
from .review_rows import rows_in_force
from .score_files import ScoreRow, ScoreTable, json_objects, segment_index, system_index
from .span_placement import Placed, PlacedFile, placed_ratings
from .span_ratings import sniff
from .text_files import SegmentFile, decode_text_files
from .tsv import read_tsv
from .untrusted_json import parse

_MARK = re.compile(r"</?v>")


def unmarked(path: Path, line: int, column: str, text: str) -> tuple[str, list[tuple[int, int]]]:
    """``text`` without its ``<v>…</v>`` marks, and the spans they marked (code-point offsets into the unmarked
    text). A ``<v>`` never closed marks the rest of the text (Google's TED file has one, before a final ``?``:
    :func:`open_marks` counts them); nested marks, or a ``</v>`` never opened, are refused naming the file, line
    and column."""
    spans: list[tuple[int, int]] = []
    out: list[str] = []
    start: int | None = None
    position, length = 0, 0
    for match in _MARK.finditer(text):
        out.append(text[position:match.start()])
        length += match.start() - position
        position = match.end()
        opening = match.group() == "<v>"
        if opening and start is not None:
            raise InputError(f"{path}: line {line}: the {column!r} field nests a <v> mark inside another")
        if not opening and start is None:
            raise InputError(f"{path}: line {line}: the {column!r} field closes a </v> mark it never opened")
        if opening:
            start = length
        else:
            assert start is not None
            spans.append((start, length))
            start = None
    out.append(text[position:])
    length += len(text) - position
    if start is not None:
        spans.append((start, length))
    return "".join(out), spans


def open_marks(text: str) -> bool:
    """Whether ``text`` opens a ``<v>`` mark it never closes (read as marking the rest of the text)."""
    return text.count("<v>") > text.count("</v>")


@dataclass
class RatingsBuilder:
    """The ratings of one system's segment as rows add them."""

    raters: dict[str, None] = field(default_factory=dict)
    errors: list[ErrorSpan] = field(default_factory=list)
    corrections: dict[str, str] = field(default_factory=dict)
    sources: dict[tuple[str, str], None] = field(default_factory=dict)

    def add(self, rater: str, severity: str, error: ErrorSpan | None, correction: str = "", source: str = "") -> None:
        self.raters.setdefault(rater, None)
        self.sources.setdefault((rater, source), None)
        if error is not None and severity != "No-error":
            self.errors.append(replace(error, source=source) if source else error)
        if correction:
            self.corrections.setdefault(rater, correction)

    def ratings(self) -> Ratings:
        return Ratings(tuple(self.raters), tuple(self.errors), tuple(self.corrections.items()), tuple(self.sources))


@dataclass(frozen=True)
class RowRating:
    """What one row of an MQM table says: who rated, the severity and category, the spans in the target and the
    source, the comment and correction."""

    rater: str
    severity: str
    category: str
    target_spans: list[tuple[int, int]]
    source_spans: list[tuple[int, int]]
    comment: str
    correction: str
    time: str = ""  # when the error was marked, where the file says (the desk's review files do)

    def error(self, line: int, target: str, source: str) -> ErrorSpan:
        """The row's error: its first span (the target's, else the source's), the marked text with it."""
        for side, spans, text in ((TARGET, self.target_spans, target), (SOURCE, self.source_spans, source)):
            if spans:
                start, end = spans[0][0], spans[-1][1]  # several marks of one error: from the first to the last
                return ErrorSpan(self.rater, self.category, self.severity, start, end, side, text[start:end],
                                 self.comment, line, time=self.time)
        return ErrorSpan(self.rater, self.category, self.severity, comment=self.comment, line=line, time=self.time)


def row_rating(path: Path, line: int, row: Mapping[str, object], columns: Mapping[str, str | None],
               target_spans: list[tuple[int, int]], source_spans: list[tuple[int, int]]) -> RowRating | None:
    """The rating a row of an MQM (or Marot) table gives, None for a row that rates nothing (a Marot metadata row,
    no rater). ``columns``: the table's ``rater``, ``category``, ``severity``, ``comment`` and ``metadata`` columns
    (None where it has none)."""

    def cell(role: str) -> str:
        col = columns.get(role)
        value = row.get(col, "") if col else ""
        return value if isinstance(value, str) else "" if value is None else str(value)

    rater = cell("rater").strip()
    severity_text = cell("severity").strip()
    if not rater and not severity_text:
        return None
    severity_col = columns.get("severity")
    if severity_text:
        severity = severity_of(path, line, severity_text)
    elif severity_col is None or severity_col not in row:
        # No severity at all: a JSON Lines row of a rater that rates the segment without an error (a review's
        # reviewed row; the module says so). A table has no such row: its every row has the column.
        severity = "No-error"
    else:
        raise InputError(f"{path}: line {line}: the severity is empty (a rating row names one: "
                         f"{', '.join(SEVERITIES)}; a segment without an error is a No-error row)")
    comment, correction = cell("comment").strip(), ""
    metadata = cell("metadata").strip()
    if metadata:
        meta = parse(metadata, f"{path}: line {line}: the metadata field")
        if isinstance(meta, dict):
            comment = comment or str(meta.get("note") or "").strip()
            correction = str(meta.get("corrected_translation") or "").strip()
    return RowRating(rater or "(unnamed)", severity, cell("category").strip(), target_spans, source_spans, comment,
                     correction, cell("time").strip())


# -- annotation files given with --annotations ----------------------------------------------------------------

_MAROT = ("system", "doc", "docSegId", "globalSegId", "rater", "source", "target", "category", "severity",
          "metadata")


@dataclass(frozen=True)
class AnnotationRow:
    """One rating row of an annotation file, keyed as a score file's rows are."""

    key: ScoreRow
    rating: RowRating
    target: str   # the row's target text, marks taken out ('' in JSON Lines: offsets are into the system's text)
    source: str


def _find(header: Sequence[str], names: Iterable[str]) -> str | None:
    lowered = {h.lower(): h for h in header}
    return next((lowered[n.lower()] for n in names if n.lower() in lowered), None)


def _tsv_rows(path: Path, text: SegmentFile) -> tuple[list[str], list[tuple[int, dict[str, object]]], str]:
    table = read_tsv(path, text.lines, "line 1 has")
    if not table.rows:
        raise InputError(f"{path}: empty: no annotations")
    first = [c.strip() for c in table.rows[0][1]]
    headed = "system" in [c.lower() for c in first]
    header = first if headed else list(_MAROT)  # Marot's header is optional
    rows: list[tuple[int, dict[str, object]]] = []
    for n, row in table.rows[1:] if headed else table.rows:
        if len(row) != len(header):
            raise InputError(f"{path}: line {n}: {len(row)} fields, {'the header has' if headed else 'Marot has'} "
                             f"{len(header)} ({' '.join(header)})")
        rows.append((n, dict(zip(header, row))))
    return header, rows, table.note


def _jsonl_rows(path: Path, text: SegmentFile) -> tuple[list[str], list[tuple[int, dict[str, object]]]]:
    """A JSON Lines annotation file's rows in force (a review file's withdrawals and later verdicts applied:
    :mod:`.review_rows`)."""
    header, rows = json_objects(path, "\n".join(text.lines), "annotations")
    return header, rows_in_force(rows)


def _offset(path: Path, n: int, row: Mapping[str, object], name: str) -> int:
    value = row.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"{path}: line {n}: {name} must be a character offset (a whole number, 0 or more), got "
                         f"{json.dumps(value)}")
    return value


def read_annotation_file(path: str | Path, encoding: str = "utf-8") -> tuple[ScoreTable, list[AnnotationRow], str]:
    """An annotation file's rows (see the module), keyed like a score file's, and a note on how its fields were read
    (empty when plainly); :class:`InputError` names the line and field that is wrong."""
    path = Path(path)
    text = decode_text_files([path], [read_bytes(path, encoding)], encoding)[0]
    jsonl = path.suffix.lower() in (".jsonl", ".json")
    header, rows, note = (*_jsonl_rows(path, text), "") if jsonl else _tsv_rows(path, text)
    system_col = _find(header, ("system", "sys", "system_name"))
    id_col = _find(header, ("seg_id", "segment_id", "segid", "docsegid", "sid"))
    line_col = _find(header, ("segment", "line", "seg"))
    doc_col = _find(header, ("doc", "doc_id", "docid", "document"))
    if system_col is None or (id_col or line_col) is None:
        raise InputError(f"{path}: annotations need a system column and a segment column (seg_id, or segment: the "
                         f"1-based line number); columns: {', '.join(header)}")
    if not _find(header, ("severity",)) and not (jsonl and _find(header, ("reviewed",))):  # a review: no errors yet
        raise InputError(f"{path}: no severity column: not MQM annotations (columns: {', '.join(header)})")
    roles = {"rater": _find(header, ("rater",)), "category": _find(header, ("category",)),
             "severity": _find(header, ("severity",)), "comment": _find(header, ("comment", "note")),
             "metadata": _find(header, ("metadata",)), "time": _find(header, ("time",))}
    target_col, source_col = _find(header, ("target", "hyp", "mt")), _find(header, ("source", "src"))
    segment_col = id_col or line_col
    assert segment_col is not None
    out: list[AnnotationRow] = []
    keys: list[ScoreRow] = []
    for n, row in rows:
        if row.get("rejected") is True:
            continue  # a suggestion a reviewer turned down (a review file's row): no error
        system, segment = str(row.get(system_col) or ""), str(row.get(segment_col) or "")
        if not system or not segment:
            raise InputError(f"{path}: line {n}: no {'system' if not system else 'segment'} given")
        doc = str(row.get(doc_col) or "") if doc_col and id_col else ""
        if jsonl:
            start, end = (_offset(path, n, row, "start"), _offset(path, n, row, "end")) if "start" in row else (0, 0)
            if end < start:
                raise InputError(f"{path}: line {n}: the span ends ({end}) before it starts ({start})")
            side = row.get("side", TARGET)
            if side not in (TARGET, SOURCE):
                raise InputError(f"{path}: line {n}: side must be target or source, got {json.dumps(side)}")
            spans = [(start, end)] if "start" in row else []
            target, tspans = "", (spans if side == TARGET else [])
            source, sspans = "", (spans if side == SOURCE else [])
        else:
            target, tspans = unmarked(path, n, target_col, str(row.get(target_col, ""))) if target_col else ("", [])
            source, sspans = unmarked(path, n, source_col, str(row.get(source_col, ""))) if source_col else ("", [])
        rating = row_rating(path, n, row, roles, tspans, sspans)
        if rating is None:
            continue
        key = ScoreRow(n, system, doc, segment, {})
        keys.append(key)
        out.append(AnnotationRow(key, rating, target, source))
    return ScoreTable(path, keys, id_col is not None, bool(doc_col and id_col), []), out, note


def annotation_rows(placed: Placed, systems: Sequence[SegmentFile], names: Sequence[str]) -> list[AnnotationRow]:
    """ESA or Pearmut ratings placed on the run as annotation rows (one per error; a rating without errors one
    No-error row), keyed by the run's names and 1-based lines."""
    rows = []
    for r, system, segment in placed.ratings:
        key = ScoreRow(r.line, names[system], "", str(segment + 1), {})
        text = systems[system].lines[segment]
        if not r.spans:
            rows.append(AnnotationRow(key, RowRating(r.rater, "No-error", "", [], [], "", ""), text, ""))
        for span in r.spans:
            spans = [] if span.start is None or span.end is None else [(span.start, span.end)]
            rows.append(AnnotationRow(key, RowRating(r.rater, span.severity, span.category, spans, [], "", ""),
                                      text, ""))
    return rows


def _rows_of(path: str | Path, systems: Sequence[SegmentFile], names: Sequence[str], context: Context,
             encoding: str, given: Mapping[str, PlacedFile]) -> tuple[ScoreTable, list[AnnotationRow], list[str]]:
    """An annotation file's rows, keyed like a score file's, and notes on how it was read (``given``: ESA or
    Pearmut files placed already, by path)."""
    found = given.get(str(path))
    if found is None and sniff(path, encoding):
        found = placed_ratings(path, systems, names, context, encoding)
    if found is not None:
        _read, placed, notes = found
        rows = annotation_rows(placed, systems, names)
        return ScoreTable(Path(path), [r.key for r in rows], False, False, []), rows, notes
    table, rows, how_read = read_annotation_file(path, encoding)
    return table, rows, [f"{Path(path).name}: {how_read}"] if how_read else []


def review_scores(path: str | Path, encoding: str = "utf-8") -> ScoreTable | None:
    """The ``esa`` scores of a JSON Lines annotation file (a review the window wrote; not ESA's or Pearmut's own
    files, :mod:`.span_ratings`), as a table of ratings: a row per rater, system and segment (a segment's score
    the mean over its raters); None when no row has one. The rated segments are a sample: the others are unrated,
    not refused."""
    path = Path(path)
    if path.suffix.lower() not in (".jsonl", ".json"):
        return None
    text = decode_text_files([path], [read_bytes(path, encoding)], encoding)[0]
    header, rows = _jsonl_rows(path, text)
    if "esa" not in header:
        return None
    id_col = _find(header, ("seg_id", "segment_id", "segid", "docsegid", "sid"))
    segment_col = id_col or _find(header, ("segment", "line", "seg"))
    doc_col = _find(header, ("doc", "doc_id", "docid", "document")) if id_col else None
    out = []
    for n, row in rows:
        score = rating_score(row.get("esa"), "esa", f"{path}: line {n}")
        if score is None:
            continue
        out.append(ScoreRow(n, str(row.get("system") or ""), str(row.get(doc_col) or "") if doc_col else "",
                            str(row.get(segment_col) or "") if segment_col else "", {"esa": repr(score)},
                            rater=str(row.get("rater") or "")))
    if not out:
        return None
    return ScoreTable(path, out, id_col is not None, bool(doc_col), ["esa"], partial=True, ratings=True)


def attach_annotations(paths: Sequence[str | Path], systems: Sequence[SegmentFile], names: Sequence[str],
                       context: Context, partial: bool = False, encoding: str = "utf-8",
                       placed: Mapping[str, PlacedFile] | None = None) -> tuple[list[SegmentFile], list[str]]:
    """The systems with the annotation files' ratings attached, and notes on what was left out (rows of systems or
    segments the run does not hold; spans whose row's target is not the system's text). A system of the run with
    no rating at all is refused unless ``partial`` (its segments are then unrated); segments without rows are
    unrated either way: MQM leaves them out."""
    files = list(systems)
    notes: list[str] = []
    n = len(systems[0].lines) if systems else 0
    built: list[dict[int, RatingsBuilder]] = [{} for _ in files]
    for path in paths:
        table, rows, how_read = _rows_of(path, files, names, context, encoding, placed or {})
        notes += how_read
        found = system_index(table, files, names)
        keys = segment_index(table, context, n)
        other_systems: dict[str, int] = {}
        other_segments = moved = outside = 0
        for row in rows:
            system = found.get(row.key.system)
            if system is None:
                other_systems[row.key.system] = other_systems.get(row.key.system, 0) + 1
                continue
            segment = keys.get((row.key.doc, row.key.segment))
            if segment is None:
                other_segments += 1
                continue
            text = files[system].lines[segment]
            rating = row.rating
            if rating.target_spans and row.target and row.target != text:
                moved += 1  # the file's target is not the system's text: its offsets would point elsewhere
                rating = replace(rating, target_spans=[])
            if rating.target_spans and rating.target_spans[-1][1] > len(text):
                outside += 1
                rating = replace(rating, target_spans=[])
            builder = built[system].setdefault(segment, RatingsBuilder())
            error = rating.error(row.key.line, text, row.source)
            builder.add(rating.rater, rating.severity, error, rating.correction, str(path))
        name = Path(path).name
        if other_systems:
            notes.append(f"{name}: ratings of systems the run does not hold left out: "
                         + ", ".join(f"{s} ({c:,})" for s, c in other_systems.items()))
        if other_segments:
            notes.append(f"{name}: {other_segments:,} ratings of segments the run does not hold left out")
        if moved:
            notes.append(f"{name}: {moved:,} error spans marked in a target that is not the system's text: their "
                         "spans left out (their severities still count)")
        if outside:
            notes.append(f"{name}: {outside:,} error spans end past their segment's text: spans left out")
    for i, name in enumerate(names):
        if not built[i]:
            if not partial:
                raise InputError(f"{Path(paths[0])}: system {name} has no rating ({term('scores_partial')} reads the "
                                 "ratings there are, the rest as unrated)")
            notes.append(f"system {name} has no rating: unrated")
    attached = [replace(f, annotations=tuple(built[i][j].ratings() if j in built[i] else None for j in range(n)))
                for i, f in enumerate(files)]
    return attached, notes
