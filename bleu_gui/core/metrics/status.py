"""What a long computation says while it runs, beyond its progress fraction (COMET: segments per second, time
left): a line of text for the window's progress bar or the terminal, sent to whoever listens in this context."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_LISTENER: ContextVar[Callable[[str], None] | None] = ContextVar("status_listener", default=None)


def say_status(text: str) -> None:
    """Tell the listener of this context ``text`` (nothing when none listens)."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(text)


@contextmanager
def status_to(listener: Callable[[str], None] | None) -> Iterator[None]:
    """Send what :func:`say_status` says inside the block to ``listener``."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)
