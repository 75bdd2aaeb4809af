"""File ▸ Open session… / Save session…: the dialogs around :mod:`bleu_gui.core.output.sessions`."""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog, QWidget

from ...core.output.sessions import Session, load_session, save_session


def ask_open_session(parent: QWidget) -> Session | None:
    """Choose and read a session file; errors raise :class:`InputError` (shown by the caller)."""
    path, _ = QFileDialog.getOpenFileName(parent, "Open session", "", "bleu-gui session (*.json)")
    return load_session(path) if path else None


def ask_save_session(parent: QWidget, session: Session) -> str | None:
    """Choose where to save a session and write it (atomically, never over an input file)."""
    path, _ = QFileDialog.getSaveFileName(parent, "Save session", "bleu-session.json", "bleu-gui session (*.json)")
    if path:
        save_session(path, session)
    return path or None
