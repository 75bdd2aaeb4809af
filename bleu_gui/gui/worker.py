"""Scoring off the GUI thread: a QRunnable per job, its signals owned by a GUI-side controller.

Following superqt/napari: the runnable is not a QObject, so its signals live on
the controller (which outlives every job); cancelling sets a flag that the
core's progress callback checks between chunks; every job has an id and a
result whose id is not the current one is dropped; ``run`` catches everything
and reports it as a signal.
"""

from __future__ import annotations

import threading
import traceback
from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

from ..core import Cancelled, InputError
from ..core.errors import ExportError

Work = Callable[[Callable[[float], None]], object]


@dataclass
class _Job:
    id: int
    cancel: threading.Event


class _Runnable(QRunnable):
    def __init__(self, controller: "JobController", job: _Job, work: Work):
        super().__init__()
        self.setAutoDelete(True)
        self._controller, self._job, self._work = controller, job, work

    def run(self) -> None:  # runs in a pool thread: never touch widgets here
        job, ctl = self._job, self._controller

        def progress(fraction: float) -> None:
            if job.cancel.is_set():
                raise Cancelled()
            ctl._progress.emit(job.id, float(fraction))

        try:
            result = self._work(progress)
        except Cancelled:
            pass  # the controller reported the cancel when it was asked for
        except (InputError, ExportError) as exc:
            ctl._failed.emit(job.id, str(exc), "")
        except Exception as exc:  # noqa: BLE001 - every error must reach the user, not kill the thread
            ctl._failed.emit(job.id, f"{type(exc).__name__}: {exc}", traceback.format_exc())
        else:
            ctl._done.emit(job.id, result)


class JobController(QObject):
    """Runs one job at a time from the GUI's point of view; a newer job makes older ones stale.

    Signals (only for the current job; stale ones are dropped):
      ``started(int)``            job id
      ``progress(float)``         fraction done, 0..1
      ``finished(int, object)``   job id, result
      ``failed(str, str)``        one-line message, traceback text ("" for input errors)
      ``cancelled(int)``          job id
    """

    started = Signal(int)
    progress = Signal(float)
    finished = Signal(int, object)
    failed = Signal(str, str)
    cancelled = Signal(int)

    # Cross-thread carriers; queued to the GUI thread because this object lives there.
    _progress = Signal(int, float)
    _done = Signal(int, object)
    _failed = Signal(int, str, str)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self._next_id = 0
        self._current: _Job | None = None
        self._progress.connect(self._on_progress)
        self._done.connect(self._on_done)
        self._failed.connect(self._on_failed)

    @property
    def busy(self) -> bool:
        return self._current is not None

    def submit(self, work: Work) -> int:
        """Start ``work(progress)`` in the pool, cancelling whatever ran before; returns the job id."""
        self.cancel()
        self._next_id += 1
        job = _Job(self._next_id, threading.Event())
        self._current = job
        self.pool.start(_Runnable(self, job, work))
        self.started.emit(job.id)
        return job.id

    def cancel(self) -> None:
        """Ask the current job to stop; its result, if any, will be dropped."""
        if self._current is not None:
            self._current.cancel.set()
            cancelled_id = self._current.id
            self._current = None
            self.cancelled.emit(cancelled_id)

    def shutdown(self, timeout_ms: int = 30_000) -> bool:
        """Cancel and wait for the pool to finish (call before the window is destroyed)."""
        self.cancel()
        return self.pool.waitForDone(timeout_ms)

    def _is_current(self, job_id: int) -> bool:
        return self._current is not None and self._current.id == job_id

    @Slot(int, float)
    def _on_progress(self, job_id: int, fraction: float) -> None:
        if self._is_current(job_id):
            self.progress.emit(fraction)

    @Slot(int, object)
    def _on_done(self, job_id: int, result: object) -> None:
        if self._is_current(job_id):
            self._current = None
            self.finished.emit(job_id, result)

    @Slot(int, str, str)
    def _on_failed(self, job_id: int, message: str, details: str) -> None:
        if self._is_current(job_id):
            self._current = None
            self.failed.emit(message, details)
