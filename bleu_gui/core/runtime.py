"""Process-wide tricks that keep a large run fast and the window responsive, each with why it is here.

- **Freed memory back to the system** (:func:`release_free_memory`, :func:`release_now_and_then`): glibc's
  ``malloc_trim`` between and inside the phases of a run.
- **Letting go of a replaced run off the GUI thread** (:func:`let_go`): a daemon thread frees its large
  containers a slice at a time.
- **Out of the garbage collector's full passes** (:func:`out_of_gc_passes`): ``gc.freeze`` once a run is large.
- **The interpreter lock handed over often** (:func:`share_the_lock_often`): a short switch interval while
  workers run beside the window.

Nothing here imports Qt: the window calls these, and the core's long loops call the first.

Freed memory
------------
glibc keeps memory freed by a program for its next allocations, in the main heap and in one arena per
thread that allocated. After the references are indexed on worker threads, ~300 MB of a million lines of
3M word types sat freed but resident, and the next phase's own working set came on top of it.
``malloc_trim`` returns such pages (~20 ms). The same holes open all through a long phase: each block of
words and matches is freed on its own thread, and the next is not placed in its holes. So long loops also
release every half second. On those million lines the whole command then peaked at 1,402-1,416 MB instead
of 1,530-1,579 (releases at phase ends only), for ~4 s more system time on two threads: a page handed back
and used again is a fresh page to the kernel (every second: 1,440-1,458 MB, ~3 s; every two: 1,448-1,479 MB).
A phase of fewer than ``RELEASE_FROM_LINES`` lines frees a few megabytes at most and trims nothing. The trim
itself is short (0.2-0.4 ms a call in a test process, up to 5 ms), but the pages it hands back are the ones the
next allocations fault in again: sacreBLEU's parity tests, many small runs in one process, took 60.6 s with a
trim after each phase and 53.8 s without (2026-11-28).
Other C libraries have no such call; there this does nothing.

Letting go of a replaced run
----------------------------
Dropping the last reference to a run of a million lines frees two million
strings in one cascade that holds the interpreter lock throughout (0.1-0.2 s;
about 20 ms at 100k lines). When a new run replaced the shown one, that cascade
ran on the GUI thread and the window froze. Instead the window hands the old run
to :func:`let_go`: a daemon thread empties its large lists and dicts a slice at
a time (a few milliseconds each, so the GUI thread gets the lock in between) and
then drops what is left.

Only containers that nothing outside the old run can reach are emptied. Which
those are is decided as the cyclic garbage collector decides what is garbage:
every object reachable from the run has its reference count compared with the
references it gets from inside; one held from outside (the same files re-scored,
a slice's whole corpus, a weak reference) keeps itself and all it reaches as it
is. Nothing outside can reach the rest, so emptying it cannot change anything
that is shown or scored.
"""

from __future__ import annotations

import ctypes
import functools
import gc
import queue
import sys
import threading
import time
import types
import weakref
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
RELEASE_FROM_LINES = 20_000  # a phase over fewer lines frees too little to pay for a trim (see above)
_last = [0.0]


def release_free_memory(lines: int) -> bool:
    """After a phase over ``lines`` lines, give freed heap memory back to the system where the C library can
    (glibc) and the phase was large enough to free much; True if it did."""
    trim = _malloc_trim()
    if trim is None or lines < RELEASE_FROM_LINES:
        return False
    trim(0)  # a foreign call: other threads run meanwhile
    _last[0] = time.monotonic()
    return True


def release_now_and_then(lines: int) -> None:
    """:func:`release_free_memory`, unless that was done less than half a second ago (call it in the long loops
    of a phase over ``lines`` lines)."""
    if time.monotonic() - _last[0] >= _PERIOD:
        release_free_memory(lines)


# -- garbage collector and interpreter lock ------------------------------------------------------------
_FREEZE_LINES = 100_000  # segments in a run from which its objects are kept out of the collector's full passes
# How long a thread may keep the interpreter lock while another asks for it. Every call from Qt into Python
# (a model's index or data, a paint) needs the lock: with a worker busy, the GUI thread waited up to the
# default 5 ms for each, and repainting a million-line list during a text search took 0.8 s (0.3 s at
# 0.5 ms). An idle GUI thread asks for nothing, so the worker loses nothing then.
_SWITCH_INTERVAL = 0.0005


def out_of_gc_passes(segments: int) -> None:
    """Keep everything alive now out of the cyclic garbage collector's full passes (``gc.freeze``) when a run
    is large.

    A full pass visits every line of every open file: ~100 ms at a million lines, with the interpreter lock
    held, so the window froze whenever one ran (during scoring, or later on any click). Frozen objects are
    still freed when their last reference goes; only objects caught in reference cycles would outlive their
    use (until the window closes).
    """
    if segments >= _FREEZE_LINES:
        gc.freeze()


