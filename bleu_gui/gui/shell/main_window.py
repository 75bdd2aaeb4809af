"""The window shell: menus, tabs, settings dock and status bar around the Inspect and Compare views.

The window's state lives in its :class:`~bleu_gui.gui.controller.Controller`; the views follow it. The window
lays the views out and owns the objects that act: the scoring jobs (:class:`RunActions`), the file drops, the
exports; it remembers settings and recent runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QTimer, Signal, Slot
from PySide6.QtGui import QCloseEvent, QResizeEvent, QScreen, QShowEvent
from PySide6.QtWidgets import QMainWindow, QMessageBox, QTabWidget

from ...core import InputError, MetricConfig
from ...core.errors import ExportError
from ...core.metrics.bleu.config import find_bleu_config
from ...core.metrics.comet.worker import IDLE_LIMIT, end_idle_workers
from ...core.metrics.registry import family, family_of
from ...core.metrics.word_split import preload_arrow
from ...core.output.qa_decisions import decisions_beside
from ...core.output.report import ReportView
from ...core.output.sessions import Session
from ...core.run import renamed
from ...core.runtime import let_go
from ..actions import Actions
from ..compare.compare_view import CompareView
from ..compare.humans_view import HumansView
from ..controller import Controller
from ..file_dialogs import ask_open_many
from ..inspect.inspect_view import InspectView
from ..inspect.review_dialog import ReviewDialog, is_review_file, proposed_review_path
from ..jobs import JobController
from ..prepared import Prepared
from ..settings_dock.comet_cache_row import CometCacheRow
from ..settings_dock.comet_setup import CometSetup
from ..settings_dock.settings_choice import SettingsChoice
from ..settings_dock.settings_panel import SettingsPanel
from ..state import FROM_COMMAND_LINE, REMEMBERED, OpenChoice, Scoring
from ..widgets.elided_label import ElidedLabel
from ..widgets.job_progress import JobProgress
from ..widgets.layout import TITLE_BAR, keep_on_screen, scrolled, single_shot, stacked
from ..widgets.wheel_guard import guard_wheels
from ..window_words import in_window_words, raw
from . import questions
from .batch_actions import BatchActions
from .campaign_actions import CampaignActions
from .export_actions import ExportActions, ask_new_name, shown_view
from .extra_menus import ToolMenus
from .figure_export import FigureExport
from .file_drops import FileDrops
from .file_menu import FileMenu
from .file_open import FileOpen
from .metric_chooser import MetricChooser
from .run_actions import RunActions
from .run_bars import BarsArea, RunBars
from .session_actions import ask_open_session, ask_save_session
from .settings import Settings

INSPECT_TAB, COMPARE_TAB, HUMANS_TAB = 0, 1, 2
COSTLY = 3  # a family's cost from which it takes minutes (COMET, the LLM judge): remembered, offered, never started
SCORING = "Scoring…"


def screen_key(screen: QScreen) -> str:
    """A screen as the remembered window sizes name it: its name and size."""
    size = screen.geometry().size()
    return f"{screen.name() or 'screen'}@{size.width()}x{size.height()}"


def _prepare_process() -> None:
    guard_wheels()  # a field's value changes under the wheel only when it has the focus
    preload_arrow()  # now, not first inside a worker while the window waits (~0.1 s holding the lock)


class MainWindow(QMainWindow):
    """Signals: ``run_changed(Run)`` once a run is shown (its charts too) and its job is done (the quick metrics'
    numbers shown while the slow ones are scored do not count), ``exported(str)``, ``error_shown(str)``."""

    run_changed = Signal(object)
    exported = Signal(str)
    error_shown = Signal(str)

    def __init__(self, settings: Settings | None = None, encoding: str = "auto",
                 config: tuple[MetricConfig, ...] | None = None):
        """``config``: the metrics and settings given on the command line: they win over the saved ones for this
        run only (the saved settings change only when the user changes them in the window)."""
        super().__init__()
        _prepare_process()
        self.settings = settings or Settings()
        saved = self._saved_not_offered(config)
        self.error_box: QMessageBox | None = None
        self.on_error: Callable[[str], None] | None = None  # set: errors go there instead of a dialog (--screenshot)
        self._held: list[Prepared] = []  # what the controller holds, let go of once replaced
        # Where the settings of the run shown came from is said beside any that are not the defaults.
        self.controller = Controller(Scoring(config, FROM_COMMAND_LINE) if config is not None
                                     else Scoring(saved, REMEMBERED), self)
        self.controller.state.folders.update(self.settings.folders())  # where file dialogs start
        self.jobs = JobController(self)
        self.settings_panel = SettingsPanel(self.controller.scoring.metrics)
        self._build_comet_rows()
        self.run_actions = RunActions(self.controller, self.jobs, self)
        self.run_actions.encoding = encoding
        self.choice = SettingsChoice(self.settings_panel, self.settings, self.controller, self.run_actions, self,
                                     comet_ready=self.comet_setup.check)
        self._wire_questions()
        self.controller.actions = Actions(
            apply_slice=self.run_actions.apply_slice, clear_slice=self.run_actions.clear_slice,
            apply_where=self.run_actions.apply_where, compare_pair=self.run_actions.compare_pair,
            rename=self.on_rename_requested, reset_settings=self.choice.reset,
            reannotate=self.run_actions.reannotate)
        self.drops = FileDrops(self, self.controller, self.run_actions)
        self.file_open = FileOpen(self, self.controller, self.run_actions, self.jobs)
        self.exports = ExportActions(self, self.controller.state)
        self._finish_show = single_shot(self, 0, self._shown)
        self._refit = single_shot(self, 0, self._fit_to_screen)
        self.inspect = InspectView(self.controller)
        self.compare_view = CompareView(self.controller)
        self.humans = HumansView(self.controller)
        self.bars = RunBars()
        self.tabs = QTabWidget()
        self._connect()
        self.setWindowTitle("bleu-gui")
        self.tabs.addTab(self.inspect, "Inspect")
        # Compare's panes and charts need more height than Inspect: they scroll on a short screen rather than
        # make the window, whichever tab is shown, taller than a laptop's (a tab widget takes its tallest page).
        self.tabs.addTab(scrolled(self.compare_view), "Compare")
        self.tabs.setTabEnabled(COMPARE_TAB, False)
        self.tabs.addTab(self.humans, "Humans")
        self.tabs.setTabEnabled(HUMANS_TAB, False)
        self.tabs.setTabToolTip(HUMANS_TAB, "Which score and which error detector agree with the humans: open human "
                                            "ratings (MQM, ESA, a review) beside the systems")
        self.metric_chooser = MetricChooser(self.controller)
        self.tabs.setCornerWidget(self.metric_chooser)
        self.tabs.setTabToolTip(COMPARE_TAB, "File ▸ Add system… (or drop a second system file) to compare")
        self.bars_area = BarsArea(self.bars)
        self.setCentralWidget(stacked(self.bars_area, self.tabs))
        self.settings_dock = self.settings_panel.in_dock(self)
        self._build_status()
        self._build_menus()
        self._restore_window()
        if self.settings.problems:  # said once: the values that could not be read are gone from the file
            self.statusBar().showMessage("Saved settings that could not be read were reset to their defaults: "
                                         + "; ".join(self.settings.problems), 20000)

    # -- construction ------------------------------------------------------------------
    def _connect(self) -> None:
        self.jobs.started.connect(self.on_job_started)
        self.jobs.failed.connect(self.on_job_failed)
        self.jobs.cancelled.connect(self.on_job_cancelled)
        self.jobs.finished.connect(lambda _job_id: self._job_ended())
        self.controller.run_changed.connect(self.on_run_changed)
        self.run_actions.shown.connect(self.on_run_shown)
        self.run_actions.opened.connect(lambda: self.inspect.detail.editor.forget())
        self.run_actions.opened.connect(self._review_ends)  # a review is of the files it began on
        self.run_actions.refused.connect(self.show_error)
        self.exports.exported.connect(self.on_exported)
        self.exports.failed.connect(self.show_error)
        self.inspect.header.message.connect(lambda text: self.statusBar().showMessage(text, 3000))
        self.bars.use_config.connect(self.choice.use_config)
        self.bars.reset_settings.connect(self.choice.reset)
        self.bars.offer_taken.connect(self._take_offer)
        # Settings changed meanwhile are remembered with the offer still in them (after SettingsChoice saved them).
        self.controller.scoring_proven.connect(self._remember_with_offer)
        self.bars.show_line.connect(self.on_show_misalignment)
        self.choice.refused.connect(self.show_error)

    def _build_comet_rows(self) -> None:
        """COMET's cache line and set-up rows in its settings group, and the idle worker's end."""
        comet = self.settings_panel.group("comet")
        self.comet_cache = CometCacheRow(lambda: str(comet.fields["cache"].get()))
        comet.add_row(self.comet_cache)
        self.jobs.ended.connect(lambda _job: self.comet_cache.refresh())  # a job may have written scores to it
        self.comet_setup = CometSetup(comet, self.controller.state)
        comet.add_row(self.comet_setup)
        # The COMET worker is kept idle between requests (no second torch import or model load for the next run); a
        # real model holds gigabytes, so one idle for ten minutes is ended.
        self._idle_comet = QTimer(self)
        self._idle_comet.setInterval(60_000)
        self._idle_comet.timeout.connect(lambda: end_idle_workers(IDLE_LIMIT))
        self._idle_comet.start()

    def _build_status(self) -> None:
        self.inputs_label = ElidedLabel("")  # 13 systems' names do not fit 1366 px: cut at the end, whole in its tooltip
        self.job_progress = JobProgress(self.jobs)
        self.statusBar().addWidget(self.inputs_label, 1)
        self.statusBar().addPermanentWidget(self.job_progress)

    def _build_menus(self) -> None:
        controller, editor = self.controller, self.inspect.detail.editor
        self.file_menu = FileMenu(
            self, self.settings, on_open=self.on_open_triggered, on_demo=lambda: self.run_actions.open_demo("en"),
            on_add_system=self.on_add_system_triggered, on_import_scores=self.on_import_scores_triggered,
            on_export_report=lambda: self.exports.ask_report(controller.run, self.report_view()),
            on_export_sentences=lambda: self.exports.ask_sentences(controller.run, controller.b),
            on_export_table=lambda: self.exports.ask_systems_table(controller.run, controller.ranking,
                                                                   controller.metric),
            on_export_figure=lambda: self.figures.ask(),
            on_save_edited=editor.ask_save,
            on_open_session=lambda: self._guarded(
                lambda: self.open_session(ask_open_session(self, self.controller.state))),
            on_save_session=lambda: self._guarded(
                lambda: ask_save_session(self, self.controller.state, self.current_session())),
            on_score_again=self.run_actions.rescore, on_ask_humans=lambda: self.campaigns.ask(),
            on_read_ratings=lambda: self.campaigns.ask_read(), on_quit=self.close)
        self.file_menu.recent.open_requested.connect(self.open_session)
        self.batches = BatchActions(self, controller, lambda key: self.settings_panel.group(key).shown_config(),
                                    self.run_actions.rescore, self.file_menu)
        self.file_menu.test_set_open = self.file_open.ask_test_set
        self.batches.said.connect(lambda text: self.statusBar().showMessage(text, 15000))
        self.batches.failed.connect(self.show_error)
        self.menuBar().addMenu(self.file_menu)
        detail = self.inspect.detail
        self.tools = ToolMenus(self, controller, editor, self.settings_dock.toggleViewAction(),
                               lambda: detail.explain_panel.explanation)
        self.tools.qa_decisions, self.tools.qa_checks_off, self.tools.remember_qa_checks_off = (
            self.qa_decisions_path, self.settings.qa_checks_off, self.settings.set_qa_checks_off)
        for menu in self.tools.menus:
            self.menuBar().addMenu(menu)
        self.campaigns = CampaignActions(self, controller, self.run_actions, self.tools, self.bars)
        self.humans.scores.ask_humans.connect(self.tools.open_ask_humans)
        self.humans.scores.segment_opened.connect(self.open_in_compare)
        self.tools.exported.connect(self.on_exported)
        self.tools.failed.connect(self.show_error)
        self.tools.message.connect(self.statusBar().showMessage)
        self.tools.open_files_asked.connect(self.on_open_triggered)
        self.tools.open_demo_asked.connect(lambda: self.run_actions.open_demo("en"))
        self.tools.segment_asked.connect(self.open_segment)
        self.tools.review_asked.connect(self.on_review_asked)
        review = self.inspect.detail.review
        review.failed.connect(self.show_error)
        # The desk's own writes to a review file the run read are no change "on disk" to offer to read again.
        review.changed.connect(lambda: self.campaigns.watch.written(str(review.review.path)) if review.review else None)
        review.told.connect(lambda message: self.statusBar().showMessage(message, 8000))
        review.active.connect(self.tools.review_undo.setEnabled)
        review.active.connect(self.tools.review_redo.setEnabled)
        self.tools.review_undo.triggered.connect(review.undo)
        self.tools.review_redo.triggered.connect(review.redo)
        self.figures = FigureExport(self, controller, self.tabs, self.inspect, self.compare_view)
        self.figures.exported.connect(self.on_exported)
        self.figures.failed.connect(self.show_error)
        editor.saved.connect(self.on_exported)
        editor.failed.connect(self.show_error)

    def _restore_window(self) -> None:
        # The last size on this screen, else 1400×860 within it: a laptop's 1366×768 screen shows the whole window.
        geometry = self.settings.geometry(screen_key(self.screen()))
        if geometry is None or not self.restoreGeometry(geometry):
            available = self.screen().availableGeometry()
            self.resize(min(1400, available.width()), min(860, available.height() - TITLE_BAR))
        self._fit_to_screen()
        for name, splitter in (("main", self.inspect.main_split), ("right", self.inspect.right_split)):
            state = self.settings.splitter(name)
            if state is not None:
                splitter.restoreState(state)
        self._fill_orders()

    def _fill_orders(self) -> None:
        """The n-gram orders offered: those of the BLEU settings scored with (none: sacreBLEU's 4)."""
        found = find_bleu_config(self.controller.scoring.metrics)
        self.inspect.detail.fill_order_combo(found.max_order if found is not None else 4)

    # -- runs ------------------------------------------------------------------------------
    def current_session(self) -> Session:
        return self.controller.session()  # the menu entries that ask for it are enabled only with a run shown

    def open_session(self, session: Session | None) -> int | None:
        """Open a saved run as it was: its files, labels, B, encoding and settings."""
        if session is None:
            return None
        self.choice.from_session(session)
        self.file_open.offer(OpenChoice(session.opening(), tuple(session.labels) if session.labels else None))
        return self.run_actions.open_session(session)

    def _remember(self) -> None:  # Open Recent keeps the run as it is now (settings, names, B)
        if self.controller.run is not None:
            self.settings.add_recent(self.current_session())
            self.file_menu.recent.refresh()

    def _guarded(self, action: Callable[[], object]) -> None:
        try:
            action()
        except (InputError, ExportError) as exc:
            self.show_error(raw(exc))

    @Slot(int)
    def open_in_compare(self, sentence: int) -> None:
        """A segment chosen in the Humans tab is seen in Compare's A and B panes (the controller has it already)."""
        if self.tabs.isTabEnabled(COMPARE_TAB):
            self.tabs.setCurrentIndex(COMPARE_TAB)
            self.compare_view.show_sentences(sentence)

    @Slot(bool)
    def on_run_shown(self, switch_to_compare: bool) -> None:
        """A job's run is shown; some jobs (adding systems) ask for the Compare tab."""
        if switch_to_compare and self.tabs.isTabEnabled(COMPARE_TAB):
            self.tabs.setCurrentIndex(COMPARE_TAB)

    @Slot()
    def on_run_changed(self) -> None:
        """The controller shows another run: the window's own parts follow (tabs, bars, status, title)."""
        run = self.controller.run
        assert run is not None
        comparing = run.comparison is not None
        self.tabs.setTabEnabled(COMPARE_TAB, comparing)
        judged = HumansView.wanted(run)
        self.tabs.setTabEnabled(HUMANS_TAB, judged)
        if (not comparing and self.tabs.currentIndex() == COMPARE_TAB) or (
                not judged and self.tabs.currentIndex() == HUMANS_TAB):
            self.tabs.setCurrentIndex(INSPECT_TAB)
        self.file_menu.set_run_shown(True)
        self.inputs_label.setText(run.summary)
        self.settings_panel.set_referenced(bool(run.references))
        self.setWindowTitle(f"bleu-gui — {run.baseline.name}")
        self.bars.show_for(run, self.controller.scoring.origin)
        if self.offered and not any(family_of(m).cost >= COSTLY for m in self.controller.scoring.metrics):
            self.bars.offer(self.offered, run.n_sentences)
        metric_notes = {note for m in run.metrics for note in m.notes}
        notes = [in_window_words(n) for n in run.notes if n not in metric_notes]
        if notes:
            self.statusBar().showMessage(notes[0] + (" (more in the header's notes)" if len(notes) > 1 else ""), 15000)
        self._finish_show.start()  # the charts follow on the next turns of the event loop
        self._let_go_of_replaced()

    def _let_go_of_replaced(self) -> None:
        """Hand runs no longer shown to the releasing thread (a million lines took 0.1-0.2 s here), each once."""
        held = {id(p): p for p in (self.controller.shown, self.controller.whole) if p is not None}
        replaced = [p for p in self._held if id(p) not in held]
        self._held = list(held.values())
        let_go(*replaced)

    def _shown(self) -> None:
        # The sentence opens on its own turn, each chart on its own turn after it; the run counts as shown once
        # they are.
        if self.inspect.sentences.opening_pending or self.inspect.detail.charts_pending:
            self._finish_show.start()
            return
        self._fit_to_screen()  # a run never grows the window past the screen
        self._remember()  # written to disk on a later turn (up to 20 ms), not in the same frame as the run
        if not self.jobs.busy:  # an opening job still scoring chrF or TER shows its BLEU first: not done yet
            self.run_changed.emit(self.controller.run)

    def report_view(self) -> ReportView:
        """What the window shows, for the report: B, the n-gram order, the metric and the list's filter."""
        return shown_view(self.controller.run, self.controller.view_state(), self.inspect.sentences.list_selection())

    @Slot()
    def on_open_triggered(self) -> None:
        self.file_open.ask()

    @Slot()
    def on_import_scores_triggered(self) -> None:
        paths = ask_open_many(self, self.controller.state, "scores", "Segment scores of the shown systems (COMET, MQM, "
                              "...)", "Scores (*.tsv *.csv *.jsonl *.json *.txt);;All files (*)")
        if paths:
            self.import_scores(paths)

    def import_scores(self, paths: list[str]) -> int:
        """Open the shown run again with these score files' metrics beside its own (File ▸ Open sets which are
        lower-better and whether partial scores are read)."""
        earlier = self.controller.opened
        request = replace(earlier.request, scores=earlier.request.scores + tuple(paths))
        return self.run_actions.open_inputs(replace(earlier, request=request), self.controller.b, carry=True)

    @Slot()
    def on_add_system_triggered(self) -> None:
        paths = ask_open_many(self, self.controller.state, "inputs", "Add system outputs to compare with the baseline")
        if paths:
            self.run_actions.add_systems(paths)

    # -- jobs --------------------------------------------------------------------------
    @Slot(int)
    def on_job_started(self, _job_id: int) -> None:
        self.inspect.header.show_scoring()
        self.statusBar().showMessage(SCORING)

    def _job_ended(self, message: str = "") -> None:
        if not self.jobs.busy:
            self.controller.settle()
            self._fill_orders()
            self.inspect.header.show_idle()
            if message:
                self.statusBar().showMessage(message, 4000)
            elif self.statusBar().currentMessage() == SCORING:
                self.statusBar().clearMessage()

    @Slot(int)
    def on_job_cancelled(self, _job_id: int) -> None:
        self._job_ended("Cancelled")

    @Slot(str, str)
    def on_job_failed(self, message: str, details: str) -> None:
        self.choice.failed(in_window_words(message))
        self._job_ended()
        if not self.file_open.take_failure(message):  # File ▸ Open's own files: said in its dialog
            self.show_error(message, details)

    @Slot(bool)
    def on_review_asked(self, on: bool) -> None:
        """Edit ▸ Mark errors…: ask where and as whom, then review in Inspect (unchecked: stop)."""
        if not on:
            self.inspect.detail.review.stop()
            return
        whole, review = self.controller.whole, self.inspect.detail.review
        first = whole.run.systems[0].file.path if whole is not None else None
        rater, state = self.settings.rater(), self.controller.state
        # The run's review file found once, not on every key of the name (each look reads a file's first line).
        opened_with = tuple(p for p in state.opened.request.annotations if is_review_file(p))
        folder = state.folders.get("review", "")
        dialog = ReviewDialog(self, rater, lambda name: proposed_review_path(name, first, opened_with,
                                                                             review.last_path, folder), state)
        path, rater, mode, typology = dialog.choice() if dialog.exec() else ("", "", "", "")
        if not (path and rater and self.start_review(path, rater, mode, typology or None)):
            self.tools.review_action.setChecked(False)

    def _saved_not_offered(self, config: tuple[MetricConfig, ...] | None) -> tuple[MetricConfig, ...]:
        """The remembered settings, but the metrics that cost minutes (COMET, the LLM judge): they are offered
        (``offered``), never started unasked; with settings given on the command line nothing is offered."""
        saved = self.settings.metrics()
        self.offered = tuple(m for m in saved if family_of(m).cost >= COSTLY) if config is None else ()
        return tuple(m for m in saved if m not in self.offered)

    @Slot(object)
    def _remember_with_offer(self, proven: tuple[MetricConfig, ...]) -> None:
        if self.offered:
            self.settings.set_metrics((*proven, *self.offered))

    @Slot()
    def _take_offer(self) -> None:
        """The remembered COMET or LLM judge asked for: scored now (COMET's set-up checked first, as when ticked;
        the judge's texts leaving this machine asked about first)."""
        offered, self.offered = self.offered, ()
        self.settings_panel.set_metrics((*self.controller.scoring.metrics, *offered))
        self.choice.on_changed(self.settings_panel.metrics())

    @Slot()
    def _review_ends(self) -> None:
        review = self.inspect.detail.review
        review.last_path = None
        if review.review is not None:
            self.tools.review_action.setChecked(False)  # stops it (every change is in its file already)

    def start_review(self, path: str, rater: str, mode: str, typology: str | None = None) -> bool:
        """Review into ``path`` as ``rater`` (see gui.inspect.review), MQM scoring the marks; False when it cannot
        start (said)."""
        if self.controller.whole is None:
            return False
        self.settings.set_rater(rater)
        scoring = self.controller.scoring.metrics
        if not any(family_of(m).key == "mqm" for m in scoring):  # the marks are scored at once: MQM joins in
            self.controller.choose_scoring((*scoring, family("mqm").config()))
        try:
            self.inspect.detail.review.start(path, rater, mode, typology)
        except (InputError, OSError) as exc:
            self.show_error(str(exc))
            return False
        self.controller.state.folder_used("review", path)
        action = self.tools.review_action  # checked, whichever way the review began
        action.blockSignals(True)
        action.setChecked(True)
        action.blockSignals(False)
        self.tabs.setCurrentIndex(INSPECT_TAB)
        return True

    def show_error(self, message: str, details: str = "") -> None:
        if self.on_error is not None:
            self.on_error(message)  # a command's error: its flags are the right words there
            return
        message = in_window_words(message)  # the field that fixes it, never a flag the window does not have
        self.error_shown.emit(message)
        box = QMessageBox(QMessageBox.Icon.Warning, "bleu-gui", message, QMessageBox.StandardButton.Ok, self)
        if details:
            box.setDetailedText(details)
        box.setModal(True)
        box.open()
        self.error_box = box

    @Slot(int)
    def on_rename_requested(self, system: int) -> None:
        run = self.controller.run
        names = ask_new_name(self, run, system) if run is not None else None
        if names is not None:
            self.rename_systems(names)

    def rename_systems(self, names: list[str]) -> None:
        """Show the run under other display names (every view and export uses them)."""
        def apply() -> None:
            c = self.controller
            shown, whole = c.shown, c.whole
            assert shown is not None and whole is not None
            new_whole = replace(whole, run=renamed(whole.run, names))
            new_shown = new_whole if shown is whole else replace(shown, run=renamed(shown.run, names))
            c.show(new_shown, new_whole)

        self._guarded(apply)

    @Slot(int, int)
    def on_show_misalignment(self, system: int, line: int) -> None:
        self.open_segment(system, line - 1)

    @Slot(int, int)
    def open_segment(self, system: int, sentence: int) -> None:
        """Show a system's segment in Inspect (0-based)."""
        self.tabs.setCurrentIndex(INSPECT_TAB)
        self.controller.set_system(system)
        self.controller.set_sentence(sentence)

    @Slot(str)
    def on_exported(self, path: str) -> None:
        self.statusBar().showMessage(f"Saved {path}", 5000)
        self.exported.emit(path)

    def _fit_to_screen(self) -> None:
        """Never larger than the screen's available area, and on it (a run with many systems or notes, or the
        desk's rows, must not grow the window past a laptop's screen, its status bar with Cancel below the edge);
        the frame counts once the window is shown."""
        if self.isMaximized() or self.isFullScreen():
            return
        if self.isVisible():
            keep_on_screen(self)
            return
        available = self.screen().availableGeometry()
        width, height = min(self.width(), available.width()), min(self.height(), available.height() - TITLE_BAR)
        if (width, height) != (self.width(), self.height()):
            self.resize(width, height)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fit_to_screen()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        # Qt grows a window whose contents' minimum grew (without a window manager nothing stops it): fitted again
        # on a later turn, not inside the resize.
        if self.isVisible() and not self.screen().availableGeometry().contains(self.frameGeometry()):
            self._refit.start()

    def _wire_questions(self) -> None:
        """The questions asked before texts leave this machine, and before settings that cost requests or minutes
        score the run again."""
        self.run_actions.confirm = lambda notice: questions.ask_to_send(self, notice)
        self.choice.ask_costly = lambda said: questions.ask_costly_change(self, said)

    def qa_decisions_path(self) -> Path | None:
        """Where the QA checks' false positives of the run shown are kept: the file first used for its first system
        file (remembered: a review started later under another name never moves them), else beside its review
        file — the one the desk writes or wrote, one the run was opened with, else the one Mark errors… would
        propose."""
        run = self.controller.run
        if run is None:
            return None
        system = run.systems[0].file.path
        remembered = self.settings.qa_decisions_file(system)
        if remembered is not None:
            return remembered
        state = self.controller.state
        review = proposed_review_path(self.settings.rater() or "reviewer", system, state.opened.request.annotations,
                                      self.inspect.detail.review.last_path, state.folders.get("review", ""))
        chosen = decisions_beside(review)
        self.settings.set_qa_decisions_file(system, chosen)
        return chosen

    def _may_close(self) -> bool:
        """Whether the window may go: edited candidates not saved are asked about first (Save as… / Discard /
        Cancel), as every editor asks."""
        editor = self.inspect.detail.editor
        unsaved = editor.unsaved()
        if not unsaved:
            return True
        listed = "; ".join(f"{name}: {n} sentence{'s' if n != 1 else ''}" for name, n in unsaved)
        choice = questions.ask_unsaved_edits(self, f"Edited candidates are not saved ({listed}). The files themselves "
                                                   "are never changed: save the edits as new files, or discard them?")
        if choice == "save":
            return editor.save_unsaved()
        return choice == "discard"

    def stop_work(self) -> None:
        """Every worker of the window stops: scoring, a panel's own (erasure, error recall, QA), exports."""
        for jobs in (self.jobs, *self.findChildren(JobController)):
            jobs.shutdown()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._may_close():
            event.ignore()
            return
        self.stop_work()
        self.inspect.sentences.model.stop_search()
        self.tools.close_all()
        self._remember()
        self.exports.shutdown()
        self.settings.set_geometry(screen_key(self.screen()), self.saveGeometry())
        self.settings.set_folders(self.controller.state.folders)
        for name, splitter in (("main", self.inspect.main_split), ("right", self.inspect.right_split)):
            self.settings.set_splitter(name, splitter.saveState())
        self.settings.sync()
        super().closeEvent(event)
