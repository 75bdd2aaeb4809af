"""How the window's labels look, from the product palette.

Each styled label carries its own small style sheet. A sheet on the main window
would route every widget's painting (tables, scroll bars, tabs, charts) through
Qt's style-sheet style, which made each repaint of the window about 40% slower.
"""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtWidgets import QWidget

from ...core import palette

_RULES = {
    "corpusScore": f"font-size: 26px; font-weight: 600; color: {palette.ACCENT};",
    "verbose": f"font-family: monospace; color: {palette.TEXT};",
    "signature": f"font-family: monospace; color: {palette.MUTED};",
    "paneTitle": f"font-weight: 600; color: {palette.TITLE}; margin-top: 4px;",
    "hint": f"color: {palette.MUTED};",
    "warning": f"color: {palette.CLIPPED_LINE}; font-weight: 600;",
    "link": f"color: {palette.ACCENT}; border: none; padding: 0 4px; text-align: left;",
}


# A field whose value a message says is wrong (the Open dialog's fields, the slice box).
MARKED = f"border: 2px solid {palette.CLIPPED_LINE};"

W = TypeVar("W", bound=QWidget)


def styled(label: W, role: str) -> W:
    """Give ``label`` (a label, or a flat button that reads as a link) the look of ``role`` (one of the keys above,
    also set as its object name)."""
    label.setObjectName(role)
    label.setStyleSheet(_RULES[role])
    return label
