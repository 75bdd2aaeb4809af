"""Charts of the Compare tab, created once and updated in place."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from ...core import palette
from ...core.analysis.significance import delta_interval
from ...core.output import svg
from ..widgets.charts import ChartBox
from ..widgets.style import styled
from .matrix_view import elide
from .system_legend import SHAPE_CHARS, colour_of, shape_of

SYSTEM_COLOURS = palette.SYSTEMS


class _SelectBox(pg.ViewBox):
    """A view box where dragging with the left button selects a rectangle instead of panning."""

    rect_selected = Signal(object)  # QRectF in data coordinates

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._band = pg.QtWidgets.QGraphicsRectItem(0, 0, 1, 1)
        self._band.setPen(pg.mkPen(palette.ACCENT, width=1))
        self._band.setBrush(pg.mkBrush(28, 126, 214, 40))
        self._band.hide()
        self.addItem(self._band, ignoreBounds=True)

    def mouseDragEvent(self, ev: Any, axis: int | None = None) -> None:  # pyqtgraph's untyped MouseDragEvent
        if ev.button() != pg.QtCore.Qt.MouseButton.LeftButton:
            super().mouseDragEvent(ev, axis)
            return
        ev.accept()
        start = self.mapSceneToView(ev.buttonDownScenePos())
        end = self.mapSceneToView(ev.scenePos())
        rect = QRectF(start, end).normalized()
        if ev.isFinish():
            self._band.hide()
            self.rect_selected.emit(rect)
        else:
            self._band.setRect(rect)
            self._band.show()


# From this many sentences the scatter draws one point per occupied cell of CELL x CELL BLEU: pyqtgraph took
# 0.3 s (100,000 points) and 2.9 s (a million) to take the points, holding the window, and 45-60 ms and
# 0.4-0.6 s for each repaint; a 7-pixel point is more than a BLEU point wide, so the picture barely changes.
EXACT_POINTS = 10_000
CELL = 0.5


def plotted_cells(x: np.ndarray, y: np.ndarray, cell: float = CELL) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                               np.ndarray]:
    """One point per occupied ``cell`` x ``cell`` square of the BLEU plane (0-100 on both axes): (its centre x, y,
    the first sentence in it, how many sentences it holds), squares in order."""
    side = int(100 // cell) + 1
    ix, iy = (np.floor(np.clip(v, 0, 100) / cell).astype(np.int64) for v in (x, y))
    keys = ix * side + iy
    # Counting over the few squares there are, not sorting the sentences: np.unique took 230 ms of the GUI
    # thread at a million sentences, this 25.
    counts = np.bincount(keys, minlength=side * side)
    first = np.full(side * side, len(keys), np.int64)
    np.minimum.at(first, keys, np.arange(len(keys)))
    occupied = np.flatnonzero(counts)
    return (occupied // side + 0.5) * cell, (occupied % side + 0.5) * cell, first[occupied], counts[occupied]


class ScatterChart(ChartBox):
    """Sentence BLEU of A (x) against B (y): click a point to select it, drag a rectangle to filter."""

    point_clicked = Signal(int)
    region_selected = Signal(float, float, float, float)  # x0, x1, y0, y1

    def __init__(self, parent: QWidget | None = None) -> None:
        self._box = _SelectBox(enableMenu=False)
        super().__init__("Sentence BLEU: A vs B", parent, view_box=self._box, tip=(
            "One point per sentence: A's sentence BLEU across, B's up. Above the diagonal B scores higher. "
            "Drag a rectangle to list those sentences"))
        p = self.plot
        p.setLabel("bottom", "BLEU A (baseline)")
        p.setLabel("left", "BLEU B")
        self.scale = (0.0, 100.0)  # the metric's score range on both axes
        p.setXRange(0, 100, padding=0.03)
        p.setYRange(0, 100, padding=0.03)
        self.diagonal = p.plot([0, 100], [0, 100], pen=pg.mkPen(palette.CORPUS, style=pg.QtCore.Qt.PenStyle.DashLine))
        # A cell of one sentence, of two, and of three or more: as dark as that many points on one spot. One item
        # each, since a brush per point made pyqtgraph take most of a second over 40,000 cells.
        self.layers = [pg.ScatterPlotItem(size=7, pen=None, brush=pg.mkBrush(51, 154, 240, alpha), hoverable=True)
                       for alpha in (140, 203, 232)]
        self.points = self.layers[0]
        for layer in self.layers:
            layer.sigClicked.connect(self.on_points_clicked)
            p.addItem(layer)
        self.selected = pg.ScatterPlotItem(size=13, pen=pg.mkPen(palette.MARKER, width=2), brush=None)
        p.addItem(self.selected)
        self._box.rect_selected.connect(self.on_rect_selected)
        self.xs = self.ys = np.zeros(0)

    def svg_text(self) -> str | None:
        if not len(self.xs):
            return None
        # What the screen shows: the cells of a long file.
        x, y = (np.concatenate(axis) for axis in zip(*(layer.getData() for layer in self.layers)))
        return svg.scatter_chart(x.tolist(), y.tolist(), *self.names)

    def set_metric(self, metric: str, scale: tuple[float, float] = (0.0, 100.0)) -> None:
        """Sentence scores of ``metric`` on both axes, which span ``scale``."""
        self.scale = scale
        self.plot.setXRange(*scale, padding=0.03)
        self.plot.setYRange(*scale, padding=0.03)
        self.diagonal.setData(list(scale), list(scale))
        self.set_title(f"Sentence {metric}: A vs B")
        self.plot.setLabel("bottom", f"{metric} A (baseline)")
        self.plot.setLabel("left", f"{metric} B")

    def update_values(self, a: np.ndarray, b: np.ndarray, names: tuple[str, str] = ("A", "B")) -> None:
        self.show_data()
        self.names = names
        self.xs, self.ys = np.nan_to_num(a), np.nan_to_num(b)
        if len(a) <= EXACT_POINTS:
            x, y, first, counts = self.xs, self.ys, np.arange(len(a)), np.ones(len(a), np.int64)
            self.title_label.setText(f"<b>{self.title}</b>")
            self.title_label.setToolTip("")
        else:
            low, high = self.scale  # cells on the 0-100 plane of the metric's scale
            unit = (high - low) / 100
            x, y, first, counts = plotted_cells((self.xs - low) / unit, (self.ys - low) / unit)
            x, y = x * unit + low, y * unit + low
            self.title_label.setText(f"<b>{self.title}</b> — {len(a):,} sentences as {len(x):,} points")
            self.title_label.setToolTip(f"One point per occupied {CELL:g} × {CELL:g} square of scores, darker where "
                                        "it holds two or more sentences; a click picks the first sentence in it")
        level = np.minimum(counts, len(self.layers)) - 1
        for k, layer in enumerate(self.layers):
            here = level == k
            layer.setData(x=x[here], y=y[here], data=first[here])

    def clear(self) -> None:
        """Let go of the points and the sentences' scores."""
        self.xs = self.ys = np.zeros(0)
        for layer in self.layers:
            layer.clear()
        self.selected.clear()

    def mark(self, sentence: int | None) -> None:
        if sentence is None or not 0 <= sentence < len(self.xs):
            self.selected.setData([], [])
        else:
            self.selected.setData([self.xs[sentence]], [self.ys[sentence]])

    def on_points_clicked(self, _item: object, points: Any, *_args: object) -> None:
        if len(points):
            self.point_clicked.emit(int(points[0].data()))

    def on_rect_selected(self, rect: QRectF) -> None:
        if rect.width() > 0.5 or rect.height() > 0.5:
            self.region_selected.emit(rect.left(), rect.right(), rect.top(), rect.bottom())


