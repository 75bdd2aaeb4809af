"""A run's error detectors against its human spans (:mod:`..analysis.span_agreement`): every metric that marks
spans (xCOMET, the LLM judge) and every rater of the annotations (a desk review, an imported span file, another
human) is a detector."""

from __future__ import annotations

from collections.abc import Callable

from ..analysis.span_agreement import Detector, SpanAgreement, span_agreement
from ..errors import InputError, term
from .results import Run


def raters_of(run: Run) -> list[str]:
    """Every rater of the run's annotations, in the order first met."""
    seen: dict[str, None] = {}
    for system in run.annotated:
        for ratings in system.file.annotations or ():
            if ratings is not None:
                seen.update(dict.fromkeys(ratings.raters))
    return list(seen)


def span_detectors(run: Run) -> list[Detector]:
    """The metrics that mark spans, then the raters, each as a detector over the annotated systems."""
    systems = run.annotated
    found = []
    for metric in run.metrics:
        spans = [metric.error_spans(s.file.lines) for s in systems]
        if any(s is not None for s in spans):
            found.append(Detector(metric.name, "metric", [s if s is not None else [None] * len(x.file.lines)
                                                          for s, x in zip(spans, systems)]))
    for rater in raters_of(run):
        per_system = []
        for system in systems:
            per_system.append([tuple(e for e in r.errors if e.rater == rater) if r is not None and rater in r.raters
                               else None for r in system.file.annotations or ()])
        found.append(Detector(rater, "rater", per_system))
    return found


def run_span_agreement(run: Run, gold: str | None = None,
                       progress: Callable[[float], None] | None = None) -> SpanAgreement:
    """The run's detectors against ``gold`` (a rater's name; None: each segment's first rater); :class:`InputError`
    when the run has no annotations or names a rater it does not hold."""
    if not run.annotated:
        raise InputError(f"{term('span_eval')}: no system has human error spans (open an MQM table, or give "
                         f"{term('annotations')}: WMT's ESA, Pearmut's log, a review)")
    if gold is not None and gold not in raters_of(run):
        raise InputError(f"{term('span_eval', gold)}: no rater of that name (the run's raters: "
                         f"{', '.join(raters_of(run)[:12])}{' …' if len(raters_of(run)) > 12 else ''})")
    return span_agreement([s.file for s in run.annotated], span_detectors(run), gold,
                          [s.name for s in run.annotated], progress)

