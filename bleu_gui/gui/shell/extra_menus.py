"""The Edit, Tools and Help menus: what-if editing, the tokenizer × case table, getting started, shortcuts,
how BLEU is computed, the documentation and About."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QKeySequence
from PySide6.QtWidgets import QDialog, QMenu

from ..inspect.explain_panel import show_help
from .disagree_view import DisagreeDialog
from .help_pages import DOC_PAGES, HelpPage, about_html, docs_folder, getting_started_html, shortcuts_html
from .qa_view import QADialog
from .tokenizer_table_view import TokenizerTableDialog
from .word_accuracy_view import WordAccuracyDialog

ToolDialog = TypeVar("ToolDialog", QADialog, WordAccuracyDialog)

if TYPE_CHECKING:
    from .main_window import MainWindow


def add_menus(window: MainWindow) -> None:
    """Edit, Tools and Help menus after File; each action does nothing until a run is shown."""
    editor = window.inspect.detail.editor
    edit = QMenu("&Edit", window)
    edit.addAction("Edit candidate in place (F2)", lambda: editor.edit_button.toggle())
    edit.addAction("Revert this sentence", editor.revert_sentence)
    edit.addAction("Revert all edits of this system", editor.revert_all)
    view = QMenu("&View", window)
    show_settings = window.settings_dock.toggleViewAction()
    show_settings.setShortcut(QKeySequence("F9"))
    view.addAction(show_settings)
    tools = QMenu("&Tools", window)
    tools.addAction("Tokenizer × case table…", lambda: open_tokenizer_table(window))
    tools.addAction("Where metrics disagree…", lambda: open_disagree(window))
    tools.addAction("Word accuracy by frequency…", lambda: open_word_accuracy(window))
    tools.addAction("QA checks…", lambda: open_qa(window))
    help_menu = QMenu("&Help", window)
    help_menu.addAction("&Getting started", lambda: open_page(window, "getting-started"))
    help_menu.addAction("&Keyboard shortcuts", lambda: open_page(window, "shortcuts"))
    help_menu.addAction("How &BLEU is computed", lambda: open_help(window))
    docs = help_menu.addMenu("&Documentation")
    folder = docs_folder()
    for name, title in DOC_PAGES:
        page = (folder or Path(sys.prefix) / "share" / "bleu-gui" / "docs") / name
        action = docs.addAction(title, _opener(page))
        action.setEnabled(page.is_file())
    if folder is None:
        docs.setToolTip("The pages are in the docs/ folder of the source repository")
    help_menu.addSeparator()
    help_menu.addAction("&About bleu-gui", lambda: open_page(window, "about"))
    for menu in (edit, view, tools, help_menu):
        window.menuBar().addMenu(menu)


def open_tokenizer_table(window: MainWindow) -> TokenizerTableDialog | None:
    """Score the shown run under every tokenizer × case in a worker; A/B from Compare when systems are compared."""
    run = window.controller.run
    if run is None:
        window.statusBar().showMessage("Open files first: the table scores the open corpus", 4000)
        return None
    if run.bleu is None:
        window.statusBar().showMessage("The table compares BLEU under each tokenizer: score BLEU first", 4000)
        return None
    pair = (0, window.controller.b) if run.comparison is not None else None
    dialog = TokenizerTableDialog(window, run, pair)
    dialog.saved.connect(window.on_exported)
    dialog.failed.connect(window.show_error)
    dialog.show()
    window.tokenizer_dialog = dialog
    return dialog


def _opener(page: Path) -> Callable[[], None]:
    def open_it() -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(page)))
    return open_it


_PAGES = {"getting-started": ("Getting started", getting_started_html), "shortcuts": ("Keyboard shortcuts", shortcuts_html),
          "about": ("About bleu-gui", about_html)}


def open_page(window: MainWindow, page: str) -> HelpPage:
    """Show a help page; its links can open the demo or File ▸ Open."""
    title, html = _PAGES[page]

    def act(name: str) -> None:
        if name == "open-demo":
            window.run_actions.open_demo("en")
        elif name == "open-files":
            window.on_open_triggered()

    dialog = HelpPage(window, title, html(), act)
    dialog.show()
    window.help_dialog = dialog
    return dialog


def _open_segment(window: MainWindow) -> Callable[[int, int], None]:
    def open_segment(system: int, sentence: int) -> None:
        window.tabs.setCurrentIndex(0)
        window.controller.set_system(system)
        window.controller.set_sentence(sentence)
    return open_segment


def _shown(window: MainWindow, dialog: ToolDialog) -> ToolDialog:
    """A Tools dialog computed in a worker, shown and kept alive; its failure is the window's error dialog."""
    dialog.failed.connect(window.show_error)
    dialog.show()
    window.tool_dialog = dialog
    return dialog


def open_qa(window: MainWindow) -> QADialog | None:
    """The translator QA checks of the shown run, computed in a worker; a click opens the flagged segment."""
    run = window.controller.run
    if run is None:
        window.statusBar().showMessage("Open files first: the QA checks read the systems and their source", 4000)
        return None
    return _shown(window, QADialog(window, run, _open_segment(window)))


def open_disagree(window: MainWindow) -> DisagreeDialog | None:
    """Two metrics' segment scores of a system against each other; a click opens the segment in Inspect."""
    run = window.controller.run
    if run is None or len(run.metrics) < 2:
        window.statusBar().showMessage("Where metrics disagree needs two metrics: add chrF or TER in the settings, "
                                       "or import segment scores (File ▸ Import segment scores…)", 6000)
        return None

    dialog = DisagreeDialog(window, run, _open_segment(window), window.controller.system)
    dialog.show()
    window.tool_dialog = dialog
    return dialog


def open_word_accuracy(window: MainWindow) -> WordAccuracyDialog | None:
    """compare-mt's word accuracy by frequency of the shown run, computed in a worker."""
    run = window.controller.run
    if run is None:
        window.statusBar().showMessage("Open files first: word accuracy compares the systems with a reference", 4000)
        return None
    return _shown(window, WordAccuracyDialog(window, run, _open_segment(window)))


def open_help(window: MainWindow) -> QDialog:
    """Help ▸ How BLEU is computed, with the numbers of the sentence on screen."""
    c, run = window.controller, window.controller.run
    sentence = c.sentence
    where = (f"Sentence {run.line_number(sentence)} of {run.systems[c.system].name}"
             if run is not None and sentence is not None else "")
    window.help_dialog = show_help(window, window.inspect.detail.explain_panel.explanation, where)
    return window.help_dialog
