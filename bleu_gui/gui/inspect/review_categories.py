"""The list the reviewer picks a category from (MQM's core typology by default: core.output.review_file)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox


class CategoryBox(QComboBox):
    """The category list; ``popup_closed()`` once its popup is closed (a category chosen from it, or none)."""

    popup_closed = Signal()

    def hidePopup(self) -> None:  # noqa: N802 (Qt's name)
        super().hidePopup()
        self.popup_closed.emit()
