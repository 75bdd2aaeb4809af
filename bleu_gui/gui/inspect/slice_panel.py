"""Slices in the window: a metadata value or a document picked here is scored again as a corpus of its own.

The choices come from the whole run (so every document stays listed while one
is shown); the scoring happens in the worker (:meth:`RunActions.apply_slice`).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Slot
from PySide6.QtWidgets import QAbstractItemView, QComboBox, QHeaderView, QLabel, QLineEdit, QSizePolicy, QVBoxLayout, QWidget

from ...core.analysis.documents import DocumentScores
from ...core.analysis.slice_expr import equals_text
from ...core.output.score_text import score_text
from ..controller import Controller
from ..widgets.layout import Table, hrow
from ..widgets.style import MARKED, styled
from ..window_words import in_slice_box_words

_MAX_VALUES = 60  # values of one metadata column offered in the slice menu


class DocumentModel(QAbstractTableModel):
    """Documents of the whole run: id, segments, the score of the shown system, and Δ against the baseline."""

    HEADERS = ("Document", "Segments", "BLEU", "Δ vs A")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ids: list[str] = []
        self.rows: list[np.ndarray] = []
        self.scores = np.zeros(0)
        self.deltas: np.ndarray | None = None
        self.metric = "BLEU"

    def set_documents(self, docs: DocumentScores | None, system: int, metric: str) -> None:
        self.beginResetModel()
        self.metric = metric
        if docs is None:
            self.ids, self.rows, self.scores, self.deltas = [], [], np.zeros(0), None
        else:
            self.ids, self.rows, self.scores = docs.ids, docs.rows, docs.scores[system]
            self.deltas = docs.scores[system] - docs.scores[0] if system > 0 else None
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.ids)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else (4 if self.deltas is not None else 3)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.metric if section == 2 else self.HEADERS[section]
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal and section >= 2:
            return (f"Corpus {self.metric} of the document's own segments (statistics summed), not a mean of "
                    "sentence scores")
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        if role == Qt.ItemDataRole.ToolTipRole and c == 0:
            return f"{self.ids[r]}: click to score this document alone"
        if role == Qt.ItemDataRole.DisplayRole:
            if c == 0:
                return self.ids[r]
            if c == 1:
                return f"{len(self.rows[r]):,}"
            if c == 2:
                return score_text(float(self.scores[r]))
            if c == 3 and self.deltas is not None:
                return f"{self.deltas[r]:+.2f}"
        elif role == Qt.ItemDataRole.TextAlignmentRole and c > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        elif role == Qt.ItemDataRole.UserRole:  # the sort key
            return self.ids[r] if c == 0 else self._number(r, c)
        return None

    def _number(self, r: int, column: int) -> float:
        """The sort key of a number column: segments, score, Δ."""
        if column == 1:
            return float(len(self.rows[r]))
        if column == 2:
            return float(self.scores[r])
        return float(self.deltas[r]) if self.deltas is not None else 0.0

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        descending = order == Qt.SortOrder.DescendingOrder
        rows = range(len(self.ids))
        ranked = (sorted(rows, key=self.ids.__getitem__, reverse=descending) if column == 0
                  else sorted(rows, key=lambda r: self._number(r, column), reverse=descending))
        self.layoutAboutToBeChanged.emit()
        self.ids = [self.ids[i] for i in ranked]
        self.rows = [self.rows[i] for i in ranked]
        self.scores = self.scores[ranked]
        if self.deltas is not None:
            self.deltas = self.deltas[ranked]
        self.layoutChanged.emit()


_EXAMPLE = "Slice by expression, e.g. ref_words >= 20 and bleu[B] > bleu[A] (Enter)"
_EXAMPLE_WITHOUT_REFERENCES = "Slice by expression, e.g. src_words >= 20 and hyp_words[A] < src_words (Enter)"


class SlicePanel(QWidget):
    """The slice menu and its status line; ``documents`` is the document table (placed by the view). A slice
    chosen here is asked of the controller's actions."""

    def __init__(self, controller: Controller, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.expression = QLineEdit()
        self.expression.setPlaceholderText(_EXAMPLE)
        self.expression.setToolTip(
            "Score the segments where this holds, as a corpus of their own. Fields: doc and the input's metadata "
            "columns, ref_words, src_words, hyp_words[NAME], a metric's sentence score of a system (bleu[NAME], "
            "chrf[NAME], ter[NAME], an imported COMET[NAME]), delta_bleu (the second system minus the first); "
            "= != < <= > >=, joined by and, or, not and parentheses")
        self.expression.setClearButtonEnabled(True)
        self.expression.returnPressed.connect(self.on_expression)
        self.expression.textChanged.connect(self.on_expression_edited)
        # The slice shown is the menu's choice (a value or a document) and the box's expression, both when both
        # are given: "domain = news and (ref_words >= 20)".
        self._applied: str | None = None  # the box's expression in the slice shown
        self._chosen: tuple[str, list[int], str | None] | None = None  # the menu's: description, rows, expression
        self.problem = QLabel("")  # why the box's expression gives no slice, under the box
        styled(self.problem, "warning")
        self.problem.setWordWrap(True)
        self.problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problem.hide()
        self.combo = QComboBox()
        self.combo.setToolTip("Score only the segments with this metadata value, as a corpus of their own "
                              "(BLEU and the paired tests of the slice)")
        # Long document ids and descriptions must not widen the window.
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(18)
        self.combo.activated.connect(self.on_choice)
        self.status = QLabel("")
        styled(self.status, "hint")
        self.status.setWordWrap(True)  # never cut: a second line where the list is narrow
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.model = DocumentModel(self)
        self.documents = Table()
        self.documents.setModel(self.model)
        self.documents.setSortingEnabled(True)
        self.documents.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.documents.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.documents.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # file order first
        self.documents.setWordWrap(False)
        self.documents.verticalHeader().setVisible(False)
        self.documents.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.documents.clicked.connect(self.on_document_clicked)
        self.menu_label = QLabel("Slice")
        row = hrow(self.menu_label, self.combo)
        row.setStretch(1, 1)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        box.addLayout(row)
        # The slice's size and scores on a line of their own: beside the menu a laptop's list cut them in half.
        box.addWidget(self.status)
        box.addWidget(self.expression)
        box.addWidget(self.problem)

        controller.run_changed.connect(self.refresh)
        controller.system_changed.connect(self.refresh)
        controller.metric_changed.connect(self.refresh)

    @Slot()
    def refresh(self) -> None:
        """Offer the whole run's documents and metadata values; say which slice the shown run is."""
        c = self.controller
        run, whole = c.run, c.whole
        if run is None:
            return
        if run.slice is None:  # the whole corpus (or other files): no choice of the menu or the box is shown
            self._chosen = self._applied = None
        # An example the run can take: without references, no ref_words and no BLEU.
        self.expression.setPlaceholderText(_EXAMPLE if run.references else _EXAMPLE_WITHOUT_REFERENCES)
        system, k = c.system, c.metric
        self.combo.clear()
        self.combo.addItem("Whole corpus", None)
        columns = whole.run.context.meta if whole is not None else {}
        for key, values in columns.items():
            counts = Counter(values)
            if 1 < len(counts) <= _MAX_VALUES:
                for value, n in counts.items():
                    self.combo.addItem(f"{key} = {value} ({n:,})", (key, value))
        name = run.metrics[k].name
        if run.slice is not None:
            self.combo.addItem(run.slice.description, "current")
            self.combo.setCurrentIndex(self.combo.count() - 1)
            whole_score = run.slice.whole[k][system]
            shown = run.systems[system].results[k].corpus.score
            self.status.setText(f"{len(run.slice.rows):,} of {run.slice.total:,} segments · {name} {shown:.2f} "
                                f"(whole corpus {whole_score:.2f})")
            self.status.setToolTip(f"{run.slice.summary}: {name} {shown:.2f} here, {whole_score:.2f} on the whole "
                                   "corpus")
        else:
            self.status.setText("")
        # The menu when there are documents or metadata to choose from; the expression box always.
        menu = self.combo.count() > 1 or run.slice is not None
        for widget in (self.combo, self.menu_label):
            widget.setVisible(menu)
        self.status.setVisible(run.slice is not None)
        self.model.set_documents(whole.documents[k] if whole is not None else None, system, name)

    def show_problem(self, message: str) -> None:
        """Say why the box's expression gives no slice (a core message, fields unworded): the box framed, the
        message under it; the slice shown stays."""
        self.expression.setStyleSheet(MARKED)
        self.problem.setText(in_slice_box_words(message))
        self.problem.show()

    def _clear_problem(self) -> None:
        self.expression.setStyleSheet("")
        self.problem.hide()

    def _show_slice(self) -> None:
        """Ask for the slice of the menu's choice and the box's expression (either, both, or neither)."""
        actions, chosen, applied = self.controller.actions, self._chosen, self._applied
        if chosen is None and applied is None:
            actions.clear_slice()
        elif applied is None:
            assert chosen is not None
            actions.apply_slice(chosen[1], chosen[0])
        elif chosen is None:
            actions.apply_where(applied, self.show_problem)
        elif chosen[2] is None:  # a value no expression can spell (both kinds of quotes): the box's alone, said
            self._chosen = None
            actions.apply_where(applied, self.show_problem)
            self.show_problem(f"the expression replaces {chosen[0]} (its value cannot be written in an expression)")
        else:
            actions.apply_where(f"{chosen[2]} and ({applied})", self.show_problem)

    def _choose(self, field: str, value: str, rows: list[int]) -> None:
        self._chosen = (f"{field} = {value}", rows, equals_text(field, value))
        self._show_slice()

    @Slot(int)
    def on_choice(self, index: int) -> None:
        data = self.combo.itemData(index)
        if data == "current":
            return
        if data is None:
            self._chosen = None
            self._show_slice()
        elif self.controller.whole_run is not None:
            key, value = data
            values = self.controller.whole_run.context.columns()[key]
            self._choose(key, value, [i for i, v in enumerate(values) if v == value])

    @Slot()
    def on_expression(self) -> None:
        self._clear_problem()
        self._applied = self.expression.text().strip() or None
        self._show_slice()

    @Slot(str)
    def on_expression_edited(self, text: str) -> None:
        """The box emptied (its ⓧ, or the text deleted) while its slice is shown: the menu's choice alone again
        (or the whole corpus). Any edit takes back what the box said of the last expression."""
        self._clear_problem()
        if not text.strip() and self._applied is not None:
            self._applied = None
            self._show_slice()

    @Slot(QModelIndex)
    def on_document_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            r = index.row()
            self._choose("doc", self.model.ids[r], self.model.rows[r].tolist())
