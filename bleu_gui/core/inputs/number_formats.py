"""A workbook's numbers as its cells show them: the number format of each cell of an ``.xlsx`` sheet.

calamine gives a cell's value (``0.25``, ``0.30000000000000004`` for ``=0.1+0.2``) and turns date formats into
dates, but not the other number formats: a ``25 %`` cell would read ``0.25``. This reads the sheet's styles
(``xl/styles.xml``: each style's number format) and which style each numeric cell has (its ``s`` attribute), and
:func:`shown_number` writes a number as the format shows it: fixed decimals, thousands separators, percent,
scientific, with the format's quoted text. A number in the General format shows at most 15 significant
digits, Excel's precision (``0.3``). Other formats (fractions, elapsed times, conditions) read as General.

Only workbooks whose styles hold such a format are looked into (a sheet written by a script mostly has none);
the sheet's XML is then scanned once for the cells of those styles. ``.ods`` and ``.xls`` read as General.
"""

from __future__ import annotations

import functools
import io
import re
import zipfile
from decimal import ROUND_HALF_UP, Decimal
from pathlib import PurePosixPath

import defusedxml.ElementTree as safe_tree

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_DOC_RELS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
# Excel's built-in number formats that are not General and not dates or times (ECMA-376 Part 1, 18.8.30).
_BUILT_IN = {1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 9: "0%", 10: "0.00%", 11: "0.00E+00",
             37: "#,##0 ;(#,##0)", 38: "#,##0 ;[Red](#,##0)", 39: "#,##0.00;(#,##0.00)", 40: "#,##0.00;[Red](#,##0.00)"}
_CELL = re.compile(rb"<(?:\w+:)?c\s([^>]*?)/?>")
_ORDERED_CELL = re.compile(rb'<(?:\w+:)?c r="([A-Z]+\d+)" s="(\d+)"(?: t="(\w+)")?')
_ATTRIBUTE = re.compile(rb'\b([rst])="([^"]*)"')
_DATE_LETTERS = re.compile(r"[yYmMdDhHsS]")
_PLACES = "0#?"

Formats = dict[tuple[int, int], str]  # (row, column), 0-based from A1 -> the number format shown


def _column(letters: bytes) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ch - 64
    return n - 1


