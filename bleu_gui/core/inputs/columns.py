"""The roles a column of a table (TSV, JSONL, a workbook) holds, and ``ROLE=NAME`` choices of a column for a role
(``--columns``, the Open dialog): what :class:`.format_table.ReadOptions` carries to the table reader."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import InputError, term

ROLES = ("source", "candidate", "reference", "doc", "system", "segment")


def parse_columns(texts: Sequence[str]) -> dict[str, str]:
    """``ROLE=NAME`` texts (the command line's, the Open dialog's) as role -> column name; :class:`InputError` names
    the text that is not one."""
    columns = {}
    for text in texts:
        role, sep, name = text.partition("=")
        if not sep or role.strip() not in ROLES:
            raise InputError(f"{term('columns', repr(text))}: give ROLE=NAME with ROLE one of {', '.join(ROLES)}")
        columns[role.strip()] = name.strip()
    return columns
