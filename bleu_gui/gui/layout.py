"""Small layout helpers shared by the tabs."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

STRETCH = None  # put a stretch here in :func:`hrow`


def hrow(*items: QWidget | str | None) -> QHBoxLayout:
    """A horizontal row: widgets as given, strings as labels, ``STRETCH`` (None) as a stretch."""
    row = QHBoxLayout()
    for item in items:
        if item is STRETCH:
            row.addStretch(1)
        elif isinstance(item, str):
            row.addWidget(QLabel(item))
        else:
            row.addWidget(item)
    return row


def legend(entries: list[tuple[str, str]]) -> QHBoxLayout:
    """A row of labels, each styled with its CSS (the colours of the panes), then a stretch."""
    row = QHBoxLayout()
    row.setContentsMargins(0, 0, 0, 0)
    for text, style in entries:
        label = QLabel(text)
        label.setStyleSheet(f"{style}; padding:2px 6px; border-radius:3px;")
        row.addWidget(label)
    row.addStretch(1)
    return row
