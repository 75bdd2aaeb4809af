"""The bars above the tabs that speak up about a shown run: misaligned files, a tokenizer to prefer, settings
that are not the defaults."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from ...core import Run
from ...core.metrics.family import Advice
from ..window_words import in_window_words
from .advice_bar import AdviceBar


class RunBars(QWidget):
    """Signals: ``show_line(int, int)`` (system, 1-based line) for "Show me"; ``use_config(object)`` with a
    metric's settings that follow an advice (one click); ``reset_settings()`` for "Reset to defaults"."""

    show_line = Signal(int, int)
    use_config = Signal(object)
    reset_settings = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.alignment = AdviceBar()
        self.alignment.accepted.connect(self._on_show)
        self.advice = AdviceBar()  # BLEU's tokenizer for the references' script
        self.advice.accepted.connect(lambda _value: self._on_use(self.advice, 0))
        self.more_advice = AdviceBar()  # TER's Asian support for Chinese and Japanese
        self.more_advice.accepted.connect(lambda _value: self._on_use(self.more_advice, 1))
        self.settings = AdviceBar()
        self.settings.accepted.connect(lambda _value: self.reset_settings.emit())
        self._advice: tuple[Advice, ...] = ()
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.alignment)
        box.addWidget(self.advice)
        box.addWidget(self.more_advice)
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
        self._advice = run.advice
        for k, bar in enumerate((self.advice, self.more_advice)):
            if k < len(run.advice):
                said = run.advice[k]
                bar.show_advice(in_window_words(said.text[:1].upper() + said.text[1:]) + ".", str(k), said.action)
            else:
                bar.hide()
        changed = [label for m in run.config.metrics for label in m.non_default()]  # as asked
        if changed:
            self.settings.show_advice(f"Scored with settings that are not the defaults ({settings_origin}): "
                                      f"{', '.join(changed)}.", "", "Reset to defaults")
        else:
            self.settings.hide()

    def _on_show(self, where: str) -> None:
        system, line = (int(x) for x in where.split(":"))
        self.show_line.emit(system, line)

    def _on_use(self, bar: AdviceBar, k: int) -> None:
        bar.hide()
        if k < len(self._advice):
            self.use_config.emit(self._advice[k].config)
