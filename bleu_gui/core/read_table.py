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
``severity`` or ``category`` column those marks are taken out, and the note
says so.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from .corpus import Context, Corpus, field_file
from .errors import InputError
from .readers import SegmentFile, read_segments

ROLES = ("source", "candidate", "reference", "doc", "system", "segment")
_NAMES = {
    "source": ("source", "src", "source_text"),
    "candidate": ("hypothesis", "hyp", "candidate", "target", "mt", "translation", "output", "tgt"),
    "reference": ("reference", "ref", "references", "refs"),
    "doc": ("doc", "document", "doc_id", "docid", "document_id"),
    "system": ("system", "sys", "system_name"),
    "segment": ("seg_id", "segment_id", "segid", "sid", "id"),
}
_MQM_MARK = re.compile(r"</?v>")
_MAX_META = 200  # distinct values a metadata column may have to be offered for slicing


Rows = Iterator[tuple[int, dict[str, str]]]


def _rows_tsv(path: Path, encoding: str) -> tuple[list[str], Rows, SegmentFile]:
    text = read_segments(path, encoding)
    reader = csv.reader(text.lines, delimiter="\t")
    try:
        header = next(reader)
    except StopIteration:
        raise InputError(f"{path}: empty file (no header row)") from None

    def rows() -> Iterator[tuple[int, dict[str, str]]]:
        for row in reader:
            if not row:
                continue
            if len(row) != len(header):
                raise InputError(f"{path}: line {reader.line_num}: {len(row)} fields, the header has {len(header)}")
            yield reader.line_num, dict(zip(header, row))

    return header, rows(), text


def _rows_jsonl(path: Path, encoding: str) -> tuple[list[str], Rows, SegmentFile]:
    text = read_segments(path, encoding)
    records: list[tuple[int, dict[str, str]]] = []
    keys: dict[str, None] = {}
    for number, line in enumerate(text.lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: line {number}, column {exc.colno}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise InputError(f"{path}: line {number}: expected a JSON object, found {type(obj).__name__}")
        keys.update(dict.fromkeys(obj))
        records.append((number, {k: v if isinstance(v, str) else json.dumps(v) for k, v in obj.items()}))
    return list(keys), iter(records), text


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


def read_table(path: Path, kind: str, encoding: str = "utf-8", columns: Mapping[str, str] | None = None) -> Corpus:
    """Read a TSV (``kind="tsv"``) or JSONL (``"jsonl"``) file of segments (see the module)."""
    header, rows, text = (_rows_tsv if kind == "tsv" else _rows_jsonl)(path, encoding)
    roles = _roles(path, header, columns or {})
    if not roles["candidate"] and not roles["reference"] and not roles["source"]:
        raise InputError(f"{path}: no column for the candidate, the reference or the source (columns: "
                         f"{', '.join(header)}; name them with --column candidate=NAME)")
    mqm = any(h.lower() in ("severity", "category") for h in header)
    system_col = roles["system"][0] if roles["system"] else None
    doc_col = roles["doc"][0] if roles["doc"] else None
    seg_col = roles["segment"][0] if roles["segment"] else None
    text_cols = [c for r in ("source", "candidate", "reference") for c in roles[r]]
    meta_cols = [h for h in header if h not in text_cols and h not in (system_col, seg_col)]

    keys: dict[tuple[str, ...], int] = {}               # segment key -> position
    by_system: dict[str, dict[tuple[str, ...], dict[str, str]]] = {}
    meta: dict[str, dict[tuple[str, ...], str]] = {c: {} for c in meta_cols}
    varying: set[str] = set()
    counts: dict[str, int] = {}
    for number, row in rows:
        system = row.get(system_col, "") if system_col else path.stem
        counts[system] = counts.get(system, 0) + 1
        for col in text_cols + ([doc_col] if doc_col else []):
            if col not in row:
                raise InputError(f"{path}: line {number}: no {col!r} field")
        if seg_col:
            key: tuple[str, ...] = (row.get(doc_col, "") if doc_col else "", row.get(seg_col, ""))
        elif doc_col and kind == "jsonl":
            key = (row[doc_col],)
        else:
            key = (str(counts[system]),)
        keys.setdefault(key, len(keys))
        segments = by_system.setdefault(system, {})
        if key not in segments:
            segments[key] = {c: _MQM_MARK.sub("", row[c]) if mqm else row[c] for c in text_cols}
        for col in meta_cols:
            value = row.get(col, "")
            if meta[col].setdefault(key, value) != value:
                varying.add(col)
    if not keys:
        raise InputError(f"{path}: no rows after the header")
    order = sorted(keys, key=keys.__getitem__)
    for system, segments in by_system.items():
        if len(segments) != len(order):
            absent = [k for k in order if k not in segments]
            shown = ", ".join("/".join(k) for k in absent[:5]) + (" …" if len(absent) > 5 else "")
            raise InputError(f"{path}: system {system!r} lacks {len(absent)} of the {len(order)} segments "
                             f"({shown}); every system must have every segment")

    def column(system: str, col: str) -> list[str]:
        return [by_system[system][k][col] for k in order]

    first = next(iter(by_system))
    for col in roles["source"] + roles["reference"]:
        for system in by_system:
            if column(system, col) != column(first, col):
                raise InputError(f"{path}: the {col!r} column differs between systems {first!r} and {system!r} "
                                 "for the same segment")
    notes = list(text.notes)
    if mqm:
        notes.append("error marks <v>…</v> taken out of the text (MQM ratings)")
    if sum(counts.values()) > len(order) * len(by_system):
        notes.append(f"{sum(counts.values()):,} rows read as {len(order):,} segments × {len(by_system)} "
                     "system(s) (repeated rows of a segment are read once)")
    docs = tuple(meta[doc_col][k] for k in order) if doc_col else None
    kept = {c: tuple(meta[c][k] for k in order) for c in meta_cols
            if c != doc_col and c not in varying and len(set(meta[c].values())) <= _MAX_META}
    def field(name: str, lines: list[str]) -> SegmentFile:
        return field_file(path, name, lines, encoding=text.encoding, detected=text.detected)

    source = field("source", column(first, roles["source"][0])) if roles["source"] else None
    references = [field(col, column(first, col)) for col in roles["reference"]]
    candidates = roles["candidate"][0] if roles["candidate"] else None
    systems = [field(system, column(system, candidates)) for system in by_system] if candidates else []
    return Corpus(path, kind, systems=systems if system_col else [],
                  references=references, translations=[] if system_col else systems,
                  context=Context(source, docs, kept), notes=tuple(f"{path.name}: {n}" for n in notes))
