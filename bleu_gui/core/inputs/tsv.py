"""Tab-separated rows read literally, as sacreBLEU and WMT's tools split them: a field is the text between tabs.

Two things a spreadsheet or Python's ``csv`` module writes into a TSV are read as what they mean, and said:

- a field in CSV quoting — wrapped in ``"`` with every quote inside doubled (``"a ""serious"" proposal"``), the
  only form a writer that quotes as needed gives a field holding a quote — is the text it quotes (Google's
  newstest2020 MQM file has 727 such fields). Any other field is literal: ``"Hello," she said.`` keeps its quotes;
  ``csv``'s reading would make it ``Hello, she said.`` and an unclosed ``"`` would swallow the rows after it.
- a file whose rows only have the header's number of fields when read CSV-quoted (a quoted field holding a tab or
  a line break) is read so, with a note naming the first line that needs it; never silently.
"""

from __future__ import annotations

import contextlib
import csv
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..errors import InputError

# A TSV field may hold a whole document; the csv module's default limit (131,072 characters) would stop it.
_FIELD_LIMIT = 2**31 - 1


@dataclass(frozen=True)
class TsvRows:
    """The non-empty rows of a TSV (the first is the header, when the file has one) with their line numbers, and
    what reading them took beyond splitting at tabs (empty when nothing)."""

    rows: list[tuple[int, list[str]]]
    note: str = ""


def _quoted(field: str) -> str | None:
    """The text a field in CSV quoting stands for, or None when the field is not in that exact form."""
    if len(field) < 2 or field[0] != '"' or field[-1] != '"':
        return None
    inner = field[1:-1]
    if '""' not in inner or '"' in inner.replace('""', ""):
        return None  # nothing a writer quotes as needed would wrap, or a quote that is not doubled: literal text
    return inner.replace('""', '"')


def _literal(lines: Sequence[str]) -> tuple[list[tuple[int, list[str]]], int]:
    rows = [(number, line.split("\t")) for number, line in enumerate(lines, start=1) if line]
    unquoted = 0
    for number, fields in rows:
        if '"' not in lines[number - 1]:  # most lines: nothing a writer quoted
            continue
        for i, field in enumerate(fields):
            if field.startswith('"') and (text := _quoted(field)) is not None:
                fields[i], unquoted = text, unquoted + 1
    return rows, unquoted


@contextlib.contextmanager
def _large_fields() -> Iterator[None]:
    previous = csv.field_size_limit(_FIELD_LIMIT)
    try:
        yield
    finally:
        csv.field_size_limit(previous)


def _csv_quoted(lines: Sequence[str]) -> list[tuple[int, list[str]]] | None:
    """The rows as the csv module reads them (a quoted field may hold a tab or a line end), or None when it
    cannot read them."""
    reader = csv.reader(io.StringIO("\n".join(lines)), delimiter="\t")
    with _large_fields():
        try:
            return [(reader.line_num, row) for row in reader if row]
        except csv.Error:
            return None


def read_tsv(path: object, lines: Sequence[str], header_words: str = "the header has") -> TsvRows:
    """The rows of a TSV's decoded ``lines`` (see the module): every row must have the first row's number of
    fields; :class:`InputError` names the first line that has not (``header_words`` says what set the number)."""
    rows, unquoted = _literal(lines)
    width = len(rows[0][1]) if rows else 0
    ragged = next(((n, len(fields)) for n, fields in rows if len(fields) != width), None)
    if ragged is None:
        if not unquoted:
            return TsvRows(rows)
        return TsvRows(rows, f"{unquoted:,} field(s) in CSV quoting (\"…\"\"…\"\"…\") read as the text they quote; "
                             "every other field read literally")
    quoted = _csv_quoted(lines)
    if quoted and all(len(fields) == len(quoted[0][1]) for _, fields in quoted):
        return TsvRows(quoted, f"read CSV-quoted: line {ragged[0]} has {ragged[1]} fields between its tabs, the "
                               f"first row {width}, which a quoted field holding a tab or a line break explains")
    raise InputError(f"{path}: line {ragged[0]}: {ragged[1]} fields, {header_words} {width}")
