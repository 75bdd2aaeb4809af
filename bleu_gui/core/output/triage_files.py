"""A triage written out for post-editing: the system's own XLIFF with each segment's decision and score in the
places XLIFF defines for them, or a table (TSV, CSV, XLSX) of every segment.

XLIFF 1.2 (what Okapi, memoQ, Trados and Weblate all read): a segment to post-edit gets
``<target state="needs-review-translation" state-qualifier="mt-suggestion">`` (the standard's own values: the
text must be reviewed; it came from machine translation), an empty one to translate ``state="needs-translation"``;
a unit sent to a human that said ``approved="yes"`` says ``approved="no"`` (state and approval agree, as CAT tools
read them); every triaged unit gets a ``<note from="bleu-gui" annotates="target">`` with the metric, the score, the
decision and its reason (a QA flag), the rule and the signature (notes are shown as comments by every CAT tool).
XLIFF 2.0: the segment gets ``state="initial" subState="bleu-gui:post-edit"`` (or ``bleu-gui:translate``; 2.0's
states: only *initial* asks for work; subState says which) and the unit a ``<notes>`` note of category
``bleu-gui``. Tool-specific extensions (memoQ's ``mq:``, SDL's ``sdl:conf``) are left out: they lock a file to one
tool. Everything else of the file is kept byte for byte: only these attributes and notes are added, and the input
is never modified (the output is another file).
"""

from __future__ import annotations

import csv
import io
import math
import re
import xml.parsers.expat
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from ..errors import InputError
from ..inputs.format_table import sniff_format
from ..inputs.text_files import SegmentFile
from ..inputs.xliff import is_segment_unit, unit_segment_counts
from ..run.triage import Triage, TriageRow


@dataclass
class _Unit:
    """Where a unit sits in the UTF-8 text: its start tag, its direct children's start tags, its end tag."""

    name: str
    start: int
    translate: bool
    children: list[tuple[str, int]]
    end: int = -1


def _codec(data: bytes) -> tuple[str, bytes]:
    """The codec the file's text is in, and its byte order mark (kept as it is)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8", data[:3]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return ("utf-16-le" if data.startswith(b"\xff\xfe") else "utf-16-be"), data[:2]
    declared = re.search(rb"""^<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""", data[:200])
    return (declared.group(1).decode("ascii") if declared else "utf-8"), b""


def _units(text: bytes, wanted: str) -> list[_Unit]:
    """Every ``wanted`` element (``trans-unit``, ``unit``) with its direct children, by byte offsets in ``text``."""
    parser = xml.parsers.expat.ParserCreate(encoding="UTF-8")
    units: list[_Unit] = []
    stack: list[str] = []
    current: list[_Unit | None] = [None]

    def local(name: str) -> str:
        return name.rsplit(":", 1)[-1]

    def start(name: str, attrs: dict[str, str]) -> None:
        unit = current[0]
        if local(name) == wanted:
            unit = _Unit(name, parser.CurrentByteIndex, is_segment_unit(attrs), [])
            current[0] = unit
            units.append(unit)
            stack.append(name)
            return
        if unit is not None and stack and stack[-1] == unit.name:
            unit.children.append((local(name), parser.CurrentByteIndex))
        stack.append(name)

    def end(name: str) -> None:
        stack.pop()
        unit = current[0]
        if unit is not None and name == unit.name and unit.end < 0:
            unit.end = parser.CurrentByteIndex
            current[0] = None

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.Parse(text, True)
    return units


def _tag_end(text: bytes, start: int) -> int:
    """The offset of the ``>`` that closes the start tag at ``start`` (quotes in attribute values skipped)."""
    quote = 0
    for i in range(start, len(text)):
        c = text[i]
        if quote:
            quote = 0 if c == quote else quote
        elif c in b"\"'":
            quote = c
        elif c == ord(">"):
            return i
    raise ValueError("unclosed start tag")


def _with_attributes(tag: str, values: dict[str, str]) -> str:
    """The start tag ``tag`` with ``values`` set (replaced where present, added before its end otherwise)."""
    for name, value in values.items():
        pattern = re.compile(rf"(\s){re.escape(name)}\s*=\s*(\"[^\"]*\"|'[^']*')")
        found = pattern.search(tag)
        if found:
            tag = f"{tag[:found.start()]}{found.group(1)}{name}={quoteattr(value)}{tag[found.end():]}"
        else:
            cut = len(tag) - (2 if tag.endswith("/>") else 1)
            tag = f"{tag[:cut].rstrip()} {name}={quoteattr(value)}{tag[cut:]}"
    return tag


def _said(triage: Triage, rows: list[TriageRow]) -> str:
    def one(row: TriageRow) -> str:
        score = "" if triage.signature == "qa" else (
            "no score: " if math.isnan(row.score) else f"{triage.metric} {row.score:.4f}: ")
        return f"{score}{row.decision}" + (f" ({row.reason})" if row.reason and row.reason != triage.rule else "")
    parts = [one(r) for r in rows] if len(rows) == 1 else [f"segment {r.segment + 1}: {one(r)}" for r in rows]
    return f"Triage: {'; '.join(parts)} ({triage.rule}; {triage.signature})"


# Each decision as XLIFF says it: 1.2's target state (and state-qualifier), 2.0's segment subState.
_STATES_12 = {"translate": {"state": "needs-translation"},
              "post-edit": {"state": "needs-review-translation", "state-qualifier": "mt-suggestion"}}


def _decision(rows: list[TriageRow]) -> str:
    """A unit's decision: the most work any of its segments needs."""
    decisions = {r.decision for r in rows}
    return "translate" if "translate" in decisions else "post-edit" if "post-edit" in decisions else "keep"


