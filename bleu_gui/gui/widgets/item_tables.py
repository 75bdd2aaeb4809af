"""Small tables of read-only items (Compare's human errors, metrics against humans): a cell may carry the segments it
counts (``ROWS``: a click opens them)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView

from .layout import Table

ROWS = Qt.ItemDataRole.UserRole  # a cell's segments (the shown run's, 0-based) and what they are
SORT = Qt.ItemDataRole.UserRole + 1  # what a sortable table orders a cell by (its number, not its text)


def item_table(name: str) -> Table:
    table = Table()
    table.setObjectName(name)
    table.setModel(QStandardItemModel(table))
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 6)
    return table


def model_of(table: Table) -> QStandardItemModel:
    model = table.model()
    assert isinstance(model, QStandardItemModel)  # set by item_table
    return model


def sortable(table: Table) -> None:
    """A click on a column's header orders the rows by that column's values (each cell's ``SORT``), again on a
    click the other way; the first column's order is the table's own (give it the rank)."""
    model_of(table).setSortRole(SORT)
    table.horizontalHeader().setSortIndicator(0, Qt.SortOrder.AscendingOrder)
    table.setSortingEnabled(True)


def fill(table: Table, headers: list[str], rows: list[list[QStandardItem]]) -> None:
    model = model_of(table)
    model.clear()
    model.setHorizontalHeaderLabels(headers)
    for row in rows:
        model.appendRow(row)
    if table.isSortingEnabled():  # new rows in the order the user chose
        header = table.horizontalHeader()
        model.sort(header.sortIndicatorSection(), header.sortIndicatorOrder())
    table.resizeColumnsToContents()


def rows_height(table: Table, rows: int) -> int:
    """The height that shows ``rows`` rows of ``table`` under its header, with its horizontal scroll bar."""
    return (table.horizontalHeader().sizeHint().height() + rows * table.verticalHeader().defaultSectionSize()
            + table.horizontalScrollBar().sizeHint().height() + 2 * table.frameWidth() + 4)


def name_item(text: str) -> QStandardItem:
    item = QStandardItem(text)
    item.setEditable(False)
    return item


def cell(text: str, rows: list[int] | None = None, said: str = "", tip: str = "",
         value: float | None = None) -> QStandardItem:
    """A right-aligned cell; ``value``: what a sortable table orders it by."""
    item = name_item(text)
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    if value is not None:
        item.setData(value, SORT)
    if rows:
        item.setData((rows, said), ROWS)
        item.setToolTip(tip or f"Click: the {len(rows):,} segment(s) {said}")
    return item
