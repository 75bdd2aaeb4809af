"""The cyclic garbage collector runs on the GUI thread only.

CPython collects reference cycles in whichever thread's allocations cross the
collector's threshold. Scoring, searches, QA and exports allocate heavily in pool
threads, so a collection usually happened there, and the garbage it freed could
hold Qt objects: a closed dialog's widgets, a replaced model, a window of an
earlier test, each caught in a cycle through a connected lambda. Their C++
destructors then ran off the GUI thread, which Qt does not allow: the test suite
once hung in CI with the GUI thread, inside a Qt call, waiting for the
interpreter lock that a pool thread held. So, as pyqtgraph's GarbageCollector,
napari and calibre do, automatic collection is turned off and a timer on the GUI
thread collects the oldest generation whose count passed its threshold.

The automatic collector also skips a full pass until the objects that survived
into the old generation since the last one are a quarter of it (CPython's
``long_lived_pending``, which Python cannot read). Without that rule a full
pass fell due every few seconds, and one costs ~0.3 s in a process holding a
few large files (the test suite's); so a full pass runs at most once a minute
here, the young generations whenever due.
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QCoreApplication, QObject, QTimer

_TICK_MS = 200  # between looks at the collector's counts: cycles freed in a worker wait at most this long
_FULL_PASS_EVERY = 60.0  # seconds at least between two full passes


class _GuiThreadCollector(QObject):
    def __init__(self, app: QCoreApplication):
        super().__init__(app)
        self.setObjectName("bleu-gui collector")
        self._thresholds = gc.get_threshold()
        self._last_full = time.monotonic()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.collect_due)
        self._timer.start(_TICK_MS)

    def collect_due(self) -> None:
        counts = gc.get_count()
        if counts[2] > self._thresholds[2] and time.monotonic() - self._last_full >= _FULL_PASS_EVERY:
            gc.collect(2)
            self._last_full = time.monotonic()
        elif counts[1] > self._thresholds[1]:
            gc.collect(1)
        elif counts[0] > self._thresholds[0]:
            gc.collect(0)


def collect_on_the_gui_thread() -> None:
    """Turn automatic garbage collection off and collect on a timer of the GUI thread instead (one timer per
    application); call it on the GUI thread before work starts in other threads."""
    app = QCoreApplication.instance()
    if app is None:
        return
    if app.findChild(_GuiThreadCollector) is None:
        _GuiThreadCollector(app)
    gc.disable()
