"""The Inspect tab: the score header over one system's sentence list (left) and the sentence on screen (right)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QFrame, QSplitter, QStackedWidget, QVBoxLayout, QWidget

from ..controller import Controller
from ..widgets.panes import EDITING
from ..window_words import in_window_words
from .human_errors import HumanErrors
from .metric_evidence import MetricEvidence
from .score_header import ScoreHeader
from .sentence_detail import SentenceDetail
from .sentence_list import SentenceList

TOP_WITH_ERASURE = 0.62  # of the right side: panes and erasure above, the account and chart below


class InspectView(QWidget):
    """Lays out the header, :class:`SentenceList` and :class:`SentenceDetail`, which follow the controller."""

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.header = ScoreHeader()
        self.header.reset_button.clicked.connect(lambda: controller.actions.reset_settings())
        self.sentences = SentenceList(controller)
        self.detail = SentenceDetail(controller, self.sentences.model)
        self.evidence = MetricEvidence(controller, self.detail.editor)
        self.human_errors = HumanErrors(controller)
        self.detail.review.active.connect(self.human_errors.set_reviewing)
        self.detail.review.active.connect(self.on_metric_shown)  # the desk marks in the candidate's own pane
        self.detail.editor.typed.connect(lambda *_args: self.evidence.refresh())
        self.detail.editor.reverted.connect(lambda *_args: self.evidence.refresh())
        self._assemble()
        controller.run_changed.connect(self.on_header_changed)
        controller.system_changed.connect(self.on_header_changed)
        controller.metric_changed.connect(self.on_header_changed)
        controller.run_changed.connect(self.on_metric_shown)
        controller.metric_changed.connect(self.on_metric_shown)

    def _assemble(self) -> None:
        # BLEU's panes, or chrF's and TER's evidence, as the chosen metric asks.
        self.top_stack, self.bottom_stack = QStackedWidget(), QStackedWidget()
        self.top_stack.addWidget(self.detail)
        self.top_stack.addWidget(self.evidence)
        self.bottom_stack.addWidget(self.detail.bottom)
        self.bottom_stack.addWidget(self.evidence.bottom)
        top = QWidget()
        column = QVBoxLayout(top)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.human_errors)
        column.addWidget(self.top_stack, 1)
        self.right_split = QSplitter(Qt.Orientation.Vertical)
        self.right_split.addWidget(top)
        self.right_split.addWidget(self.bottom_stack)
        self.right_split.setStretchFactor(0, 3)
        self.right_split.setStretchFactor(1, 2)
        self.main_split = QSplitter(Qt.Orientation.Horizontal)
        self.main_split.addWidget(self.sentences)
        self.main_split.addWidget(self.right_split)
        self.main_split.setStretchFactor(0, 2)
        self.main_split.setStretchFactor(1, 3)
        self.main_split.setSizes([520, 880])
        self.right_split.setSizes([400, 400])
        self.evidence.erasure.first_shown.connect(self._room_for_erasure)
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        line.setFrameShadow(QFrame.Shadow.Sunken)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 0, 4, 0)
        box.addWidget(self.header)
        box.addWidget(line)
        box.addWidget(self.main_split, 1)

    @Slot()
    def _room_for_erasure(self) -> None:
        """The erasure adds a third part above a model's short account: the top takes ``TOP_WITH_ERASURE`` of the
        right side when it first shows (the user's drag decides from then on)."""
        total = sum(self.right_split.sizes())
        if total > 0:
            top = int(total * TOP_WITH_ERASURE)
            self.right_split.setSizes([top, total - top])

    @Slot()
    def on_metric_shown(self, *_args: object) -> None:
        page = 1 if self.evidence.active and self.detail.review.review is None else 0
        self.top_stack.setCurrentIndex(page)
        self.bottom_stack.setCurrentIndex(page)
        # BLEU's account and charts, empty without a reference: their room goes to the source and the candidate.
        run = self.controller.run
        self.bottom_stack.setVisible(bool(page) or run is None or run.bleu is not None)
        if page:
            self.evidence.refresh()
        elif self.controller.sentence is not None and not self.controller.same_view:
            self.detail.show_sentence(self.controller.sentence)  # its line names the chosen metric's score

    @Slot()
    def on_header_changed(self) -> None:
        """The corpus score of the shown system under the shown metric, with every note that bears on it."""
        c, run = self.controller, self.controller.run
        if run is None:
            return
        k, system = c.metric, run.systems[c.system]
        corpus = system.results[k].corpus
        slice_note = ([f"{run.slice.summary}: {corpus.metric} {corpus.score:.2f} here, "
                       f"{run.slice.whole[k][c.system]:.2f} on the whole corpus"] if run.slice is not None else [])
        # Badges mark the settings asked for that are not the defaults (a tokenizer the target language chose is
        # the default's doing, said in the notes: "Reset to defaults" would not change it).
        # Kept in view: what the number is (a slice; the metric's own notes: scores read from a file, a variant's
        # reading); the notes on reading the inputs fold behind their first.
        kept = slice_note + [in_window_words(n) for n in run.metrics[k].notes]
        self.header.set_score(corpus, system.name, [in_window_words(n) for n in run.notes], run.config.metrics[k],
                              kept=kept)

    @contextlib.contextmanager
    def for_figure(self, _width: int) -> Iterator[bool]:
        """The view as a figure shows it: without the "editing" note on the candidate (a figure shows the text, not
        the window's state; its buttons are left out by the figure). Yields False: the figure keeps the view's
        shape."""
        label = self.detail.panes.candidate_label
        text = label.text()
        label.setText(text.removesuffix(EDITING))
        try:
            yield False
        finally:
            label.setText(text)
