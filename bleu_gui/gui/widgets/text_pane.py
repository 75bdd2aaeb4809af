"""One text view of the panes: status formats, the "all orders" bars, token edges, and in-place editing.

Colours are applied with QTextCharFormat through a QTextCursor (read-only
panes) or as extra selections (a pane being edited, so that colouring never
enters the user's undo history nor re-triggers ``textChanged``). Each coloured
range carries its status as a user property so that tests (and accessibility
tools) can read back what is shown. Bars and token edges are painted over the
text after Qt has drawn it.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from PySide6.QtCore import QPoint, QRect, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import QFrame, QTextEdit, QWidget

from ...core import palette
from ...core.metrics.bleu.details import CLIPPED, MATCHED, UNMATCHED

STATUS_PROPERTY = QTextFormat.Property.UserProperty + 1
ORDER_PROPERTY = QTextFormat.Property.UserProperty + 2
BAR_HEIGHT, BAR_GAP = 3, 1
BAR_COLOURS = {MATCHED: QColor(palette.BAR_MATCHED), CLIPPED: QColor(palette.BAR_CLIPPED),
               UNMATCHED: QColor(palette.BAR_UNMATCHED), None: QColor(palette.BAR_NONE)}
EDGE = QColor(palette.TOKEN_EDGE)


def utf16_offsets(text: str) -> list[int]:
    """Qt's position (in UTF-16 code units) of every Python index of ``text``, and of its end.

    Python counts code points; Qt counts UTF-16 units, two for a character
    outside the Basic Multilingual Plane (emoji, CJK Extension B). Positions
    cross between the two only here.
    """
    out, pos = [0], 0
    for ch in text:
        pos += 2 if ord(ch) > 0xFFFF else 1
        out.append(pos)
    return out


@dataclass(frozen=True)
class TokenBars:
    """Under the characters ``start:end``, one bar per order with that order's status (None: no n-gram)."""

    start: int
    end: int
    statuses: list[str | None]


