"""Compare's human errors (MQM): a system's errors by category × severity, which of them each metric of the run
saw, and how far the raters agree — shown when the systems carry annotations. A count is a click from its
segments (shown as a slice of their own); which errors each metric saw is computed in a worker, when asked.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ...core import Run
from ...core.analysis.error_recall import ErrorRecall, Tally, error_recall
from ...core.analysis.error_table import ErrorTable, error_table
from ...core.analysis.rater_agreement import rater_agreement
from ..controller import Controller
from ..jobs import JobController
from ..widgets.elided_label import ElidedLabel
from ..widgets.item_tables import ROWS, model_of
from ..widgets.item_tables import cell as _cell
from ..widgets.item_tables import fill as _fill
from ..widgets.item_tables import item_table as _table
from ..widgets.item_tables import name_item as _name
from ..widgets.job_progress import JobProgress
from ..widgets.layout import STRETCH, hrow
from ..widgets.style import styled


class HumanErrorsPanel(QWidget):
    """See the module."""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.jobs = JobController(self)
        self.recall: ErrorRecall | None = None
        self.system = QComboBox()
        self.system.setObjectName("humanErrorsSystem")
        self.system.currentIndexChanged.connect(self.refresh)
        self.agreement = styled(ElidedLabel(), "hint")
        self.table = _table("errorTable")
        self.recall_table = _table("errorRecallTable")
        self.recall_button = QPushButton("Which errors did each metric see?")
        self.recall_button.setToolTip("For every error the raters marked: does the metric's own evidence touch its "
                                      "span (BLEU: a token in no matched n-gram; chrF: a character in no matched "
                                      "n-gram; TER: a word substituted, deleted or shifted; edit distance: an edit)?")
        self.recall_button.clicked.connect(self.find_recall)
        # What the counts leave out, wrapped: cut at one line it lost its end at both window sizes.
        self.recall_note = styled(QLabel(), "hint")
        self.recall_note.setWordWrap(True)
        self.recall_note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.recall_progress = JobProgress(self.jobs)  # reading every rated segment's evidence takes seconds
        self.jobs.failed.connect(self._failed)
        self.jobs.cancelled.connect(self._cancelled)
        for table in (self.table, self.recall_table):
            table.clicked.connect(self._open)
        left, right = QWidget(), QWidget()
        lv, rv = QVBoxLayout(left), QVBoxLayout(right)
        lv.setContentsMargins(0, 0, 0, 0)
        rv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(styled(ElidedLabel("Errors by category × severity (all raters; click a count)"), "paneTitle"))
        lv.addWidget(self.table, 1)
        rv.addLayout(hrow(self.recall_button, self.recall_progress, STRETCH))
        rv.addWidget(self.recall_note)
        rv.addWidget(self.recall_table, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([560, 440])
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.system.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        row = hrow("Human error spans of", self.system)
        row.addWidget(self.agreement, 1)
        box.addLayout(row)
        box.addWidget(split, 1)
        controller.run_changed.connect(self.on_run_changed)

    @staticmethod
    def wanted(run: Run | None) -> bool:
        """Whether a run has annotations to show."""
        return run is not None and bool(run.annotated)

    @Slot()
    def on_run_changed(self) -> None:
        run = self.controller.run
        self.jobs.cancel()
        self.recall = None
        model_of(self.recall_table).clear()
        self.recall_note.setText("")
        self.recall_button.setEnabled(True)
        if not self.wanted(run):
            return
        assert run is not None
        current = self.system.currentText()
        self.system.blockSignals(True)
        self.system.clear()
        annotated = run.annotated
        self.system.addItems([s.name for s in annotated])
        self.system.setCurrentIndex(max(self.system.findText(current), 0))
        self.system.blockSignals(False)
        agreement = rater_agreement([s.file for s in annotated], names=[s.name for s in annotated])
        self.agreement.setText(agreement.summary())
        self.refresh()

    def _system(self) -> int | None:
        run = self.controller.run
        if run is None:
            return None
        names = [s.name for s in run.systems]
        return names.index(self.system.currentText()) if self.system.currentText() in names else None

    @Slot()
    def refresh(self, *_args: object) -> None:
        run, k = self.controller.run, self._system()
        if run is None or k is None:
            return
        self._fill_errors(error_table(run.systems[k].file, name=run.systems[k].name))
        self._fill_recall()

    def _fill_errors(self, t: ErrorTable) -> None:
        rows = []
        for category in [*t.categories, None]:
            name = category if category is not None else f"all ({t.rated:,} rated segments)"
            cells = [_name(name)]
            for severity in [*t.severities, None]:
                n = t.total(category, severity)
                kind = " ".join(x for x in (severity, category) if x) or "any"
                cells.append(_cell(f"{n:,}" if n else "", t.rows_of(category, severity),
                                   f"where {t.system} has a {kind} error"))
            rows.append(cells)
        _fill(self.table, ["category", *t.severities, "all"], rows)

    @Slot()
    def find_recall(self) -> None:
        run = self.controller.run
        if run is None:
            return
        systems, names = [s.file for s in run.annotated], [s.name for s in run.annotated]
        metrics = list(run.metrics)  # what each flags is read from the text: no metric is bound to a system
        self.recall_button.setEnabled(False)
        self.recall_note.setText("Reading each metric's evidence of every rated segment…")

        def done(found: ErrorRecall) -> None:
            self.recall = found
            self.recall_button.setEnabled(True)
            self._fill_recall()

        self.jobs.submit(lambda progress: error_recall(metrics, systems, progress=progress, names=names), done)

    @Slot(str, str)
    def _failed(self, message: str, _details: str) -> None:
        self.recall_button.setEnabled(True)
        self.recall_note.setText(message)

    @Slot(int)
    def _cancelled(self, _job_id: int) -> None:
        if self.recall is None:
            self.recall_button.setEnabled(True)
            self.recall_note.setText("Cancelled: nothing computed (ask again when you want it)")

    def _fill_recall(self) -> None:
        run, k = self.controller.run, self._system()
        if self.recall is None or run is None or k is None:
            return
        name = run.systems[k].name
        self.recall_note.setText("; ".join(self.recall.notes(name)) or
                                 f"{self.recall.rated_segments:,} rated segments; click a share for the segments where "
                                 "the metric missed such an error, noise for those it flagged outside every span")
        rows = [r for r in self.recall.rows if r.system == name]
        severities = [s for s in ("Critical", "Major", "Minor") if any(r.severities[s].errors for r in rows)]
        cells = []
        for row in rows:
            line = [_name(row.metric)]
            for severity in severities:
                t: Tally = row.severities[severity]
                text = f"{t.share:.0%} of {t.errors:,}" if t.share is not None else ""
                line.append(_cell(text, t.missed_segments, f"where {row.metric} missed a {severity} error of "
                                                           f"{row.system}"))
            line.append(_cell(f"{row.noise:.0%}" if row.noise is not None else "", row.noise_segments,
                              f"where {row.metric} flagged text outside every error span of {row.system}",
                              tip=f"{row.noise_chars:,} of {row.flagged_chars:,} flagged characters lie in no rater's "
                                  "error span; click: those segments"))
            cells.append(line)
        _fill(self.recall_table, ["metric", *(f"{s} seen" for s in severities), "noise"], cells)

    @Slot(QModelIndex)
    def _open(self, index: QModelIndex) -> None:
        run, k = self.controller.run, self._system()
        found = index.data(ROWS)
        if not found or run is None or k is None:
            return
        rows, said = found
        whole = [run.slice.rows[i] for i in rows] if run.slice is not None else list(rows)
        self.controller.set_system(k)
        self.controller.actions.apply_slice(whole, f"the segments {said} (MQM)")

    def release(self) -> None:
        self.jobs.cancel()
