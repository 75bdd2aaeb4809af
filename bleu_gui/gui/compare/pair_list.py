"""The sentences of A (the baseline) and B side by side under the shown metric: both scores, B − A and each
sentence's leave-one-out contribution; filtered by side, by a dragged region of the scatter or by an n-gram."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractItemModel, QItemSelectionModel, QModelIndex, Qt, Slot
from PySide6.QtWidgets import QComboBox, QHeaderView, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from ..controller import Controller
from ..widgets.layout import STRETCH, Table, hrow
from ..widgets.style import styled
from .compare_models import PairTableModel


def compare_table(model: QAbstractItemModel) -> Table:
    """A read-only, row-selecting table of the Compare tab."""
    view = Table()
    view.setModel(model)
    view.setSelectionBehavior(Table.SelectionBehavior.SelectRows)
    view.setSelectionMode(Table.SelectionMode.SingleSelection)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 6)
    view.setAlternatingRowColors(True)
    view.horizontalHeader().setStretchLastSection(True)
    return view


class PairList(QWidget):
    """The pair's sentence list; picking a row makes it the controller's sentence."""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.model = PairTableModel(self)
        self.view = compare_table(self.model)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.view.selectionModel().currentRowChanged.connect(self.on_row_changed)
        # Each column as wide as its header (a stretched last column made LOO ΔBLEU 250 px wide at 1920 px).
        self.view.horizontalHeader().setStretchLastSection(False)
        self.side = QComboBox()
        self.side.addItems(["all sentences", "B better", "A better", "equal"])
        self.side.currentIndexChanged.connect(self.model.set_side)
        self.clear_filter = QPushButton("Show all")
        self.clear_filter.clicked.connect(self.on_clear_filter)
        self.filter_label = QLabel("")
        self.count_label = QLabel("")
        for label in (self.filter_label, self.count_label):
            styled(label, "hint")
            # Long texts (an n-gram) are cut, never allowed to widen the window.
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.model.modelReset.connect(self.on_list_changed)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(hrow(self.side, self.filter_label, STRETCH, self.clear_filter))
        box.addWidget(self.view, 1)
        box.addWidget(self.count_label)
        controller.b_changed.connect(self.refresh)
        controller.metric_changed.connect(self.refresh)
        controller.sentence_changed.connect(self.on_sentence_changed)

    @Slot()
    def refresh(self) -> None:
        """The pair of the controller's B under its metric, every sentence listed again."""
        c, run = self.controller, self.controller.run
        if run is None or run.comparison is None:
            return
        k, metric = c.metric, run.metrics[c.metric]
        a, b = run.systems[0].results[k], run.systems[c.b].results[k]
        numbers = np.asarray(run.slice.rows) + 1 if run.slice is not None else None
        self.model.set_pair(a.sentences, b.sentences, run.comparison.by_metric[k].pairwise[c.b - 1].loo, numbers,
                            metric.name, metric.higher_is_better, metric.decimals)
        self.filter_label.setText("")
        self._fit_headers()
        if c.sentence is not None:
            self.on_sentence_changed(c.sentence)

    def _fit_headers(self) -> None:
        """Each column as wide as its header, numbers' room at least ("chrF2++ A" was cut to "hrF2++", and a stretched
        last column made LOO ΔBLEU 250 px wide at 1920 px)."""
        metrics, header = self.view.horizontalHeader().fontMetrics(), self.view.horizontalHeader()
        for col in range(self.model.columnCount()):
            text = str(self.model.headerData(col, Qt.Orientation.Horizontal))
            header.resizeSection(col, max(metrics.horizontalAdvance(text), metrics.horizontalAdvance("+00.0000")) + 24)

    def release(self) -> None:
        empty = np.zeros(0)
        self.model.set_pair(empty, empty, empty)

    def show_only(self, sentences: np.ndarray | None, why: str = "") -> None:
        """List only ``sentences`` (None: all of them again), saying why."""
        self.model.set_sentences(sentences)
        self.filter_label.setText(why)

    @Slot(int)
    def on_sentence_changed(self, sentence: int) -> None:
        row = self.model.row_of(sentence)
        if row is None:
            return
        index = self.model.index(row, 0)
        selection = self.view.selectionModel()
        if selection.currentIndex().row() != row:
            selection.setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.view.scrollTo(index)

    @Slot(QModelIndex, QModelIndex)
    def on_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.controller.set_sentence(self.model.sentence_at(current.row()))

    @Slot()
    def on_list_changed(self) -> None:
        b_better, a_better, equal = self.model.counts()
        self.count_label.setText(f"Listed: B better {b_better:,} · A better {a_better:,} · equal {equal:,}")

    @Slot()
    def on_clear_filter(self) -> None:
        self.show_only(None)
        self.side.setCurrentIndex(0)
