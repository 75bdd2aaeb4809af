"""Segment scores from outside — COMET, MetricX, human MQM — read from TSV, CSV or JSONL and attached to the
systems of a run, one metric per numeric column.

A row names its ``system`` and its segment: by ``seg_id`` (with ``doc`` when ids repeat across documents) when
the scored input has segment ids (WMT XML, TSV, JSONL), or by ``segment``, the 1-based line number. Real files
are untidy, and the reader takes them as they are (Google's MQM files: a space-separated header over rows
separated by a tab and then a space; ``None`` for an unrated segment):

- a header with tabs splits every line at tabs; a header without tabs splits every line at runs of spaces
  and tabs (then no field may hold a space), and every row must have the header's number of fields;
- ``None``, ``NaN``, ``null``, ``NA``, ``-`` and an empty field are a missing score: not zero, left out of that
  metric's means and tests, and counted; a number is written in digits (``0.5``, ``-3``, ``1e-4``): ``inf``,
  ``1_000`` or a stray word in a column of numbers is refused naming its line, never read as a column of text;
- a column name appears once (two columns of one name would leave one unread);
- a column of text (most of its values are not numbers) is not a metric (said in a note); a system of the file
  the run does not hold (the
  reference, ``ref-A``) and rows of segments the run does not hold (unrated segments absent from the input) are
  left out and counted;
- a system or segment of the run with no row is an error naming it, unless partial scores are allowed (then
  its scores are missing);
- mt-metrics-eval's own score files (``*.seg.score``: ``SYSTEM<TAB>SCORE`` lines, each system's segments in
  order, ``None`` where missing; its ``human-scores/SRC-TGT.NAME.seg.score`` and
  ``metric-scores/SRC-TGT/METRIC-REF.seg.score``, as ``--export-mtme`` writes them) are one metric, named NAME or
  METRIC-REF, a system's k-th line its segment k.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import InputError, term
from .corpus import Context
from .neural_scores import neural_scores, system_of_hypotheses
from .ratings import RaterScore
from .raw_input import read_bytes
from .text_files import SegmentFile, decode_text_files
from .untrusted_json import json_lines

MISSING = frozenset({"", "none", "nan", "null", "na", "n/a", "-"})
SYSTEM_NAMES = ("system", "sys", "system_name")
ID_NAMES = ("seg_id", "segment_id", "segid", "sid")
LINE_NAMES = ("segment", "line", "seg")
DOC_NAMES = ("doc", "doc_id", "docid", "document")


@dataclass(frozen=True)
class ScoreRow:
    line: int          # 1-based line of the file
    system: str
    doc: str
    segment: str       # the segment id or the 1-based line number, as written
    values: dict[str, str]
    rater: str = ""    # a table of ratings: who gave this row's score


@dataclass(frozen=True)
class ScoreTable:
    """A score file's rows: the key columns it has, and the columns that may be metrics."""

    path: Path
    rows: list[ScoreRow]
    by_id: bool         # rows name segments by id (else by 1-based line number)
    has_doc: bool
    columns: list[str]  # the other columns, in file order
    # A file of one system's scores that names no system (MetricX's predictions): the hypotheses it scored, in
    # order; the system of the run whose lines they are is the one scored.
    hypotheses: tuple[str, ...] | None = None
    lower_better: tuple[str, ...] = ()  # columns whose lower scores are better by what the file is (MetricX)
    # Rows that cover part of the run by what the file is (human ratings of a sample: ESA): the gaps are said, as
    # unrated segments of MQM annotations are, never refused.
    partial: bool = False
    # Rows that are raters' ratings (human ESA or DA scores): a segment's rows are averaged, and the ratings of
    # several such files for one column are one column — each segment the mean over every rater's score.
    ratings: bool = False


@dataclass(frozen=True)
class ImportedColumn:
    """One metric of a score file: its name (the column's), the file, and how many values were missing."""

    name: str
    path: Path
    missing: int
    total: int
    lower_better: bool = False  # by what the file is (MetricX's predictions), not by --lower-better


