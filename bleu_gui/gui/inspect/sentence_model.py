"""The sentence list model: a virtual table over numpy arrays, sorted and filtered with numpy.

No item objects per row: ``data()`` formats the visible row on demand, so a
million sentences cost a few arrays. Sorting walks an order the worker computed
(:mod:`bleu_gui.core.analysis.orders`) through the visible rows; filtering builds a new
index array.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor

from ...core import palette
from ...core.analysis.orders import SentenceOrders, casefolded, ordered, text_matches
from ...core.output.score_text import score_text
from ...core.runtime import let_go, out_of_gc_passes
from ..jobs import JobController

COLUMNS = ("#", "BLEU", "Len ratio", "Candidate")
COL_INDEX, COL_BLEU, COL_RATIO, COL_TEXT = range(4)
_MAX_SHOWN = 300  # characters of a candidate shown in the list; the panes show it whole
_SEARCH_IN_WORKER = 100_000  # lines from which a text filter is searched in a worker (~0.4 s at a million)


class SentenceTableModel(QAbstractTableModel):
    """Rows are sentences of one system; ``sentence_at(row)`` maps a view row to the sentence index.

    ``filter_applied`` is emitted once a :meth:`set_filter` shows in the rows: at once for short lists, when the
    worker's search is done for long ones.
    """

    filter_applied = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._search = JobController(self)
        self._matches: np.ndarray | None = None  # lines that hold the filter text (None: no text filter)
        self._folded: list[str] | None = None     # the lines casefolded, kept after a long list's first search
        self._lines: list[str] = []
        self._scores = np.zeros(0)
        self._visible = np.zeros(0, np.int64)
        self._orders = SentenceOrders(*(np.zeros(0, np.int64),) * 3, np.zeros(0), np.zeros(10, np.int64))
        self._sort_column, self._sort_order = COL_INDEX, Qt.SortOrder.AscendingOrder
        self._text = ""
        self._low: float | None = None
        self._high: float | None = None
        self._numbers: np.ndarray | None = None  # line numbers in the inputs (a slice keeps the original's)
        self._only: np.ndarray | None = None     # a flag mask (e.g. tag mismatches) the list is limited to
        self._only_rule = ""
        self._rules: list[str] = []  # what the rows' filters keep, in words
        # What-if: sentence -> (edited text, its sentence score, its length ratio)
        self.edited: dict[int, tuple[str, float, float]] = {}
        self.reviewed: set[int] = set()  # sentences a reviewer has reviewed (ticked)
        self.metric = "BLEU"  # the metric whose sentence scores the list shows
        self._caveats: dict[int, str] = {}  # sentence -> why its score deserves a caveat
        self._decimals = 2  # the metric's (COMET's 4)
        self.against_source = False  # the length ratios are over the source (a run without references)

    # -- content ----------------------------------------------------------------
    def set_sentences(self, lines: list[str], scores: np.ndarray, orders: SentenceOrders,
                      numbers: np.ndarray | None = None, metric: str = "BLEU",
                      caveats: dict[int, str] | None = None, decimals: int = 0, against_source: bool = False) -> None:
        """``scores``: the sentence scores of ``metric``; ``orders``: the sentences' sort orders and length ratios,
        computed by the worker (see :func:`sentence_orders`); ``caveats``: the sentences whose score the metric
        warns about (marked ⚠, the reason in the tooltip); ``against_source``: the ratios are the candidate's
        characters over the source's (a run without references)."""
        self.beginResetModel()
        self.against_source = against_source
        self.metric = metric
        self._caveats = caveats or {}
        self._decimals = max(2, decimals)
        self._lines = lines
        self._numbers = numbers
        self._only = None
        self.edited = {}
        self._scores = np.asarray(scores, np.float64)
        self._orders = orders
        let_go(self._folded)  # a million casefolded lines: freed off this thread
        self._folded = None
        self._matches = self._search_text() if self._text else None
        self._visible = self._compute_visible()
        self.endResetModel()

    def set_filter(self, text: str = "", low: float | None = None, high: float | None = None) -> None:
        """Keep sentences whose candidate contains ``text`` (case-insensitive) and whose score is in [low, high]."""
        text_changed = text != self._text
        self._text, self._low, self._high = text, low, high
        if text_changed:
            self._matches = self._search_text() if text else None
            if self.searching:
                return  # the worker's search refilters the list when it is done
        self._refilter()

    def _search_text(self) -> np.ndarray | None:
        """The lines that hold the filter text, for a short list; for a long one None, and a search in the worker
        (its result refilters the list; until then the list is not filtered by text)."""
        lines, text, folded = self._lines, self._text, self._folded
        if len(lines) < _SEARCH_IN_WORKER:
            return text_matches(casefolded(lines), text)

        def search(progress: Callable[[float], None]) -> tuple[list[str], np.ndarray]:
            lower = folded if folded is not None else casefolded(lines, progress)
            return lower, text_matches(lower, text, progress)

        self._search.submit(search, lambda result: self._found(lines, text, *result))
        return None

    def _found(self, lines: list[str], text: str, folded: list[str], matches: np.ndarray) -> None:
        if lines is not self._lines:
            return  # other sentences are shown now
        self._folded = folded
        out_of_gc_passes(len(lines))
        if text == self._text:  # else the filter changed meanwhile
            self._matches = matches
            self._refilter()

    def stop_search(self) -> None:
        """Stop a search still running in the worker (before the window goes)."""
        self._search.shutdown()

    def _refilter(self) -> None:
        self.beginResetModel()
        self._visible = self._compute_visible()
        self.endResetModel()
        self.filter_applied.emit()

    def set_only(self, mask: np.ndarray | None, rule: str) -> None:
        """Limit the list to the sentences where ``mask`` is true (None: no limit); ``rule`` says which, in words."""
        self._only_rule = rule
        if mask is self._only or (mask is not None and self._only is not None and np.array_equal(mask, self._only)):
            return  # no reset: it repaints the list, and during a worker's search each data() waits for its lock
        self.beginResetModel()
        self._only = mask
        self._visible = self._compute_visible()
        self.endResetModel()

    def set_reviewed(self, sentences: set[int]) -> None:
        """Tick the sentences a reviewer has reviewed (the others unticked)."""
        if sentences != self.reviewed:
            self.reviewed = set(sentences)
            if self.rowCount():
                self.dataChanged.emit(self.index(0, COL_INDEX), self.index(self.rowCount() - 1, COL_INDEX))

    def set_edited(self, sentence: int, edit: tuple[str, float, float] | None) -> None:
        """Mark a sentence as edited, with its edited text, score and length ratio (None: not edited). Filters and
        sorting keep using the files' text and scores: an edit never moves a row while it is typed."""
        if edit is None:
            self.edited.pop(sentence, None)
        else:
            self.edited[sentence] = edit
        row = self.row_of(sentence)
        if row is not None:
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    @property
    def searching(self) -> bool:
        """A text filter is set and its search still runs in the worker (the rows are not filtered by it yet)."""
        return bool(self._text) and self._matches is None

    def rules(self) -> list[str]:
        """What the rows' filters keep, in words (empty: every sentence). These are the filters the rows
        reflect: while a text search runs they are not yet the ones asked for."""
        return self._rules

    def visible_sentences(self) -> list[int]:
        """The sentences the list shows, in index order."""
        return np.sort(self._visible).tolist()

    @property
    def total(self) -> int:
        return len(self._lines)

    def sentence_at(self, row: int) -> int:
        return int(self._visible[row])

    def row_of(self, sentence: int) -> int | None:
        rows = np.flatnonzero(self._visible == sentence)
        return int(rows[0]) if len(rows) else None

    def _compute_visible(self) -> np.ndarray:
        keep = np.ones(len(self._lines), bool) if self._only is None else self._only.copy()
        if self._low is not None:
            keep &= self._scores >= self._low
        if self._high is not None:
            keep &= self._scores <= self._high
        if self._matches is not None:
            keep &= self._matches
        self._rules = self._rules_in_words()
        return self._sorted(np.flatnonzero(keep))

    def _rules_in_words(self) -> list[str]:
        rules = [f"candidate contains {self._text!r}"] if self._matches is not None else []
        if self._low is not None or self._high is not None:
            rules.append(f"sentence {self.metric} {self._low or 0:g}–{100 if self._high is None else self._high:g}")
        return rules + ([self._only_rule] if self._only is not None else [])

    def _sorted(self, rows: np.ndarray) -> np.ndarray:
        """``rows`` (ascending) in the list's sort order."""
        order = {COL_TEXT: self._orders.text, COL_BLEU: self._orders.score,
                 COL_RATIO: self._orders.ratio}.get(self._sort_column)
        if order is not None:
            rows = ordered(order, rows)
        if self._sort_order == Qt.SortOrder.DescendingOrder:
            rows = rows[::-1].copy()
        return rows

    # -- Qt model interface -----------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._visible)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal and 0 <= section < len(COLUMNS):
            if section == COL_RATIO and self.against_source:
                return "Len/src"
            return self.metric if section == COL_BLEU else COLUMNS[section]
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal and section == COL_RATIO:
            return ("The candidate's characters over the source's (the run has no reference): far from the usual "
                    "ratio, a sign of an omission or an addition" if self.against_source else
                    "The candidate's length over the reference's (BLEU's tokens and effective reference length)")
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._visible):
            return None
        i = int(self._visible[index.row()])
        col = index.column()
        edit = self.edited.get(i)
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_INDEX:
                return (("✓ " if i in self.reviewed else "") + ("✎ " if edit else "")
                        + str(i + 1 if self._numbers is None else int(self._numbers[i])))
            if col == COL_BLEU:
                return ("⚠ " if i in self._caveats and not edit else "") + score_text(
                    edit[1] if edit else float(self._scores[i]), self._decimals)
            if col == COL_TEXT and edit:
                return edit[0][:_MAX_SHOWN]
            if col == COL_RATIO:
                ratio = edit[2] if edit else self._orders.ratios[i]
                return "–" if math.isnan(ratio) else f"{ratio:.2f}"
            if col == COL_TEXT:
                line = self._lines[i]
                return line if len(line) <= _MAX_SHOWN else line[:_MAX_SHOWN] + "…"
        elif role == Qt.ItemDataRole.TextAlignmentRole and col != COL_TEXT:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        elif role == Qt.ItemDataRole.BackgroundRole and edit:
            return QColor(palette.EDITED)
        elif role == Qt.ItemDataRole.ToolTipRole and edit:
            return (f"Edited (what-if): sentence {self.metric} {score_text(float(self._scores[i]), self._decimals)} → "
                    f"{score_text(edit[1], self._decimals)}"
                    f"\nFile: {self._lines[i][:1000]}\nEdited: {edit[0][:1000]}")
        elif role == Qt.ItemDataRole.ToolTipRole and col == COL_BLEU and i in self._caveats:
            return self._caveats[i]
        elif role == Qt.ItemDataRole.ToolTipRole and col == COL_TEXT:
            return self._lines[i][:2000]
        elif role == Qt.ItemDataRole.UserRole:
            return i
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(COLUMNS):
            return
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        old_sentences = [int(self._visible[ix.row()]) if ix.isValid() else None for ix in old]
        self._sort_column, self._sort_order = column, order
        self._visible = self._sorted(np.sort(self._visible))
        if old:
            position = np.empty(len(self._lines), np.int64)
            position[self._visible] = np.arange(len(self._visible))
            new = [self.index(int(position[s]), ix.column()) if s is not None else QModelIndex()
                   for s, ix in zip(old_sentences, old)]
            self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()
