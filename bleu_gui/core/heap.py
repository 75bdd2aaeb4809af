"""Handing freed memory back to the system between the phases of a run.

glibc keeps memory freed by a program for its next allocations, in the main heap and in one arena per
thread that allocated. After the references are indexed on worker threads, ~300 MB of a million lines of
3M word types sat freed but resident, and the next phase's own working set came on top of it.
``malloc_trim`` returns such pages (~20 ms). Other C libraries have no such call; there this does nothing.
"""

from __future__ import annotations

import ctypes
import functools
import sys
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # another C library (musl has no malloc_trim)
        return None


def release_free_memory() -> bool:
    """Give freed heap memory back to the system where the C library can (glibc); True if it could."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
