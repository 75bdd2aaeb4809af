"""File ▸ Open Recent: the runs opened before, newest first, each a whole session, full paths in the tooltip."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QMenu, QMessageBox, QWidget

from ...core.output.sessions import Session
from .settings import Settings


class RecentMenu(QMenu):
    """Signals: ``open_requested(Session)`` for an entry whose files all exist."""

    open_requested = Signal(object)

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__("Open &Recent", parent)
        self.settings = settings
        self.setToolTipsVisible(True)
        self.refresh()

    def refresh(self) -> None:
        self.clear()
        entries = self.settings.recent()
        for n, entry in enumerate(entries, 1):
            names = entry.labels or [Path(s).name for s in entry.systems]
            against = ", ".join(Path(r).name for r in entry.references) or (
                f"source {Path(entry.source).name}" if entry.source else "no reference")
            label = f"{', '.join(names)}  ⟵  {against}".replace("&", "&&")  # a file's & is no menu letter
            action = self.addAction(f"&{n} {label}")  # at most MAX_RECENT (8): Alt+F, R and the entry's digit
            action.setToolTip("\n".join([*entry.systems, *entry.references]))
            action.triggered.connect(lambda _=False, e=entry: self.on_chosen(e))
        self.setEnabled(bool(entries))

    def on_chosen(self, entry: Session) -> None:
        missing = entry.missing()
        if not missing:
            self.open_requested.emit(entry)
            return
        if self.ask_remove(missing):
            self.settings.remove_recent(entry)
            self.refresh()

    def ask_remove(self, missing: list[str]) -> bool:
        """Say which files are gone; True when the user removes the entry."""
        answer = QMessageBox.question(self.parentWidget(), "bleu-gui",
                                      "These files of the recent run no longer exist:\n" + "\n".join(missing)
                                      + "\n\nRemove the entry from Open Recent?")
        return answer == QMessageBox.StandardButton.Yes
