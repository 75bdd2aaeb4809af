"""Humans ▸ Spans: which error detector finds the errors the humans marked (see core.analysis.span_agreement) — every
detector of the run (xCOMET, the LLM judge, each rater, a review, an imported span file) in every measure, micro or
macro; a detector's systems; a system's segments worst first; a segment drawn with its hits, misses and false
alarms. Computed in a worker when asked, for the run it was asked on."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Slot
from PySide6.QtWidgets import QComboBox, QLabel, QSplitter, QTextBrowser, QVBoxLayout, QWidget

from ...core import Run
from ...core.analysis.span_agreement import HEADLINE, Scores, SpanAgreement, gold_spans, segment_f1s
from ...core.analysis.span_measures import MEASURES
from ...core.metrics.span_marks import SPAN_PARTS, agreement_html
from ...core.run.span_eval_run import raters_of, run_span_agreement, span_detectors
from ..controller import Controller
from ..widgets.item_tables import cell as _cell
from ..widgets.item_tables import fill as _fill
from ..widgets.item_tables import item_table as _table
from ..widgets.item_tables import model_of, rows_height
from ..widgets.item_tables import name_item as _name
from ..widgets.job_progress import JobProgress
from ..widgets.layout import STRETCH, hrow, stacked
from ..widgets.style import styled
from .worker_panel import WorkerPanel

FIRST_RATER = "each segment's first rater"
TIPS = {"exact": "Exact match (Perrella et al. 2026's EM): a pair counts when start and end are equal",
        "overlap": "Partial overlap (MP): a pair counts when it shares a character",
        "partial": "Partial credit (MPP, the one Perrella et al. recommend): overlap over each span's length",
        "partial-severity": "Partial credit, a severity mismatch earning half",
        "wmt25": "WMT25's official scorer: character counts per severity, a mismatch earning half",
        "towereval": "TowerEval's: characters covered, a severity mismatch earning half"}
SEGMENT = Qt.ItemDataRole.UserRole + 3


def _f1_cell(s: Scores, key: str) -> str:
    low, high = s.intervals[key]
    return f"{s.values[key][2]:.3f} [{low:.3f}, {high:.3f}]"


class SpanAgreementPanel(WorkerPanel):
    """See the module."""

    found: SpanAgreement | None

    def __init__(self, controller: Controller, parent: QWidget | None = None):
        super().__init__(controller, parent)
        self.gold = QComboBox()
        self.gold.setObjectName("spanGold")
        self.gold.setToolTip("Whose spans are the truth: one rater per segment (a segment's raters are never pooled)")
        self.averaging = QComboBox()
        self.averaging.addItems(["micro", "macro"])
        self.averaging.setToolTip("micro: the segments' counts summed first (WMT25's, the default); macro: each "
                                  "segment's own precision, recall and F1 averaged")
        self.averaging.currentIndexChanged.connect(lambda _i: self._refill())
        self.button.setText("Evaluate the detectors")
        self.button.setToolTip("Every detector's spans against the gold's, in every measure, with 95% intervals "
                               "and a paired test (seconds)")
        self.button.clicked.connect(self.evaluate)
        self.progress = JobProgress(self.jobs)
        self.table = _table("spanDetectors")
        self.table.clicked.connect(self._detector_chosen)
        self.systems = _table("spanSystems")
        self.systems.clicked.connect(self._system_chosen)
        self.segments = _table("spanSegments")
        self.segments.clicked.connect(self._segment_chosen)
        self.drawn = QTextBrowser()
        self.drawn.setObjectName("spanDrawn")
        self.drawn.setOpenLinks(False)
        legend = "  ".join(f'<span style="background-color:{c}">&nbsp;{n}&nbsp;</span> {t}' for n, c, t in SPAN_PARTS)
        self.legend = styled(QLabel(legend), "hint")
        self.legend.setWordWrap(True)  # never the tab's width: at 1366×768 it widened the window past the screen
        self.chosen: tuple[str, int] | None = None  # (detector, system index)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(hrow("Spans against", self.gold, "averaged", self.averaging, self.button, self.progress,
                           STRETCH))
        box.addWidget(self.note)
        box.addWidget(self._parts(), 1)
        controller.run_changed.connect(self.on_run_changed)

    def _parts(self) -> QSplitter:
        lower = QSplitter(Qt.Orientation.Horizontal)
        lower.addWidget(self.systems)
        lower.addWidget(self.segments)
        lower.addWidget(stacked(self.legend, self.drawn))
        for k, stretch in enumerate((3, 1, 5)):  # the systems' names, the lines, the segment drawn
            lower.setStretchFactor(k, stretch)
        self.systems.setMinimumWidth(320)
        self.segments.setMinimumWidth(150)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(lower)
        split.setSizes([120, 480])
        self.split = split
        return split

    def _fit_table(self) -> None:
        """The detectors' every row in view (up to ten), the rest to their systems, segments and the text drawn."""
        need = rows_height(self.table, min(max(model_of(self.table).rowCount(), 2), 10))
        self.split.setSizes([need, max(sum(self.split.sizes()) - need, 1)])

    @Slot()
    def on_run_changed(self) -> None:
        run = self.controller.run
        if self._still_shown(run):
            return  # the same files and metrics (a pair chosen elsewhere re-orders them): the results stand
        self.jobs.cancel()
        self.found, self.chosen = None, None
        for table in (self.table, self.systems, self.segments):
            model_of(table).clear()
        self.drawn.clear()
        if not self.wanted(run):
            self._ready("No human error spans in this run: open an MQM table, or add WMT's ESA, Pearmut's log or "
                        "a review with File ▸ Open (Error annotations).")
            self.button.setEnabled(False)
            return
        assert run is not None
        current = self.gold.currentText()
        self.gold.blockSignals(True)
        self.gold.clear()
        self.gold.addItems([FIRST_RATER, *raters_of(run)])
        self.gold.setCurrentIndex(max(self.gold.findText(current), 0))
        self.gold.blockSignals(False)
        detectors = [d.name for d in span_detectors(run) if d.kind == "metric"]
        self._ready("Which detector finds the errors the humans marked? Evaluate: "
                    + (f"{', '.join(detectors)} and each rater" if detectors else "each rater (add xCOMET or an "
                       "LLM judge in the settings for a model's spans)")
                    + " against the gold, by exact match, overlap, partial credit, WMT25's and TowerEval's scorers.")

    @staticmethod
    def wanted(run: Run | None) -> bool:
        """Whether the run has human spans to evaluate detectors against."""
        return run is not None and bool(run.annotated)

    def _gold(self) -> str | None:
        text = self.gold.currentText()
        return None if text in ("", FIRST_RATER) else text

    @Slot()
    def evaluate(self) -> None:
        run = self.controller.run
        if run is None or not self.wanted(run):
            return
        gold = self._gold()
        self.button.setEnabled(False)
        self.note.setText(f"Scoring every detector against {gold or FIRST_RATER}…")
        self.jobs.submit(lambda progress: run_span_agreement(run, gold, progress), lambda found: self._show(run, found))

    def _show(self, run: Run, found: SpanAgreement) -> None:
        if not self._landed(run, found):
            return
        self._refill()
        tied = "" if not found.paired else " Paired tests: " + "; ".join(
            f"{t.ahead} − {t.behind} {t.delta:+.3f}, p = {t.p_value:.3f}" for t in found.paired[:3])
        self._ready(found.in_words() + tied)
        self._fit_table()
        if found.detectors:
            self._show_detector(found.detectors[0].detector)

    def _refill(self) -> None:
        found = self.found
        if found is None:
            return
        averaging = self.averaging.currentText()
        headline = f"{HEADLINE}/{averaging}"
        others = [m for m in MEASURES if m != HEADLINE]
        headers = ["detector", "kind", "segments", "partial F1 [95%]", "P", "R", *others]
        rows = []
        listed = [(d.detector, d.kind, d.overall) for d in found.detectors]
        if found.ceiling is not None:
            listed.append(("raters (ceiling)", "human", found.ceiling))
        for name, kind, s in listed:
            p, r, _f = s.values[headline]
            row = [_name(name), _name(kind), _cell(f"{s.segments:,}"), _cell(_f1_cell(s, headline)),
                   _cell(f"{p:.3f}"), _cell(f"{r:.3f}")]
            row += [_cell(f"{s.values[f'{m}/{averaging}'][2]:.3f}") for m in others]
            rows.append(row)
        _fill(self.table, headers, rows)
        for k, header in enumerate(headers):
            item = model_of(self.table).horizontalHeaderItem(k)
            if item is not None and header.split(" ")[0] in TIPS:
                item.setToolTip(TIPS[header.split(" ")[0]] + f" (F1, {averaging})")
        if self.chosen is not None:
            self._show_detector(self.chosen[0])

    @Slot(QModelIndex)
    def _detector_chosen(self, index: QModelIndex) -> None:
        name = model_of(self.table).index(index.row(), 0).data()
        if self.found is not None and any(d.detector == name for d in self.found.detectors):
            self._show_detector(str(name))

    def _show_detector(self, name: str) -> None:
        found = self.found
        assert found is not None
        detector = next(d for d in found.detectors if d.detector == name)
        headline = f"{HEADLINE}/{self.averaging.currentText()}"
        rows = []
        for system, s in detector.systems.items():
            p, r, _f = s.values[headline]
            rows.append([_name(system), _cell(f"{s.segments:,}"), _cell(_f1_cell(s, headline)), _cell(f"{p:.3f}"),
                         _cell(f"{r:.3f}")])
        _fill(self.systems, [f"{name}: system", "segments", "partial F1 [95%]", "P", "R"], rows)
        self.chosen = (name, 0)
        run = self._shown_for
        if run is not None and run.annotated:
            self._show_system(0)

    @Slot(QModelIndex)
    def _system_chosen(self, index: QModelIndex) -> None:
        self._show_system(index.row())

    def _show_system(self, row: int) -> None:
        run, chosen = self._shown_for, self.chosen
        if run is None or chosen is None:
            return
        names = list(next(d for d in self.found.detectors if d.detector == chosen[0]).systems) if self.found else []
        if not 0 <= row < len(names):
            return
        s = next(k for k, a in enumerate(run.annotated) if a.name == names[row])
        self.chosen = (chosen[0], s)
        detector = next(d for d in span_detectors(run) if d.name == chosen[0])
        rows = []
        for i, f1 in segment_f1s(detector, s, run.annotated[s].file, self._gold())[:200]:
            line = _cell(str(run.line_number(i)))
            line.setData(i, SEGMENT)
            line.setToolTip("Click: the segment drawn with its hits, misses and false alarms")
            rows.append([line, _cell(f"{f1:.3f}")])
        _fill(self.segments, ["line", "F1 (worst first)"], rows)
        if rows:
            self._draw(int(rows[0][0].data(SEGMENT)))

    @Slot(QModelIndex)
    def _segment_chosen(self, index: QModelIndex) -> None:
        segment = model_of(self.segments).index(index.row(), 0).data(SEGMENT)
        if segment is not None:
            self._draw(int(segment))

    def _draw(self, i: int) -> None:
        run, chosen = self._shown_for, self.chosen
        if run is None or chosen is None:
            return
        system = run.annotated[chosen[1]]
        detector = next(d for d in span_detectors(run) if d.name == chosen[0])
        ratings = (system.file.annotations or ())[i]
        gold = gold_spans(ratings, self._gold())
        spans = detector.spans[chosen[1]][i]
        html, counts = agreement_html(system.lines[i], spans or (), gold[1] if gold else ())
        said = ", ".join(f"{kind} {n:,}" for kind, n in counts.items() if n and not kind.startswith("omission"))
        said = (f"characters: {said}" if said else "") + "".join(
            f"; {kind}" for kind, n in counts.items() if n and kind.startswith("omission"))
        self.drawn.setHtml(f"<p><b>{system.name}, line {run.line_number(i)}</b> — {chosen[0]} against "
                           f"{gold[0] if gold else 'no rater'}: {said or 'nothing marked by either'}</p>"
                           f"<p style='font-size:large'>{html}</p>")
