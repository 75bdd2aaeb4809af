"""How the window's labels look, from the product palette.

Each styled label carries its own small style sheet. A sheet on the main window
would route every widget's painting (tables, scroll bars, tabs, charts) through
Qt's style-sheet style, which made each repaint of the window about 40% slower.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from ...core import palette

_RULES = {
    "corpusScore": f"font-size: 26px; font-weight: 600; color: {palette.ACCENT};",
    "verbose": f"font-family: monospace; color: {palette.TEXT};",
    "signature": f"font-family: monospace; color: {palette.MUTED};",
    "paneTitle": f"font-weight: 600; color: {palette.TITLE}; margin-top: 4px;",
    "hint": f"color: {palette.MUTED};",
    "warning": f"color: {palette.CLIPPED_LINE}; font-weight: 600;",
}


def styled(label: QLabel, role: str) -> QLabel:
    """Give ``label`` the look of ``role`` (one of the keys above, also set as its object name)."""
    label.setObjectName(role)
    label.setStyleSheet(_RULES[role])
    return label
