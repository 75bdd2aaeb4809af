"""Humans ▸ *Scores*: which metric of the run agrees with the human scores (MQM, or a human column read
from a file), by mt-metrics-eval's statistics, beside a constant and a random baseline (see
core.analysis.meta_eval). Computed in a worker when asked; a metric's row shows its system scores against the
humans' and the system pairs it orders against them; a pair is a click from Compare's A and B, and from the
segments that pull the metric and the humans apart on it (the disagreement view's measure on the pair's differences),
each a click from the A and B panes."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QModelIndex, Qt, Signal, Slot
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QLabel, QPushButton, QSizePolicy, QSplitter, QVBoxLayout, QWidget

from ...core import Run, palette
from ...core.analysis.meta_eval import CONSTANT_SPA, STATISTICS, Agreement, MetaEvaluation, in_words
from ...core.output.score_text import score_text
from ...core.run.meta_eval_run import human_candidates, meta_evaluate_run, segments_apart
from ..controller import Controller
from ..jobs import JobController
from ..state import Selection, whole_rows
from ..widgets.elided_label import ElidedLabel
from ..widgets.item_tables import cell as _cell
from ..widgets.item_tables import fill as _fill
from ..widgets.item_tables import item_table as _table
from ..widgets.item_tables import model_of, rows_height
from ..widgets.item_tables import name_item as _name
from ..widgets.job_progress import JobProgress
from ..widgets.layout import STRETCH, hrow
from ..widgets.style import styled

HEADERS = ["rank", "metric", "pair acc", "Pearson", "SPA", "acc*_eq", "ε", "seg Pearson", "Kendall", "PDP"]
TIPS = {"pair acc": "System level: the share of system pairs the metric orders as the humans do",
        "Pearson": "System level: Pearson's r of the system scores",
        "SPA": "Soft pairwise accuracy (WMT24): 1 − the mean gap between the humans' and the metric's p-values",
        "acc*_eq": "Segment level: pairs ordered alike or tied in both, per segment, with the tie threshold ε that "
                   "maximises it (Deutsch et al. 2023)",
        "seg Pearson": "Segment level: Pearson's r over every system × segment",
        "Kendall": "Segment level: Kendall's τ_b over every system × segment",
        "PDP": "Segment level: Pearson's r of the score differences of every two systems on the same segment "
               "(pairwise difference Pearson, mt-metrics-eval 2025)"}
PAIR = Qt.ItemDataRole.UserRole + 1     # a pair row's (a, b) system names
SEGMENT = Qt.ItemDataRole.UserRole + 2  # a segment row's sentence index
APART = 10  # segments listed for a pair
FIT_ROWS = 12  # the metric table's rows kept in view (more scroll)
NAMED = 3  # the scatter's outliers named beside their dots (13 names over each other would hide the dots)


def outliers(x: Sequence[float], y: Sequence[float], k: int = NAMED) -> list[int]:
    """The ``k`` points furthest from the least-squares line of ``y`` on ``x`` (the systems a metric scores most
    unlike the humans), furthest first; every point when there are ``k`` or fewer."""
    if len(x) <= k:
        return list(range(len(x)))
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    slope, offset = np.polyfit(xs, ys, 1) if np.ptp(xs) > 0 else (0.0, float(ys.mean()))
    off = np.abs(ys - (slope * xs + offset))
    return [int(i) for i in np.argsort(-off, kind="stable")[:k]]


def _number(value: object) -> str:
    return f"{value:.3f}" if isinstance(value, float) else "–"


class MetricsVsHumansPanel(QWidget):
    """See the module. ``segment_opened(sentence)``: a segment was chosen to be seen in the A and B panes."""

    segment_opened = Signal(int)
    ask_humans = Signal(object)  # a Selection: the segments listed apart, to ask (more) raters about

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.jobs = JobController(self)
        self.found: MetaEvaluation | None = None
        self.human = QComboBox()
        self.human.setObjectName("metaEvalHuman")
        self.human.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.button = QPushButton("Evaluate the metrics")
        self.button.setToolTip("mt-metrics-eval's statistics of every other metric against these human scores, "
                               "with WMT's clusters and a constant and a random baseline (seconds)")
        self.button.clicked.connect(self.evaluate)
        self.progress = JobProgress(self.jobs)
        self.note = styled(QLabel(), "hint")
        self.note.setWordWrap(True)
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.table = _table("metaEvalTable")
        self.table.setSortingEnabled(True)
        self.table.clicked.connect(self._metric_chosen)
        self.plot = pg.PlotWidget(background=palette.BACKGROUND)
        self.plot.setLabel("bottom", "human score (system)")
        self.plot.setLabel("left", "metric score (system)")
        self.plot.setMinimumSize(260, 200)
        self.scatter = pg.ScatterPlotItem(size=9, hoverable=True, tip=self._tip)
        self.plot.addItem(self.scatter)
        self.names: list[pg.TextItem] = []  # the outliers' names beside their dots
        self.pairs_title = styled(ElidedLabel("Click a metric: the system pairs it orders against the humans"),
                                  "paneTitle")
        self.pairs = _table("metaEvalPairs")
        self.pairs.clicked.connect(self._pair_chosen)
        self.apart_title = styled(ElidedLabel("Click a pair: the segments that pull the metric and the humans apart"),
                                  "paneTitle")
        self.apart = _table("metaEvalApart")
        self.apart.clicked.connect(self._segment_chosen)
        self.ask_button = QPushButton("Ask the humans about these…")
        self.ask_button.setToolTip("A Pearmut campaign of the segments listed, for more raters "
                                   "(File ▸ Ask the humans…)")
        self.ask_button.setEnabled(False)
        self.ask_button.clicked.connect(self._hand_to_humans)
        self.listed: tuple[tuple[int, ...], str] = ((), "")
        self.chosen: Agreement | None = None
        self._shown_for: Run | None = None  # the run the results are of (see on_run_changed)
        self.jobs.failed.connect(lambda message, _details: self.note.setText(message))
        self.jobs.cancelled.connect(lambda _job: self._ready("Cancelled."))
        self.split = split = self._parts()
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(hrow("Metrics against the human scores", self.human, self.button, self.progress, STRETCH))
        box.addWidget(self.note)
        box.addWidget(split, 1)
        controller.run_changed.connect(self.on_run_changed)

    def _parts(self) -> QSplitter:
        """The table across the top (every row in view); under it the scatter of a metric's system scores beside
        its pairs over a pair's segments: at 1366×768 with 13 systems the scatter beside the table had 110 px and
        its names ran over each other."""
        right = QSplitter(Qt.Orientation.Vertical)
        for title, table in ((self.pairs_title, self.pairs), (self.apart_title, self.apart)):
            part = QWidget()
            box = QVBoxLayout(part)
            box.setContentsMargins(0, 0, 0, 0)
            if table is self.apart:
                box.addLayout(hrow(title, self.ask_button))
            else:
                box.addWidget(title)
            box.addWidget(table, 1)
            right.addWidget(part)
        bottom = QSplitter(Qt.Orientation.Horizontal)
        bottom.addWidget(self.plot)
        bottom.addWidget(right)
        bottom.setStretchFactor(0, 2)
        bottom.setStretchFactor(1, 3)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(bottom)
        split.setSizes([200, 400])
        return split

    @staticmethod
    def wanted(run: Run | None) -> bool:
        """Whether a run has human scores to evaluate metrics against (and two systems and another metric)."""
        return run is not None and len(run.systems) > 1 and len(run.metrics) > 1 and bool(human_candidates(run))

    @staticmethod
    def _same_data(run: Run | None, before: Run | None) -> bool:
        """Whether ``run`` holds what the results were computed on (``before``): the very files (in any order: a
        pair chosen here makes A the baseline, which reorders them; a reviewer's mark gives a file anew), the very
        metric objects (other settings bind others) and the same segments."""
        if run is None or before is None or len(run.systems) != len(before.systems):
            return False
        files = {s.name: s.file for s in before.systems}
        return (all(files.get(s.name) is s.file for s in run.systems) and len(run.metrics) == len(before.metrics)
                and all(a is b for a, b in zip(run.metrics, before.metrics)) and run.n_sentences == before.n_sentences
                and (run.slice.rows if run.slice else None) == (before.slice.rows if before.slice else None))

    @Slot()
    def on_run_changed(self) -> None:
        run = self.controller.run
        if self.found is not None and self._same_data(run, self._shown_for):
            return  # the same systems re-ordered (a pair chosen here): the results stand
        self.jobs.cancel()
        self.found, self.chosen = None, None
        for table in (self.table, self.pairs, self.apart):
            model_of(table).clear()
        self._list_apart((), "")
        self._name_dots([], [], [])
        self.scatter.setData([])
        if not self.wanted(run):
            return
        assert run is not None
        current = self.human.currentText()
        self.human.blockSignals(True)
        self.human.clear()
        self.human.addItems([run.metrics[k].name for k in human_candidates(run)])
        self.human.setCurrentIndex(max(self.human.findText(current), 0))
        self.human.blockSignals(False)
        self._ready("Which metric of this run agrees with the humans? Evaluate: mt-metrics-eval's statistics, "
                    "on the segments every system has a human score for.")

    def _ready(self, said: str) -> None:
        self.button.setEnabled(True)
        self.note.setText(said)

    @Slot()
    def evaluate(self) -> None:
        run, human = self.controller.run, self.human.currentText()
        if run is None or not human:
            return
        self.button.setEnabled(False)
        self.note.setText(f"Evaluating every metric against {human}…")
        self.jobs.submit(lambda progress: meta_evaluate_run(run, human, progress=progress), self._show)

    def _show(self, found: MetaEvaluation) -> None:
        self.found, self._shown_for = found, self.controller.run
        rows = []
        for m in found.metrics:
            flagged = found.below_random(m)
            cells = [_cell(str(m.rank or "")), _name(m.metric + (" (negated)" if m.lower_is_better else ""))]
            cells += [_cell(_number(getattr(m, s))) for s in STATISTICS[:4]]
            cells.insert(6, _cell(f"{m.segment_epsilon:.4g}"))
            cells += [_cell(_number(getattr(m, s))) for s in STATISTICS[4:]]
            for c in cells:  # WMT's clusters shaded in turn, as the systems table shades significance clusters
                c.setBackground(QColor(palette.CLUSTER_BANDS[((m.rank or 1) - 1) % len(palette.CLUSTER_BANDS)]))
            if flagged:
                for c in cells:
                    c.setToolTip(f"Below the random baseline on {', '.join(flagged)}")
                    c.setForeground(QColor(palette.BAR_UNMATCHED))
            rows.append(cells)
        for name, values in (("constant metric", found.baselines.get("constant", {})),
                             ("random (mean of 100)", found.baselines.get("random", {}))):
            cells = [_cell(""), _name(name)] + [_cell(_number(values.get(s))) for s in STATISTICS[:4]]
            cells.insert(6, _cell(""))
            cells += [_cell(_number(values.get(s))) for s in STATISTICS[4:]]
            for c in cells:  # the baselines: a grey band under the metrics
                c.setForeground(QColor(palette.MUTED))
                c.setBackground(QColor(palette.HEADER_BG))
                c.setToolTip("A baseline (MTME #14): what a metric with no signal gets" + (
                    ". " + CONSTANT_SPA if name == "constant metric" else ""))
            rows.append(cells)
        _fill(self.table, HEADERS, rows)
        for k, header in enumerate(HEADERS):
            item = model_of(self.table).horizontalHeaderItem(k)
            if item is not None and header in TIPS:
                item.setToolTip(TIPS[header])
        left = f" ({found.left_out:,} left out: some system has no human score there)" if found.left_out else ""
        ceiling = found.ceiling
        if ceiling is not None:
            left += (f"; the raters' ceiling on {ceiling.segments:,} doubly rated segments: pair acc "
                     f"{ceiling.raters.system_pairwise_accuracy:.3f}, acc*_eq {ceiling.raters.segment_acc_eq:.3f}")
        self._ready(f"{in_words(found)}\n{len(found.systems)} systems, {found.segments:,} segments{left}; rank: "
                    "WMT's clusters by pairwise accuracy; grey: baselines (hover the constant one: why its SPA is "
                    "high); red: below the random baseline. Click a metric.")
        self._fit_table()
        if found.metrics:
            self._show_metric(found.metrics[0])

    def _fit_table(self) -> None:
        """The table's every row in view (the metrics and the baselines under them), the pairs taking the rest: at
        1366×768 the baselines fell below the fold."""
        view, total = self.table, sum(self.split.sizes())
        view.resizeColumnsToContents()
        need = rows_height(view, min(model_of(view).rowCount(), FIT_ROWS))
        view.setMinimumHeight(need)  # the splitter never takes the baselines away (the tab scrolls instead)
        self.split.setSizes([need, max(total - need, 1)])

    def _name_dots(self, human: Sequence[float], metric: Sequence[float], systems: Sequence[str]) -> None:
        """The outliers' names beside their dots (every dot's name is its tooltip)."""
        for item in self.names:
            self.plot.removeItem(item)
        self.names = []
        if not human:
            return
        lo_x, lo_y = min(human), min(metric)
        wide, high = (max(human) - lo_x) or 1.0, (max(metric) - lo_y) or 1.0
        placed: list[tuple[float, float, float]] = []  # (x, y, vertical anchor) of the names drawn, in 0..1
        for i in outliers(human, metric):
            x, y = (human[i] - lo_x) / wide, (metric[i] - lo_y) / high
            # Inward from the dot (left of it in the right half, under it in the top half): never off the plot;
            # on the other side of a close neighbour's name, never over it.
            below = 0.0 if y > 0.5 else 1.0
            if any(abs(x - px) < 0.25 and abs(y - py) < 0.15 and pa == below for px, py, pa in placed):
                below = 1.0 - below
            placed.append((x, y, below))
            anchor = (1.0 if x > 0.5 else 0.0, below)
            label = pg.TextItem(systems[i], color=palette.TEXT, anchor=anchor)
            label.setPos(human[i], metric[i])
            self.plot.addItem(label)
            self.names.append(label)

    def _metric_of(self, index: QModelIndex) -> Agreement | None:
        if self.found is None:
            return None
        name = model_of(self.table).index(index.row(), 1).data()
        return next((m for m in self.found.metrics if name in (m.metric, f"{m.metric} (negated)")), None)

    @Slot(QModelIndex)
    def _metric_chosen(self, index: QModelIndex) -> None:
        metric = self._metric_of(index)
        if metric is not None:
            self._show_metric(metric)

    def _show_metric(self, m: Agreement) -> None:
        found = self.found
        assert found is not None
        self.chosen = m
        model_of(self.apart).clear()
        self._list_apart((), "")  # nothing listed: nothing to hand to the humans (never the last metric's)
        self.plot.setLabel("left", f"{m.metric}{' (negated)' if m.lower_is_better else ''} (system)")
        self.plot.setLabel("bottom", f"{found.human}{' (negated)' if found.human_negated else ''} (system mean)")
        self.scatter.setData([{"pos": (h, v), "data": name, "brush": pg.mkBrush(palette.SYSTEMS[0])}
                              for h, v, name in zip(found.human_scores, m.system_scores, found.systems)])
        self._name_dots(found.human_scores, m.system_scores, found.systems)
        self.plot.autoRange()
        rows = []
        for a, b, dh, dm, ph, pm in m.parted:
            cell = _name(f"{a} > {b}")
            cell.setData((a, b), PAIR)
            cell.setToolTip(f"Click: compare {a} (A) with {b} (B)")
            rows.append([cell, _cell(f"{dh:+.3f}"), _cell(f"{ph:.3f}"), _cell(f"{dm:+.3f}"), _cell(f"{pm:.3f}")])
        _fill(self.pairs, ["humans' better > worse", "human Δ", "human p", f"{m.metric} Δ", f"{m.metric} p"], rows)
        self.pairs_title.setText(f"{m.metric}: {len(m.parted)} system pair(s) ordered against the humans (click one: "
                                 "A and B in Compare)" if m.parted else f"{m.metric} orders every pair as the humans do")

    @Slot(QModelIndex)
    def _pair_chosen(self, index: QModelIndex) -> None:
        pair, run = model_of(self.pairs).index(index.row(), 0).data(PAIR), self.controller.run
        if pair is None or run is None or self.found is None or self.chosen is None:
            return
        a, b = str(pair[0]), str(pair[1])
        m = self.chosen
        rows = []
        for d in segments_apart(run, self.found.human, m.metric, a, b, APART):
            line = _cell(str(run.line_number(d.segment)))
            line.setData(d.segment, SEGMENT)
            line.setToolTip("Click: this segment in the A and B panes")
            rows.append([line, _cell(score_text(d.second)), _cell(score_text(d.first))])
        _fill(self.apart, ["line", f"{self.found.human} Δ", f"{m.metric} Δ"], rows)
        self.apart_title.setText(f"{a} − {b}: the {len(rows)} segments that pull {m.metric} and the humans furthest "
                                 "apart (click one)")
        segments = sorted(int(r[0].data(SEGMENT)) for r in rows)
        self._list_apart(whole_rows(run, segments) if run.context.source is not None else (),
                         f"where {m.metric} and the humans part most on {a} − {b} (top {len(rows)})")
        names = [s.name for s in run.systems]
        self.controller.actions.compare_pair(names.index(a), names.index(b))

    def _list_apart(self, rows: tuple[int, ...], said: str) -> None:
        """The segments listed apart (rows of the whole run), for *Ask the humans about these…* (a campaign shows
        the source: none without one)."""
        self.listed = (rows, said)
        self.ask_button.setEnabled(bool(rows))

    def _hand_to_humans(self) -> None:
        rows, said = self.listed
        if rows:
            self.ask_humans.emit(Selection(rows, said))

    @Slot(QModelIndex)
    def _segment_chosen(self, index: QModelIndex) -> None:
        segment = model_of(self.apart).index(index.row(), 0).data(SEGMENT)
        if segment is not None:
            self.controller.set_sentence(int(segment))
            self.segment_opened.emit(int(segment))

    def _tip(self, x: float, y: float, data: object) -> str:
        return f"{data}: humans {x:.3f}, metric {y:.3f}"
