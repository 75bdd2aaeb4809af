"""The File menu: open, demo, add system, recent runs, exports, asking the humans, the batches handed to engines
elsewhere (the LLM judge's, COMET's), quit."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from .export_actions import REPORT_FORMATS, SENTENCE_FORMATS, TABLE_FORMATS, formats_said
from .recent_menu import RecentMenu
from .settings import Settings


class FileMenu(QMenu):
    """The actions that need a shown run start disabled; :meth:`set_run_shown` enables them."""

    def __init__(self, parent: QWidget, settings: Settings, on_open: Callable[[], object],
                 on_demo: Callable[[], object], on_add_system: Callable[[], object],
                 on_import_scores: Callable[[], object],
                 on_export_report: Callable[[], object], on_export_sentences: Callable[[], object],
                 on_export_table: Callable[[], object], on_export_figure: Callable[[], object],
                 on_save_edited: Callable[[], object],
                 on_open_session: Callable[[], object], on_save_session: Callable[[], object],
                 on_score_again: Callable[[], object], on_ask_humans: Callable[[], object],
                 on_read_ratings: Callable[[], object], on_quit: Callable[[], object]):
        super().__init__("&File", parent)
        # Each entry its own letter (tests/test_help.py keeps them apart): Alt+F and the letter choose it.
        self._action("&Open…", on_open, QKeySequence.StandardKey.Open)
        self._action("Open &demo data", on_demo)
        self._action("Open &test set (sacreBLEU's)…", lambda: self.test_set_open())
        self.add_system = self._action("&Add system…", on_add_system)
        self.import_scores = self._action("&Import segment scores (COMET, MQM)…", on_import_scores)
        # What a cancel left out (a metric, the paired tests) computed with the settings shown.
        self.score_again = self._action("Score a&gain", on_score_again, QKeySequence("Ctrl+R"))
        self.recent = RecentMenu(settings, self)
        self.addMenu(self.recent)
        self._action("Open &session…", on_open_session)
        self.save_session = self._action("Sa&ve session…", on_save_session)
        self.addSeparator()
        self.export_report = self._action(f"Export re&port ({formats_said(REPORT_FORMATS)})…", on_export_report)
        self.export_sentences = self._action(f"Export sente&nces ({formats_said(SENTENCE_FORMATS)})…",
                                             on_export_sentences)
        self.export_table = self._action(f"Export systems tab&le ({formats_said(TABLE_FORMATS)})…", on_export_table)
        self.export_figure = self._action("Export &figure (PNG, SVG or PDF)…", on_export_figure,
                                          QKeySequence("Ctrl+Shift+E"))
        self.save_edited = self._action("Save &edited candidate as…", on_save_edited)
        self.addSeparator()
        self.ask_humans = self._action("Ask the &humans (a Pearmut campaign)…", on_ask_humans)
        self.read_ratings = self._action("Read the h&umans' ratings…", on_read_ratings)
        self.addSeparator()
        # Connected by the window's batch actions (they act on the run shown when chosen).
        self.export_llm_batch = self._action("E&xport LLM batch (OpenAI Batch JSONL)…")
        self.import_llm_batch = self._action("Import LLM &batch results…")
        self.export_comet_batch = self._action("Export &COMET batch (comet-score shards, a Slurm array)…")
        self.import_comet_batch = self._action("I&mport COMET batch scores…")
        self.addSeparator()
        # The platform's Quit key where it has one (Ctrl+Q on X11 and macOS's Cmd+Q); Ctrl+Q where it has none
        # (Windows, whose Alt+F4 closes the window anyway).
        quit_keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Quit) or [QKeySequence("Ctrl+Q")]
        self._action("&Quit", on_quit).setShortcuts(quit_keys)
        self.test_set_open: Callable[[], object] = lambda: None  # set by the window (its File ▸ Open)
        self.set_run_shown(False)

    def _action(self, text: str, slot: Callable[[], object] | None = None,
                shortcut: QKeySequence.StandardKey | QKeySequence | None = None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if slot is not None:
            action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        return action

    def set_run_shown(self, shown: bool) -> None:
        for action in (self.add_system, self.import_scores, self.score_again, self.export_report, self.export_sentences,
                       self.export_table, self.export_figure,
                       self.save_edited, self.save_session, self.ask_humans, self.read_ratings, self.export_llm_batch,
                       self.import_llm_batch, self.export_comet_batch, self.import_comet_batch):
            action.setEnabled(shown)
