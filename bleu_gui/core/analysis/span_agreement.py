"""Which error detector finds the errors the humans marked: the spans of each detector (xCOMET, the LLM judge, a
rater, a review, an imported span file) against the humans' spans, in every measure of :mod:`.span_measures`,
micro- and macro-averaged, per system and over all, with bootstrap intervals and a paired test between detectors.

The gold of a segment is one rater's spans — the rater named (``gold``), or else the first rater of the segment in
the files' order: a segment's raters are not pooled (stacked spans of two raters would count each error twice);
their agreement with each other is the ceiling (:func:`rater_ceiling`). A segment counts when the gold rater rated
it and the detector answered for it (a rater as detector: rated it too). Intervals: the 2.5th and 97.5th percentiles
of 1,000 bootstrap resamples of the segments (numpy's ``default_rng`` with a fixed seed). The paired test between
two detectors resamples their common segments together (Koehn 2004): the share of resamples in which the detector
ahead is not ahead — one-sided, on the headline measure (``partial``, micro).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ..inputs.ratings import SOURCE, ErrorSpan, Ratings
from ..inputs.text_files import SegmentFile
from .span_measures import MEASURES, Mark, components

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
            said += (f" The raters reach {self.ceiling.f1():.3f} with each other: {best.detector} is at "
                     f"{f1 / self.ceiling.f1():.0%} of it.")
        return said


def _segment_rows(detector_spans: SegmentSpans, system: SegmentFile, rater: str | None
                  ) -> tuple[list[int], list[list[float]]]:
    """The segments the detector and the gold both have, and each one's components (every measure, in order)."""
    annotations = system.annotations or ()
    rows, parts = [], []
    for i, ratings in enumerate(annotations):
        gold = gold_spans(ratings, rater)
        predicted = detector_spans[i] if i < len(detector_spans) else None
        if gold is None or predicted is None:
            continue
        length = len(system.lines[i]) if i < len(system.lines) else 0
        g, p = marks_of(gold[1], length), marks_of(predicted, length)
        rows.append(i)
        parts.append([x for m in MEASURES for x in components(m, p, g, length)])
    return rows, parts


