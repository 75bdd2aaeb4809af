"""The left side of the Inspect tab: which system, which slice, and its sentences — filtered, sorted, counted — with
the score histogram under the list and the document table beside it."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...core import Run
from ...core.analysis.qa import CHECKS as QA_CHECKS
from ...core.analysis.qa import QAFlag
from ..controller import Controller
from ..jobs import JobController
from ..widgets.charts import HistogramChart
from ..widgets.layout import STRETCH, Table, hrow, single_shot
from .sentence_model import COL_BLEU, COL_INDEX, COL_RATIO, SentenceTableModel
from .slice_panel import SlicePanel

_ROWS_IN_VIEW = 6


def sentence_table(model: SentenceTableModel, row_height: int) -> Table:
    """The Inspect tab's sentence list: sortable, one row selected at a time, rows ``row_height`` high."""
    table = Table()
    table.setModel(model)
    table.setSortingEnabled(True)
    table.sortByColumn(COL_INDEX, Qt.SortOrder.AscendingOrder)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setWordWrap(False)
    table.setAlternatingRowColors(True)
    vh = table.verticalHeader()
    vh.setVisible(False)
    vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    vh.setDefaultSectionSize(row_height)
    hh = table.horizontalHeader()
    hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    hh.setStretchLastSection(True)
    for col, width in ((COL_INDEX, 56), (COL_BLEU, 64), (COL_RATIO, 72)):
        table.setColumnWidth(col, width)
    # Six sentences in view however short the screen: the histogram below gives up its height first.
    table.setMinimumHeight(hh.sizeHint().height() + _ROWS_IN_VIEW * row_height + 2 * table.frameWidth())
    return table