_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def _check_names(path: Path, header: list[str]) -> list[str]:
    """The header, refused when a name appears twice (case and spaces aside): the file is ambiguous."""
    seen: dict[str, int] = {}
    for i, name in enumerate(header):
        key = name.strip().lower()
        if key in seen:
            raise InputError(f"{path}: columns {seen[key] + 1} and {i + 1} are both named {name!r}: rename one, so "
                             "that every score is read from the column meant")
        seen[key] = i
    return header


def _cells(path: Path, text: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """Header and rows of a TSV or whitespace-separated file (see the module)."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise InputError(f"{path}: empty: no header and no scores")
    head_line = lines[0][1]
    tabs = "\t" in head_line

    def split(line: str) -> list[str]:
        return [c.strip() for c in line.split("\t")] if tabs else line.split()

    header = _check_names(path, split(head_line))
    rows = []
    for n, line in lines[1:]:
        cells = split(line)
        if len(cells) != len(header):
            how = "tabs" if tabs else "spaces and tabs (the header has no tab)"
            raise InputError(f"{path}: line {n}: {len(cells)} fields split at {how}, the header has {len(header)} "
                             f"({' '.join(header)})")
        rows.append((n, cells))
    return header, rows


def _csv_cells(path: Path, text: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    reader = csv.reader(io.StringIO(text))
    try:
        table = [(reader.line_num, row) for row in reader if any(c.strip() for c in row)]
    except csv.Error as exc:
        raise InputError(f"{path}: line {reader.line_num}: not CSV ({exc})") from None
    if not table:
        raise InputError(f"{path}: empty: no header and no scores")
    header = _check_names(path, [c.strip() for c in table[0][1]])
    for n, row in table[1:]:
        if len(row) != len(header):
            raise InputError(f"{path}: line {n}: {len(row)} fields, the header has {len(header)}")
    return header, [(n, [c.strip() for c in row]) for n, row in table[1:]]


def json_objects(path: Path, text: str, what: str) -> tuple[list[str], list[tuple[int, dict[str, object]]]]:
    """The objects of a JSON Lines text with their line numbers, and every key in the order first seen, read through
    the one door for JSON (:mod:`.untrusted_json`: a key given twice, Infinity, a number too long, nesting too deep
    are refused naming the line); ``NaN`` is a missing value, as Python's own ``json`` writes one (read so, as in a
    TSV); a line that is not an object, or no object (``what`` the file should hold), is refused naming the line
    (score files and annotation files read alike)."""
    header: list[str] = []
    objects = []
    for n, obj in json_lines(text, str(path), nan_as_null=True):
        if not isinstance(obj, dict):
            raise InputError(f"{path}: line {n}: a JSON object per line is expected")
        header += [k for k in obj if k not in header]
        objects.append((n, obj))
    if not objects:
        raise InputError(f"{path}: empty: no {what}")
    return header, objects


def _jsonl_cells(path: Path, text: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    header, objects = json_objects(path, text, "scores")

    def cell(value: object) -> str:
        return "" if value is None else str(value)

    return header, [(n, [cell(obj.get(k)) for k in header]) for n, obj in objects]


def _find(header: list[str], names: Sequence[str]) -> str | None:
    lowered = {h.lower(): h for h in header}
    return next((lowered[n] for n in names if n in lowered), None)


MTME_SEGMENTS, MTME_SYSTEMS = ".seg.score", ".sys.score"


def _mtme_table(path: Path, text: str) -> ScoreTable:
    """An mt-metrics-eval score file (see the module) as a table keyed by 1-based line numbers."""
    name = path.name[:-len(MTME_SEGMENTS)]
    column = name.rsplit(".", 1)[-1] if "." in name else name  # SRC-TGT.NAME (human) or METRIC-REF
    seen: dict[str, int] = {}
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        fields = line.split()
        if len(fields) != 2:
            raise InputError(f"{path}: line {n}: {len(fields)} fields; mt-metrics-eval's score lines are SYSTEM and "
                             "SCORE (split at whitespace)")
        seen[fields[0]] = seen.get(fields[0], 0) + 1
        rows.append(ScoreRow(n, fields[0], "", str(seen[fields[0]]), {column: fields[1]}))
    if not rows:
        raise InputError(f"{path}: empty: no scores")
    return ScoreTable(path, rows, False, False, [column])


def read_score_file(path: str | Path, encoding: str = "utf-8") -> ScoreTable:
    """Read a score file (TSV, CSV by ``.csv``, JSONL by ``.jsonl``/``.json``); :class:`InputError` names the
    line and what is wrong."""
    path = Path(path)
    text = decode_text_files([path], [read_bytes(path, encoding)], encoding)[0]
    body = "\n".join(text.lines)
    if path.name.endswith(MTME_SYSTEMS):
        raise InputError(f"{path}: mt-metrics-eval's system-level scores: one score per system, no segments to "
                         f"read (give its {MTME_SEGMENTS} file)")
    if path.name.endswith(MTME_SEGMENTS):
        return _mtme_table(path, body)
    neural = neural_scores(path, body)
    if neural is not None:
        return ScoreTable(path, [ScoreRow(n, system, "", segment, values) for n, system, segment, values in neural.rows],
                          False, False, neural.columns, neural.hypotheses, neural.lower_better)
    suffix = path.suffix.lower()
    reader = _csv_cells if suffix == ".csv" else _jsonl_cells if suffix in (".jsonl", ".json") else _cells
    header, cells = reader(path, body)
    system_col = _find(header, SYSTEM_NAMES)
    if system_col is None:
        raise InputError(f"{path}: no system column (name one of {', '.join(SYSTEM_NAMES)}; columns: "
                         f"{', '.join(header)})")
    id_col, line_col, doc_col = _find(header, ID_NAMES), _find(header, LINE_NAMES), _find(header, DOC_NAMES)
    segment_col = id_col or line_col
    if segment_col is None:
        raise InputError(f"{path}: no segment column: seg_id (the input's segment ids) or segment (the 1-based "
                         f"line number); columns: {', '.join(header)}")
    keys = {system_col, segment_col, *([doc_col] if doc_col and id_col else [])}
    position = {h: i for i, h in enumerate(header)}
    rows = []
    for n, row in cells:
        system, segment = row[position[system_col]], row[position[segment_col]]
        if not system or not segment:
            raise InputError(f"{path}: line {n}: no {'system' if not system else 'segment'} given")
        doc = row[position[doc_col]] if doc_col and id_col else ""
        rows.append(ScoreRow(n, system, doc, segment, {h: row[position[h]] for h in header if h not in keys}))
    return ScoreTable(path, rows, id_col is not None, bool(doc_col and id_col), [h for h in header if h not in keys])


def _number(value: str) -> float | None:
    """The score a field holds: a float, NaN when missing, None when it is not a number written in digits."""
    text = value.strip()
    if text.lower() in MISSING:
        return math.nan
    if not _NUMBER.fullmatch(text):
        return None
    number = float(text)
    return number if math.isfinite(number) else None  # 1e999


def metric_columns(table: ScoreTable) -> tuple[dict[str, list[float]], list[str]]:
    """(each column that is a metric → its value on each row, NaN where missing; the columns that are not:
    most of their values are text). Every field is read once; a column of numbers with a value that is not one
    (``inf``, ``1_000``, ``abc``) is an :class:`InputError` naming its line."""
    metrics: dict[str, list[float]] = {}
    text: list[str] = []
    for col in table.columns:
        values = [_number(r.values[col]) for r in table.rows]
        bad = [i for i, v in enumerate(values) if v is None]
        numbers = sum(v is not None and not math.isnan(v) for v in values)
        if not bad:
            metrics[col] = [v for v in values if v is not None]
        elif numbers > len(bad):
            row = table.rows[bad[0]]
            raise InputError(f"{table.path}: line {row.line}: {row.values[col]!r} in the column {col!r} is not a "
                             f"score (write a number in digits, such as 0.5 or -3; a missing score is None, NaN or "
                             f"empty){f'; {len(bad) - 1:,} more such values' if len(bad) > 1 else ''}")
        else:
            text.append(col)
    return metrics, text


def system_index(table: ScoreTable, systems: Sequence[SegmentFile], names: Sequence[str]) -> dict[str, int]:
    """Each file system name that is a system of the run → its index: by display name, field, file name or
    file stem."""
    found: dict[str, int] = {}
    in_file = dict.fromkeys(r.system for r in table.rows)
    for i, (f, name) in enumerate(zip(systems, names)):
        spellings = {name, f.field, f.path.name, f.path.stem} - {""}
        hits = [s for s in in_file if s in spellings]
        if len(hits) > 1:
            raise InputError(f"{table.path}: system {name} is named in the file as {' and as '.join(hits)}")
        if hits:
            if hits[0] in found:
                raise InputError(f"{table.path}: {hits[0]!r} names two systems of the run")
            found[hits[0]] = i
    return found


def segment_index(table: ScoreTable, context: Context, n: int) -> dict[tuple[str, str], int]:
    """(doc, segment) as the file names segments → the run's segment index."""
    if not table.by_id:
        return {("", str(i + 1)): i for i in range(n)}
    ids = context.segment_ids
    if ids is None:
        raise InputError(f"{table.path}: rows name segments by seg_id, but the input has no segment ids (plain "
                         "text): name them by segment, the 1-based line number")
    if table.has_doc:
        docs = context.docs or ("",) * n
        return {(docs[i], ids[i]): i for i in range(n)}
    keys = {("", s): i for i, s in enumerate(ids)}
    if len(keys) < n:
        raise InputError(f"{table.path}: segment ids repeat across the input's documents and the file has no doc "
                         "column: add one, or name segments by their 1-based line number (segment)")
    return keys


