"""Errors the core raises for bad input or bad settings.

Every message is one line meant for the user: it names the file (and line and
byte offset where that applies) and says what is wrong.
"""


class InputError(Exception):
    """An input file or folder cannot be used; the message says why."""


class ConfigError(InputError):
    """A combination of settings that cannot produce a meaningful number."""


class Cancelled(Exception):
    """Raised inside a long computation when its progress callback asks it to stop."""


class ExportError(Exception):
    """An export cannot be written; the message names the target and why. Nothing was changed."""
