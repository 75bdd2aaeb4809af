"""Tools ▸ Triage: which segments of a system need a human, by a metric's segment scores (in a run without
references, a QE metric's) under a rule typed beside it (the worst 20%, or a threshold), the worst first, with the
metric's spans and the QA flags; a click opens the segment in Inspect, and the triage is written for post-editing
(the system's own XLIFF with the decisions added, or a table) as ``bleu-score --triage-out`` writes it."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core import InputError, Run
from ...core.analysis.qa import CHECKS, runnable_checks
from ...core.errors import ExportError
from ...core.metrics.unscored.config import UnscoredConfig
from ...core.output.exports import write_atomic
from ...core.output.qa_decisions import QaDecisions
from ...core.output.triage_files import triage_file
from ...core.run.triage import Triage, TriageRule, triage
from ..file_dialogs import ask_save
from ..state import Selection, WindowState, whole_rows
from ..widgets.layout import STRETCH, hrow, resize_within_screen
from ..widgets.style import styled
from ..window_words import in_window_words, raw

HEADER = ("line", "decision", "score", "candidate", "spans", "QA flags")
SAVE_FILTER = "XLIFF, the system's own, annotated (*.xlf *.xliff);;Table (*.tsv);;CSV (*.csv);;Workbook (*.xlsx)"


UNSCORED_KEY = UnscoredConfig.key


class TriageDialog(QDialog):
    """See the module. ``open_segment(system, sentence)`` opens a listed segment. Signals: ``saved(path)``,
    ``failed(message)``."""

    saved = Signal(str)
    failed = Signal(str)
    ask_humans = Signal(object)  # a Selection: the segments listed, to ask the humans about

    def __init__(self, parent: QWidget | None, run: Run, open_segment: Callable[[int, int], None],
                 state: WindowState | None = None, system: int = 0, metric: int = 0,
                 decisions: Path | None = None, checks_off: frozenset[str] = frozenset()):
        """``decisions``: the QA false positives beside the review (their flags send nothing to post-editing);
        ``checks_off``: the QA checks switched off in the window."""
        super().__init__(parent)
        self.decisions, self.checks_off = decisions, checks_off
        self.setWindowTitle("Triage: which segments need a human")
        self.setObjectName("triageDialog")
        self.run, self.open_segment, self.state = run, open_segment, state
        self.system_box = QComboBox()
        self.system_box.addItems([s.name for s in run.systems])
        self.system_box.setCurrentIndex(system)
        self.metric_box = QComboBox()
        self.metric_box.addItems([m.name for m in run.metrics])
        self.metric_box.setCurrentIndex(metric)
        # Triage by what scores nothing yet (the stand-in) goes by the QA flags and empty targets alone.
        self.rule = QLineEdit("qa" if run.metrics and run.metrics[metric].key == UNSCORED_KEY else "20%")
        self.rule.setToolTip("The worst share of the scored segments (20%), or a score threshold (0.6: below it, or "
                             "above it for a metric whose lower is better)")
        self.save_button = QPushButton("Write for post-editing…")
        self.save_button.setToolTip("The system's own XLIFF with each segment's decision and score added (the file "
                                    "read is never changed), or a table of the segments to post-edit")
        self.save_button.clicked.connect(self.ask_save)
        self.ask_button = QPushButton("Ask the humans about these…")
        self.ask_button.setToolTip("A Pearmut campaign of the segments listed (File ▸ Ask the humans…)")
        self.ask_button.clicked.connect(self.hand_to_humans)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.table = QTableWidget()
        self.table.setObjectName("triageTable")
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.cellClicked.connect(self._on_clicked)
        self.table.verticalHeader().setVisible(False)  # the line column numbers the rows
        self.table.horizontalHeader().setStretchLastSection(True)  # the QA flags take the width left, no blank band
        self.note = styled(QLabel("An empty target goes to translation; a segment without a score, or with a QA "
                                  "flag, to post-editing (hover a decision for its reason). Click a row to open it "
                                  "in Inspect."), "hint")
        box = QVBoxLayout(self)
        box.addLayout(hrow("System", self.system_box, "metric", self.metric_box, "needs a human:", self.rule, STRETCH,
                           self.ask_button, self.save_button))
        box.addWidget(self.summary)
        box.addWidget(self.table, 1)
        box.addWidget(self.note)
        for changed in (self.system_box.currentIndexChanged, self.metric_box.currentIndexChanged):
            changed.connect(self.refresh)
        self.rule.editingFinished.connect(self.refresh)
        self.found: Triage | None = None
        resize_within_screen(self, 1100, 640)
        self.refresh()

    def compute(self) -> Triage:
        """The triage the controls ask for (:class:`InputError` for a bad rule)."""
        run, i = self.run, self.system_box.currentIndex()
        wanted = [c for c in CHECKS if c not in self.checks_off]
        checks = runnable_checks(wanted, run.context.source is not None, False, run.target_lines)
        flags = run.qa_flags(i, checks)
        if self.decisions is not None:
            flags = QaDecisions.open(self.decisions).standing(flags, run.line_number, run.systems[i].lines)
        return triage(run, i, self.metric_box.currentIndex(), TriageRule.parse(self.rule.text()), flags)

    def refresh(self, *_args: object) -> None:
        try:
            self.found = self.compute()
        except InputError as exc:
            self.found = None
            self.summary.setText(in_window_words(raw(exc)))
            self.table.setRowCount(0)
            self.save_button.setEnabled(False)
            self.ask_button.setEnabled(False)
            return
        self.save_button.setEnabled(True)
        self.ask_button.setEnabled(self.run.context.source is not None)
        chosen, total = self.found.counts
        self.summary.setText(f"<b>{chosen:,} of {total:,} segments need a human</b> — {self.found.rule} by "
                             f"{self.found.metric} <span style='color:gray'>({self.found.signature})</span>")
        self._fill(self.found)

    def _fill(self, found: Triage) -> None:
        rows = found.worst_first()
        lines = self.run.systems[self.system_box.currentIndex()].lines
        source = self.run.context.source.lines if self.run.context.source is not None else None
        self.table.clear()
        self.table.setColumnCount(len(HEADER))
        self.table.setHorizontalHeaderLabels(HEADER)
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            text = lines[row.segment]
            spans = " · ".join(text[a:b] for a, b in row.spans if b > a)
            cells = [str(self.run.line_number(row.segment)), row.decision,
                     "no score" if math.isnan(row.score) else f"{row.score:.4f}", text, spans, "; ".join(row.qa)]
            for k, value in enumerate(cells):
                item = QTableWidgetItem(value)
                item.setData(Qt.ItemDataRole.UserRole, row.segment)
                if k in (0, 2):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if k == 1:
                    item.setToolTip(row.reason)
                if k == 3:
                    item.setToolTip(f"{text}\n\nsource: {source[row.segment]}" if source is not None else text)
                self.table.setItem(r, k, item)
        # By QA alone no score decides: its column would say "no score" on every row.
        self.table.setColumnHidden(2, found.signature == "qa")
        self.table.resizeColumnsToContents()
        self.table.setColumnWidth(3, min(self.table.columnWidth(3), 520))

    def _on_clicked(self, row: int, _column: int) -> None:
        item = self.table.item(row, 0)
        if item is not None:
            self.open_segment(self.system_box.currentIndex(), int(item.data(Qt.ItemDataRole.UserRole)))

    def hand_to_humans(self) -> None:
        found = self.found
        if found is not None:
            rows = sorted(row.segment for row in found.worst_first())
            said = f"the triage of {self.run.systems[self.system_box.currentIndex()].name}: {found.rule} by {found.metric}"
            self.ask_humans.emit(Selection(whole_rows(self.run, rows), said))

    def ask_save(self) -> None:
        path = ask_save(self, self.state, "triage", "Write the triage for post-editing", "triage.xlf", SAVE_FILTER)
        if path:
            self.save(path)

    def save(self, path: str) -> None:
        """Write the triage shown to ``path`` (by its extension); a failure is said, never raised."""
        found = self.found
        if found is None:
            return
        run, i = self.run, self.system_box.currentIndex()
        source = run.context.source.lines if run.context.source is not None else None
        try:
            data = triage_file(path, found, run.systems[i].file, source,
                               [run.line_number(k) for k in range(run.n_sentences)])
            write_atomic(path, data, run.input_paths())
        except (InputError, ExportError) as exc:
            self.failed.emit(in_window_words(raw(exc)))
            return
        self.saved.emit(path)
