"""A progress bar and Cancel button for a controller's jobs: the status bar's for scoring, a panel's for its own."""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QSizePolicy, QWidget

from ..jobs import PROGRESS_STEPS, JobController


class ProgressBar(QProgressBar):
    """A progress bar that repaints on a later turn of the event loop, and paints without Python.

    ``QProgressBar.setValue`` repaints at once, and a repaint at once paints
    everything dirty in the window: with the worker holding the interpreter lock,
    the sentence list's rows (one ``data()`` call each, each waiting for the lock)
    took 150-250 ms per progress step. Here the value is set with updates off,
    and turning them back on asks for a repaint on a later turn instead.

    The paint itself is QProgressBar's, in C++: a paintEvent written in Python
    made seven calls into Qt per paint, each giving up the interpreter lock and
    waiting for a scoring thread to hand it back (up to 38 ms a paint at 300,000
    lines).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(0, PROGRESS_STEPS)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setMaximumWidth(300)
        self.setMinimumWidth(160)
        # QProgressBar expands; in the status bar that stretched the Cancel button beside it.
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def setValue(self, value: int) -> None:
        if value != self.value():
            self.setUpdatesEnabled(False)
            super().setValue(value)
            self.setUpdatesEnabled(True)


class JobProgress(QWidget):
    """Shows while a job of ``jobs`` runs, and hides when none is left; Cancel cancels it."""

    def __init__(self, jobs: JobController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bar = ProgressBar()
        # What the job does now, beside the bar (inside it a COMET line was cut at 1366 px: "Loading COMET model /ho…").
        self.step = QLabel("")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(jobs.cancel)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.step)
        row.addWidget(self.bar)
        row.addWidget(self.cancel_button)
        jobs.started.connect(self.on_started)
        jobs.progress.connect(self.on_progress)
        jobs.step.connect(self.on_step)
        jobs.ended.connect(lambda _job_id: self.setVisible(jobs.busy))
        self.setVisible(False)

    @Slot(int)
    def on_started(self, _job_id: int) -> None:
        self.bar.setValue(0)
        self.setVisible(True)

    @Slot(str)
    def on_step(self, text: str) -> None:
        """The bar names what the job does now ("Scoring TER 40%"): which metric the user is waiting for."""
        self.step.setText(text)
        self.bar.setToolTip(text)

    @Slot(float)
    def on_progress(self, fraction: float) -> None:
        # Cancel checks inside a step may repeat its start; the bar never moves back.
        self.bar.setValue(max(self.bar.value(), int(PROGRESS_STEPS * fraction)))
