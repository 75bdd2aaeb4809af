"""A non-modal bar above the tabs: advice that would change the number, with a button to follow it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from ...core import palette


class AdviceBar(QFrame):
    """Signals: ``accepted(str)`` with the suggested value when the user follows the advice."""

    accepted = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("adviceBar")
        self.setStyleSheet(f"QFrame#adviceBar {{ background: {palette.ADVICE}; border-bottom: 1px solid "
                           f"{palette.RULE}; }}")
        self.value = ""
        self.label = QLabel("")
        self.label.setWordWrap(True)
        self.button = QPushButton("")
        self.button.clicked.connect(lambda: self.accepted.emit(self.value))
        close = QToolButton()
        close.setText("✕")
        close.setToolTip("Hide this advice")
        close.clicked.connect(self.hide)
        self.row = row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 8, 4)
        row.addWidget(self.label, 1)
        row.addWidget(self.button)
        row.addWidget(close)
        self.hide()

    def show_advice(self, text: str, value: str, button_text: str) -> None:
        self.value = value
        self.label.setText(text)
        self.button.setText(button_text)
        self.show()

    def one_line_height(self) -> int:
        """The bar's height when its text takes one line: its button's, its margins and its rule."""
        margins = self.contentsMargins() + self.row.contentsMargins()
        return max(self.button.sizeHint().height(), self.label.fontMetrics().lineSpacing()) + margins.top() \
            + margins.bottom() + 1
