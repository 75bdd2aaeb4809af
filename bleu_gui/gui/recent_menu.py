"""File ▸ Open Recent: the runs opened before, newest first, with their full paths as tooltips."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QMenu

from .settings import Settings


class RecentMenu(QMenu):
    """Signals: ``open_requested(list, list)`` with the systems and references of the chosen entry."""

    open_requested = Signal(object, object)

    def __init__(self, settings: Settings, parent=None):
        super().__init__("Open &Recent", parent)
        self.settings = settings
        self.setToolTipsVisible(True)
        self.refresh()

    def refresh(self) -> None:
        self.clear()
        entries = self.settings.recent()
        for entry in entries:
            systems, refs = entry["systems"], entry["references"]
            label = f"{', '.join(Path(s).name for s in systems)}  ⟵  {', '.join(Path(r).name for r in refs)}"
            action = self.addAction(label)
            action.setToolTip("\n".join([*systems, *refs]))
            action.triggered.connect(lambda _=False, e=entry: self.open_requested.emit(e["systems"], e["references"]))
        self.setEnabled(bool(entries))
