"""A reviewer's marks drawn over a text pane (the candidate, or the source for an omission): underlined in their
severity's colour, a suggestion dashed until it is taken."""

from __future__ import annotations

from bisect import bisect_left

from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextEdit

from ...core import palette
from ...core.output.review_file import Mark
from ..widgets.panes import utf16_offsets

COLOURS = {"Minor": palette.MARK_MINOR, "Major": palette.MARK_MAJOR, "Critical": palette.MARK_CRITICAL}
SEVERITY_BACKGROUNDS = {"Minor": palette.MQM_MINOR, "Major": palette.MQM_MAJOR, "Critical": palette.MQM_CRITICAL}


def mark_selections(view: QTextEdit, offset: int, text: str,
                shown: list[tuple[Mark, bool]]) -> list[QTextEdit.ExtraSelection]:
    """The marks over ``text``, which starts at code point ``offset`` of ``view``'s text."""
    units = utf16_offsets(view.toPlainText())
    selections = []
    for m, suggested in shown:
        if m.start is None or m.end is None or m.end > len(text):
            continue
        selection = QTextEdit.ExtraSelection()
        cursor = QTextCursor(view.document())
        cursor.setPosition(units[offset + m.start])
        cursor.setPosition(units[offset + m.end], QTextCursor.MoveMode.KeepAnchor)
        selection.cursor = cursor
        fmt = QTextCharFormat()
        # The reviewer's own marks in MQM's severity colours (as the human errors strip draws them), over the
        # match colours; a suggestion only dashed beneath, until it is taken.
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline if suggested
                              else QTextCharFormat.UnderlineStyle.WaveUnderline)
        fmt.setUnderlineColor(QColor(COLOURS.get(m.severity, palette.MUTED)))
        if not suggested:
            fmt.setBackground(QColor(SEVERITY_BACKGROUNDS.get(m.severity, palette.MQM_NEUTRAL)))
        fmt.setToolTip(("Suggested by " + m.suggested_by + " (A accept, E accept as selected, R reject): "
                        if suggested else "") + f"{m.severity} · {m.category or 'no category'}"
                       + (f" · {m.comment}" if m.comment else ""))
        selection.format = fmt
        selections.append(selection)
    return selections


def code_point(units: list[int], position: int) -> int:
    """The Python index of the character at Qt's UTF-16 ``position`` (see :func:`utf16_offsets`): the first whose
    offset reaches it."""
    return bisect_left(units, position, hi=len(units) - 1)
