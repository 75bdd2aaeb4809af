"""Table models of the Compare tab: systems, per-sentence differences, n-gram wins and losses."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

from ..core import Run
from ..core.compare import NgramDifference
from ..core.formats import IDENTICAL, IDENTICAL_NOTE, delta_text, p_text, score_text

_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class SystemsTableModel(QAbstractTableModel):
    """One row per system: BLEU, interval, delta to the baseline, p-values, precisions, BP, lengths."""

    HEADERS = ["System", "BLEU", "μ ± 95% CI", "Δ vs baseline", "p (bootstrap)", "p (AR)", "BP", "ratio",
               "hyp_len", "ref_len"]

    def __init__(self, parent=None):
        super().__init__(parent)
        self.run: Run | None = None
        self._orders = 0

    def set_run(self, run: Run | None) -> None:
        self.beginResetModel()
        self.run = run
        self._orders = run.config.max_order if run else 0
        self.endResetModel()

    def _headers(self) -> list[str]:
        return self.HEADERS[:6] + [f"p{n}" for n in range(1, self._orders + 1)] + self.HEADERS[6:]

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() or self.run is None else len(self.run.systems)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._headers())

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            headers = self._headers()
            return headers[section] if 0 <= section < len(headers) else None
        return None

    def cell(self, row: int, col: int) -> str:
        c = self.run.comparison
        s = self.run.systems[row]
        score = s.corpus
        bs = c.bootstrap[row] if c.bootstrap else None
        ar = c.approximate[row] if c.approximate else None
        identical = bool(c.identical[row]) if c.identical else False
        values = [
            ("baseline: " if row == 0 else "") + s.name,
            score_text(score.score),
            f"{bs.mean:.2f} ± {bs.ci:.2f}" if bs and bs.mean is not None else "–",
            "–" if row == 0 else delta_text(score.score - self.run.systems[0].corpus.score),
            p_text(bs.p_value if bs else None, identical) + (f" ({IDENTICAL})" if identical else ""),
            p_text(ar.p_value if ar else None, identical),
            *[f"{p:.1f}" for p in score.precisions[:self._orders]],
            f"{score.bp:.3f}", f"{score.ratio:.3f}", str(score.sys_len), str(score.ref_len),
        ]
        return values[col]

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or self.run is None or self.run.comparison is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell(index.row(), index.column())
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() > 0:
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole:
            identical = self.run.comparison.identical
            if identical and identical[index.row()] and index.column() in (0, 4, 5):
                return f"{self.run.systems[index.row()].name}: {IDENTICAL_NOTE}"
            if index.column() == 0:
                return str(self.run.systems[index.row()].file.path)
        return None


class PairTableModel(QAbstractTableModel):
    """Per-sentence comparison of the baseline (A) and one system (B), sortable and filterable with numpy."""

    HEADERS = ["#", "BLEU A", "BLEU B", "B − A", "LOO ΔBLEU"]
    ALL, B_BETTER, A_BETTER, EQUAL = range(4)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.a = self.b = self.loo = np.zeros(0)
        self._visible = np.zeros(0, np.int64)
        self._keep: np.ndarray | None = None
        self._side = self.ALL
        self._sort = (0, Qt.SortOrder.AscendingOrder)

    def set_pair(self, a: np.ndarray, b: np.ndarray, loo: np.ndarray) -> None:
        self.beginResetModel()
        self.a, self.b, self.loo = np.asarray(a, float), np.asarray(b, float), np.asarray(loo, float)
        self._keep = None
        self._visible = self._compute()
        self.endResetModel()

    def set_side(self, side: int) -> None:
        self.beginResetModel()
        self._side = side
        self._visible = self._compute()
        self.endResetModel()

    def set_sentences(self, keep: np.ndarray | None) -> None:
        """Restrict the list to these sentence indices (None: all)."""
        self.beginResetModel()
        self._keep = None if keep is None else np.asarray(keep, np.int64)
        self._visible = self._compute()
        self.endResetModel()

    @property
    def delta(self) -> np.ndarray:
        return self.b - self.a

    def _compute(self) -> np.ndarray:
        d = np.nan_to_num(self.delta)
        mask = np.ones(len(d), bool)
        if self._side == self.B_BETTER:
            mask &= d > 0
        elif self._side == self.A_BETTER:
            mask &= d < 0
        elif self._side == self.EQUAL:
            mask &= d == 0
        if self._keep is not None:
            keep = np.zeros(len(d), bool)
            keep[self._keep[(self._keep >= 0) & (self._keep < len(d))]] = True
            mask &= keep
        rows = np.flatnonzero(mask)
        col, order = self._sort
        key = [None, self.a, self.b, self.delta, self.loo][col]
        if key is not None:
            rows = rows[np.argsort(np.nan_to_num(key[rows], nan=-1e9), kind="stable")]
        if order == Qt.SortOrder.DescendingOrder:
            rows = rows[::-1].copy()
        return rows

    def sentence_at(self, row: int) -> int:
        return int(self._visible[row])

    def row_of(self, sentence: int) -> int | None:
        rows = np.flatnonzero(self._visible == sentence)
        return int(rows[0]) if len(rows) else None

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._visible)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal and 0 <= section < 5:
            return self.HEADERS[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._visible):
            return None
        i = int(self._visible[index.row()])
        if role == Qt.ItemDataRole.DisplayRole:
            col = index.column()
            if col == 0:
                return str(i + 1)
            value = float([0.0, self.a[i], self.b[i], self.delta[i], self.loo[i]][col])
            return delta_text(value) if col >= 3 else score_text(value)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT
        if role == Qt.ItemDataRole.UserRole:
            return i
        return None

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self.HEADERS):
            return
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        old_sentences = [int(self._visible[ix.row()]) if ix.isValid() else None for ix in old]
        self._sort = (column, order)
        self._visible = self._compute()
        if old:
            # Selections and the current row follow their sentence to its new row.
            position = {int(s): r for r, s in enumerate(self._visible)}
            new = [self.index(position[s], ix.column()) if s in position else QModelIndex()
                   for s, ix in zip(old_sentences, old)]
            self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()


class NgramTableModel(QAbstractTableModel):
    """N-grams one system matches more often than the other, with the match counts."""

    HEADERS = ["n-gram", "A", "B", "B − A"]

    def __init__(self, parent=None):
        super().__init__(parent)
        self.items: list[NgramDifference] = []

    def set_items(self, items: list[NgramDifference]) -> None:
        self.beginResetModel()
        self.items = list(items)
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.items)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else 4

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal and 0 <= section < 4:
            return self.HEADERS[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self.items):
            return None
        d = self.items[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return [d.ngram, str(d.matches_a), str(d.matches_b), f"{d.delta:+d}"][index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() > 0:
            return _RIGHT
        return None
