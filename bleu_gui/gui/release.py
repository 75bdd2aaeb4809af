"""Letting go of a replaced run off the GUI thread, a piece at a time.

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

import gc
import queue
import sys
import threading
import time
import types
import weakref

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
