"""The Compare tab: systems table, per-sentence differences, n-gram wins and losses, A/B panes and charts."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ..core import Run
from ..core.analysis.rankings import Ranking
from ..core.output import score_text
from . import colors
from .compare_charts import DeltaChart, DotStrips, ScatterChart
from .compare_models import NgramTableModel, PairTableModel
from .compare_paint import (
    ONLY_HERE,
    REF_BOTH,
    REF_ONLY_A,
    REF_ONLY_B,
    matched_ngrams,
    only_tokens,
    paint_candidate,
    paint_reference,
)
from .context_pane import ContextPane
from .layout import STRETCH, Table, fill_orders, hrow, legend
from .panes import TextPane
from .style import styled
from .systems_panel import SystemsPanel


def _table(model) -> Table:
    view = Table()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 6)
    view.setAlternatingRowColors(True)
    view.horizontalHeader().setStretchLastSection(True)
    return view


class CompareView(QWidget):
    """Signals: ``sentence_selected(int)`` when the user picks a sentence here."""

    sentence_selected = Signal(int)
    rename_requested = Signal(int)  # a system's row, double-clicked on its name
    pair_requested = Signal(int, int)  # (new baseline, new B or -1): a matrix cell or "make baseline"

    def __init__(self, parent=None):
        super().__init__(parent)
        self.run: Run | None = None
        self.b = 1
        self.current: int | None = None
        self.order = 1

        self.systems = SystemsPanel()
        self.systems_model = self.systems.model
        self.systems.b_chosen.connect(self.set_b)
        self.systems.pair_requested.connect(self.pair_requested)
        self.systems.rename_requested.connect(self.rename_requested)
        self.b_combo = QComboBox()
        self.b_combo.currentIndexChanged.connect(self.on_b_changed)
        self.note = QLabel("")
        styled(self.note, "hint")

        self.pair_model = PairTableModel(self)
        self.pair_view = _table(self.pair_model)
        self.pair_view.setSortingEnabled(True)
        self.pair_view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.pair_view.selectionModel().currentRowChanged.connect(self.on_pair_row_changed)
        self.side = QComboBox()
        self.side.addItems(["all sentences", "B better", "A better", "equal"])
        self.side.currentIndexChanged.connect(self.pair_model.set_side)
        self.clear_filter = QPushButton("Show all")
        self.clear_filter.clicked.connect(self.on_clear_filter)
        self.filter_label = QLabel("")
        styled(self.filter_label, "hint")
        self.count_label = QLabel("")
        styled(self.count_label, "hint")
        self.pair_model.modelReset.connect(self.on_pair_list_changed)

        self.ngram_order = QComboBox()
        self.ngram_order.currentIndexChanged.connect(self.refresh_ngrams)
        self.wins_b = NgramTableModel(self)
        self.wins_a = NgramTableModel(self)
        self.wins_b_view = _table(self.wins_b)
        self.wins_a_view = _table(self.wins_a)
        for view in (self.wins_b_view, self.wins_a_view):
            view.clicked.connect(self.on_ngram_clicked)
            header = view.horizontalHeader()
            header.setStretchLastSection(False)
            header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
            for col in (1, 2, 3):
                header.setSectionResizeMode(col, QHeaderView.ResizeMode.Fixed)
                view.setColumnWidth(col, 46)
        for col, width in enumerate((40, 52, 52, 56)):  # the last (LOO) column takes the rest
            self.pair_view.setColumnWidth(col, width)

        self.pane_order = QComboBox()
        self.pane_order.currentIndexChanged.connect(self.on_pane_order_changed)
        self._fill_orders(4)
        self.pane_a, self.pane_b = TextPane(), TextPane()
        self.label_a, self.label_b = QLabel("A"), QLabel("B")
        for label in (self.label_a, self.label_b):
            styled(label, "paneTitle")
        self.ref_panes: list[TextPane] = []
        self.ref_labels: list[QLabel] = []
        self.ref_box = QVBoxLayout()
        self.sentence_label = QLabel("")
        styled(self.sentence_label, "paneTitle")
        self.context_pane = ContextPane()

        self.scatter = ScatterChart()
        self.scatter.point_clicked.connect(self.select_sentence)
        self.scatter.region_selected.connect(self.on_region_selected)
        self.precision_dots = DotStrips("Precision per order", "n-gram order", "p_n (%)", tip=(
            "Each system's corpus precision p_n at each n-gram order; hover a dot for its system"))
        self.delta_chart = DeltaChart()
        self.bucket_dots = DotStrips("BLEU by reference length", "reference length (tokens)", "BLEU", tip=(
            "Corpus BLEU of the sentences in each reference-length band, per system"))
        for label in (self.filter_label, self.sentence_label, self.note, self.count_label):
            # Long texts (an n-gram, a file name) are cut, never allowed to widen the window.
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._assemble()

    def _assemble(self) -> None:
        top = hrow("<b>Systems</b> (A = baseline; click a system or a pair to compare it)", STRETCH, "B =",
                   self.b_combo)

        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addLayout(hrow(self.side, self.filter_label, STRETCH, self.clear_filter))
        lv.addWidget(self.pair_view, 3)
        lv.addWidget(self.count_label)
        lv.addLayout(hrow("<b>n-grams B matches more</b>", STRETCH, self.ngram_order))
        lv.addWidget(self.wins_b_view, 2)
        lv.addWidget(QLabel("<b>n-grams A matches more</b>"))
        lv.addWidget(self.wins_a_view, 2)

        panes = QWidget()
        pv = QVBoxLayout(panes)
        pv.setContentsMargins(0, 0, 0, 0)
        pv.addLayout(hrow(self.sentence_label, STRETCH, "n-gram order", self.pane_order))
        pv.addLayout(legend([
            ("matched", f"background:{colors.MATCHED_BG.name()}"),
            ("clipped", f"background:{colors.CLIPPED_BG.name()}"),
            ("unmatched", f"background:{colors.UNMATCHED_BG.name()}"),
            ("matched only by this system",
             f"color:{ONLY_HERE.name()}; font-weight:bold; border-bottom:2px solid {ONLY_HERE.name()}"),
            ("ref: both", f"background:{REF_BOTH.name()}"),
            ("ref: only A", f"background:{REF_ONLY_A.name()}"),
            ("ref: only B", f"background:{REF_ONLY_B.name()}")]))
        pv.addWidget(self.context_pane)
        ab = QHBoxLayout()
        col_a, col_b = QVBoxLayout(), QVBoxLayout()
        col_a.addWidget(self.label_a)
        col_a.addWidget(self.pane_a)
        col_b.addWidget(self.label_b)
        col_b.addWidget(self.pane_b)
        ab.addLayout(col_a)
        ab.addLayout(col_b)
        pv.addLayout(ab, 2)
        refs = QWidget()
        refs.setLayout(self.ref_box)
        self.ref_box.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(refs)
        pv.addWidget(scroll, 2)

        charts = QWidget()
        cv = QHBoxLayout(charts)
        cv.setContentsMargins(0, 0, 0, 0)
        for chart in (self.scatter, self.precision_dots, self.delta_chart, self.bucket_dots):
            cv.addWidget(chart)

        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(panes)
        right.addWidget(charts)
        right.setSizes([380, 320])
        middle = QSplitter(Qt.Orientation.Horizontal)
        middle.addWidget(left)
        middle.addWidget(right)
        middle.setSizes([520, 880])
        self.middle_split, self.right_split = middle, right

        upper = QWidget()
        uv = QVBoxLayout(upper)
        uv.setContentsMargins(0, 0, 0, 0)
        uv.addLayout(top)
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

    def _fill_orders(self, max_order: int) -> None:
        fill_orders(self.ngram_order, max_order, all_orders=False)
        fill_orders(self.pane_order, max_order, all_orders=True)
        self.order = self.pane_order.currentData()

    # -- content --------------------------------------------------------------------------
    def set_run(self, run: Run) -> None:
        """Show a run that has a comparison (two or more systems)."""
        comparison = run.comparison
        self.run = run
        self._fill_orders(run.config.max_order)
        self.systems.set_run(run)
        for chart in (self.scatter, self.precision_dots, self.delta_chart, self.bucket_dots):
            chart.signature = run.evaluator.signature()
        rows = min(len(run.systems), 12)  # past 12 the table scrolls
        row_height = self.systems.table.verticalHeader().defaultSectionSize()
        upper = 90 + rows * row_height + (40 if len(run.systems) > 2 else 0)  # the matrix caption
        total = sum(self.outer_split.sizes())
        self.outer_split.setSizes([upper, max(total - upper, 400)])
        where = (f"{run.slice.summary}; on the whole corpus A scored {run.slice.whole[0]:.2f}. "
                 if run.slice is not None else "")
        self.note.setText(where + comparison.note)
        self.note.setVisible(bool(where + comparison.note))
        self.b_combo.blockSignals(True)
        self.b_combo.clear()
        for s in run.systems[1:]:
            self.b_combo.addItem(s.name)
        self.b_combo.setCurrentIndex(min(self.b, len(run.systems) - 1) - 1)
        self.b_combo.blockSignals(False)
        self.b = self.b_combo.currentIndex() + 1
        while self.ref_panes:
            self.ref_box.removeWidget(self.ref_panes[-1])
            self.ref_box.removeWidget(self.ref_labels[-1])
            self.ref_panes.pop().deleteLater()
            self.ref_labels.pop().deleteLater()
        for name in run.reference_names:
            label, pane = QLabel(name), TextPane()
            styled(label, "paneTitle")
            self.ref_box.addWidget(label)
            self.ref_box.addWidget(pane)
            self.ref_labels.append(label)
            self.ref_panes.append(pane)
        names = [s.name for s in run.systems]
        N = run.config.max_order
        self.precision_dots.update_values(names, np.array([s.corpus.precisions[:N] for s in run.systems]),
                                          [str(n) for n in range(1, N + 1)])
        used = np.flatnonzero(comparison.bucket_counts > 0)  # empty buckets would only crowd the axis
        ticks = [comparison.bucket_labels[i] for i in used]
        tips = [f"{comparison.bucket_labels[i]} tokens ({comparison.bucket_counts[i]:,} sentences)" for i in used]
        self.bucket_dots.update_values(names, comparison.bucket_scores[:, used], ticks, tips)
        self.show_pair()

    def release(self) -> None:
        """Let go of the run: the next one has nothing to compare, and a compared run of a million lines holds
        over a gigabyte (the tab is disabled meanwhile)."""
        self.run = None
        self.systems.release()
        empty = np.zeros(0)
        self.pair_model.set_pair(empty, empty, empty)
        self.wins_b.set_items([])
        self.wins_a.set_items([])
        self.scatter.clear()

    def show_pair(self) -> None:
        c = self.run.comparison
        a, b = self.run.systems[0], self.run.systems[self.b]
        self.systems.select_system(self.b)
        self.label_a.setText(f"A — {a.name}")
        self.label_b.setText(f"B — {b.name}")
        numbers = np.asarray(self.run.slice.rows) + 1 if self.run.slice is not None else None
        self.pair_model.set_pair(a.sentences.score, b.sentences.score, c.pairwise[self.b - 1].loo, numbers)
        self.scatter.update_values(a.sentences.score, b.sentences.score, (a.name, b.name))
        bs = c.bootstrap[self.b] if c.bootstrap else None
        self.delta_chart.update_values(bs.deltas if bs else None, bs.p_value if bs else None)
        self.refresh_ngrams()
        self.filter_label.setText("")
        self.select_sentence(self.current if self.current is not None else 0)

    @Slot()
    def refresh_ngrams(self) -> None:
        if self.run is None:
            return
        order = self.ngram_order.currentData() or 1
        # Ranked in the worker; here they are only shown.
        wins_b, wins_a = self.run.comparison.pairwise[self.b - 1].wins.get(order, ([], []))
        self.wins_b.set_items(wins_b)
        self.wins_a.set_items(wins_a)
        for view, (more, fewer) in ((self.wins_b_view, "BA"), (self.wins_a_view, "AB")):
            view.empty_text = f"{more} matches no {order}-gram more often than {fewer}"  # painted after the reset

    # -- selection ------------------------------------------------------------------------------
    @Slot(int)
    def select_sentence(self, sentence: int) -> None:
        if self.run is None or not 0 <= sentence < self.run.n_sentences:
            return
        row = self.pair_model.row_of(sentence)
        if row is not None:
            index = self.pair_model.index(row, 0)
            self.pair_view.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            self.pair_view.scrollTo(index)
        if self.current != sentence or row is None:
            self.show_sentence(sentence)

    @Slot(QModelIndex, QModelIndex)
    def on_pair_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.show_sentence(self.pair_model.sentence_at(current.row()))

    def show_sentence(self, sentence: int) -> None:
        run = self.run
        self.current = sentence
        da, db = run.details(0, sentence), run.details(self.b, sentence)
        sa, sb = float(run.systems[0].sentences.score[sentence]), float(run.systems[self.b].sentences.score[sentence])
        self.sentence_label.setText(f"Sentence {run.line_number(sentence)}: A {score_text.score_text(sa)} · "
                                    f"B {score_text.score_text(sb)} · B − A {score_text.delta_text(sb - sa)}")
        self.context_pane.show_sentence(run, sentence, self.b)
        self.details = (da, db)
        self.paint_sentence()
        self.scatter.mark(sentence)
        self.sentence_selected.emit(sentence)

    def paint_sentence(self) -> None:
        da, db = self.details
        order = self.order
        matched_a, matched_b = matched_ngrams(da, order), matched_ngrams(db, order)
        paint_candidate(self.pane_a, da, order, only_tokens(da, matched_b, order))
        paint_candidate(self.pane_b, db, order, only_tokens(db, matched_a, order))
        for r, pane in enumerate(self.ref_panes):
            paint_reference(pane, r, da, db, order)

    # -- user actions ------------------------------------------------------------------------------
    @Slot(int)
    def on_b_changed(self, index: int) -> None:
        if index >= 0 and self.run is not None:
            self.b = index + 1
            self.systems.select_system(self.b)
            self.show_pair()

    def ranking(self) -> Ranking:
        """The significance level and correction the user chose for ranks and p-values."""
        return self.systems.matrix.ranking()

    @Slot(int)
    def set_b(self, system: int) -> None:
        """Compare ``system`` (a run index other than the baseline's) with the baseline."""
        if self.run is not None and 0 < system < len(self.run.systems):
            self.b_combo.setCurrentIndex(system - 1)

    @Slot(int)
    def on_pane_order_changed(self, _index: int) -> None:
        self.order = self.pane_order.currentData()
        if self.run is not None and self.current is not None:
            self.paint_sentence()

    @Slot(float, float, float, float)
    def on_region_selected(self, x0: float, x1: float, y0: float, y1: float) -> None:
        a, b = self.scatter.x, self.scatter.y
        keep = np.flatnonzero((a >= x0) & (a <= x1) & (b >= y0) & (b <= y1))
        self.pair_model.set_sentences(keep)
        self.filter_label.setText(f"{len(keep)} sentences in the dragged region")

    @Slot()
    def on_pair_list_changed(self) -> None:
        b_better, a_better, equal = self.pair_model.counts()
        self.count_label.setText(f"Listed: B better {b_better:,} · A better {a_better:,} · equal {equal:,}")

    @Slot(QModelIndex)
    def on_ngram_clicked(self, index: QModelIndex) -> None:
        model = index.model()
        item = model.items[index.row()]
        sentences = self.run.comparison.pairwise[self.b - 1].ngrams.sentences_with(item.order, item.ngram)
        self.pair_model.set_sentences(sentences)
        self.filter_label.setText(f"{len(sentences)} sentences with “{item.ngram}”")
        if len(sentences):
            self.select_sentence(int(sentences[0]))

    @Slot()
    def on_clear_filter(self) -> None:
        self.pair_model.set_sentences(None)
        self.side.setCurrentIndex(0)
        self.filter_label.setText("")
