"""The Edit, View, Tools and Help menus: what-if editing, marking errors, the settings dock, the tokenizer × case
table, QA checks, the scorecard, the triage, where metrics disagree, word accuracy, getting started, shortcuts, how BLEU is
computed, the documentation and About. The menus hold the dialogs they open and say what happened by signals; they
never reach into the window."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QMenu, QWidget

from ...core.metrics.account import Explanation
from ...core.metrics.bleu.metric import find_bleu
from ..controller import Controller
from ..inspect.candidate_editor import CandidateEditor
from ..inspect.explain_panel import show_help
from ..state import Selection
from ..tools.ask_humans_view import AskHumansDialog, offered
from ..tools.disagree_view import DisagreeDialog
from ..tools.qa_view import QADialog
from ..tools.scorecard_view import ScorecardDialog
from ..tools.tokenizer_table_view import TokenizerTableDialog
from ..tools.triage_view import TriageDialog
from ..tools.word_accuracy_view import WordAccuracyDialog
from .help_pages import DOC_PAGES, DocPage, HelpPage, about_html, docs_folder, getting_started_html, shortcuts_html

ToolDialog = TypeVar("ToolDialog", QADialog, WordAccuracyDialog)

_PAGES = {"getting-started": ("Getting started", getting_started_html),
          "shortcuts": ("Keyboard shortcuts", shortcuts_html), "about": ("About bleu-gui", about_html)}


NO_REFERENCE = "{what}: the run has no reference (File ▸ Open ▸ References adds one)"


class ToolMenus(QObject):
    """See the module. Signals: ``exported(str)`` (a table saved), ``failed(str)`` (a dialog's job failed),
    ``message(str, int)`` (a line for the status bar, for so many milliseconds), ``open_files_asked()`` and
    ``open_demo_asked()`` (links of the help pages), ``segment_asked(system, sentence)`` (a dialog's row clicked:
    show it in Inspect), ``review_asked(bool)`` (Edit ▸ Mark errors… toggled), ``campaign_written(path)`` (a campaign for the
    humans written)."""

    exported = Signal(str)
    failed = Signal(str)
    message = Signal(str, int)
    open_files_asked = Signal()
    open_demo_asked = Signal()
    segment_asked = Signal(int, int)
    review_asked = Signal(bool)
    campaign_written = Signal(str)

    def __init__(self, parent: QWidget, controller: Controller, editor: CandidateEditor, show_settings: QAction,
                 explanation: Callable[[], Explanation | None]):
        super().__init__(parent)
        self.parent_widget, self.controller, self.explanation = parent, controller, explanation
        # Where the QA checks' false positives are kept (beside the run's review), and which checks are off (the
        # window's settings): the main window's.
        self.qa_decisions: Callable[[], Path | None] = lambda: None
        self.qa_checks_off: Callable[[], frozenset[str]] = frozenset
        self.remember_qa_checks_off: Callable[[frozenset[str]], None] | None = None
        self.tokenizer_dialog: TokenizerTableDialog | None = None
        self.help_dialog: QDialog | None = None
        self.tool_dialog: QDialog | None = None  # the last Tools dialog opened (kept alive while shown)
        self.ask_dialog: AskHumansDialog | None = None
        self.menus = [self._edit_menu(editor), self._view_menu(show_settings), self._tools_menu(), self._help_menu()]

    # -- the menus ------------------------------------------------------------------------------------------
    def _edit_menu(self, editor: CandidateEditor) -> QMenu:
        edit = QMenu("&Edit", self.parent_widget)
        edit.addAction("&Edit candidate in place (F2)", lambda: editor.edit_button.toggle())
        edit.addAction("&Revert this sentence", editor.revert_sentence)
        edit.addAction("Revert &all edits of this system", editor.revert_all)
        edit.addSeparator()
        self.review_action = edit.addAction("&Mark errors (MQM or ESA review)…")
        self.review_action.setCheckable(True)
        self.review_action.setShortcut(QKeySequence("Ctrl+M"))
        self.review_action.toggled.connect(self.review_asked)
        # The review's changes, undone and redone from anywhere in the window (a text field's own Ctrl+Z, where one
        # has the focus, stays the field's); enabled while a review is on.
        self.review_undo = edit.addAction("&Undo review change")
        self.review_undo.setShortcut(QKeySequence.StandardKey.Undo)
        self.review_redo = edit.addAction("Re&do review change")
        self.review_redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        for action in (self.review_undo, self.review_redo):
            action.setEnabled(False)
        return edit

    def _view_menu(self, show_settings: QAction) -> QMenu:
        view = QMenu("&View", self.parent_widget)
        show_settings.setShortcut(QKeySequence("F9"))
        show_settings.setText("&Scoring settings")  # the dock's title, with the menu's letter
        view.addAction(show_settings)
        return view

    def _tools_menu(self) -> QMenu:
        tools = QMenu("&Tools", self.parent_widget)
        tools.addAction("T&okenizer × case table…", self.open_tokenizer_table)
        tools.addAction("&Where metrics disagree…", self.open_disagree)
        tools.addAction("Word &accuracy by frequency…", self.open_word_accuracy)
        # The translator's tools by key (F8: a CAT tool's verify key).
        tools.addAction("&QA checks…", self.open_qa).setShortcut(QKeySequence("F8"))
        tools.addAction("&Scorecard…", self.open_scorecard).setShortcut(QKeySequence("Ctrl+Shift+L"))
        tools.addAction("T&riage: which segments need a human…", self.open_triage).setShortcut(
            QKeySequence("Ctrl+Shift+T"))
        return tools

    def _help_menu(self) -> QMenu:
        help_menu = QMenu("&Help", self.parent_widget)
        help_menu.addAction("&Getting started", lambda: self.open_page("getting-started"))
        help_menu.addAction("&Keyboard shortcuts", lambda: self.open_page("shortcuts"))
        help_menu.addAction("How &BLEU is computed", self.open_help)
        docs = help_menu.addMenu("&Documentation")
        folder = docs_folder()
        for n, (name, title) in enumerate(DOC_PAGES, 1):
            action = docs.addAction(f"&{n} {title}", functools.partial(self.open_doc, name))
            action.setEnabled(folder is not None and (folder / name).is_file())
        if folder is None:
            docs.setToolTip("The pages are in the docs/ folder of the source repository")
        help_menu.addSeparator()
        help_menu.addAction("&About bleu-gui", lambda: self.open_page("about"))
        return help_menu

    # -- what they open ---------------------------------------------------------------------------------------
    def open_tokenizer_table(self) -> TokenizerTableDialog | None:
        """Score the shown run under every tokenizer × case in a worker; A/B from Compare when systems are
        compared."""
        run = self.controller.run
        if run is None:
            self.message.emit("Open files first: the table scores the open corpus", 4000)
            return None
        if not run.references:
            self.message.emit(NO_REFERENCE.format(what="The table compares BLEU under each tokenizer"), 6000)
            return None
        if find_bleu(run.metrics) is None:
            self.message.emit("The table compares BLEU under each tokenizer: score BLEU first", 4000)
            return None
        pair = (0, self.controller.b) if run.comparison is not None else None
        dialog = TokenizerTableDialog(self.parent_widget, run, pair, self.controller.state)
        dialog.saved.connect(self.exported)
        dialog.failed.connect(self.failed)
        dialog.show()
        self.tokenizer_dialog = dialog
        return dialog

    def open_page(self, page: str) -> HelpPage:
        """Show a help page; its links can open the demo or File ▸ Open."""
        title, html = _PAGES[page]

        def act(name: str) -> None:
            if name == "open-demo":
                self.open_demo_asked.emit()
            elif name == "open-files":
                self.open_files_asked.emit()

        dialog = HelpPage(self.parent_widget, title, html(), act)
        dialog.show()
        self.help_dialog = dialog
        return dialog

    def _open_segment(self, system: int, sentence: int) -> None:
        self.segment_asked.emit(system, sentence)

    def _shown(self, dialog: ToolDialog) -> ToolDialog:
        """A Tools dialog computed in a worker, shown and kept alive; its failure is the window's error dialog."""
        dialog.failed.connect(self.failed)
        dialog.show()
        self.tool_dialog = dialog
        return dialog

    def open_qa(self) -> QADialog | None:
        """The translator QA checks of the shown run, computed in a worker; a click opens the flagged segment."""
        run = self.controller.run
        if run is None:
            self.message.emit("Open files first: the QA checks read the systems and their source", 4000)
            return None
        return self._shown(QADialog(self.parent_widget, run, self._open_segment, self.controller.state,
                                    self.qa_decisions(), self.qa_checks_off(), self.remember_qa_checks_off))

    def open_scorecard(self) -> ScorecardDialog | None:
        """The reviewer's scorecard of the shown run's human error annotations (the weights editable)."""
        run = self.controller.run
        if run is None or not run.annotated:
            self.message.emit("The scorecard counts human-marked errors: open MQM annotations, or mark errors "
                              "yourself (Edit ▸ Mark errors…)", 6000)
            return None
        dialog = ScorecardDialog(self.parent_widget, run, self.controller.state)
        dialog.saved.connect(self.exported)
        dialog.failed.connect(self.failed)
        dialog.show()
        self.tool_dialog = dialog
        return dialog

    def open_triage(self) -> TriageDialog | None:
        """The segments of a system a metric (a QE metric, without references) says need a human; written for
        post-editing; a click opens the segment."""
        run = self.controller.run
        if run is None:
            self.message.emit("Open files first: the triage sorts a system's segments by a metric", 4000)
            return None
        dialog = TriageDialog(self.parent_widget, run, self._open_segment, self.controller.state,
                              self.controller.system, self.controller.metric, self.qa_decisions(),
                              self.qa_checks_off())
        dialog.ask_humans.connect(self.open_ask_humans)
        dialog.saved.connect(self.exported)
        dialog.failed.connect(self.failed)
        dialog.show()
        self.tool_dialog = dialog
        return dialog

    def open_disagree(self) -> DisagreeDialog | None:
        """Two metrics' segment scores of a system against each other; a click opens the segment in Inspect."""
        run = self.controller.run
        if run is None or len(run.metrics) < 2:
            add = ("COMET, an LLM judge or MQM in the settings (the run has no reference)" if run is not None
                   and not run.references else "chrF or TER in the settings")
            self.message.emit(f"Where metrics disagree needs two metrics: add {add}, or import segment scores (File "
                              "▸ Import segment scores…)", 6000)
            return None
        dialog = DisagreeDialog(self.parent_widget, run, self._open_segment, self.controller.system)
        dialog.ask_humans.connect(self.open_ask_humans)
        dialog.show()
        self.tool_dialog = dialog
        return dialog

    def open_ask_humans(self, handed: Selection | None = None) -> AskHumansDialog | None:
        """File ▸ Ask the humans…: a Pearmut campaign of the run's segments, the slice shown or ``handed`` (the
        segments another view listed)."""
        whole, shown = self.controller.whole_run, self.controller.run
        if whole is None or shown is None:
            self.message.emit("Open files first: a campaign asks the humans about a run's segments", 4000)
            return None
        if whole.context.source is None:
            self.message.emit("A campaign shows the raters the source: open the files with their source "
                              "(File ▸ Open…, Source)", 6000)
            return None
        selections, chosen = offered(whole, shown, handed)
        dialog = AskHumansDialog(self.parent_widget, whole, selections, self.controller.state, chosen)
        dialog.written.connect(self.campaign_written)  # a failure is said in the dialog itself
        dialog.show()
        self.ask_dialog = dialog  # kept apart from the tool dialog that may have handed it the segments
        return dialog

    def open_word_accuracy(self) -> WordAccuracyDialog | None:
        """compare-mt's word accuracy by frequency of the shown run, computed in a worker."""
        run = self.controller.run
        if run is None:
            self.message.emit("Open files first: word accuracy compares the systems with a reference", 4000)
            return None
        if not run.references:
            self.message.emit(NO_REFERENCE.format(what="Word accuracy compares the systems' words with a reference"),
                              6000)
            return None
        return self._shown(WordAccuracyDialog(self.parent_widget, run, self._open_segment))

    def open_doc(self, page: str) -> DocPage | None:
        """A documentation page, in the app (see :class:`DocPage`)."""
        folder = docs_folder()
        if folder is None:
            return None
        dialog = DocPage(self.parent_widget, folder, page)
        dialog.show()
        self.help_dialog = dialog
        return dialog

    def open_help(self) -> QDialog:
        """Help ▸ How BLEU is computed, with the numbers of the sentence on screen."""
        c, run = self.controller, self.controller.run
        sentence = c.sentence
        where = (f"Sentence {run.line_number(sentence)} of {run.systems[c.system].name}"
                 if run is not None and sentence is not None else "")
        self.help_dialog = show_help(self.parent_widget, self.explanation(), where)
        return self.help_dialog

    def close_all(self) -> None:
        """The window closes: so does the tokenizer table (its worker stops with it)."""
        if self.tokenizer_dialog is not None:
            self.tokenizer_dialog.close()
