"""The colours of match statuses, shared by the panes, the legend, the charts and exports."""

from __future__ import annotations

from PySide6.QtGui import QColor

MATCHED_BG = QColor("#b7e4c7")
CLIPPED_BG = QColor("#ffd8a8")
CLIPPED_LINE = QColor("#e8590c")
UNMATCHED_BG = QColor("#ffc9c9")
REF_MATCHED_BG = QColor("#b7e4c7")
SELECTED_BG = QColor("#a5d8ff")
# "All orders": darker green for longer matched n-grams.
ORDER_GREENS = ["#d3f9d8", "#b2f2bb", "#8ce99a", "#69db7c", "#51cf66", "#40c057", "#37b24d", "#2f9e44", "#2b8a3e"]
SENTENCE_BAR = QColor("#339af0")
CORPUS_BAR = QColor("#adb5bd")


def order_green(order: int) -> QColor:
    return QColor(ORDER_GREENS[min(max(order, 1), len(ORDER_GREENS)) - 1])
