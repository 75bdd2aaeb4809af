"""Small, dependency-free SVG charts for exports and reports (the window draws with pyqtgraph).

A chart is built from data, not from a screen: bars, curves, points, vertical
markers and labels on linear axes, in the same colours as the window.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

import numpy as np

from .. import palette
from ..analysis.orders import score_bands
from ..analysis.significance import delta_interval

_W, _H = 420, 280
_PAD_L, _PAD_R, _PAD_T, _PAD_B = 52, 14, 34, 46


def _nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    if not math.isfinite(lo) or not math.isfinite(hi) or hi <= lo:
        return [lo]
    raw = (hi - lo) / count
    mag = 10 ** math.floor(math.log10(raw))
    step = min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw), default=raw)
    first = math.ceil(lo / step) * step
    ticks, t = [], first
    while t <= hi + 1e-9 * step:
        ticks.append(round(t, 10))
        t += step
    return ticks


def _fmt(v: float) -> str:
    return f"{v:g}" if abs(v) < 1e6 else f"{v:.3g}"


@dataclass
class SvgChart:
    """A chart on linear axes; add marks, then :meth:`render`."""

    title: str
    x_label: str
    y_label: str
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    x_ticks: list[tuple[float, str]] | None = None
    _marks: list[str] = field(default_factory=list)
    _legend: list[tuple[str, str]] = field(default_factory=list)

    def _x(self, v: float) -> float:
        lo, hi = self.x_range
        return _PAD_L + (v - lo) / (hi - lo or 1) * (_W - _PAD_L - _PAD_R)

    def _y(self, v: float) -> float:
        lo, hi = self.y_range
        return _H - _PAD_B - (v - lo) / (hi - lo or 1) * (_H - _PAD_T - _PAD_B)

    def bars(self, x0: Sequence[float], x1: Sequence[float], heights: Sequence[float], colour: str,
             name: str | None = None, labels: Sequence[str] | None = None) -> SvgChart:
        for i, (a, b, h) in enumerate(zip(x0, x1, heights)):
            if h is None or not math.isfinite(h):
                continue
            top, base = self._y(max(h, self.y_range[0])), self._y(self.y_range[0])
            self._marks.append(f'<rect x="{self._x(a):.1f}" y="{top:.1f}" width="{self._x(b) - self._x(a):.1f}" '
                               f'height="{base - top:.1f}" fill="{colour}" stroke="{palette.AXIS}" stroke-width="0.6"/>')
            if labels is not None:
                self._marks.append(f'<text x="{(self._x(a) + self._x(b)) / 2:.1f}" y="{top - 3:.1f}" '
                                   f'text-anchor="middle" class="lbl">{escape(labels[i])}</text>')
        if name:
            self._legend.append((name, colour))
        return self

    def curve(self, xs: Sequence[float], ys: Sequence[float], colour: str, dashed: bool = False) -> SvgChart:
        pts = " ".join(f"{self._x(x):.1f},{self._y(y):.1f}" for x, y in zip(xs, ys))
        dash = ' stroke-dasharray="5,4"' if dashed else ""
        self._marks.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        return self

    def points(self, xs: Sequence[float], ys: Sequence[float], colour: str, radius: float = 3.5,
               name: str | None = None, square: bool = False) -> SvgChart:
        for x, y in zip(xs, ys):
            if square:
                self._marks.append(f'<rect x="{self._x(x) - radius:.1f}" y="{self._y(y) - radius:.1f}" '
                                   f'width="{2 * radius:.1f}" height="{2 * radius:.1f}" fill="{colour}"/>')
            else:
                self._marks.append(f'<circle cx="{self._x(x):.1f}" cy="{self._y(y):.1f}" r="{radius}" '
                                   f'fill="{colour}" fill-opacity="0.75"/>')
        if name:
            self._legend.append((name, colour))
        return self

    def vline(self, x: float, colour: str) -> SvgChart:
        self._marks.append(f'<line x1="{self._x(x):.1f}" x2="{self._x(x):.1f}" y1="{_PAD_T}" y2="{_H - _PAD_B}" '
                           f'stroke="{colour}" stroke-width="1.5" stroke-dasharray="5,4"/>')
        return self

    def note(self, text: str, left: bool = False, colour: str | None = None) -> SvgChart:
        """A line of text above the plot, at its right end (or its left)."""
        x, anchor = (_PAD_L, "start") if left else (_W - _PAD_R, "end")
        fill = f' style="fill:{colour}"' if colour else ""  # a style, since the class's fill outranks an attribute
        self._marks.append(f'<text x="{x}" y="{_PAD_T - 6}" text-anchor="{anchor}" class="lbl"{fill}>'
                           f'{escape(text)}</text>')
        return self

    def render(self) -> str:
        """The chart as a standalone SVG document (UTF-8 text)."""
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{_H}" viewBox="0 0 {_W} {_H}" '
               f'font-family="DejaVu Sans, Arial, sans-serif" font-size="11">',
               f"<style>.lbl{{font-size:10px;fill:{palette.ACCENT}}}.ax{{fill:{palette.AXIS}}}</style>",
               f'<rect width="{_W}" height="{_H}" fill="{palette.BACKGROUND}"/>',
               f'<text x="{_W / 2}" y="16" text-anchor="middle" font-weight="bold" font-size="13">{escape(self.title)}</text>']
        x0, x1 = _PAD_L, _W - _PAD_R
        y0, y1 = _H - _PAD_B, _PAD_T
        out.append(f'<line x1="{x0}" x2="{x1}" y1="{y0}" y2="{y0}" stroke="{palette.AXIS}"/>')
        out.append(f'<line x1="{x0}" x2="{x0}" y1="{y0}" y2="{y1}" stroke="{palette.AXIS}"/>')
        for t in _nice_ticks(*self.y_range):
            y = self._y(t)
            out.append(f'<line x1="{x0 - 4}" x2="{x0}" y1="{y:.1f}" y2="{y:.1f}" stroke="{palette.AXIS}"/>')
            out.append(f'<text x="{x0 - 6}" y="{y + 4:.1f}" text-anchor="end" class="ax">{_fmt(t)}</text>')
        xt = self.x_ticks if self.x_ticks is not None else [(t, _fmt(t)) for t in _nice_ticks(*self.x_range)]
        for t, label in xt:
            x = self._x(t)
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y0}" y2="{y0 + 4}" stroke="{palette.AXIS}"/>')
            out.append(f'<text x="{x:.1f}" y="{y0 + 16}" text-anchor="middle" class="ax">{escape(label)}</text>')
        out.append(f'<text x="{(x0 + x1) / 2}" y="{_H - 8}" text-anchor="middle">{escape(self.x_label)}</text>')
        out.append(f'<text transform="translate(13,{(y0 + y1) / 2}) rotate(-90)" text-anchor="middle">'
                   f'{escape(self.y_label)}</text>')
        out.extend(self._marks)
        for i, (name, colour) in enumerate(self._legend):
            y = _PAD_T + 4 + 15 * i
            out.append(f'<rect x="{x0 + 10}" y="{y}" width="11" height="11" fill="{colour}" stroke="{palette.AXIS}" '
                       f'stroke-width="0.6"/><text x="{x0 + 26}" y="{y + 10}">{escape(name)}</text>')
        out.append("</svg>")
        return "\n".join(out)


def precision_chart(corpus: Sequence[float], sentence_counts: Sequence[int] | None = None,
                    sentence_totals: Sequence[int] | None = None) -> str:
    """Modified precision per order: the corpus, and optionally one sentence with matched/total labels."""
    n = len(corpus)
    ticks: list[tuple[float, str]] = [(i + 1, str(i + 1)) for i in range(n)]
    chart = SvgChart("Modified precision", "n-gram order", "p_n (%)", (0.4, n + 0.6), (0, 130), ticks)
    if sentence_counts is not None and sentence_totals is not None:
        sent = [100 * c / t if t else 0.0 for c, t in zip(sentence_counts, sentence_totals)]
        chart.bars([i + 0.6 for i in range(n)], [i + 1.0 for i in range(n)], sent, palette.SENTENCE, "sentence",
                   [f"{c}/{t}" for c, t in zip(sentence_counts, sentence_totals)])
        chart.bars([i + 1.0 for i in range(n)], [i + 1.4 for i in range(n)], corpus, palette.CORPUS, "corpus")
    else:
        chart.bars([i + 0.7 for i in range(n)], [i + 1.3 for i in range(n)], corpus, palette.CORPUS, "corpus",
                   [f"{p:.1f}" for p in corpus])
    return chart.render()


def brevity_chart(corpus: tuple[int, int], sentence: tuple[int, int] | None = None) -> str:
    """BP = exp(1 - r/c) over r/c with the corpus (and a sentence) marked. Pairs are (c, r)."""
    def point(c: int, r: int) -> tuple[float, float] | None:
        return (r / c, 1.0 if c > r else math.exp(1 - r / c)) if c > 0 else None

    corpus_mark = point(*corpus)
    sentence_mark = point(*sentence) if sentence else None
    marks = [p for p in (corpus_mark, sentence_mark) if p]
    top = max([1.5] + [x * 1.1 for x, _ in marks])
    xs = [top * i / 200 for i in range(201)]
    chart = SvgChart("Brevity penalty", "r / c", "BP", (0, top), (0, 1.4))
    chart.curve(xs, [1.0 if x <= 1 else math.exp(1 - x) for x in xs], palette.AXIS)
    if sentence_mark:
        chart.points([sentence_mark[0]], [sentence_mark[1]], palette.SENTENCE, 5, "sentence")
    if corpus_mark:
        chart.points([corpus_mark[0]], [corpus_mark[1]], palette.CORPUS_POINT, 5, "corpus", square=True)
    return chart.render()


def histogram_chart(scores: Sequence[float], title: str = "Sentence BLEU histogram", metric: str = "BLEU") -> str:
    """Sentence scores in 10-point bins."""
    counts = score_bands(np.asarray(scores, np.float64)).tolist()
    chart = SvgChart(title, f"sentence {metric}", "sentences", (0, 100), (0, max(counts + [1]) * 1.15))
    chart.bars([10 * i for i in range(10)], [10 * i + 10 for i in range(10)], counts, palette.SENTENCE,
               labels=[str(c) if c else "" for c in counts])
    return chart.render()


def strip_offsets(k: int) -> list[float]:
    """Where k systems sit around each category of a dot plot (the window and the SVG place them alike):
    close together for a few systems, never wider than the category's slot."""
    half_width = min(0.36, 0.08 * (k - 1))
    return [0.0] if k <= 1 else [-half_width + 2 * half_width * i / (k - 1) for i in range(k)]