def share_the_lock_often() -> None:
    """Let a thread keep the interpreter lock at most half a millisecond while another asks for it (see
    ``_SWITCH_INTERVAL``)."""
    sys.setswitchinterval(min(sys.getswitchinterval(), _SWITCH_INTERVAL))


# -- letting go of a replaced run -----------------------------------------------------------------------
_LARGE = 10_000  # lists and dicts this long are emptied a slice at a time (shorter ones go with their holder)
_SLICE = 5_000  # items freed per slice: about a millisecond of the lock for strings
_PAUSE = 0.001  # seconds between slices (a million lines: about half a second in all)
_PATIENCE = 2.0  # seconds to wait for the window's last references to the old run to go, checked every 50 ms
# Seconds between the hand-over and the first slice: the window paints the new run, its list and its charts
# meanwhile. Each of those paints takes the interpreter lock hundreds of times, and a slice running at the
# same moment made it wait at every one (a 70 ms stall as a million lines were shown).
_SETTLE = 0.5
_OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)

_queue: queue.SimpleQueue = queue.SimpleQueue()
_thread: threading.Thread | None = None


def let_go(*objects: object) -> None:
    """Hand the caller's references to ``objects`` over to the releasing thread (the caller drops its own)."""
    global _thread
    handed = time.monotonic()
    for obj in objects:
        if obj is not None:
            _queue.put((handed, obj))
    if _thread is None:
        _thread = threading.Thread(target=_serve, name="bleu-gui release", daemon=True)
        _thread.start()


def _serve() -> None:
    while True:
        handed, obj = _queue.get()
        box = [obj]
        del obj
        time.sleep(max(handed + _SETTLE - time.monotonic(), 0.0))
        deadline = time.monotonic() + _PATIENCE
        while not empty_unreachable(box) and time.monotonic() < deadline:
            time.sleep(0.05)  # the window may still be dropping its own references
        box.clear()


def empty_unreachable(box: list) -> bool:
    """Empty, a slice at a time, the large lists and dicts that only ``box[0]`` reaches (``box`` holding the
    only other reference to it). False when something else still holds ``box[0]`` itself."""
    objects = _reachable(box[0])
    alive = _held_from_outside(objects, held_here={id(box[0])})
    if alive[0]:
        return False
    large = [o for o, a in zip(objects, alive) if not a and _is_large(o)]
    del objects, alive
    for container in large:
        while container:
            if isinstance(container, list):
                del container[-_SLICE:]
            else:
                for _ in range(min(len(container), _SLICE)):
                    container.popitem()
            time.sleep(_PAUSE)  # the lock stays free between slices: a GUI callback never waits behind several
    return True


def _is_large(obj: object) -> bool:
    return isinstance(obj, (list, dict)) and len(obj) >= _LARGE


def _opens(obj: object) -> bool:
    """Whether to look inside: large containers are emptied whole, their items are not visited."""
    return not isinstance(obj, _OPAQUE) and not (isinstance(obj, (list, dict, tuple, set)) and len(obj) >= _LARGE)


def _reachable(root: object) -> list:
    """``root`` first, then every container it reaches (objects the collector does not track hold no others)."""
    objects, seen = [root], {id(root)}
    for obj in objects:  # grows while it is walked
        if _opens(obj):
            for ref in gc.get_referents(obj):
                if id(ref) not in seen and (gc.is_tracked(ref) or isinstance(ref, (list, dict))):
                    seen.add(id(ref))
                    objects.append(ref)
    return objects


def _counts(objects: list) -> list[int]:
    return [sys.getrefcount(obj) for obj in objects]


_OWN = _counts([object()])[0]  # what _counts reports for an object that only the list holds


def _held_from_outside(objects: list, held_here: set[int]) -> list[bool]:
    """For each object: whether something outside ``objects`` holds it, or it is reached from one that is.
    ``held_here``: ids whose one extra reference is the caller's own."""
    index = {id(obj): i for i, obj in enumerate(objects)}
    inside = _references_inside(objects, index)
    counts = _counts(objects)  # no local of this function refers to any of them now
    alive = [count - _OWN - inside[i] - (id(obj) in held_here) > 0 or weakref.getweakrefcount(obj) > 0
             for i, (obj, count) in enumerate(zip(objects, counts))]
    stack = [i for i, a in enumerate(alive) if a]
    while stack:
        for i in _referents_in(objects[stack.pop()], index):
            if not alive[i]:
                alive[i] = True
                stack.append(i)
    return alive


def _referents_in(obj: object, index: dict[int, int]) -> list[int]:
    return [index[id(ref)] for ref in gc.get_referents(obj) if id(ref) in index] if _opens(obj) else []


def _references_inside(objects: list, index: dict[int, int]) -> list[int]:
    """How many references each object gets from the others."""
    inside = [0] * len(objects)
    for i in (i for obj in objects for i in _referents_in(obj, index)):
        inside[i] += 1
    return inside