@dataclass
class _Matched:
    values: dict[str, list[list[float]]]  # metric -> system -> segment values (of ratings: filled from ``given``)
    given: dict[str, list[list[list[RaterScore]]]]  # of ratings: metric -> system -> segment -> the raters' scores
    seen: list[set[int]]                  # per system, the segments with a row
    other_systems: dict[str, int]         # a file system the run does not hold -> its rows
    other_segments: int                   # rows of the run's systems for segments the run does not hold
    unmatched: list[tuple[int, str]]      # the first of those: (line, the segment as the file writes it)


def _match(table: ScoreTable, metrics: dict[str, list[float]], systems: dict[str, int],
           keys: dict[tuple[str, str], int], k: int, n: int) -> _Matched:
    values = {m: [[math.nan] * n for _ in range(k)] for m in metrics}
    given: dict[str, list[list[list[RaterScore]]]] = {
        m: [[[] for _ in range(n)] for _ in range(k)] for m in metrics} if table.ratings else {}
    seen: list[set[int]] = [set() for _ in range(k)]
    where: dict[tuple[int, int], int] = {}
    other_systems: dict[str, int] = {}
    other_segments = 0
    unmatched: list[tuple[int, str]] = []
    for r, row in enumerate(table.rows):
        system = systems.get(row.system)
        if system is None:
            other_systems[row.system] = other_systems.get(row.system, 0) + 1
            continue
        segment = keys.get((row.doc, row.segment))
        if segment is None:
            other_segments += 1
            if len(unmatched) < 3:
                unmatched.append((row.line, row.segment))
            continue
        seen[system].add(segment)
        if table.ratings:
            for m, column in metrics.items():
                if not math.isnan(column[r]):
                    given[m][system][segment].append(RaterScore(row.rater, column[r], table.path, row.line))
            continue
        if (system, segment) in where:
            raise InputError(f"{table.path}: lines {where[system, segment]} and {row.line} both score system "
                             f"{row.system!r}, segment {row.segment}")
        where[system, segment] = row.line
        for m, column in metrics.items():
            values[m][system][segment] = column[r]
    return _Matched(values, given, seen, other_systems, other_segments, unmatched)


