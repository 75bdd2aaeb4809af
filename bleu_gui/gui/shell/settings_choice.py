"""Which settings the window scores with, where they came from, and when they are remembered.

Settings given on the command line or by a session are that run's only; the
saved settings change only when the user changes them in the window, and only
once a run shows what they give. After a cancelled or failed re-score the old
numbers stay, and so must the settings the panel shows.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Signal, Slot

from ...core import BleuConfig, Run, RunConfig
from .run_actions import RunActions
from .settings import Settings
from .settings_panel import SettingsPanel


class SettingsChoice(QObject):
    """Signal: ``refused(str)`` when settings chosen in the panel cannot be scored with."""

    refused = Signal(str)

    def __init__(self, panel: SettingsPanel, settings: Settings, actions: RunActions, origin: str,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.panel, self.settings, self.actions = panel, settings, actions
        self.origin = origin  # where the shown run's settings came from ("from the command line", ...)
        self._chosen: BleuConfig | None = None  # chosen in the window, remembered once a run shows them
        panel.changed.connect(self.on_changed)

    def run_config(self) -> RunConfig:
        """What a job scores with now: the settings the panel holds."""
        return RunConfig((self.panel.config(),))

    def from_session(self, config: BleuConfig) -> None:
        self.panel.set_config(config)
        self.origin = "from the session"

    def shown(self, run: Run) -> None:
        """A run is shown: settings chosen in the window are remembered once they gave it."""
        if self._chosen is not None and run.config.bleu == self._chosen:
            self.settings.set_config(self._chosen)
            self._chosen, self.origin = None, "chosen in the window"

    def jobs_ended(self, run: Run | None) -> None:
        """No job runs any more: the panel shows the settings of the numbers shown (a re-score may have been
        cancelled or failed)."""
        self._chosen = None
        shown = run.config.bleu if run is not None else None
        if shown is not None and self.panel.config() != shown:
            self.panel.set_config(shown)

    @Slot(object)
    def on_changed(self, cfg: BleuConfig) -> None:
        try:
            cfg = cfg.validated()
        except Exception as exc:  # noqa: BLE001 - shown to the user
            self.refused.emit(str(exc))
            return
        self._chosen = cfg
        self.actions.rescore()

    @Slot()
    def reset(self) -> None:
        """Score again with the defaults."""
        self.panel.set_config(BleuConfig())
        self.on_changed(BleuConfig())

    @Slot(str)
    def use_tokenizer(self, tokenizer: str) -> None:
        cfg = replace(self.panel.config(), tokenizer=tokenizer)
        self.panel.set_config(cfg)
        self.on_changed(cfg)
