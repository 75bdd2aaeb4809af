"""Tools ▸ Where metrics disagree: one system's segments under two metrics (a dot each), Spearman's ρ, and the
segments whose places differ most; a click opens the segment in Inspect."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core import Run, palette
from ...core.analysis.disagree import disagreements, spearman
from ...core.output.score_text import score_text
from ..state import Selection, whole_rows
from ..widgets.charts import menuless_plot
from ..widgets.layout import STRETCH, hrow, resize_within_screen
from ..widgets.style import styled

TOP = 20


class DisagreeDialog(QDialog):
    """``open_segment(system, sentence)`` is called when a dot or a row is clicked. Signal: ``ask_humans(Selection)``:
    the segments listed, to ask the humans about."""

    ask_humans = Signal(object)

    def __init__(self, parent: QWidget, run: Run, open_segment: Callable[[int, int], None], system: int = 0):
        super().__init__(parent)
        self.setWindowTitle("Where metrics disagree")
        self.setObjectName("disagreeDialog")
        self.run, self.open_segment = run, open_segment
        self.system = QComboBox()
        self.system.addItems([s.name for s in run.systems])
        # And each pair against the baseline: B − A on one metric against B − A on the other.
        self.system.addItems([f"{s.name} − {run.baseline.name}" for s in run.systems[1:]])
        self.system.setCurrentIndex(system)
        self.first, self.second = QComboBox(), QComboBox()
        for combo in (self.first, self.second):
            combo.addItems([m.name for m in run.metrics])
        self.second.setCurrentIndex(len(run.metrics) - 1)
        self.summary = QLabel("")
        styled(self.summary, "hint")
        self.summary.setWordWrap(True)
        self.plot = menuless_plot()
        self.dots = pg.ScatterPlotItem(size=7, pen=None, brush=pg.mkBrush(51, 154, 240, 150), hoverable=True)
        self.marked = pg.ScatterPlotItem(size=11, pen=pg.mkPen(palette.MARKER, width=2), brush=None)
        self.plot.addItem(self.dots)
        self.plot.addItem(self.marked)
        self.dots.sigClicked.connect(self.on_dots_clicked)
        self.table = QTableWidget()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.cellClicked.connect(self.on_cell_clicked)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.plot)
        split.addWidget(self.table)
        split.setSizes([480, 420])
        box = QVBoxLayout(self)
        self.ask_button = QPushButton("Ask the humans about these…")
        self.ask_button.setToolTip("A Pearmut campaign of the segments listed (File ▸ Ask the humans…)")
        self.ask_button.setEnabled(run.context.source is not None)
        self.ask_button.clicked.connect(self.hand_to_humans)
        self.listed: list[int] = []
        box.addLayout(hrow("System", self.system, "across", self.first, "up", self.second, STRETCH, self.ask_button))
        box.addWidget(self.summary)
        box.addWidget(split, 1)
        for combo in (self.system, self.first, self.second):
            combo.currentIndexChanged.connect(self.refresh)
        resize_within_screen(self, 960, 600)
        self.refresh()

    def refresh(self, *_args: object) -> None:
        s, i, j = self._system(), self.first.currentIndex(), self.second.currentIndex()
        first, second = self.run.metrics[i], self.run.metrics[j]
        a, b = (self.run.systems[s].results[k].sentences for k in (i, j))
        delta = self.system.currentIndex() >= len(self.run.systems)
        if delta:
            base = self.run.systems[0].results
            a, b = a - base[i].sentences, b - base[j].sentences
        shown = np.flatnonzero(np.isfinite(a) & np.isfinite(b))
        self.dots.setData(x=a[shown], y=b[shown], data=shown)
        self.plot.setLabel("bottom", f"Δ{first.name} (B − A)" if delta else first.name)
        self.plot.setLabel("left", f"Δ{second.name} (B − A)" if delta else second.name)
        rho = spearman(a, b, first.higher_is_better, second.higher_is_better)
        rows = disagreements(a, b, first.higher_is_better, second.higher_is_better, TOP)
        self.summary.setText(f"{len(shown):,} segments scored by both. Spearman's ρ {rho:.3f} (each metric read in "
                             f"its own direction). The list: the {len(rows)} segments whose places (0 worst, 1 best) "
                             "differ most. Click a dot or a row to open the segment.")
        self.marked.setData(x=[d.first for d in rows], y=[d.second for d in rows])
        self.listed = [d.segment for d in rows]
        headers = ["line", first.name, second.name, "place 1", "place 2", "gap"]
        self.table.setColumnCount(len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        self.table.setRowCount(len(rows))
        for r, d in enumerate(rows):
            cells = [str(self.run.line_number(d.segment)), score_text(d.first), score_text(d.second),
                     f"{d.place_first:.3f}", f"{d.place_second:.3f}", f"{d.difference:.3f}"]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, d.segment)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()

    def hand_to_humans(self) -> None:
        said = (f"where {self.first.currentText()} and {self.second.currentText()} disagree most on "
                f"{self.system.currentText()} (top {len(self.listed)})")
        self.ask_humans.emit(Selection(whole_rows(self.run, sorted(self.listed)), said))

    def _system(self) -> int:
        """The system shown (in a B − A row, B)."""
        index, k = self.system.currentIndex(), len(self.run.systems)
        return index if index < k else index - k + 1

    def on_dots_clicked(self, _item: object, points: list[pg.SpotItem], _event: object) -> None:
        if len(points):
            self.open_segment(self._system(), int(points[0].data()))

    def on_cell_clicked(self, row: int, _column: int) -> None:
        item = self.table.item(row, 0)
        if item is not None:
            self.open_segment(self._system(), int(item.data(Qt.ItemDataRole.UserRole)))
