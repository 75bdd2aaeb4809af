"""Tools ▸ Scorecard: the reviewer's scorecard of the shown run's annotations (core.analysis.scorecard) — errors by
severity, penalty points per 1,000 source words, quality and pass or fail, per system, document and rater — with the
weights and the threshold editable beside it (the table follows at once), saved as a workbook or a page."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QDialog,
    QDoubleSpinBox,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core import Run, palette
from ...core.analysis.scorecard import DEFAULT_THRESHOLD, DEFAULT_WEIGHTS, SEVERITIES, Scorecard, scorecard
from ...core.errors import ExportError
from ...core.output.exports import write_atomic
from ...core.output.scorecard_files import FORMULA, HEADER, card_row, scorecard_html, scorecard_workbook
from ..file_dialogs import ask_save
from ..state import WindowState
from ..widgets.layout import STRETCH, hrow, resize_within_screen
from ..widgets.style import styled


def _spin(value: float, top: float, tip: str) -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setRange(0.0, top)
    spin.setDecimals(2)
    spin.setValue(value)
    spin.setToolTip(tip)
    return spin


class ScorecardDialog(QDialog):
    """See the module. Signals: ``saved(path)``, ``failed(message)``."""

    saved = Signal(str)
    failed = Signal(str)

    def __init__(self, parent: QWidget | None, run: Run, state: WindowState | None = None):
        super().__init__(parent)
        self.setWindowTitle("Scorecard")
        self.run, self.state = run, state
        self.weights = {s: _spin(DEFAULT_WEIGHTS[s], 1000.0, f"Penalty points of a {s} error") for s in SEVERITIES}
        self.threshold = _spin(DEFAULT_THRESHOLD, 100.0, "The quality a text passes at: 99 is at most 10 penalty "
                                                         "points per 1,000 words — a threshold to agree with the client")
        for spin in (*self.weights.values(), self.threshold):
            spin.valueChanged.connect(self.refresh)
        save = QPushButton("Save…")
        save.setToolTip("The scorecard as a workbook (.xlsx) or a page (.html)")
        save.clicked.connect(self.ask_save)
        self.table = QTableWidget()
        self.table.setObjectName("scorecardTable")
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.currentCellChanged.connect(lambda row, *_: self.show_categories(row))
        self.categories = QTableWidget()
        self.categories.setObjectName("scorecardCategories")
        self.categories.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.categories_title = styled(QLabel("Click a row: its errors by category × severity"), "paneTitle")
        self.note = styled(QLabel(FORMULA), "hint")
        self.note.setWordWrap(True)
        box = QVBoxLayout(self)
        weights: list[QWidget | str] = []
        for s in SEVERITIES:
            weights += [s, self.weights[s]]
        box.addLayout(hrow("Weights:", *weights, "pass at quality ≥", self.threshold, STRETCH, save))
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        side = QWidget()
        side_box = QVBoxLayout(side)
        side_box.setContentsMargins(0, 0, 0, 0)
        side_box.addWidget(self.categories_title)
        side_box.addWidget(self.categories, 1)
        split.addWidget(side)
        split.setSizes([360, 200])
        box.addWidget(split, 1)
        box.addWidget(self.note)
        self.card: Scorecard | None = None
        resize_within_screen(self, 1180, 680)
        self.refresh()

    def compute(self) -> Scorecard:
        source = self.run.context.source
        lines = source.lines if source is not None else [""] * self.run.n_sentences
        return scorecard([(s.name, s.file.annotations or ()) for s in self.run.annotated], lines,
                         self.run.context.docs, {s: w.value() for s, w in self.weights.items()},
                         self.threshold.value(), targets=[s.lines for s in self.run.annotated])

    def refresh(self, *_args: object) -> None:
        self.card = self.compute()
        self.table.clear()
        self.table.setColumnCount(len(HEADER))
        self.table.setHorizontalHeaderLabels(HEADER)
        self.table.setRowCount(len(self.card.cards))
        for r, c in enumerate(self.card.cards):
            for k, value in enumerate(card_row(c)):
                text = "–" if value is None else f"{value:.2f}" if isinstance(value, float) else \
                    f"{value:,}" if isinstance(value, int) else str(value)
                item = QTableWidgetItem(text)
                if k > 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if text in ("pass", "FAIL"):
                    item.setForeground(QColor(palette.P_SIGNIFICANT if text == "pass" else palette.BAR_UNMATCHED))
                elif c.scope != "all":  # a document's row, under its system's whole text
                    item.setForeground(QColor(palette.NOTE))
                self.table.setItem(r, k, item)
        self.table.resizeColumnsToContents()
        self.show_categories(max(self.table.currentRow(), 0))
        if self.run.context.source is None:
            self.note.setText("No source: penalty points per 1,000 words need the source's words (File ▸ Open: "
                              "give the source). " + FORMULA)

    def show_categories(self, row: int) -> None:
        """The errors of the card in ``row`` by category × severity (its penalty points beside)."""
        if self.card is None or not 0 <= row < len(self.card.cards):
            return
        c = self.card.cards[row]
        categories = sorted({category for category, _ in c.counts})
        shown = [s for s in SEVERITIES if any((k, s) in c.counts for k in categories)]
        self.categories.clear()
        self.categories.setColumnCount(len(shown) + 2)
        self.categories.setHorizontalHeaderLabels(["category", *shown, "penalty"])
        self.categories.setRowCount(len(categories))
        for r, category in enumerate(categories):
            counts = [c.counts.get((category, s), 0) for s in shown]
            penalty = sum(n * c.weights.get(s, 0.0) for n, s in zip(counts, shown))
            for k, text in enumerate([category, *(f"{n:,}" if n else "" for n in counts), f"{penalty:g}"]):
                item = QTableWidgetItem(text)
                if k:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.categories.setItem(r, k, item)
        self.categories.resizeColumnsToContents()
        self.categories_title.setText(f"{c.system} · {c.scope} · {c.rater}: errors by category × severity")

    def ask_save(self) -> None:
        path = ask_save(self, self.state, "scorecard", "Save the scorecard", "scorecard.xlsx",
                        "Workbook (*.xlsx);;Page (*.html)")
        if path:
            self.save(path)

    def save(self, path: str) -> None:
        card = self.card or self.compute()
        data = scorecard_workbook(card) if path.lower().endswith(".xlsx") else scorecard_html(card)
        try:
            write_atomic(path, data, self.run.input_paths())
        except ExportError as exc:
            self.failed.emit(str(exc))
            return
        self.saved.emit(path)
