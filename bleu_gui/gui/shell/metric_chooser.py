"""Which metric the window shows: a list of the run's metrics beside the tabs, following the controller."""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from ..controller import Controller

HUMAN_PROTOCOLS = {"esa": "ESA", "da": "DA", "mqm": "MQM", "sqm": "SQM"}  # a human column as the field writes it


def metric_label(name: str, higher_is_better: bool) -> str:
    """A metric as the chooser lists it: ``TER (lower is better)``; a human column named as its protocol is."""
    name = HUMAN_PROTOCOLS.get(name, name)
    return name if higher_is_better else f"{name} (lower is better)"


class MetricChooser(QWidget):
    """Headers, the sentence list, charts, tests and the matrix show the metric chosen here."""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.combo = QComboBox()
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.combo.setToolTip("The metric every number of the window shows. Scoring settings ▸ chrF / TER adds "
                              "a metric beside BLEU")
        self.combo.activated.connect(self.on_chosen)
        box = QHBoxLayout(self)
        box.setContentsMargins(0, 0, 4, 0)
        box.addWidget(QLabel("Metric"))
        box.addWidget(self.combo)
        controller.run_changed.connect(self.on_run_changed)
        controller.metric_changed.connect(self.on_metric_changed)
        self.setEnabled(False)

    @Slot()
    def on_run_changed(self) -> None:
        run = self.controller.run
        assert run is not None
        self.combo.blockSignals(True)
        self.combo.clear()
        for m in run.metrics:
            self.combo.addItem(metric_label(m.name, m.higher_is_better))
        self.combo.setCurrentIndex(self.controller.metric)
        self.combo.blockSignals(False)
        self.setEnabled(len(run.metrics) > 1)

    @Slot(int)
    def on_metric_changed(self, metric: int) -> None:
        if self.combo.currentIndex() != metric:
            self.combo.setCurrentIndex(metric)

    @Slot(int)
    def on_chosen(self, index: int) -> None:
        self.controller.set_metric(index)