def value_range(values: Sequence[Sequence[float]] | np.ndarray, pad: float = 0.1) -> tuple[float, float]:
    """The y range of a dot plot: the data's, padded, so small differences between systems show."""
    finite = [v for row in values for v in row if v is not None and math.isfinite(v)]
    if not finite:
        return 0.0, 1.0
    lo, hi = min(finite), max(finite)
    span = max(hi - lo, 1.0) if hi - lo >= 1.0 or max(abs(lo), abs(hi)) >= 1.0 else max(hi - lo, 0.01)
    low = lo - pad * span
    return (max(0.0, low) if lo >= 0 else low), hi + pad * span  # below zero only for scores that go there (MQM)


def dot_strips_chart(title: str, x_label: str, y_label: str, names: Sequence[str],
                     values: Sequence[Sequence[float]] | np.ndarray, ticks: Sequence[str],
                     colours: Sequence[str]) -> str:
    """A dot per system at each tick, side by side (``values``: systems × ticks, NaN for none)."""
    k, m = len(names), len(ticks)
    chart = SvgChart(title, x_label, y_label, (-0.6, m - 0.4), value_range(values),
                     [(i, t) for i, t in enumerate(ticks)])
    for s, offset in enumerate(strip_offsets(k)):
        xs = [i + offset for i in range(m) if math.isfinite(values[s][i])]
        ys = [float(v) for v in values[s] if math.isfinite(v)]
        chart.points(xs, ys, colours[s % len(colours)], name=names[s])
    return chart.render()


