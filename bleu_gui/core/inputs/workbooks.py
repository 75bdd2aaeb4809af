"""Spreadsheets (``.xlsx``, ``.xlsm``, ``.ods``; ``.xls`` read-only) as tables of segments: the first row is the
header and the columns take the same roles as a TSV's (``--column``, ``--refs``, ``--systems``; see
:mod:`.tables`), read from the first sheet or the one ``--sheet`` names. Read with python-calamine (Rust), which
reads cached values and never evaluates a formula.

A cell reads as the sheet shows it: a whole number stored as ``3.0`` is ``3``, ``=0.1+0.2`` is ``0.3`` (General shows
15 significant digits), a ``25 %`` cell is ``25%`` and a ``0.00`` one ``1.50`` (:mod:`.number_formats`, ``.xlsx``
and ``.xlsm``), a date is ``2024-05-01`` (a time with its clock), a boolean ``TRUE``/``FALSE``; an empty cell is
empty text; a merged cell's value is in its first cell, the others empty. Rows that are wholly empty are skipped
(their row numbers still name the lines). A password-protected or corrupt workbook, an empty sheet or one without
a header is refused in one line.
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..errors import InputError, term
from .corpus import Corpus
from .number_formats import cell_formats, shown_number
from .tables import Rows, table_corpus


def cell_text(value: object, number_format: str | None = None) -> str:
    """A cell's value as the sheet shows it (see the module), a number in its cell's ``number_format`` when it has
    one other than General."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)) and number_format is not None:
        shown = shown_number(float(value), number_format)
        if shown is not None:
            return shown
    if isinstance(value, float):
        # General: at most 15 significant digits, the precision a spreadsheet shows (=0.1+0.2 shows 0.3)
        return f"{value:.15g}".replace("e", "E")
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ") if value.time() != datetime.time() else value.date().isoformat()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return str(value)
    return str(value)


def sheet_rows(path: Path, data: bytes, sheet: str | None) -> list[list[str]]:
    """The cells of a workbook's sheet as text, row by row (``sheet``: its name; default: the first)."""
    from python_calamine import CalamineWorkbook  # loaded when a workbook is read

    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" and path.suffix.lower() in (".xlsx", ".xlsm"):
        raise InputError(f"{path}: an encrypted (password-protected) workbook: save it without a password first")
    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = book.sheet_names
        if sheet is not None and sheet not in names:
            raise InputError(f"{path}: no sheet named {sheet!r} (the workbook has {', '.join(names)}); "
                             f"{term('sheet')} names one")
        chosen = sheet if sheet is not None else names[0]
        table = book.get_sheet_by_name(chosen).to_python(skip_empty_area=False)
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - calamine's errors name no common class: any means unreadable
        raise InputError(f"{path}: not a readable workbook ({type(exc).__name__}: {exc})".rstrip(": ")) from None
    formats = cell_formats(data, chosen) if data[:2] == b"PK" else {}  # .xlsx/.xlsm (.ods, .xls: General)
    if not formats:  # most sheets: every number General
        return [[cell_text(v) for v in row] for row in table]
    return [[cell_text(v, formats.get((r, c))) for c, v in enumerate(row)] for r, row in enumerate(table)]


def read_workbook(path: Path, data: bytes, columns: Mapping[str, str] | None = None,
                  sheet: str | None = None, refs: Sequence[str] = ()) -> Corpus:
    """A workbook's sheet as a table of segments (see the module)."""
    cells = sheet_rows(path, data, sheet)
    filled = [(n, row) for n, row in enumerate(cells, 1) if any(c.strip() for c in row)]
    if not filled:
        raise InputError(f"{path}: the sheet is empty (no header row)")
    header_line, header = filled[0]
    names = [h.strip() for h in header]
    while names and not names[-1]:
        names.pop()
    if not names or any(not h for h in names):
        blank = [i + 1 for i, h in enumerate(names) if not h]
        raise InputError(f"{path}: row {header_line}: the header row needs a name in every column (column "
                         f"{', '.join(map(str, blank)) or '1'} has none)")
    if len(set(names)) != len(names):
        twice = sorted({h for h in names if names.count(h) > 1})
        raise InputError(f"{path}: row {header_line}: the column {', '.join(map(repr, twice))} is named twice")

    def rows() -> Rows:
        for number, row in filled[1:]:
            cells_of_row = (row + [""] * len(names))[:len(names)]
            if any(c.strip() for c in row[len(names):]):
                raise InputError(f"{path}: row {number}: a value in a column with no header name")
            yield number, dict(zip(names, cells_of_row))

    return table_corpus(path, "xlsx", names, rows(), columns, refs=refs)