class TextPane(QTextEdit):
    """A text view that reports which character the mouse is over or clicked, and can be edited in place.

    Signals: ``hovered(char, global point)``, ``clicked(char)``, ``edited(text)`` (typing while editing).
    """

    hovered = Signal(int, object)  # char position (-1 when none), global QPoint
    clicked = Signal(int)
    edited = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        font = self.font()
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.setFont(font)
        self.setLineWrapMode(QTextEdit.LineWrapMode.WidgetWidth)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.bars: list[TokenBars] = []
        self.edges: list[int] = []  # characters where one token ends and the next begins with no space
        self.editing = False
        self._painted: tuple | None = None  # (text, ranges) last coloured, to skip colouring them again
        self.textChanged.connect(self._on_text_changed)

    def setPlainText(self, text: str) -> None:
        self._painted = None
        super().setPlainText(text)

    def clear(self) -> None:
        self._painted = None
        super().clear()

    # -- editing ----------------------------------------------------------------------
    def set_editing(self, on: bool) -> None:
        self._painted = None
        self.editing = on
        self.setReadOnly(not on)
        self.setUndoRedoEnabled(on)
        self.setExtraSelections([])
        if on:
            self.setFocus()
            self.moveCursor(QTextCursor.MoveOperation.End)

    def _on_text_changed(self) -> None:
        if self.editing:
            self.edited.emit(self.toPlainText())

    # -- pointer ----------------------------------------------------------------------
    def _char_at(self, pos: QPoint) -> int:
        """The Python index of the character under a point of the viewport."""
        cursor = self.cursorForPosition(pos)
        rect = self.cursorRect(cursor)
        # cursorForPosition returns the nearest gap; take the character on the pointer's side.
        p = cursor.position()
        if pos.x() < rect.x() and p > 0:
            p -= 1
        return bisect_right(utf16_offsets(self.toPlainText()), p) - 1

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self.hovered.emit(self._char_at(event.position().toPoint()), event.globalPosition().toPoint())
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and not self.textCursor().hasSelection():
            self.clicked.emit(self._char_at(event.position().toPoint()))
        super().mouseReleaseEvent(event)

    # -- colouring --------------------------------------------------------------------
    def paint_ranges(self, ranges: list[tuple[int, int, QTextCharFormat]]) -> None:
        """Apply formats to ranges given as Python string indices of the pane's text."""
        text = self.toPlainText()
        units = utf16_offsets(text)
        if self.editing:
            selections = []
            for start, end, fmt in ranges:
                sel = QTextEdit.ExtraSelection()
                sel.cursor = QTextCursor(self.document())
                sel.cursor.setPosition(units[start])
                sel.cursor.setPosition(units[end], QTextCursor.MoveMode.KeepAnchor)
                sel.format = fmt
                selections.append(sel)
            self.setExtraSelections(selections)
            return
        key = (text, [(a, b, f.property(STATUS_PROPERTY), f.property(ORDER_PROPERTY), f.background().color().rgba(),
                       f.fontWeight()) for a, b, f in ranges])
        if key == self._painted:
            return  # the same colours on the same text (a reference while the candidate is typed)
        self._painted = key
        cursor = QTextCursor(self.document())
        cursor.beginEditBlock()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.setCharFormat(QTextCharFormat())
        for start, end, fmt in ranges:
            cursor.setPosition(units[start])
            cursor.setPosition(units[end], QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(fmt)
        cursor.endEditBlock()

    def set_marks(self, bars: list[TokenBars], edges: list[int]) -> None:
        """Bars under tokens (empty: none) and token edges; lines get room below for the bars."""
        self.bars, self.edges = bars, edges
        orders = max((len(b.statuses) for b in bars), default=0)
        room = orders * (BAR_HEIGHT + BAR_GAP) + 2 if orders else 0
        if self.document().firstBlock().blockFormat().lineHeight() != room:
            block = QTextBlockFormat()
            block.setLineHeight(room, QTextBlockFormat.LineHeightTypes.LineDistanceHeight.value)
            cursor = QTextCursor(self.document())
            cursor.select(QTextCursor.SelectionType.Document)
            self.blockSignals(True)  # line spacing is presentation, not an edit: no textChanged, no undo step
            undo = self.isUndoRedoEnabled()
            self.setUndoRedoEnabled(False)
            cursor.mergeBlockFormat(block)
            self.setUndoRedoEnabled(undo)
            self.blockSignals(False)
        self.viewport().update()

    def _span_rects(self, start: int, end: int, units: list[int]) -> list[QRect]:
        """The rectangles that characters ``start:end`` cover: one, or two when a line wraps inside them."""
        first, last = self.cursorRect(self._at(units[start])), self.cursorRect(self._at(units[end]))
        if first.top() == last.top():
            return [QRect(first.left(), first.top(), max(last.left() - first.left(), 2), first.height())]
        margin = int(self.document().documentMargin())
        return [QRect(first.left(), first.top(), max(self.viewport().width() - margin - first.left(), 2),
                      first.height()),
                QRect(margin, last.top(), max(last.left() - margin, 2), last.height())]

    def _at(self, unit: int) -> QTextCursor:
        cursor = QTextCursor(self.document())
        cursor.setPosition(unit)
        return cursor

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self.bars and not self.edges:
            return
        text = self.toPlainText()
        units = utf16_offsets(text)
        painter = QPainter(self.viewport())
        for bar in self.bars:
            if bar.end > len(text):
                continue
            for rect in self._span_rects(bar.start, bar.end, units):
                y = rect.bottom() + 2
                for status in bar.statuses:
                    painter.fillRect(QRect(rect.left() + 1, y, max(rect.width() - 2, 1), BAR_HEIGHT),
                                     BAR_COLOURS[status])
                    y += BAR_HEIGHT + BAR_GAP
        painter.setPen(EDGE)
        for char in self.edges:
            if char <= len(text):
                r = self.cursorRect(self._at(units[char]))
                painter.drawLine(r.left(), r.top() + 2, r.left(), r.bottom() - 2)
        painter.end()
