"""Table models of the Compare tab: systems, per-sentence differences, n-gram wins and losses."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from ...core import Run, palette
from ...core.analysis.compare import NgramDifference
from ...core.analysis.pair_matrix import PairMatrix
from ...core.output.rankings import Ranking, SystemRow, system_rows
from ...core.output.score_text import IDENTICAL, IDENTICAL_NOTE, NO_SCORES, delta_text, p_text, score_text

_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class SystemsTableModel(QAbstractTableModel):
    """One row per system under one metric: rank, score, interval, Δ and p-values against the baseline,
    win/tie/loss with the sign test, then the metric's own columns (for BLEU precisions, BP, lengths).
    ``SORT_ROLE`` gives each cell's sort key (numbers sort as numbers)."""

    SORT_ROLE = Qt.ItemDataRole.UserRole + 1
    HEAD = ["Rank", "System", "BLEU", "μ ± 95% CI", "Δ vs baseline", "p (bootstrap)", "p (AR)", "B / = / A",
            "sign p"]

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.run: Run | None = None
        self.ranking = Ranking()
        self.metric = 0
        self.rows: list[SystemRow] = []
        self._cells: list[list[tuple[str, object]]] = []
        self._place: list[float] = []
        self._header_names = list(self.HEAD)

    def set_run(self, run: Run | None, ranking: Ranking | None = None, metric: int = 0) -> None:
        self.beginResetModel()
        self.run = run
        self.ranking = ranking or self.ranking
        self.metric = metric
        own = [h for h, _ in run.systems[0].results[metric].corpus.columns()] if run else []
        head = list(self.HEAD)
        head[2] = run.metrics[metric].name if run else head[2]
        self._header_names = head + own
        self.rows = system_rows(run, self.ranking, metric) if run is not None and run.comparison is not None else []
        # Best first within a rank: the rank column sorts by (rank, place by score), so the table starts ranked.
        self._place = self._places()
        # Every cell once, here: views ask for each cell many times (sizing, sorting, painting).
        self._cells = [self._row_cells(r) for r in range(len(self.rows))]
        self.endResetModel()

    def _places(self) -> list[float]:
        """Each row's place by score, best first, as a fraction below 1 (the rank column's tie-breaker)."""
        if self.run is None or not self.rows:
            return []
        sign = -1.0 if self.run.metrics[self.metric].higher_is_better else 1.0
        scores = [sign * self.run.systems[r.index].results[self.metric].corpus.score for r in self.rows]
        order = sorted(range(len(scores)), key=lambda i: (np.isnan(scores[i]), 0.0 if np.isnan(scores[i]) else scores[i],
                                                          i))
        place = [0.0] * len(scores)
        for position, i in enumerate(order):
            place[i] = position / (len(scores) + 1)
        return place

    def _headers(self) -> list[str]:
        return self._header_names

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._headers())

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation != Qt.Orientation.Horizontal:
            return None
        headers = self._headers()
        if not 0 <= section < len(headers):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return headers[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return _HEADER_TIPS.get(headers[section], self.ranking.describe(self._matrix()) if section == 0 else None)
        return None

    def _matrix(self) -> PairMatrix | None:
        if self.run is None or self.run.comparison is None:
            return None
        return self.run.comparison.by_metric[self.metric].matrix

    def cell(self, row: int, col: int) -> str:
        """The text shown in one cell."""
        return self._cells[row][col][0]

    def _row_cells(self, row: int) -> list[tuple[str, object]]:
        """(shown text, sort key) of each cell of a row."""
        r, run = self.rows[row], self.run
        assert run is not None and run.comparison is not None  # rows exist only for a compared run
        s = run.systems[r.index]
        score = s.results[self.metric].corpus
        by = run.comparison.by_metric[self.metric]
        bs = by.bootstrap[r.index] if by.bootstrap else None
        alpha = self.ranking.alpha
        wtl = "–" if r.wins is None else f"{r.wins} / {r.ties} / {r.losses}"
        d = max(2, score.decimals)
        cells: list[tuple[str, object]] = [
            ("–" if r.rank is None else str(r.rank), (r.rank or len(self.rows) + 1) + self._place[row]),
            (("baseline: " if r.index == 0 else "") + r.name, r.name.lower()),
            (NO_SCORES if score.absent else score_text(score.score, d), float("-inf") if score.absent else score.score),
            (f"{bs.mean:.{d}f} ± {bs.ci:.{d}f}" if bs and bs.mean is not None else "–",
             bs.mean if bs and bs.mean else 0.0),
            ("–" if r.delta is None else delta_text(r.delta, d), r.delta if r.delta is not None else 0.0),
            (p_text(r.p_bs, r.identical, alpha) + (f" ({IDENTICAL})" if r.identical else ""), _key(r.p_bs)),
            (p_text(r.p_ar, r.identical, alpha), _key(r.p_ar)),
            (wtl, (r.wins or 0) - (r.losses or 0)),
            (p_text(r.sign_p, r.identical, alpha), _key(r.sign_p)),
            *[(text, _number(text)) for _, text in score.columns()],
        ]
        return cells

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        r = self.rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell(index.row(), index.column())
        if role == self.SORT_ROLE:
            return self._cells[index.row()][index.column()][1]
        if role == Qt.ItemDataRole.UserRole:
            return r.index
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() != 1:
            return _RIGHT
        if role == Qt.ItemDataRole.BackgroundRole and r.rank is not None:
            return QColor(palette.CLUSTER_BANDS[(r.rank - 1) % 2])  # a band per significance cluster
        if role == Qt.ItemDataRole.DecorationRole and index.column() == 1:
            return QColor(palette.SYSTEMS[r.index % len(palette.SYSTEMS)])
        if role == Qt.ItemDataRole.ToolTipRole:
            if r.identical and index.column() in (1, 5, 6, 8):
                return f"{r.name}: {IDENTICAL_NOTE}"
            if index.column() == 1 and self.run is not None:
                return str(self.run.systems[r.index].file.path)
            if index.column() in (5, 6) and r.no_p is not None:
                return f"no p-value: {r.no_p}"
            if index.column() in (5, 6) and r.tested_on is not None:
                return f"tested on the {r.tested_on:,} segments both {r.name} and the baseline scored"
            if index.column() in (7, 8) and r.wins is not None:
                return (f"{r.wins} sentences where {r.name} scores higher than the baseline, {r.ties} equal, "
                        f"{r.losses} lower; sign test (ties left out) p = {r.sign_p:.4g}")
        return None


def _key(p: float | None) -> float:
    return 2.0 if p is None else float(p)


def _number(text: str) -> object:
    """A cell's sort key: its number, where it is one."""
    try:
        return float(text)
    except ValueError:
        return text


_HEADER_TIPS = {
    "B / = / A": "Sentences where this system scores higher than the baseline / the same / lower",
    "sign p": "Two-sided sign test of those wins against losses (ties left out)",
    "p (bootstrap)": "Paired bootstrap against the baseline, as sacreBLEU --paired-bs",
    "p (AR)": "Paired approximate randomization against the baseline, as sacreBLEU --paired-ar",
}


class PairTableModel(QAbstractTableModel):
    """Per-sentence comparison of the baseline (A) and one system (B), sortable and filterable with numpy."""

    HEADERS = ["#", "BLEU A", "BLEU B", "B − A", "LOO ΔBLEU"]
    ALL, B_BETTER, A_BETTER, EQUAL = range(4)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.a = self.b = self.loo = np.zeros(0)
        self.numbers: np.ndarray | None = None
        self._visible = np.zeros(0, np.int64)
        self._keep: np.ndarray | None = None
        self._side = self.ALL
        self._sort = (0, Qt.SortOrder.AscendingOrder)
        self.metric, self.higher_is_better, self.decimals = "BLEU", True, 2

    def set_pair(self, a: np.ndarray, b: np.ndarray, loo: np.ndarray, numbers: np.ndarray | None = None,
                 metric: str = "BLEU", higher_is_better: bool = True, decimals: int = 2) -> None:
        """Sentence scores of A and B under ``metric`` (shown with at least its ``decimals``), leave-one-out Δ;
        ``numbers``: line numbers in the inputs (a slice's)."""
        self.beginResetModel()
        self.metric, self.higher_is_better, self.decimals = metric, higher_is_better, max(2, decimals)
        self.a, self.b, self.loo = np.asarray(a, float), np.asarray(b, float), np.asarray(loo, float)
        self.numbers = numbers
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

    def _gain(self) -> np.ndarray:
        """How much better B is than A on each sentence (positive: B better), whichever way the metric points."""
        d = np.nan_to_num(self.delta)
        return d if self.higher_is_better else -d

    def _compute(self) -> np.ndarray:
        d = self._gain()
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

    def counts(self) -> tuple[int, int, int]:
        """Among the listed sentences: how many B scores better, A scores better, both the same."""
        d = self._gain()[self._visible]
        return int(np.sum(d > 0)), int(np.sum(d < 0)), int(np.sum(d == 0))

    def sentence_at(self, row: int) -> int:
        return int(self._visible[row])

    def row_of(self, sentence: int) -> int | None:
        rows = np.flatnonzero(self._visible == sentence)
        return int(rows[0]) if len(rows) else None

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._visible)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal and 0 <= section < 5:
            return self.HEADERS[section].replace("BLEU", self.metric)
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._visible):
            return None
        i = int(self._visible[index.row()])
        if role == Qt.ItemDataRole.DisplayRole:
            col = index.column()
            if col == 0:
                return str(i + 1 if self.numbers is None else int(self.numbers[i]))
            value = float([0.0, self.a[i], self.b[i], self.delta[i], self.loo[i]][col])
            if col == 4:  # one sentence moves a corpus score by hundredths: 4 decimals (COMET's 6) rank them
                return delta_text(value, self.decimals + 2)
            return delta_text(value, self.decimals) if col == 3 else score_text(value, self.decimals)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT
        if role == Qt.ItemDataRole.UserRole:
            return i
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
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

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.items: list[NgramDifference] = []

    def set_items(self, items: list[NgramDifference]) -> None:
        self.beginResetModel()
        self.items = list(items)
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.items)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else 4

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal and 0 <= section < 4:
            return self.HEADERS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self.items):
            return None
        d = self.items[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return [d.ngram, str(d.matches_a), str(d.matches_b), f"{d.delta:+d}"][index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() > 0:
            return _RIGHT
        return None