def annotated_xliff(path: Path, data: bytes, triage: Triage) -> bytes:
    """The XLIFF file ``data`` (read from ``path`` as the triaged system) with the triage's decisions and scores
    added (see the module); every segment must be the triage's, in its order."""
    counts, version = unit_segment_counts(path, data)
    if sum(counts) != len(triage.rows):
        raise InputError(f"{path}: holds {sum(counts)} segments, the triage {len(triage.rows)}: not the file scored")
    codec, bom = _codec(data)
    text = data[len(bom):].decode(codec).encode("utf-8")
    two = version.startswith("2")
    units = [u for u in _units(text, "unit" if two else "trans-unit") if u.translate]
    edits: list[tuple[int, int, bytes]] = []  # (start, end, replacement) in ``text``
    rows = iter(triage.rows)
    for unit, count in zip(units, counts):
        taken = [next(rows) for _ in range(count)]
        edits += _unit_edits_20(text, unit, taken, triage) if two else _unit_edits_12(text, unit, taken, triage)
    out = bytearray(text)
    for start, end, replacement in sorted(edits, reverse=True):
        out[start:end] = replacement
    # What the file's declared encoding cannot hold (a metric's name, a rule's text in a Latin-1 file) is written as
    # a character reference, which every XML reader reads as the character (the file's own text holds none such).
    return bom + out.decode("utf-8").encode(codec, errors="xmlcharrefreplace")


def _prefix(name: str) -> str:
    return name.rsplit(":", 1)[0] + ":" if ":" in name else ""


def _retag(text: bytes, start: int, values: dict[str, str]) -> tuple[int, int, bytes]:
    end = _tag_end(text, start) + 1
    return start, end, _with_attributes(text[start:end].decode("utf-8"), values).encode("utf-8")


def _unit_edits_12(text: bytes, unit: _Unit, rows: list[TriageRow], triage: Triage) -> list[tuple[int, int, bytes]]:
    edits = []
    target = next((at for name, at in unit.children if name == "target"), None)
    decision = _decision(rows)
    if decision != "keep" and target is not None:
        edits.append(_retag(text, target, _STATES_12[decision]))
    if decision != "keep" and re.search(rb"""\sapproved\s*=\s*["']yes["']""",
                                        text[unit.start:_tag_end(text, unit.start) + 1]):
        # Sent to a human: no longer approved (CAT tools and translate-toolkit read approved="yes" as done).
        edits.append(_retag(text, unit.start, {"approved": "no"}))
    note = (f'<{_prefix(unit.name)}note from="bleu-gui" annotates="target">{escape(_said(triage, rows))}'
            f"</{_prefix(unit.name)}note>")
    edits.append((unit.end, unit.end, note.encode("utf-8")))
    return edits


