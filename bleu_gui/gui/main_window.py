"""The window shell: menus, tabs, settings dock and status bar around the Inspect and Compare views.

It owns the current :class:`~bleu_gui.core.run.Run`, starts scoring jobs (each
with its own completion callback) and hands every finished run to both views.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QTabWidget,
)

from ..core import BleuConfig, InputError, Run
from ..core.errors import ExportError
from ..core.metrics.word_split import preload_arrow
from ..core.output.report import ReportView
from ..core.output.sessions import Session, session_of
from ..core.run import renamed
from ..core.runtime import let_go
from .compare_view import CompareView
from .drop_target import FileDropTarget
from .export_actions import ExportActions, ask_new_name, shown_view
from .extra_menus import add_menus
from .file_menu import FileMenu
from .inspect_view import InspectView
from .job_progress import JobProgress
from .jobs import JobController
from .layout import stacked
from .open_dialog import OpenDialog
from .run_bars import RunBars
from .run_jobs import RunJobs
from .session_actions import ask_open_session, ask_save_session
from .settings import Settings
from .settings_panel import SettingsPanel

INSPECT_TAB, COMPARE_TAB = 0, 1
SCORING = "Scoring…"


class MainWindow(RunJobs, FileDropTarget, QMainWindow):
    """Signals: ``run_changed(Run)`` after a run is shown (its opening sentence too, one turn of the event loop
    after :meth:`show_run`), ``exported(str)``, ``error_shown(str)``."""

    run_changed = Signal(object)
    exported = Signal(str)
    error_shown = Signal(str)

    def __init__(self, settings: Settings | None = None, encoding: str = "auto", config: BleuConfig | None = None):
        """``config``: scoring settings given on the command line: they win over the saved ones for this run
        only (the saved settings change only when the user changes them in the window)."""
        super().__init__()
        preload_arrow()  # now, not first inside a worker while the window waits (~0.1 s holding the lock)
        self.settings = settings or Settings()
        saved = self.settings.config()
        # Where the settings of the run shown came from (said beside any that are not the defaults).
        self.settings_origin = "from the command line" if config is not None else "remembered from an earlier session"
        self._chosen: BleuConfig | None = None  # settings chosen in the window, remembered once a run shows them
        self.encoding = encoding
        self.run: Run | None = None    # the run shown: the whole corpus or a slice of it
        self.whole: Run | None = None  # the whole corpus's run
        self.tokenizer_dialog: QDialog | None = None
        self.help_dialog: QDialog | None = None
        self._finish_show = QTimer(self, singleShot=True, interval=0, timeout=self._shown)
        self.jobs = JobController(self)
        self.jobs.started.connect(self.on_job_started)
        self.jobs.failed.connect(self.on_job_failed)
        self.jobs.cancelled.connect(self.on_job_cancelled)
        self.jobs.finished.connect(lambda _job_id: self._job_ended())
        self.exports = ExportActions(self)
        self.exports.exported.connect(self.on_exported)
        self.exports.failed.connect(self.show_error)
        self.setWindowTitle("bleu-gui")
        self.setAcceptDrops(True)
        self.inspect = InspectView()
        self.inspect.header.message.connect(lambda text: self.statusBar().showMessage(text, 3000))
        self.inspect.header.reset_requested.connect(self.on_reset_requested)
        self.inspect.slice_requested.connect(self.apply_slice)
        self.inspect.whole_requested.connect(self.clear_slice)
        self.bars = RunBars()
        self.bars.use_tokenizer.connect(self.on_tokenizer_advice_accepted)
        self.bars.reset_settings.connect(self.on_reset_requested)
        self.bars.show_line.connect(self.on_show_misalignment)
        self.compare_view = CompareView()
        self.compare_view.sentence_selected.connect(self.on_compare_sentence_selected)
        self.compare_view.rename_requested.connect(self.on_rename_requested)
        self.compare_view.pair_requested.connect(self.compare_pair)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.inspect, "Inspect")
        self.tabs.addTab(self.compare_view, "Compare")
        self.tabs.setTabEnabled(COMPARE_TAB, False)
        self.tabs.setTabToolTip(COMPARE_TAB, "File ▸ Add system… (or drop a second system file) to compare")
        self.setCentralWidget(stacked(self.bars, self.tabs))
        self.settings_panel = SettingsPanel(config if config is not None else saved)
        self.settings_panel.changed.connect(self.on_settings_changed)
        self.settings_panel.in_dock(self)
        self._build_status()
        self._build_menus()
        self._restore_window()
        if self.settings.problems:  # said once: the values that could not be read are gone from the file
            self.statusBar().showMessage("Saved settings that could not be read were reset to their defaults: "
                                         + "; ".join(self.settings.problems), 20000)

    # -- construction ------------------------------------------------------------------
    def _build_status(self) -> None:
        self.inputs_label = QLabel("")
        self.job_progress = JobProgress(self.jobs)
        self.statusBar().addWidget(self.inputs_label, 1)
        self.statusBar().addPermanentWidget(self.job_progress)

    def _build_menus(self) -> None:
        self.file_menu = FileMenu(
            self, self.settings, on_open=self.on_open_triggered, on_demo=lambda: self.open_demo("en"),
            on_add_system=self.on_add_system_triggered,
            on_export_report=lambda: self.exports.ask_report(self.run, self.report_view()),
            on_export_sentences=lambda: self.exports.ask_sentences(self.run, self.compare_view.b),
            on_export_table=lambda: self.exports.ask_systems_table(self.run, self.compare_view.ranking()),
            on_save_edited=self.inspect.editor.ask_save,
            on_open_session=lambda: self._guarded(lambda: self.open_session(ask_open_session(self))),
            on_save_session=lambda: self._guarded(lambda: ask_save_session(self, self.current_session())),
            on_quit=self.close)
        self.file_menu.recent.open_requested.connect(self.open_session)
        self.menuBar().addMenu(self.file_menu)
        add_menus(self)
        self.inspect.editor.saved.connect(self.on_exported)
        self.inspect.editor.failed.connect(self.show_error)

    def _restore_window(self) -> None:
        geometry = self.settings.geometry()
        if geometry is None or not self.restoreGeometry(geometry):
            self.resize(1400, 860)
        for name, splitter in (("main", self.inspect.main_split), ("right", self.inspect.right_split)):
            state = self.settings.splitter(name)
            if state is not None:
                splitter.restoreState(state)
        self.inspect.fill_order_combo(self.settings_panel.config().max_order)

    # -- runs ------------------------------------------------------------------------------
    def current_session(self) -> Session:
        assert self.run is not None  # the menu entries that ask for it are enabled only with a run shown
        return session_of(self.run, self.compare_view.b, self.encoding)

    def _remember(self) -> None:  # Open Recent keeps the run as it is now (settings, names, B)
        if self.run is not None:
            self.settings.add_recent(self.current_session())
            self.file_menu.recent.refresh()

    def _guarded(self, action) -> None:
        try:
            action()
        except (InputError, ExportError) as exc:
            self.show_error(str(exc))

    def show_run(self, run: Run, switch_to_compare: bool = False) -> None:
        """Hand a finished run (the whole corpus, or a slice of the whole run) to both views."""
        replaced = [r for r in {id(r): r for r in (self.run, self.whole)}.values() if r is not None and r is not run]
        if run.slice is None:
            self.whole = run
        self.run = run
        if self._chosen is not None and run.config == self._chosen:
            self.settings.set_config(self._chosen)  # remembered once the window shows what they give
            self._chosen, self.settings_origin = None, "chosen in the window"
        self.inspect.set_run(run, self.whole, select=False)
        comparing = run.comparison is not None
        self.tabs.setTabEnabled(COMPARE_TAB, comparing)
        if comparing:
            self.compare_view.set_run(run)
            if switch_to_compare:
                self.tabs.setCurrentIndex(COMPARE_TAB)
        else:
            if self.tabs.currentIndex() == COMPARE_TAB:
                self.tabs.setCurrentIndex(INSPECT_TAB)
            self.compare_view.release()
        self.file_menu.set_run_shown(True)
        self.inputs_label.setText(run.summary)
        self.setWindowTitle(f"bleu-gui — {run.baseline.name}")
        self.bars.show_for(run, self.settings_origin)
        notes = [n for n in run.notes if n not in run.evaluator.notes]
        if notes:
            self.statusBar().showMessage(notes[0] + (f" (+{len(notes) - 1} more in the header)" if len(notes) > 1
                                                     else ""), 15000)
        self._finish_show.start()  # the sentence panes and charts follow on the next turn of the event loop
        let_go(*replaced)  # freed piece by piece off this thread (a million lines took 0.1-0.2 s here)

    def _shown(self) -> None:
        self.inspect.finish_show()
        if self.inspect.charts_pending:  # each chart on its own turn; the run counts as shown once they are
            self._finish_show.start()
            return
        self._remember()  # written to disk on a later turn (up to 20 ms), not in the same frame as the run
        self.run_changed.emit(self.run)

    def report_view(self) -> ReportView:
        """What the window shows, for the report: B, the n-gram order and the list's filter."""
        return shown_view(self.run, self.inspect, self.compare_view.b, self.compare_view.ranking())

    @Slot(int)
    def on_compare_sentence_selected(self, sentence: int) -> None:
        if self.inspect.current_sentence != sentence:
            self.inspect.select_sentence(sentence)

    @Slot()
    def on_open_triggered(self) -> None:
        self._guarded(lambda: (chosen := OpenDialog.ask(self)) and self.open_files(chosen[0], chosen[1],
                                                                                 source=chosen[2]))

    @Slot()
    def on_add_system_triggered(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Add system outputs to compare with the baseline")
        if paths:
            self.add_systems(paths)

    # -- jobs --------------------------------------------------------------------------
    @Slot(int)
    def on_job_started(self, _job_id: int) -> None:
        self.inspect.header.show_scoring()
        self.statusBar().showMessage(SCORING)

    def _job_ended(self, message: str = "") -> None:
        if not self.jobs.busy:
            self._settings_describe_shown_run()
            self.job_progress.setVisible(False)
            self.inspect.header.show_idle()
            if message:
                self.statusBar().showMessage(message, 4000)
            elif self.statusBar().currentMessage() == SCORING:
                self.statusBar().clearMessage()

    def _settings_describe_shown_run(self) -> None:
        """After a cancelled or failed re-score the old numbers stay: so must the settings that made them."""
        self._chosen = None
        if self.run is not None and self.settings_panel.config() != self.run.config:
            self.settings_panel.set_config(self.run.config)
            self.inspect.fill_order_combo(self.run.config.max_order)

    @Slot(int)
    def on_job_cancelled(self, _job_id: int) -> None:
        self._job_ended("Cancelled")

    @Slot(str, str)
    def on_job_failed(self, message: str, details: str) -> None:
        self._job_ended()
        self.show_error(message, details)

    def show_error(self, message: str, details: str = "") -> None:
        self.error_shown.emit(message)
        box = QMessageBox(QMessageBox.Icon.Warning, "bleu-gui", message, QMessageBox.StandardButton.Ok, self)
        if details:
            box.setDetailedText(details)
        box.setModal(True)
        box.open()
        self.error_box = box

    @Slot(object)
    def on_settings_changed(self, cfg: BleuConfig) -> None:
        try:
            cfg = cfg.validated()
        except Exception as exc:  # noqa: BLE001 - shown to the user
            self.show_error(str(exc))
            return
        self._chosen = cfg
        self.rescore()

    @Slot()
    def on_reset_requested(self) -> None:
        self.settings_panel.set_config(BleuConfig())
        self.on_settings_changed(BleuConfig())

    @Slot(str)
    def on_tokenizer_advice_accepted(self, tokenizer: str) -> None:
        cfg = replace(self.settings_panel.config(), tokenizer=tokenizer)
        self.settings_panel.set_config(cfg)
        self.on_settings_changed(cfg)

    @Slot(int)
    def on_rename_requested(self, system: int) -> None:
        names = ask_new_name(self, self.run, system) if self.run is not None else None
        if names is not None:
            self.rename_systems(names)

    def rename_systems(self, names: list[str]) -> None:
        """Show the run under other display names (every view and export uses them)."""
        def apply() -> None:
            if self.whole is not None and self.whole is not self.run:  # a slice: its whole run is renamed too
                self.whole = renamed(self.whole, names)
            self.show_run(renamed(self.run, names))

        self._guarded(apply)

    @Slot(int, int)
    def on_show_misalignment(self, system: int, line: int) -> None:
        self.tabs.setCurrentIndex(INSPECT_TAB)
        self.inspect.system_combo.setCurrentIndex(system)
        self.inspect.select_sentence(line - 1)

    @Slot(str)
    def on_exported(self, path: str) -> None:
        self.statusBar().showMessage(f"Saved {path}", 5000)
        self.exported.emit(path)

    def closeEvent(self, event) -> None:
        self.jobs.shutdown()
        self.inspect.model.stop_search()
        if self.tokenizer_dialog is not None:
            self.tokenizer_dialog.close()
        self._remember()
        self.exports.shutdown()
        self.settings.set_geometry(self.saveGeometry())
        for name, splitter in (("main", self.inspect.main_split), ("right", self.inspect.right_split)):
            self.settings.set_splitter(name, splitter.saveState())
        self.settings.sync()
        super().closeEvent(event)
