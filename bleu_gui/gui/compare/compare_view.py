"""The Compare tab: the systems table and pair matrix over the pair list, n-gram wins, A/B panes and charts
(side by side on a tall screen, tabs on a laptop's)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...core.output.score_text import score_text
from ..controller import Controller
from ..widgets.elided_label import ElidedLabel
from ..widgets.figures import full_height, full_width
from ..widgets.layout import STRETCH, hrow, scrolled
from ..widgets.style import styled
from .ab_panes import ABPanes
from .human_errors_panel import HumanErrorsPanel
from .model_holds import ModelHolds
from .ngram_wins import NgramWins
from .pair_charts import PairCharts
from .pair_list import PairList
from .systems_panel import SystemsPanel

MAX_ROWS_SHOWN = 15  # systems whose rows are all in view; past them the table scrolls
FIGURE_CHARTS = 340  # the charts' height in a figure of the view (logical pixels)
ROOMY_LOWER = 430    # the height below the systems that holds the A/B panes and the charts at once


class CompareView(QWidget):
    """Lays out the parts of the Compare tab, which follow the controller: every system's row above (up to 15),
    the pair list, n-gram wins, A/B panes and charts below — side by side when there is room, as tabs when not
    (a laptop's 1366 × 768)."""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self._rows = 2  # the systems' rows to show (the run's, up to 15)
        self._user_upper: int | None = None  # the systems' height the user chose with the splitter
        self._figure = False  # arranged for a figure: the page, not the window, sets the sizes
        self._annotated = False  # the run's systems carry human error annotations (MQM): their tab is shown
        self.systems = SystemsPanel(controller)
        self.b_combo = QComboBox()
        self.b_combo.currentIndexChanged.connect(lambda index: controller.set_b(index + 1))
        self.note = styled(ElidedLabel(""), "hint")
        self.pairs = PairList(controller)
        self.ngrams = NgramWins(controller)
        self.ngrams.sentences_chosen.connect(self.pairs.show_only)
        self.holds = ModelHolds(controller)
        self.holds.sentences_chosen.connect(self.pairs.show_only)
        # BLEU's n-gram wins, and beside them what a model (COMET) holds against B, where the run has one.
        self.wins_tabs = QTabWidget()
        self.wins_tabs.setDocumentMode(True)
        self.wins_tabs.addTab(self.ngrams, "n-gram wins (BLEU)")
        self.wins_tabs.addTab(self.holds, "What the model holds against B")
        self.panes = ABPanes(controller)
        self.charts = PairCharts(controller)
        self.charts.region_selected.connect(self.pairs.show_only)
        self.human = HumanErrorsPanel(controller)
        self._assemble()
        controller.run_changed.connect(self.on_run_changed)
        controller.b_changed.connect(self.on_b_changed)

    def _assemble(self) -> None:
        # Roomy (a tall view): the pair list and n-gram wins beside the A/B panes over the charts, all at once.
        left = QWidget()
        self._left_box = QVBoxLayout(left)
        self._left_box.setContentsMargins(0, 0, 0, 0)
        right = QSplitter(Qt.Orientation.Vertical)
        self.middle_split = QSplitter(Qt.Orientation.Horizontal)
        self.middle_split.addWidget(left)
        self.middle_split.addWidget(right)
        self.right_split = right
        # Roomy, with annotations: the charts and the human errors share the place under the A/B panes as tabs.
        self.right_tabs = QTabWidget()
        self.right_tabs.setDocumentMode(True)
        # Compact (a laptop's 768 px): the same parts as tabs under every system's row — the sentences (pair list
        # beside the A/B panes), the n-gram wins, the charts.
        self.lower_tabs = QTabWidget()
        self.sentences_split = QSplitter(Qt.Orientation.Horizontal)
        self.panes_scroll = scrolled(QWidget(), sideways=False)
        self.lower_tabs.addTab(self.sentences_split, "Sentences")
        self._ngrams_page = QWidget()
        QVBoxLayout(self._ngrams_page).setContentsMargins(0, 0, 0, 0)
        self.lower_tabs.addTab(self._ngrams_page, "n-grams")
        self._charts_page = QWidget()
        QVBoxLayout(self._charts_page).setContentsMargins(0, 0, 0, 0)
        self.lower_tabs.addTab(self._charts_page, "Charts")
        self._human_page = QWidget()
        QVBoxLayout(self._human_page).setContentsMargins(0, 0, 0, 0)
        self.lower_tabs.addTab(self._human_page, "Human error spans")
        self.below = QStackedWidget()
        self.below.addWidget(self.middle_split)
        self.below.addWidget(self.lower_tabs)
        self.compact = True
        self._arrange(compact=False)
        upper = QWidget()
        uv = QVBoxLayout(upper)
        uv.setContentsMargins(0, 0, 0, 0)
        self.title_row = hrow("<b>Systems</b> (A = baseline; click a system or a pair to compare it)", STRETCH,
                              "B =", self.b_combo)
        uv.addLayout(self.title_row)
        uv.addWidget(self.systems, 1)
        uv.addWidget(self.note)
        outer = QSplitter(Qt.Orientation.Vertical)
        outer.setChildrenCollapsible(False)
        outer.addWidget(upper)
        outer.addWidget(self.below)
        outer.setSizes([220, 700])
        outer.splitterMoved.connect(self._on_user_sized)
        self.outer_split = outer
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addWidget(outer, 1)

    def show_sentences(self, _sentence: int) -> None:
        """A segment chosen in a panel is seen in the A and B panes: in the compact arrangement, their tab."""
        if self.compact:
            self.lower_tabs.setCurrentWidget(self.sentences_split)

    def _arrange(self, compact: bool) -> None:
        """Move the parts below the systems into the roomy arrangement or the compact one (tabs)."""
        if compact == self.compact:
            return
        self.compact = compact
        if compact:
            self.sentences_split.addWidget(self.pairs)
            # The A/B panes scroll in the tab rather than squeeze: under their minimum, the raters' spans were drawn
            # over B's text (1366×768 with the settings shown).
            self.panes_scroll.setWidget(self.panes)
            self.sentences_split.addWidget(self.panes_scroll)
            self.sentences_split.setSizes([420, 800])
            layout = self._ngrams_page.layout()
            charts = self._charts_page.layout()
            assert layout is not None and charts is not None
            layout.addWidget(self.wins_tabs)
            charts.addWidget(self.charts)
            human = self._human_page.layout()
            assert human is not None
            human.addWidget(self.human)
            # Taken out of the roomy arrangement's tabs, whose stack hides what it lets go of (QStackedLayout): each
            # is shown in its own tab page again (the pages' tabs decide what is seen).
            for part in (self.charts, self.human):
                part.show()
            self.below.setCurrentWidget(self.lower_tabs)
        else:
            self._left_box.addWidget(self.pairs, 3)
            self._left_box.addWidget(self.wins_tabs, 4)
            self.right_tabs.clear()
            self.right_tabs.addTab(self.charts, "Charts")
            self.right_tabs.addTab(self.human, "Human error spans")
            self._show_tabs()
            self.panes_scroll.takeWidget()
            self.right_split.addWidget(self.panes)
            self.right_split.addWidget(self.right_tabs)
            self.right_split.setSizes([300, 420])  # the charts need the height more than the A/B panes (they scroll)
            self.middle_split.setSizes([520, 880])
            self.below.setCurrentWidget(self.middle_split)

    @Slot()
    def on_run_changed(self) -> None:
        run = self.controller.run
        if run is None or run.comparison is None:
            self.release()
            return
        if min(len(run.systems), MAX_ROWS_SHOWN) != self._rows:
            self._rows = min(len(run.systems), MAX_ROWS_SHOWN)
            self._user_upper = None  # another number of systems: their rows decide the height again
        self._size_upper()
        k = self.controller.metric
        whole = (f"{run.slice.summary}; on the whole corpus A scored "
                 f"{score_text(run.slice.whole[k][0], max(2, run.metrics[k].decimals))}. "
                 if run.slice is not None else "")
        self.note.setText(whole + run.comparison.note)
        self.note.setVisible(bool(whole + run.comparison.note))
        self.b_combo.blockSignals(True)
        self.b_combo.clear()
        for s in run.systems[1:]:
            self.b_combo.addItem(s.name)
        self.b_combo.setCurrentIndex(self.controller.b - 1)
        self.b_combo.blockSignals(False)
        self.pairs.refresh()
        self._annotated = HumanErrorsPanel.wanted(run)
        self._show_tabs()

    def _show_tabs(self) -> None:
        """The human errors' tab where the run has them, the model's words where it has a model (each tab bar only
        when it has two tabs)."""
        run = self.controller.run
        wins, holds = NgramWins.wanted(run), ModelHolds.wanted(run)
        self.wins_tabs.setTabVisible(0, wins)
        self.wins_tabs.setTabVisible(1, holds)
        self.wins_tabs.tabBar().setVisible(wins and holds)
        self.wins_tabs.setVisible(wins or holds)
        self.lower_tabs.setTabVisible(self.lower_tabs.indexOf(self._human_page), self._annotated)
        self.right_tabs.setTabVisible(self.right_tabs.indexOf(self.human), self._annotated)
        self.right_tabs.tabBar().setVisible(self._annotated)

    def _upper_wanted(self) -> int:
        """The height that shows every system's row (up to 15; more scroll) with the title above them, and at
        least five rows of the matrix under its controls and above its caption."""
        table, panel = self.systems.table, self.systems.matrix
        title = self.title_row.sizeHint().height() + 12
        note = self.note.sizeHint().height() if self.note.isVisibleTo(self) else 0
        rows = self._rows * table.verticalHeader().defaultSectionSize()
        systems = (rows + table.horizontalHeader().sizeHint().height() + table.horizontalScrollBar().sizeHint().height()
                   + 2 * table.frameWidth())
        matrix = panel.view
        caption_width = max(panel.width(), 300)
        pairs = (panel.controls.sizeHint().height() + matrix.horizontalHeader().sizeHint().height()
                 + min(self._rows, 5) * matrix.verticalHeader().defaultSectionSize()
                 + matrix.horizontalScrollBar().sizeHint().height() + 2 * matrix.frameWidth()
                 + panel.caption.heightForWidth(caption_width) + 12) if panel.isVisibleTo(self) else 0
        return title + note + max(systems, pairs)

    def _size_upper(self) -> None:
        """Every system's row in view (up to 15), at most 62% of the view; below them the rest, roomy when it is
        tall enough for the charts and the A/B panes together, else as tabs. A height the user chose by the
        splitter holds until the systems change in number."""
        total = self.outer_split.height() or sum(self.outer_split.sizes())
        if total <= 1 or self._figure:
            return
        upper = self._user_upper if self._user_upper is not None else min(self._upper_wanted(), round(0.62 * total))
        self._arrange(compact=total - upper < ROOMY_LOWER)
        self.outer_split.setSizes([upper, max(total - upper, 1)])

    @Slot(int, int)
    def _on_user_sized(self, position: int, _index: int) -> None:
        self._user_upper = position
        self._arrange(compact=self.outer_split.height() - position < ROOMY_LOWER)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._size_upper()  # sizes set while the tab was hidden do not hold

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._size_upper()

    @Slot(int)
    def on_b_changed(self, b: int) -> None:
        if self.b_combo.currentIndex() != b - 1:
            self.b_combo.blockSignals(True)
            self.b_combo.setCurrentIndex(b - 1)
            self.b_combo.blockSignals(False)

    @contextlib.contextmanager
    def for_figure(self, width: int) -> Iterator[bool]:
        """The view arranged for a page ``width`` logical pixels wide while a figure is drawn: every system's row
        and the whole matrix (side by side when they fit, else one above the other), the charts below them; no
        controls, no sentence lists or panes (they are for browsing). Yields True: the figure takes the height the
        arrangement needs."""
        was_compact = self.compact
        self._arrange(compact=False)
        self._figure = True
        items = [self.title_row.itemAt(i) for i in range(self.title_row.count())]
        titles = [item.widget() for item in items if item is not None]
        parts = [self.middle_split.widget(0), self.panes, self.systems.matrix.controls, *titles]
        hidden = [w for w in parts if w is not None and w.isVisible()]
        for part in hidden:
            part.hide()
        tables = [t for t in (self.systems.table, self.systems.matrix.view) if t.isVisibleTo(self)]
        limits = [(t, t.minimumSize(), t.maximumSize()) for t in tables]
        for table in tables:
            table.setFixedHeight(full_height(table))
            table.setMinimumWidth(full_width(table))
        side_by_side = sum(full_width(t) for t in tables) + 16 <= width
        split = self.systems.split
        split.setOrientation(Qt.Orientation.Horizontal if side_by_side else Qt.Orientation.Vertical)
        charts_minimum = self.charts.minimumHeight()
        self.charts.setMinimumHeight(max(charts_minimum, FIGURE_CHARTS))
        self.outer_split.setStretchFactor(0, 0)  # the systems keep the height of their rows; the charts take the rest
        self.outer_split.setStretchFactor(1, 1)
        self.outer_split.setSizes([1, 10_000])
        for widget in (self.systems, self.outer_split, self):  # the minimum sizes the page is measured by, now
            widget.updateGeometry()
            layout = widget.layout()
            if layout is not None:
                layout.activate()
        try:
            yield True
        finally:
            self._figure = False
            self.charts.setMinimumHeight(charts_minimum)
            split.setOrientation(Qt.Orientation.Horizontal)
            for table, minimum, maximum in limits:
                table.setMinimumSize(minimum)
                table.setMaximumSize(maximum)
            for part in hidden:
                part.show()
            self._arrange(compact=was_compact)
            self._size_upper()

    def release(self) -> None:
        """Let go of the run: the next one has nothing to compare, and a compared run of a million lines holds
        over a gigabyte (the tab is disabled meanwhile)."""
        self.systems.release()
        self.pairs.release()
        self.ngrams.release()
        self.charts.release()
        self.human.release()
