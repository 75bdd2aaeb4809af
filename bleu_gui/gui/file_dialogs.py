"""The window's file dialogs, with one rule for where each starts: the folder last used for that kind of file,
else the folder of the files opened (see :meth:`~.state.WindowState.start_path`). Without a state (a dialog
shown on its own) a dialog starts in the working directory and remembers nothing."""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog, QWidget

from .state import WindowState


def ask_save(parent: QWidget | None, state: WindowState | None, kind: str, title: str, name: str, filters: str = "") -> str:
    """A path to write a ``kind`` of file to ('' when cancelled)."""
    path, _ = QFileDialog.getSaveFileName(parent, title, state.start_path(kind, name) if state is not None else name, filters)
    if path and state is not None:
        state.folder_used(kind, path)
    return path


def ask_open(parent: QWidget | None, state: WindowState | None, kind: str, title: str, filters: str = "") -> str:
    """One file of ``kind`` to read ('' when cancelled)."""
    path, _ = QFileDialog.getOpenFileName(parent, title, state.start_path(kind) if state is not None else "", filters)
    if path and state is not None:
        state.folder_used(kind, path)
    return path


def ask_open_many(parent: QWidget | None, state: WindowState | None, kind: str, title: str, filters: str = "") -> list[str]:
    """Files of ``kind`` to read (none when cancelled)."""
    paths, _ = QFileDialog.getOpenFileNames(parent, title, state.start_path(kind) if state is not None else "", filters)
    if paths and state is not None:
        state.folder_used(kind, paths[0])
    return paths


def ask_folder(parent: QWidget | None, state: WindowState | None, kind: str, title: str) -> str:
    """A folder of ``kind`` ('' when cancelled)."""
    path = QFileDialog.getExistingDirectory(parent, title, state.start_path(kind) if state is not None else "")
    if path and state is not None:
        state.folders[kind] = path
    return path
