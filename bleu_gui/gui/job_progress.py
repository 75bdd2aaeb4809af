"""The status bar's progress bar and Cancel button for the scoring jobs."""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton, QWidget

from .jobs import JobController


class JobProgress(QWidget):
    """Shows while a job of ``jobs`` runs; Cancel cancels it."""

    def __init__(self, jobs: JobController, parent=None):
        super().__init__(parent)
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setMaximumWidth(220)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(jobs.cancel)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.bar)
        row.addWidget(self.cancel_button)
        jobs.started.connect(self.on_started)
        jobs.progress.connect(self.on_progress)
        self.setVisible(False)

    @Slot(int)
    def on_started(self, _job_id: int) -> None:
        self.bar.setValue(0)
        self.setVisible(True)

    @Slot(float)
    def on_progress(self, fraction: float) -> None:
        # Cancel checks inside a step may repeat its start; the bar never moves back.
        self.bar.setValue(max(self.bar.value(), int(1000 * fraction)))
