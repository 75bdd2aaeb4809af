"""The review's categories: MQM's core typology shipped with the package, and the list the reviewer picks from."""

from __future__ import annotations

from importlib.resources import files

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox

from ...core.output.review_file import read_typology


def default_typology() -> tuple[str, ...]:
    """MQM's core typology, shipped with the package."""
    return read_typology((files("bleu_gui") / "typologies" / "mqm-core.txt").read_text(encoding="utf-8"),
                         "mqm-core.txt")


class CategoryBox(QComboBox):
    """The category list; ``popup_closed()`` once its popup is closed (a category chosen from it, or none)."""

    popup_closed = Signal()

    def hidePopup(self) -> None:  # noqa: N802 (Qt's name)
        super().hidePopup()
        self.popup_closed.emit()
