"""Errors the core raises for bad input or bad settings, and the fields their messages name.

Every message is one line meant for the user: it names the file (and line and
byte offset where that applies) and says what is wrong; an option or setting that
would fix it is named as a field (:func:`term`), which each front end words in
its own terms.
"""

from __future__ import annotations

import re
from collections.abc import Callable


class InputError(Exception):
    """An input file or folder cannot be used; the message says why (``str()`` words its fields plainly; the
    command and the window word them with :func:`worded`)."""

    def __str__(self) -> str:
        return worded(super().__str__(), plainly)

    @property
    def raw(self) -> str:
        """The message with its fields unworded."""
        return super().__str__()


class ConfigError(InputError):
    """A combination of settings that cannot produce a meaningful number."""


class Cancelled(Exception):
    """Raised inside a long computation when its progress callback asks it to stop."""


class ExportError(Exception):
    """An export cannot be written; the message names the target and why. Nothing was changed."""


# A field inside a message: an input option (``langs``) or a metric's setting (``ter.asian_support``), with a value
# where the message gives one. The core never writes a flag or a dialog's field: each front end words the field
# (``bleu-score``: ``--langs SRC TGT``; the window: "Languages (File ▸ Open)"), by :func:`worded`.
_TERM = re.compile(r"⟦([\w.]+)(?:=([^⟧]*))?⟧")


def term(name: str, value: object = None) -> str:
    """The field ``name`` (with ``value``, when the message gives one) inside a message, for a front end to word."""
    return f"⟦{name}{'' if value is None else f'={value}'}⟧"


def worded(message: str, word: Callable[[str, str | None], str]) -> str:
    """``message`` with every field in the words ``word(name, value)`` gives it."""
    return _TERM.sub(lambda m: word(m.group(1), m.group(2)), message)


def plainly(name: str, value: str | None) -> str:
    """A field in plain words, for a message read outside the command and the window (a log, a test)."""
    shown = name.split(".")[-1].replace("_", " ")
    return shown if value is None else f"{shown} {value}"


def fields_of(message: str) -> list[str]:
    """The fields a message names, in order (the window marks the first in its dialog)."""
    return [m.group(1) for m in _TERM.finditer(message)]
