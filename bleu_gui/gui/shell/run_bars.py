"""The bars above the tabs that speak up about a shown run: misaligned files, settings that are not the defaults,
a tokenizer to prefer."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from ...core import MetricConfig, Run
from ...core.metrics.family import Advice
from ...core.metrics.registry import family_of
from ..window_words import in_window_words
from .advice_bar import AdviceBar


class RunBars(QWidget):
    """Signals: ``show_line(int, int)`` (system, 1-based line) for "Show me"; ``use_config(object)`` with a
    metric's settings that follow an advice (one click); ``reset_settings()`` for "Reset to defaults"."""

    show_line = Signal(int, int)
    use_config = Signal(object)
    reset_settings = Signal()
    offer_taken = Signal()

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
        self.offered = AdviceBar()  # a costly metric remembered from an earlier session, not started unasked
        self.offered.accepted.connect(self._on_offer_taken)
        self.ratings = AdviceBar()  # the humans' ratings the run read changed on disk (campaign_actions)
        self._advice: tuple[Advice, ...] = ()
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        for bar in self.each():
            box.addWidget(bar)

    def each(self) -> tuple[AdviceBar, ...]:
        """The bars, top to bottom: first those that say the numbers may not be what they seem (a file a line off,
        settings carried over), then the advice, which scrolls when more than two bars show."""
        return self.alignment, self.settings, self.ratings, self.offered, self.advice, self.more_advice

    def offer(self, configs: Sequence[MetricConfig], segments: int) -> None:
        """Offer ``configs``' metrics (COMET, the LLM judge), remembered from an earlier session: they are scored
        only when asked."""
        named = [f"{family_of(c).title} ({getattr(c, 'model', '') or 'the endpoint’s model'})" for c in configs]
        which = " and ".join(named)
        self.offered.show_advice(f"{which} {'was' if len(named) == 1 else 'were'} on when bleu-gui last closed: not "
                                 f"started for these {segments:,} segments (a model can take minutes).", "",
                                 "Score " + " and ".join(family_of(c).title for c in configs))

    def _on_offer_taken(self, _value: str) -> None:
        self.offered.hide()
        self.offer_taken.emit()

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


class BarsArea(QScrollArea):
    """The bars, at most two in view and never taller than 7/3 bars of one line (two bars of two lines fit):
    more bars, or longer ones, scroll. Four bars (a misaligned file, BLEU's and TER's advice for Chinese,
    settings carried over) took 150 px of a laptop's 768 and left the sentence list three rows; the first two of
    them alone, 86 px, are more than a laptop's screen below a panel has to spare."""

    IN_VIEW = 2

    def __init__(self, bars: RunBars) -> None:
        super().__init__()
        self.bars = bars
        self.cap = 7 * bars.settings.one_line_height() // 3
        self.setWidget(bars)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the bars' buttons take the focus, not the area
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.bars and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()  # a bar shown or hidden: the area's height follows
        return super().eventFilter(watched, event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()  # the bars' text wraps to another number of lines

    def sizeHint(self) -> QSize:
        width = self.viewport().width()
        shown = [bar for bar in self.bars.each() if not bar.isHidden()][:self.IN_VIEW]
        height = sum(bar.heightForWidth(width) if bar.hasHeightForWidth() else bar.sizeHint().height()
                     for bar in shown)
        return QSize(super().sizeHint().width(), min(height, self.cap))

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()
