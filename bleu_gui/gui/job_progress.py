"""The status bar's progress bar and Cancel button for the scoring jobs."""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QStyle, QStyleOptionProgressBar, QStylePainter, QWidget

from .jobs import JobController

_STEPS = 1000


class ProgressBar(QWidget):
    """A progress bar that repaints on a later turn of the event loop.

    ``QProgressBar.setValue`` repaints at once, and a repaint at once paints
    everything dirty in the window: with the worker holding the interpreter lock,
    the sentence list's rows (one ``data()`` call each, each waiting for the lock)
    took 150-250 ms per progress step.
    """

    def __init__(self, parent=None):
        super().__init__(parent)
        self._value = 0
        self.setMaximumWidth(220)
        self.setMinimumWidth(160)
        self.setFixedHeight(self.fontMetrics().height() + 8)

    def value(self) -> int:
        return self._value

    def setValue(self, value: int) -> None:
        if value != self._value:
            self._value = value
            self.update()

    def paintEvent(self, _event) -> None:
        option = QStyleOptionProgressBar()
        option.initFrom(self)
        option.state |= QStyle.StateFlag.State_Horizontal
        option.minimum, option.maximum, option.progress = 0, _STEPS, self._value
        option.textVisible, option.text = True, f"{self._value * 100 // _STEPS}%"
        option.textAlignment = Qt.AlignmentFlag.AlignCenter
        QStylePainter(self).drawControl(QStyle.ControlElement.CE_ProgressBar, option)


class JobProgress(QWidget):
    """Shows while a job of ``jobs`` runs; Cancel cancels it."""

    def __init__(self, jobs: JobController, parent=None):
        super().__init__(parent)
        self.bar = ProgressBar()
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
        self.bar.setValue(max(self.bar.value(), int(_STEPS * fraction)))