def scatter_chart(a: Sequence[float], b: Sequence[float], name_a: str, name_b: str) -> str:
    """Sentence BLEU of system A (x) against B (y), with the diagonal."""
    chart = SvgChart("Sentence BLEU: A vs B", f"BLEU A ({name_a})", f"BLEU B ({name_b})", (0, 100), (0, 100))
    chart.curve([0, 100], [0, 100], palette.CORPUS, dashed=True)
    chart.points([x if math.isfinite(x) else 0 for x in a], [y if math.isfinite(y) else 0 for y in b], palette.SENTENCE, 2.5)
    return chart.render()


def delta_chart(deltas: Sequence[float], p_value: float | None, decimals: int = 2) -> str:
    """Bootstrap distribution of ΔBLEU with its 95% interval (two dashed lines, and in numbers) and the p-value."""
    ordered = sorted(deltas)
    lo, hi = ordered[0], ordered[-1]
    span = max(hi - lo, 1e-9)
    bins = 30
    counts = [0] * bins
    for d in ordered:
        counts[min(int((d - lo) / span * bins), bins - 1)] += 1
    left, right = min(lo, 0.0) - 0.05 * span, max(hi, 0.0) + 0.05 * span
    chart = SvgChart("Bootstrap ΔBLEU (B − A)", "ΔBLEU in a resample", "resamples", (left, right),
                     (0, max(counts) * 1.2))
    edges = [lo + span * i / bins for i in range(bins + 1)]
    chart.bars(edges[:-1], edges[1:], counts, palette.DELTA)
    low, high = delta_interval(ordered)
    chart.vline(low, palette.MARKER)
    chart.vline(high, palette.MARKER)
    chart.vline(0.0, palette.AXIS)
    # The interval in numbers, in the lines' colour (labels on the lines ran into each other when it was narrow).
    chart.note(interval_text(low, high, decimals), left=True, colour=palette.MARKER)
    if p_value is not None:
        chart.note(f"p = {p_value:.4f}")
    return chart.render()


def interval_text(low: float, high: float, decimals: int = 2) -> str:
    """How the Δ charts state the 95% bootstrap interval their two dashed lines mark, to the metric's decimals (at
    least 2: COMET's differences are thousandths, "-0.00 to 0.00" said nothing)."""
    d = max(2, decimals)
    return f"95%: {low:.{d}f} to {high:.{d}f}"
