"""Humans ▸ Error-free: which score tells an error-free segment (WMT26; see core.analysis.error_free) — every metric
of the run as a detector of the segments the humans found no error in, its precision-recall curve, average precision,
best F1 and the threshold reaching the precision asked; the calibration saved for triage on new text. A changed
threshold or precision clears the results until evaluated again: nothing changes a number silently."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import QModelIndex, Qt, Slot
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFileDialog,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ...core import Run, palette
from ...core.analysis.error_free import DEFAULT_PRECISION, ESA_THRESHOLD, Curve
from ...core.errors import InputError
from ...core.run.error_free_run import ErrorFree, human_files, run_error_free
from ..controller import Controller
from ..widgets.item_tables import cell as _cell
from ..widgets.item_tables import fill as _fill
from ..widgets.item_tables import item_table as _table
from ..widgets.item_tables import model_of
from ..widgets.item_tables import name_item as _name
from ..widgets.job_progress import JobProgress
from ..widgets.layout import STRETCH, hrow
from .worker_panel import WorkerPanel


def _spin(name: str, bounds: tuple[float, float, int, float], value: float, tip: str) -> QDoubleSpinBox:
    """A number field (low, high, decimals, step) that changes by a deliberate act only (the wheel with focus)."""
    field = QDoubleSpinBox()
    field.setObjectName(name)
    low, high, decimals, step = bounds
    field.setRange(low, high)
    field.setDecimals(decimals)
    field.setSingleStep(step)
    field.setValue(value)
    field.setToolTip(tip)
    field.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    return field


class ErrorFreePanel(WorkerPanel):
    """See the module."""

    found: ErrorFree | None

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(controller, parent)
        self.threshold = _spin("errorFreeThreshold", (0.0, 100.0, 1, 1.0), ESA_THRESHOLD,
                               "A segment is error-free when its human ESA (or DA) score is at least this and no "
                               "rater marked an error span (WMT26: 85); MQM alone: no error marked")
        self.precision = _spin("errorFreePrecision", (0.5, 1.0, 2, 0.01), DEFAULT_PRECISION,
                               "The precision a calibrated threshold reaches: the lowest threshold above which that "
                               "share of segments is error-free")
        for field in (self.threshold, self.precision):
            field.valueChanged.connect(self._settings_changed)
        self.button.setText("Evaluate the scores")
        self.button.clicked.connect(self.evaluate)
        self.save = QPushButton("Save calibration…")
        self.save.setToolTip("Each metric's curve, signed with the human files, for triage on new text "
                             "(bleu-score --triage calibrated:P --triage-calibration FILE)")
        self.save.setEnabled(False)
        self.save.clicked.connect(self._save)
        self.progress = JobProgress(self.jobs)
        self.table = _table("errorFreeTable")
        self.table.clicked.connect(self._metric_chosen)
        self.plot = pg.PlotWidget(background=palette.BACKGROUND)
        self.plot.setObjectName("errorFreeCurve")
        self.plot.setLabel("bottom", "recall (of the error-free segments)")
        self.plot.setLabel("left", "precision")
        self.plot.setXRange(0, 1)
        self.plot.setYRange(0, 1)
        self.plot.addLegend(offset=(-10, -10))
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.table)
        split.addWidget(self.plot)
        split.setSizes([700, 500])
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(hrow("Error-free: human score ≥", self.threshold, "and no error span; precision asked",
                           self.precision, self.button, self.progress, self.save, STRETCH))
        box.addWidget(self.note)
        box.addWidget(split, 1)
        controller.run_changed.connect(self.on_run_changed)

    @staticmethod
    def wanted(run: Run | None) -> bool:
        """Whether the run has human ratings to label segments with."""
        return run is not None and (bool(run.annotated) or any(s.file.rated for s in run.systems))

    def _clear(self) -> None:
        self.jobs.cancel()
        self.found = None
        model_of(self.table).clear()
        self.plot.clear()
        self.save.setEnabled(False)

    @Slot()
    def on_run_changed(self) -> None:
        run = self.controller.run
        if self._still_shown(run):
            return
        self._clear()
        if not self.wanted(run):
            self._ready("No human ratings in this run: error-free segments are the humans' to say.")
            self.button.setEnabled(False)
            return
        self._ready("Which score tells an error-free segment? Evaluate: every metric of the run against the humans' "
                    "label, with the threshold that is error-free as often as asked.")

    @Slot()
    def _settings_changed(self) -> None:
        if self.found is not None:
            self._clear()
            self._ready("The label or the precision changed: Evaluate again (the numbers shown were of the last).")

    @Slot()
    def evaluate(self) -> None:
        run = self.controller.run
        if run is None or not self.wanted(run):
            return
        threshold = self.threshold.value()
        self.button.setEnabled(False)
        self.note.setText("Scoring every metric as an error-free detector…")

        def work(_progress: object) -> ErrorFree:
            return run_error_free(run, threshold)

        self.jobs.submit(work, lambda found: self._show(run, found))

    def _show(self, run: Run, found: ErrorFree) -> None:
        if not self._landed(run, found):
            return
        wanted = self.precision.value()
        rows = []
        for c in found.curves:
            at = c.at_precision(wanted)
            sign = "≤" if c.negated else "≥"
            rows.append([_name(c.metric), _cell(f"{c.segments:,}"), _cell(f"{c.base_rate:.1%}"),
                         _cell(f"{c.average_precision:.3f}" if math.isfinite(c.average_precision) else "n/a"),
                         _cell(f"{c.best_f1:.3f}"), _cell(f"{c.shown(c.best_threshold):.4g}"),
                         _cell(f"{sign} {c.shown(at[0]):.4g}" if at else "none reaches it"),
                         _cell(f"{at[2]:.1%}" if at else "")])
        _fill(self.table, ["metric", "segments", "error-free", "AP", "best F1", "best F1 at",
                           f"precision ≥ {wanted:g} at", "recall there"], rows)
        self._draw(found.curves)
        best = found.curves[0]
        left = f" Human columns, never detectors: {', '.join(found.left_out)}." if found.left_out else ""
        self._ready(f"{best.in_words(wanted)} ({found.definition}; a score that knows nothing has an average "
                    f"precision of {best.base_rate:.3f}.){left}")
        self.save.setEnabled(True)

    def _draw(self, curves: tuple[Curve, ...], chosen: str | None = None) -> None:
        self.plot.clear()
        wanted = self.precision.value()
        for k, c in enumerate(curves):
            colour = palette.SYSTEMS[k % len(palette.SYSTEMS)]
            width = 3 if c.metric == chosen else 1.5
            self.plot.plot(list(c.recall), list(c.precision), pen=pg.mkPen(colour, width=width), name=c.metric)
            at = c.at_precision(wanted)
            if at is not None:
                self.plot.plot([at[2]], [at[1]], pen=None, symbol="o", symbolBrush=colour, symbolSize=8)
        if curves:
            rate = curves[0].base_rate
            self.plot.plot([0, 1], [rate, rate], pen=pg.mkPen(palette.MUTED, style=Qt.PenStyle.DashLine),
                           name=f"knows nothing ({rate:.2f})")

    @Slot(QModelIndex)
    def _metric_chosen(self, index: QModelIndex) -> None:
        if self.found is not None:
            self._draw(self.found.curves, str(model_of(self.table).index(index.row(), 0).data()))

    @Slot()
    def _save(self) -> None:
        found, run = self.found, self._shown_for
        if found is None or run is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, "Save the calibration", "calibration.json", "JSON (*.json)")
        if not path:
            return
        from ...core.output.calibration_file import write_calibration

        try:
            write_calibration(path, found.curves, {m.name: m.signature(True) for m in run.metrics}, found.definition,
                              human_files(run))
        except (InputError, OSError) as exc:
            self.note.setText(f"Not saved: {exc}")
            return
        self.note.setText(f"Saved {path}: triage new text with --triage calibrated:{self.precision.value():g} "
                          f"--triage-calibration {path}")