@dataclass
class _Pooled:
    """The raters' scores of one column read so far, from one file or several."""

    given: list[list[list[RaterScore]]]  # system -> segment -> the raters' scores
    paths: list[Path]
    column: int = -1  # its place among the columns read, once it has one


def _pool(pooled: _Pooled | None, table: ScoreTable, m: str, matched: _Matched, names: Sequence[str]) -> _Pooled:
    """``matched``'s ratings of ``m`` added to those of the files before (``pooled``); a rater who rated a segment
    in two files is refused (no second opinion, and no file's rating is later than another's)."""
    if pooled is None:
        return _Pooled(matched.given[m], [table.path])
    for system, (before, now) in enumerate(zip(pooled.given, matched.given[m])):
        for segment, (earlier, added) in enumerate(zip(before, now)):
            for score in added:
                first = next((g for g in earlier if g.rater == score.rater), None)
                if first is not None:
                    raise InputError(f"{table.path}: line {score.line}: rater {score.rater or '(unnamed)'} rated "
                                     f"system {names[system]}, segment {segment + 1} in {first.path.name} too (line "
                                     f"{first.line}): one rater's score is read from one file")
            earlier += added
    pooled.paths.append(table.path)
    return pooled


def _means(given: list[list[list[RaterScore]]]) -> list[list[float]]:
    return [[sum(g.score for g in scores) / len(scores) if scores else math.nan for scores in segments]
            for segments in given]


