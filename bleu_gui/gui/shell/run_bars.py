"""The bars above the tabs that speak up about a shown run: misaligned files, a tokenizer to prefer, settings
that are not the defaults."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from ...core import Run
from ...core.analysis.advice import non_default_settings
from ..window_terms import in_window_terms
from .advice_bar import AdviceBar


class RunBars(QWidget):
    """Signals: ``show_line(int, int)`` (system, 1-based line) for "Show me"; ``use_tokenizer(str)``;
    ``reset_settings()`` for "Reset to defaults"."""

    show_line = Signal(int, int)
    use_tokenizer = Signal(str)
    reset_settings = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.alignment = AdviceBar()
        self.alignment.accepted.connect(self._on_show)
        self.advice = AdviceBar()
        self.advice.accepted.connect(self._on_use)
        self.settings = AdviceBar()
        self.settings.accepted.connect(lambda _value: self.reset_settings.emit())
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.alignment)
        box.addWidget(self.advice)
        box.addWidget(self.settings)

    def show_for(self, run: Run, settings_origin: str) -> None:
        """Speak up about ``run``; ``settings_origin`` says where its settings came from ("from the command
        line", "remembered from an earlier session", ...)."""
        if run.misaligned:
            system, where = run.misaligned[0]
            self.alignment.show_advice("⚠ " + where.describe(run.systems[system].name) + ".", f"{system}:{where.line}",
                                       "Show me")
        else:
            self.alignment.hide()
        if run.advice is not None:
            name, why = run.advice
            self.advice.show_advice(in_window_terms(why[:1].upper() + why[1:]) + ".", name, f"Use {name}")
        else:
            self.advice.hide()
        changed = non_default_settings(run.config.bleu) if run.config.bleu is not None else []  # as asked
        if changed:
            self.settings.show_advice(f"Scored with settings that are not the defaults ({settings_origin}): "
                                      f"{', '.join(changed)}.", "", "Reset to defaults")
        else:
            self.settings.hide()

    def _on_show(self, where: str) -> None:
        system, line = (int(x) for x in where.split(":"))
        self.show_line.emit(system, line)

    def _on_use(self, tokenizer: str) -> None:
        self.advice.hide()
        self.use_tokenizer.emit(tokenizer)
