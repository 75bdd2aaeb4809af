"""Tables of segments: TSV with a header row, and JSONL (one JSON object per line) with the same fields.

Columns are matched to roles by name (``--column ROLE=NAME`` overrides):
source, candidate, reference (several allowed), doc, system, segment id. A
table with a system column is in *long* format: its rows are grouped by
system, and a segment is keyed by (doc, segment id) — or by its document alone
when there is no segment id (a JSONL of whole documents), or by its position
within the system otherwise. A row repeated for the same system and segment
(MQM ratings: one row per error and rater) is read once. Every system must
have every segment; a column whose value is the same on every row of a
segment is kept as metadata that slices can select by.

MQM files mark the rated error inside the target (``<v>…</v>``); with a
``severity`` or ``category`` column those marks are taken out, the note
says so, and every row's rating is kept with its span (:mod:`.annotations`):
each system's segments carry their ratings, a segment with no row of a rater
is unrated.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from ..errors import InputError, term
from .annotations import RatingsBuilder, open_marks, row_rating, unmarked
from .columns import ROLES
from .corpus import Context, Corpus, field_file
from .text_files import SegmentFile, decode_text_files
from .tsv import read_tsv
from .untrusted_json import JsonRefused, parse, readable

_NAMES = {
    "source": ("source", "src", "source_text"),
    "candidate": ("hypothesis", "hyp", "candidate", "target", "mt", "translation", "output", "tgt"),
    "reference": ("reference", "ref", "references", "refs"),
    "doc": ("doc", "document", "doc_id", "docid", "document_id"),
    "system": ("system", "sys", "system_name"),
    "segment": ("seg_id", "segment_id", "segid", "sid", "id"),
}
_MAX_META = 200  # distinct values a metadata column may have to be offered for slicing
# Columns that hold no translation whatever their values: notes, ratings, metadata (a wide sheet's other columns
# are its engines).
_NOT_TEXT = frozenset({"comment", "comments", "note", "notes", "remark", "remarks", "domain", "origlang", "lang",
                       "language", "rater", "category", "severity", "metadata", "score", "id", "line", "index", "date",
                       "time", "status", "state", "url", "file"})


Rows = Iterator[tuple[int, dict[str, object]]]


def _rows_tsv(path: Path, text: SegmentFile) -> tuple[list[str], Rows, list[str]]:
    table = read_tsv(path, text.lines)
    if not table.rows:
        raise InputError(f"{path}: empty file (no header row)")
    header = table.rows[0][1]
    rows: Rows = ((number, dict[str, object](zip(header, fields))) for number, fields in table.rows[1:])
    return header, rows, [table.note] if table.note else []


def _json_line(path: Path, number: int, line: str, text: SegmentFile) -> object:
    try:
        return parse(line, str(path), line=number)
    except JsonRefused:
        if _one_json_document(text):
            raise InputError(f"{path}: valid JSON, but one document over several lines, not JSON Lines (one JSON "
                             "object per line, a segment or document each)") from None
        raise


def _one_json_document(text: SegmentFile) -> bool:
    """Whether the whole file is one JSON value (a manifest, a pretty-printed object), not JSON Lines."""
    return readable("\n".join(text.lines))


def _rows_jsonl(path: Path, text: SegmentFile) -> tuple[list[str], Rows, list[str]]:
    records: list[tuple[int, dict[str, object]]] = []
    keys: dict[str, None] = {}
    for number, line in enumerate(text.lines, start=1):
        if not line.strip():
            continue
        obj = _json_line(path, number, line, text)
        if not isinstance(obj, dict):
            raise InputError(f"{path}: line {number}: expected a JSON object, found {_kind(obj)}")
        keys.update(dict.fromkeys(obj))
        records.append((number, obj))
    return list(keys), iter(records), []


def _kind(value: object) -> str:
    """How a JSON value is named in messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number" + (" (NaN)" if isinstance(value, float) and math.isnan(value) else f" ({value!r})")
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "text"


