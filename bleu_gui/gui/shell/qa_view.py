"""Tools ▸ QA checks: the translator checks on every system of the shown run (in the worker), their counts,
what each system fixes and introduces against the baseline, and the flags; a click opens the segment."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core import Run
from ...core.analysis.qa import CHECKS, Glossary, QAFlag, fixed_and_introduced, read_glossary, skipped_checks
from ...core.inputs.text_files import read_segments
from ..file_dialogs import ask_open
from ..jobs import JobController
from ..state import WindowState
from ..widgets.layout import STRETCH, hrow, resize_within_screen
from ..widgets.style import styled
from ..window_words import in_window_words, raw

ALL = "all"
WHICH = ("its flags", "fixed against the baseline", "introduced against the baseline")


def compute(run: Run, glossary: Glossary | None, progress: Callable[[float], None]) -> list[list[QAFlag]]:
    """Every system's flags (every check; the glossary's with a glossary); ``progress`` between systems, where a
    cancel stops it (a glossary chosen while the checks run starts them again)."""
    out = []
    for i in range(len(run.systems)):
        progress(i / len(run.systems))
        out.append(run.qa_flags(i, CHECKS, glossary))
    return out


class QADialog(QDialog):
    """``open_segment(system, sentence)`` opens a flagged segment. Signals: ``ready()``, ``failed(str)``."""

    ready = Signal()
    failed = Signal(str)

    def __init__(self, parent: QWidget, run: Run, open_segment: Callable[[int, int], None],
                 state: WindowState | None = None):
        super().__init__(parent)
        self.state = state  # where the glossary dialog starts
        self.setWindowTitle("QA checks")
        self.setObjectName("qaDialog")
        self.run, self.open_segment = run, open_segment
        self.flags: list[list[QAFlag]] = []
        self.note = QLabel("Checking…")
        self.note.setWordWrap(True)
        styled(self.note, "hint")
        self.counts = QTableWidget()
        self.counts.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.system = QComboBox()
        self.system.addItems([s.name for s in run.systems])
        self.check = QComboBox()
        self.check.addItems([ALL, *CHECKS])
        self.which = QComboBox()
        self.which.addItems(WHICH)
        self.which.setToolTip("Every flag of the system, or against the baseline: the flags it fixes (the baseline "
                              "has them, it has not) and the flags it introduces")
        self.glossary_button = QPushButton("Glossary…")
        self.glossary_button.setToolTip("A TSV of source term and target term(s): the glossary check")
        self.glossary_button.clicked.connect(self.on_glossary)
        self.list = QTableWidget()
        self.list.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.list.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.list.verticalHeader().setVisible(False)
        self.list.cellClicked.connect(self.on_flag_clicked)
        box = QVBoxLayout(self)
        box.addWidget(self.note)
        box.addWidget(self.counts, 2)
        box.addLayout(hrow("Flags of", self.system, "check", self.check, "show", self.which, STRETCH,
                           self.glossary_button))
        box.addWidget(self.list, 3)
        for combo in (self.system, self.check, self.which):
            combo.currentIndexChanged.connect(self.show_flags)
        resize_within_screen(self, 980, 640)
        self.jobs = JobController(self)
        self.jobs.failed.connect(lambda message, _details: self._failed(message))
        self.start(None)

    def start(self, glossary: Glossary | None) -> None:
        run = self.run
        self.glossary = glossary
        self.jobs.submit(lambda progress: compute(run, glossary, progress), self.show_result)

    def on_glossary(self) -> None:
        path = ask_open(self, self.state, "glossary", "Glossary (TSV: source term, target terms)")
        if path:
            try:
                self.start(read_glossary(path, "\n".join(read_segments(path).lines)))
            except Exception as exc:  # noqa: BLE001 - the reader's InputError, shown here
                self._failed(raw(exc))

    def _failed(self, message: str) -> None:
        self.note.setText(f"QA checks could not run: {message}")
        self.failed.emit(message)

    def show_result(self, flags: list[list[QAFlag]]) -> None:
        self.flags = flags
        skipped = skipped_checks(CHECKS, self.run.context.source is not None, self.glossary is not None,
                                 self.run.target_lines)
        self.note.setText("Segments flagged per check and system; against the baseline, the flags each system fixes "
                          "(−) and introduces (+). " + (in_window_words("; ".join(skipped)) + "." if skipped else "") +
                          " Slice by them: 'number' in qa[NAME] in the slice box.")
        names = [s.name for s in self.run.systems]
        self.counts.setRowCount(len(CHECKS))
        self.counts.setColumnCount(len(names))
        self.counts.setVerticalHeaderLabels(list(CHECKS))
        self.counts.setHorizontalHeaderLabels(names)
        for s, found in enumerate(flags):
            changes = fixed_and_introduced(flags[0], found) if s else {}
            for c, check in enumerate(CHECKS):
                n = len({f.segment for f in found if f.check == check})
                fixed, introduced = changes.get(check, ([], []))
                text = f"{n}" + (f"  (−{len(fixed)} +{len(introduced)})" if s and (fixed or introduced) else "")
                self.counts.setItem(c, s, QTableWidgetItem(text))
        self.counts.resizeColumnsToContents()
        self.show_flags()
        self.ready.emit()

    def show_flags(self, *_args: object) -> None:
        if not self.flags:
            return
        s, check, which = self.system.currentIndex(), self.check.currentText(), self.which.currentIndex()
        shown = [f for f in self.flags[s] if check == ALL or f.check == check]
        if which:  # fixed: the baseline's flags this system lacks; introduced: its flags the baseline lacks
            mine = {(f.check, f.segment) for f in self.flags[s]}
            theirs = {(f.check, f.segment) for f in self.flags[0]}
            pool = self.flags[0] if which == 1 else self.flags[s]
            other = mine if which == 1 else theirs
            shown = [f for f in pool if (check == ALL or f.check == check) and (f.check, f.segment) not in other]
        self.list.setColumnCount(3)
        self.list.setHorizontalHeaderLabels(["line", "check", "what"])
        self.list.setRowCount(len(shown))
        for r, f in enumerate(shown):
            for c, text in enumerate((str(self.run.line_number(f.segment)), f.check, f.detail)):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, f.segment)
                self.list.setItem(r, c, item)
        self.list.resizeColumnsToContents()

    def on_flag_clicked(self, row: int, _column: int) -> None:
        item = self.list.item(row, 0)
        if item is not None:
            self.open_segment(self.system.currentIndex(), int(item.data(Qt.ItemDataRole.UserRole)))
