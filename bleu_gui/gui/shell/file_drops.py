"""Files dropped on the window: Qt's drag events, turned into what :func:`drops.read_drop` says a drop means."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QWidget

from ..controller import Controller
from .drops import read_drop
from .run_actions import RunActions


class FileDrops(QObject):
    """Watches a widget (the main window) for dropped files and starts what the drop means.

    Signal of its own: none; a drop it cannot use goes to ``actions.refused``."""

    def __init__(self, target: QWidget, controller: Controller, actions: RunActions):
        super().__init__(target)
        self.controller, self.actions = controller, actions
        target.setAcceptDrops(True)
        target.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.DragEnter and isinstance(event, QDragEnterEvent):
            data = event.mimeData()
            if data.hasUrls() and all(u.isLocalFile() for u in data.urls()):
                event.acceptProposedAction()
            return True
        if event.type() == QEvent.Type.Drop and isinstance(event, QDropEvent):
            paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
            event.acceptProposedAction()
            self.on_paths_dropped(paths)
            return True
        return super().eventFilter(watched, event)

    def on_paths_dropped(self, paths: list[str]) -> None:
        """See :func:`drops.read_drop` for what a drop means."""
        action = read_drop(paths, self.controller.whole_run)
        if action.kind == "add":
            self.actions.add_systems(action.systems)
        elif action.kind == "open":
            self.actions.open_files(action.systems, action.references, source=action.source)
        elif paths:
            self.actions.refused.emit(action.message)