def attach_scores(paths: Sequence[str | Path], systems: Sequence[SegmentFile], names: Sequence[str],
                  context: Context, partial: bool = False, encoding: str = "utf-8",
                  tables: Sequence[ScoreTable] = ()) -> tuple[list[SegmentFile], list[ImportedColumn], list[str]]:
    """The systems with the score files' metrics attached (see the module), the metrics, and notes on what was
    left out. ``names``: the systems' display names (a file may use them); ``tables``: scores read already (the
    human scores of ESA or Pearmut ratings, :mod:`.span_ratings`)."""
    files = list(systems)
    columns: list[ImportedColumn] = []
    notes: list[str] = []
    n = len(systems[0].lines) if systems else 0
    taken: set[str] = set()
    pooled: dict[str, _Pooled] = {}  # the columns of raters' ratings, which several files may add to
    for table in _one_per_metric([*(read_score_file(path, encoding) for path in paths), *tables], files, names):
        metrics, text = metric_columns(table)
        if not metrics:
            raise InputError(f"{table.path}: no numeric column to read as a metric (columns: "
                             f"{', '.join(table.columns) or 'none beside the keys'})")
        for m in metrics:
            if m in taken and not (table.ratings and m in pooled):
                raise InputError(f"{table.path}: a metric named {m!r} was read already (from another file)")
            taken.add(m)
        found = system_index(table, files, names)
        matched = _match(table, metrics, found, segment_index(table, context, n), len(files), n)
        if table.ratings:
            for m in metrics:
                pooled[m] = _pool(pooled.get(m), table, m, matched, names)
                matched.values[m] = _means(pooled[m].given)
        _check_every_segment(table, files, names, found, matched, partial, notes)
        name = table.path.name
        if text:
            notes.append(f"{name}: column(s) {', '.join(text)} hold text, not scores: not read as metrics")
        if matched.other_systems:
            listing = ", ".join(f"{s} ({c:,})" for s, c in matched.other_systems.items())
            notes.append(f"{name}: rows of systems the run does not hold left out: {listing}")
        if matched.other_segments:
            notes.append(f"{name}: {matched.other_segments:,} rows of segments the run does not hold left out")
        for m in metrics:
            missing = sum(math.isnan(v) for per_system in matched.values[m] for v in per_system)
            pool = pooled.get(m)
            paths_read = pool.paths if pool is not None else [table.path]
            path = paths_read[0].with_name(" + ".join(p.name for p in paths_read))
            column = ImportedColumn(m, path, missing, n * len(files), m in table.lower_better)
            if pool is not None and pool.column >= 0:  # a column of ratings another file began
                columns[pool.column] = column
                continue
            if pool is not None:
                pool.column = len(columns)
            columns.append(column)
        files = [replace(f, scores={**f.scores, **{m: tuple(matched.values[m][i]) for m in metrics}},
                         rated={**f.rated, **{m: tuple(map(tuple, pooled[m].given[i])) for m in metrics if m in pooled}})
                 for i, f in enumerate(files)]
    return files, columns, notes


