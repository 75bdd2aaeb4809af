"""Why this score: the selected sentence's account beside the panes, and Help ▸ How BLEU is computed."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTextBrowser, QVBoxLayout, QWidget

from ...core import palette
from ...core.metrics.account import Explanation
from ..widgets import colors
from ..widgets.layout import legend, resize_within_screen
from ..widgets.style import styled

FORMULAS = """
<h3>How BLEU is computed</h3>
<p><b>Modified precision.</b> For each order n (1..N), every n-gram of the candidate counts at most as often as
it occurs in the single reference where it occurs most:
<br><code>Count_clip = min(Count, Max_Ref_Count)</code>,
<br><code>p_n = Σ Count_clip / Σ Count</code> (n-grams of the candidate).
Occurrences beyond Max_Ref_Count are <i>clipped</i>. Which occurrences the panes mark as clipped is a choice: an
occurrence inside a longer matched n-gram stays matched, the longer the better; among equals the leftmost.</p>
<p><b>Brevity penalty.</b> With c the candidate length and r the effective reference length (the reference
length closest to c, ties to the shorter): <code>BP = 1</code> if c &gt; r, else <code>exp(1 − r/c)</code>.
d2l uses <code>exp(min(0, 1 − r/c))</code>.</p>
<p><b>Score.</b> <code>BLEU = BP · exp(Σ w_n log p_n)</code>: sacreBLEU and NLTK weigh the orders equally
(w_n = 1/N), d2l by 1/2^n. A zero precision makes the score 0 unless smoothing replaces it.</p>
<p><b>Corpus BLEU</b> sums the counts of every sentence first, then applies the formula once: it is
<i>not</i> the mean of sentence scores (d2l, which has no corpus BLEU, is the exception: its corpus figure is
the mean).</p>
<p><b>Sentence BLEU</b> in sacreBLEU uses effective order (orders the candidate has no n-grams of are left out)
and exp smoothing (the k-th order with no match counts as 1/(2^k · n-grams)).</p>
"""


class ExplainPanel(QWidget):
    """The account of the sentence on screen, recomputed whenever it changes (also while it is edited)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("Why this score")
        styled(self.title, "paneTitle")
        self.view = QTextBrowser()
        self.view.setObjectName("explanation")
        self.view.setOpenLinks(False)
        self.view.setToolTip("Every number here is the one the scorer used for this sentence")
        self.explanation: Explanation | None = None
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.title)
        box.addWidget(self.view, 1)

    def set_explanation(self, explanation: Explanation | None, title: str = "Why this score") -> None:
        self.explanation = explanation
        self.title.setText(title)
        self.view.setHtml(explanation.html() if explanation is not None else "")


def bars_legend() -> QWidget:
    """The legend of the "all orders" view: bar colours, and which bar is which order."""
    widget = QWidget()
    bar = "border-radius:0px; padding:0px 6px; color:white"
    widget.setLayout(legend([
        ("one bar per order, 1-gram on top:", f"color:{palette.TEXT}"),
        ("matched", f"background:{palette.BAR_MATCHED}; {bar}"),
        ("clipped", f"background:{palette.BAR_CLIPPED}; {bar}"),
        ("unmatched", f"background:{palette.BAR_UNMATCHED}; {bar}"),
        ("no n-gram", f"background:{palette.BAR_NONE}; color:{palette.TEXT}"),
    ], tips={"one bar per order, 1-gram on top:":
             "Each token has one bar per n-gram order: the status of the n-grams of that order that cover it",
             "no n-gram": "No n-gram of this order covers the token (it is too near the sentence's "
                                        "edge, or the reference has none there)"}))
    return widget


def status_legend() -> QWidget:
    """The legend of one order: token backgrounds."""
    widget = QWidget()
    widget.setLayout(legend([
        ("matched", f"background:{colors.MATCHED_BG.name()}"),
        ("clipped", f"background:{colors.CLIPPED_BG.name()}; border-bottom: 2px dotted {colors.CLIPPED_LINE.name()}"),
        ("unmatched", f"background:{colors.UNMATCHED_BG.name()}"),
        ("selected n-gram in refs", f"background:{colors.SELECTED_BG.name()}")]))
    return widget


def show_help(parent: QWidget, explanation: Explanation | None, where: str) -> QDialog:
    """Help ▸ How BLEU is computed: the formulas, then the selected sentence's numbers walked through."""
    dialog = QDialog(parent)
    dialog.setObjectName("howBleuDialog")
    dialog.setWindowTitle("How BLEU is computed")
    browser = QTextBrowser()
    sentence = (f"<h3>{where}</h3>{explanation.html()}" if explanation is not None
                else "<p><i>Open files and select a sentence to see its numbers here.</i></p>")
    browser.setHtml(FORMULAS + sentence)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.close)
    box = QVBoxLayout(dialog)
    box.addWidget(browser, 1)
    box.addWidget(buttons)
    resize_within_screen(dialog, 760, 680)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
