"""What-if editing in the Inspect view: edit a candidate in place (F2) and watch its scores move.

Edits are kept per system (its file and its field within the file: one WMT XML
holds many systems) and per segment of the whole corpus, so they survive
switching sentences, systems, settings and slices (each time they are
scored again under what is shown). Nothing is written until File ▸ Save edited
candidate as…, which writes a new file atomically and never over an input.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QPushButton, QWidget

from ...core import Run, SegmentFile
from ...core.analysis.orders import length_ratios
from ...core.analysis.whatif import ScoredLine, WhatIf, edited_lines
from ...core.errors import ExportError
from ...core.output.exports import write_atomic
from ...core.run import bleu_lines
from ..controller import Controller
from ..file_dialogs import ask_save
from ..widgets.elided_label import ElidedLabel
from ..widgets.layout import hrow
from ..widgets.panes import SentencePanes
from ..window_words import raw
from .sentence_model import SentenceTableModel

SystemKey = tuple[Path, str]  # a system: its file and its field within the file


def system_key(f: SegmentFile) -> SystemKey:
    return f.path, f.field


class CandidateEditor(QObject):
    """Signals: ``saved(path)`` after Save edited candidate as…, ``failed(message)``; ``typed(sentence, line)``
    when an edit was scored (show the sentence as ``line`` scores it) and ``reverted(sentence)`` (show the file's
    text again)."""

    saved = Signal(str)
    failed = Signal(str)
    typed = Signal(int, object)
    reverted = Signal(int)

    def __init__(self, controller: Controller, panes: SentencePanes, list_model: SentenceTableModel,
                 parent: QWidget):
        """``panes``: the panes this editor edits in; ``list_model``: the list that marks edited sentences;
        ``parent``: the view whose F2 toggles editing."""
        super().__init__(parent)
        self.controller, self.panes, self.list_model = controller, panes, list_model
        self.edits: dict[SystemKey, dict[int, str]] = {}  # system -> segment of the whole corpus -> edited text
        self.saved_edits: dict[SystemKey, dict[int, str]] = {}  # each system's edits as last saved to a file
        self.whatif: WhatIf | None = None
        self.shown_file: SegmentFile | None = None  # the file (and field) of the system the edits are of
        self._last: tuple[int, str, ScoredLine] | None = None
        self.edit_button = QPushButton("Edit candidate (F2)")
        self.edit_button.setCheckable(True)
        self.edit_button.setToolTip("Edit the candidate in place: highlights, sentence and corpus BLEU follow "
                                    "as you type (Ctrl+Z undoes typing; the files are never changed)")
        self.edit_button.toggled.connect(self.set_editing)
        self.revert_button = QPushButton("Revert sentence")
        self.revert_button.setToolTip("Back to the file's text for this sentence")
        self.revert_button.clicked.connect(self.revert_sentence)
        self.revert_all_button = QPushButton("Revert all")
        self.revert_all_button.setToolTip("Drop every edit of this system")
        self.revert_all_button.clicked.connect(self.revert_all)
        self.summary = ElidedLabel("")
        self.summary.setObjectName("whatIfSummary")
        # Its text changes at every key: it takes the rest of the row instead of asking for a new layout each time.
        self.bar = QWidget()
        row = hrow(self.edit_button, self.revert_button, self.revert_all_button, self.summary)
        row.setStretchFactor(self.summary, 1)
        row.setContentsMargins(0, 0, 0, 0)
        self.bar.setLayout(row)
        QShortcut(QKeySequence("F2"), parent, self.edit_button.toggle)
        panes.candidate_edited.connect(self.on_typed)
        self._update_summary()

    # -- which edits apply to what is shown -------------------------------------------
    def _whole_index(self, run: Run, i: int) -> int:
        return run.slice.rows[i] if run.slice is not None else i

    def forget(self) -> None:
        """Other files are shown: their edits would not belong to them."""
        self.edits.clear()
        self.saved_edits.clear()
        self.set_editing(False)

    def attach(self) -> None:
        """Score the controller's system's edits under the run shown and mark the list (files other than the
        ones edited forget their edits)."""
        run, system = self.controller.run, self.controller.system
        if run is None:
            return
        files = {system_key(s.file) for s in run.systems}
        for key in [k for k in self.edits if k not in files]:
            del self.edits[key]  # other files: a slice of the same files keeps its edits
        if run.bleu is None:
            self.whatif = None
            self._update_summary()
            return
        shown = {self._whole_index(run, i): i for i in range(run.n_sentences)} if run.slice is not None else None
        mine = self.edits.get(system_key(run.systems[system].file), {})
        local = {(shown[w] if shown is not None else w): text for w, text in mine.items()
                 if (w in shown if shown is not None else w < run.n_sentences)}
        self.whatif = WhatIf(bleu_lines(run, system), local)
        self.shown_file = run.systems[system].file
        self._last = None
        for i in self.whatif.texts:
            self._mark(i)
        self._update_summary()

    def _mark(self, sentence: int) -> None:
        w = self.whatif
        line = self.scored(sentence)
        if w is None or line is None:
            self.list_model.set_edited(sentence, None)
            return
        ratio = float(length_ratios(line.stats[:1], line.stats[1:2])[0])  # BLEU's [hyp_len, ref_len, ...]
        self.list_model.set_edited(sentence, (w.texts[sentence], self._shown_score(sentence, w.texts[sentence],
                                                                                   line.score), ratio))

    def _shown_score(self, sentence: int, text: str, bleu: float) -> float:
        """The edited sentence's score under the metric shown: BLEU's what-if score, another metric's account of
        the text (a score read from a file does not follow an edit: the file's stays)."""
        c, run = self.controller, self.controller.run
        if run is None or c.metric == run.bleu_index:
            return bleu
        metric, result = run.metrics[c.metric], run.systems[c.system].results[c.metric]
        explains = metric.of_system(run.systems[c.system].file, run.context.source)
        score = explains.account(sentence, text, result.stats[sentence], run.reference_names).score
        return float(result.sentences[sentence]) if score is None else score

    def remark(self) -> None:
        """Another metric is shown: the edited rows show their scores under it."""
        if self.whatif is not None:
            for i in self.whatif.texts:
                self._mark(i)

    def scored(self, sentence: int) -> ScoredLine | None:
        """The edited sentence as scored now, or None when it is not edited."""
        w = self.whatif
        if w is None or sentence not in w.texts:
            return None
        text = w.texts[sentence]
        if self._last is None or self._last[:2] != (sentence, text):
            self._last = (sentence, text, w.score_line(sentence, text))
        return self._last[2]

    # -- editing ----------------------------------------------------------------------
    def set_editing(self, on: bool) -> None:
        if self.edit_button.isChecked() != on:
            self.edit_button.setChecked(on)  # comes back here through toggled
            return
        self.panes.set_editing(on and self.whatif is not None)

    def on_typed(self, text: str) -> None:
        """The candidate pane's text changed under the user's hands: score it and show everything again."""
        w, sentence = self.whatif, self.controller.sentence
        if w is None or sentence is None:
            return
        line = w.set_text(sentence, text)
        self._last = (sentence, text, line)
        self._store(sentence)
        self.typed.emit(sentence, line)
        self._update_summary()

    def _store(self, sentence: int) -> None:
        w, run = self.whatif, self.controller.run
        assert w is not None and run is not None and self.shown_file is not None
        mine = self.edits.setdefault(system_key(self.shown_file), {})
        whole = self._whole_index(run, sentence)
        if sentence in w.texts:
            mine[whole] = w.texts[sentence]
        else:
            mine.pop(whole, None)
        self._mark(sentence)

    def revert_sentence(self) -> None:
        w, sentence = self.whatif, self.controller.sentence
        if w is None or sentence is None:
            return
        w.revert(sentence)
        self._store(sentence)
        self.reverted.emit(sentence)
        self._update_summary()

    def revert_all(self) -> None:
        """Drop every edit of the system and stop editing: the panes show the file's text, and say so."""
        w = self.whatif
        if w is None:
            return
        for sentence in list(w.texts):
            w.revert(sentence)
            self._store(sentence)
        self.set_editing(False)
        if self.controller.sentence is not None:
            self.reverted.emit(self.controller.sentence)
        self._update_summary()

    def refresh_buttons(self) -> None:
        w = self.whatif
        self.revert_all_button.setEnabled(w is not None and bool(w.texts))
        self.revert_button.setEnabled(w is not None and self.controller.sentence in w.texts)

    def _update_summary(self) -> None:
        w = self.whatif
        n = len(w.texts) if w is not None else 0
        self.refresh_buttons()
        if w is None or n == 0:
            self.summary.setText("")
            return
        before, after = w.system.corpus.score, w.corpus().score
        self.summary.setText(f"What-if: corpus BLEU {before:.2f} → <b>{after:.2f}</b> ({after - before:+.2f}) · "
                             f"{n} sentence{'s' if n != 1 else ''} edited")

    # -- saving -----------------------------------------------------------------------
    def edited_text(self, whole: Run, system: int) -> str:
        """The whole file of ``system`` (of the whole corpus's run) with its edits, one segment per line."""
        edits = self.edits.get(system_key(whole.systems[system].file), {})
        return "\n".join(edited_lines(whole.systems[system].lines, edits)) + "\n"

    def ask_save(self) -> None:
        """File ▸ Save edited candidate as…: the shown system's file with its edits, to a new file."""
        whole, w, run = self.controller.whole_run, self.whatif, self.controller.run
        if whole is None or w is None or run is None:
            return
        shown = self.shown_file
        if shown is None or not self.edits.get(system_key(shown)):
            self.failed.emit(f"Nothing of {run.systems[self.controller.system].name} is edited: edit a candidate "
                             "(F2) first")
            return
        self._ask_save(whole, system_key(shown))

    def _ask_save(self, whole: Run, key: SystemKey) -> bool:
        """Ask where to save the edits of the system ``key`` and save them; False when not saved (cancelled, or the
        write failed: said by ``failed``)."""
        system = next(i for i, s in enumerate(whole.systems) if system_key(s.file) == key)
        shown = whole.systems[system].file
        part = "".join(c if c.isalnum() or c in "-_." else "_" for c in shown.field)
        suggested = shown.path.stem + (f".{part}" if part else "") + ".edited.txt"
        target = ask_save(self.panes.window(), self.controller.state, "edited",
                          f"Save edited candidate of {whole.systems[system].name} as", suggested,
                          "Text, one segment per line (*.txt)")
        return bool(target) and self.save(target, whole, system)

    def unsaved(self) -> list[tuple[str, int]]:
        """Each system of the whole run whose edits are not saved as they are: its name and how many sentences."""
        whole = self.controller.whole_run
        if whole is None:
            return []
        return [(s.name, len(self.edits[system_key(s.file)])) for s in whole.systems
                if self.edits.get(system_key(s.file)) and self.edits[system_key(s.file)] != self.saved_edits.get(
                    system_key(s.file))]

    def save_unsaved(self) -> bool:
        """Save every system's unsaved edits, asking where for each; False as soon as one is not saved."""
        whole = self.controller.whole_run
        if whole is None:
            return True
        keys = [system_key(s.file) for s in whole.systems]
        return all(self._ask_save(whole, key) for key in keys
                   if self.edits.get(key) and self.edits[key] != self.saved_edits.get(key))

    def save(self, target: str, whole: Run, system: int) -> bool:
        """Write the system's file with its edits to ``target``; False (said by ``failed``) when it cannot be."""
        try:
            written = write_atomic(target, self.edited_text(whole, system), whole.input_paths())
        except ExportError as exc:
            self.failed.emit(raw(exc))
            return False
        key = system_key(whole.systems[system].file)
        self.saved_edits[key] = dict(self.edits.get(key, {}))
        self.saved.emit(str(written))
        return True