def _unit_edits_20(text: bytes, unit: _Unit, rows: list[TriageRow], triage: Triage) -> list[tuple[int, int, bytes]]:
    edits = []
    p = _prefix(unit.name)
    segments = [at for name, at in unit.children if name == "segment"]
    for at, row in zip(segments, rows):
        if row.post_edit:
            edits.append(_retag(text, at, {"state": "initial", "subState": f"bleu-gui:{row.decision}"}))
    note = f'<{p}note category="bleu-gui" appliesTo="target">{escape(_said(triage, rows))}</{p}note>'
    notes = next((at for name, at in unit.children if name == "notes"), None)
    if notes is not None:  # inside the unit's notes, after its own
        close = text.index(f"</{p}notes".encode(), notes)
        edits.append((close, close, note.encode("utf-8")))
    else:  # notes come before originalData, the segments and ignorables (XLIFF 2.0's order)
        first = next((at for name, at in unit.children if name in ("originalData", "segment", "ignorable")), unit.end)
        edits.append((first, first, f"<{p}notes>{note}</{p}notes>".encode()))
    return edits


TABLE_COLUMNS = ("segment", "decision", "score", "source", "candidate", "spans", "qa")


def triage_rows(triage: Triage, candidates: list[str], source: list[str] | None,
                line_number: list[int]) -> list[list[object]]:
    """The triage as a table (one row per segment that needs a human, the worst first): the 1-based line, the
    decision, the score (None without one), the source, the candidate, the metric's spans as the text they cover,
    the QA flags."""
    out: list[list[object]] = []
    for row in triage.worst_first():
        text = candidates[row.segment]
        spans = " | ".join(text[a:b] if b > a else f"(missing at {a})" for a, b in row.spans)
        out.append([line_number[row.segment], row.decision, None if math.isnan(row.score) else row.score,
                    source[row.segment] if source is not None else "", text, spans, " | ".join(row.qa)])
    return out


def triage_file(path: str, triage: Triage, run_system: SegmentFile, source: list[str] | None,
                line_number: list[int]) -> str | bytes:
    """What ``--triage-out path`` writes, by its extension: the system's XLIFF annotated (``.xlf``, ``.xliff``: the
    system must have been read from one), or the table as TSV, CSV or an XLSX workbook."""
    suffix = Path(path).suffix.lower()
    if suffix in (".xlf", ".xliff"):
        if not run_system.field or not run_system.path.is_file():
            raise InputError(f"{path}: an XLIFF triage annotates the XLIFF the system was read from, and "
                             f"{run_system.name} is not one (write .tsv, .csv or .xlsx)")
        data = run_system.path.read_bytes()
        if sniff_format(run_system.path, data) != "xliff":  # the readers' own sniffing, never a guess of ours
            raise InputError(f"{path}: {run_system.path.name} is not an XLIFF file (write .tsv, .csv or .xlsx)")
        return annotated_xliff(run_system.path, data, triage)
    rows = triage_rows(triage, run_system.lines, source, line_number)
    if suffix == ".xlsx":
        from .workbook import workbook_bytes

        return workbook_bytes([("triage", list(TABLE_COLUMNS), rows)],
                              [("system", triage.system), ("metric", triage.metric), ("rule", triage.rule),
                               ("signature", triage.signature)])
    if suffix not in (".tsv", ".csv"):
        raise InputError(f"{path}: write the triage as .xlf/.xliff (the XLIFF annotated), .tsv, .csv or .xlsx")
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter="\t" if suffix == ".tsv" else ",", lineterminator="\n")
    writer.writerow(TABLE_COLUMNS)
    writer.writerows([["" if v is None else v for v in row] for row in rows])
    return buffer.getvalue()
