"""Side-by-side panes: the candidate and every reference, coloured by n-gram match status.

One sentence pair at a time. For one order, tokens are coloured matched /
clipped / unmatched; for "all orders" every token gets a stack of bars, one per
order, and no background. Thin edges separate tokens that touch (CJK, or
punctuation split off by 13a). The candidate can be edited in place (what-if).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPoint, Signal
from PySide6.QtGui import QFont, QTextCharFormat
from PySide6.QtWidgets import QHBoxLayout, QToolTip, QVBoxLayout, QWidget

from ...core.metrics.bleu.details import ALL_ORDERS, CLIPPED, MATCHED, UNMATCHED, NgramOccurrence, SentenceDetails, token_statuses
from . import colors
from .elided_label import ElidedLabel
from .reference_stack import ReferenceStack
from .style import styled
from .text_pane import ORDER_PROPERTY, STATUS_PROPERTY, TextPane, TokenBars, utf16_offsets

__all__ = ["STATUS_PROPERTY", "ORDER_PROPERTY", "SentencePanes", "utf16_offsets"]

@dataclass(frozen=True)
class ShownText:
    """The text a pane shows and where each token sits in it."""

    text: str
    spans: list[tuple[int, int] | None]


def shown_text(original: str, tokens: list[str], spans: list[tuple[int, int] | None], show_tokens: bool) -> ShownText:
    """Original text with the core's character spans, or the tokens joined by spaces."""
    if not show_tokens and all(s is not None for s in spans):
        return ShownText(original, list(spans))
    out: list[tuple[int, int] | None] = []
    pos = 0
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
    if all_orders:
        return fmt  # the bars under the token say it, order by order
    if status == MATCHED:
        fmt.setBackground(colors.MATCHED_BG)
    elif status == CLIPPED:
        fmt.setBackground(colors.CLIPPED_BG)
        # An underline as well, so that clipping reads without colour vision.
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        fmt.setUnderlineColor(colors.CLIPPED_LINE)
    elif status == UNMATCHED:
        fmt.setBackground(colors.UNMATCHED_BG)
    return fmt


EDITING = " · editing (the file is not changed)"


def token_edges(spans: list[tuple[int, int] | None]) -> list[int]:
    """Characters where one token ends and the next begins with nothing between them."""
    return [a[1] for a, b in zip(spans, spans[1:]) if a is not None and b is not None and a[1] == b[0]]


def candidate_bars(d: SentenceDetails, spans: list[tuple[int, int] | None]) -> list[TokenBars]:
    """Per candidate token, its status at every order (None where no n-gram of that order covers it)."""
    per_order = [token_statuses(d, n) for n in range(1, d.max_order + 1)]
    return [TokenBars(span[0], span[1], [statuses[t][0] for statuses in per_order])
            for t, span in enumerate(spans) if span is not None]


def reference_bars(d: SentenceDetails, r: int, spans: list[tuple[int, int] | None]) -> list[TokenBars]:
    """Per reference token, "matched" at every order where a matched n-gram of the candidate covers it."""
    covered: list[set[int]] = [set() for _ in range(d.max_order)]
    for n in range(1, d.max_order + 1):
        for span in d.ref_matches[r].get(n, []):
            covered[n - 1].update(range(span.start, span.end))
    return [TokenBars(span[0], span[1], [MATCHED if t in covered[n] else None for n in range(d.max_order)])
            for t, span in enumerate(spans) if span is not None]


