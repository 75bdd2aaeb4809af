"""Scoring off the GUI thread: a QRunnable per job, its signals owned by a GUI-side controller.

Following superqt/napari: the runnable is not a QObject, so its signals live on
the controller (which outlives every job); cancelling sets a flag that the
core's progress callback checks between chunks; every job has an id and a
result whose job is no longer live is dropped; ``run`` catches everything and
reports it as a signal. As superqt's workers, each job carries its own typed
completion callback, so no result is ever told apart by its type.
"""

from __future__ import annotations

import itertools
import threading
import traceback
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

from ..core import Cancelled, InputError
from ..core.errors import ExportError
from ..core.runtime import share_the_lock_often
from .collector import collect_on_the_gui_thread
from .window_words import raw

T = TypeVar("T")
PROGRESS_STEPS = 1000  # the progress bar's steps: a job reports its progress when it moves the bar

Work = Callable[[Callable[[float], None]], T]
# Work that hands results over before it is done: called with the progress callback, ``early(result)`` and
# ``step(text)`` (what it is doing now, e.g. "Scoring TER").
StagedWork = Callable[[Callable[[float], None], Callable[[object], None], Callable[[str], None]], T]


@dataclass
class _Job(Generic[T]):
    id: int
    cancel: threading.Event
    on_done: Callable[[T], None]
    on_failed: Callable[[str, str], None] | None = None
    on_early: Callable[[object], None] | None = None




class _Runnable(QRunnable):
    def __init__(self, controller: JobController, job: _Job, work: Work):
        super().__init__()
        self.setAutoDelete(True)
        self._controller, self._job, self._work = controller, job, work

    def run(self) -> None:  # runs in a pool thread: never touch widgets here
        job, ctl = self._job, self._controller

        shown = [-1]  # the progress bar's step reported last

        def progress(fraction: float) -> None:
            if job.cancel.is_set():
                raise Cancelled()
            # Only a step of the bar forward is sent: each one is a queued call that waits on the GUI thread for
            # the lock (taking it from the next metric's scoring), the core repeats or trails its fractions (cancel
            # checks at a step's start; a system's chunks are matched two behind their tokenizing, and both
            # report), and a staged open of 2,000 lines reported ~300 fractions, most under a step apart.
            step = int(fraction * PROGRESS_STEPS)
            if step > shown[0]:
                shown[0] = step
                ctl._progress.emit(job.id, float(fraction))

        try:
            result = self._work(progress)
        except Cancelled:
            pass  # the controller reported the cancel when it was asked for
        except (InputError, ExportError) as exc:
            ctl._failed.emit(job.id, raw(exc), "")
        except Exception as exc:  # noqa: BLE001 - every error must reach the user, not kill the thread
            ctl._failed.emit(job.id, f"{type(exc).__name__}: {exc}", traceback.format_exc())
        else:
            ctl._done.emit(job.id, result)


