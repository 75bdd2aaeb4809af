"""Files dropped on the window: Qt's drag events, turned into what :func:`drops.read_drop` says a drop means."""

from __future__ import annotations

from .drops import read_drop


class FileDropTarget:
    """Mixed into the main window, which provides ``run``, ``add_systems``, ``open_files`` and ``show_error``."""

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls() and all(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        event.acceptProposedAction()
        self.on_paths_dropped(paths)

    def on_paths_dropped(self, paths: list[str]) -> None:
        """See :func:`drops.read_drop` for what a drop means."""
        action = read_drop(paths, self.run)
        if action.kind == "add":
            self.add_systems(action.systems)
        elif action.kind == "open":
            self.open_files(action.systems, action.references, source=action.source)
        elif paths:
            self.show_error(action.message)
