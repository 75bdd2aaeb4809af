"""File ▸ Open as one conversation: the dialog stays open while its files are read, says in place why they cannot
be (the field marked, everything typed kept), and closes once the run is shown. Opened again after a failure, it
holds what was typed; after a success, what the run shown was opened from."""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QWidget

from ...core import InputError
from ..controller import Controller
from ..jobs import JobController
from ..state import OpenChoice
from ..widgets.layout import keep_on_screen
from ..window_words import raw
from .open_dialog import OpenDialog
from .run_actions import RunActions
from .test_set_dialog import TestSetDialog


class FileOpen(QObject):
    """See the module."""

    def __init__(self, parent: QWidget, controller: Controller, actions: RunActions, jobs: JobController):
        super().__init__(parent)
        self.parent_widget, self.controller, self.actions, self.jobs = parent, controller, actions, jobs
        self.dialog: OpenDialog | None = None
        self.typed: OpenChoice | None = None  # what the dialog last offered that did not open
        self.waiting = False  # the dialog's files are being read
        actions.opened.connect(self._opened)
        jobs.cancelled.connect(self._cancelled)

    def ask(self, filled: OpenChoice | None = None) -> OpenDialog:
        """Show the dialog (the one already open, if any), filled with ``filled``, else what was typed or the run
        shown's files."""
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.raise_()
            self.dialog.activateWindow()
            return self.dialog
        earlier = filled or self.typed or (self.controller.opened if self.controller.run is not None else None)
        dialog = OpenDialog(self.parent_widget, earlier, self.controller.state)
        dialog.chosen.connect(self._chosen)
        dialog.rejected.connect(self._closed)
        self.dialog = dialog
        dialog.open()
        keep_on_screen(dialog)
        return dialog

    def ask_test_set(self) -> TestSetDialog:
        """File ▸ Open test set…: system outputs against a test set of sacreBLEU's registry, opened once chosen
        (its failure said as any open's is)."""
        dialog = TestSetDialog(self.parent_widget, self.controller.state)
        dialog.accepted.connect(lambda: self.actions.open_inputs(dialog.choice()))
        dialog.open()
        keep_on_screen(dialog)
        return dialog

    def take_failure(self, message: str) -> bool:
        """A job failed: said in the dialog when it was the dialog's (then True: no other dialog is needed)."""
        if not self.waiting or self.dialog is None:
            return False
        self.waiting = False
        self.dialog.show_problem(message)
        return True

    @Slot(object)
    def _chosen(self, choice: OpenChoice) -> None:
        self.typed = choice
        try:
            self.actions.open_inputs(choice)
        except InputError as exc:  # refused before reading (a slice expression that does not parse)
            assert self.dialog is not None
            self.dialog.show_problem(raw(exc))
            return
        self.waiting = True

    def offer(self, choice: OpenChoice) -> None:
        """``choice`` is being opened another way (Open Recent, a session): File ▸ Open offers it should it fail."""
        self.typed = choice

    @Slot()
    def _opened(self) -> None:
        self.typed = None  # files opened: the dialog offers them now
        if self.waiting and self.dialog is not None:
            self.waiting = False
            self.dialog.accept()
            self.dialog = None

    @Slot(int)
    def _cancelled(self, _job_id: int) -> None:
        if self.waiting and self.dialog is not None:
            self.waiting = False
            self.dialog.set_busy(False)

    @Slot()
    def _closed(self) -> None:
        if self.waiting:  # Cancel while the files are read: stop reading them
            self.waiting = False
            self.jobs.cancel()
        self.dialog = None