def _one_per_metric(tables: list[ScoreTable], systems: Sequence[SegmentFile], names: Sequence[str]
                    ) -> list[ScoreTable]:
    """``tables`` with the files of one system's scores each (MetricX's, which name no system) given their system
    (the one whose lines they scored) and merged by their columns: one metric, every system's file."""
    out = [t for t in tables if t.hypotheses is None]
    merged: dict[tuple[str, ...], list[tuple[ScoreTable, int]]] = {}
    for t in tables:
        if t.hypotheses is not None:
            merged.setdefault(tuple(t.columns), []).append((t, system_of_hypotheses(t.path, t.hypotheses, systems,
                                                                                    names)))
    for group in merged.values():
        scored: dict[int, Path] = {}
        for t, i in group:
            if i in scored:
                raise InputError(f"{scored[i]} and {t.path} both score the system {names[i]}")
            scored[i] = t.path
        first = group[0][0]
        path = first.path if len(group) == 1 else first.path.with_name(" + ".join(t.path.name for t, _ in group))
        rows = [replace(r, system=names[i]) for t, i in group for r in t.rows]
        out.append(ScoreTable(path, rows, False, False, first.columns, None, first.lower_better))
    return out


def _check_every_segment(table: ScoreTable, files: Sequence[SegmentFile], names: Sequence[str],
                         found: dict[str, int], matched: _Matched, partial: bool, notes: list[str]) -> None:
    """Every system and segment of the run has a row, or (``partial``) the gaps are said."""
    n = len(files[0].lines)
    said: list[tuple[int, str]] = []  # (the first system it is about, what is said), in the systems' order
    in_file = list(dict.fromkeys(r.system for r in table.rows))
    gaps: dict[tuple[int, ...], list[int]] = {}  # the segments without a row -> the systems that lack them
    for i, name in enumerate(names):
        if i not in found.values():
            said.append((i, f"system {name} has no row (the file has {', '.join(in_file[:8])}"
                            f"{' …' if len(in_file) > 8 else ''})"))
        elif len(matched.seen[i]) < n:
            gaps.setdefault(tuple(j for j in range(n) if j not in matched.seen[i]), []).append(i)
    for absent, lacking in gaps.items():
        # Systems that lack the very same segments are said once (WMT24's ESA release: 12 systems, 12 equal lines).
        who = f"system {names[lacking[0]]} has" if len(lacking) == 1 else \
            f"{len(lacking)} systems ({', '.join(names[i] for i in lacking[:4])}{' …' if len(lacking) > 4 else ''}) have"
        said.append((lacking[0], f"{who} no row for {'the same ' if len(lacking) > 1 else ''}{len(absent):,} of "
                                 f"{n:,} segments (segment {', '.join(str(j + 1) for j in absent[:5])}"
                                 f"{' …' if len(absent) > 5 else ''})"))
    holes = [text for _, text in sorted(said, key=lambda entry: entry[0])]
    if not holes:
        return
    if matched.unmatched:  # rows that name segments the run lacks may be the run's segments written otherwise
        shown = ", ".join(f"{key!r} (line {line})" for line, key in matched.unmatched)
        how = ("seg_id as the input writes its segment ids" if table.by_id else
               f"segment, the 1-based line number written as 1 to {n:,}")
        holes[0] += (f"; {matched.other_segments:,} rows name segments the run does not have, such as {shown}: "
                     f"the keys did not match (segments are named by {how})")
    if not partial and not table.partial:
        raise InputError(f"{table.path}: {holes[0]}" + (f"; and {len(holes) - 1} more" if len(holes) > 1 else "")
                         + f" ({term('scores_partial')} reads the scores there are, the rest as missing)")
    notes.extend(f"{table.path.name}: {h}: read as missing" for h in holes)
