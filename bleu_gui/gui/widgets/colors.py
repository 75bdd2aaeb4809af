"""The colours of match statuses, shared by the panes, the legend, the charts and exports."""

from __future__ import annotations

from PySide6.QtGui import QColor

from ...core import palette

MATCHED_BG = QColor(palette.MATCHED)
CLIPPED_BG = QColor(palette.CLIPPED)
CLIPPED_LINE = QColor(palette.CLIPPED_LINE)
UNMATCHED_BG = QColor(palette.UNMATCHED)
SELECTED_BG = QColor(palette.SELECTED)
SENTENCE_BAR = QColor(palette.SENTENCE)
CORPUS_BAR = QColor(palette.CORPUS)
ONLY_HERE = QColor(palette.ONLY_HERE)
REF_ONLY_A = QColor(palette.REF_ONLY_A)

