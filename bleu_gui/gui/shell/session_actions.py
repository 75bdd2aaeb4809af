"""File ▸ Open session… / Save session…: the dialogs around :mod:`bleu_gui.core.output.sessions`."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from ...core.output.sessions import Session, load_session, save_session
from ..file_dialogs import ask_open, ask_save
from ..state import WindowState


def ask_open_session(parent: QWidget, state: WindowState) -> Session | None:
    """Choose and read a session file; errors raise :class:`InputError` (shown by the caller)."""
    path = ask_open(parent, state, "session", "Open session", "bleu-gui session (*.json)")
    return load_session(path) if path else None


def ask_save_session(parent: QWidget, state: WindowState, session: Session) -> str | None:
    """Choose where to save a session and write it (atomically, never over an input file)."""
    path = ask_save(parent, state, "session", "Save session", "bleu-session.json", "bleu-gui session (*.json)")
    if path:
        save_session(path, session)
    return path or None
