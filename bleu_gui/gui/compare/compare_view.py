"""The Compare tab: the systems table and pair matrix over the pair list, n-gram wins, A/B panes and charts."""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QComboBox, QLabel, QSizePolicy, QSplitter, QVBoxLayout, QWidget

from ..controller import Controller
from ..widgets.layout import STRETCH, hrow
from ..widgets.style import styled
from .ab_panes import ABPanes
from .ngram_wins import NgramWins
from .pair_charts import PairCharts
from .pair_list import PairList
from .systems_panel import SystemsPanel


class CompareView(QWidget):
    """Lays out the parts of the Compare tab, which follow the controller."""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self._upper = 220  # the height the systems table asks for (set per run)
        self.systems = SystemsPanel(controller)
        self.b_combo = QComboBox()
        self.b_combo.currentIndexChanged.connect(lambda index: controller.set_b(index + 1))
        self.note = QLabel("")
        styled(self.note, "hint")
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.pairs = PairList(controller)
        self.ngrams = NgramWins(controller)
        self.ngrams.sentences_chosen.connect(self.pairs.show_only)
        self.panes = ABPanes(controller)
        self.charts = PairCharts(controller)
        self.charts.region_selected.connect(self.pairs.show_only)
        self._assemble()
        controller.run_changed.connect(self.on_run_changed)
        controller.b_changed.connect(self.on_b_changed)

    def _assemble(self) -> None:
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.pairs, 3)
        lv.addWidget(self.ngrams, 4)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.panes)
        right.addWidget(self.charts)
        right.setSizes([300, 420])  # the charts need the height more than the A/B panes (they scroll)
        middle = QSplitter(Qt.Orientation.Horizontal)
        middle.addWidget(left)
        middle.addWidget(right)
        middle.setSizes([520, 880])
        self.middle_split, self.right_split = middle, right
        upper = QWidget()
        uv = QVBoxLayout(upper)
        uv.setContentsMargins(0, 0, 0, 0)
        uv.addLayout(hrow("<b>Systems</b> (A = baseline; click a system or a pair to compare it)", STRETCH, "B =",
                          self.b_combo))
        uv.addWidget(self.systems, 1)
        uv.addWidget(self.note)
        outer = QSplitter(Qt.Orientation.Vertical)
        outer.setChildrenCollapsible(False)
        outer.addWidget(upper)
        outer.addWidget(middle)
        outer.setSizes([220, 700])
        self.outer_split = outer
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addWidget(outer, 1)

    @Slot()
    def on_run_changed(self) -> None:
        run = self.controller.run
        if run is None or run.comparison is None:
            self.release()
            return
        rows = min(len(run.systems), 12)  # past 12 the table scrolls
        row_height = self.systems.table.verticalHeader().defaultSectionSize()
        self._upper = 90 + rows * row_height + (40 if len(run.systems) > 2 else 0)  # the matrix caption
        self._size_upper()
        k = self.controller.metric
        whole = (f"{run.slice.summary}; on the whole corpus A scored {run.slice.whole[k][0]:.2f}. "
                 if run.slice is not None else "")
        self.note.setText(whole + run.comparison.note)
        self.note.setVisible(bool(whole + run.comparison.note))
        self.b_combo.blockSignals(True)
        self.b_combo.clear()
        for s in run.systems[1:]:
            self.b_combo.addItem(s.name)
        self.b_combo.setCurrentIndex(self.controller.b - 1)
        self.b_combo.blockSignals(False)
        self.pairs.refresh()

    def _size_upper(self) -> None:
        """The systems table as tall as its rows (up to 12), never more than 42% of the view: at 768 px high the
        charts below need the rest (the table scrolls)."""
        total = self.outer_split.height() or sum(self.outer_split.sizes())
        upper = min(self._upper, round(0.42 * total))
        self.outer_split.setSizes([upper, max(total - upper, 1)])

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._size_upper()  # sizes set while the tab was hidden do not hold

    @Slot(int)
    def on_b_changed(self, b: int) -> None:
        if self.b_combo.currentIndex() != b - 1:
            self.b_combo.blockSignals(True)
            self.b_combo.setCurrentIndex(b - 1)
            self.b_combo.blockSignals(False)

    def release(self) -> None:
        """Let go of the run: the next one has nothing to compare, and a compared run of a million lines holds
        over a gigabyte (the tab is disabled meanwhile)."""
        self.systems.release()
        self.pairs.release()
        self.ngrams.release()
        self.charts.release()
