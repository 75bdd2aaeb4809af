"""Tools ▸ QA checks: the translator checks on every system of the shown run (in the worker), their counts,
what each system fixes and introduces against the baseline, and the flags with their source and candidate; a click
(or Enter) opens the segment. Each check can be switched off (its box in the counts table; remembered), and a flag
marked a false positive (F) is kept in a file beside the review (core.output.qa_decisions), read again the next time,
shown apart and counted apart."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QKeySequence, QShortcut
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

from ...core import Run, palette
from ...core.analysis.qa import CHECKS, Glossary, QAFlag, fixed_and_introduced, read_glossary, skipped_checks
from ...core.errors import ExportError, InputError
from ...core.inputs.text_files import read_segments
from ...core.output.qa_decisions import QaDecisions
from ..file_dialogs import ask_open
from ..jobs import JobController
from ..state import WindowState
from ..widgets.layout import STRETCH, hrow, resize_within_screen
from ..widgets.style import styled
from ..window_words import in_window_words, raw

ALL = "all"
WHICH = ("its flags", "fixed against the baseline", "introduced against the baseline")
SHOWN_CHARACTERS = 90  # of a source or candidate in the list (the whole text in its tooltip)
FALSE_POSITIVE = " (false positive)"


def compute(run: Run, glossary: Glossary | None, progress: Callable[[float], None]) -> list[list[QAFlag]]:
    """Every system's flags (every check; the glossary's with a glossary); ``progress`` between systems, where a
    cancel stops it (a glossary chosen while the checks run starts them again)."""
    out = []
    for i in range(len(run.systems)):
        progress(i / len(run.systems))
        out.append(run.qa_flags(i, CHECKS, glossary))
    return out


def _cut(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= SHOWN_CHARACTERS else flat[:SHOWN_CHARACTERS - 1] + "…"


class QADialog(QDialog):
    """``open_segment(system, sentence)`` opens a flagged segment; ``decisions``: the file of false positives (None:
    none kept); ``checks_off``: the checks switched off, and ``on_checks_off(set)`` remembers a change. Signals:
    ``ready()``, ``failed(str)``."""

    ready = Signal()
    failed = Signal(str)

    def __init__(self, parent: QWidget, run: Run, open_segment: Callable[[int, int], None],
                 state: WindowState | None = None, decisions: Path | None = None,
                 checks_off: frozenset[str] = frozenset(), on_checks_off: Callable[[frozenset[str]], None] | None = None):
        super().__init__(parent)
        self.state = state  # where the glossary dialog starts
        self.setWindowTitle("QA checks")
        self.setObjectName("qaDialog")
        self.run, self.open_segment = run, open_segment
        self.flags: list[list[QAFlag]] = []
        self.off = set(checks_off)
        self.on_checks_off = on_checks_off
        self.decisions: QaDecisions | None = None
        self._decisions_problem = ""
        if decisions is not None:
            try:
                self.decisions = QaDecisions.open(decisions)
            except InputError as exc:
                self._decisions_problem = raw(exc)
        self._build(decisions)
        resize_within_screen(self, 1100, 680)
        self.jobs = JobController(self)
        self.jobs.failed.connect(lambda message, _details: self._failed(message))
        self._shown: list[QAFlag] = []
        self.start(None)

    def _build(self, decisions: Path | None) -> None:
        self.note = QLabel("Checking…")
        self.note.setWordWrap(True)
        styled(self.note, "hint")
        self.counts = QTableWidget()
        self.counts.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.counts.itemChanged.connect(self._on_check_switched)
        self.system = QComboBox()
        self.system.addItems([s.name for s in self.run.systems])
        self.check = QComboBox()
        self.check.addItems([ALL, *CHECKS])
        self.which = QComboBox()
        self.which.addItems(WHICH)
        self.which.setToolTip("Every flag of the system, or against the baseline: the flags it fixes (the baseline "
                              "has them, it has not) and the flags it introduces")
        self.false_positive = QPushButton("False positive (F)")
        self.false_positive.setToolTip("Mark the selected flag a false positive (again: take it back): kept in "
                                       f"{decisions if decisions is not None else 'no file'}, read again next time")
        self.false_positive.clicked.connect(self.toggle_false_positive)
        self.false_positive.setEnabled(self.decisions is not None)
        self.glossary_button = QPushButton("Glossary…")
        self.glossary_button.setToolTip("A TSV of source term and target term(s): the glossary check")
        self.glossary_button.clicked.connect(self.on_glossary)
        self.list = QTableWidget()
        self.list.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.list.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.list.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.list.verticalHeader().setVisible(False)
        self.list.cellClicked.connect(self.on_flag_clicked)
        self.list.cellActivated.connect(self.on_flag_clicked)
        QShortcut(QKeySequence("F"), self.list, self.toggle_false_positive)
        box = QVBoxLayout(self)
        box.addWidget(self.note)
        box.addWidget(self.counts, 2)
        box.addLayout(hrow("Flags of", self.system, "check", self.check, "show", self.which, STRETCH,
                           self.false_positive, self.glossary_button))
        box.addWidget(self.list, 3)
        for combo in (self.system, self.check, self.which):
            combo.currentIndexChanged.connect(self.show_flags)

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

    # -- what a flag is --------------------------------------------------------------------------------------------
    def _is_false_positive(self, flag: QAFlag, system: int) -> bool:
        return self.decisions is not None and self.decisions.is_false_positive(
            flag, self.run.line_number(flag.segment), self.run.systems[system].lines[flag.segment])

    def _counted(self, system: int) -> list[QAFlag]:
        """A system's flags of the checks switched on, false positives left out."""
        return [f for f in self.flags[system] if f.check not in self.off and not self._is_false_positive(f, system)]

    # -- the counts ------------------------------------------------------------------------------------------------
    def show_result(self, flags: list[list[QAFlag]]) -> None:
        self.flags = flags
        self._show_counts()
        self.show_flags()
        self.ready.emit()

    def _show_counts(self) -> None:
        skipped = skipped_checks(CHECKS, self.run.context.source is not None, self.glossary is not None,
                                 self.run.target_lines)
        marked = sum(self._is_false_positive(f, s) for s, found in enumerate(self.flags) for f in found)
        kept = (f" {marked:,} flags marked false positives, left out of the counts (kept in "
                f"{self.decisions.path.name})." if marked and self.decisions is not None else "")
        problem = f" The false positives could not be read: {self._decisions_problem}." if self._decisions_problem \
            else ""
        self.note.setText("Segments flagged per check and system; against the baseline, the flags each system fixes "
                          "(−) and introduces (+). Untick a check to leave it out. " +
                          (in_window_words("; ".join(skipped)) + "." if skipped else "") + kept + problem +
                          " Slice by them: 'number' in qa[NAME] in the slice box.")
        names = [s.name for s in self.run.systems]
        self.counts.blockSignals(True)
        self.counts.setRowCount(len(CHECKS))
        self.counts.setColumnCount(len(names) + 1)
        self.counts.setVerticalHeaderLabels(list(CHECKS))
        self.counts.setHorizontalHeaderLabels(["on", *names])
        counted = [self._counted(s) for s in range(len(self.flags))]
        for c, check in enumerate(CHECKS):
            switch = QTableWidgetItem()
            switch.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            switch.setCheckState(Qt.CheckState.Unchecked if check in self.off else Qt.CheckState.Checked)
            switch.setData(Qt.ItemDataRole.UserRole, check)
            self.counts.setItem(c, 0, switch)
            for s, found in enumerate(counted):
                changes = fixed_and_introduced(counted[0], found) if s else {}
                n = len({f.segment for f in found if f.check == check})
                fixed, introduced = changes.get(check, ([], []))
                text = "off" if check in self.off else f"{n}" + (
                    f"  (−{len(fixed)} +{len(introduced)})" if s and (fixed or introduced) else "")
                self.counts.setItem(c, s + 1, QTableWidgetItem(text))
        self.counts.blockSignals(False)
        self.counts.resizeColumnsToContents()

    def _on_check_switched(self, item: QTableWidgetItem) -> None:
        check = item.data(Qt.ItemDataRole.UserRole)
        if item.column() != 0 or check not in CHECKS:
            return
        if item.checkState() == Qt.CheckState.Checked:
            self.off.discard(check)
        else:
            self.off.add(check)
        if self.on_checks_off is not None:
            self.on_checks_off(frozenset(self.off))
        self._show_counts()
        self.show_flags()

    # -- the flags -------------------------------------------------------------------------------------------------
    def show_flags(self, *_args: object) -> None:
        if not self.flags:
            return
        s, check, which = self.system.currentIndex(), self.check.currentText(), self.which.currentIndex()

        def wanted(f: QAFlag) -> bool:
            return (check == ALL or f.check == check) and f.check not in self.off

        shown = [f for f in self.flags[s] if wanted(f)]
        if which:  # fixed: the baseline's flags this system lacks; introduced: its flags the baseline lacks
            mine = {(f.check, f.segment) for f in self.flags[s]}
            theirs = {(f.check, f.segment) for f in self.flags[0]}
            pool = self.flags[0] if which == 1 else self.flags[s]
            other = mine if which == 1 else theirs
            shown = [f for f in pool if wanted(f) and (f.check, f.segment) not in other]
        owner = 0 if which == 1 else s
        # The false positives after the rest, greyed: marked once, never in the way again.
        shown.sort(key=lambda f: self._is_false_positive(f, owner))
        self._shown = shown
        source = self.run.context.source
        self.list.setColumnCount(5)
        self.list.setHorizontalHeaderLabels(["line", "check", "what", "source", "candidate"])
        self.list.setRowCount(len(shown))
        grey = QBrush(QColor(palette.MUTED))
        for r, f in enumerate(shown):
            marked = self._is_false_positive(f, owner)
            target = self.run.systems[owner].lines[f.segment]
            src = source.lines[f.segment] if source is not None else ""
            cells = (str(self.run.line_number(f.segment)), f.check + (FALSE_POSITIVE if marked else ""), f.detail,
                     _cut(src), _cut(target))
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, f.segment)
                if c >= 3:
                    item.setToolTip((src, target)[c - 3])
                if marked:
                    item.setForeground(grey)
                    font = QFont(item.font())
                    font.setItalic(True)
                    item.setFont(font)
                self.list.setItem(r, c, item)
        self.list.resizeColumnsToContents()
        # What the check says and the source are cut to their share (their tooltips hold them whole); the candidate
        # takes the width left, in view without scrolling sideways.
        for c, most in ((2, 280), (3, 300)):
            self.list.setColumnWidth(c, min(self.list.columnWidth(c), most))
        self.list.horizontalHeader().setStretchLastSection(True)

    def toggle_false_positive(self) -> None:
        """Mark the selected flag a false positive, or take the mark back (written to the decisions file at once)."""
        row = self.list.currentRow()
        if self.decisions is None or not 0 <= row < len(self._shown):
            return
        owner = 0 if self.which.currentIndex() == 1 else self.system.currentIndex()
        flag = self._shown[row]
        line, target = self.run.line_number(flag.segment), self.run.systems[owner].lines[flag.segment]
        try:
            self.decisions.mark(flag, line, target, not self._is_false_positive(flag, owner),
                                tuple(self.run.input_paths()))
        except ExportError as exc:
            self._failed(str(exc))
            return
        self._show_counts()
        self.show_flags()
        self.list.setCurrentCell(min(row, self.list.rowCount() - 1), 0)

    def on_flag_clicked(self, row: int, _column: int) -> None:
        item = self.list.item(row, 0)
        if item is not None:
            self.open_segment(self.system.currentIndex(), int(item.data(Qt.ItemDataRole.UserRole)))
