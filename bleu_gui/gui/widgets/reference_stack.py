"""The references of the sentence on screen, one pane each, in a scroll area: Inspect's and Compare's alike.

One reference has its name above its pane. Several have each name beside its pane and every pane two lines high
at least, so that a laptop's window shows them all: a candidate's green words match a reference in sight.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QScrollArea, QSizePolicy, QWidget

from .elided_label import ElidedLabel
from .style import styled
from .text_pane import TextPane

_NAME_WIDTH = 64  # a reference's name beside its pane (elided, whole in its tooltip)
_SHOWN_AT_LEAST = 3  # references always in sight (WMT21 en-de has three; more scroll)
# Between stacked panes, whose frames already part them: the style's 6 px made three references and two bars 10 px
# taller than a laptop's screen below a panel leaves.
_STACKED_GAP = 1


def lines_high(pane: TextPane, lines: int) -> int:
    """The height that shows ``lines`` lines of ``pane``'s text, with its frame and margins (and a quarter line
    more: a fallback font, CJK's, has taller lines than the pane's own)."""
    margins = 2 * (pane.frameWidth() + round(pane.document().documentMargin()))
    return round(pane.fontMetrics().lineSpacing() * (lines + 0.25)) + margins


class ReferenceStack(QScrollArea):
    """A pane per reference (:attr:`panes`, under or beside its :attr:`labels`), laid out as the module says."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.names: list[str] = []
        self.panes: list[TextPane] = []
        self.labels: list[ElidedLabel] = []
        self.grid = QGridLayout()
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setColumnStretch(1, 1)
        inner = QWidget()
        inner.setLayout(self.grid)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidget(inner)

    def set_names(self, names: list[str]) -> bool:
        """One pane per reference, under its name; the same names keep their panes and what they show. Says
        whether the panes are new."""
        if list(names) == self.names and len(self.panes) == len(names):
            return False
        while self.panes:
            self.grid.removeWidget(self.panes[-1])
            self.grid.removeWidget(self.labels[-1])
            self.panes.pop().deleteLater()
            self.labels.pop().deleteLater()
        for row in range(self.grid.rowCount()):
            self.grid.setRowStretch(row, 0)
        self.names = list(names)
        stacked = len(names) > 1
        self.grid.setVerticalSpacing(_STACKED_GAP if stacked else -1)  # -1: the style's, as the candidate's title
        for r, name in enumerate(names):
            label = ElidedLabel(name)
            styled(label, "paneTitle")
            pane = TextPane()
            if stacked:
                label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
                label.setFixedWidth(_NAME_WIDTH)
                label.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
                pane.setMinimumHeight(lines_high(pane, 2))
                self.grid.addWidget(label, r, 0)
                self.grid.addWidget(pane, r, 1)
                self.grid.setRowStretch(r, 1)
            else:
                pane.setMinimumHeight(lines_high(pane, 2))
                self.grid.addWidget(label, 0, 0, 1, 2)
                self.grid.addWidget(pane, 1, 0, 1, 2)
                self.grid.setRowStretch(1, 1)
            self.labels.append(label)
            self.panes.append(pane)
        self._ask_room()
        return True

    def _ask_room(self) -> None:
        """As tall as the first :data:`_SHOWN_AT_LEAST` references need (the rest scroll): a layout never squeezes
        a reference out of sight."""
        if not self.panes:
            self.setMinimumHeight(0)
            return
        shown = self.panes[:_SHOWN_AT_LEAST]
        spacing = self.grid.verticalSpacing() if self.grid.verticalSpacing() >= 0 else 6
        labels = 0 if len(self.panes) > 1 else self.labels[0].sizeHint().height() + spacing
        self.setMinimumHeight(sum(p.minimumHeight() for p in shown) + spacing * (len(shown) - 1) + labels + 2)
