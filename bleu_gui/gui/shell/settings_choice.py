"""The settings panel's edits, and when scoring settings are remembered.

Settings given on the command line or by a session are that run's only; the saved settings change only when the
user changes them in the window, and only once a run shows what they give (the controller says so). After a
cancelled or failed re-score the old numbers stay, and so do the settings the panel shows: the panel always shows
the controller's settings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from ...core import InputError, MetricConfig, RunConfig
from ...core.output.sessions import Session
from ..controller import Controller
from ..state import FROM_SESSION
from ..window_words import raw
from .run_actions import RunActions
from .settings import Settings
from .settings_panel import SettingsPanel


class SettingsChoice(QObject):
    """Signal: ``refused(str)`` when settings chosen in the panel cannot be scored with."""

    refused = Signal(str)

    def __init__(self, panel: SettingsPanel, settings: Settings, controller: Controller, actions: RunActions,
                 parent: QObject | None = None, comet_ready: Callable[[str, str], bool] | None = None):
        """``comet_ready(python, model)``: whether COMET can score so (it says why not, beside its fields)."""
        super().__init__(parent)
        self.panel, self.controller, self.actions = panel, controller, actions
        self.comet_ready = comet_ready
        panel.changed.connect(self.on_changed)
        controller.scoring_changed.connect(self._follow)
        controller.scoring_proven.connect(settings.set_metrics)

    @Slot()
    def _follow(self) -> None:
        metrics = self.controller.scoring.metrics
        if self.panel.metrics() != metrics:
            self.panel.set_metrics(metrics)

    def from_session(self, session: Session) -> None:
        self.controller.set_scoring(session.metrics, FROM_SESSION)

    @Slot(object)
    def on_changed(self, metrics: tuple[MetricConfig, ...]) -> None:
        try:
            metrics = tuple(m.validated() for m in metrics)
        except InputError as exc:
            self.refused.emit(raw(exc))
            self._follow()
            return
        if not self._comet_can_start(metrics):
            return  # the group stays ticked and open, its problem said beside the fields; nothing is scored
        self.controller.choose_scoring(metrics)
        self.actions.rescore()

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
