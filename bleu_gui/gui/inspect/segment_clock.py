"""The time a reviewer spends on each segment: counted while the segment is on screen and the window is the active
one, summed over every visit, and handed over (and started again from zero) when the segment is judged — the review
file's ``seconds``."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable


class SegmentClock:
    """See the module. ``now``: seconds of a monotonic clock (a test gives its own)."""

    def __init__(self, now: Callable[[], float] = time.monotonic):
        self.now = now
        self.spent: dict[Hashable, float] = {}
        self.on: Hashable | None = None      # the segment shown
        self.since: float | None = None      # when its current stretch began (None: paused, or nothing shown)

    def show(self, key: Hashable | None) -> None:
        """``key`` is on screen now (None: nothing is); the stretch of the one before is banked."""
        self._bank()
        self.on = key
        self.since = self.now() if key is not None else None

    def pause(self) -> None:
        """The window is not the active one: time is not counted until :meth:`resume`."""
        self._bank()
        self.since = None

    def resume(self) -> None:
        if self.on is not None and self.since is None:
            self.since = self.now()

    def take(self, key: Hashable) -> float:
        """The seconds spent on ``key`` since it was last taken (the stretch running now included); from zero
        again."""
        if key == self.on:
            self._bank()  # a stretch running goes on, from now
        return self.spent.pop(key, 0.0)

    def _bank(self) -> None:
        if self.on is not None and self.since is not None:
            t = self.now()
            self.spent[self.on] = self.spent.get(self.on, 0.0) + (t - self.since)
            self.since = t