def _cell_position(ref: bytes) -> tuple[int, int] | None:
    digits = ref.lstrip(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    if not digits.isdigit() or len(digits) == len(ref):
        return None
    return int(digits) - 1, _column(ref[:len(ref) - len(digits)])


def _style_formats(book: zipfile.ZipFile) -> dict[int, str]:
    """Style index -> its number format, for the styles whose format is not General and not a date."""
    try:
        root = safe_tree.fromstring(book.read("xl/styles.xml"))
    except KeyError:
        return {}
    custom = {int(f.get("numFmtId", -1)): f.get("formatCode", "") for f in root.iter(f"{_MAIN}numFmt")}
    xfs = root.find(f"{_MAIN}cellXfs")
    out: dict[int, str] = {}
    for index, xf in enumerate(xfs if xfs is not None else []):
        number_format = int(xf.get("numFmtId", 0))
        code = custom.get(number_format, _BUILT_IN.get(number_format, ""))
        if code and _pieces(_section(code, False)[0]) is not None:  # a format shown_number reads, not a date
            out[index] = code
    return out


def _sheet_path(book: zipfile.ZipFile, sheet: str) -> str | None:
    """The part of the workbook that holds the sheet named ``sheet``."""
    workbook = safe_tree.fromstring(book.read("xl/workbook.xml"))
    rel = next((s.get(f"{_DOC_RELS}id") for s in workbook.iter(f"{_MAIN}sheet") if s.get("name") == sheet), None)
    rels = safe_tree.fromstring(book.read("xl/_rels/workbook.xml.rels"))
    target = next((r.get("Target", "") for r in rels.iter(f"{_RELS}Relationship") if r.get("Id") == rel), None)
    if not target:
        return None
    return target.lstrip("/") if target.startswith("/") else str(PurePosixPath("xl") / target)


def cell_formats(data: bytes, sheet: str) -> Formats:
    """The number format of each numeric cell of the sheet named ``sheet`` whose format is not General (nor a
    date), from an ``.xlsx``/``.xlsm`` workbook's bytes; empty when it has none or cannot be read so (its cells then
    read as General)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as book:
            styles = _style_formats(book)
            part = _sheet_path(book, sheet) if styles else None
            xml = book.read(part) if part else b""
    except (KeyError, zipfile.BadZipFile, safe_tree.ParseError, ValueError):
        return {}
    # Writers put a cell's attributes in the schema's order (r, s, t): one C-level scan reads those; a sheet
    # whose cells order them otherwise is read tag by tag.
    fast = _ORDERED_CELL.findall(xml)
    if len(fast) != xml.count(b' s="'):
        fast = [(a.get(b"r", b""), a.get(b"s", b""), a.get(b"t", b"")) for a in
                (dict(_ATTRIBUTE.findall(tag)) for tag in _CELL.findall(xml)) if b"s" in a]
    wanted = {str(i).encode(): code for i, code in styles.items()}
    formats: Formats = {}
    for ref, style, kind in fast:
        code = wanted.get(style)
        if code is not None and kind in (b"", b"n"):
            position = _cell_position(ref)
            if position is not None:
                formats[position] = code
    return formats


def _section(code: str, negative: bool) -> tuple[str, bool]:
    """The part of a format for a number of this sign, and whether a minus must be written before it."""
    sections = code.split(";")
    if negative and len(sections) > 1 and sections[1].strip():
        return sections[1], False
    return sections[0], negative


# A format's pieces: quoted text, an escaped character, [colour or condition] (dropped), _x (a space as wide as x),
# *x (a fill, dropped), the number's placeholders, any other character (written as it is).
_TOKEN = re.compile(r'"(?P<quoted>[^"]*)"|\\(?P<escaped>.)|\[[^\]]*\]|_(?P<space>.)|\*.'
                    r'|(?P<number>[0#?.,]+(?:[Ee][+-][0#?]+)?)|(?P<other>.)')


def _digits(core: str, value: float) -> str:
    """``value`` (0 or more) written as the numeric part of a format (``#,##0.00``, ``0.00E+00``): its decimals
    rounded half away from zero as spreadsheets round, from the number's shortest repr (``1234.25`` → ``1234.3``)."""
    mantissa, sign, places = re.split(r"[Ee]([+-])", core, maxsplit=1) if re.search(r"[Ee][+-]", core) else (core, "", "")
    integer, _, fraction = mantissa.partition(".")
    decimals = sum(ch in _PLACES for ch in fraction)
    if sign:
        digits, power = f"{value:.{decimals}E}".split("E")
        shown_sign = "-" if power[0] == "-" else sign.replace("-", "")  # E- writes no plus
        return f"{digits}E{shown_sign}{power[1:].lstrip('0').rjust(len(places), '0')}"
    rounded = Decimal(repr(value)).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP)
    written = f"{rounded:,f}" if "," in integer else f"{rounded:f}"
    if "0" not in integer and written.startswith("0") and decimals:
        written = written[1:]  # "#.00" writes .50, not 0.50
    return written


@functools.lru_cache(maxsize=256)
def _pieces(section: str) -> tuple[tuple[str, str], ...] | None:
    """A format section as ("number", placeholders) and ("text", written) pieces; None when it is not one this
    reads (General, a date or time calamine did not take for one, no single number)."""
    if "general" in section.lower():
        return None
    pieces: list[tuple[str, str]] = []
    for token in _TOKEN.finditer(section):
        kind = token.lastgroup
        if kind == "number":
            pieces.append(("number", token.group()))
        elif kind in ("quoted", "escaped"):
            pieces.append(("text", token.group(kind)))
        elif kind == "space":
            pieces.append(("text", " "))
        elif kind == "other":
            if _DATE_LETTERS.match(token.group()):
                return None
            pieces.append(("text", token.group()))
    if sum(kind == "number" and any(ch in _PLACES for ch in core) for kind, core in pieces) != 1:
        return None
    return tuple(pieces)


def shown_number(value: float, code: str) -> str | None:
    """``value`` as the number format ``code`` shows it, or None when the format is not one this reads (then the
    number reads as General)."""
    section, minus = _section(code, value < 0)
    pieces = _pieces(section)
    if pieces is None:
        return None
    magnitude = abs(value) * 100 ** sum(text == "%" for kind, text in pieces if kind == "text")
    out = []
    for kind, core in pieces:
        if kind == "text":
            out.append(core)
        elif any(ch in _PLACES for ch in core):
            out.append(_digits(core, magnitude))
    return ("-" if minus else "") + "".join(out)
