"""The Inspect tab: one system's sentences, its panes against the references, and its charts."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..core import Run
from ..core.analysis.whatif import ScoredLine, scored_line
from ..core.metrics.bleu_details import ALL_ORDERS
from ..core.output import score_text
from .candidate_editor import CandidateEditor
from .charts import BrevityChart, HistogramChart, PrecisionChart
from .context_pane import ContextPane
from .explain_panel import ExplainPanel, bars_legend, status_legend
from .layout import STRETCH, fill_orders, hrow, sentence_table
from .models import SentenceTableModel
from .panes import SentencePanes
from .score_header import ScoreHeader
from .slice_panel import SlicePanel
from .style import styled


class InspectView(QWidget):
    """Signals: ``sentence_selected(int)`` when the shown sentence changes; ``slice_requested(rows, why)``
    (the whole run's segment indices) and ``whole_requested()`` from the slice controls."""

    sentence_selected = Signal(int)
    slice_requested = Signal(object, str)
    whole_requested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.run: Run | None = None
        self.whole: Run | None = None
        self._mismatches: list[int] = []  # sentences whose candidate's tags differ from the source/reference
        self.system = 0
        self.current_sentence: int | None = None
        self._opening: int | None = None  # the sentence a run just set opens on, until :meth:`finish_show`
        self.header = ScoreHeader()
        self._build_list()
        self._build_panes()
        self.precision_chart = PrecisionChart()
        self.bp_chart = BrevityChart()
        self.histogram = HistogramChart()
        self.histogram.bin_clicked.connect(self.on_histogram_bin_clicked)
        self._assemble()
        self.fill_order_combo(4)

    # -- construction ------------------------------------------------------------------
    def _build_list(self) -> None:
        self.system_combo = QComboBox()
        self.system_combo.setToolTip("Which system's sentences to inspect")
        self.system_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.system_combo.currentIndexChanged.connect(self.on_system_changed)
        self.model = SentenceTableModel(self)
        self.model.filter_applied.connect(self._list_filtered)
        self.table = sentence_table(self.model, self.fontMetrics().height() + 6)
        self.table.selectionModel().currentRowChanged.connect(self.on_current_row_changed)
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter candidates (Ctrl+F)")
        self.filter_edit.setClearButtonEnabled(True)
        self.score_low, self.score_high = QDoubleSpinBox(), QDoubleSpinBox()
        for box, value in ((self.score_low, 0.0), (self.score_high, 100.0)):
            box.setRange(0.0, 100.0)
            box.setDecimals(1)
            box.setValue(value)
            box.setKeyboardTracking(False)
        self.count_label = QLabel("")
        self.tags_only = QCheckBox("tag mismatches")
        self.tags_only.setToolTip("Only sentences whose candidate has a different number of inline tags than "
                                  "its source or reference")
        self.tags_only.toggled.connect(self.apply_filter)
        self.score_list = QPushButton("Score the list")
        self.score_list.setToolTip("Score the sentences the list shows as a corpus of their own (BLEU and "
                                   "paired tests of that slice)")
        self.score_list.clicked.connect(self.on_score_list)
        self.slice_panel = SlicePanel()
        self.slice_panel.slice_requested.connect(self.slice_requested)
        self.slice_panel.whole_requested.connect(self.whole_requested)
        self._chart_line: ScoredLine | None = None
        self._charts_left: list[Callable[[Run, ScoredLine], None]] = []  # drawn one per turn of the event loop
        self._chart_timer = QTimer(self, singleShot=True, interval=150, timeout=self._draw_next_chart)
        self._filter_timer = QTimer(self, singleShot=True, interval=200, timeout=self.apply_filter)
        self._score_when_filtered = False  # "Score the list" was asked for while its text search ran
        self.filter_edit.textChanged.connect(self._filter_timer.start)
        self.score_low.valueChanged.connect(self._filter_timer.start)
        self.score_high.valueChanged.connect(self._filter_timer.start)
        QShortcut(QKeySequence.StandardKey.Find, self, activated=self.filter_edit.setFocus)
        # j/k only while the list has focus, so they can still be typed in the filter box.
        # Home/End go to the first/last sentence (QTableView alone moves between columns).
        for key, step in (("J", +1), ("K", -1), ("Home", -10**12), ("End", 10**12)):
            shortcut = QShortcut(QKeySequence(key), self.table, activated=lambda step=step: self.move_selection(step))
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)

    def _build_panes(self) -> None:
        self.context_pane = ContextPane()
        self.panes = SentencePanes()
        self.order_combo = QComboBox()
        self.order_combo.currentIndexChanged.connect(self.on_order_changed)
        self.show_tokens = QCheckBox("show tokens")
        self.show_tokens.toggled.connect(self.panes.set_show_tokens)
        self.sentence_label = QLabel("")
        styled(self.sentence_label, "paneTitle")
        self.status_legend, self.bars_legend = status_legend(), bars_legend()
        self.bars_legend.setVisible(False)
        self.explain_panel = ExplainPanel()
        self.editor = CandidateEditor(self)

    def _assemble(self) -> None:
        list_panel = QWidget()
        lv = QVBoxLayout(list_panel)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addLayout(hrow("System", self.system_combo, STRETCH))
        lv.addWidget(self.slice_panel)
        sentences = QWidget()
        sv = QVBoxLayout(sentences)
        sv.setContentsMargins(0, 4, 0, 0)
        sv.addLayout(hrow(self.filter_edit, self.score_list))
        sv.addLayout(hrow("BLEU from", self.score_low, "to", self.score_high, self.tags_only, STRETCH,
                          self.count_label))
        # The histogram filters the list: it sits under it.
        self.list_split = QSplitter(Qt.Orientation.Vertical)
        self.list_split.addWidget(self.table)
        self.list_split.addWidget(self.histogram)
        self.list_split.setSizes([500, 180])
        sv.addWidget(self.list_split, 1)
        self.list_tabs = QTabWidget()
        self.list_tabs.addTab(sentences, "Sentences")
        self.list_tabs.addTab(self.slice_panel.documents, "Documents")
        lv.addWidget(self.list_tabs, 1)

        panes_panel = QWidget()
        pv = QVBoxLayout(panes_panel)
        pv.setContentsMargins(0, 0, 0, 0)
        pv.addLayout(hrow(self.sentence_label, STRETCH, "n-gram order", self.order_combo, self.show_tokens))
        pv.addWidget(self.status_legend)
        pv.addWidget(self.bars_legend)
        pv.addWidget(self.context_pane)
        pv.addWidget(self.editor.bar)
        pv.addWidget(self.panes, 1)

        charts = QWidget()
        cv = QHBoxLayout(charts)
        cv.setContentsMargins(0, 0, 0, 0)
        for chart in (self.precision_chart, self.bp_chart):
            cv.addWidget(chart)
        self.bottom_split = QSplitter(Qt.Orientation.Horizontal)
        self.bottom_split.addWidget(self.explain_panel)
        self.bottom_split.addWidget(charts)
        self.bottom_split.setSizes([440, 440])

        self.right_split = QSplitter(Qt.Orientation.Vertical)
        self.right_split.addWidget(panes_panel)
        self.right_split.addWidget(self.bottom_split)
        self.right_split.setStretchFactor(0, 3)
        self.right_split.setStretchFactor(1, 2)
        self.main_split = QSplitter(Qt.Orientation.Horizontal)
        self.main_split.addWidget(list_panel)
        self.main_split.addWidget(self.right_split)
        self.main_split.setStretchFactor(0, 2)
        self.main_split.setStretchFactor(1, 3)
        self.main_split.setSizes([520, 880])
        self.right_split.setSizes([400, 400])

        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        line.setFrameShadow(QFrame.Shadow.Sunken)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 0, 4, 0)
        box.addWidget(self.header)
        box.addWidget(line)
        box.addWidget(self.main_split, 1)

    def fill_order_combo(self, max_order: int) -> None:
        fill_orders(self.order_combo, max_order, all_orders=True)
        self.panes.order = self.order_combo.currentData()

    # -- content -----------------------------------------------------------------------
    def set_run(self, run: Run, whole: Run | None = None, select: bool = True) -> None:
        """Show a run (``whole``: the whole corpus's run when ``run`` is a slice of it); the same sentence
        stays selected when the files are the same. ``select=False`` leaves selecting it to :meth:`finish_show`
        (the window calls it on the next turn of the event loop: two shorter repaints instead of one long one)."""
        self.whole = whole if whole is not None else run
        for chart in (self.precision_chart, self.bp_chart, self.histogram):
            chart.signature = run.evaluator.signature()
        same_files = self.run is not None and [s.file for s in self.run.systems] == [s.file for s in run.systems]
        keep = self.current_sentence if same_files else None
        if self.run is None or [s.file.path for s in self.run.systems] != [s.file.path for s in run.systems]:
            self.editor.forget()  # other files: a slice of the same files keeps its edits
        self.run = run
        self.system_combo.blockSignals(True)
        self.system_combo.clear()
        for s in run.systems:
            self.system_combo.addItem(s.name, str(s.file.path))
        self.system = min(self.system, len(run.systems) - 1) if same_files else 0
        self.system_combo.setCurrentIndex(self.system)
        self.system_combo.blockSignals(False)
        self.system_combo.setEnabled(len(run.systems) > 1)
        self.panes.set_reference_names(run.reference_names)
        self.fill_order_combo(run.config.max_order)
        self._show_system(keep, select)

    def _show_system(self, keep_sentence: int | None, select: bool = True) -> None:
        run, system = self.run, self.run.systems[self.system]
        slice_note = ([f"{run.slice.summary}: BLEU {system.corpus.score:.2f} here, "
                       f"{run.slice.whole[self.system]:.2f} on the whole corpus"] if run.slice is not None else [])
        self.header.set_score(system.corpus, system.name, slice_note + list(run.notes), run.config)
        numbers = np.asarray(run.slice.rows) + 1 if run.slice is not None else None
        self.model.set_sentences(system.lines, system.sentences.score, system.orders, numbers)
        self.editor.attach(run, self.system)
        self._mismatches = run.tag_mismatches[self.system]
        self.tags_only.setVisible(bool(self._mismatches) or system.file.tags is not None)
        self.tags_only.setText(f"tag mismatches ({len(self._mismatches):,})")
        self.slice_panel.set_run(run, self.whole, self.system)
        self.list_tabs.setTabVisible(1, self.whole is not None and self.whole.context.docs is not None)
        if self.tags_only.isChecked():
            self._limit_to_flags()
        self._update_count()
        self.histogram.update_values(system.sentences.score, system.orders.bands)
        self.current_sentence = None
        target = keep_sentence if keep_sentence is not None else 0
        if self.model.row_of(target) is None and self.model.rowCount():
            target = self.model.sentence_at(0)
        self._opening = target if run.n_sentences else None
        if select:
            self.finish_show()

    def finish_show(self) -> None:
        """Select the sentence the run just set opens on (unless another was selected since); its charts follow,
        one per turn of the event loop, until :attr:`charts_pending` is false."""
        if self._opening is not None:
            self.select_sentence(self._opening)

    @property
    def charts_pending(self) -> bool:
        return bool(self._charts_left)

    def select_sentence(self, sentence: int) -> None:
        """Select a sentence in the list (or show it though a filter hides it)."""
        self._opening = None
        row = self.model.row_of(sentence)
        if row is None:
            self.show_sentence(sentence)
            return
        index = self.model.index(row, 0)
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(index)
        if self.current_sentence != sentence:
            self.show_sentence(sentence)

    def show_sentence(self, sentence: int) -> None:
        run = self.run
        if run is None or not 0 <= sentence < run.n_sentences:
            return
        self.current_sentence = sentence
        self.context_pane.show_sentence(run, sentence, self.system)
        self.show_line(sentence, self.editor.scored(sentence) or scored_line(run, self.system, sentence))
        self.sentence_selected.emit(sentence)

    def show_line(self, sentence: int, line: ScoredLine, typing: bool = False) -> None:
        """Show sentence ``sentence`` as ``line`` scores it (the file's text, or an edit being typed)."""
        run = self.run
        assert run is not None
        system = run.systems[self.system]
        edited = line.text != system.lines[sentence]
        where = f"Sentence {run.line_number(sentence)}"
        self.sentence_label.setText(f"{where} · {sentence + 1} of {run.n_sentences:,}"
                                    f"{' in the slice' if run.slice is not None else ''} · sentence BLEU "
                                    f"{score_text.score_text(line.score)}{' (edited)' if edited else ''}")
        self.panes.set_details(line.details, f"Candidate — {system.name}")  # an edit being typed keeps its text
        self.explain_panel.set_explanation(line.explanation, f"Why this score — {where.lower()}"
                                                             f"{' (edited)' if edited else ''}")
        self._chart_line = line
        # The charts follow, each on its own turn of the event loop: a chart's scene repaints the window on its own,
        # so text and charts in one turn made one long frame. While typing they wait for a pause (the text follows
        # every key).
        self._charts_left = [self._draw_precisions, self._draw_brevity]
        self._chart_timer.start(150 if typing else 0)
        self.editor.refresh_buttons()

    def _draw_next_chart(self) -> None:
        if self.run is not None and self._chart_line is not None and self._charts_left:
            self._charts_left.pop(0)(self.run, self._chart_line)
            if self._charts_left:
                self._chart_timer.start(0)

    def _draw_precisions(self, run: Run, line: ScoredLine) -> None:
        N, width = run.config.max_order, (len(line.stats) - 2) // 2
        self.precision_chart.update_values(line.stats[2:2 + N], line.stats[2 + width:2 + width + N],
                                           run.systems[self.system].corpus.precisions[:N])

    def _draw_brevity(self, run: Run, line: ScoredLine) -> None:
        corpus = run.systems[self.system].corpus
        self.bp_chart.update_values((int(line.stats[0]), int(line.stats[1])), (corpus.sys_len, corpus.ref_len))

    # -- list navigation and filters ---------------------------------------------------
    @Slot(QModelIndex, QModelIndex)
    def on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        # A filter or sort that keeps the sentence selects its row again: nothing to redraw then.
        if current.isValid() and self.model.sentence_at(current.row()) != self.current_sentence:
            self.show_sentence(self.model.sentence_at(current.row()))

    def move_selection(self, step: int) -> None:
        rows = self.model.rowCount()
        if not rows:
            return
        current = self.table.currentIndex().row()
        row = min(max((current if current >= 0 else 0) + step, 0), rows - 1)
        index = self.model.index(row, 0)
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)

    def _limit_to_flags(self) -> None:
        flagged = self.run is not None and self.tags_only.isChecked()  # counted, not np.isin (no sort)
        mask = np.bincount(self._mismatches, minlength=self.run.n_sentences) > 0 if flagged else None
        self.model.set_only(mask, "tag mismatches")

    @Slot()
    def on_score_list(self) -> None:
        """Re-score what the list shows (its filters) as a slice of the whole corpus: once a long list's text
        search is done, if one runs."""
        run = self.run
        shown, _why = self.list_selection()
        self._score_when_filtered = self.model.searching
        if run is None or shown is None or self._score_when_filtered:
            return
        rows = [run.slice.rows[i] for i in shown] if run.slice is not None else list(shown)
        self.slice_requested.emit(rows, f"{run.systems[self.system].name}: {', '.join(self.model.rules())}")

    @Slot()
    def apply_filter(self) -> None:
        self._limit_to_flags()
        low, high = self.score_low.value(), self.score_high.value()
        self.model.set_filter(self.filter_edit.text(), low if low > 0 else None, high if high < 100 else None)

    @Slot()
    def _list_filtered(self) -> None:
        self._update_count()
        if self._score_when_filtered:
            self.on_score_list()
        if self.current_sentence is not None and self.model.row_of(self.current_sentence) is not None:
            self.select_sentence(self.current_sentence)
        elif self.model.rowCount():
            self.select_sentence(self.model.sentence_at(0))

    def list_selection(self) -> tuple[tuple[int, ...] | None, str]:
        """The sentences the list shows and why, or (None, "") when it shows them all. A filter still being
        typed is applied first; while a long list's search runs, the rows and the words are those before it."""
        if self._filter_timer.isActive():
            self._filter_timer.stop()
            self.apply_filter()
        rules = self.model.rules()
        if not rules or self.run is None:
            return None, ""
        shown = tuple(self.model.visible_sentences())
        name = self.run.systems[self.system].name
        return shown, f"the sentences of the window's list ({name}; {', '.join(rules)})"

    def _update_count(self) -> None:
        self.count_label.setText(f"{self.model.rowCount():,} of {self.model.total:,}")

    @Slot(float, float)
    def on_histogram_bin_clicked(self, low: float, high: float) -> None:
        for box, value in ((self.score_low, low), (self.score_high, high)):
            box.blockSignals(True)
            box.setValue(value)
            box.blockSignals(False)
        self.apply_filter()

    @Slot(int)
    def on_order_changed(self, _index: int) -> None:
        order = self.order_combo.currentData()
        if order is not None:
            self.panes.set_order(order)
            self.status_legend.setVisible(order != ALL_ORDERS)
            self.bars_legend.setVisible(order == ALL_ORDERS)

    @Slot(int)
    def on_system_changed(self, index: int) -> None:
        if self.run is not None and 0 <= index < len(self.run.systems):
            self.system = index
            self._show_system(self.current_sentence)
