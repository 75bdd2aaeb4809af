"""The pair matrix of the Compare tab: every pair's Δ score, coloured by its p-value; click a cell to compare that pair."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal, Slot
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QHeaderView, QLabel, QStyle, QVBoxLayout, QWidget

from ...core import palette
from ...core.analysis.pair_matrix import TEST_NAMES, PairMatrix
from ...core.output.rankings import Ranking
from ...core.output.score_text import NO_SCORES, delta_text, score_text
from ..widgets.layout import FlowLayout, Table, hrow
from ..widgets.style import styled

_CENTER = int(Qt.AlignmentFlag.AlignCenter)
NAME_CHARS = 22  # row labels longer than this are elided (the tooltip has the whole name)


# Column labels: the start and the end of the name (experiment names differ at their ends), 9 characters, which
# fit a 64 px column (10 were cut at both ends), without the extension every system's name shares.
COLUMN_CHARS = 9
_COLUMN_WIDTH = 64  # pixels of a column (its name is cut to fit)


def column_labels(names: list[str], fits: Callable[[str], bool] | None = None) -> list[str]:
    """The systems' names as the matrix's columns say them: without an extension all of them share (sys11.txt,
    sys12.txt: sys11, sys12), cut in the middle to :data:`COLUMN_CHARS`, and further until ``fits`` (a column's
    width in the header's font: "HuaweiTSC" is wider than "sys11" at nine characters)."""
    extensions = {name.rpartition(".")[2] for name in names if "." in name}
    shared = next(iter(extensions)) if len(extensions) == 1 and all("." in n for n in names) else None
    short = [name[:-len(shared) - 1] if shared else name for name in names]
    out = []
    for name in short:
        chars = COLUMN_CHARS
        label = elide_middle(name, chars)
        while fits is not None and chars > 3 and not fits(label):
            chars -= 1
            label = elide_middle(name, chars)
        out.append(label)
    return out


def elide(name: str, chars: int = NAME_CHARS) -> str:
    return name if len(name) <= chars else name[:chars - 1] + "…"


def elide_middle(name: str, chars: int) -> str:
    """``name`` cut in the middle to ``chars`` characters: ``expe…s2.txt``."""
    if len(name) <= chars:
        return name
    head = (chars - 1) // 2
    return name[:head] + "…" + name[len(name) - (chars - 1 - head):]


class PairMatrixModel(QAbstractTableModel):
    """Systems best first on both axes; cell (r, c) holds the Δ score of row − column and is coloured by the p-value
    of ``test`` (under the ranking's correction). ``UserRole`` of a cell: (row system, column system) run indices."""

    def __init__(self, parent: QObject | None = None, fits: Callable[[str], bool] | None = None) -> None:
        super().__init__(parent)
        self._fits = fits  # whether a column's label fits its width
        self.matrix: PairMatrix | None = None
        self.order: list[int] = []
        self.ranking = Ranking()
        self.test = "ar"
        self._p: np.ndarray | None = None
        self._apart: np.ndarray | None = None   # which pairs are significant at the ranking's alpha
        self._ranks: list[int | None] = []
        self._columns: list[str] = []  # the columns' labels, by system
        self.metric_name = "BLEU"
        self.decimals = 2  # the metric's (COMET's 4)

    def set_matrix(self, matrix: PairMatrix | None, ranking: Ranking, test: str | None = None,
                   metric: str = "BLEU", decimals: int = 0) -> None:
        self.beginResetModel()
        self.matrix, self.ranking, self.metric_name, self.decimals = matrix, ranking, metric, max(2, decimals)
        self.order = matrix.by_score() if matrix is not None else []
        self._columns = column_labels(list(matrix.names), self._fits) if matrix is not None else []
        if matrix is not None:
            tests = matrix.tests
            self.test = test if test in tests else (matrix.rank_test or "ar")
            self._p = matrix.p(self.test, ranking.correction)
            self._apart = matrix.apart(self._p, ranking.alpha) if self._p is not None else None
            self._ranks = matrix.ranks(ranking.alpha, ranking.correction) or []
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.order)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return self.rowCount(parent)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if self.matrix is None or not 0 <= section < len(self.order):
            return None
        i = self.order[section]
        name = self.matrix.names[i]
        rank = f"[{self._ranks[i] if self._ranks[i] is not None else '–'}] " if self._ranks else ""
        if role == Qt.ItemDataRole.DisplayRole:
            if orientation == Qt.Orientation.Horizontal:  # the number ties it to its row; the name says who
                return f"{section + 1}\n{self._columns[i]}"
            return f"{section + 1} {rank}{elide(name)}"
        if role == Qt.ItemDataRole.ToolTipRole:
            if not self.matrix.scored(i):
                return f"{section + 1}: {name} — {self.metric_name}: {NO_SCORES}, so no rank and no p-value"
            return f"{section + 1}: {name} — {self.metric_name} {score_text(self.matrix.scores[i], self.decimals)}" + (
                f", rank {self._ranks[i]}" if self._ranks else "")
        if role == Qt.ItemDataRole.DecorationRole:
            return QColor(palette.SYSTEMS[i % len(palette.SYSTEMS)])
        return None

    def pair_at(self, index: QModelIndex | QPersistentModelIndex) -> tuple[int, int]:
        return self.order[index.row()], self.order[index.column()]

    def significant(self, a: int, b: int) -> bool:
        return self._apart is not None and bool(self._apart[a, b])

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if self.matrix is None or not index.isValid():
            return None
        a, b = self.pair_at(index)
        m = self.matrix
        if role == Qt.ItemDataRole.DisplayRole:
            if a == b:
                return "·"
            return delta_text(float(m.scores[a] - m.scores[b]), self.decimals) if m.scored(a) and m.scored(b) \
                else NO_SCORES
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _CENTER
        if role == Qt.ItemDataRole.UserRole:
            return (a, b)
        if role == Qt.ItemDataRole.BackgroundRole and a != b and self._p is not None:
            if not self.significant(a, b):
                return QColor(palette.P_NONE)
            strong = self._p[a, b] <= self.ranking.alpha / 10
            return QColor(palette.P_SIGNIFICANT if strong else palette.P_WEAK)
        if role == Qt.ItemDataRole.ForegroundRole and a != b and self._p is not None:
            strong = self.significant(a, b) and self._p[a, b] <= self.ranking.alpha / 10
            return QColor(palette.BACKGROUND if strong else palette.INK)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tooltip(a, b)
        return None

    def tooltip(self, a: int, b: int) -> str:
        m = self.matrix
        assert m is not None  # asked for by data(), which has a matrix
        if a == b:
            return f"{m.names[a]}: {self.metric_name} {score_text(m.scores[a], self.decimals)}"
        corrected = " (Holm-corrected)" if self.ranking.correction == "holm" else ""
        delta = delta_text(float(m.scores[a] - m.scores[b]), self.decimals)
        lines = [f"{m.names[a]} − {m.names[b]}: Δ{self.metric_name} {delta}"]
        for test in m.tests:
            p = m.p(test, self.ranking.correction)
            why = m.reason(a, b, test)
            if why is not None:
                lines.append(f"no p-value ({TEST_NAMES[test]}): {why}")
            elif p is not None:
                lines.append(f"p ({TEST_NAMES[test]}){corrected}: {p[a, b]:.4f}")
        if m.tested_on(a, b) is not None:
            lines.append(f"tested on the {m.tested_on(a, b):,} segments both systems scored")
        few = m.too_few_differ(a, b, self.ranking.alpha)
        if few is not None:
            lines.append(f"not significant: {few}")
        interval = m.interval(b, a)
        if interval is not None:
            lines.append(f"95% interval of Δ{self.metric_name} (bootstrap): [{delta_text(interval[0], self.decimals)}, "
                         f"{delta_text(interval[1], self.decimals)}]")
        lines.append("Click to compare this pair (row as A, column as B)")
        return "\n".join(lines)