class SentenceList(QWidget):
    """The sentences of the system inspected, their filters and slices ("Score the list" asks the controller's
    actions)."""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self._mismatches: list[int] = []  # sentences whose candidate's tags differ from the source/reference
        self._score_when_filtered = False  # "Score the list" was asked for while its text search ran
        self._opening: int | None = None    # the sentence a new run opens on, on the next turn of the event loop
        self._open_timer = single_shot(self, 0, self._open)
        self._build()
        self._assemble()
        controller.run_changed.connect(self.on_run_changed)
        controller.system_changed.connect(self.on_shown_system_changed)
        controller.metric_changed.connect(self.on_shown_system_changed)
        controller.sentence_changed.connect(self.on_sentence_changed)

    def _build(self) -> None:
        self.system_combo = QComboBox()
        self.system_combo.setToolTip("Which system's sentences to inspect")
        self.system_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.system_combo.currentIndexChanged.connect(self.controller.set_system)
        self.model = SentenceTableModel(self)
        self.model.filter_applied.connect(self._list_filtered)
        self.table = sentence_table(self.model, self.fontMetrics().height() + 6)
        self.table.selectionModel().currentRowChanged.connect(self.on_current_row_changed)
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter candidates (Ctrl+F)")
        self.filter_edit.setClearButtonEnabled(True)
        self._scale = (0.0, 100.0)  # the range of the shown metric's sentence scores (see Metric.score_scale)
        self.score_low, self.score_high = QDoubleSpinBox(), QDoubleSpinBox()
        for box, value in ((self.score_low, 0.0), (self.score_high, 100.0)):
            box.setRange(0.0, 100.0)
            box.setDecimals(1)
            box.setValue(value)
            box.setKeyboardTracking(False)
        self.score_label = QLabel("BLEU from")
        self.count_label = QLabel("")
        self.tags_only = QCheckBox("tag mismatches")
        self.tags_only.setToolTip("Only sentences whose candidate has a different number of inline tags than "
                                  "its source or reference")
        self.tags_only.toggled.connect(self.apply_filter)
        self.qa = QComboBox()
        self.qa.addItem("QA: all", None)
        self.qa.addItem("QA: any flag", "")
        for check in QA_CHECKS:
            self.qa.addItem(f"QA: {check}", check)
        self.qa.setToolTip("Only the sentences a translator QA check flags in this system (Tools ▸ QA checks lists "
                           "the flags and what each system fixes and introduces)")
        self.qa.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.qa.setMinimumContentsLength(8)
        self.qa.currentIndexChanged.connect(self.apply_filter)
        self._qa_flags: tuple[Run, int, list[QAFlag]] | None = None  # (run, system, flags) last checked
        self._qa_jobs = JobController(self)
        self.score_list = QPushButton("Score the list")
        self.score_list.setToolTip("Score the sentences the list shows as a corpus of their own (every metric and "
                                   "the paired tests of that slice)")
        self.score_list.clicked.connect(self.on_score_list)
        self.slice_panel = SlicePanel(self.controller)
        self.histogram = HistogramChart()
        self.histogram.bin_clicked.connect(self.on_histogram_bin_clicked)
        self._filter_timer = single_shot(self, 200, self.apply_filter)
        self.filter_edit.textChanged.connect(self._filter_timer.start)
        self.score_low.valueChanged.connect(self._filter_timer.start)
        self.score_high.valueChanged.connect(self._filter_timer.start)
        QShortcut(QKeySequence.StandardKey.Find, self, self.filter_edit.setFocus)
        # j/k only while the list has focus, so they can still be typed in the filter box.
        # Home/End go to the first/last sentence (QTableView alone moves between columns).
        for key, step in (("J", +1), ("K", -1), ("Home", -10**12), ("End", 10**12)):
            shortcut = QShortcut(QKeySequence(key), self.table, lambda step=step: self.move_selection(step))
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)

    def _assemble(self) -> None:
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(hrow("System", self.system_combo, STRETCH))
        box.addWidget(self.slice_panel)
        sentences = QWidget()
        sv = QVBoxLayout(sentences)
        sv.setContentsMargins(0, 4, 0, 0)
        sv.addLayout(hrow(self.filter_edit, self.qa, self.score_list))
        self.score_to = QLabel("to")
        sv.addLayout(hrow(self.score_label, self.score_low, self.score_to, self.score_high, self.tags_only, STRETCH,
                          self.count_label))
        # The histogram filters the list: it sits under it.
        self.list_split = QSplitter(Qt.Orientation.Vertical)
        self.list_split.addWidget(self.table)
        self.list_split.addWidget(self.histogram)
        self.list_split.setSizes([500, 180])
        # A taller or shorter window changes the list's rows (the histogram's stretch stays 0): the histogram keeps
        # its height until the list is at its least (six rows), then gives up height down to HistogramChart's.
        self.list_split.setStretchFactor(0, 1)
        sv.addWidget(self.list_split, 1)
        self.list_tabs = QTabWidget()
        self.list_tabs.addTab(sentences, "Sentences")
        self.list_tabs.addTab(self.slice_panel.documents, "Documents")
        box.addWidget(self.list_tabs, 1)

    # -- following the controller ------------------------------------------------------------------
    @Slot()
    def on_run_changed(self) -> None:
        run = self.controller.run
        assert run is not None
        if self.controller.same_view:
            return  # the same sentences and numbers: the list and its histogram stay as drawn
        self.system_combo.blockSignals(True)
        self.system_combo.clear()
        for s in run.systems:
            self.system_combo.addItem(s.name, str(s.file.path))
        self.system_combo.setCurrentIndex(self.controller.system)
        self.system_combo.blockSignals(False)
        self.system_combo.setEnabled(len(run.systems) > 1)
        self.show_system(opening=True)

    def _open(self) -> None:
        """Select the sentence the run opens on, unless one was chosen since (the Compare tab, "Show me")."""
        if self._opening is not None and self.controller.sentence is None:
            self.select_sentence(self._opening)
        self._opening = None

    @property
    def opening_pending(self) -> bool:
        return self._open_timer.isActive()

    @Slot()
    def on_shown_system_changed(self) -> None:
        if self.system_combo.currentIndex() != self.controller.system:
            self.system_combo.blockSignals(True)
            self.system_combo.setCurrentIndex(self.controller.system)
            self.system_combo.blockSignals(False)
        self.show_system()

    def show_system(self, opening: bool = False) -> None:
        """Fill the list with the controller's system under its metric; the controller's sentence stays
        selected when the list shows it (else the first listed one is chosen). ``opening``: a new run, whose
        sentence is chosen on the next turn of the event loop."""
        c, shown = self.controller, self.controller.shown
        assert shown is not None
        run, k, i = shown.run, c.metric, c.system
        system = run.systems[i]
        metric = run.metrics[k]
        numbers = np.asarray(run.slice.rows) + 1 if run.slice is not None else None
        self.model.set_sentences(system.lines, system.results[k].sentences, shown.orders[k][i], numbers,
                                 metric=metric.name, caveats=metric.caveats(system.file), decimals=metric.decimals,
                                 against_source=not run.references)
        self.score_label.setText(f"{metric.name} from")
        # The score column fits its metric's name (EditDistance is wider than BLEU), with room for the sort arrow.
        header_width = self.table.fontMetrics().horizontalAdvance(metric.name) + 28
        self.table.setColumnWidth(COL_BLEU, max(64, header_width))
        self._mismatches = shown.tag_mismatches[i]
        self.tags_only.setVisible(bool(self._mismatches) or system.file.tags is not None)
        self.tags_only.setText(f"tag mismatches ({len(self._mismatches):,})")
        whole = c.whole_run
        self.list_tabs.setTabVisible(1, whole is not None and whole.context.docs is not None)
        if self.tags_only.isChecked() or self.qa.currentData() is not None:
            self._limit_to_flags()
        self._update_count()
        # A metric that scores none of the sentences (a run nothing scores yet): no range to filter, no histogram.
        scored = bool(np.isfinite(system.results[k].sentences).any())
        for widget in (self.histogram, self.score_label, self.score_low, self.score_to, self.score_high,
                       self.score_list):
            widget.setVisible(scored)
        self.table.setColumnHidden(COL_BLEU, not scored)  # a column of "n/a" says nothing the header does not
        self.histogram.signature = metric.signature()
        self._set_scale(shown.orders[k][i].scale)
        self.histogram.update_values(system.results[k].sentences, shown.orders[k][i].bands, metric.name,
                                     shown.orders[k][i].scale)
        kept = c.opening if opening else c.sentence
        target = kept if kept is not None else 0
        if self.model.row_of(target) is None and self.model.rowCount():
            target = self.model.sentence_at(0)
        if not run.n_sentences:
            return
        if opening:
            self._opening = target
            self._open_timer.start()
        else:
            self.select_sentence(target)

    @Slot(int)
    def on_sentence_changed(self, sentence: int) -> None:
        if sentence >= 0:
            self.select_sentence(sentence)

    def select_sentence(self, sentence: int) -> None:
        """Select a sentence's row (when the list shows it) and make it the controller's sentence."""
        row = self.model.row_of(sentence)
        if row is not None:
            index = self.model.index(row, 0)
            selection = self.table.selectionModel()
            if selection.currentIndex().row() != row:
                selection.setCurrentIndex(
                    index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            self.table.scrollTo(index)
        self.controller.set_sentence(sentence)

    # -- list navigation and filters -----------------------------------------------------------------
    @Slot(QModelIndex, QModelIndex)
    def on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.controller.set_sentence(self.model.sentence_at(current.row()))

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
        run = self.controller.run
        flagged = run is not None and self.tags_only.isChecked()  # counted, not np.isin (no sort)
        mask = np.bincount(self._mismatches, minlength=run.n_sentences) > 0 if flagged and run is not None else None
        rules = ["tag mismatches"] if mask is not None else []
        check = self.qa.currentData()
        if check is not None and run is not None:
            flags = self._flags(run)
            if flags is None:
                return  # checked in the worker: the filter applies when the flags come back
            rows = [f.segment for f in flags if not check or f.check == check]
            qa_mask = np.bincount(np.asarray(rows, np.int64), minlength=run.n_sentences) > 0
            mask = qa_mask if mask is None else mask & qa_mask
            rules.append(f"QA {check or 'any flag'}")
        self.model.set_only(mask, ", ".join(rules))

    def _flags(self, run: Run) -> list[QAFlag] | None:
        """The QA flags of the shown system, or None while they are checked in the worker (once per run and
        system: about 80 ms per thousand segments, too long for the GUI thread on a long file)."""
        system = self.controller.system
        if self._qa_flags is not None and self._qa_flags[0] is run and self._qa_flags[1] == system:
            return self._qa_flags[2]

        def done(flags: list[QAFlag]) -> None:
            self._qa_flags = (run, system, flags)
            if self.controller.run is run and self.controller.system == system:
                self.apply_filter()

        self._qa_jobs.submit(lambda _progress: run.qa_flags(system), done)
        return None

    @Slot()
    def on_score_list(self) -> None:
        """Re-score what the list shows (its filters) as a slice of the whole corpus: once a long list's text
        search is done, if one runs."""
        run = self.controller.run
        shown, _why = self.list_selection()
        self._score_when_filtered = self.model.searching
        if run is None or shown is None or self._score_when_filtered:
            return
        rows = [run.slice.rows[i] for i in shown] if run.slice is not None else list(shown)
        name = run.systems[self.controller.system].name
        self.controller.actions.apply_slice(rows, f"{name}: {', '.join(self.model.rules())}")

    def _set_scale(self, scale: tuple[float, float]) -> None:
        """The score filter spans the metric's scale; on another scale (another metric) it starts open again."""
        if scale == self._scale:
            return
        self._scale = scale
        for box, value in ((self.score_low, scale[0]), (self.score_high, scale[1])):
            box.blockSignals(True)
            box.setRange(*scale)
            box.setDecimals(1 if scale[1] - scale[0] >= 10 else 2)
            box.setSingleStep((scale[1] - scale[0]) / 100)
            box.setValue(value)
            box.blockSignals(False)
        self.apply_filter()

    @Slot()
    def apply_filter(self) -> None:
        # Applied now (Enter, or the pause after typing): a pending pause would search the same text again, and
        # on a slow machine reset the list a second time after the search is done.
        self._filter_timer.stop()
        self._limit_to_flags()
        low, high = self.score_low.value(), self.score_high.value()
        self.model.set_filter(self.filter_edit.text(), low if low > self._scale[0] else None,
                              high if high < self._scale[1] else None)

    @Slot()
    def _list_filtered(self) -> None:
        self._update_count()
        if self._score_when_filtered:
            self.on_score_list()
        current = self.controller.sentence
        if current is not None and self.model.row_of(current) is not None:
            self.select_sentence(current)
        elif self.model.rowCount():
            self.select_sentence(self.model.sentence_at(0))

    def list_selection(self) -> tuple[tuple[int, ...] | None, str]:
        """The sentences the list shows and why, or (None, "") when it shows them all. A filter still being
        typed is applied first; while a long list's search runs, the rows and the words are those before it."""
        if self._filter_timer.isActive():
            self._filter_timer.stop()
            self.apply_filter()
        rules = self.model.rules()
        run = self.controller.run
        if not rules or run is None:
            return None, ""
        shown = tuple(self.model.visible_sentences())
        name = run.systems[self.controller.system].name
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
