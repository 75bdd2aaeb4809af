"""What a model holds against B, beside BLEU's n-gram wins: every word of B's candidates left out in turn and each
segment scored again through the model (COMET's worker and cache, one request for the run shown — the whole corpus,
a slice or a document), then the words whose erasure most often raises the score. Asked for, never computed
unasked (it costs N + 1 texts per segment of N words); the cost is said before, with progress and Cancel while it
runs; a click on a word lists the segments where leaving it out raised the score."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QModelIndex, Signal, Slot
from PySide6.QtGui import QStandardItem
from PySide6.QtWidgets import QComboBox, QVBoxLayout, QWidget

from ...core import Run
from ...core.analysis.erasure import Held, held_against
from ...core.run.erasure_run import corpus_erasure, splitting_name
from ...core.run.model_whatif import model_metrics
from ..controller import Controller
from ..widgets.item_tables import SORT, cell, fill, item_table, model_of, name_item, sortable
from ..widgets.job_progress import JobProgress
from ..widgets.layout import STRETCH, hrow
from .worker_panel import WorkerPanel

SHOWN = 30  # words listed


def _word(text: str) -> QStandardItem:
    item = name_item(text)
    item.setData(text.casefold(), SORT)
    return item


class ModelHolds(WorkerPanel):
    """See the module. Signal: ``sentences_chosen(sentences, why)`` when a word is clicked (the pair list shows
    them)."""

    sentences_chosen = Signal(object, str)
    found: tuple[int, int, list[Held]] | None  # (metric, B, the words)

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(controller, parent)
        self.metric_combo = QComboBox()
        self.metric_combo.setToolTip("The model whose score the erasure asks")
        self.button.clicked.connect(self.evaluate)
        self.progress = JobProgress(self.jobs)
        self.table = item_table("modelHoldsTable")
        sortable(self.table)  # by how often, by share, by the mean delta: frequent words lead the first order
        self.table.clicked.connect(self._word_chosen)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(hrow(self.metric_combo, self.button, self.progress, STRETCH))
        box.addWidget(self.note)
        box.addWidget(self.table, 1)
        controller.run_changed.connect(self.on_run_changed)
        controller.b_changed.connect(lambda _b: self.on_run_changed())

    @staticmethod
    def wanted(run: Run | None) -> bool:
        """Whether the run has a metric that scores variants through its model, and a B to ask about."""
        return run is not None and len(run.systems) > 1 and bool(model_metrics(run))

    def _cost(self, run: Run) -> str:
        """What the erasure costs, said before it is asked (counted without splitting B into words: that is the
        worker's, once asked)."""
        where = run.slice.summary if run.slice is not None else "the whole corpus"
        return (f"{run.n_sentences:,} segments of {where}: each scored again once for every word of "
                f"{run.systems[self.controller.b].name} and once whole (the cache reads what it has)")

    @Slot()
    def on_run_changed(self) -> None:
        run, b = self.controller.run, self.controller.b
        if self.found is not None and self._still_shown(run) and self.found[1] == b:
            return
        self.jobs.cancel()
        self.found = None
        model_of(self.table).clear()
        self.metric_combo.clear()
        if run is None or not self.wanted(run):
            self.button.setEnabled(False)
            self._ready("No metric of this run scores texts through a model (COMET): erasure needs one.")
            return
        for k in model_metrics(run):
            self.metric_combo.addItem(run.metrics[k].name, k)
        self.button.setText(f"What the model holds against {run.systems[b].name}")
        self._ready(f"Which words of B does the model object to most often? {self._cost(run)}.")

    @Slot()
    def evaluate(self) -> None:
        run, b, k = self.controller.run, self.controller.b, self.metric_combo.currentData()
        if run is None or k is None or not self.wanted(run):
            return
        self.button.setEnabled(False)
        self.note.setText(f"Leaving each word of {run.systems[b].name} out: {self._cost(run)}…")

        def work(progress: Callable[[float], None]) -> tuple[list[Held], int]:
            erased = corpus_erasure(run, k, b, progress=progress)
            return held_against(erased, SHOWN), sum(len(e.words) + 1 for _, e in erased)

        self.jobs.submit(work, lambda done: self._show(run, k, b, *done))

    def _show(self, run: Run, k: int, b: int, found: list[Held], texts: int) -> None:
        if not self._landed(run, (k, b, found)):
            return
        metric = run.metrics[k]
        d = metric.decimals
        rows = [[cell(f"{n + 1}", value=n), _word(h.word),
                 cell(f"{h.raised:,}", [int(s) for s in h.segments], f"where leaving “{h.word}” out raised {metric.name}",
                      value=h.raised),
                 cell(f"{h.occurrences:,}", value=h.occurrences),
                 cell(f"{h.raised / h.occurrences:.0%}", value=h.raised / h.occurrences),
                 cell(f"{h.mean_delta:+.{d}f}", value=h.mean_delta)]
                for n, h in enumerate(found)]
        fill(self.table, ["#", "word", "raised", "occurs", "share", f"mean Δ {metric.name}"], rows)
        name = run.systems[b].name
        if found:
            top = found[0]
            said = (f"{metric.name} holds “{top.word}” against {name} most often: leaving it out raised the score in "
                    f"{top.raised:,} of its {top.occurrences:,} occurrences (mean {top.mean_delta:+.{d}f}).")
        else:
            said = f"Leaving out no word of {name} raises {metric.name}."
        self._ready(f"{said} {texts:,} texts scored; words by {splitting_name(run)}; {metric.signature()}.")

    @Slot(QModelIndex)
    def _word_chosen(self, index: QModelIndex) -> None:
        if self.found is None:
            return
        _k, _b, words = self.found
        rank = model_of(self.table).item(index.row(), 0).data(SORT)  # the row's word, in whatever order shown
        held = words[int(rank)]
        sentences = np.array(held.segments, dtype=np.int64)
        self.sentences_chosen.emit(sentences, f"{len(sentences)} sentences where leaving “{held.word}” out raised "
                                              "the score")
        if len(sentences):
            self.controller.set_sentence(int(sentences[0]))