def _characters(path: Path, number: int, column: str, value: str) -> str:
    """``value`` unless it holds half of a UTF-16 surrogate pair: JSON can spell one (``"\\ud800"``), but it is no
    character, and no file, window or terminal can show or save it."""
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InputError(f"{path}: line {number}: the {column!r} field holds a lone surrogate "
                             f"(U+{ord(value[exc.start]):04X} at character {exc.start + 1}), which is no "
                             "character") from None
    return value


def _text(path: Path, number: int, column: str, value: object) -> str:
    """A field that holds text (source, candidate, reference): text, never the spelling of another JSON value."""
    if isinstance(value, str):
        return _characters(path, number, column, value)
    raise InputError(f"{path}: line {number}: the {column!r} field holds {_kind(value)} where text is expected")


def _label(path: Path, number: int, column: str, value: object) -> str:
    """A key field (system, document, segment id): text or a whole number, as written."""
    if isinstance(value, str):
        return _characters(path, number, column, value)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise InputError(f"{path}: line {number}: the {column!r} field holds {_kind(value)} where a name or id is "
                     "expected")


def _meta(value: object) -> str:
    """Another column's value, kept as metadata: text as it is, other JSON values as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _roles(path: Path, header: list[str], given: Mapping[str, str]) -> dict[str, list[str]]:
    """The column(s) of each role: given ones, else matched by name (case-insensitive)."""
    lower = {h.lower(): h for h in header}
    roles: dict[str, list[str]] = {}
    for role in ROLES:
        if role in given:
            names = [n.strip() for n in given[role].split(",")]
            for name in names:
                if name not in header:
                    raise InputError(f"{path}: no column {name!r} for {role} (columns: {', '.join(header)})")
            roles[role] = names
            continue
        if role == "reference":
            found = [h for h in header if h.lower() in _NAMES[role] or h.lower().startswith(("ref_", "ref:"))]
        else:
            found = [lower[n] for n in _NAMES[role] if n in lower][:1]
        taken = {c for cols in roles.values() for c in cols}
        roles[role] = [c for c in found if c not in taken]
    return roles


class _Table:
    """The rows of one table gathered by system and segment (see the module)."""

    def __init__(self, path: Path, kind: str, roles: dict[str, list[str]], mqm: bool, meta_cols: list[str]):
        self.path, self.kind, self.mqm = path, kind, mqm
        self.system_col = roles["system"][0] if roles["system"] else None
        self.doc_col = roles["doc"][0] if roles["doc"] else None
        self.seg_col = roles["segment"][0] if roles["segment"] else None
        self.roles = roles
        self.meta_cols = meta_cols
        self.keys: dict[tuple[str, ...], int] = {}               # segment key -> position
        self.by_system: dict[str, dict[tuple[str, ...], dict[str, str]]] = {}
        self.meta: dict[str, dict[tuple[str, ...], str]] = {c: {} for c in meta_cols}
        self.varying: set[str] = set()
        self.rows: dict[str, int] = {}                  # rows read per system
        self.in_doc: dict[tuple[str, str], int] = {}    # rows read per (system, document)
        self.reference_names: dict[str, list[str]] = {}  # a reference column -> the reference fields it gives
        self.first_line: dict[str, int] = {}            # a reference column -> the line that set its fields
        # MQM: each system's segments' ratings, the rating columns, and spans left out (their row's text differs)
        self.ratings: dict[str, dict[tuple[str, ...], RatingsBuilder]] = {}
        lower = {c.lower(): c for c in meta_cols}
        self.rating_columns = {role: next((lower[n] for n in names if n in lower), None) for role, names in (
            ("rater", ("rater",)), ("category", ("category",)), ("severity", ("severity",)),
            ("comment", ("comment", "note")), ("metadata", ("metadata",)))}
        self.moved_spans = 0
        self.open_marks = 0  # rows whose <v> mark is never closed (read as marking the rest of the target)

    def add(self, number: int, row: dict[str, object]) -> None:
        path = self.path
        for col in [c for r in ("source", "candidate", "reference") for c in self.roles[r]] + (
                [self.doc_col] if self.doc_col else []):
            if col not in row:
                raise InputError(f"{path}: line {number}: no {col!r} field")
        system = _label(path, number, self.system_col, row[self.system_col]) if self.system_col in row else (
            "" if self.system_col else path.stem)
        self.rows[system] = self.rows.get(system, 0) + 1
        key = self._key(number, row, system)
        self.keys.setdefault(key, len(self.keys))
        segments = self.by_system.setdefault(system, {})
        if key not in segments:  # a repeated row of a segment (MQM: one per error and rater) is read once
            segments[key] = self._texts(number, row)
        if self.mqm:
            self._rate(number, row, system, key, segments[key])
        for col in self.meta_cols:
            value = _meta(row.get(col, ""))
            if self.meta[col].setdefault(key, value) != value:
                self.varying.add(col)

    def _key(self, number: int, row: dict[str, object], system: str) -> tuple[str, ...]:
        """A segment's key: (document, segment id) when a segment id says which segment a row is; without one,
        rows are separate segments in file order (within their document, when there is one)."""
        doc = _label(self.path, number, self.doc_col, row[self.doc_col]) if self.doc_col else ""
        if self.seg_col:
            return doc, _label(self.path, number, self.seg_col, row.get(self.seg_col, ""))
        if self.doc_col:
            self.in_doc[system, doc] = self.in_doc.get((system, doc), 0) + 1
            return doc, f"#{self.in_doc[system, doc]}"
        return (f"#{self.rows[system]}",)

    def _rate(self, number: int, row: dict[str, object], system: str, key: tuple[str, ...],
              texts: dict[str, str]) -> None:
        """Keep the row's rating (an MQM row rates one error, or none) with its span in the segment's text."""
        target_col = self.roles["candidate"][0] if self.roles["candidate"] else None
        source_col = self.roles["source"][0] if self.roles["source"] else None
        if target_col and open_marks(str(row[target_col])):
            self.open_marks += 1
        target, target_spans = unmarked(self.path, number, target_col, str(row[target_col])) if target_col else ("", [])
        source, source_spans = unmarked(self.path, number, source_col, str(row[source_col])) if source_col else ("", [])
        if target_col and target_spans and target != texts[target_col]:
            self.moved_spans += 1  # another text than the segment's first row: its offsets would point elsewhere
            target_spans = []
        rating = row_rating(self.path, number, row, self.rating_columns, target_spans, source_spans)
        if rating is None:
            return
        builder = self.ratings.setdefault(system, {}).setdefault(key, RatingsBuilder())
        shown = texts.get(target_col, "") if target_col else ""
        builder.add(rating.rater, rating.severity, rating.error(number, shown, source), rating.correction)

    def _texts(self, number: int, row: dict[str, object]) -> dict[str, str]:
        texts: dict[str, str] = {}
        for role in ("source", "candidate", "reference"):
            for col in self.roles[role]:
                value = row[col]
                if role != "reference":
                    texts[col] = _text(self.path, number, col, value)
                    continue
                values = value if isinstance(value, list) else [value]
                names = self._reference_fields(number, col, value)
                texts.update(zip(names, (_text(self.path, number, col, v) for v in values)))
        if self.mqm:
            texts = {c: unmarked(self.path, number, c, t)[0] for c, t in texts.items()}
        return texts

    def _reference_fields(self, number: int, col: str, value: object) -> list[str]:
        """The reference fields a column gives: itself, or for a list of texts one field per item
        (``references[1]``, …); every line must give as many."""
        names = [f"{col}[{i}]" for i in range(1, len(value) + 1)] if isinstance(value, list) else [col]
        known = self.reference_names.setdefault(col, names)
        self.first_line.setdefault(col, number)
        if known != names:
            def said(fields: list[str]) -> str:
                return "one text" if fields == [col] else f"a list of {len(fields)} references"

            raise InputError(f"{self.path}: line {number}: the {col!r} field holds {said(names)}, line "
                             f"{self.first_line[col]} {said(known)}: every line must give as many references")
        return names

    def order(self) -> list[tuple[str, ...]]:
        """The segment keys in order of first appearance; every system must have all of them."""
        if not self.keys:
            raise InputError(f"{self.path}: no rows after the header")
        order = sorted(self.keys, key=self.keys.__getitem__)
        for system, segments in self.by_system.items():
            if len(segments) != len(order):
                absent = [k for k in order if k not in segments]
                shown = ", ".join("/".join(k) for k in absent[:5]) + (" …" if len(absent) > 5 else "")
                raise InputError(f"{self.path}: system {system!r} lacks {len(absent)} of the {len(order)} segments "
                                 f"({shown}); every system must have every segment")
        return order


def read_table(path: Path, data: bytes, kind: str, encoding: str = "utf-8",
               columns: Mapping[str, str] | None = None, refs: Sequence[str] = ()) -> Corpus:
    """Read a TSV (``kind="tsv"``) or JSONL (``"jsonl"``) file of segments from its bytes (see the module)."""
    text = decode_text_files([path], [data], encoding)[0]
    header, rows, notes = (_rows_tsv if kind == "tsv" else _rows_jsonl)(path, text)
    return table_corpus(path, kind, header, rows, columns, [*text.notes, *notes], text.encoding, text.detected, refs)


def _is_number(value: object) -> bool:
    if isinstance(value, (int, float)):
        return True
    try:
        float(str(value))
    except ValueError:
        return False
    return True


def _text_columns_without_role(header: list[str], roles: dict[str, list[str]],
                               rows: list[tuple[int, dict[str, object]]]) -> list[str]:
    """The columns no role took that hold text — a wide sheet's engines (``source, DeepL, Google``): not a column
    named as metadata (notes, domain, ratings), not one of numbers, not an empty one."""
    taken = {c for cols in roles.values() for c in cols}
    found = []
    for col in header:
        if col in taken or col.lower() in _NOT_TEXT:
            continue
        values = [row.get(col) for _, row in rows]
        filled = [v for v in values if v not in (None, "")]
        if filled and all(isinstance(v, str) for v in filled) and not all(map(_is_number, filled)):
            found.append(col)
    return found


def _systems_beside_named_references(header: list[str], roles: dict[str, list[str]], refs: Sequence[str],
                                     wide: list[str]) -> str:
    """When ``--refs`` names columns of a table without a candidate or system column, those are its references and
    its other text columns (``wide``) its systems: ``roles`` is changed so, and the note saying it returned."""
    named = [r for r in refs if r in header and r not in roles["source"]]
    if roles["candidate"] or roles["system"] or not named:
        return ""
    roles["reference"] = roles["reference"] + [n for n in named if n not in roles["reference"]]
    roles["candidate"] = [c for c in wide if c not in named]
    if not roles["candidate"]:
        return ""
    return (f"{', '.join(named)} named as the reference ({term('refs_wanted')}): the other text columns "
            f"({', '.join(roles['candidate'])}) are the systems")


def table_corpus(path: Path, kind: str, header: list[str], rows: Rows, columns: Mapping[str, str] | None = None,
                 notes_before: Sequence[str] = (), encoding: str = "utf-8", detected: bool = False,
                 refs: Sequence[str] = ()) -> Corpus:
    """The segments of a table's ``rows`` (line number, {column: value}) under ``header``, by the columns' roles
    (see the module): what a TSV, a JSONL file and a workbook's sheet are read as. ``refs``: the references asked
    for by name (``--refs``); a column so named in a table without candidate columns makes the other text columns
    the systems."""
    read = list(rows)
    roles = _roles(path, header, columns or {})
    wide = _text_columns_without_role(header, roles, read) if not roles["candidate"] and not roles["system"] else []
    wide_note = _systems_beside_named_references(header, roles, refs, wide)
    if not roles["candidate"] and not roles["reference"] and not roles["source"] and not wide:
        raise InputError(f"{path}: no column for the candidate, the reference or the source (columns: "
                         f"{', '.join(header)}; name them with {term('columns', 'candidate=NAME')})")
    mqm = any(h.lower() in ("severity", "category") for h in header)
    text_cols = [c for r in ("source", "candidate", "reference") for c in roles[r]]
    keys = {c for r in ("system", "segment") for c in roles[r]}
    table = _Table(path, kind, roles, mqm, [h for h in header if h not in text_cols and h not in keys])
    for number, row in read:
        table.add(number, row)
    order = table.order()
    by_system = table.by_system

    def column(system: str, col: str) -> list[str]:
        return [by_system[system][k][col] for k in order]

    first = next(iter(by_system))
    reference_fields = [name for col in roles["reference"] for name in table.reference_names.get(col, [col])]
    for col in roles["source"] + reference_fields:
        for system in by_system:
            if column(system, col) != column(first, col):
                raise InputError(f"{path}: the {col!r} column differs between systems {first!r} and {system!r} "
                                 "for the same segment")
    notes = list(notes_before) + ([wide_note] if wide_note else [])
    if mqm:
        rated = sum(len(r) for r in table.ratings.values())
        notes.append(f"error marks <v>…</v> taken out of the text; {rated:,} rated segments of "
                     f"{len(table.ratings)} system(s) kept as MQM ratings ({term('metrics', 'mqm')} scores them)")
    if table.open_marks:
        notes.append(f"{table.open_marks:,} error mark(s) <v> never closed: read as marking the rest of the target")
    if table.moved_spans:
        notes.append(f"{table.moved_spans:,} error spans marked in another text than their segment's first row: "
                     "spans left out (their severities still count)")
    if sum(table.rows.values()) > len(order) * len(by_system):
        notes.append(f"{sum(table.rows.values()):,} rows read as {len(order):,} segments × {len(by_system)} "
                     "system(s) (rows with the same segment id are read once)")
    doc_col = table.doc_col
    docs = tuple(table.meta[doc_col][k] for k in order) if doc_col else None
    kept = {c: tuple(table.meta[c][k] for k in order) for c in table.meta_cols
            if c != doc_col and c not in table.varying and len(set(table.meta[c].values())) <= _MAX_META}

    def field(name: str, lines: list[str]) -> SegmentFile:
        return field_file(path, name, lines, encoding=encoding, detected=detected)

    source = field("source", column(first, roles["source"][0])) if roles["source"] else None
    references = [field(name, column(first, name)) for name in reference_fields]
    candidates = roles["candidate"]
    if len(candidates) > 1 and table.system_col:
        raise InputError(f"{path}: several candidate columns ({', '.join(candidates)}) and a system column: a table "
                         "is long (a system column, one candidate column) or wide (a candidate column per system)")
    if len(candidates) > 1 or wide_note:  # wide: a column per system (engines side by side, as sheets hold them)
        systems = [field(col, column(first, col)) for col in candidates]
    else:
        systems = [field(system, column(system, candidates[0])) for system in by_system] if candidates else []
    if mqm and systems:
        systems = [replace(f, annotations=tuple(table.ratings[s][k].ratings() if k in table.ratings.get(s, {})
                                                else None for k in order)) for f, s in zip(systems, by_system)]
    return Corpus(path, kind, systems=systems if table.system_col else [],
                  references=references, translations=[] if table.system_col else systems,
                  context=Context(source, docs, kept, segment_ids=tuple(k[1] for k in order) if table.seg_col else None),
                  notes=tuple(f"{path.name}: {n}" for n in notes),
                  unroled=tuple(wide) if not roles["candidate"] and not roles["system"] else ())
