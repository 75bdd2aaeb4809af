"""Which settings the window scores with, where they came from, and when they are remembered.

Settings given on the command line or by a session are that run's only; the
saved settings change only when the user changes them in the window, and only
once a run shows what they give. After a cancelled or failed re-score the old
numbers stay, and so must the settings the panel shows.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot

from ...core import MetricConfig, Run, RunConfig
from ...core.metrics.imported.imported import ImportedConfig
from ...core.output.sessions import Session
from .run_actions import RunActions
from .settings import Settings
from .settings_panel import SettingsPanel


def own_metrics(run: Run) -> tuple[MetricConfig, ...]:
    """The run's metrics that have settings in the panel (imported scores have none: they come with the files)."""
    return tuple(m for m in run.config.metrics if not isinstance(m, ImportedConfig))


class SettingsChoice(QObject):
    """Signal: ``refused(str)`` when settings chosen in the panel cannot be scored with."""

    refused = Signal(str)

    def __init__(self, panel: SettingsPanel, settings: Settings, actions: RunActions, origin: str,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.panel, self.settings, self.actions = panel, settings, actions
        self.origin = origin  # where the shown run's settings came from ("from the command line", ...)
        # Chosen in the window (BLEU's settings first, then chrF's and TER's), remembered once a run shows them.
        self._chosen: tuple[MetricConfig, ...] | None = None
        panel.changed.connect(self.on_changed)

    def run_config(self) -> RunConfig:
        """What a job scores with now: the settings the panel holds."""
        return RunConfig(self.panel.metrics())

    def from_session(self, session: Session) -> None:
        self.panel.set_metrics((session.config, *session.metrics))
        self.origin = "from the session"

    def shown(self, run: Run) -> None:
        """A run is shown: settings chosen in the window are remembered once they gave it."""
        if self._chosen is not None and own_metrics(run) == self._chosen:
            self.settings.set_metrics(self._chosen)
            self._chosen, self.origin = None, "chosen in the window"

    def jobs_ended(self, run: Run | None) -> None:
        """No job runs any more: the panel shows the settings of the numbers shown (a re-score may have been
        cancelled or failed)."""
        self._chosen = None
        if run is not None and self.panel.metrics() != own_metrics(run):
            self.panel.set_metrics(own_metrics(run))

    @Slot(object)
    def on_changed(self, metrics: tuple[MetricConfig, ...]) -> None:
        try:
            metrics = tuple(m.validated() for m in metrics)
        except Exception as exc:  # noqa: BLE001 - shown to the user
            self.refused.emit(str(exc))
            return
        self._chosen = metrics
        self.actions.rescore()

    @Slot()
    def reset(self) -> None:
        """Score again with the defaults: BLEU's, and the same metrics beside it with their defaults."""
        metrics = tuple(type(m)() for m in self.panel.metrics())
        self.panel.set_metrics(metrics)
        self.on_changed(metrics)

    @Slot(object)
    def use_config(self, config: MetricConfig) -> None:
        """Score again with ``config`` in place of its metric's settings (an advice followed in one click)."""
        metrics = RunConfig(self.panel.metrics()).with_metric(config).metrics
        self.panel.set_metrics(metrics)
        self.on_changed(self.panel.metrics())
