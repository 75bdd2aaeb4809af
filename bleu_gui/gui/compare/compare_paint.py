"""Painting the Compare tab's panes: candidates by match status, references by which system matched them."""

from __future__ import annotations

from PySide6.QtGui import QFont, QTextCharFormat

from ...core.metrics.bleu.details import ALL_ORDERS, MATCHED, SentenceDetails, token_statuses
from ..widgets import colors
from ..widgets.panes import STATUS_PROPERTY, shown_text, status_format
from ..widgets.text_pane import TextPane

ONLY_PROPERTY = STATUS_PROPERTY + 10
ONLY_HERE = colors.ONLY_HERE
REF_BOTH, REF_ONLY_A, REF_ONLY_B = colors.MATCHED_BG, colors.REF_ONLY_A, colors.SELECTED_BG


def matched_ngrams(details: SentenceDetails, order: int) -> set[tuple[str, ...]]:
    orders = range(1, details.max_order + 1) if order == ALL_ORDERS else [order]
    return {o.ngram for n in orders for o in details.occurrences.get(n, []) if o.status == MATCHED}


def only_tokens(details: SentenceDetails, other: set[tuple[str, ...]], order: int) -> set[int]:
    """Candidate tokens inside an n-gram this system matched and the other system did not."""
    orders = range(1, details.max_order + 1) if order == ALL_ORDERS else [order]
    out: set[int] = set()
    for n in orders:
        for o in details.occurrences.get(n, []):
            if o.status == MATCHED and o.ngram not in other:
                out.update(range(o.start, o.end))
    return out


def paint_candidate(pane: TextPane, d: SentenceDetails, order: int, only: set[int]) -> None:
    """A system's sentence, coloured by match status; tokens only this system matched stand out."""
    shown = shown_text(d.hypothesis, d.hyp_tokens, d.hyp_spans, False)
    pane.setPlainText(shown.text)
    ranges = []
    all_orders = order == ALL_ORDERS
    for t, (status, token_order) in enumerate(token_statuses(d, order)):
        span = shown.spans[t]
        if span is None or status is None:
            continue
        fmt = status_format(status, token_order, all_orders)
        if t in only:
            fmt.setForeground(ONLY_HERE)
            fmt.setFontWeight(QFont.Weight.Bold)
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
            fmt.setUnderlineColor(ONLY_HERE)
            fmt.setProperty(ONLY_PROPERTY, True)
        ranges.append((span[0], span[1], fmt))
    pane.paint_ranges(ranges)

def paint_reference(pane: TextPane, r: int, da: SentenceDetails, db: SentenceDetails, order: int) -> None:
    """Reference ``r`` coloured by who matched each word: both systems, only A, only B."""
    if not da.ref_present[r]:
        pane.setPlainText("")
        pane.setPlaceholderText("(no reference for this sentence)")
        return
    shown = shown_text(da.references[r], da.ref_tokens[r], da.ref_spans[r], False)
    pane.setPlainText(shown.text)
    orders = range(1, da.max_order + 1) if order == ALL_ORDERS else [order]
    by_a: set[int] = set()
    by_b: set[int] = set()
    for n in orders:
        for span in da.ref_matches[r].get(n, []):
            by_a.update(range(span.start, span.end))
        for span in db.ref_matches[r].get(n, []):
            by_b.update(range(span.start, span.end))
    ranges = []
    for t in by_a | by_b:
        s = shown.spans[t]
        if s is None:
            continue
        fmt = QTextCharFormat()
        who = "both" if t in by_a and t in by_b else ("A" if t in by_a else "B")
        fmt.setBackground({"both": REF_BOTH, "A": REF_ONLY_A, "B": REF_ONLY_B}[who])
        fmt.setProperty(STATUS_PROPERTY, f"matched-{who}")
        ranges.append((s[0], s[1], fmt))
    pane.paint_ranges(ranges)