class JobController(QObject):
    """Runs work in a pool thread and hands each result to the callback its job was submitted with.

    ``exclusive=True`` (scoring): a new job cancels the one before, whose result
    is then dropped. ``exclusive=False`` (exports): jobs run side by side and
    each reports its own outcome.

    Signals (for live jobs only; a cancelled or stale job emits nothing more):
      ``started(int)``      job id
      ``progress(float)``   fraction done, 0..1 (of the newest live job)
      ``step(str)``         what a staged job is doing now ("Scoring TER"); "" when a job starts
      ``finished(int)``     job id, after its ``on_done`` callback ran
      ``failed(str, str)``  one-line message, traceback text ("" for input errors), when no ``on_failed`` was given
      ``cancelled(int)``    job id
      ``ended(int)``        job id, whenever a live job stops: done, failed or cancelled
    """

    started = Signal(int)
    progress = Signal(float)
    step = Signal(str)
    finished = Signal(int)
    failed = Signal(str, str)
    cancelled = Signal(int)
    ended = Signal(int)

    # Cross-thread carriers; queued to the GUI thread because this object lives there.
    _progress = Signal(int, float)
    _early = Signal(int, object)
    _step = Signal(int, str)
    _done = Signal(int, object)
    _failed = Signal(int, str, str)

    live_controllers: weakref.WeakSet[JobController] = weakref.WeakSet()

    def __init__(self, parent: QObject | None = None, exclusive: bool = True):
        super().__init__(parent)
        share_the_lock_often()
        collect_on_the_gui_thread()  # a worker's collection would destroy Qt objects off the GUI thread
        self.exclusive = exclusive
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1 if exclusive else 2)
        self._ids = itertools.count(1)
        self._live: dict[int, _Job] = {}
        self._progress.connect(self._on_progress)
        self._done.connect(self._on_done)
        self._early.connect(self._on_early)
        self._step.connect(self._on_step)
        self._failed.connect(self._on_failed)
        JobController.live_controllers.add(self)

    @property
    def busy(self) -> bool:
        return bool(self._live)

    def submit(self, work: Work[T], on_done: Callable[[T], None],
               on_failed: Callable[[str, str], None] | None = None) -> int:
        """Start ``work(progress)`` in the pool; ``on_done(result)`` runs on the GUI thread. Returns the job id."""
        return self._start(_Job(next(self._ids), threading.Event(), on_done, on_failed), work)

    def submit_staged(self, work: StagedWork[T], on_early: Callable[[object], None], on_done: Callable[[T], None],
                      on_failed: Callable[[str, str], None] | None = None) -> int:
        """:meth:`submit` for work that hands over results before it is done: ``work(progress, early)``; each
        ``early(result)`` reaches ``on_early`` on the GUI thread while the job is live (a cancelled job's never);
        each ``step(text)`` is the :attr:`step` signal."""
        job = _Job(next(self._ids), threading.Event(), on_done, on_failed, on_early)

        def early(result: object) -> None:
            self._early.emit(job.id, result)

        def step(text: str) -> None:
            self._step.emit(job.id, text)

        return self._start(job, lambda progress: work(progress, early, step))

    def _start(self, job: _Job, work: Work) -> int:
        if self.exclusive:
            self.cancel()
        self._live[job.id] = job
        self.pool.start(_Runnable(self, job, work))
        self.started.emit(job.id)
        self.step.emit("")
        return job.id

    def cancel(self) -> None:
        """Ask every live job to stop; their results, if any, will be dropped."""
        for job in list(self._live.values()):
            job.cancel.set()
            del self._live[job.id]
            self.cancelled.emit(job.id)
            self.ended.emit(job.id)

    def shutdown(self, timeout_ms: int = 30_000) -> bool:
        """Cancel and wait for the pool to finish (call before the window is destroyed)."""
        self.cancel()
        return self.pool.waitForDone(timeout_ms)

    @Slot(int, float)
    def _on_progress(self, job_id: int, fraction: float) -> None:
        if job_id in self._live:
            self.progress.emit(fraction)

    @Slot(int, str)
    def _on_step(self, job_id: int, text: str) -> None:
        if job_id in self._live:
            self.step.emit(text)

    @Slot(int, object)
    def _on_early(self, job_id: int, result: object) -> None:
        job = self._live.get(job_id)
        if job is not None and job.on_early is not None:
            job.on_early(result)

    @Slot(int, object)
    def _on_done(self, job_id: int, result: object) -> None:
        job = self._live.pop(job_id, None)
        if job is not None:
            job.on_done(result)
            self.finished.emit(job_id)
            self.ended.emit(job_id)

    @Slot(int, str, str)
    def _on_failed(self, job_id: int, message: str, details: str) -> None:
        job = self._live.pop(job_id, None)
        if job is None:
            return
        if job.on_failed is not None:
            job.on_failed(message, details)
        else:
            self.failed.emit(message, details)
        self.ended.emit(job_id)
