"""The window's state in one place, after spikeinterface-gui's ``controller.py``.

The controller holds the run shown (the whole corpus or a slice of it) and the whole run it was cut from,
each with what the window computed for it (:class:`~.prepared.Prepared`); the system inspected, the sentence
shown, B (the system compared with the baseline), the metric and the n-gram order shown, and the ranking's
α and correction. Every change is a signal; views read the controller when told and keep no copies. Exports
and sessions read :meth:`Controller.view_state`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from PySide6.QtCore import QObject, Signal

from ..core import Run
from ..core.metrics.base import Metric
from ..core.output.rankings import Ranking
from .prepared import Prepared

FIRST_SENTENCE = 0


@dataclass(frozen=True)
class ViewState:
    """What the window shows beyond the run: what exports follow and a session remembers."""

    system: int = 0
    sentence: int | None = None
    b: int = 1
    metric: int = 0
    order: int = 1
    ranking: Ranking = Ranking()


class Controller(QObject):
    """See the module. Signals:

    - ``run_changed()``: another run is shown (:attr:`shown`, :attr:`whole`); the system, B and metric were made
      to fit it first, so views redraw everything once. No sentence is shown then: the sentence list opens
      :attr:`opening` (the sentence shown before, when the files are the same) on the next turn of the event loop,
      so the list and the sentence's panes are two shorter repaints instead of one long one;
    - ``system_changed(int)``, ``sentence_changed(int)`` (-1: none), ``b_changed(int)``, ``metric_changed(int)``,
      ``order_changed(int)``, ``ranking_changed(object)``: one part of the view state changed.
    """

    run_changed = Signal()
    system_changed = Signal(int)
    sentence_changed = Signal(int)
    b_changed = Signal(int)
    metric_changed = Signal(int)
    order_changed = Signal(int)
    ranking_changed = Signal(object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.shown: Prepared | None = None
        self.whole: Prepared | None = None
        self.state = ViewState()
        self.opening: int | None = None  # the sentence a new run opens on (see run_changed)

    # -- what is shown ---------------------------------------------------------------------------------
    @property
    def run(self) -> Run | None:
        return self.shown.run if self.shown is not None else None

    @property
    def whole_run(self) -> Run | None:
        return self.whole.run if self.whole is not None else None

    @property
    def system(self) -> int:
        return self.state.system

    @property
    def sentence(self) -> int | None:
        return self.state.sentence

    @property
    def b(self) -> int:
        return self.state.b

    @property
    def metric(self) -> int:
        return self.state.metric

    @property
    def order(self) -> int:
        return self.state.order

    @property
    def ranking(self) -> Ranking:
        return self.state.ranking

    @property
    def metric_object(self) -> Metric | None:
        run = self.run
        return run.metrics[self.state.metric] if run is not None else None

    def view_state(self) -> ViewState:
        return self.state

    # -- changes ---------------------------------------------------------------------------------------
    def show(self, shown: Prepared, whole: Prepared | None = None) -> None:
        """Show ``shown`` (``whole``: the whole run it is a slice of; by default it is the whole run itself).

        The same files keep the system, B and sentence; the metric of the same name stays the one shown.
        """
        before = self.run
        run = shown.run
        same_files = before is not None and [s.file for s in before.systems] == [s.file for s in run.systems]
        names = [m.name for m in run.metrics]
        metric_name = before.metrics[self.state.metric].name if before is not None else None
        metric = names.index(metric_name) if metric_name in names else 0
        system = min(self.state.system, len(run.systems) - 1) if same_files else 0
        b = min(max(self.state.b, 1), len(run.systems) - 1) if len(run.systems) > 1 else 1
        sentence = self.state.sentence if same_files and self.state.sentence is not None else None
        if sentence is not None and sentence >= run.n_sentences:
            sentence = None
        order = min(self.state.order, self._max_order(run)) if self.state.order > 0 else self.state.order
        self.state = ViewState(system, None, b, metric, order, self.state.ranking)
        self.opening = sentence
        self.shown = shown
        if run.slice is None:
            self.whole = shown
        elif whole is not None:
            self.whole = whole
        self.run_changed.emit()

    @staticmethod
    def _max_order(run: Run) -> int:
        bleu = run.bleu
        return bleu.config.max_order if bleu is not None else 4

    def release(self) -> None:
        """Show nothing (the window closes, or a run failed to open with nothing shown before)."""
        self.shown = self.whole = None

    def _set(self, state: ViewState) -> bool:
        if state == self.state:
            return False
        self.state = state
        return True

    def set_system(self, system: int) -> None:
        run = self.run
        if run is not None and 0 <= system < len(run.systems) and self._set(replace(self.state, system=system)):
            self.system_changed.emit(system)

    def set_sentence(self, sentence: int) -> None:
        run = self.run
        if run is not None and 0 <= sentence < run.n_sentences and self._set(replace(self.state, sentence=sentence)):
            self.sentence_changed.emit(sentence)

    def set_b(self, b: int) -> None:
        run = self.run
        if run is not None and 0 < b < len(run.systems) and self._set(replace(self.state, b=b)):
            self.b_changed.emit(b)

    def set_metric(self, metric: int) -> None:
        run = self.run
        if run is not None and 0 <= metric < len(run.metrics) and self._set(replace(self.state, metric=metric)):
            self.metric_changed.emit(metric)

    def set_order(self, order: int) -> None:
        if self._set(replace(self.state, order=order)):
            self.order_changed.emit(order)

    def set_ranking(self, ranking: Ranking) -> None:
        if self._set(replace(self.state, ranking=ranking)):
            self.ranking_changed.emit(ranking)
