"""The review desk's controls over the panes (hidden until a review starts): the severities, the category and a
comment on one row; the ESA score, Reviewed ▸ next, Suggestions… and Marot TSV… and who reviews where on the
next. What they do is the desk's (review.ReviewBar); this module only builds and lays them out."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit, QPushButton, QSlider, QSpinBox, QVBoxLayout, QWidget

from ..widgets.elided_label import ElidedLabel
from ..widgets.layout import hrow
from ..widgets.style import styled
from .review_categories import CategoryBox

UNSCORED = -1  # the ESA score box's value for a segment not scored yet (shown as "unscored")
KEYS = {"1": "Minor", "2": "Major", "3": "Critical"}


class ReviewControls(QWidget):
    """The desk's two rows of controls (see the module)."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("reviewBar")
        self.title = styled(ElidedLabel(""), "hint")  # who, where, and how far (cut, never widening the window)
        self.severity_buttons = {}
        for key, severity in KEYS.items():
            button = QPushButton(f"{key} {severity}")
            button.setToolTip(f"Mark the selected span as a {severity} error of the category beside (key {key})")
            self.severity_buttons[severity] = button
        self.category = CategoryBox()
        self.category.setObjectName("reviewCategory")
        self.category.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.category.setMinimumContentsLength(16)
        self.category.setToolTip("The error's category (C focuses this list; the typology: MQM's core by default)")
        self.comment = QLineEdit()
        self.comment.setPlaceholderText("comment (optional)")
        self.score = QSlider(Qt.Orientation.Horizontal)
        self.score.setRange(UNSCORED, 100)
        self.score_box = QSpinBox()
        self.score_box.setRange(UNSCORED, 100)
        self.score_box.setSpecialValueText("unscored")  # a segment starts so: never the last segment's score
        self.score_box.setToolTip("The segment's ESA score, 0–100 (+ and − move it by 5; Enter hands the focus back)")
        self.score.valueChanged.connect(self.score_box.setValue)
        self.score_box.valueChanged.connect(self.score.setValue)
        self.done_button = QPushButton("0 Reviewed ▸ next")
        self.done_button.setToolTip("This segment is reviewed (no error, or the errors marked; in ESA with the score "
                                    "set); then the next unreviewed one (0 or Enter)")
        self.suggest_button = QPushButton("Suggestions…")
        self.suggest_button.setToolTip("Spans of another file (another rater, xCOMET, an LLM judge) shown dashed: A "
                                       "accepts, E accepts as selected, R rejects")
        self.marot_button = QPushButton("Marot TSV…")
        self.marot_button.setToolTip("The review as Marot's TSV (an error per row, its span marked <v>…</v>), for "
                                     "Marot, Anthea or a spreadsheet")
        marking = hrow(*self.severity_buttons.values(), self.category, self.comment)
        marking.setStretchFactor(self.comment, 1)
        judging = hrow(self.score, self.score_box, self.done_button, self.suggest_button, self.marot_button,
                       self.title)
        judging.setStretchFactor(self.title, 1)
        # The suggestion A, E and R act on, said in words: one for the whole segment has no span to draw.
        self.suggestion = styled(ElidedLabel(""), "hint")
        self.suggestion.setVisible(False)
        rows = QVBoxLayout(self)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setSpacing(2)
        rows.addLayout(marking)
        rows.addLayout(judging)
        rows.addWidget(self.suggestion)
        self.setVisible(False)
