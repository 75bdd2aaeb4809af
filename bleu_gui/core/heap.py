"""Handing freed memory back to the system between the phases of a run.

glibc keeps memory freed by a program for its next allocations, in the main heap and in one arena per
thread that allocated. After the references are indexed on worker threads, ~300 MB of a million lines of
3M word types sat freed but resident, and the next phase's own working set came on top of it.
``malloc_trim`` returns such pages (~20 ms). The same holes open all through a long phase: each block of
words and matches is freed on its own thread, and the next is not placed in its holes. So long loops also
release every half second. On those million lines the whole command then peaked at 1,402-1,416 MB instead
of 1,530-1,579 (releases at phase ends only), for ~4 s more system time on two threads: a page handed back
and used again is a fresh page to the kernel (every second: 1,440-1,458 MB, ~3 s; every two: 1,448-1,479 MB).
Other C libraries have no such call; there this does nothing.
"""

from __future__ import annotations

import ctypes
import functools
import sys
import time
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # another C library (musl has no malloc_trim)
        return None


_PERIOD = 0.5  # seconds between releases inside a loop (see above)
_last = [0.0]


def release_free_memory() -> bool:
    """Give freed heap memory back to the system where the C library can (glibc); True if it could."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)  # a foreign call: other threads run meanwhile
    _last[0] = time.monotonic()
    return True


def release_now_and_then() -> None:
    """:func:`release_free_memory`, unless that was done less than half a second ago (call it in long loops)."""
    if time.monotonic() - _last[0] >= _PERIOD:
        release_free_memory()