class MatrixPanel(QWidget):
    """The matrix with its settings. Signals: ``pair_clicked(a, b)`` with run indices (a: row, b: column),
    ``ranking_changed(object)`` with the new :class:`Ranking`."""

    pair_clicked = Signal(int, int)
    ranking_changed = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = Table()
        header = self.view.horizontalHeader()
        self.model = PairMatrixModel(self, lambda text: header.fontMetrics().horizontalAdvance(text)
                                     <= _COLUMN_WIDTH - 2 * header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin))
        self.view.setModel(self.model)
        self.view.setSelectionMode(Table.SelectionMode.SingleSelection)
        self.view.clicked.connect(self.on_clicked)
        for header in (self.view.horizontalHeader(), self.view.verticalHeader()):
            header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.view.horizontalHeader().setDefaultSectionSize(_COLUMN_WIDTH)
        self.view.verticalHeader().setDefaultSectionSize(self.view.fontMetrics().height() + 6)
        self.test_combo = QComboBox()
        self.test_combo.setToolTip("Which test's p-value colours the cells")
        self.test_combo.currentIndexChanged.connect(self.on_test_changed)
        self.alpha = QDoubleSpinBox()
        self.alpha.setRange(0.001, 0.5)
        self.alpha.setDecimals(3)
        self.alpha.setSingleStep(0.01)
        self.alpha.setValue(Ranking().alpha)
        self.alpha.setToolTip("Significance level for the colours and the ranks")
        self.alpha.valueChanged.connect(self.on_ranking_edited)
        self.correction = QComboBox()
        self.correction.addItem("no correction", "none")
        self.correction.addItem("Holm", "holm")
        self.correction.setToolTip("Correct the p-values for testing every pair (Holm–Bonferroni)")
        self.correction.currentIndexChanged.connect(self.on_ranking_edited)
        self.metric_name = "BLEU"
        self.caption = QLabel("")
        self.why_none = ""  # why there is no matrix (see set_matrix)
        self.decimals = 2  # the metric's (COMET's 4)
        styled(self.caption, "hint")
        self.caption.setWordWrap(True)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.test_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)  # never "approxim…"
        # The controls wrap under the title when the panel is narrow (1366 px with the settings shown).
        head = QWidget()
        flow = FlowLayout(spacing=6)
        flow.setContentsMargins(0, 0, 0, 0)
        head.setLayout(flow)
        for part in (hrow("<b>All pairs</b> (row − column)"), hrow("colour by", self.test_combo),
                     hrow("α", self.alpha, self.correction)):
            holder = QWidget()
            part.setContentsMargins(0, 0, 0, 0)
            holder.setLayout(part)
            flow.addWidget(holder)
        box.addWidget(head)
        self.controls = head  # left out of a figure
        box.addWidget(self.view, 1)
        box.addWidget(self.caption)

    def ranking(self) -> Ranking:
        return Ranking(round(self.alpha.value(), 6), self.correction.currentData())

    def set_matrix(self, matrix: PairMatrix | None, metric: str = "BLEU", why_none: str = "",
                   decimals: int = 2) -> None:
        """Show ``matrix`` of ``metric`` (its scores to ``decimals``); without one, ``why_none`` says why."""
        self.metric_name, self.why_none, self.decimals = metric, why_none, decimals
        self.test_combo.blockSignals(True)
        current = self.test_combo.currentData()
        self.test_combo.clear()
        for test in (matrix.tests if matrix is not None else []):
            self.test_combo.addItem(TEST_NAMES[test].replace("paired ", ""), test)
        position = self.test_combo.findData(current if current else (matrix.rank_test if matrix else None))
        self.test_combo.setCurrentIndex(max(position, 0))
        self.test_combo.blockSignals(False)
        self._refresh(matrix)

    def _refresh(self, matrix: PairMatrix | None) -> None:
        ranking = self.ranking()
        self.model.set_matrix(matrix, ranking, self.test_combo.currentData(), self.metric_name, self.decimals)
        if matrix is None:
            self.caption.setText(self.why_none)
            self.caption.setToolTip(self.why_none)
            return
        n_bs, n_ar = matrix.bs_samples, matrix.ar_trials
        runs = [f"bootstrap {n_bs:,} resamples" if n_bs else "", f"AR {n_ar:,} trials" if n_ar else ""]
        whole = (f"Green: p ≤ α (dark: p ≤ α/10) by {TEST_NAMES[self.model.test]}. "
                 f"{'; '.join(r for r in runs if r)}, seed {matrix.seed}. {ranking.describe(matrix)}.")
        # Shown in two lines at most (the matrix needs the room at 768 px high); the whole of it in the tooltip.
        self.caption.setText(f"Green: p ≤ α (dark: ≤ α/10), {TEST_NAMES[self.model.test]}"
                             f"{', Holm-corrected' if ranking.correction == 'holm' else ''}; "
                             f"seed {matrix.seed}. Hover for how ranks are made.")
        self.caption.setToolTip(whole)

    @Slot()
    def on_ranking_edited(self, *_args: object) -> None:
        self._refresh(self.model.matrix)
        self.ranking_changed.emit(self.ranking())

    @Slot(int)
    def on_test_changed(self, _index: int) -> None:
        self._refresh(self.model.matrix)

    @Slot(QModelIndex)
    def on_clicked(self, index: QModelIndex) -> None:
        a, b = self.model.pair_at(index)
        if a != b:
            self.pair_clicked.emit(a, b)
