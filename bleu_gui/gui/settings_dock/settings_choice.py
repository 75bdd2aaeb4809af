"""The settings panel's edits, and when scoring settings are remembered.

Settings given on the command line or by a session are that run's only; the saved settings change only when the
user changes them in the window, and only once a run shows what they give (the controller says so). After a
cancelled re-score the old numbers stay and the panel shows their settings again. After a failed one the old
numbers stay too, but the panel keeps what the user chose (a failure never unticks a family or clears a field the
user typed), says above the groups that it is not applied and why, and offers to score again or to show the
numbers' settings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from ...core import InputError, MetricConfig, RunConfig
from ...core.metrics.settings import MetricSettings
from ...core.output.sessions import Session
from ..controller import Controller
from ..shell.run_actions import RunActions
from ..shell.settings import Settings
from ..state import FROM_SESSION
from ..window_words import raw
from .settings_panel import SettingsPanel

COSTLY = {"comet": "COMET with these settings", "llm": "The LLM judge with these settings"}
COSTLY_WORK = {"comet": "the model runs on", "llm": "the endpoint is asked about"}


class SettingsChoice(QObject):
    """Signal: ``refused(str)`` when settings chosen in the panel cannot be scored with."""

    refused = Signal(str)

    def __init__(self, panel: SettingsPanel, settings: Settings, controller: Controller, actions: RunActions,
                 parent: QObject | None = None, comet_ready: Callable[[str, str], bool] | None = None):
        """``comet_ready(python, model)``: whether COMET can score so (it says why not, beside its fields)."""
        super().__init__(parent)
        self.panel, self.controller, self.actions = panel, controller, actions
        self.comet_ready = comet_ready
        # Asked before a change of settings that costs an endpoint's requests or a model's minutes (the main window's
        # question; yes by default): ``ask_costly(what it will do) -> go on``.
        self.ask_costly: Callable[[str], bool] = lambda _said: True
        self._kept: tuple[MetricConfig, ...] | None = None  # the panel's settings a failed re-score leaves in it
        panel.changed.connect(self.on_changed)
        panel.unapplied.again.clicked.connect(lambda: self.on_changed(self.panel.metrics(), ask_again=True))
        panel.unapplied.back.clicked.connect(self._show_the_numbers_settings)
        controller.scoring_changed.connect(self._follow)
        controller.scoring_proven.connect(settings.set_metrics)

    def failed(self, message: str) -> None:
        """A job failed: should it have been scoring the panel's settings (they are not the numbers'), they stay in
        the panel once the controller settles, said not applied with ``message``."""
        if self.controller.state.scoring.pending is not None:
            self._kept = self.panel.metrics()
            self._failure = message

    @Slot()
    def _follow(self) -> None:
        metrics = self.controller.scoring.metrics
        if self._kept is not None:
            kept, self._kept = self._kept, None
            if self.panel.metrics() == kept and kept != metrics:
                self.panel.unapplied.say(self._failure)
                return
        self.panel.unapplied.setVisible(False)
        if self.panel.metrics() != metrics:
            self.panel.set_metrics(metrics)

    def _show_the_numbers_settings(self) -> None:
        self.panel.unapplied.setVisible(False)
        self.panel.set_metrics(self.controller.scoring.metrics)

    def from_session(self, session: Session) -> None:
        self.controller.set_scoring(session.metrics, FROM_SESSION)

    @Slot(object)
    def on_changed(self, metrics: tuple[MetricConfig, ...], ask_again: bool = False) -> None:
        """Score with the settings the panel shows now. Texts the user chose not to send before are not asked about
        at each edit (the panel says they are not applied) unless ``ask_again`` (Score again)."""
        self.panel.unapplied.setVisible(False)
        try:
            metrics = tuple(m.validated() for m in metrics)
        except InputError as exc:
            self.refused.emit(raw(exc))
            self._follow()
            return
        if not self._comet_can_start(metrics):
            return  # the group stays ticked and open, its problem said beside the fields; nothing is scored
        if self.controller.whole is not None and (declined := self.actions.declined(metrics, ask_again)):
            self.panel.unapplied.say(f"{declined[0].upper()}{declined[1:]}.")  # typed settings stay, unsent
            return
        costly = self._costly(metrics)
        if costly and not self.ask_costly(costly):
            self._follow()  # the panel shows the settings of the numbers shown again
            return
        self.controller.choose_scoring(metrics)
        self.actions.rescore(ask_again=False)

    def _costly(self, metrics: tuple[MetricConfig, ...]) -> str:
        """What scoring ``metrics`` will cost, said before it starts, when a neural metric or the LLM judge the run
        shows would score every segment anew ('' when the change costs nothing of the kind)."""
        run = self.controller.whole.run if self.controller.whole is not None else None
        if run is None:
            return ""
        before = {m.key: m for m in self.controller.scoring.metrics}
        shown = {m.key for m in run.metrics}
        segments = run.n_sentences * len(run.systems)
        for m in metrics:
            old = before.get(m.key)
            if (m.key in COSTLY and m.key in shown and isinstance(m, MetricSettings) and isinstance(old, MetricSettings)
                    and m.changes_numbers(old)):
                changed = [label for label in m.non_default() if label not in old.non_default()] or ["its settings"]
                return (f"{COSTLY[m.key]} ({', '.join(changed)}) scores the run again: {COSTLY_WORK[m.key]} up to "
                        f"{segments:,} segments that its cache does not hold. Score again now?")
        return ""

    def _comet_can_start(self, metrics: tuple[MetricConfig, ...]) -> bool:
        """COMET's set-up is checked before a worker is asked to start: when it joins, or its Python or model
        change."""
        comet: Any = next((m for m in metrics if m.key == "comet"), None)  # its worker's settings
        before: Any = next((m for m in self.controller.scoring.metrics if m.key == "comet"), None)
        if comet is None or self.comet_ready is None or (
                before is not None and (before.python, before.model) == (comet.python, comet.model)):
            return True
        return self.comet_ready(comet.python, comet.model)

    @Slot()
    def reset(self) -> None:
        """Score again with the defaults of the same metrics."""
        self.on_changed(tuple(type(m)() for m in self.controller.scoring.metrics))

    @Slot(object)
    def use_config(self, config: MetricConfig) -> None:
        """Score again with ``config`` in place of its metric's settings (an advice followed in one click)."""
        self.on_changed(RunConfig(self.controller.scoring.metrics).with_metric(config).metrics)
