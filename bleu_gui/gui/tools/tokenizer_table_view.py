"""Tools ▸ Tokenizer × case table: the open corpus under every tokenizer, cased and lowercased, in a worker."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QColor, QFont
from PySide6.QtWidgets import (
    QDialog,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core import Run, palette
from ...core.analysis.tokenizer_table import TokenizerTable, tokenizer_table
from ...core.errors import ExportError
from ...core.output.exports import write_atomic
from ...core.run import scored_already
from ..file_dialogs import ask_save
from ..jobs import JobController
from ..state import WindowState
from ..widgets.layout import STRETCH, hrow, resize_within_screen

FLIP_BG = QColor(palette.FLIP)
RANK_BG = QColor(palette.RANK_CHANGED)
EXPORTS = {"CSV": ("csv", "to_csv"), "JSON": ("json", "to_json"), "LaTeX": ("tex", "to_latex")}


class TokenizerTableDialog(QDialog):
    """Signals: ``ready()`` when the table is shown, ``saved(path)``, ``failed(message)``."""

    ready = Signal()
    saved = Signal(str)
    failed = Signal(str)

    def __init__(self, parent: QWidget, run: Run, pair: tuple[int, int] | None = None,
                 state: WindowState | None = None):
        super().__init__(parent)
        self.state = state  # where its exports start (the folder last used for tables)
        self.setObjectName("tokenizerTableDialog")
        # On a slice the numbers are the slice's: the title and the note say which one.
        self.scope = (f"the slice {run.slice.description} ({run.n_sentences:,} of {run.slice.total:,} sentences)"
                      if run.slice is not None else f"the whole corpus ({run.n_sentences:,} sentences)")
        self.setWindowTitle("Tokenizer × case — " + (f"slice {run.slice.description}" if run.slice is not None
                                                     else "whole corpus"))
        self.run, self.pair = run, pair
        self.table: TokenizerTable | None = None
        self.note = QLabel(f"Corpus BLEU of {len(run.systems)} system(s) under each tokenizer, cased and lowercased, "
                           f"on {self.scope} (scoring…)")
        self.note.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.grid = QTableWidget()
        self.grid.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.grid.verticalHeader().setVisible(False)
        self.signatures = QLabel("")
        self.signatures.setWordWrap(True)
        self.signatures.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = []
        for name in EXPORTS:
            button = QPushButton(f"Export {name}…")
            button.setEnabled(False)
            button.clicked.connect(lambda _c=False, name=name: self.ask_export(name))
            self.buttons.append(button)
        box = QVBoxLayout(self)
        box.addWidget(self.note)
        box.addWidget(self.progress)
        box.addWidget(self.grid, 1)
        box.addWidget(self.signatures)
        box.addLayout(hrow(STRETCH, *self.buttons))
        resize_within_screen(self, 860, 560)
        self.jobs = JobController(self)
        self.jobs.progress.connect(lambda f: self.progress.setValue(int(1000 * f)))
        self.jobs.failed.connect(lambda message, _details: self._failed(message))
        scored, references = scored_already(run), [r.lines for r in run.references]
        self.jobs.submit(lambda progress: tokenizer_table(scored, references, progress), self.show_table)

    def _failed(self, message: str) -> None:
        self.note.setText(f"The table could not be computed: {message}")
        self.failed.emit(message)

    def show_table(self, table: TokenizerTable) -> None:
        self.table = table
        self.progress.setVisible(False)
        names = table.systems
        flips = set(table.flips(*self.pair)) if self.pair is not None else set()
        pair_text = (f"; rows in red: the winner between {names[self.pair[0]]} and {names[self.pair[1]]} is not the "
                     "one under the current setting") if self.pair is not None else ""
        rank_text = "; a yellow ranking differs from the current one" if len(names) > 1 else ""
        self.note.setText(f"Corpus BLEU on {self.scope} under each tokenizer; (±) is the change from the current "
                          f"setting, the row in bold{pair_text}{rank_text}. Each row is what sacreBLEU prints with "
                          "that -tok and -lc.")
        headers = ["tokenizer", "case", *names] + (["ranking"] if len(names) > 1 else [])
        self.grid.setColumnCount(len(headers))
        self.grid.setHorizontalHeaderLabels(headers)
        self.grid.setRowCount(len(table.settings))
        bold = QFont()
        bold.setBold(True)
        for r, setting in enumerate(table.settings):
            cells = [setting[0], "lowercased" if setting[1] else "cased"]
            for i, score in enumerate(table.scores[setting]):
                delta = "" if setting == table.current else f"  ({table.delta(setting, i):+.2f})"
                cells.append(f"{score:.2f}{delta}")
            if len(names) > 1:
                cells.append(" > ".join(names[i] for i in table.ranking(setting)))
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(table.signatures[setting])
                if setting == table.current:
                    item.setFont(bold)
                if c == len(headers) - 1 and len(names) > 1 and table.ranking(setting) != table.ranking(table.current):
                    item.setBackground(RANK_BG)
                    item.setToolTip(f"The ranking differs from the current setting's\n{table.signatures[setting]}")
                if setting in flips:
                    item.setBackground(FLIP_BG)
                    item.setToolTip(f"The winner between the pair changes here\n{table.signatures[setting]}")
                self.grid.setItem(r, c, item)
        self.grid.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.grid.horizontalHeader().setStretchLastSection(True)
        missing = "".join(f"<br>{tok}: not available ({why})" for tok, why in table.unavailable.items())
        self.signatures.setText("Hover a row for its signature. The flores tokenizers fetch a model at run time and "
                                f"are left out.{missing}")
        for button in self.buttons:
            button.setEnabled(True)
        self.ready.emit()

    def ask_export(self, kind: str) -> None:
        ext, _method = EXPORTS[kind]
        path = ask_save(self, self.state, "table", f"Export tokenizer table ({kind})", f"tokenizer-table.{ext}",
                        f"{kind} (*.{ext})")
        if path:
            self.export(path, kind)

    def export(self, path: str, kind: str) -> None:
        """Write the table as ``kind`` (CSV, JSON or LaTeX) atomically; never over an input."""
        assert self.table is not None
        text = getattr(self.table, EXPORTS[kind][1])()
        try:
            written = write_atomic(path, text, self.run.input_paths())
        except ExportError as exc:
            self.failed.emit(str(exc))
            return
        self.saved.emit(str(written))

    def done(self, result: int) -> None:
        self.jobs.shutdown()
        super().done(result)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.jobs.shutdown()
        super().closeEvent(event)
