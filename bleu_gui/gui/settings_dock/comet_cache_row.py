"""COMET's cache in the settings: how many scores it keeps and how large it is, and a button that clears it (the next
run scores everything again)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QHBoxLayout, QLabel, QMessageBox, QPushButton, QWidget

from ...core.metrics.comet.cache import cache_path, cache_size, clear_cache
from ..widgets.style import styled


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.0f} kB"


class CometCacheRow(QWidget):
    """The cache line of COMET's settings; ``cache_setting()`` gives the cache file setting shown ('' = default)."""

    def __init__(self, cache_setting: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._setting = cache_setting
        self.label = QLabel()
        self.label.setWordWrap(True)
        styled(self.label, "hint")
        self.clear = QPushButton("Clear…")
        self.clear.setToolTip("Remove every cached COMET score: the next run scores its segments again")
        self.clear.clicked.connect(self._ask_to_clear)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label, 1)
        row.addWidget(self.clear)
        self.refresh()

    def path(self) -> Path:
        return cache_path(self._setting())

    def refresh(self) -> None:
        """Say the cache's size now."""
        count, size = cache_size(self.path())
        self.label.setText(f"Cache: {count:,} scores, {_megabytes(size)}" if count else "Cache: empty")
        self.label.setToolTip(str(self.path()))
        self.clear.setEnabled(count > 0)

    def showEvent(self, event: object) -> None:  # noqa: N802 - Qt's name
        self.refresh()

    def _ask_to_clear(self) -> None:
        count, _ = cache_size(self.path())
        answer = QMessageBox.question(self, "Clear COMET's cache", f"Remove the {count:,} COMET scores kept in "
                                      f"{self.path()}? The next run scores its segments again.")
        if answer == QMessageBox.StandardButton.Yes:
            clear_cache(self.path())
            self.refresh()
