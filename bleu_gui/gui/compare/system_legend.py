"""Who is who in the Compare tab's dot charts: each system's colour *and* shape (15 systems stay apart even where
two colours look alike), and a legend whose entries highlight their system's dots when clicked."""

from __future__ import annotations

from pyqtgraph.graphicsItems.ScatterPlotItem import Symbols
from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap, QTransform
from PySide6.QtWidgets import QToolButton, QWidget

from ...core import palette
from ..widgets.figures import KEPT_IN_FIGURES
from ..widgets.layout import FlowLayout
from .matrix_view import elide_middle

# Five shapes that differ at 8 px. Each of the twenty colours has its own (no two share a colour and a shape): the
# first five systems five different shapes, and colours alike never one shape — any two colours of a shape differ by
# ΔE ≥ 23 in normal vision and under the three simulated colour blindnesses (tests/test_palette.py), each shape
# three times among the first fifteen. Cycling the shapes (system % 5) gave blue, sky blue and light cyan all
# circles (ΔE 13.5).
SHAPES = ("o", "s", "t", "d", "star")
_SHAPE_OF_COLOUR = (0, 1, 2, 3, 4, 4, 2, 3, 1, 0, 2, 1, 3, 0, 4, 4, 1, 3, 0, 2)
# The same shapes as characters, for text (a figure's legend, an SVG).
SHAPE_CHARS = {"o": "●", "s": "■", "t": "▼", "d": "◆", "star": "★"}


def colour_of(system: int) -> str:
    return palette.SYSTEMS[system % len(palette.SYSTEMS)]


def shape_of(system: int) -> str:
    return SHAPES[_SHAPE_OF_COLOUR[system % len(palette.SYSTEMS)]]


def marker_icon(system: int, size: int = 12) -> QIcon:
    """The system's marker as an icon: its shape filled with its colour."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(colour_of(system)))
    transform = QTransform().translate(size / 2, size / 2).scale(size * 0.9, size * 0.9)
    painter.drawPath(transform.map(Symbols[shape_of(system)]))
    painter.end()
    return QIcon(pixmap)


class SystemLegend(QWidget):
    """One entry per system (marker and name), wrapping over as many lines as it needs. Clicking an entry
    highlights that system (``highlighted(index)``); clicking it again, or another, moves or clears it
    (``highlighted(-1)``)."""

    highlighted = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.flow = FlowLayout(spacing=2)
        self.flow.setContentsMargins(0, 0, 0, 0)
        self.setLayout(self.flow)
        self.buttons: list[QToolButton] = []
        self.names: list[str] = []
        self.current = -1

    def set_systems(self, names: list[str]) -> None:
        """Entries for these systems (run order); a highlight from an earlier run is cleared."""
        for button in self.buttons:
            self.flow.removeWidget(button)
            button.deleteLater()
        self.buttons, self.names = [], list(names)
        for i, name in enumerate(names):
            button = QToolButton()
            button.setIcon(marker_icon(i))
            button.setText(elide_middle(name, 22))
            button.setToolTip(f"{name}: click to highlight its dots (again to clear)")
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            button.setAutoRaise(True)
            button.setCheckable(True)
            button.setIconSize(QSize(10, 10))
            button.setStyleSheet("QToolButton { padding: 0px 2px; }")  # fifteen entries in two lines at 1366 px
            button.setProperty(KEPT_IN_FIGURES, True)  # a legend entry, not a control: figures keep it
            button.clicked.connect(lambda _checked=False, i=i: self.toggle(i))
            self.flow.addWidget(button)
            self.buttons.append(button)
        self.current = -1
        self.flow.invalidate()

    def toggle(self, system: int) -> None:
        self.current = -1 if self.current == system else system
        for i, button in enumerate(self.buttons):
            button.setChecked(i == self.current)
        self.highlighted.emit(self.current)

