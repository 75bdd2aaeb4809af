"""What the Humans tab's Spans and Error-free views share: a result computed in a worker when asked, for the run
it was asked on, kept while the same files and metrics are shown (systems re-ordered elsewhere), a hint line that
says what was found or what is needed, and the button that asks."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPushButton, QSizePolicy, QWidget

from ...core import Run
from ..controller import Controller
from ..jobs import JobController
from ..widgets.style import styled


class WorkerPanel(QWidget):
    """See the module; a subclass sets :attr:`button`'s text and connects it, and fills :attr:`found`."""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.jobs = JobController(self)
        self.found: object | None = None
        self._shown_for: Run | None = None
        self.button = QPushButton()
        self.note = styled(QLabel(), "hint")
        self.note.setWordWrap(True)
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.jobs.failed.connect(lambda message, _details: self._ready(message))
        self.jobs.cancelled.connect(lambda _job: self._ready("Cancelled."))

    def _ready(self, said: str) -> None:
        self.button.setEnabled(True)
        self.note.setText(said)

    def _still_shown(self, run: Run | None) -> bool:
        """Whether ``run`` holds what the result shown was computed on: the very files of each system (by name:
        a pair chosen elsewhere re-orders them) and the very metric objects."""
        before = self._shown_for
        if self.found is None or run is None or before is None:
            return False
        return ({s.name: s.file for s in run.systems} == {s.name: s.file for s in before.systems}
                and len(run.metrics) == len(before.metrics)
                and all(a is b for a, b in zip(run.metrics, before.metrics)))

    def _landed(self, run: Run, found: object) -> bool:
        """Take ``found``, computed on ``run``, unless another run is shown by now (then its numbers are not this
        one's: dropped)."""
        if run is not self.controller.run:
            return False
        self.found, self._shown_for = found, run
        return True
