"""Which error detector finds the errors the humans marked: the spans of each detector (xCOMET, the LLM judge, a
rater, a review, an imported span file) against the humans' spans, in every measure of :mod:`.span_measures`,
micro- and macro-averaged, per system and over all, with bootstrap intervals and a paired test between detectors.

The gold of a segment is one rater's spans — the rater named (``gold``), or else the first rater of the segment in
the files' order: a segment's raters are not pooled (stacked spans of two raters would count each error twice);
their agreement with each other is the ceiling (:func:`rater_ceiling`). A segment counts when the gold rater rated
it and the detector answered for it (a rater as detector: rated it too). Intervals: the 2.5th and 97.5th percentiles
of 1,000 bootstrap resamples of the segments (numpy's ``default_rng``, seeded), drawn per system — each system a
stratum of its own, the run's resample the sum of its systems' — so that one set of draws gives every system's
interval and the whole run's. The paired test between two detectors resamples their common segments together
(Koehn 2004; the same draws where they were scored on the same segments): the share of resamples in which the
detector ahead is not ahead — one-sided, on the headline measure (``partial``, micro).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ..inputs.ratings import SOURCE, ErrorSpan, Ratings
from ..inputs.text_files import SegmentFile
from .span_measures import MEASURES, Mark, all_components

HEADLINE = "partial"
AVERAGING = ("micro", "macro")
RESAMPLES = 1000
SEED = 20260
ALPHA = 0.05
ERROR_SEVERITIES = {"Critical": "critical", "Major": "major", "Minor": "minor"}
# A segment's spans, per system, as a detector gives them (None: no answer for that segment).
SegmentSpans = Sequence[Sequence[ErrorSpan] | None]


@dataclass(frozen=True)
class Detector:
    """Spans to evaluate: a name, what it is (``metric``, ``rater``) and per system the spans of each segment."""

    name: str
    kind: str
    spans: Sequence[SegmentSpans]


def marks_of(errors: Sequence[ErrorSpan], length: int) -> list[Mark]:
    """The errors as measured spans: Critical, Major and Minor only; an omission without a span just after the
    text (see :mod:`.span_measures`)."""
    out = []
    for e in errors:
        severity = ERROR_SEVERITIES.get(e.severity)
        if severity is None:
            continue
        side = "source" if e.side == SOURCE else "target"
        if e.start is None or e.end is None:
            out.append(Mark(length, length + 1, severity, "target", omission=True))
        elif e.end > e.start:
            out.append(Mark(e.start, e.end, severity, side))
    return out


def gold_spans(ratings: Ratings | None, rater: str | None) -> tuple[str, list[ErrorSpan]] | None:
    """The gold rater of a segment and their spans (None: the segment has no rating by that rater)."""
    if ratings is None or not ratings.raters:
        return None
    chosen = rater if rater is not None else ratings.raters[0]
    if chosen not in ratings.raters:
        return None
    return chosen, [e for e in ratings.errors if e.rater == chosen]


@dataclass(frozen=True)
class Scores:
    """One detector on one set of segments: per measure and averaging (precision, recall, F1) and the F1's 95%
    bootstrap interval."""

    segments: int
    values: dict[str, tuple[float, float, float]]
    intervals: dict[str, tuple[float, float]]

    def f1(self, key: str = f"{HEADLINE}/micro") -> float:
        return self.values[key][2]

    def to_dict(self) -> dict[str, object]:
        return {"segments": self.segments, **{k: {"precision": p, "recall": r, "f1": f, "f1_interval": list(
            self.intervals[k])} for k, (p, r, f) in self.values.items()}}


@dataclass(frozen=True)
class DetectorAgreement:
    detector: str
    kind: str
    overall: Scores
    systems: dict[str, Scores]


@dataclass(frozen=True)
class PairedTest:
    ahead: str
    behind: str
    segments: int
    delta: float  # headline F1 of ahead minus behind, on their common segments
    p_value: float


@dataclass(frozen=True)
class SpanAgreement:
    """Every detector against the gold (see the module)."""

    gold: str
    detectors: tuple[DetectorAgreement, ...]  # best headline F1 first
    paired: tuple[PairedTest, ...]
    gold_segments: int
    ceiling: Scores | None = None  # rater against rater, where segments have two raters or more
    notes: tuple[str, ...] = ()

    def tied_with(self, name: str) -> list[str]:
        """The detectors the paired test cannot separate from ``name``."""
        return [t.behind if t.ahead == name else t.ahead for t in self.paired
                if name in (t.ahead, t.behind) and t.p_value >= ALPHA]

    def to_dict(self) -> dict[str, object]:
        return {"gold": self.gold, "gold_segments": self.gold_segments, "headline": f"{HEADLINE}/micro",
                "definitions": "bleu_gui.core.analysis.span_measures (docs/metrics.md: span agreement)",
                "detectors": [{"detector": d.detector, "kind": d.kind, "overall": d.overall.to_dict(),
                               "systems": {s: v.to_dict() for s, v in d.systems.items()}} for d in self.detectors],
                "paired": [{"ahead": t.ahead, "behind": t.behind, "segments": t.segments, "delta": t.delta,
                            "p_value": t.p_value} for t in self.paired],
                "rater_ceiling": self.ceiling.to_dict() if self.ceiling else None, "notes": list(self.notes)}

    def in_words(self) -> str:
        """The verdict in a sentence or two, never stronger than the paired test allows."""
        if not self.detectors:
            return "No detector of the run marks spans (add xCOMET, an LLM judge, or another rater's file)."
        best = self.detectors[0]
        f1 = best.overall.f1()
        low, high = best.overall.intervals[f"{HEADLINE}/micro"]
        said = (f"Against {self.gold} on {best.overall.segments:,} segments, {best.detector} agrees most: "
                f"partial-credit F1 {f1:.3f} [{low:.3f}, {high:.3f}]")
        tied = self.tied_with(best.detector)
        if tied:
            said += f", tied with {', '.join(tied)} (the paired test cannot tell them apart, p ≥ {ALPHA:g})"
        said += "."
        if self.ceiling is not None and self.ceiling.f1() > 0:
            said += f" The raters reach {self.ceiling.f1():.3f} with each other"
            model = next((d for d in self.detectors if d.kind == "metric"), None)  # a rater is part of the ceiling
            said += (f": {model.detector} is at {model.overall.f1() / self.ceiling.f1():.0%} of it." if model
                     else ".")
        return said


Gold = dict[int, tuple[str, list[Mark], int]]  # segment → (its gold rater, the rater's spans, the text's length)


def gold_marks(system: SegmentFile, rater: str | None) -> Gold:
    """The gold of each rated segment of a system (see :func:`gold_spans`), measured once for every detector."""
    found: Gold = {}
    for i, ratings in enumerate(system.annotations or ()):
        gold = gold_spans(ratings, rater)
        if gold is not None:
            length = len(system.lines[i]) if i < len(system.lines) else 0
            found[i] = (gold[0], marks_of(gold[1], length), length)
    return found


def _detector_rows(detector: Detector, s: int, gold: Gold) -> tuple[list[int], list[list[float]]]:
    """The segments the detector and the gold both have, and each one's components (every measure, in order); a
    rater is never scored against itself (where it is the gold)."""
    spans = detector.spans[s]
    rows, parts = [], []
    for i, (rater, g, length) in gold.items():
        predicted = spans[i] if i < len(spans) else None
        if predicted is None or (detector.kind == "rater" and rater == detector.name):
            continue
        rows.append(i)
        parts.append(all_components(marks_of(predicted, length), g, length))
    return rows, parts


def _prf(c: np.ndarray) -> np.ndarray:
    """Precision, recall, F1 for rows of (p num., p den., r num., r den.) components (last axis)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(c[..., 1] > 0, c[..., 0] / np.where(c[..., 1] > 0, c[..., 1], 1), 1.0)
        r = np.where(c[..., 3] > 0, c[..., 2] / np.where(c[..., 3] > 0, c[..., 3], 1), 1.0)
        f = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1), 0.0)
    return np.stack([p, r, f], axis=-1)


