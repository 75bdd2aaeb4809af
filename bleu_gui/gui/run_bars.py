"""The bars above the tabs that speak up about a shown run: misaligned files, a tokenizer to prefer."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from ..core import Run
from .advice_bar import AdviceBar


class RunBars(QWidget):
    """Signals: ``show_line(int, int)`` (system, 1-based line) for "Show me"; ``use_tokenizer(str)``."""

    show_line = Signal(int, int)
    use_tokenizer = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.alignment = AdviceBar()
        self.alignment.accepted.connect(self._on_show)
        self.advice = AdviceBar()
        self.advice.accepted.connect(self._on_use)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.alignment)
        box.addWidget(self.advice)

    def show_for(self, run: Run) -> None:
        if run.misaligned:
            system, where = run.misaligned[0]
            self.alignment.show_advice("⚠ " + where.describe(run.systems[system].name) + ".", f"{system}:{where.line}",
                                       "Show me")
        else:
            self.alignment.hide()
        if run.advice is not None:
            name, why = run.advice
            self.advice.show_advice(why[:1].upper() + why[1:] + ".", name, f"Use {name}")
        else:
            self.advice.hide()

    def _on_show(self, where: str) -> None:
        system, line = (int(x) for x in where.split(":"))
        self.show_line.emit(system, line)

    def _on_use(self, tokenizer: str) -> None:
        self.advice.hide()
        self.use_tokenizer.emit(tokenizer)
