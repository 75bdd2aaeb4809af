"""Side-by-side panes: the candidate and every reference, coloured by n-gram match status.

Colours are applied with QTextCharFormat through a QTextCursor on one sentence
pair at a time. Each coloured range also carries its status as a user property
so that tests (and accessibility tools) can read back what is shown.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QTextEdit, QToolTip, QVBoxLayout, QWidget

from ..core.details import ALL_ORDERS, CLIPPED, MATCHED, UNMATCHED, NgramOccurrence, SentenceDetails, token_statuses
from . import colors

STATUS_PROPERTY = QTextFormat.Property.UserProperty + 1
ORDER_PROPERTY = QTextFormat.Property.UserProperty + 2


def utf16_offsets(text: str) -> list[int]:
    """Qt's position (in UTF-16 code units) of every Python index of ``text``, and of its end.

    Python counts code points; Qt counts UTF-16 units, two for a character
    outside the Basic Multilingual Plane (emoji, CJK Extension B). Positions
    cross between the two only here, in :class:`TextPane`.
    """
    out, pos = [0], 0
    for ch in text:
        pos += 2 if ord(ch) > 0xFFFF else 1
        out.append(pos)
    return out


@dataclass(frozen=True)
class ShownText:
    """The text a pane shows and where each token sits in it."""

    text: str
    spans: list[tuple[int, int] | None]


def shown_text(original: str, tokens: list[str], spans, show_tokens: bool) -> ShownText:
    """Original text with the core's character spans, or the tokens joined by spaces."""
    if not show_tokens and all(s is not None for s in spans):
        return ShownText(original, list(spans))
    out, pos = [], 0
    for tok in tokens:
        out.append((pos, pos + len(tok)))
        pos += len(tok) + 1
    return ShownText(" ".join(tokens), out)


def status_format(status: str | None, order: int, all_orders: bool) -> QTextCharFormat:
    fmt = QTextCharFormat()
    if status is None:
        return fmt
    fmt.setProperty(STATUS_PROPERTY, status)
    fmt.setProperty(ORDER_PROPERTY, order)
    if status == MATCHED:
        fmt.setBackground(colors.order_green(order) if all_orders else colors.MATCHED_BG)
    elif status == CLIPPED:
        fmt.setBackground(colors.CLIPPED_BG)
        # An underline as well, so that clipping reads without colour vision.
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        fmt.setUnderlineColor(colors.CLIPPED_LINE)
    elif status == UNMATCHED:
        fmt.setBackground(colors.UNMATCHED_BG)
    return fmt


