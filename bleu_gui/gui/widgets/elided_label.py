"""A one-line label that never cuts its text mid-word without saying so: at its width the text ends in "…" and
the whole of it is the tooltip (a laptop's 1366 px cut "(edite" and "1 senten" off labels that took the rest of
their row)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent, QTextDocument
from PySide6.QtGui import Qt as GuiQt  # Qt's GUI namespace holds mightBeRichText
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class ElidedLabel(QLabel):
    """See the module. Rich text is shown as it is while it fits, else as its plain text, elided. :meth:`text` is
    the whole text, as set."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._whole = ""
        # It takes the room its row leaves it, and never asks for more (a long text must not widen the window).
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        self._whole = text
        self._fit()

    def text(self) -> str:
        return self._whole

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        rich = GuiQt.mightBeRichText(self._whole)
        plain = self._plain() if rich else self._whole
        width = self.contentsRect().width()
        metrics = self.fontMetrics()
        if width <= 0 or metrics.horizontalAdvance(plain) <= width:
            super().setText(self._whole)
            self.setToolTip("")
            return
        super().setText(metrics.elidedText(plain, Qt.TextElideMode.ElideRight, width))
        self.setToolTip(plain)

    def _plain(self) -> str:
        document = QTextDocument()
        document.setHtml(self._whole)
        return document.toPlainText()