def resampled_sums(values: np.ndarray, resamples: int = RESAMPLES, seed: int = SEED) -> np.ndarray:
    """The column sums of ``values`` (rows: segments) over each of ``resamples`` bootstrap resamples of its rows
    (numpy's ``default_rng(seed)`` draws each resample's rows with replacement), resamples × columns. Drawn and
    counted in blocks of resamples: one weight matrix of every resample would hold resamples × rows numbers."""
    n = len(values)
    rng = np.random.default_rng(seed)
    out = np.empty((resamples, values.shape[1]))
    counts = np.empty((_BLOCK, n))
    for start in range(0, resamples, _BLOCK):
        r = min(_BLOCK, resamples - start)
        drawn = rng.integers(0, n, size=(r, n))
        for k in range(r):  # a row at a time: ~1.5× faster than one bincount of the block (the cache)
            counts[k] = np.bincount(drawn[k], minlength=n)
        out[start:start + r] = counts[:r] @ values
    return out


_BLOCK = 50


_WIDTH = 5 * len(MEASURES)  # a detector's resampled columns: each measure's 4 components, then its segment F1s


def _columns(c: np.ndarray) -> np.ndarray:
    """Rows of one detector's components (segments × measures × 4) as the columns resampled."""
    return np.hstack([c.reshape(len(c), -1), _prf(c)[..., 2]])