class TextPane(QTextEdit):
    """A read-only text view that reports which character the mouse is over or clicked."""

    hovered = Signal(int, object)  # char position (-1 when none), global QPoint
    clicked = Signal(int)

    def __init__(self, parent=None):
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

    def _char_at(self, pos) -> int:
        """The Python index of the character under a point of the viewport."""
        cursor = self.cursorForPosition(pos)
        rect = self.cursorRect(cursor)
        # cursorForPosition returns the nearest gap; take the character on the pointer's side.
        p = cursor.position()
        if pos.x() < rect.x() and p > 0:
            p -= 1
        return bisect_right(utf16_offsets(self.toPlainText()), p) - 1

    def mouseMoveEvent(self, event):
        self.hovered.emit(self._char_at(event.position().toPoint()), event.globalPosition().toPoint())
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event):
        if event.button() == Qt.MouseButton.LeftButton and not self.textCursor().hasSelection():
            self.clicked.emit(self._char_at(event.position().toPoint()))
        super().mouseReleaseEvent(event)

    def paint_ranges(self, ranges: list[tuple[int, int, QTextCharFormat]]) -> None:
        """Apply formats to ranges given as Python string indices of the pane's text."""
        units = utf16_offsets(self.toPlainText())
        cursor = QTextCursor(self.document())
        cursor.beginEditBlock()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.setCharFormat(QTextCharFormat())
        for start, end, fmt in ranges:
            cursor.setPosition(units[start])
            cursor.setPosition(units[end], QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(fmt)
        cursor.endEditBlock()


class SentencePanes(QWidget):
    """The candidate on the left, every reference on the right, for one sentence."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.details: SentenceDetails | None = None
        self.ref_names: list[str] = []
        self.order = 1
        self.show_tokens = False
        self.selected: NgramOccurrence | None = None
        self._hyp_shown: ShownText | None = None
        self._ref_shown: list[ShownText] = []

        self.candidate = TextPane()
        self.candidate.setObjectName("candidatePane")
        self.candidate.hovered.connect(self.on_candidate_hovered)
        self.candidate.clicked.connect(self.on_candidate_clicked)
        self.candidate_label = QLabel("Candidate")
        self.candidate_label.setObjectName("paneTitle")
        self.ref_box = QVBoxLayout()
        self.ref_box.setContentsMargins(0, 0, 0, 0)
        self.ref_panes: list[TextPane] = []
        self.ref_labels: list[QLabel] = []
        ref_widget = QWidget()
        ref_widget.setLayout(self.ref_box)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(ref_widget)

        from PySide6.QtWidgets import QHBoxLayout
        left = QVBoxLayout()
        left.addWidget(self.candidate_label)
        left.addWidget(self.candidate, 1)
        right = QVBoxLayout()
        right.addWidget(scroll, 1)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addLayout(left, 1)
        row.addLayout(right, 1)

    # -- content -------------------------------------------------------------------------
    def set_reference_names(self, names: list[str]) -> None:
        while self.ref_panes:
            self.ref_box.removeWidget(self.ref_panes[-1])
            self.ref_box.removeWidget(self.ref_labels[-1])
            self.ref_panes.pop().deleteLater()
            self.ref_labels.pop().deleteLater()
        self.ref_names = list(names)
        for name in names:
            label = QLabel(name)
            label.setObjectName("paneTitle")
            pane = TextPane()
            pane.setMinimumHeight(60)
            self.ref_box.addWidget(label)
            self.ref_box.addWidget(pane, 1)
            self.ref_labels.append(label)
            self.ref_panes.append(pane)

    def set_details(self, details: SentenceDetails | None, title: str = "Candidate") -> None:
        self.details = details
        self.selected = None
        self.candidate_label.setText(title)
        self.paint_sentence()

    def set_order(self, order: int) -> None:
        self.order = order
        self.selected = None
        self.paint_sentence()

    def set_show_tokens(self, on: bool) -> None:
        self.show_tokens = on
        self.paint_sentence()

    def paint_sentence(self) -> None:
        d = self.details
        if d is None:
            self.candidate.clear()
            for pane in self.ref_panes:
                pane.clear()
            return
        self._hyp_shown = shown_text(d.hypothesis, d.hyp_tokens, d.hyp_spans, self.show_tokens)
        self.candidate.setPlainText(self._hyp_shown.text)
        all_orders = self.order == ALL_ORDERS
        ranges = []
        for t, (status, order) in enumerate(token_statuses(d, self.order)):
            span = self._hyp_shown.spans[t]
            if span is not None and status is not None:
                ranges.append((span[0], span[1], status_format(status, order, all_orders)))
        self.candidate.paint_ranges(ranges)
        self._ref_shown = []
        for r, pane in enumerate(self.ref_panes):
            if r >= len(d.references):
                pane.clear()
                continue
            if not d.ref_present[r]:
                self._ref_shown.append(ShownText("", []))
                pane.setPlainText("")
                pane.setPlaceholderText("(no reference for this sentence)")
                continue
            shown = shown_text(d.references[r], d.ref_tokens[r], d.ref_spans[r], self.show_tokens)
            self._ref_shown.append(shown)
            pane.setPlainText(shown.text)
            pane.paint_ranges(self._reference_ranges(r, shown))

    def _reference_ranges(self, r: int, shown: ShownText):
        d = self.details
        orders = range(1, d.max_order + 1) if self.order == ALL_ORDERS else [self.order]
        marked = {}
        for n in orders:
            for span in d.ref_matches[r].get(n, []):
                for t in range(span.start, span.end):
                    marked[t] = max(marked.get(t, 0), n)
        ranges = []
        for t, n in marked.items():
            s = shown.spans[t]
            if s is not None:
                fmt = QTextCharFormat()
                fmt.setBackground(colors.order_green(n) if self.order == ALL_ORDERS else colors.MATCHED_BG)
                fmt.setProperty(STATUS_PROPERTY, MATCHED)
                fmt.setProperty(ORDER_PROPERTY, n)
                ranges.append((s[0], s[1], fmt))
        if self.selected is not None:
            gram = self.selected.ngram
            toks = d.ref_tokens[r]
            n = len(gram)
            for i in range(len(toks) - n + 1):
                if tuple(toks[i:i + n]) == gram:
                    first, last = shown.spans[i], shown.spans[i + n - 1]
                    if first is not None and last is not None:
                        fmt = QTextCharFormat()
                        fmt.setBackground(colors.SELECTED_BG)
                        fmt.setFontWeight(QFont.Weight.Bold)
                        fmt.setProperty(STATUS_PROPERTY, "selected")
                        ranges.append((first[0], last[1], fmt))
        return ranges

    # -- interaction --------------------------------------------------------------------
    def occurrence_at(self, char_pos: int) -> NgramOccurrence | None:
        """The candidate n-gram of the current order (unigram for "all orders") under a character."""
        if self.details is None or self._hyp_shown is None or char_pos < 0:
            return None
        token = next((t for t, s in enumerate(self._hyp_shown.spans) if s and s[0] <= char_pos < s[1]), None)
        if token is None:
            return None
        order = 1 if self.order == ALL_ORDERS else self.order
        occs = [o for o in self.details.occurrences.get(order, []) if o.start <= token < o.end]
        if not occs:
            return None
        # Prefer the n-gram that starts closest to the pointer's token.
        return max(occs, key=lambda o: (o.start <= token, o.start))

    def describe(self, occ: NgramOccurrence) -> str:
        holder = (self.ref_names[occ.max_ref] if occ.max_ref is not None and occ.max_ref < len(self.ref_names)
                  else "no reference")
        return (f"<b>{_escape(' '.join(occ.ngram))}</b> ({occ.order}-gram)<br>"
                f"{occ.count}× in the candidate · Max_Ref_Count {occ.max_ref_count}"
                f"{'' if occ.max_ref is None else ' in ' + _escape(holder)}<br>"
                f"this occurrence: <b>{occ.status}</b>")

    def on_candidate_hovered(self, char_pos: int, global_pos) -> None:
        occ = self.occurrence_at(char_pos)
        if occ is None:
            QToolTip.hideText()
        else:
            QToolTip.showText(global_pos, self.describe(occ), self.candidate)

    def on_candidate_clicked(self, char_pos: int) -> None:
        self.selected = self.occurrence_at(char_pos)
        if self.details is not None:
            for r, pane in enumerate(self.ref_panes):
                if r < len(self._ref_shown) and self.details.ref_present[r]:
                    pane.paint_ranges(self._reference_ranges(r, self._ref_shown[r]))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
