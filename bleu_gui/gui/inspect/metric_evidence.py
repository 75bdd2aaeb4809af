"""What a sentence's chrF or TER is made of, shown instead of BLEU's panes when one of them is the chosen metric.

chrF: the candidate's and the reference's characters shaded by the share of their character n-grams that
matched, the account, and per-order precision and recall. TER: the candidate with its shifted blocks, the edits
of the shifted candidate against the reference, the reference, the account, and the edits by kind. A sentence
being edited (what-if) shows the edited text's evidence.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QLabel, QSplitter, QTextBrowser, QVBoxLayout, QWidget

from ...core.analysis.why import segment_account
from ...core.metrics.chrf.chrf import Chrf
from ...core.metrics.chrf.evidence import ChrfEvidence
from ...core.metrics.ter.evidence import TerEvidence
from ...core.metrics.ter.ter import Ter
from ...core.output import evidence_html, palette, score_text
from ..controller import Controller
from ..widgets.charts import GroupedBars
from ..widgets.layout import legend
from ..widgets.style import styled
from .candidate_editor import CandidateEditor
from .explain_panel import ExplainPanel


def _browser(name: str) -> QTextBrowser:
    view = QTextBrowser()
    view.setObjectName(name)
    view.setOpenLinks(False)
    font = view.font()
    font.setPointSizeF(font.pointSizeF() * 1.15)
    view.setFont(font)
    return view


def _titled(title: QLabel, view: QTextBrowser) -> QWidget:
    widget = QWidget()
    box = QVBoxLayout(widget)
    box.setContentsMargins(0, 0, 0, 0)
    box.setSpacing(2)
    box.addWidget(title)
    box.addWidget(view, 1)
    return widget


def _title(text: str = "") -> QLabel:
    label = QLabel(text)
    styled(label, "paneTitle")
    return label


def chrf_legend() -> QWidget:
    widget = QWidget()
    widget.setLayout(legend([
        ("share of a character's n-grams matched:", f"color:{palette.TEXT}"),
        ("none", f"background:{evidence_html.share_colour(0.0)}"),
        ("half", f"background:{evidence_html.share_colour(0.5)}"),
        ("all", f"background:{evidence_html.share_colour(1.0)}"),
        ("not read (whitespace)", f"color:{palette.MUTED}")],
        tips={"share of a character's n-grams matched:": "Of the character n-grams chrF takes through a character "
              "(every order), how many matched the other side (the leftmost occurrences match first)"}))
    return widget


def ter_legend() -> QWidget:
    widget = QWidget()
    widget.setLayout(legend([
        ("shifted block", evidence_html.SHIFT_STYLE),
        ("match", evidence_html.OP_STYLES["="]),
        ("substitution", evidence_html.OP_STYLES["S"]),
        ("not in the reference", evidence_html.OP_STYLES["D"]),
        ("+missing", evidence_html.OP_STYLES["I"])],
        tips={"shifted block": "A block of words moved as one edit; 1→5: the first shift, landing at word 5"}))
    return widget


class MetricEvidence(QWidget):
    """The sentence the controller shows, under the chosen metric when that is chrF or TER (see the module).
    ``bottom`` holds the account and the chart (the Inspect view places it under the panes)."""

    def __init__(self, controller: Controller, editor: CandidateEditor, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller, self.editor = controller, editor
        self.sentence_label = _title()
        self.chrf_legend, self.ter_legend = chrf_legend(), ter_legend()
        self.candidate_title, self.edits_title, self.reference_title = _title(), _title(), _title()
        self.candidate = _browser("evidenceCandidate")
        self.edits = _browser("evidenceEdits")
        self.reference = _browser("evidenceReference")
        self.edits_box = _titled(self.edits_title, self.edits)
        self.explain_panel = ExplainPanel()
        self.chart = GroupedBars("Per order", "")
        self.evidence: ChrfEvidence | TerEvidence | None = None
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.sentence_label)
        box.addWidget(self.chrf_legend)
        box.addWidget(self.ter_legend)
        panes = QSplitter(Qt.Orientation.Vertical)
        panes.addWidget(_titled(self.candidate_title, self.candidate))
        panes.addWidget(self.edits_box)
        panes.addWidget(_titled(self.reference_title, self.reference))
        box.addWidget(panes, 1)
        self.bottom = QSplitter(Qt.Orientation.Horizontal)
        self.bottom.addWidget(self.explain_panel)
        self.bottom.addWidget(self.chart)
        self.bottom.setSizes([440, 440])
        controller.sentence_changed.connect(self.refresh)
        controller.system_changed.connect(self.refresh)
        controller.metric_changed.connect(self.refresh)

    @property
    def active(self) -> bool:
        """Whether the chosen metric is one this view explains."""
        return isinstance(self.controller.metric_object, Chrf | Ter)

    @Slot()
    def refresh(self, *_args: object) -> None:
        c, run = self.controller, self.controller.run
        sentence = c.sentence
        metric = c.metric_object
        if run is None or sentence is None or not isinstance(metric, Chrf | Ter):
            return
        system = run.systems[c.system]
        edited = self.editor.scored(sentence)
        text = edited.text if edited is not None else system.lines[sentence]
        account, evidence = segment_account(metric, sentence, text, run.reference_names)
        assert isinstance(evidence, ChrfEvidence | TerEvidence)  # chrF and TER compute theirs from the text
        self.evidence = evidence
        where = f"Sentence {run.line_number(sentence)}"
        self.sentence_label.setText(f"{where} · {sentence + 1} of {run.n_sentences:,} · sentence {metric.name} "
                                    f"{score_text.score_text(evidence.score)}{' (edited)' if edited else ''}")
        self.explain_panel.set_explanation(account, f"Why this {metric.name} — {where.lower()}"
                                                    f"{' (edited)' if edited else ''}")
        reference = run.reference_names[evidence.reference] if evidence.reference < len(run.reference_names) else ""
        several = len(run.references) > 1
        if isinstance(evidence, ChrfEvidence):
            self._show_chrf(evidence, system.name, reference, several)
        else:
            self._show_ter(evidence, system.name, reference, several)

    def _show_chrf(self, e: ChrfEvidence, system: str, reference: str, several: bool) -> None:
        self.chrf_legend.setVisible(True)
        self.ter_legend.setVisible(False)
        self.edits_box.setVisible(False)
        self.candidate_title.setText(f"Candidate — {system}")
        self.reference_title.setText(reference + (" (the reference with the best F)" if several else ""))
        self.candidate.setHtml(evidence_html.chrf_html(e.hypothesis))
        self.reference.setHtml(evidence_html.chrf_html(e.reference_text))
        shown = e.orders
        self.chart.set_title("Precision and recall per order")
        self.chart.update_values([f"{'c' if o.kind == 'char' else 'w'}{o.n}" for o in shown], ["precision", "recall"],
                                 [[100 * (o.precision or 0.0) for o in shown], [100 * (o.recall or 0.0) for o in shown]],
                                 "%", top=100)

    def _show_ter(self, e: TerEvidence, system: str, reference: str, several: bool) -> None:
        self.chrf_legend.setVisible(False)
        self.ter_legend.setVisible(True)
        self.edits_box.setVisible(True)
        self.candidate_title.setText(f"Candidate — {system} (TER's words)")
        self.edits_title.setText(f"After {len(e.shifts)} shift(s): the edits against the reference")
        self.reference_title.setText(reference + (" (the reference needing the fewest edits)" if several else ""))
        self.candidate.setHtml(evidence_html.ter_hypothesis_html(e))
        self.edits.setHtml(evidence_html.ter_edits_html(e))
        self.reference.setHtml(evidence_html.ter_reference_html(e))
        counts = [len(e.shifts), e.count("S"), e.count("I"), e.count("D")]
        self.chart.set_title(f"Edits: {e.edits} over {e.ref_length:g} reference words")
        self.chart.update_values(["shifts", "substitutions", "insertions", "deletions"], ["edits"],
                                 [[float(x) for x in counts]], "edits")
