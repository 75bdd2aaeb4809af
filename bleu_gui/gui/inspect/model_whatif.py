"""What-if through the model: while a candidate is edited (F2), every metric of the run that scores a variant
through its model (COMET's worker) scores the edited segment again, beside BLEU's instant what-if.

A key typed restarts a short wait (the debounce); then one request goes, for the sentence and text of that moment
(its ids travel with it). While one is with the model no other is sent: the newest text waits in its place and goes
when the model answers, so ten keys typed during a slow answer cost two requests, never ten. An answer is kept by
the text it scored — an answer for a text since typed over is never shown as the current one — and the metric's
cache keeps every text scored, so an edit typed back is read, not scored again.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from ...core import Run
from ...core.output.score_text import delta_text, score_text
from ...core.run.model_whatif import ModelWhatIf, model_metrics, model_whatif, score_edit
from ..controller import Controller
from ..jobs import JobController
from ..widgets.elided_label import ElidedLabel
from ..widgets.layout import single_shot
from .candidate_editor import CandidateEditor

DEBOUNCE_MS = 350  # a pause this long in typing sends the text to the model


@dataclass(frozen=True)
class _Asked:
    """One request: the run it is of, the metrics asked, the sentence (of the run shown) and its text."""

    run: Run
    metrics: tuple[int, ...]
    sentence: int
    text: str


class ModelWhatIfLine(QObject):
    """The line under the what-if bar that says what the model makes of the edits. Signals: ``requested(sentence,
    text)`` when a request goes to the model, ``answered(sentence, text)`` when its scores are in, ``shown(text)``
    when the line changes."""

    requested = Signal(int, str)
    answered = Signal(int, str)
    shown = Signal(str)

    def __init__(self, controller: Controller, editor: CandidateEditor, parent: QObject,
                 debounce_ms: int = DEBOUNCE_MS):
        super().__init__(parent)
        self.controller, self.editor = controller, editor
        self.label = ElidedLabel("")
        self.label.setObjectName("modelWhatIf")
        self.label.setVisible(False)
        self.jobs = JobController(self, exclusive=False)
        self._timer = single_shot(self, debounce_ms, self._send)
        self._scores: dict[tuple[int, int, str], float] = {}  # (metric, sentence, text) -> the model's score
        self._asked: _Asked | None = None  # the request with the model now
        self._waiting = False  # a newer text waits for the model's answer to the one with it
        self._failure = ""
        editor.typed.connect(self._on_typed)
        editor.reverted.connect(lambda _sentence: self.refresh())
        controller.sentence_changed.connect(lambda _sentence: self.refresh())

    # -- following the run ---------------------------------------------------------------------------
    def attach(self) -> None:
        """Another run or system is shown: nothing of the one before carries over; its edits are scored anew
        (from the cache where they were scored)."""
        self.cancel()
        self._scores.clear()
        self._failure = ""
        self._send()

    def cancel(self) -> None:
        """Drop the request with the model (its answer, if it comes, is never shown) and what waits."""
        self._timer.stop()
        self.jobs.cancel()
        self._asked, self._waiting = None, False
        self.refresh()

    @property
    def busy(self) -> bool:
        return self._asked is not None or self._timer.isActive()

    # -- asking the model ----------------------------------------------------------------------------
    def _metrics(self) -> tuple[int, ...]:
        run = self.controller.run
        return tuple(model_metrics(run)) if run is not None else ()

    def _on_typed(self, _sentence: int, _line: object) -> None:
        self._failure = ""
        self._timer.start()
        self.refresh()

    def _next_wanted(self) -> tuple[int, str] | None:
        """The edit the model has not scored yet: the sentence on screen first, then the others edited."""
        w, metrics = self.editor.whatif, self._metrics()
        if w is None or not metrics:
            return None
        shown = self.controller.sentence
        order = ([shown] if shown in w.texts else []) + [i for i in sorted(w.texts) if i != shown]
        return next(((i, w.texts[i]) for i in order
                     if any((k, i, w.texts[i]) not in self._scores for k in metrics)), None)

    def _send(self) -> None:
        if not self.label.window().isVisible():  # the window closed: nothing more is asked of the model
            return
        if self._asked is not None:
            self._waiting = True
            return
        wanted, run = self._next_wanted(), self.controller.run
        if wanted is None or run is None or self._failure:
            self.refresh()
            return
        asked = _Asked(run, self._metrics(), *wanted)
        self._asked, self._waiting = asked, False
        self.jobs.submit(lambda progress: score_edit(asked.run, asked.metrics, asked.sentence, asked.text, progress),
                         lambda scores: self._landed(asked, scores), lambda message, _details: self._failed(asked, message))
        self.requested.emit(asked.sentence, asked.text)
        self.refresh()

    def _landed(self, asked: _Asked, scores: dict[int, float]) -> None:
        if asked is not self._asked:
            return  # cancelled: another run is shown
        self._asked = None
        for k, score in scores.items():
            self._scores[k, asked.sentence, asked.text] = score
        self.answered.emit(asked.sentence, asked.text)
        self._send()  # the text that waited, or an edit not scored yet

    def _failed(self, asked: _Asked, message: str) -> None:
        if asked is not self._asked:
            return
        self._asked, self._waiting = None, False
        self._failure = message
        self.refresh()

    # -- saying it -----------------------------------------------------------------------------------
    def whatifs(self) -> list[tuple[int, ModelWhatIf | None]]:
        """Each model metric's what-if for the sentence on screen (None: its score of the text is not in yet)."""
        run, w, sentence = self.controller.run, self.editor.whatif, self.controller.sentence
        if run is None or w is None or sentence is None or sentence not in w.texts:
            return []
        found: list[tuple[int, ModelWhatIf | None]] = []
        for k in self._metrics():
            scored = {i: self._scores[k, i, text] for i, text in w.texts.items() if (k, i, text) in self._scores}
            found.append((k, model_whatif(run, k, self.controller.system, sentence, scored, len(w.texts))
                          if sentence in scored else None))
        return found

    def refresh(self) -> None:
        run = self.controller.run
        parts, signatures = [], []
        for k, made in self.whatifs():
            assert run is not None
            metric = run.metrics[k]
            if made is None:
                parts.append(f"{metric.name} scoring the edit…")
                continue
            d = metric.decimals
            counted = "" if made.scored_edits == made.edits else \
                f" ({made.scored_edits} of {made.edits} edits scored so far)"
            parts.append(f"{metric.name} {score_text(made.segment_before, d)} → <b>{score_text(made.segment_after, d)}"
                         f"</b> ({delta_text(made.segment_after - made.segment_before, d)}) · corpus "
                         f"{score_text(made.corpus_before, d)} → {score_text(made.corpus_after, d)}{counted}")
            signatures.append(made.signature)
        if self._failure:
            parts.append(f"the model could not score the edit: {self._failure}")
        text = ("What-if through the model: " + " · ".join(parts)) if parts else ""
        if signatures:
            text += " · " + " · ".join(signatures)
        self.label.setToolTip("\n".join(signatures))
        if text != self.label.text():
            self.label.setText(text)
            self.shown.emit(text)
        self.label.setVisible(bool(text))
