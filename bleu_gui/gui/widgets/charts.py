"""pyqtgraph charts, created once and updated in place: precisions, brevity penalty, score histogram."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from ...core import palette
from ...core.errors import ExportError
from ...core.output import svg
from ...core.output.exports import write_atomic
from . import colors
from .figures import PRESETS, FigureSize, write_figure
from .style import styled

pg.setConfigOptions(antialias=True, background=palette.BACKGROUND, foreground=palette.TEXT)


def menuless_plot(view_box: pg.ViewBox | None = None) -> pg.PlotWidget:
    """A plot without pyqtgraph's context menus or its corner button. ``view_box`` should be made with
    ``enableMenu=False``: a view box builds its menu in its constructor (~5 ms of a plot's 20, nine plots a
    window), which ``setMenuEnabled(False)`` would only throw away afterwards."""
    box = view_box if view_box is not None else pg.ViewBox(enableMenu=False)
    plot = pg.PlotWidget(viewBox=box)
    plot.setMenuEnabled(False)  # the plot's own options menu (built regardless: PlotItem's controls need it)
    plot.hideButtons()
    return plot


class ChartBox(QWidget):
    """A titled plot with a Save button (PNG or SVG)."""

    PLOT_HEIGHT = 150  # the plot's least height, in pixels

    def __init__(self, title: str, parent: QWidget | None = None, view_box: pg.ViewBox | None = None,
                 tip: str = "") -> None:
        """``view_box``: a view box with its own mouse handling (the default one ignores the mouse); ``tip``:
        what the chart shows, as its tooltip."""
        super().__init__(parent)
        self.setToolTip(tip)
        self.plot = menuless_plot(view_box)
        if view_box is None:
            self.plot.setMouseEnabled(x=False, y=False)
        self.plot.setMinimumHeight(self.PLOT_HEIGHT)
        label = self.title_label = QLabel(f"<b>{title}</b>")
        label.setObjectName("chartTitle")  # a figure draws its own title
        label.setWordWrap(True)  # a narrow chart takes its title on two lines instead of widening the view
        label.setMinimumWidth(60)
        save = QToolButton()
        save.setObjectName("chartSave")  # figures of a whole view leave these buttons out
        save.setText("Save…")
        save.setToolTip("Save this chart as PNG, SVG or PDF")
        save.clicked.connect(self.on_save_clicked)
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(label, 1)  # the title takes the room (a wrapping label beside a stretch would be squeezed)
        head.addWidget(save)
        # Until there is data, a line of text instead of axes with made-up ticks.
        self.placeholder = QLabel("No data yet")
        styled(self.placeholder, "hint")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setMinimumHeight(self.PLOT_HEIGHT)
        self.plot.setVisible(False)
        # What the marks mean, one line above the plot (a legend inside a small plot covers its bars).
        self.key = QLabel("")
        styled(self.key, "hint")
        self.key.setWordWrap(True)
        self.key.setVisible(False)
        box = QVBoxLayout(self)
        box.setContentsMargins(2, 2, 2, 2)
        box.addLayout(head)
        box.addWidget(self.key)
        box.addWidget(self.plot, 1)
        box.addWidget(self.placeholder, 1)
        self.title = title
        self.signature = ""  # the scoring signature, written under the chart in a saved PNG

    def set_key(self, entries: list[tuple[str, str, str]]) -> None:
        """Show the key line: (mark, colour, what it stands for) per entry."""
        self.key.setText("  ".join(f'<span style="color:{colour}">{mark}</span> {text}' for mark, colour, text in entries))
        self.key.setVisible(True)

    def set_title(self, title: str) -> None:
        self.title = title
        self.title_label.setText(f"<b>{title}</b>")

    def show_data(self) -> None:
        """Swap the placeholder for the plot (each chart calls this when it gets values)."""
        if not self.plot.isVisibleTo(self):
            self.placeholder.setVisible(False)
            self.plot.setVisible(True)

    def svg_text(self) -> str | None:
        """The chart drawn from its current data as SVG (None before there is data)."""
        return None

    def save(self, path: str | Path, size: FigureSize = PRESETS[0]) -> None:
        """Save as SVG (drawn from the chart's data) or as a PNG or PDF figure of ``size``, by the file's
        extension, with the title above and the signature below (raises ExportError)."""
        path = Path(path)
        if path.suffix.lower() == ".svg":
            text = self.svg_text()
            if text is None:
                raise ExportError(f"{path}: this chart has nothing to save yet")
            write_atomic(path, text)
        else:
            write_figure(self, path, size, self.title, self.signature)  # the plot with its legend

    def on_save_clicked(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        from .figure_dialog import FigureDialog

        chosen = FigureDialog.ask(self, f"chart: {self.title}", self.title.lower().replace(" ", "-") + ".png", self)
        if chosen is None:
            return
        try:
            self.save(*chosen)
        except ExportError as exc:
            QMessageBox.warning(self, "Cannot save chart", str(exc))


class PrecisionChart(ChartBox):
    """Per-order modified precision of the selected sentence beside the corpus values."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Modified precision", parent, tip=(
            "Clipped n-gram precision p_n per order: the selected sentence's (matched/total above each bar) "
            "beside the corpus's, which sums every sentence's counts first"))
        p = self.plot
        p.setYRange(0, 112)
        p.setLabel("left", "p_n (%)")
        p.setLabel("bottom", "n-gram order")
        self.set_key([("■", palette.SENTENCE, "sentence"), ("■", palette.CORPUS, "corpus")])
        p.getAxis("left").setTicks([[(v, str(v)) for v in range(0, 101, 20)]])
        self.sentence_bars = pg.BarGraphItem(x=[], height=[], width=0.38, brush=colors.SENTENCE_BAR, name="sentence")
        self.corpus_bars = pg.BarGraphItem(x=[], height=[], width=0.38, brush=colors.CORPUS_BAR, name="corpus")
        p.addItem(self.sentence_bars)
        p.addItem(self.corpus_bars)
        self.labels: list[pg.TextItem] = []

    def svg_text(self) -> str | None:
        if not hasattr(self, "_data"):
            return None
        counts, totals, corpus = self._data
        return svg.precision_chart(corpus, counts, totals)

    def update_values(self, sentence_counts: Sequence[int] | np.ndarray, sentence_totals: Sequence[int] | np.ndarray,
                      corpus_precisions: Sequence[float]) -> None:
        self.show_data()
        self._data = ([int(c) for c in sentence_counts], [int(t) for t in sentence_totals],
                      [float(p) for p in corpus_precisions])
        n = len(corpus_precisions)
        x = np.arange(1, n + 1)
        counts = np.asarray(sentence_counts, float)
        totals = np.asarray(sentence_totals, float)
        sent = np.where(totals > 0, 100 * counts / np.maximum(totals, 1), 0.0)
        self.sentence_bars.setOpts(x=x - 0.2, height=sent)
        self.corpus_bars.setOpts(x=x + 0.2, height=np.asarray(corpus_precisions, float))
        while len(self.labels) < n:
            item = pg.TextItem(anchor=(0.5, 1.0), color=palette.ACCENT)
            font = item.textItem.font()
            font.setPointSizeF(font.pointSizeF() * 0.85)  # "12/12" over each of four narrow bars, not touching
            item.setFont(font)
            self.plot.addItem(item)
            self.labels.append(item)
        for i, item in enumerate(self.labels):
            item.setVisible(i < n)
            if i < n:
                item.setText(f"{int(counts[i])}/{int(totals[i])}")
                item.setPos(x[i] - 0.2, sent[i] + 1)
        self.plot.getAxis("bottom").setTicks([[(int(v), str(int(v))) for v in x]])
        self.plot.setXRange(0.4, n + 0.6, padding=0)
        self._fit_labels()

    def _fit_labels(self) -> None:
        """The "matched/total" labels only where each fits over its bar's pair (never over the next bars)."""
        shown = [item for item in self.labels if item.toPlainText()][: len(getattr(self, "_data", ([],))[0])]
        if not shown:
            return
        room = self.plot.getViewBox().width() / (len(shown) + 0.2)  # pixels per order
        widest = max(QFontMetrics(item.textItem.font()).horizontalAdvance(item.toPlainText()) for item in shown)
        for item in shown:
            item.setVisible(widest + 4 <= room)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_labels()


