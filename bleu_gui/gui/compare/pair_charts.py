"""The charts of the Compare tab: sentence scores of A against B, BLEU's precision per order for every system, the
bootstrap distribution of Δ, and scores by reference length — each for the controller's metric and B."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout, QWidget

from ...core import Run
from ...core.metrics.bleu.scores import bleu_score
from ..controller import Controller
from .compare_charts import DeltaChart, DotStrips, ScatterChart
from .system_legend import SystemLegend


class PairCharts(QWidget):
    """Signal: ``region_selected(sentences, why)`` when a rectangle is dragged on the scatter."""

    region_selected = Signal(object, str)

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.scatter = ScatterChart()
        self.scatter.point_clicked.connect(controller.set_sentence)
        self.scatter.region_selected.connect(self.on_region_selected)
        self.precision_dots = DotStrips("BLEU precision per order", "n-gram order", "p_n (%)", tip=(
            "Each system's corpus BLEU precision p_n at each n-gram order; hover a dot for its system"))
        self.delta_chart = DeltaChart()
        self.bucket_dots = DotStrips("BLEU by reference length", "ref. length (tokens)", "BLEU", tip=(
            "The corpus score of the sentences in each reference-length band, per system"))
        self.legend = SystemLegend()
        self.legend.highlighted.connect(self.on_highlighted)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        for chart in (self.scatter, self.precision_dots, self.delta_chart, self.bucket_dots):
            row.addWidget(chart)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.legend)
        box.addLayout(row, 1)
        self._drawn: tuple[tuple[object, ...], tuple[object, ...]] | None = None  # see _drawn_from
        controller.run_changed.connect(self.on_run_changed)
        controller.metric_changed.connect(self.on_run_changed)
        controller.b_changed.connect(self.show_pair)
        controller.sentence_changed.connect(self.scatter.mark)

    @Slot()
    def on_run_changed(self) -> None:
        c, run = self.controller, self.controller.run
        if run is None or run.comparison is None:
            self._drawn = None  # holds nothing of a run no longer shown
            return
        k, metric = c.metric, run.metrics[c.metric]
        drawn = self._drawn_from(run, k)
        if self._drawn is not None and _same(drawn, self._drawn):
            self._show_tests()  # a later stage: only the paired tests' state may have changed
            return
        self._drawn = drawn
        for chart in (self.scatter, self.delta_chart, self.bucket_dots):
            chart.signature = metric.signature()
        names = [s.name for s in run.systems]
        if names != self.legend.names:
            self.legend.set_systems(names)
            self.on_highlighted(-1)
        bleu_k = run.bleu_index
        self.precision_dots.setVisible(bleu_k is not None)
        if bleu_k is not None:
            scores = [bleu_score(s.results[bleu_k].corpus) for s in run.systems]
            N = len(scores[0].precisions)
            self.precision_dots.signature = run.metrics[bleu_k].signature()
            self.precision_dots.update_values(names, np.array([score.precisions[:N] for score in scores]),
                                              [str(n) for n in range(1, N + 1)])
        comparison = run.comparison
        used = np.flatnonzero(comparison.bucket_counts > 0)  # empty buckets would only crowd the axis
        ticks = [comparison.bucket_labels[i] for i in used]
        tips = [f"{comparison.bucket_labels[i]} tokens ({comparison.bucket_counts[i]:,} sentences)" for i in used]
        self.bucket_dots.set_title(f"{metric.name} by {comparison.bucketed_by}")
        self.bucket_dots.x_label = comparison.bucketed_by.replace("reference", "ref.") + " (tokens)"
        self.bucket_dots.plot.setLabel("bottom", self.bucket_dots.x_label)
        self.bucket_dots.plot.setLabel("left", metric.name)
        self.bucket_dots.update_values(names, comparison.by_metric[k].bucket_scores[:, used], ticks, tips)
        shown = c.shown
        self.scatter.set_metric(metric.name, shown.orders[k][0].scale if shown is not None else (0.0, 100.0))
        self.delta_chart.set_metric(metric.name, metric.decimals)
        self.show_pair()

    @Slot()
    def show_pair(self) -> None:
        c, run = self.controller, self.controller.run
        if run is None or run.comparison is None:
            return
        k = c.metric
        a, b = run.systems[0], run.systems[c.b]
        self.scatter.update_values(a.results[k].sentences, b.results[k].sentences, (a.name, b.name))
        self.scatter.mark(c.sentence)
        self._show_tests()

    def _show_tests(self) -> None:
        c, run = self.controller, self.controller.run
        assert run is not None and run.comparison is not None
        k = c.metric
        bootstrap = run.comparison.by_metric[k].bootstrap
        bs = bootstrap[c.b] if bootstrap else None
        self.delta_chart.update_values(bs.deltas if bs else None, bs.p_value if bs else None,
                                       run.comparison.why_untested(run.metrics[k]))

    def _drawn_from(self, run: Run, k: int) -> tuple[tuple[object, ...], tuple[object, ...]]:
        """What the charts drawn for metric ``k`` of ``run`` come from: objects (the very same ones hold the same
        numbers) and values."""
        comparison, shown, bleu_k = run.comparison, self.controller.shown, run.bleu_index
        assert comparison is not None and shown is not None
        objects = (run.metrics[k], comparison.by_metric[k], *(s.results[k] for s in run.systems),
                   *(s.results[bleu_k] for s in run.systems if bleu_k is not None))
        values = (self.controller.b, tuple(s.name for s in run.systems), tuple(comparison.bucket_labels),
                  comparison.bucket_counts.tobytes(), shown.orders[k][0].scale)
        return objects, values

    @Slot(int)
    def on_highlighted(self, system: int) -> None:
        for chart in (self.precision_dots, self.bucket_dots):
            chart.highlight(system)

    def release(self) -> None:
        self.scatter.clear()
        self._drawn = None

    @Slot(float, float, float, float)
    def on_region_selected(self, x0: float, x1: float, y0: float, y1: float) -> None:
        a, b = self.scatter.xs, self.scatter.ys
        keep = np.flatnonzero((a >= x0) & (a <= x1) & (b >= y0) & (b <= y1))
        self.region_selected.emit(keep, f"{len(keep)} sentences in the dragged region")


def _same(a: tuple[tuple[object, ...], tuple[object, ...]], b: tuple[tuple[object, ...], tuple[object, ...]]) -> bool:
    """Whether two :meth:`PairCharts._drawn_from` are the same: the very same objects and equal values."""
    return (len(a[0]) == len(b[0]) and all(x is y for x, y in zip(a[0], b[0]))) and a[1] == b[1]
