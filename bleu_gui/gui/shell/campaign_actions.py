"""Asking the humans from the window: File ▸ Ask the humans… (a Pearmut campaign, remembered with the run and its
session), File ▸ Read the humans' ratings… (Pearmut's results placed on the run by the items' ids, with the campaigns
that asked them), and a bar offering to read them again when the file changes on disk."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from ..controller import Controller
from ..file_dialogs import ask_open_many
from .extra_menus import ToolMenus
from .ratings_watch import RatingsWatch
from .run_actions import RunActions
from .run_bars import RunBars

RESULTS_FILTER = "Pearmut results: its log or the dashboard's download (*.jsonl *.json);;All files (*)"


class CampaignActions(QObject):
    """See the module."""

    def __init__(self, parent: QWidget, controller: Controller, run_actions: RunActions, tools: ToolMenus,
                 bars: RunBars):
        super().__init__(parent)
        self.parent_widget, self.controller, self.run_actions, self.tools, self.bars = (parent, controller, run_actions,
                                                                                        tools, bars)
        self.watch = RatingsWatch(self)
        self.watch.changed.connect(self._on_changed)
        tools.campaign_written.connect(run_actions.remember_campaign)
        bars.ratings.accepted.connect(self._on_read_again)
        run_actions.opened.connect(self._on_opened)

    def ask(self) -> object:
        """File ▸ Ask the humans…"""
        return self.tools.open_ask_humans()

    def ask_read(self) -> int | None:
        """File ▸ Read the humans' ratings…: the files asked for, placed on the run shown."""
        paths = ask_open_many(self.parent_widget, self.controller.state, "ratings",
                              "The humans' ratings (Pearmut's log or its dashboard's download)", RESULTS_FILTER)
        return self.run_actions.read_ratings(paths) if paths else None

    def _on_opened(self) -> None:
        """Files were read afresh: watch the ratings they hold as they are now."""
        self.bars.ratings.hide()
        self.watch.watch(self.controller.opened.request.annotations)

    def _on_changed(self, path: str) -> None:
        self.bars.ratings.show_advice(f"{Path(path).name} changed on disk after the run read it (more ratings, a "
                                      "new download?): the numbers shown are from the file as it was.", "",
                                      "Read again")

    def _on_read_again(self, _value: str) -> None:
        self.bars.ratings.hide()
        self.run_actions.read_again()