def score_together(groups: Sequence[np.ndarray], resamples: int = RESAMPLES, seed: int = SEED
                   ) -> tuple[list[Scores], list[np.ndarray]]:
    """Several detectors' rows over the same segments, resampled together — the same draws for each, so that their
    intervals and the paired tests between them read one set of resamples; and each one's resampled sums (resamples
    × its columns), which add over strata."""
    n = len(groups[0])
    parts = [g.reshape(n, len(MEASURES), 4) for g in groups]
    sums = resampled_sums(np.hstack([_columns(c) for c in parts]), resamples, seed) if n else None
    blocks = [sums[:, j * _WIDTH:(j + 1) * _WIDTH] if sums is not None else np.zeros((resamples, _WIDTH))
              for j in range(len(parts))]
    return [_scores_of(c, block if n else None) for c, block in zip(parts, blocks)], blocks


def _scores_of(c: np.ndarray, block: np.ndarray | None) -> Scores:
    """The :class:`Scores` of rows ``c`` (segments × measures × 4) and their resampled sums (None: no segments)."""
    n = len(c)
    micro, each = _prf(c.sum(axis=0)), _prf(c)
    macro = each.mean(axis=0) if n else np.ones((len(MEASURES), 3))
    micro_b = (_prf(block[:, :4 * len(MEASURES)].reshape(len(block), len(MEASURES), 4))[..., 2]
               if block is not None else None)
    macro_b = block[:, 4 * len(MEASURES):] / n if block is not None else None
    values: dict[str, tuple[float, float, float]] = {}
    intervals: dict[str, tuple[float, float]] = {}
    for k, m in enumerate(MEASURES):
        values[f"{m}/micro"] = (float(micro[k, 0]), float(micro[k, 1]), float(micro[k, 2]))
        values[f"{m}/macro"] = (float(macro[k, 0]), float(macro[k, 1]), float(macro[k, 2]))
        for key, draws in ((f"{m}/micro", micro_b), (f"{m}/macro", macro_b)):
            intervals[key] = ((float(np.percentile(draws[:, k], 2.5)), float(np.percentile(draws[:, k], 97.5)))
                              if draws is not None else (float("nan"), float("nan")))
    return Scores(n, values, intervals)


def _headline_draws(block: np.ndarray) -> np.ndarray:
    k = MEASURES.index(HEADLINE)
    return _prf(block[:, 4 * k:4 * k + 4])[..., 2]


def _headline_f1(c: np.ndarray) -> np.ndarray:
    k = MEASURES.index(HEADLINE)
    return _prf(c[..., 4 * k:4 * k + 4])[..., 2]


def paired_test(a: np.ndarray, b: np.ndarray, resamples: int = RESAMPLES, seed: int = SEED) -> tuple[float, float]:
    """(Δ headline F1 of a over b, the share of resamples in which the one ahead is not) on aligned rows."""
    delta = float(_headline_f1(a.sum(axis=0)) - _headline_f1(b.sum(axis=0)))
    k = MEASURES.index(HEADLINE)
    sums = resampled_sums(np.hstack([a[:, 4 * k:4 * k + 4], b[:, 4 * k:4 * k + 4]]), resamples, seed)
    drawn = _prf(sums[:, :4])[..., 2] - _prf(sums[:, 4:])[..., 2]
    return delta, float(np.mean(drawn <= 0) if delta > 0 else np.mean(drawn >= 0))


def span_agreement(systems: Sequence[SegmentFile], detectors: Sequence[Detector], gold: str | None = None,
                   names: Sequence[str] | None = None,
                   progress: Callable[[float], None] | None = None) -> SpanAgreement:
    """Each detector against the gold rater's spans (``gold``: a rater's name; None: each segment's first rater),
    per system (``names``: as shown) and over all; see the module."""
    names = list(names) if names is not None else [s.name for s in systems]
    golds = [gold_marks(system, gold) for system in systems]
    # Each detector's rows per system: (segments, components).
    rows = [[_detector_rows(d, s, golds[s]) for s in range(len(systems))] for d in detectors]
    if progress is not None:
        progress(0.8)
    per_system: list[dict[str, Scores]] = [{} for _ in detectors]
    # Resampled per system, each its own stratum (seeded by its place), the sums adding up to the whole run's: the
    # intervals over all come from the same draws as each system's, at no second cost.
    totals = [np.zeros((RESAMPLES, _WIDTH)) for _ in detectors]
    for s in range(len(systems)):
        for members in _same_rows([(d, tuple(rows[d][s][0])) for d in range(len(detectors)) if rows[d][s][0]]):
            scores, blocks = score_together([np.asarray(rows[d][s][1], np.float64) for d in members], seed=SEED + s)
            for d, found, block in zip(members, scores, blocks):
                per_system[d][names[s]] = found
                totals[d] += block
    items = [{(s, i): p for s, (segments, parts) in enumerate(rows[d]) for i, p in zip(segments, parts)}
             for d in range(len(detectors))]
    overall = {d: _scores_of(np.asarray(list(items[d].values()), np.float64).reshape(len(items[d]), len(MEASURES), 4),
                             totals[d]) for d in range(len(detectors)) if items[d]}
    draws = {d: (tuple(items[d]), _headline_draws(totals[d])) for d in overall}
    found_all = sorted((DetectorAgreement(detectors[d].name, detectors[d].kind, overall[d], per_system[d])
                        for d in overall), key=lambda x: (-x.overall.f1(), x.detector))
    index = {detectors[d].name: d for d in overall}
    tests = [_paired(found_all, index, items, draws, a, b) for a, b in combinations(range(len(found_all)), 2)]
    if progress is not None:
        progress(1.0)
    gold_segments = sum(len(g) for g in golds)
    return SpanAgreement(gold or "the first rater of each segment", tuple(found_all),
                         tuple(t for t in tests if t is not None), gold_segments, rater_ceiling(systems))


