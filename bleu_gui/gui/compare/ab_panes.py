"""A, B and the references of the sentence on screen: BLEU's colours, plus the words inside n-grams only this
system matched, and reference words matched by both, only A or only B (or the metric shown's own marks). Under A
and B, the raters' error spans when their files carry annotations — beside the metric's evidence, whichever metric
is shown, so a segment opened from Humans ▸ Scores shows both."""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ...core import ScoredSystem
from ...core.metrics.bleu.details import SentenceDetails
from ...core.output import score_text
from ..controller import Controller
from ..inspect.human_errors import HumanErrors
from ..widgets import colors
from ..widgets.context_pane import ContextPane
from ..widgets.elided_label import ElidedLabel
from ..widgets.layout import STRETCH, MetricLegend, fill_orders, hrow, legend
from ..widgets.reference_stack import ReferenceStack, lines_high
from ..widgets.style import styled
from ..widgets.text_pane import TextPane
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


class ABPanes(QWidget):
    """The controller's sentence for the baseline (A) and its B, at its n-gram order."""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.details: tuple[SentenceDetails, SentenceDetails] | None = None
        self.order = QComboBox()
        self.order.currentIndexChanged.connect(self.on_order_chosen)
        self.pane_a, self.pane_b = TextPane(), TextPane()
        self.label_a, self.label_b = ElidedLabel("A"), ElidedLabel("B")
        self.sentence_label = ElidedLabel("")  # one line: a wrapped title asked for room the panes need
        for label in (self.label_a, self.label_b, self.sentence_label):
            styled(label, "paneTitle")
        self.references = ReferenceStack()
        self.context_pane = ContextPane()
        # Two lines each (they scroll): A's and B's own panes keep three.
        self.human_a = HumanErrors(controller, system_of=lambda _c: 0, title="Raters' spans on A", lines=2)
        self.human_b = HumanErrors(controller, system_of=lambda c: c.b, title="Raters' spans on B", lines=2)
        self._assemble()
        fill_orders(self.order, 4, all_orders=True)
        controller.run_changed.connect(self.on_run_changed)
        controller.b_changed.connect(self.refresh)
        controller.metric_changed.connect(self.refresh)
        controller.sentence_changed.connect(self.refresh)
        controller.order_changed.connect(self.on_order_changed)

    @property
    def ref_panes(self) -> list[TextPane]:
        return self.references.panes

    def _assemble(self) -> None:
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.order_label = QLabel("n-gram order")
        box.addLayout(hrow(self.sentence_label, STRETCH, self.order_label, self.order))
        self.bleu_legend = QWidget()  # BLEU's colours; another metric's legend replaces it (its own marks)
        bleu_entries = legend([
            ("matched", f"background:{colors.MATCHED_BG.name()}"),
            ("clipped", f"background:{colors.CLIPPED_BG.name()}"),
            ("unmatched", f"background:{colors.UNMATCHED_BG.name()}"),
            ("matched only by this system",
             f"color:{ONLY_HERE.name()}; font-weight:bold; border-bottom:2px solid {ONLY_HERE.name()}"),
            ("ref: both", f"background:{REF_BOTH.name()}"),
            ("ref: only A", f"background:{REF_ONLY_A.name()}"),
            ("ref: only B", f"background:{REF_ONLY_B.name()}")])
        bleu_entries.setContentsMargins(0, 0, 0, 0)
        self.bleu_legend.setLayout(bleu_entries)
        box.addWidget(self.bleu_legend)
        self.metric_legend = MetricLegend()
        box.addWidget(self.metric_legend)
        box.addWidget(self.context_pane)
        ab = QHBoxLayout()
        for label, pane, human in ((self.label_a, self.pane_a, self.human_a), (self.label_b, self.pane_b, self.human_b)):
            column = QVBoxLayout()
            column.addWidget(label)
            column.addWidget(pane, 1)
            column.addWidget(human)
            pane.setMinimumHeight(lines_high(pane, 3))  # three whole lines: two cut the third mid-glyph
            ab.addLayout(column)
        box.addLayout(ab, 1)
        box.addWidget(self.references, 1)

    @Slot()
    def on_run_changed(self) -> None:
        run = self.controller.run
        if run is None or run.comparison is None:
            return
        self.references.set_names(run.reference_names)
        bleu = run.bleu
        self.order.blockSignals(True)
        fill_orders(self.order, bleu.config.max_order if bleu is not None else 4, all_orders=True)
        index = self.order.findData(self.controller.order)
        self.order.setCurrentIndex(max(index, 0))
        self.order.blockSignals(False)
        self.refresh()

    @Slot()
    def refresh(self) -> None:
        """Show the controller's sentence for A and its B."""
        c, run = self.controller, self.controller.run
        if run is None or run.comparison is None or c.sentence is None:
            return
        sentence, k = c.sentence, c.metric
        a, b = run.systems[0], run.systems[c.b]
        self.label_a.setText(f"A — {a.name}")
        self.label_b.setText(f"B — {b.name}")
        sa, sb = float(a.results[k].sentences[sentence]), float(b.results[k].sentences[sentence])
        width = max(2, run.metrics[k].decimals)  # the metric's own decimals: COMET's differences are in thousandths
        self.sentence_label.setText(f"Sentence {run.line_number(sentence)} · {run.metrics[k].name}: A "
                                    f"{score_text.score_text(sa, width)} · B {score_text.score_text(sb, width)} · "
                                    f"B − A {score_text.delta_text(sb - sa, width)}")
        self.context_pane.show_sentence(run, sentence, c.b)
        marks_of_its_own = run.metrics[k].evidence_shown  # chrF's characters, TER's edits, MQM's raters' spans
        bleus = not marks_of_its_own and run.bleu is not None  # without a reference: the candidates as they are
        for widget in (self.bleu_legend, self.order, self.order_label):
            widget.setVisible(bleus)
        self.metric_legend.setVisible(marks_of_its_own)
        if not bleus:  # BLEU's match details are not needed: not computed
            self.details = None
            self._show_metric_marks(sentence, a, b)
            return
        self.details = (run.details(0, sentence), run.details(c.b, sentence))
        self.paint()

    def _show_metric_marks(self, sentence: int, a: ScoredSystem, b: ScoredSystem) -> None:
        """A and B as the metric shown marks them (its candidate pane, as Inspect draws it), the references plain."""
        run = self.controller.run
        assert run is not None
        metric = run.metrics[self.controller.metric]
        shown = [metric.of_system(s.file, run.context.source).shown(sentence, s.lines[sentence], s.name,
                                                                     run.reference_names) for s in (a, b)]
        for pane, seen, system in zip((self.pane_a, self.pane_b), shown, (a, b)):
            pane.set_marks([], [])
            if seen is None or not seen.panes:
                pane.setPlainText(system.lines[sentence])
                pane.paint_ranges([])  # no format left from BLEU's colours
            else:
                pane.setHtml(seen.panes[0].html)
        for r, pane in enumerate(self.ref_panes):
            pane.set_marks([], [])
            pane.setPlainText(run.references[r].lines[sentence])
            pane.paint_ranges([])
        self.metric_legend.set_entries(shown[0].legend if shown[0] is not None else [])

    def paint(self) -> None:
        if self.details is None:  # no BLEU, or the metric shown draws its own marks
            return
        da, db = self.details
        order = self.controller.order
        matched_a, matched_b = matched_ngrams(da, order), matched_ngrams(db, order)
        paint_candidate(self.pane_a, da, order, only_tokens(da, matched_b, order))
        paint_candidate(self.pane_b, db, order, only_tokens(db, matched_a, order))
        for r, pane in enumerate(self.ref_panes):
            paint_reference(pane, r, da, db, order)

    @Slot(int)
    def on_order_chosen(self, _index: int) -> None:
        order = self.order.currentData()
        if order is not None:
            self.controller.set_order(order)

    @Slot(int)
    def on_order_changed(self, order: int) -> None:
        index = self.order.findData(order)
        if index >= 0 and index != self.order.currentIndex():
            self.order.blockSignals(True)
            self.order.setCurrentIndex(index)
            self.order.blockSignals(False)
        self.paint()
