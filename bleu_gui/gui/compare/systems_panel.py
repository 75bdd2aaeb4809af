"""The top of the Compare tab: the systems table (sortable, a band per significance cluster) beside the pair matrix.

Clicking a system makes it B; its context menu makes it the baseline; clicking a matrix cell asks for that pair.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPoint, QSortFilterProxyModel, Qt, Slot
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QSplitter, QVBoxLayout, QWidget

from ...core.output.rankings import Ranking
from ..controller import Controller
from ..widgets.layout import Table
from .compare_models import SystemsTableModel
from .matrix_view import MatrixPanel

NAME_COLUMN = 1


class SystemsPanel(QWidget):
    """The systems of the controller's run under its metric; a click makes a system B (in the controller), the
    matrix's α and correction are the controller's ranking; a matrix cell, "make the baseline" and "rename" are
    asked of the controller's actions (system indices are the run's)."""

    def __init__(self, controller: Controller, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.model = SystemsTableModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SystemsTableModel.SORT_ROLE)
        self.table = Table()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)  # ranked, best first, until a header is clicked
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 6)
        header = self.table.horizontalHeader()
        # Sized to the contents once per run (not on every change: that re-measures every cell each time).
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        # Long system names are cut in the middle (the tooltip has the path), not allowed to crowd out the numbers.
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.setToolTip("Click a system to compare it with the baseline; right-click to make it the baseline;"
                              " double-click its name to rename it")
        self.table.clicked.connect(self.on_clicked)
        self.table.doubleClicked.connect(self.on_double_clicked)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self.on_context_menu)
        self.matrix = MatrixPanel()
        self.matrix.pair_clicked.connect(lambda a, b: controller.actions.compare_pair(a, b))
        self.matrix.ranking_changed.connect(controller.set_ranking)
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.setChildrenCollapsible(False)
        self.split.addWidget(self.table)
        self.split.addWidget(self.matrix)
        self.split.setSizes([760, 560])
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.split)

        controller.run_changed.connect(self.refresh)
        controller.metric_changed.connect(self.refresh)
        controller.ranking_changed.connect(self.on_ranking_changed)
        controller.b_changed.connect(self.select_system)

    @Slot()
    def refresh(self) -> None:
        run = self.controller.run
        if run is None or run.comparison is None:
            self.release()
            return
        k = self.controller.metric
        matrix = run.comparison.by_metric[k].matrix
        self.matrix.set_matrix(matrix, run.metrics[k].name, run.comparison.why_untested(run.metrics[k]),
                               run.metrics[k].decimals)
        self.matrix.setVisible(len(run.systems) > 2 or matrix is None)
        self.model.set_run(run, self.controller.ranking, k)
        self._fit_columns()
        self.select_system(self.controller.b)

    def release(self) -> None:
        """Let go of the run (see :meth:`CompareView.release`)."""
        self.model.set_run(None)
        self.matrix.set_matrix(None)

    def _fit_columns(self) -> None:
        """Each column as wide as its widest text (measured from the model's texts: asking the view to size to
        contents queries every cell through Python, tens of milliseconds on the GUI thread); names at most 240."""
        metrics = self.table.fontMetrics()
        bold = self.table.horizontalHeader().fontMetrics()
        for col in range(self.model.columnCount()):
            texts = [self.model.cell(row, col) for row in range(self.model.rowCount())]
            width = max([metrics.horizontalAdvance(t) for t in texts] + [0]) + 18
            width += 22 if col == NAME_COLUMN else 0  # the colour swatch
            header = bold.horizontalAdvance(str(self.model.headerData(col, Qt.Orientation.Horizontal))) + 24
            self.table.setColumnWidth(col, min(max(width, header), 240 if col == NAME_COLUMN else 400))

    def system_at(self, index: QModelIndex) -> int:
        return int(self.proxy.data(index, Qt.ItemDataRole.UserRole))

    def select_system(self, system: int) -> None:
        """Show ``system`` (a run index) as the current row."""
        for row in range(self.proxy.rowCount()):
            if self.system_at(self.proxy.index(row, 0)) == system:
                self.table.selectRow(row)
                return

    @Slot(object)
    def on_ranking_changed(self, ranking: Ranking) -> None:
        run = self.controller.run
        if run is not None and run.comparison is not None:
            self.model.set_run(run, ranking, self.controller.metric)
            self.select_system(self.controller.b)

    @Slot(QModelIndex)
    def on_clicked(self, index: QModelIndex) -> None:
        system = self.system_at(index)
        if system > 0:
            self.controller.set_b(system)

    @Slot(QModelIndex)
    def on_double_clicked(self, index: QModelIndex) -> None:
        if index.column() == NAME_COLUMN:
            self.controller.actions.rename(self.system_at(index))

    @Slot(QPoint)
    def on_context_menu(self, pos: QPoint) -> None:
        index = self.table.indexAt(pos)
        run = self.controller.run
        if not index.isValid() or run is None:
            return
        system = self.system_at(index)
        menu = QMenu(self)
        make = menu.addAction(f"Make “{run.systems[system].name}” the baseline")
        make.setEnabled(system > 0)
        make.triggered.connect(lambda: self.controller.actions.compare_pair(system, -1))
        rename = menu.addAction("Rename…")
        rename.triggered.connect(lambda: self.controller.actions.rename(system))
        menu.popup(self.table.viewport().mapToGlobal(pos))