def _same_rows(keyed: Sequence[tuple[int, tuple[object, ...]]]) -> list[list[int]]:
    """The detectors grouped by the segments they were scored on (scored together where they are the same)."""
    groups: dict[tuple[object, ...], list[int]] = {}
    for d, key in keyed:
        groups.setdefault(key, []).append(d)
    return list(groups.values())


def _paired(found: Sequence[DetectorAgreement], index: dict[str, int], items: Sequence[dict[tuple[int, int], list[float]]],
            draws: dict[int, tuple[tuple[tuple[int, int], ...], np.ndarray]], a: int, b: int) -> PairedTest | None:
    """The paired test of the a-th and b-th detectors found, on their common segments: from the resamples they
    shared where they were scored on the same segments (drawn in the same strata), else resampled anew."""
    da, db = index[found[a].detector], index[found[b].detector]
    if da in draws and db in draws and draws[da][0] == draws[db][0]:
        common = len(draws[da][0])
        delta = found[a].overall.f1() - found[b].overall.f1()
        diff = draws[da][1] - draws[db][1]
        p = float(np.mean(diff <= 0) if delta > 0 else np.mean(diff >= 0))
    else:
        keys = sorted(set(items[da]) & set(items[db]))
        if len(keys) < 2:
            return None
        common = len(keys)
        delta, p = paired_test(np.asarray([items[da][k] for k in keys]), np.asarray([items[db][k] for k in keys]))
    ahead, behind = (found[a].detector, found[b].detector) if delta >= 0 else (found[b].detector, found[a].detector)
    return PairedTest(ahead, behind, common, abs(delta), p)


def rater_ceiling(systems: Sequence[SegmentFile]) -> Scores | None:
    """The raters against each other: on every segment with two raters or more, each pair of raters (in the order
    the files give them, the later as detector of the earlier's spans, as a rater detector is scored against each
    segment's first rater), all measures pooled over the pairs; None where no segment has two raters."""
    per_system = []
    for system in systems:
        parts = []
        for i, ratings in enumerate(system.annotations or ()):
            if ratings is None or len(ratings.raters) < 2:
                continue
            length = len(system.lines[i]) if i < len(system.lines) else 0
            for a, b in combinations(ratings.raters, 2):
                g = marks_of([e for e in ratings.errors if e.rater == a], length)
                p = marks_of([e for e in ratings.errors if e.rater == b], length)
                parts.append(all_components(p, g, length))
        per_system.append(parts)
    return stratified(per_system)


def stratified(per_system: Sequence[Sequence[list[float]]]) -> Scores | None:
    """The :class:`Scores` of rows drawn per system (each a stratum, seeded by its place, as :func:`span_agreement`
    draws them); None without rows."""
    totals, every = np.zeros((RESAMPLES, _WIDTH)), list[list[float]]()
    for s, parts in enumerate(per_system):
        if parts:
            totals += score_together([np.asarray(parts, np.float64)], seed=SEED + s)[1][0]
            every.extend(parts)
    if not every:
        return None
    return _scores_of(np.asarray(every, np.float64).reshape(len(every), len(MEASURES), 4), totals)


def segment_f1s(detector: Detector, system_index: int, system: SegmentFile, gold: str | None = None
                ) -> list[tuple[int, float]]:
    """Each segment the detector and the gold both have, with its own headline F1 (partial credit), worst first."""
    rows, parts = _detector_rows(detector, system_index, gold_marks(system, gold))
    if not rows:
        return []
    f1 = _headline_f1(np.asarray(parts, np.float64))
    return sorted(zip(rows, (float(v) for v in f1)), key=lambda r: (r[1], r[0]))