def _prf(c: np.ndarray) -> np.ndarray:
    """Precision, recall, F1 for rows of (p num., p den., r num., r den.) components (last axis)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(c[..., 1] > 0, c[..., 0] / np.where(c[..., 1] > 0, c[..., 1], 1), 1.0)
        r = np.where(c[..., 3] > 0, c[..., 2] / np.where(c[..., 3] > 0, c[..., 3], 1), 1.0)
        f = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1), 0.0)
    return np.stack([p, r, f], axis=-1)


def _weights(n: int, resamples: int, seed: int) -> np.ndarray:
    """How often each of n segments is drawn in each bootstrap resample."""
    return np.random.default_rng(seed).multinomial(n, np.full(n, 1.0 / n), size=resamples).astype(np.float64)


def score_rows(parts: np.ndarray, resamples: int = RESAMPLES, seed: int = SEED) -> Scores:
    """Every measure over segments (rows: each measure's four components in :data:`MEASURES` order)."""
    n = len(parts)
    c = parts.reshape(n, len(MEASURES), 4)
    micro = _prf(c.sum(axis=0))
    each = _prf(c)                      # n × measures × 3
    macro = each.mean(axis=0) if n else np.ones((len(MEASURES), 3))
    values: dict[str, tuple[float, float, float]] = {}
    intervals: dict[str, tuple[float, float]] = {}
    if n:
        w = _weights(n, resamples, seed)
        micro_b = _prf((w @ c.reshape(n, -1)).reshape(resamples, len(MEASURES), 4))[..., 2]
        macro_b = (w @ each[..., 2]) / n
    for k, m in enumerate(MEASURES):
        values[f"{m}/micro"] = tuple(float(x) for x in micro[k])  # type: ignore[assignment]
        values[f"{m}/macro"] = tuple(float(x) for x in macro[k])  # type: ignore[assignment]
        for key, draws in ((f"{m}/micro", micro_b[:, k] if n else None), (f"{m}/macro", macro_b[:, k] if n else None)):
            intervals[key] = ((float(np.percentile(draws, 2.5)), float(np.percentile(draws, 97.5)))
                              if draws is not None else (float("nan"), float("nan")))
    return Scores(n, values, intervals)


def _headline_f1(c: np.ndarray) -> np.ndarray:
    k = MEASURES.index(HEADLINE)
    return _prf(c[..., 4 * k:4 * k + 4])[..., 2]


def paired_test(a: np.ndarray, b: np.ndarray, resamples: int = RESAMPLES, seed: int = SEED) -> tuple[float, float]:
    """(Δ headline F1 of a over b, the share of resamples in which the one ahead is not) on aligned rows."""
    delta = float(_headline_f1(a.sum(axis=0)) - _headline_f1(b.sum(axis=0)))
    w = _weights(len(a), resamples, seed)
    drawn = _headline_f1(w @ a) - _headline_f1(w @ b)
    return delta, float(np.mean(drawn <= 0) if delta > 0 else np.mean(drawn >= 0))


def span_agreement(systems: Sequence[SegmentFile], detectors: Sequence[Detector], gold: str | None = None,
                   names: Sequence[str] | None = None,
                   progress: Callable[[float], None] | None = None) -> SpanAgreement:
    """Each detector against the gold rater's spans (``gold``: a rater's name; None: each segment's first rater),
    per system (``names``: as shown) and over all; see the module."""
    names = list(names) if names is not None else [s.name for s in systems]
    rows: dict[str, dict[tuple[int, int], list[float]]] = {}
    found = []
    for d_index, detector in enumerate(detectors):
        by_item: dict[tuple[int, int], list[float]] = {}
        per_system: dict[str, Scores] = {}
        for s, system in enumerate(systems):
            segments, parts = _segment_rows(detector.spans[s], system, gold)
            if detector.kind == "rater":  # a rater is never scored against itself
                keep = [k for k, i in enumerate(segments)
                        if (g := gold_spans((system.annotations or ())[i], gold)) and g[0] != detector.name]
                segments, parts = [segments[k] for k in keep], [parts[k] for k in keep]
            if segments:
                per_system[names[s]] = score_rows(np.asarray(parts, np.float64))
                by_item.update({(s, i): p for i, p in zip(segments, parts)})
        if by_item:
            found.append(DetectorAgreement(detector.name, detector.kind,
                                           score_rows(np.asarray(list(by_item.values()), np.float64)), per_system))
            rows[detector.name] = by_item
        if progress is not None:
            progress((d_index + 1) / max(len(detectors), 1))
    found.sort(key=lambda d: (-d.overall.f1(), d.detector))
    tests = []
    for a, b in combinations([d.detector for d in found], 2):
        common = sorted(set(rows[a]) & set(rows[b]))
        if len(common) < 2:
            continue
        delta, p = paired_test(np.asarray([rows[a][k] for k in common]), np.asarray([rows[b][k] for k in common]))
        ahead, behind = (a, b) if delta >= 0 else (b, a)
        tests.append(PairedTest(ahead, behind, len(common), abs(delta), p))
    gold_segments = sum(1 for system in systems for r in (system.annotations or ()) if gold_spans(r, gold))
    return SpanAgreement(gold or "the first rater of each segment", tuple(found), tuple(tests), gold_segments,
                         rater_ceiling(systems))


def rater_ceiling(systems: Sequence[SegmentFile]) -> Scores | None:
    """The raters against each other: on every segment with two raters or more, each pair of raters (by name, the
    second as detector of the first's spans), all measures pooled over the pairs; None where no segment has two
    raters."""
    parts = []
    for system in systems:
        for i, ratings in enumerate(system.annotations or ()):
            if ratings is None or len(ratings.raters) < 2:
                continue
            length = len(system.lines[i]) if i < len(system.lines) else 0
            for a, b in combinations(sorted(ratings.raters), 2):
                g = marks_of([e for e in ratings.errors if e.rater == a], length)
                p = marks_of([e for e in ratings.errors if e.rater == b], length)
                parts.append([x for m in MEASURES for x in components(m, p, g, length)])
    return score_rows(np.asarray(parts, np.float64)) if parts else None

