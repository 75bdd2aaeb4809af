"""The humans' ratings a run read, watched on disk: Pearmut's log grows while raters work, and a dashboard download
is saved over the last; the window offers to read them again (never reads them unasked: a number would change)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, Signal


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


class RatingsWatch(QObject):
    """Signal ``changed(path)``: a watched file differs from what the run read (its time or size), once per change
    until :meth:`watch` is called again."""

    changed = Signal(str)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._on_changed)
        self.read: dict[str, tuple[int, int] | None] = {}

    def watch(self, paths: Sequence[str]) -> None:
        """Watch ``paths`` as they are now (the run just read them); stop watching the others."""
        if self.watcher.files():
            self.watcher.removePaths(self.watcher.files())
        self.read = {str(Path(p).absolute()): _stamp(p) for p in paths}
        existing = [p for p, stamp in self.read.items() if stamp is not None]
        if existing:
            self.watcher.addPaths(existing)

    def written(self, path: str) -> None:
        """The window itself wrote ``path`` (the review desk): the file as it is now is what the run holds."""
        key = str(Path(path).absolute())
        if key in self.read:
            self.read[key] = _stamp(path)
            if key not in self.watcher.files() and Path(path).exists():
                self.watcher.addPath(key)

    def _on_changed(self, path: str) -> None:
        if path not in self.read:
            return
        # A file saved by replacing it (a new download) leaves the watch: watch the new one.
        if path not in self.watcher.files() and Path(path).exists():
            self.watcher.addPath(path)
        if _stamp(path) != self.read[path]:
            self.read[path] = _stamp(path)  # said once per change
            self.changed.emit(path)
