"""The rows of a review file (the desk's JSON Lines, :mod:`..output.review_file`) as they hold now. The file only
ever grows — every change the reviewer makes is appended, so that no writer ever replaces rows another wrote — and a
reader folds its rows in order:

- a row with ``"withdrawn": true`` takes back the latest earlier row that is equal to it but for that field and
  the typology (an error removed, an undo, a rejection taken back);
- a ``"reviewed": true`` row of a rater's segment replaces that rater's earlier one (a score changed; its seconds
  are the whole time spent, every visit summed), and ``"reviewed": false`` takes it back (an undo of the first).

``--annotations``, the desk and ``esa`` scores read review files through :func:`rows_in_force`, so each sees the
same ratings."""

from __future__ import annotations

import json
from collections.abc import Sequence

Row = tuple[int, dict[str, object]]  # the file's line, the object


_NOT_MATCHED = ("withdrawn", "typology")  # a review reopened under another typology still takes back its own rows


def _same(row: dict[str, object]) -> str:
    """What a withdrawal is matched by: the row but for ``withdrawn`` and the typology it was written under."""
    return json.dumps({k: v for k, v in row.items() if k not in _NOT_MATCHED}, sort_keys=True, ensure_ascii=False)


def _segment(row: dict[str, object]) -> tuple[str, str, str]:
    return str(row.get("rater")), str(row.get("system")), str(row.get("segment"))


def is_fold_row(row: dict[str, object]) -> bool:
    """Whether ``row`` is one that changes others (a withdrawal, a verdict taken back) rather than a rating."""
    return row.get("withdrawn") is True or row.get("reviewed") is False


def rows_in_force(rows: Sequence[Row]) -> list[Row]:
    """The rows that hold once the file's withdrawals and later verdicts are applied (see the module), in the order
    they were written; a withdrawal of nothing is left out (another writer's undo of what it never wrote here)."""
    alive: dict[int, Row] = {}           # position → row still in force
    by_value: dict[str, list[int]] = {}  # a row's value → the positions it holds, oldest first
    verdict: dict[tuple[str, str, str], int] = {}
    for position, (n, row) in enumerate(rows):
        if row.get("withdrawn") is True:
            held = by_value.get(_same(row))
            if held:
                alive.pop(held.pop(), None)
            continue
        if row.get("reviewed") is False:
            alive.pop(verdict.pop(_segment(row), -1), None)
            continue
        if row.get("reviewed") is True:
            alive.pop(verdict.get(_segment(row), -1), None)
            verdict[_segment(row)] = position
        else:
            by_value.setdefault(_same(row), []).append(position)
        alive[position] = (n, row)
    return [alive[p] for p in sorted(alive)]
