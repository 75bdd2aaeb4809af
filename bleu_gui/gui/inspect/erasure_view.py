"""Which words move a neural score, under the chosen metric's evidence (COMET): the candidate's and the source's
words shaded by what leaving each out does to the model's score, what the other witnesses marked on the same words,
and the score's account in words (:mod:`...core.run.erasure_run`).

The segment on screen is erased after a short pause (arrow keys through the list send nothing until they rest);
one request is with the model at a time, each carrying the metric, system and sentence it is of, and an answer is
kept under those — never shown for another sentence. The metric's cache keeps every text scored: a segment
erased before is read, not scored again.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from PySide6.QtCore import Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QCheckBox, QTextBrowser, QVBoxLayout, QWidget

from ...core import Run
from ...core.analysis.erasure import Erasure
from ...core.output.erasure_marks import erasure_html, legend_html
from ...core.run.erasure_run import in_words, segment_erasure, witnesses, words_said
from ..controller import Controller
from ..jobs import JobController
from ..widgets.elided_label import ElidedLabel
from ..widgets.layout import hrow, single_shot
from ..widgets.style import styled
from .human_errors import show_link_tip

PAUSE_MS = 250  # the list at rest this long: the segment on screen is erased

Key = tuple[int, int, int]  # (metric, system, sentence) of the run shown


@dataclass(frozen=True)
class _Asked:
    run: Run
    key: Key


class ErasureView(QWidget):
    """See the module. Signals: ``requested(system, sentence)`` when an erasure goes to the model,
    ``answered(system, sentence)`` when it is in, ``first_shown()`` the first time it is on screen (its splitter
    gives it room then: it was laid out hidden)."""

    requested = Signal(int, int)
    answered = Signal(int, int)
    first_shown = Signal()
    _shown_before = False

    def __init__(self, controller: Controller, parent: QWidget | None = None, pause_ms: int = PAUSE_MS):
        super().__init__(parent)
        self.controller = controller
        self.title = styled(ElidedLabel(""), "paneTitle")
        self.enabled = QCheckBox("Explain by erasure")
        self.enabled.setChecked(True)
        self.enabled.setToolTip("Leave each word out and score the segment again through the model (N + 1 texts "
                                "for N words; the cache keeps them)")
        self.enabled.toggled.connect(lambda _on: self.refresh())
        self.view = QTextBrowser()
        self.view.setObjectName("erasureView")
        self.view.setOpenLinks(False)
        self.view.highlighted.connect(show_link_tip)
        self.view.setMinimumHeight(3 * self.view.fontMetrics().lineSpacing() + 8)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        row = hrow(self.title, self.enabled)
        row.setStretchFactor(self.title, 1)
        box.addLayout(row)
        box.addWidget(self.view, 1)
        self.jobs = JobController(self, exclusive=False)
        self._timer = single_shot(self, pause_ms, self._send)
        self._found: dict[Key, list[Erasure]] = {}
        self._failed: dict[Key, str] = {}
        self._asked: _Asked | None = None
        controller.run_changed.connect(self._on_run_changed)
        for signal in (controller.sentence_changed, controller.system_changed, controller.metric_changed):
            signal.connect(lambda *_args: self.refresh())

    @property
    def busy(self) -> bool:
        return self._asked is not None or self._timer.isActive()

    def _on_run_changed(self) -> None:
        """Another run: nothing of the one before is shown or kept (the metric's cache still has its texts)."""
        self._timer.stop()
        self.jobs.cancel()
        self._asked = None
        self._found.clear()
        self._failed.clear()
        self.refresh()

    def _current(self) -> Key | None:
        c, run = self.controller, self.controller.run
        if run is None or c.sentence is None or not 0 <= c.metric < len(run.metrics):
            return None
        if not run.metrics[c.metric].scores_variants:
            return None
        return c.metric, c.system, c.sentence

    def refresh(self) -> None:
        key = self._current()
        self.setVisible(key is not None)
        if key is None:
            return
        run = self.controller.run
        assert run is not None
        k, system, sentence = key
        self.title.setText(f"Which words move {run.metrics[k].name} — sentence {run.line_number(sentence)} · "
                           f"{words_said(run)}")
        if key in self._found:
            self.view.setHtml(self._html(run, key, self._found[key]))
        elif key in self._failed:
            self.view.setHtml(f"<p>The model could not erase this segment: {escape(self._failed[key])}</p>")
        elif not self.enabled.isChecked():
            self.view.setHtml("<p>Tick <i>Explain by erasure</i> to see which words move the score.</p>")
        else:
            self.view.setHtml(f"<p>Leaving each word out and scoring the segment again through the model "
                              f"({run.metrics[k].name})…</p>")
            self._timer.start()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if not self._shown_before:
            self._shown_before = True
            self.first_shown.emit()
        self.refresh()  # a segment chosen while another tab was shown is erased now

    def _send(self) -> None:
        key, run = self._current(), self.controller.run
        if not self.isVisible():  # another tab, or the window closed: nothing is asked of the model unseen
            return
        if self._asked is not None or key is None or run is None or not self.enabled.isChecked() \
                or key in self._found or key in self._failed:
            return
        asked = _Asked(run, key)
        self._asked = asked
        self.jobs.submit(lambda progress: segment_erasure(asked.run, *asked.key, progress=progress),
                         lambda found: self._landed(asked, found),
                         lambda message, _details: self._landed(asked, message))
        self.requested.emit(key[1], key[2])

    def _landed(self, asked: _Asked, found: list[Erasure] | str) -> None:
        if asked is not self._asked:
            return  # another run is shown
        self._asked = None
        if isinstance(found, str):
            self._failed[asked.key] = found
        else:
            self._found[asked.key] = found
        self.answered.emit(asked.key[1], asked.key[2])
        self.refresh()  # this segment's words, or the segment now on screen asked for

    def _html(self, run: Run, key: Key, found: list[Erasure]) -> str:
        k, system, sentence = key
        metric = run.metrics[k]
        d = metric.decimals
        marked = witnesses(run, system, sentence)
        parts = []
        for erasure in found:
            side = "Candidate" if erasure.side == "target" else "Source"
            n = len(erasure.words)
            parts.append(f"<p><b>{side}</b> ({n} word{'s' if n != 1 else ''}):<br>"
                         f"{erasure_html(erasure, d, marked)}</p>")
        parts.append(f"<p style='color:gray'>{legend_html(d)}</p>")
        said = in_words(run, k, system, sentence, found, d)
        parts.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in said) + "</ul>")
        return "".join(parts)