class BrevityChart(ChartBox):
    """BP = exp(1 - r/c) over r/c, with the sentence and the corpus marked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Brevity penalty", parent, tip=(
            "BP = exp(1 − r/c) when the candidate (c tokens) is not longer than the effective reference length r; "
            "the curve over r/c, with the sentence and the corpus on it"))
        p = self.plot
        p.setLabel("left", "BP")
        p.setLabel("bottom", "r / c")
        self.set_key([("●", palette.SENTENCE, "sentence"), ("■", palette.CORPUS, "corpus")])
        self.curve = p.plot(pen=pg.mkPen(palette.AXIS, width=2))
        self.sentence_point = p.plot(pen=None, symbol="o", symbolSize=11, symbolBrush=colors.SENTENCE_BAR, name="sentence")
        self.corpus_point = p.plot(pen=None, symbol="s", symbolSize=10, symbolBrush=colors.CORPUS_BAR, name="corpus")
        self.set_range(2.0)

    def set_range(self, top: float) -> None:
        x = np.linspace(0.0, max(top, 1.5), 300)
        self.curve.setData(x, np.where(x > 1, np.exp(1 - x), 1.0))
        self.plot.setYRange(0, 1.05)

    @staticmethod
    def _point(c: int, r: int) -> tuple[list[float], list[float]]:
        if c <= 0:
            return [], []
        ratio = r / c
        return [ratio], [1.0 if c > r else float(np.exp(1 - ratio))]

    def svg_text(self) -> str | None:
        return svg.brevity_chart(self._data[1], self._data[0]) if hasattr(self, "_data") else None

    def update_values(self, sentence: tuple[int, int] | None, corpus: tuple[int, int]) -> None:
        self.show_data()
        self._data = (sentence, corpus)
        top = 1.5
        if sentence is not None:
            x, y = self._point(*sentence)
            self.sentence_point.setData(x, y)
            top = max(top, *(v * 1.1 for v in x)) if x else top
        else:
            self.sentence_point.setData([], [])
        x, y = self._point(*corpus)
        self.corpus_point.setData(x, y)
        self.set_range(min(top, 6.0))


class HistogramChart(ChartBox):
    """Sentence BLEU over the corpus in 10-point bins; clicking a bar asks to filter the list to it."""

    bin_clicked = Signal(float, float)
    # It shares its column with the sentence list, which it filters: on a laptop's screen below a panel, with three
    # references and two bars, 150 px of plot left the list four rows.
    PLOT_HEIGHT = 100

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Sentence BLEU histogram", parent, tip=(
            "How many sentences score in each tenth of the score range (10-point bands for BLEU, chrF and TER). "
            "Click a bar to list only those sentences. "
            "Corpus BLEU is not the mean of these scores"))
        p = self.plot
        p.setLabel("left", "sentences")
        p.setLabel("bottom", "sentence BLEU (click a bar to filter)")
        self.edges = np.linspace(0, 100, 11)  # the bands' edges: the metric's scale in tenths
        self.bars = pg.BarGraphItem(x0=self.edges[:-1], x1=self.edges[1:], height=np.zeros(10),
                                    brush=colors.SENTENCE_BAR, pen=pg.mkPen(palette.BACKGROUND))
        p.addItem(self.bars)
        p.setXRange(0, 100, padding=0.02)
        p.scene().sigMouseClicked.connect(self.on_scene_clicked)
        self.counts = np.zeros(10, np.int64)
        self.metric_name = "BLEU"

    def svg_text(self) -> str | None:
        if not hasattr(self, "_scores"):
            return None
        return svg.histogram_chart(self._scores.tolist(), f"Sentence {self.metric_name} histogram", self.metric_name)

    def update_values(self, scores: np.ndarray, bands: np.ndarray, metric: str = "BLEU",
                      scale: tuple[float, float] = (0.0, 100.0)) -> None:
        """``bands``: the sentences in each tenth of ``scale`` (see :func:`score_bands`), sentence scores of
        ``metric``."""
        self.metric_name = metric
        if scale != (float(self.edges[0]), float(self.edges[-1])):
            self.edges = np.linspace(scale[0], scale[1], 11)
            self.bars.setOpts(x0=self.edges[:-1], x1=self.edges[1:])
            self.plot.setXRange(scale[0], scale[1], padding=0.02)
        self.set_title(f"Sentence {metric} histogram")
        self.plot.setLabel("bottom", f"sentence {metric} (click a bar to filter)")
        self.show_data()
        self._scores = np.asarray(scores, float)
        self.counts = bands
        self.bars.setOpts(height=self.counts)
        self.plot.setYRange(0, max(1, int(self.counts.max()) if len(self.counts) else 1) * 1.08)

    def bin_range(self, x: float) -> tuple[float, float] | None:
        low, high = float(self.edges[0]), float(self.edges[-1])
        if not low <= x <= high:
            return None
        i = min(int((x - low) // ((high - low) / 10)), 9)
        return float(self.edges[i]), float(self.edges[i + 1])

    def on_scene_clicked(self, event: Any) -> None:  # pyqtgraph's MouseClickEvent, which has no types
        if event.button() != Qt.MouseButton.LeftButton:
            return
        vb = self.plot.getPlotItem().vb
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        point = vb.mapSceneToView(event.scenePos())
        rng = self.bin_range(point.x())
        if rng is not None:
            self.bin_clicked.emit(*rng)


class GroupedBars(ChartBox):
    """A few labelled categories, one bar per series in each (chrF's orders, TER's kinds of edit)."""

    def __init__(self, title: str, tip: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent, tip=tip)
        self.legend = self.plot.addLegend(offset=(5, 2))
        self.series: list[pg.BarGraphItem] = []
        self.values: tuple[list[str], list[str], list[list[float]]] | None = None

    def update_values(self, categories: list[str], names: list[str], values: list[list[float]], y_label: str,
                      top: float | None = None) -> None:
        """``values[s][c]``: series ``s`` (named ``names[s]``) in category ``c``; ``top``: the y axis' end."""
        self.show_data()
        self.values = (categories, names, values)
        brushes = [colors.SENTENCE_BAR, colors.CORPUS_BAR]
        if [bars.name() for bars in self.series] != names:  # another metric's series: its legend, not the last's
            for bars in self.series:
                self.plot.removeItem(bars)
            self.legend.clear()
            self.series = []
            for k, name in enumerate(names):
                bars = pg.BarGraphItem(x=[], height=[], width=0.8, brush=brushes[k % len(brushes)], name=name)
                self.plot.addItem(bars)
                self.series.append(bars)
        width = 0.8 / max(len(names), 1)
        x = np.arange(len(categories), dtype=float)
        for k, bars in enumerate(self.series):
            bars.setOpts(x=x - 0.4 + width * (k + 0.5), height=np.asarray(values[k], float), width=width * 0.95)
        self.plot.setLabel("left", y_label)
        self.plot.getAxis("bottom").setTicks([[(float(i), c) for i, c in enumerate(categories)]])
        highest = max((max(v) for v in values if v), default=0.0)
        end = top if top is not None else max(1.0, highest)
        step = max(1, int(np.ceil(end / 5))) if top is None else 20
        self.plot.getAxis("left").setTicks([[(float(v), str(v)) for v in range(0, int(end) + 1, step)]])
        # Room above the highest bar for the legend.
        self.plot.setYRange(0, end * (1.3 if len(names) > 1 else 1.15), padding=0)
        self.plot.setXRange(-0.6, len(categories) - 0.4, padding=0)
