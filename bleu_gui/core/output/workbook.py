"""Tables as Excel workbooks (XlsxWriter): the per-sentence table (``--export-sentences OUT.xlsx``) and the
report's systems table and pair matrix (``--report OUT.xlsx``). Scores are numbers (a missing one an empty cell),
the header row is frozen and filtered, columns are as wide as their content needs (up to a limit), and an
*about* sheet says what produced the numbers: the metrics' signatures, the systems, the slice.

A number is written with every digit it needs (Python's shortest round-trip form, up to 17 significant digits), so
a number read back from the workbook equals the JSON export's: XlsxWriter writes 16 (``%.16G``), which loses the
last bit of one double in ten or so.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

_MAX_WIDTH = 60  # characters: a column of sentences wraps instead of running off the screen
_SCORE_FORMAT = "0.00"


def _width(values: Sequence[object]) -> float:
    longest = max((len(str(v)) for v in values if v is not None), default=4)
    return min(max(longest + 2, 6), _MAX_WIDTH)


class _Exact(float):
    """A number that formats as its shortest round-trip form whatever the format asked for (XlsxWriter's
    ``{number:.16G}``)."""

    def __format__(self, spec: str) -> str:
        return repr(float(self))


def _exact_sheet_class() -> type:
    """XlsxWriter's worksheet writing numbers as :class:`_Exact` (see the module)."""
    from xlsxwriter.worksheet import Worksheet

    class ExactNumbers(Worksheet):
        def _xml_number_element(self, number: float, attributes: list[tuple[str, object]] | None = None) -> None:
            super()._xml_number_element(_Exact(number), attributes if attributes is not None else [])

    return ExactNumbers


PRECISION = "every digit of each number (the shortest form that reads back as the same double, as the JSON export)"


def workbook_bytes(sheets: Sequence[tuple[str, list[str], list[list[object]]]], about: Sequence[tuple[str, str]]
                   ) -> bytes:
    """A workbook of ``sheets`` (name, header, rows) and an *about* sheet of (label, value) lines."""
    import xlsxwriter  # loaded when a workbook is written

    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True, "nan_inf_to_errors": True, "strings_to_numbers": False,
                                     "strings_to_formulas": False, "strings_to_urls": False})
    bold = book.add_format({"bold": True, "bottom": 1})
    number = book.add_format({"num_format": _SCORE_FORMAT})
    wrap = book.add_format({"text_wrap": True, "valign": "top"})
    exact = _exact_sheet_class()
    for name, header, rows in sheets:
        sheet = book.add_worksheet(name[:31], worksheet_class=exact)
        sheet.write_row(0, 0, header, bold)
        for r, row in enumerate(rows, 1):
            for c, value in enumerate(row):
                if value is None:
                    continue
                if isinstance(value, float):
                    sheet.write_number(r, c, value, number)
                elif isinstance(value, int):
                    sheet.write_number(r, c, value)
                else:
                    sheet.write_string(r, c, str(value))
        for c, title in enumerate(header):
            column = [row[c] for row in rows[:2000]] + [title]
            width = _width(column)
            sheet.set_column(c, c, width, wrap if width >= _MAX_WIDTH else None)
        sheet.freeze_panes(1, 0)
        if rows:
            sheet.autofilter(0, 0, len(rows), max(len(header) - 1, 0))
    sheet = book.add_worksheet("about")
    for r, (label, value) in enumerate([*about, ("numbers", PRECISION)]):
        sheet.write_string(r, 0, label, bold)
        sheet.write_string(r, 1, value)
    sheet.set_column(0, 0, 14)
    sheet.set_column(1, 1, 100)
    book.close()
    return out.getvalue()