class SentencePanes(QWidget):
    """The candidate on the left, every reference on the right, for one sentence.

    Signal: ``candidate_edited(text)`` while the candidate is edited in place.
    """

    candidate_edited = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.details: SentenceDetails | None = None
        self.order = 1
        self.show_tokens = False
        self.selected: NgramOccurrence | None = None
        self._hyp_shown: ShownText | None = None
        self._ref_shown: list[ShownText] = []

        self.candidate = TextPane()
        self.candidate.setObjectName("candidatePane")
        self.candidate.hovered.connect(self.on_candidate_hovered)
        self.candidate.clicked.connect(self.on_candidate_clicked)
        self.candidate.edited.connect(self.candidate_edited)
        self.candidate_label = ElidedLabel("Candidate")
        styled(self.candidate_label, "paneTitle")
        self.references = ReferenceStack()

        left = QVBoxLayout()
        left.addWidget(self.candidate_label)
        left.addWidget(self.candidate, 1)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addLayout(left, 1)
        row.addWidget(self.references, 1)  # hidden without references: the candidate takes the whole width

    # -- content -------------------------------------------------------------------------
    def set_reference_names(self, names: list[str]) -> None:
        """One pane per reference (see :class:`ReferenceStack`); the same names keep their panes; none in a run
        without references (no empty pane)."""
        self.references.set_names(names)
        self.references.setVisible(bool(names))

    def set_plain(self, text: str, title: str) -> None:
        """The candidate's own text, without BLEU's colours: a run without references has no BLEU (the review desk
        marks this text)."""
        self.details = None
        self.selected = None
        self.candidate_label.setText(title + (EDITING if self.candidate.editing else ""))
        if self.candidate.toPlainText() != text:
            self.candidate.setPlainText(text)
        self.candidate.paint_ranges([])
        self.candidate.set_marks([], [])

    @property
    def ref_names(self) -> list[str]:
        return self.references.names

    @property
    def ref_panes(self) -> list[TextPane]:
        return self.references.panes

    def set_details(self, details: SentenceDetails | None, title: str = "Candidate") -> None:
        self.details = details
        self.selected = None
        self.candidate_label.setText(title + (EDITING if self.candidate.editing else ""))
        self.paint_sentence()

    def set_order(self, order: int) -> None:
        self.order = order
        self.selected = None
        self.paint_sentence()

    def set_show_tokens(self, on: bool) -> None:
        self.show_tokens = on
        self.paint_sentence()

    @property
    def editing(self) -> bool:
        return self.candidate.editing

    def set_editing(self, on: bool) -> None:
        """Edit the candidate in place (its own text, not the tokens) or stop editing."""
        if on != self.candidate.editing:
            self.candidate.set_editing(on)
            title = self.candidate_label.text().removesuffix(EDITING)
            self.candidate_label.setText(title + (EDITING if on else ""))
            self.paint_sentence()

    def paint_sentence(self) -> None:
        d = self.details
        if d is None:
            self.candidate.clear()
            for pane in self.ref_panes:
                pane.clear()
            return
        all_orders = self.order == ALL_ORDERS
        if self.candidate.editing:
            # The pane holds what the user typed; the core's spans index that same text.
            self._hyp_shown = ShownText(d.hypothesis, list(d.hyp_spans))
            if self.candidate.toPlainText() != d.hypothesis:  # another sentence: not the user's typing
                self.candidate.blockSignals(True)
                self.candidate.setPlainText(d.hypothesis)
                self.candidate.blockSignals(False)
        else:
            self._hyp_shown = shown_text(d.hypothesis, d.hyp_tokens, d.hyp_spans, self.show_tokens)
            self.candidate.setPlainText(self._hyp_shown.text)
        ranges = []
        for t, (status, order) in enumerate(token_statuses(d, self.order)):
            span = self._hyp_shown.spans[t]
            if span is not None and status is not None:
                ranges.append((span[0], span[1], status_format(status, order, all_orders)))
        self.candidate.paint_ranges(ranges)
        self.candidate.set_marks(candidate_bars(d, self._hyp_shown.spans) if all_orders else [],
                                 token_edges(self._hyp_shown.spans))
        self._ref_shown = []
        for r, pane in enumerate(self.ref_panes):
            if r >= len(d.references):
                pane.clear()
                pane.set_marks([], [])
                continue
            if not d.ref_present[r]:
                self._ref_shown.append(ShownText("", []))
                pane.setPlainText("")
                pane.setPlaceholderText("(no reference for this sentence)")
                pane.set_marks([], [])
                continue
            shown = shown_text(d.references[r], d.ref_tokens[r], d.ref_spans[r], self.show_tokens)
            self._ref_shown.append(shown)
            if pane.toPlainText() != shown.text:  # while the candidate is typed, the references stay
                pane.setPlainText(shown.text)
            pane.paint_ranges(self._reference_ranges(r, shown))
            pane.set_marks(reference_bars(d, r, shown.spans) if all_orders else [], token_edges(shown.spans))

    def _reference_ranges(self, r: int, shown: ShownText) -> list[tuple[int, int, QTextCharFormat]]:
        d = self.details
        assert d is not None  # painted only with a sentence shown
        orders = range(1, d.max_order + 1) if self.order == ALL_ORDERS else [self.order]
        marked: dict[int, int] = {}
        for n in orders:
            for span in d.ref_matches[r].get(n, []):
                for t in range(span.start, span.end):
                    marked[t] = max(marked.get(t, 0), n)
        ranges = []
        for t, n in marked.items():
            s = shown.spans[t]
            if s is not None:
                fmt = QTextCharFormat()
                if self.order != ALL_ORDERS:
                    fmt.setBackground(colors.MATCHED_BG)
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

    def on_candidate_hovered(self, char_pos: int, global_pos: QPoint) -> None:
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
