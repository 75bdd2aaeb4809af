"""The window's state in one place, after spikeinterface-gui's ``controller.py``.

The controller holds the run shown (the whole corpus or a slice of it) and the whole run it was cut from,
each with what the window computed for it (:class:`~.prepared.Prepared`), and the Qt-free
:class:`~.state.WindowState`: what was opened, the scoring settings and where they came from, and the view (the
system inspected, the sentence shown, B, the metric and n-gram order shown, the ranking's α and correction).
Every change goes through the controller and is a signal; views read the controller when told and keep no copies.
Exports and sessions read :meth:`Controller.view_state` and :meth:`Controller.session`.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Signal

from ..core import Run
from ..core.metrics.base import Metric
from ..core.metrics.bleu.metric import find_bleu
from ..core.metrics.family import MetricConfig
from ..core.output.rankings import Ranking
from ..core.output.sessions import Session
from ..core.run import RunConfig
from .actions import Actions
from .prepared import Prepared, shows_the_same
from .state import OpenChoice, Scoring, ViewState, WindowState

FIRST_SENTENCE = 0


class Controller(QObject):
    """See the module. Signals:

    - ``run_changed()``: another run is shown (:attr:`shown`, :attr:`whole`); the system, B and metric were made
      to fit it first, so views redraw everything once. No sentence is shown then; the sentence of the same files
      is shown again at once after the signal (``sentence_changed``), and a new run's first one (:attr:`opening`)
      by the sentence list on the next turn of the event loop, two shorter repaints instead of one long one. Except
      while
      :attr:`same_view`: the run has the files, sentences and numbers of the metric shown of the one before, and
      only other metrics or the tests changed (a later stage of a staged open, a re-score that kept them), so the
      sentence stays and views of the shown metric and sentence keep what they drew;
    - ``system_changed(int)``, ``sentence_changed(int)`` (-1: none), ``b_changed(int)``, ``metric_changed(int)``,
      ``order_changed(int)``, ``ranking_changed(object)``: one part of the view state changed;
    - ``scoring_changed()``: the scoring settings changed (the settings panel follows);
    - ``scoring_proven(object)``: settings chosen in the window gave the run now shown (a tuple of metric
      settings: they are remembered from now on).
    """

    run_changed = Signal()
    system_changed = Signal(int)
    sentence_changed = Signal(int)
    b_changed = Signal(int)
    metric_changed = Signal(int)
    order_changed = Signal(int)
    ranking_changed = Signal(object)
    scoring_changed = Signal()
    scoring_proven = Signal(object)

    def __init__(self, scoring: Scoring, parent: QObject | None = None):
        super().__init__(parent)
        self.shown: Prepared | None = None
        self.whole: Prepared | None = None
        self.state = WindowState(scoring)
        self.actions = Actions()  # what views ask the window to do (the window fills it in)
        self.opening: int | None = None  # the sentence a new run opens on (see run_changed)
        self.same_view = False  # see run_changed

    # -- what is shown ---------------------------------------------------------------------------------
    @property
    def run(self) -> Run | None:
        return self.shown.run if self.shown is not None else None

    @property
    def whole_run(self) -> Run | None:
        return self.whole.run if self.whole is not None else None

    @property
    def system(self) -> int:
        return self.state.view.system

    @property
    def sentence(self) -> int | None:
        return self.state.view.sentence

    @property
    def b(self) -> int:
        return self.state.view.b

    @property
    def metric(self) -> int:
        return self.state.view.metric

    @property
    def order(self) -> int:
        return self.state.view.order

    @property
    def ranking(self) -> Ranking:
        return self.state.view.ranking

    @property
    def metric_object(self) -> Metric | None:
        run = self.run
        return run.metrics[self.state.view.metric] if run is not None else None

    def view_state(self) -> ViewState:
        return self.state.view

    @property
    def scoring(self) -> Scoring:
        return self.state.scoring

    @property
    def opened(self) -> OpenChoice:
        """What the run shown was opened from."""
        return self.state.opened

    def run_config(self) -> RunConfig:
        """What a job scores with now: the settings, and the metrics of the whole run's score files."""
        return self.state.run_config(self.whole_run)

    def session(self) -> Session:
        """The run shown as a session (its files, how they were read, names, B, settings)."""
        run = self.run
        assert run is not None  # asked for only with a run shown
        return self.state.session(run)

    # -- changes ---------------------------------------------------------------------------------------
    def show(self, shown: Prepared, whole: Prepared | None = None) -> None:
        """Show ``shown`` (``whole``: the whole run it is a slice of; by default it is the whole run itself).

        The same files keep the system, B and sentence; the metric of the same name stays the one shown.
        """
        before, view = self.run, self.state.view
        run = shown.run
        same_files = before is not None and [s.file for s in before.systems] == [s.file for s in run.systems]
        names = [m.name for m in run.metrics]
        metric_name = before.metrics[view.metric].name if before is not None else None
        metric = names.index(metric_name) if metric_name in names else 0
        system = min(view.system, len(run.systems) - 1) if same_files else 0
        b = min(max(view.b, 1), len(run.systems) - 1) if len(run.systems) > 1 else 1
        sentence = view.sentence if same_files and view.sentence is not None else None
        if sentence is not None and sentence >= run.n_sentences:
            sentence = None
        order = min(view.order, self._max_order(run)) if view.order > 0 else view.order
        same = (self.shown is not None and metric_name in names
                and shows_the_same(shown, self.shown, metric, view.metric))
        self.state.view = ViewState(system, view.sentence if same else None, b, metric, order, view.ranking)
        self.opening = None if same else sentence
        proven = self.state.shown(run)
        self.shown = shown
        if run.slice is None:
            self.whole = shown
        elif whole is not None:
            self.whole = whole
        if proven is not None:
            self.scoring_proven.emit(proven)
        self.same_view = same
        try:
            self.run_changed.emit()
        finally:
            self.same_view = False
        if same_files and not same and sentence is not None:
            # A re-score of the same files (a mark of the review desk's, another setting) shows the sentence at once,
            # never on a later turn of the event loop: a key pressed meanwhile acts on the segment on screen, and the
            # view never goes back to one the reviewer has left since.
            self.set_sentence(sentence)

    @staticmethod
    def _max_order(run: Run) -> int:
        found = find_bleu(run.metrics)
        return found[1].config.max_order if found is not None else 4

    def release(self) -> None:
        """Show nothing (the window closes, or a run failed to open with nothing shown before)."""
        self.shown = self.whole = None

    def _set(self, view: ViewState) -> bool:
        if view == self.state.view:
            return False
        self.state.view = view
        return True

    def set_system(self, system: int) -> None:
        run = self.run
        if run is not None and 0 <= system < len(run.systems) and self._set(replace(self.state.view, system=system)):
            self.system_changed.emit(system)

    def set_sentence(self, sentence: int) -> None:
        run = self.run
        if run is not None and 0 <= sentence < run.n_sentences and self._set(replace(self.state.view, sentence=sentence)):
            self.sentence_changed.emit(sentence)

    def set_b(self, b: int) -> None:
        run = self.run
        if run is not None and 0 < b < len(run.systems) and self._set(replace(self.state.view, b=b)):
            self.b_changed.emit(b)

    def set_metric(self, metric: int) -> None:
        run = self.run
        if run is not None and 0 <= metric < len(run.metrics) and self._set(replace(self.state.view, metric=metric)):
            self.metric_changed.emit(metric)

    def set_order(self, order: int) -> None:
        if self._set(replace(self.state.view, order=order)):
            self.order_changed.emit(order)

    def set_ranking(self, ranking: Ranking) -> None:
        if self._set(replace(self.state.view, ranking=ranking)):
            self.ranking_changed.emit(ranking)

    # -- what is opened and scored with -----------------------------------------------------------------
    def set_opened(self, opened: OpenChoice) -> None:
        """The run about to be shown was opened from ``opened``."""
        self.state.opened = opened

    def choose_scoring(self, metrics: tuple[MetricConfig, ...]) -> None:
        """Settings chosen in the window: jobs score with them from now; remembered once a run shows them."""
        self.state.choose(metrics)
        self.scoring_changed.emit()

    def set_scoring(self, metrics: tuple[MetricConfig, ...], origin: str) -> None:
        """Score with ``metrics`` from ``origin`` (a session, the command line), not to be remembered."""
        self.state.scoring = Scoring(metrics, origin)
        self.scoring_changed.emit()

    def settle(self) -> None:
        """No job runs any more: the settings are those of the numbers shown."""
        before = self.state.scoring
        self.state.settled(self.whole_run)
        if self.state.scoring != before:
            self.scoring_changed.emit()
