"""Inspect's review mode: a reviewer marks the errors of the candidate on screen (MQM: Minor, Major or Critical
and a category of the typology; ESA: Minor or Major, then a 0–100 score per segment), each change written at once
to the review file (core.output.review_file) and scored at once (MQM, error recall, Compare, meta-evaluation follow).

Keys, with the candidate or the source pane focused (select a span with the mouse or Shift+arrows): 1 Minor, 2 Major,
3 Critical (MQM), the category from the list beside (C focuses it; Enter or Esc hands the focus back, the selection
kept). With nothing selected the first severity key asks and the second marks an error without a span — never
silently. 0 or Enter: the segment is reviewed (in ESA with a score given: a segment starts unscored, and 0 refuses
an unscored one), on to the next unreviewed one; N: the next unreviewed without a verdict; Delete: the mark under
the cursor (else the segment's last); + and − move the ESA score by 5 (from 0 when unscored); S: to the source pane
and back (an omission: select the missing words of the shown sentence's source, in bold, then the severity);
Edit ▸ Undo and Redo (Ctrl+Z, Ctrl+Shift+Z), from anywhere in the window, write the file back as it was.
Suggestions (Suggestions…: another file's spans, dashed): A accepts the first, E accepts it with the span selected
and the category chosen, R rejects it; each decision is written with the suggestion's source. Every control of the
desk hands the focus back to the pane it came from when it is done."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import QFileDialog, QMenu, QWidget

from ...core import Run
from ...core.errors import ExportError, InputError
from ...core.inputs.ratings import SOURCE, TARGET
from ...core.metrics.account import plural
from ...core.output.exports import write_atomic
from ...core.output.review_file import (
    ESA_SEVERITIES,
    Mark,
    Review,
    default_typology,
    esa_with,
    ratings_with,
    read_typology,
)
from ..controller import Controller
from ..widgets.context_pane import ContextPane
from ..widgets.panes import SentencePanes, utf16_offsets
from . import review_suggestions as sources
from .review_controls import KEYS, UNSCORED, ReviewControls
from .review_focus import DeskFocus
from .review_marks import code_point, mark_selections
from .segment_clock import SegmentClock
from .sentence_model import SentenceTableModel

MQM, ESA = "mqm", "esa"


def marked_now() -> str:
    """The time a mark is made, as its row keeps it (the LQA report's time): ISO 8601, UTC, to the second."""
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat()
NO_CATEGORY = "Category…"  # the category list's first entry: none chosen yet for this segment


@dataclass
class SegmentDesk:
    """The desk's state for the one segment on screen: which segment (its system's name in the file and 1-based
    line), the ESA score given for it (its recorded one when it has a verdict, else unscored) and the severity a
    key asked to mark without a span. A new one, empty, for each segment shown: nothing given on one segment is
    ever filed on another — a key's action reads the segment from here, with its score."""

    key: tuple[str, int]
    score: int = UNSCORED
    armed: str | None = None


class ReviewBar(QObject):
    """See the module. ``bar``: the row of controls over the panes (hidden until a review starts). Signals:
    ``changed()`` after every change written, ``failed(message)`` when the file cannot be written (nothing is
    lost: the review keeps the state the file holds), ``told(message)`` a line for the status bar (a key refused,
    a question), ``active(on)`` when a review starts or stops."""

    changed = Signal()
    failed = Signal(str)
    told = Signal(str)
    active = Signal(bool)

    def __init__(self, controller: Controller, panes: SentencePanes, list_model: SentenceTableModel,
                 context: ContextPane, parent: QWidget):
        super().__init__(parent)
        self.controller, self.panes, self.list_model, self.context = controller, panes, list_model, context
        # Suggested spans (another rater's, xCOMET's, an LLM judge's) per (system name, 1-based segment).
        self.suggestions: dict[tuple[str, int], list[Mark]] = {}
        self.review: Review | None = None
        self.mode = MQM
        self.heading = ""
        self.clock = SegmentClock()  # the seconds spent on each segment, while shown in the active window
        self.desk: SegmentDesk | None = None  # the segment on screen's desk (see SegmentDesk)
        self.last_path: str | None = None  # the review file last written on these files
        self._build_controls()
        self.focus = DeskFocus(panes, context, self.bar, lambda: self.review is not None, self.told.emit, self)
        self.shortcuts = self._keys()
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):
            app.applicationStateChanged.connect(self._on_application_state)
        controller.sentence_changed.connect(self.on_sentence_changed)
        controller.system_changed.connect(self.on_sentence_changed)
        controller.run_changed.connect(self.refresh)

    def _build_controls(self) -> None:
        """The bar's controls (:class:`ReviewControls`), each acting here and handing the focus back."""
        self.bar = ReviewControls()
        self.title, self.category, self.comment = self.bar.title, self.bar.category, self.bar.comment
        self.score, self.score_box, self.severity_buttons = self.bar.score, self.bar.score_box, self.bar.severity_buttons
        for severity, button in self.severity_buttons.items():
            button.clicked.connect(self._then_back(self._marker(severity)))
        self.bar.done_button.clicked.connect(self._then_back(self.done))
        self.score_box.valueChanged.connect(self._on_score_given)
        self.bar.suggest_button.clicked.connect(self._then_back(self.ask_suggestions))
        self.bar.marot_button.clicked.connect(self._then_back(self.ask_marot))

    def _keys(self) -> list[QShortcut]:
        keys: list[tuple[str, Callable[[], object]]] = [(k, self._marker(s)) for k, s in KEYS.items()]
        keys += [("0", self.done), ("Return", self.done), ("Enter", self.done), ("N", self.next_unreviewed),
                 ("Delete", self.remove_mark), ("C", self.category.setFocus), ("+", lambda: self._nudge(5)),
                 ("=", lambda: self._nudge(5)), ("-", lambda: self._nudge(-5)), ("A", self.accept),
                 ("E", self.accept_edited), ("R", self.reject), ("S", self.focus.switch)]
        out = []
        for pane in (self.panes.candidate, self.context.view):  # the source: an omission's span
            for key, slot in keys:
                shortcut = QShortcut(QKeySequence(key), pane)
                shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)
                shortcut.activated.connect(slot)
                shortcut.setEnabled(False)
                out.append(shortcut)
        return out

    def _marker(self, severity: str) -> Callable[[], None]:
        return lambda: self.mark(severity)

    def _then_back(self, action: Callable[[], object]) -> Callable[[], None]:
        def run() -> None:
            action()
            self.focus.back()
        return run

    @Slot(Qt.ApplicationState)
    def _on_application_state(self, state: Qt.ApplicationState) -> None:
        if state == Qt.ApplicationState.ApplicationActive:
            self.clock.resume()
        else:
            self.clock.pause()  # the seconds are those the reviewer spent on the segment, not away from it

    # -- starting and stopping ---------------------------------------------------------------------
    def start(self, path: str | Path, rater: str, mode: str = MQM, typology: str | Path | None = None) -> None:
        """Review into ``path`` (its rater's marks resumed when it exists) as ``rater``; ``mode`` MQM or ESA;
        ``typology``: a typology file (one category per line), else MQM's core. :class:`InputError` for a file that
        cannot be read (nothing is written then)."""
        run = self.controller.whole.run if self.controller.whole is not None else None
        protected = run.input_paths() if run is not None else ()
        esa = mode == ESA
        categories = (read_typology(Path(typology).read_text(encoding="utf-8"), str(typology)) if typology
                      else default_typology())
        name = Path(typology).name if typology else ("esa" if esa else "mqm-core")
        self.review = Review.open(path, rater, name, protected)
        self.last_path = str(path)  # Mark errors… proposes it again (resumed, never split in two)
        resumed = bool(self.review.state.marks or self.review.state.verdicts)
        self.mode = mode
        self.category.clear()
        self.category.addItem(NO_CATEGORY)
        self.category.addItems(list(categories))
        self.category.setMinimumContentsLength(min(30, max(map(len, categories))))  # long ones whole, the comment kept
        self.severity_buttons["Critical"].setVisible(not esa)
        self.category.setVisible(not esa)  # ESA marks severities only (Kocmi et al. 2024)
        for widget in (self.score, self.score_box):
            widget.setVisible(esa)
        self.heading = f"{'ESA' if esa else 'MQM'} review by {rater} → {Path(path).name}"
        self.title.setText(self.heading)
        self.bar.setToolTip(f"Every change is written to {path} at once (the input files are never touched)")
        self.panes.set_show_tokens(False)  # offsets are of the text as it is, never of its tokens
        self.focus.enter()
        for shortcut in self.shortcuts:
            shortcut.setEnabled(True)
        self.bar.setVisible(True)
        self.active.emit(True)
        self.desk = None
        self._ticks()
        if resumed:
            self.first_unreviewed()  # where the reviewer left off
        self._segment_shown()
        self.show_marks()
        self._rescore(always=True)  # the run scored with the file's marks, and with MQM when the settings add it
        self.panes.candidate.setFocus()

    def stop(self) -> None:
        """Leave review mode (the file holds every change already)."""
        self.review = None
        self.desk = None
        self.bar.setVisible(False)
        self.active.emit(False)
        for shortcut in self.shortcuts:
            shortcut.setEnabled(False)
        self.clock.show(None)
        self.focus.leave()
        self.list_model.set_reviewed(set())

    # -- where the reviewer is ---------------------------------------------------------------------------
    def _run(self) -> Run | None:
        return self.controller.run

    def system_name(self, run: Run, system: int) -> str:
        """The name a mark gives its system: the file's field (a table's system), else the file's name when no
        other system has it, else the display name — each read back by ``--annotations``."""
        f = run.systems[system].file
        if f.field:
            return f.field
        if sum(s.file.path.name == f.path.name for s in run.systems) == 1:
            return f.path.name
        return run.systems[system].name

    def _where(self) -> tuple[Run, int, str, int, int] | None:
        """(run, system, its name in the file, the 1-based segment, the sentence) on screen."""
        run, sentence = self._run(), self.controller.sentence
        if self.review is None or run is None or sentence is None:
            return None
        system = self.controller.system
        return run, system, self.system_name(run, system), run.line_number(sentence), sentence

    def _selection(self) -> tuple[str, int, int] | None:
        """The selected span, (side, start, end) in code points: of the source when the source pane has the focus
        and a selection inside the shown sentence's source, else of the candidate; None when nothing is selected."""
        view = self.context.view
        if self.focus.last_pane is view and view.textCursor().hasSelection():
            cursor, at = view.textCursor(), self.context.source_at
            units = utf16_offsets(view.toPlainText())
            start, end = code_point(units, cursor.selectionStart()), code_point(units, cursor.selectionEnd())
            if at is None or not at[0] <= start <= end <= at[0] + len(at[1]):
                self.failed.emit("Select the omitted words inside the shown sentence's source (in bold)")
                return None
            return SOURCE, start - at[0], end - at[0]
        cursor = self.panes.candidate.textCursor()
        if not cursor.hasSelection():
            return None
        units = utf16_offsets(self.panes.candidate.toPlainText())
        return TARGET, code_point(units, cursor.selectionStart()), code_point(units, cursor.selectionEnd())

    # -- changes ---------------------------------------------------------------------------------------------
    def _write(self, change: Callable[[Review], object]) -> bool:
        review = self.review
        if review is None:
            return False
        try:
            change(review)
        except (ExportError, InputError) as exc:
            self.failed.emit(str(exc))
            return False
        self._apply()
        self.changed.emit()
        return True

    @Slot()
    def mark(self, severity: str) -> None:
        """Mark the selected span (no selection: an error without a span) as ``severity``, on the segment on
        screen, of the category chosen for it (MQM: one is chosen for each segment, never carried over)."""
        where, desk = self._where(), self.desk
        if where is None or desk is None or (self.mode == ESA and severity not in ESA_SEVERITIES):
            return
        name, segment = desk.key
        if self.mode == MQM and self.category.currentIndex() <= 0:
            self.told.emit(f"Choose the error's category first: C, then the arrows and Enter (a category is chosen "
                           f"for each error of segment {segment})")
            return
        span = self._selection()
        if span is None and desk.armed != severity:
            # A mark without a span is never made by a key pressed with nothing selected unawares: asked first.
            desk.armed = severity
            key = next(k for k, s in KEYS.items() if s == severity)
            self.told.emit(f"Nothing is selected: press {key} again to mark a {severity} error without a span (the "
                           "whole segment), or select the words first (S: the source pane, for an omission)")
            return
        desk.armed = None
        mark = Mark(name, segment, severity, self.category.currentText() if self.mode == MQM else "",
                    span[1] if span else None, span[2] if span else None, span[0] if span else TARGET,
                    self.comment.text().strip(), time=marked_now())
        if self._write(lambda r: r.add(mark)):
            self.comment.clear()

    @Slot()
    def done(self) -> None:
        """The segment on screen is reviewed (ESA: with the score given for it); then the next unreviewed one."""
        desk = self.desk
        if self._where() is None or desk is None:
            return
        name, segment = desk.key
        if self.mode == ESA and desk.score == UNSCORED:
            self.told.emit("This segment has no ESA score yet: give it one (+ and − move it by 5 from 0, or type it "
                           "in the score box), then 0 or Enter")
            return
        esa = float(desk.score) if self.mode == ESA else None
        seconds = self.clock.take(desk.key)
        if self._write(lambda r: r.judge(name, segment, esa, seconds)):
            self.next_unreviewed()

    @Slot(int)
    def _on_score_given(self, value: int) -> None:
        """The score box changed (a key, a click, typing): the score of the segment whose desk is shown."""
        if self.desk is not None:
            self.desk.score = value

    @Slot()
    def next_unreviewed(self) -> None:
        where = self._where()
        if where is None or self.review is None:
            return
        run, _system, name, _segment, sentence = where
        done = self.review.state.reviewed(name, scored=self.mode == ESA)
        # The sentences shown (a slice shows some lines only) after this one, wrapping round.
        for i in [*range(sentence + 1, run.n_sentences), *range(0, sentence + 1)]:
            if run.line_number(i) not in done:
                self.controller.set_sentence(i)
                return

    def first_unreviewed(self) -> None:
        """The first segment shown that the reviewer has not reviewed (a resumed review starts there)."""
        where = self._where()
        if where is None or self.review is None:
            return
        run, _system, name, _segment, _sentence = where
        done = self.review.state.reviewed(name, scored=self.mode == ESA)
        first = next((i for i in range(run.n_sentences) if run.line_number(i) not in done), None)
        if first is not None:
            self.controller.set_sentence(first)

    @Slot()
    def remove_mark(self) -> None:
        where = self._where()
        if where is None or self.review is None:
            return
        _run, _system, name, segment, _sentence = where
        marks = self.review.state.marks_of(name, segment)
        if not marks:
            return
        units = utf16_offsets(self.panes.candidate.toPlainText())
        at = code_point(units, self.panes.candidate.textCursor().position())
        under = [m for m in marks if m.start is not None and m.end is not None and m.start <= at < m.end]
        chosen = (under or marks)[-1]
        self._write(lambda r: r.remove(chosen))

    @Slot()
    def undo(self) -> None:
        self._write(lambda r: r.undo())

    @Slot()
    def redo(self) -> None:
        self._write(lambda r: r.redo())

    def _nudge(self, by: int) -> None:
        if self.desk is not None:  # the score of the segment on screen: unscored counts from 0
            self.score_box.setValue(min(100, max(0, max(0, self.desk.score) + by)))

    # -- suggestions ---------------------------------------------------------------------------------------------
    def _names(self, run: Run) -> list[str]:
        return [self.system_name(run, i) for i in range(len(run.systems))]

    def load_suggestions(self, path: str | Path) -> int:
        """Spans from another file (anything ``--annotations`` reads: another rater's MQM, xCOMET's spans, an LLM
        judge's JSON Lines, ESA) shown as dashed suggestions; the number read. :class:`InputError` as the reader
        says."""
        whole = self.controller.whole
        if whole is None:
            return 0
        self.suggestions = sources.from_file(whole.run, self._names(whole.run), path)
        self.show_marks()
        return sum(len(v) for v in self.suggestions.values())

    def marot(self) -> str:
        """The review as Marot's TSV of the whole run's texts."""
        whole, review = self.controller.whole, self.review
        if whole is None or review is None:
            return ""
        return sources.marot(whole.run, self._names(whole.run), review)

    @Slot()
    def ask_marot(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self.bar, "The review as Marot's TSV", "review.tsv", "TSV (*.tsv)")
        if not path or self.controller.whole is None:
            return
        try:
            write_atomic(path, self.marot(), self.controller.whole.run.input_paths())
        except ExportError as exc:
            self.failed.emit(str(exc))

    def suggesting_metrics(self) -> list[tuple[int, str]]:
        """The run's metrics that name errors (an LLM judge, xCOMET): (index, name)."""
        whole = self.controller.whole
        return sources.suggesting_metrics(whole.run) if whole is not None else []

    def suggestions_from_metric(self, k: int) -> int:
        """The errors the run's metric ``k`` names shown as dashed suggestions, as a file's are; the number shown."""
        whole = self.controller.whole
        if whole is None:
            return 0
        self.suggestions = sources.from_metric(whole.run, self._names(whole.run), k)
        self.show_marks()
        n = sum(len(v) for v in self.suggestions.values())
        self.heading += f" · {n:,} suggestions from {whole.run.metrics[k].name}"
        self._ticks()
        return n

    @Slot()
    def ask_suggestions(self) -> None:
        """Where the suggestions come from: a metric of the run that names errors (the LLM judge), or a file."""
        metrics = self.suggesting_metrics()
        if metrics:
            menu = QMenu(self.bar)
            for k, name in metrics:
                menu.addAction(f"The run's {name}", partial(self.suggestions_from_metric, k))
            menu.addAction("A file of error spans…", self.ask_suggestion_file)
            menu.exec(self.bar.suggest_button.mapToGlobal(self.bar.suggest_button.rect().bottomLeft()))
            return
        self.ask_suggestion_file()

    def ask_suggestion_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.bar, "Suggested spans", "",
                                              "Annotations (*.jsonl *.json *.tsv);;All files (*)")
        if not path:
            return
        try:
            n = self.load_suggestions(path)
        except InputError as exc:
            self.failed.emit(str(exc))
            return
        self.heading += f" · {n:,} suggestions from {Path(path).name}"
        self._ticks()

    def pending(self) -> list[Mark]:
        """The suggestions of the segment on screen the reviewer has neither accepted nor rejected."""
        where = self._where()
        if where is None or self.review is None:
            return []
        state = self.review.state
        decided = {(m.start, m.end, m.side, m.suggested_by) for m in (*state.marks, *state.rejected)}
        return [s for s in self.suggestions.get((where[2], where[3]), [])
                if (s.start, s.end, s.side, s.suggested_by) not in decided]

    @Slot()
    def accept(self) -> None:
        """Take the segment's first pending suggestion as the reviewer's own (its source kept). In MQM one that
        names no category (xCOMET's spans) takes the category chosen, and waits for one when none is."""
        pending = self.pending()
        if not pending:
            return
        first = pending[0]
        if self.mode == MQM and not first.category:
            if self.category.currentIndex() <= 0:
                self.told.emit(f"{first.suggested_by}'s suggestion names no category: choose one (C), then A")
                return
            first = replace(first, category=self.category.currentText())
        self._write(lambda r: r.add(first))

    @Slot()
    def accept_edited(self) -> None:
        """Take the first pending suggestion with the span selected and the category chosen (its source kept)."""
        pending, span = self.pending(), self._selection()
        if not pending:
            return
        first = pending[0]
        chosen = self.mode == MQM and self.category.currentIndex() > 0
        edited = replace(first, category=self.category.currentText() if chosen else first.category,
                         start=span[1] if span else first.start, end=span[2] if span else first.end,
                         side=span[0] if span else first.side)
        self._write(lambda r: r.change(replace(r.state, marks=(*r.state.marks, edited),
                                               rejected=(*r.state.rejected, first))))

    @Slot()
    def reject(self) -> None:
        pending = self.pending()
        if pending:
            self._write(lambda r: r.reject(pending[0]))

    # -- what is shown ----------------------------------------------------------------------------------
    @Slot(int)
    def on_sentence_changed(self, _sentence: int) -> None:
        if self.review is not None:
            self._segment_shown()
            self.show_marks()

    def _segment_shown(self) -> None:
        """A segment is on screen: its clock runs, and its desk starts empty — its ESA score the one recorded, else
        unscored (never the previous segment's), no category chosen, nothing armed."""
        where = self._where()
        key = (where[2], where[3]) if where is not None else None
        if key is not None and self.desk is not None and key == self.desk.key:
            return  # the same segment drawn again (its run scored again after a mark): what was given stays
        self.clock.show(key)
        if key is None:
            self.desk = None
            return
        verdict = self.review.state.verdict(*key) if self.review else None
        score = round(verdict.esa) if verdict is not None and verdict.esa is not None else UNSCORED
        self.desk = SegmentDesk(key, score)
        self.score_box.setValue(score)
        self.category.setCurrentIndex(0)

    @Slot()
    def refresh(self) -> None:
        if self.review is not None:
            self._ticks()
            self.show_marks()

    def _apply(self) -> None:
        """After a change: the ticks, the marks drawn, the status, and the run scored with the marks."""
        self._ticks()
        self.show_marks()
        self._rescore()

    def _ticks(self) -> None:
        run, review = self._run(), self.review
        if run is None or review is None:
            return
        name = self.system_name(run, self.controller.system)
        done = review.state.reviewed(name, scored=self.mode == ESA)
        self.list_model.set_reviewed({i for i in range(run.n_sentences) if run.line_number(i) in done})
        total = self.controller.whole.run.n_sentences if self.controller.whole is not None else run.n_sentences
        marks = sum(m.system == name for m in review.state.marks)
        self.title.setText(f"{len(done):,} of {total:,} reviewed · {plural(marks, 'error')} · {self.heading}")

    def show_marks(self) -> None:
        """The reviewer's spans, underlined in their severity's colour: on the candidate, and a source-side one
        (an omission) on the shown sentence's source."""
        where, pane = self._where(), self.panes.candidate
        if where is None or self.review is None or pane.editing:
            return
        shown = [(m, False) for m in self.review.state.marks_of(where[2], where[3])]
        pending = self.pending()
        shown += [(m, True) for m in pending]
        self._say_suggestion(pending)
        pane.setExtraSelections(mark_selections(pane, 0, pane.toPlainText(),
                                                 [(m, s) for m, s in shown if m.side == TARGET]))
        at = self.context.source_at
        self.context.view.setExtraSelections(
            mark_selections(self.context.view, at[0], at[1], [(m, s) for m, s in shown if m.side == SOURCE])
            if at is not None else [])

    def _say_suggestion(self, pending: list[Mark]) -> None:
        """The suggestion A, E and R act on, in words under the controls (one for the whole segment is drawn
        nowhere else)."""
        line = self.bar.suggestion
        if not pending:
            line.setVisible(False)
            return
        first, where = pending[0], self._where()
        text = self._text_of(first.side) if where is not None else ""
        span = (f"“{text[first.start:first.end]}”" if first.start is not None and first.end is not None
                and first.end > first.start else "the whole segment (no span)")
        if first.side == SOURCE and first.start is not None:
            span += " in the source"
        named = " · ".join(p for p in (first.category or "no category", first.severity, first.comment) if p)
        keys = "A takes it, E takes it as selected, R rejects it"
        line.setText(f"Suggestion 1 of {len(pending)} from {first.suggested_by}: {span} — {named}. {keys}")
        line.setVisible(True)

    def _text_of(self, side: str) -> str:
        if side == SOURCE:
            at = self.context.source_at
            return at[1] if at is not None else ""
        return self.panes.candidate.toPlainText()

    def _rescore(self, always: bool = False) -> None:
        whole, review = self.controller.whole, self.review
        run = self._run()
        if whole is None or review is None or run is None:
            return
        system = self.controller.system
        f = whole.run.systems[system].file
        source = whole.run.context.source
        name = self.system_name(whole.run, system)  # the reviewer's marks and ESA join the other raters'
        ratings = ratings_with(f.annotations, review.state, name, review.rater, f.lines,
                               source.lines if source is not None else None, review.path)
        scores = {ESA: esa_with(f.rated.get(ESA), review.state, name, review.rater, len(f.lines))} \
            if self.mode == ESA else {}
        if always or ratings != (f.annotations or (None,) * len(f.lines)) or any(
                f.scores.get(c) != v for c, v in scores.items()):
            self.controller.actions.reannotate(system, ratings, scores, str(review.path))
