"""The colours of match statuses, shared by the panes, the legend, the charts and exports."""

from __future__ import annotations

from PySide6.QtGui import QColor

from ..core import palette

MATCHED_BG = QColor(palette.MATCHED)
CLIPPED_BG = QColor(palette.CLIPPED)
CLIPPED_LINE = QColor(palette.CLIPPED_LINE)
UNMATCHED_BG = QColor(palette.UNMATCHED)
REF_MATCHED_BG = QColor(palette.MATCHED)
SELECTED_BG = QColor(palette.SELECTED)
# "All orders": darker green for longer matched n-grams.
ORDER_GREENS = ["#d3f9d8", "#b2f2bb", "#8ce99a", "#69db7c", "#51cf66", "#40c057", "#37b24d", "#2f9e44", "#2b8a3e"]
SENTENCE_BAR = QColor(palette.SENTENCE)
CORPUS_BAR = QColor(palette.CORPUS)


def order_green(order: int) -> QColor:
    return QColor(ORDER_GREENS[min(max(order, 1), len(ORDER_GREENS)) - 1])
