"""The raters' error spans (MQM) over the candidate on screen, beside whatever the chosen metric shows — BLEU's
n-gram panes, chrF's shading, TER's edits — so a translator sees at once whether the metric saw what the raters
marked. Shown when the system's file carries annotations; its check box folds it away. Hovering a span names its
severity, category, rater and comment; the raters' corrected translations are listed under it. Inspect shows it for
the system on screen; Compare for A and for B, each under its pane.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import QUrl, Slot
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QTextBrowser, QToolTip, QVBoxLayout, QWidget

from ...core.inputs.ratings import TARGET
from ...core.metrics.mqm.explain import ratings_summary
from ...core.metrics.span_marks import marked_html, severity_legend
from ..controller import Controller
from ..widgets.elided_label import ElidedLabel
from ..widgets.style import styled

TIP = "tip:"
LINES = 3  # the text's height in lines: the metric's panes keep the room


def show_link_tip(url: QUrl | str) -> None:
    """A hovered ``tip:`` link's text as a tooltip (how marked-up panes name what a span is)."""
    text = url.toString() if isinstance(url, QUrl) else url
    if text.startswith(TIP):
        QToolTip.showText(QCursor.pos(), QUrl.fromPercentEncoding(text[len(TIP):].encode()))
    else:
        QToolTip.hideText()


class HumanErrors(QWidget):
    """See the module."""


    def __init__(self, controller: Controller, parent: QWidget | None = None,
                 system_of: Callable[[Controller], int] = lambda c: c.system, title: str = "Human error spans",
                 lines: int = LINES):
        super().__init__(parent)
        self.controller = controller
        self.system_of = system_of  # which system's spans: Inspect's on screen, Compare's A or B
        self.reviewing = False  # the review desk is open: its own panes draw the reviewer's marks
        self.toggle = QCheckBox(title)
        self.toggle.setObjectName("humanErrorsToggle")
        self.toggle.setChecked(True)
        self.toggle.setToolTip("The raters' error spans over this candidate, beside the metric's own marks")
        self.summary = styled(ElidedLabel(), "paneTitle")
        self.text = QTextBrowser()
        self.text.setObjectName("humanErrorsText")
        self.text.setOpenLinks(False)
        self.text.highlighted.connect(show_link_tip)
        self.text.setFixedHeight(self.fontMetrics().lineSpacing() * lines + 12)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.toggle)
        row.addWidget(self.summary, 1)
        for label, style, tip in severity_legend()[:3]:  # one row: the strip keeps its height small
            key = QLabel(label)
            key.setStyleSheet(f"{style}; padding:1px 5px; border-radius:3px;")
            key.setToolTip(tip)
            row.addWidget(key)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 2)
        box.setSpacing(2)
        box.addLayout(row)
        box.addWidget(self.text)
        self.toggle.toggled.connect(self.text.setVisible)
        for signal in (controller.run_changed, controller.sentence_changed, controller.system_changed,
                       controller.metric_changed, controller.b_changed):
            signal.connect(self.refresh)
        self.setVisible(False)

    @Slot(bool)
    def set_reviewing(self, on: bool) -> None:
        """Step aside while the review desk is open (it said "not rated" over the segment being rated)."""
        self.reviewing = on
        self.refresh()

    @Slot()
    def refresh(self, *_args: object) -> None:
        """Show the spans of the sentence on screen, or hide when its system has no annotations (or MQM is the
        metric shown: its own panes show them)."""
        c, run = self.controller, self.controller.run
        sentence, metric = c.sentence, c.metric_object
        k = self.system_of(c)
        system = run.systems[k] if run is not None and 0 <= k < len(run.systems) else None
        annotations = system.file.annotations if system is not None else None
        wanted = (bool(annotations) and sentence is not None and metric is not None and not metric.shows_human_errors
                  and not self.reviewing)
        self.setVisible(wanted)  # (isVisible() is False on a tab not shown: the spans are drawn all the same)
        if not wanted or system is None or annotations is None or sentence is None:
            return
        ratings = annotations[sentence]
        if ratings is None:
            self.summary.setText("this segment was not rated")
            self.text.setHtml(f"<span style='color:gray'>{escape(system.lines[sentence])}</span>")
            return
        self.summary.setText(ratings_summary(ratings))
        body = marked_html(system.lines[sentence], [e for e in ratings.errors if e.side == TARGET])
        untargeted = [e for e in ratings.errors if e.side != TARGET or e.start is None]
        if untargeted:
            body += "<br><small>" + escape("; ".join(
                f"{e.severity} {e.category} ({e.rater}, {'in the source' if e.side != TARGET else 'no span'})"
                for e in untargeted)) + "</small>"
        if ratings.corrections:
            body += "<br><small><b>Corrected:</b> " + escape(" · ".join(f"{r}: {t}" for r, t in ratings.corrections)) \
                + "</small>"
        self.text.setHtml(body)
