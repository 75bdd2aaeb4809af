"""The Edit, Tools and Help menus: what-if editing, the tokenizer × case table, how BLEU is computed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog, QMenu

from ..inspect.explain_panel import show_help
from .tokenizer_table_view import TokenizerTableDialog

if TYPE_CHECKING:
    from .main_window import MainWindow


def add_menus(window: MainWindow) -> None:
    """Edit, Tools and Help menus after File; each action does nothing until a run is shown."""
    editor = window.inspect.detail.editor
    edit = QMenu("&Edit", window)
    edit.addAction("Edit candidate in place (F2)", lambda: editor.edit_button.toggle())
    edit.addAction("Revert this sentence", editor.revert_sentence)
    edit.addAction("Revert all edits of this system", editor.revert_all)
    tools = QMenu("&Tools", window)
    tools.addAction("Tokenizer × case table…", lambda: open_tokenizer_table(window))
    help_menu = QMenu("&Help", window)
    help_menu.addAction("How BLEU is computed", lambda: open_help(window))
    for menu in (edit, tools, help_menu):
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


def open_help(window: MainWindow) -> QDialog:
    """Help ▸ How BLEU is computed, with the numbers of the sentence on screen."""
    c, run = window.controller, window.controller.run
    sentence = c.sentence
    where = (f"Sentence {run.line_number(sentence)} of {run.systems[c.system].name}"
             if run is not None and sentence is not None else "")
    window.help_dialog = show_help(window, window.inspect.detail.explain_panel.explanation, where)
    return window.help_dialog
