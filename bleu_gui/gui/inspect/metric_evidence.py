"""What a sentence's number is made of under the chosen metric, shown instead of BLEU's panes when the metric shows
its own evidence (chrF's shaded characters, TER's shifts and edits, …): one view for every family, drawing the
panes, legend and chart the metric gives (:class:`~bleu_gui.core.metrics.account.Shown`) and its account. A
sentence being edited (what-if) shows the edited text's evidence.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtWidgets import QLabel, QSplitter, QTextBrowser, QVBoxLayout, QWidget

from ...core.metrics.account import Shown
from ..controller import Controller
from ..widgets.charts import GroupedBars
from ..widgets.elided_label import ElidedLabel
from ..widgets.layout import MetricLegend
from ..widgets.style import styled
from .candidate_editor import CandidateEditor
from .erasure_view import ErasureView
from .explain_panel import ExplainPanel
from .human_errors import show_link_tip

MAX_PANES = 4


def _browser(name: str) -> QTextBrowser:
    view = QTextBrowser()
    view.setObjectName(name)
    view.setOpenLinks(False)
    view.highlighted.connect(show_link_tip)  # a marked span names itself on hover (MQM's errors)
    font = view.font()
    font.setPointSizeF(font.pointSizeF() * 1.15)
    view.setFont(font)
    return view


def _title(text: str = "") -> QLabel:
    label = ElidedLabel(text)
    styled(label, "paneTitle")
    return label


ERASURE_SHARE = 0.45  # of the panes' split, when the erasure first shows


class _Pane(QWidget):
    """A titled text pane."""

    def __init__(self, k: int) -> None:
        super().__init__()
        self.title = _title()
        self.text = _browser(f"evidencePane{k}")
        # Three panes, the erasure and the account share a laptop's 768 pixels: a pane may be as low as two lines
        # (the splitter gives it more; the default minimum of a text browser made the window taller than the screen).
        self.text.setMinimumHeight(2 * self.text.fontMetrics().lineSpacing() + 8)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        box.addWidget(self.title)
        box.addWidget(self.text, 1)


class MetricEvidence(QWidget):
    """The sentence the controller shows, under the chosen metric when it shows its own evidence (see the module).
    ``bottom`` holds the account and the chart (the Inspect view places it under the panes)."""

    def __init__(self, controller: Controller, editor: CandidateEditor, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller, self.editor = controller, editor
        self.sentence_label = styled(ElidedLabel(), "paneTitle")
        self.legend = MetricLegend()
        self.panes = [_Pane(k) for k in range(MAX_PANES)]
        self.explain_panel = ExplainPanel()
        self.chart = GroupedBars("", "")
        self.chart.setMinimumHeight(110)  # its own minimum (181) with the panes above made a laptop's window too tall
        self.shown: Shown | None = None
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.sentence_label)
        box.addWidget(self.legend)
        split = self.split = QSplitter(Qt.Orientation.Vertical)
        for k, pane in enumerate(self.panes):
            split.addWidget(pane)
            pane.setVisible(k < 2)  # until a metric says how many it shows: hidden panes ask for no height
        self.erasure = ErasureView(controller)
        self.erasure.setVisible(False)  # a metric that scores variants through its model shows it
        split.addWidget(self.erasure)
        split.setStretchFactor(MAX_PANES, 2)  # the erasure's text and its account need more than a pane's room
        # Once this sentence's panes are shown too (the erasure may show first: the controller's signal reaches it
        # before the panes' refresh).
        self.erasure.first_shown.connect(lambda: QTimer.singleShot(0, self, self._room_for_erasure))
        box.addWidget(split, 1)
        self.bottom = QSplitter(Qt.Orientation.Horizontal)
        self.bottom.addWidget(self.explain_panel)
        self.bottom.addWidget(self.chart)
        self.bottom.setSizes([440, 440])
        controller.sentence_changed.connect(self.refresh)
        controller.system_changed.connect(self.refresh)
        controller.metric_changed.connect(self.refresh)

    @Slot()
    def _room_for_erasure(self) -> None:
        """The erasure, laid out while hidden, would keep two lines under panes of short texts: it takes
        ``ERASURE_SHARE`` of the split, the panes shown share the rest (the user's drag decides from then on)."""
        sizes = self.split.sizes()
        total = sum(sizes)
        shown = [k for k, pane in enumerate(self.panes) if pane.isVisible()]
        if total <= 0 or not shown:
            return
        room = int(total * ERASURE_SHARE)
        each = (total - room) // len(shown)
        self.split.setSizes([each if k in shown else 0 for k in range(MAX_PANES)] + [room])

    @property
    def active(self) -> bool:
        """Whether the chosen metric shows its own evidence."""
        metric = self.controller.metric_object
        return metric is not None and metric.evidence_shown

    @Slot()
    def refresh(self, *_args: object) -> None:
        c, run = self.controller, self.controller.run
        sentence, metric = c.sentence, c.metric_object
        if run is None or sentence is None or metric is None or not metric.evidence_shown:
            return
        system = run.systems[c.system]
        edited = self.editor.scored(sentence)
        text = edited.text if edited is not None else system.lines[sentence]
        metric = metric.of_system(system.file, run.context.source)
        shown = metric.shown(sentence, text, system.name, run.reference_names)
        if shown is None:
            return
        self.shown = shown
        account = metric.account(sentence, text, system.results[c.metric].stats[sentence], run.reference_names)
        where = f"Sentence {run.line_number(sentence)}"
        said = " (edited)" if edited else ""
        self.sentence_label.setText(f"{where} · {sentence + 1} of {run.n_sentences:,} · {shown.summary}{said}")
        self.explain_panel.set_explanation(account.explanation, f"Why this {metric.name} — {where.lower()}{said}")
        self.legend.set_entries(shown.legend)
        for k, pane in enumerate(self.panes):
            pane.setVisible(k < len(shown.panes))
            if k < len(shown.panes):
                pane.title.setText(shown.panes[k].title)
                pane.text.setHtml(shown.panes[k].html)
        chart = shown.chart
        self.chart.setVisible(chart is not None)
        if chart is not None:
            self.chart.set_title(chart.title)
            self.chart.update_values(chart.categories, chart.series, chart.values, chart.unit, top=chart.top)

