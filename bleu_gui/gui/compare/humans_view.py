"""The window's Humans tab: which score and which error detector to trust, against the run's human ratings — Scores
(metrics against human scores, mt-metrics-eval's statistics), Spans (detectors against the raters' spans) and
Error-free (scores as detectors of the segments with no error). Shown whenever the run holds human ratings (MQM or
ESA spans, a human score column), each view saying what it needs when the run lacks it; a tab of its own, so that
13 systems' tables, their baselines and the scatter keep the window's height."""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QTabWidget, QWidget

from ...core import Run
from ...core.run.meta_eval_run import human_candidates
from ..controller import Controller
from .error_free_panel import ErrorFreePanel
from .metrics_vs_humans import MetricsVsHumansPanel
from .span_panel import SpanAgreementPanel


class HumansView(QTabWidget):
    """See the module."""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.setDocumentMode(True)
        self.scores = MetricsVsHumansPanel(controller)
        self.spans = SpanAgreementPanel(controller)
        self.error_free = ErrorFreePanel(controller)
        self.addTab(self.scores, "Scores")
        self.addTab(self.spans, "Spans")
        self.addTab(self.error_free, "Error-free")
        self.setTabToolTip(0, "Which metric agrees with the human scores (system and segment level)")
        self.setTabToolTip(1, "Which error detector finds the humans' error spans")
        self.setTabToolTip(2, "Which score tells a segment the humans found no error in")
        self.controller = controller
        controller.run_changed.connect(self.on_run_changed)

    @staticmethod
    def wanted(run: Run | None) -> bool:
        """Whether the run holds human ratings of any kind."""
        return run is not None and (bool(human_candidates(run)) or SpanAgreementPanel.wanted(run)
                                    or ErrorFreePanel.wanted(run))

    @Slot()
    def on_run_changed(self) -> None:
        run = self.controller.run
        for k, wanted in enumerate((MetricsVsHumansPanel.wanted(run), SpanAgreementPanel.wanted(run),
                                    ErrorFreePanel.wanted(run))):
            self.setTabEnabled(k, wanted)
        if not self.isTabEnabled(self.currentIndex()):
            for k in range(self.count()):
                if self.isTabEnabled(k):
                    self.setCurrentIndex(k)
                    break
