"""The right side of the Inspect tab: the sentence on screen — its source, candidate and references with what BLEU
matched and clipped, the what-if editor, why it scores what it does, and its precision and length charts."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ...core import Run
from ...core.analysis.whatif import ScoredLine, scored_line
from ...core.metrics.bleu.details import ALL_ORDERS
from ...core.metrics.bleu.scores import BleuScore
from ...core.output import score_text
from ...core.run import bleu_lines
from ..controller import Controller
from ..widgets.charts import BrevityChart, PrecisionChart
from ..widgets.context_pane import ContextPane
from ..widgets.elided_label import ElidedLabel
from ..widgets.layout import fill_orders, hrow, single_shot
from ..widgets.panes import SentencePanes
from ..widgets.style import styled
from .candidate_editor import CandidateEditor
from .explain_panel import ExplainPanel, bars_legend, status_legend
from .model_whatif import ModelWhatIfLine
from .review import ReviewBar
from .sentence_model import SentenceTableModel


class SentenceDetail(QWidget):
    """The sentence the controller shows, for the system it inspects. ``bottom`` holds the explanation and the
    charts (the Inspect view places it under the panes)."""

    def __init__(self, controller: Controller, list_model: SentenceTableModel, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.context_pane = ContextPane()
        self.panes = SentencePanes()
        self.order_combo = QComboBox()
        self.order_combo.currentIndexChanged.connect(self.on_order_chosen)
        self.show_tokens = QCheckBox("show tokens")
        self.show_tokens.toggled.connect(self.panes.set_show_tokens)
        self.sentence_label = ElidedLabel("")
        styled(self.sentence_label, "paneTitle")
        # A long line (an imported score's source) is cut here, never allowed to widen the window.
        self.status_legend, self.bars_legend = status_legend(), bars_legend()
        self.bars_legend.setVisible(False)
        self.explain_panel = ExplainPanel()
        self.precision_chart = PrecisionChart()
        self.bp_chart = BrevityChart()
        self.editor = CandidateEditor(controller, self.panes, list_model, self)
        self.editor.typed.connect(lambda sentence, line: self.show_line(sentence, line, typing=True))
        self.editor.reverted.connect(self.show_sentence)
        self.model_whatif = ModelWhatIfLine(controller, self.editor, self)
        self.review = ReviewBar(controller, self.panes, list_model, self.context_pane, self)
        self.review.active.connect(self.on_review_active)
        self._chart_line: ScoredLine | None = None
        self._charts_left: list[Callable[[Run, ScoredLine], None]] = []  # drawn one per turn of the event loop
        self._chart_timer = single_shot(self, 150, self._draw_next_chart)
        self._assemble()
        self.fill_order_combo(4)
        controller.run_changed.connect(self.on_run_changed)
        controller.sentence_changed.connect(self.on_sentence_changed)
        controller.system_changed.connect(self.on_system_changed)
        controller.metric_changed.connect(lambda _metric: self.editor.remark())
        controller.order_changed.connect(self.on_order_changed)

    def _assemble(self) -> None:
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.order_label = QLabel("n-gram order")
        title_row = hrow(self.sentence_label, self.order_label, self.order_combo, self.show_tokens)
        title_row.setStretchFactor(self.sentence_label, 1)  # the title takes the room (and is cut, not wrapped)
        box.addLayout(title_row)
        box.addWidget(self.status_legend)
        box.addWidget(self.bars_legend)
        box.addWidget(self.context_pane)
        box.addWidget(self.editor.bar)
        box.addWidget(self.model_whatif.label)
        box.addWidget(self.review.bar)
        box.addWidget(self.panes, 1)
        charts = QWidget()
        cv = QHBoxLayout(charts)
        cv.setContentsMargins(0, 0, 0, 0)
        for chart in (self.precision_chart, self.bp_chart):
            chart.setMinimumHeight(110)  # as the evidence's chart: the stack under the panes takes the larger minimum
            cv.addWidget(chart)
        self.bottom = QSplitter(Qt.Orientation.Horizontal)
        self.bottom.addWidget(self.explain_panel)
        self.bottom.addWidget(charts)
        self.bottom.setSizes([440, 440])

    def fill_order_combo(self, max_order: int) -> None:
        self.order_combo.blockSignals(True)
        fill_orders(self.order_combo, max_order, all_orders=True)
        index = self.order_combo.findData(self.controller.order)
        self.order_combo.setCurrentIndex(index if index >= 0 else 0)
        self.order_combo.blockSignals(False)
        self.panes.order = self.order_combo.currentData()

    # -- following the controller ------------------------------------------------------------------
    @Slot()
    def on_run_changed(self) -> None:
        run = self.controller.run
        assert run is not None
        bleu = run.bleu
        for chart in (self.precision_chart, self.bp_chart):
            chart.signature = bleu.signature() if bleu is not None else ""
        self.panes.set_reference_names(run.reference_names)
        self.fill_order_combo(bleu.config.max_order if bleu is not None else 4)
        self._show_bleu_parts(bleu is not None)
        self.editor.attach()  # the sentence follows (see Controller.run_changed)
        self.model_whatif.attach()

    @Slot(bool)
    def on_review_active(self, on: bool) -> None:
        """A reviewer marks spans of the file's text: no in-place editing, no token view meanwhile."""
        if on:
            self.editor.edit_button.setChecked(False)
            self.show_tokens.setChecked(False)
        self.editor.bar.setVisible(not on)
        self.show_tokens.setEnabled(not on)

    @Slot(int)
    def on_system_changed(self, _system: int) -> None:
        self.editor.attach()
        self.model_whatif.attach()
        if self.controller.sentence is not None:
            self.show_sentence(self.controller.sentence)

    @Slot(int)
    def on_sentence_changed(self, sentence: int) -> None:
        if sentence >= 0:
            self.show_sentence(sentence)

    @Slot(int)
    def on_order_chosen(self, _index: int) -> None:
        order = self.order_combo.currentData()
        if order is not None:
            self.controller.set_order(order)

    @Slot(int)
    def on_order_changed(self, order: int) -> None:
        index = self.order_combo.findData(order)
        if index >= 0 and index != self.order_combo.currentIndex():
            self.order_combo.blockSignals(True)
            self.order_combo.setCurrentIndex(index)
            self.order_combo.blockSignals(False)
        self.panes.set_order(order)
        self._show_bleu_parts(self.controller.run is None or self.controller.run.bleu is not None)

    def _show_bleu_parts(self, shown: bool) -> None:
        """BLEU's own controls and legend, shown when the run has BLEU: without a reference nothing fills them."""
        for widget in (self.order_label, self.order_combo, self.show_tokens):
            widget.setVisible(shown)
        all_orders = self.controller.order == ALL_ORDERS
        self.status_legend.setVisible(shown and not all_orders)
        self.bars_legend.setVisible(shown and all_orders)

    # -- the sentence ------------------------------------------------------------------------------
    def show_sentence(self, sentence: int) -> None:
        run = self.controller.run
        if run is None or not 0 <= sentence < run.n_sentences:
            return
        system = self.controller.system
        self.context_pane.show_sentence(run, sentence, system)
        if run.bleu is None:  # a run without references: the candidate as it is, for the reader and the desk
            self.sentence_label.setText(f"Sentence {run.line_number(sentence)} · {sentence + 1} of {run.n_sentences:,}"
                                        f"{self._imported_text(sentence)}")
            self.panes.set_plain(run.systems[system].lines[sentence], f"Candidate — {run.systems[system].name}")
            self.review.show_marks()
            return
        line = self.editor.scored(sentence) or scored_line(bleu_lines(run, system), sentence)
        self.show_line(sentence, line)

    def _imported_text(self, sentence: int) -> str:
        """With an imported metric chosen: its score of this segment, said to be read, not computed."""
        c, run = self.controller, self.controller.run
        metric = c.metric_object
        source = metric.read_from() if metric is not None else None
        if run is None or metric is None or source is None:
            return ""
        value = run.systems[c.system].results[c.metric].sentences[sentence]
        shown = "missing" if np.isnan(value) else score_text.score_text(float(value))
        return f" · {metric.name} {shown} (read from {source})"

    def show_line(self, sentence: int, line: ScoredLine, typing: bool = False) -> None:
        """Show sentence ``sentence`` as ``line`` scores it (the file's text, or an edit being typed)."""
        run = self.controller.run
        assert run is not None
        system = run.systems[self.controller.system]
        edited = line.text != system.lines[sentence]
        where = f"Sentence {run.line_number(sentence)}"
        self.sentence_label.setText(f"{where} · {sentence + 1} of {run.n_sentences:,}"
                                    f"{' in the slice' if run.slice is not None else ''} · sentence BLEU "
                                    f"{score_text.score_text(line.score)}{' (edited)' if edited else ''}"
                                    f"{self._imported_text(sentence)}")
        self.panes.set_details(line.details, f"Candidate — {system.name}")  # an edit being typed keeps its text
        self.review.show_marks()  # a reviewer's marks over the text just painted
        self.explain_panel.set_explanation(line.explanation, f"Why this score — {where.lower()}"
                                                             f"{' (edited)' if edited else ''}")
        self._chart_line = line
        # The charts follow, each on its own turn of the event loop: a chart's scene repaints the window on its own,
        # so text and charts in one turn made one long frame. While typing they wait for a pause (the text follows
        # every key).
        self._charts_left = [self._draw_precisions, self._draw_brevity]
        self._chart_timer.start(150 if typing else 0)
        self.editor.refresh_buttons()

    @property
    def charts_pending(self) -> bool:
        return bool(self._charts_left)

    def _draw_next_chart(self) -> None:
        run = self.controller.run
        if run is not None and self._chart_line is not None and self._charts_left:
            self._charts_left.pop(0)(run, self._chart_line)
            if self._charts_left:
                self._chart_timer.start(0)

    def _corpus_bleu(self, run: Run) -> BleuScore:
        return bleu_lines(run, self.controller.system).corpus

    def _draw_precisions(self, run: Run, line: ScoredLine) -> None:
        corpus = self._corpus_bleu(run)
        N, width = len(corpus.precisions), (len(line.stats) - 2) // 2
        self.precision_chart.update_values(line.stats[2:2 + N], line.stats[2 + width:2 + width + N],
                                           corpus.precisions[:N])

    def _draw_brevity(self, run: Run, line: ScoredLine) -> None:
        corpus = self._corpus_bleu(run)
        self.bp_chart.update_values((int(line.stats[0]), int(line.stats[1])), (corpus.sys_len, corpus.ref_len))