class DotStrips(ChartBox):
    """A dot per system at each category, side by side (a dot plot): readable at 20 systems where 20 bars per
    category are not. Each system keeps its colour (the systems table's) and a shape; hovering a dot names its
    system, and :meth:`highlight` brings one system forward. The window's legend is shared by the charts
    (:class:`.SystemLegend`); the chart's own legend line appears only in a figure of the chart alone."""

    def __init__(self, title: str, x_label: str, y_label: str, parent: QWidget | None = None, tip: str = "") -> None:
        super().__init__(title, parent, tip=tip)
        self.x_label, self.y_label = x_label, y_label
        self.plot.setLabel("bottom", x_label)
        self.plot.setLabel("left", y_label)
        for axis in ("bottom", "left"):
            self.plot.getAxis(axis).enableAutoSIPrefix(False)
        self.dots = pg.ScatterPlotItem(size=8, pen=pg.mkPen(palette.BACKGROUND, width=0.8), hoverable=True,
                                       tip=lambda x, y, data: f"{data[0]}\n{data[1]}: {y:.2f}")
        self.plot.addItem(self.dots)
        self.legend = QLabel("")
        self.legend.setObjectName("figureLegend")  # shown in a figure of this chart alone
        styled(self.legend, "hint")
        self.legend.setWordWrap(True)
        self.legend.setVisible(False)
        self.highlighted = -1
        box = self.layout()
        assert isinstance(box, QVBoxLayout)  # ChartBox lays itself out in one
        box.insertWidget(1, self.legend)
        self._ticks: list[str] = []

    def svg_text(self) -> str | None:
        if not hasattr(self, "_data"):
            return None
        names, values, ticks = self._data
        return svg.dot_strips_chart(self.title, self.x_label, self.y_label, names, values.tolist(), ticks,
                                    SYSTEM_COLOURS)

    def update_values(self, names: list[str], values: np.ndarray, ticks: list[str],
                      tips: list[str] | None = None) -> None:
        """``values``: systems × categories (NaN: no dot); ``tips``: what a dot's tooltip says of its category."""
        self.show_data()
        values = np.asarray(values, float)
        self._data = (list(names), values, list(ticks))
        self._tips = list(tips) if tips else None
        self._draw()
        self._ticks = list(ticks)
        self._apply_ticks()
        self.plot.setYRange(*svg.value_range(values), padding=0)
        self.plot.setXRange(-0.6, len(ticks) - 0.4, padding=0)
        self.legend.setText(" ".join(
            f'<span style="color:{colour_of(i)}">{SHAPE_CHARS[shape_of(i)]}</span> {elide(n, 24)}'
            for i, n in enumerate(names)))
        self.legend.setToolTip("\n".join(names))

    def highlight(self, system: int) -> None:
        """Draw ``system``'s dots large and the others faint (-1: all alike)."""
        self.highlighted = system
        if hasattr(self, "_data"):
            self._draw()

    def _draw(self) -> None:
        names, values, ticks = self._data
        spots = []
        for s, offset in enumerate(svg.strip_offsets(len(names))):
            faint = self.highlighted >= 0 and s != self.highlighted
            colour = pg.mkColor(colour_of(s))
            if faint:
                colour.setAlpha(45)
            brush = pg.mkBrush(colour)
            size = 12 if s == self.highlighted else 9
            for i, v in enumerate(values[s]):
                if np.isfinite(v):
                    spots.append({"pos": (i + offset, v), "brush": brush, "symbol": shape_of(s), "size": size,
                                  "data": (names[s], self._tips[i] if self._tips else ticks[i])})
        self.dots.setData(spots=spots)

    def _apply_ticks(self) -> None:
        """Label every category, or every k-th one when the labels would otherwise overlap."""
        if not self._ticks:
            return
        metrics = self.fontMetrics()
        need = max(metrics.horizontalAdvance(t) for t in self._ticks) + 10
        room = max(self.plot.width() - 60, 40) / len(self._ticks)
        step = max(1, math.ceil(need / room))
        self.plot.getAxis("bottom").setTicks([[(i, t) for i, t in enumerate(self._ticks) if i % step == 0]])

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._apply_ticks()


class DeltaChart(ChartBox):
    """Bootstrap distribution of ΔBLEU (B − A) with its 2.5% and 97.5% points and the p-value."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Bootstrap ΔBLEU (B − A)", parent, tip=(
            "Corpus BLEU of B minus A over paired bootstrap resamples (sacreBLEU's seed and sample count): "
            "the spread says how much of the difference survives resampling"))
        self.decimals = 2  # the metric's (COMET's 4)
        p = self.plot
        p.setLabel("bottom", "ΔBLEU per resample")
        p.setLabel("left", "resamples")
        for axis in ("bottom", "left"):
            p.getAxis(axis).enableAutoSIPrefix(False)  # BLEU points, never "(x0.001)"
        self.bars = pg.BarGraphItem(x0=[], x1=[], height=[], brush=palette.DELTA, pen=pg.mkPen(palette.BACKGROUND))
        p.addItem(self.bars)
        line_pen = pg.mkPen(palette.MARKER, width=2, style=pg.QtCore.Qt.PenStyle.DashLine)
        # The lines carry no labels: on a narrow interval "2.5%" and "97.5%" ran into each other. The text in the
        # corner says the interval in numbers, in the lines' colour.
        self.low = pg.InfiniteLine(angle=90, pen=line_pen)
        self.high = pg.InfiniteLine(angle=90, pen=line_pen)
        self.zero = pg.InfiniteLine(pos=0, angle=90, pen=pg.mkPen(palette.AXIS, width=1))
        for item in (self.low, self.high, self.zero):
            p.addItem(item)
        self.text = pg.TextItem(anchor=(1, 0), color=palette.INK, fill=pg.mkBrush(palette.BACKGROUND))
        p.addItem(self.text)

    def _wrap_text(self) -> None:
        self.text.textItem.setTextWidth(max(self.plot.getViewBox().width() - 8, 60))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._wrap_text()

    def svg_text(self) -> str | None:
        deltas, p = getattr(self, "_data", (None, None))
        return svg.delta_chart(deltas.tolist(), p, self.decimals) if deltas is not None and len(deltas) else None

    def set_metric(self, metric: str, decimals: int = 2) -> None:
        """Differences of ``metric``'s corpus scores (its interval to ``decimals``)."""
        self.decimals = decimals
        self.set_title(f"Bootstrap Δ{metric} (B − A)")
        self.plot.setLabel("bottom", f"Δ{metric} per resample")

    def update_values(self, deltas: np.ndarray | None, p_value: float | None, why_none: str = "") -> None:
        """The bootstrap's differences and p-value; without them, ``why_none`` in the corner."""
        self.show_data()
        self._data = (deltas, p_value)
        if deltas is None or not len(deltas):
            self.bars.setOpts(x0=[], x1=[], height=[])
            for line in (self.low, self.high):
                line.setVisible(False)  # no stale interval from an earlier run
            self.text.setText(why_none or "no bootstrap for this pair")
            self._wrap_text()
            self.plot.setXRange(-1, 1, padding=0)  # no stray axis of 1e-14 around an empty plot
            return
        counts, edges = np.histogram(deltas, bins=30)
        self.bars.setOpts(x0=edges[:-1], x1=edges[1:], height=counts)
        lo, hi = delta_interval(deltas)
        for line in (self.low, self.high):
            line.setVisible(True)
        self.low.setValue(lo)
        self.high.setValue(hi)
        self._wrap_text()  # the corner text wraps inside a narrow plot instead of running off its left edge
        p_line = f"p = {p_value:.4f}<br>" if p_value is not None else ""
        self.text.setHtml(f'<div style="text-align: right; color: {palette.INK}">{p_line}'
                          f'<span style="color: {palette.MARKER}">{svg.interval_text(lo, hi, self.decimals)}</span></div>')
        span = max(edges[-1] - edges[0], 1e-9)
        left = min(edges[0], 0.0) - 0.05 * span
        right = max(edges[-1], 0.0) + 0.05 * span
        self.plot.setXRange(left, right, padding=0)
        # Room above the bars for the two lines of text in the corner.
        top = counts.max() * 1.55
        self.plot.setYRange(0, top, padding=0)
        self.text.setPos(right - 0.02 * (right - left), top)
