"""Where the review desk's suggestions come from — another file's spans (anything ``--annotations`` reads), or a
metric of the run that names errors (an LLM judge, xCOMET) — and the review written as Marot's TSV: each of the run
shown, by the desk's names of its systems, with no state of the desk's own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ...core import Run
from ...core.inputs.annotations import attach_annotations
from ...core.inputs.ratings import ErrorSpan
from ...core.output.review_file import Mark, Review, marot_tsv

Suggestions = dict[tuple[str, int], list[Mark]]  # (system, 1-based segment) → the marks suggested there


def _marks(name: str, segment: int, errors: Sequence[ErrorSpan], by: str) -> list[Mark]:
    return [Mark(name, segment, e.severity, e.category, e.start, e.end, e.side, e.comment, by) for e in errors]


def from_file(run: Run, names: Sequence[str], path: str | Path) -> Suggestions:
    """The spans of a file, placed on the run's segments as ``--annotations`` places them (:class:`InputError` as
    the reader says)."""
    blank = [replace(s.file, annotations=None) for s in run.systems]
    attached, _notes = attach_annotations([path], blank, list(names), run.context, partial=True)
    found: Suggestions = {}
    for name, f in zip(names, attached):
        for k, ratings in enumerate(f.annotations or ()):
            if ratings is not None and ratings.errors:
                found.setdefault((name, k + 1), []).extend(_marks(name, k + 1, ratings.errors, Path(path).name))
    return found


def suggesting_metrics(run: Run) -> list[tuple[int, str]]:
    """The run's metrics that name errors (an LLM judge, xCOMET): (index, name)."""
    return [(k, m.name) for k, m in enumerate(run.metrics) if m.error_spans(run.systems[0].file.lines) is not None]


def from_metric(run: Run, names: Sequence[str], k: int) -> Suggestions:
    """The errors the run's metric ``k`` names; a segment-level one (its quote found nowhere) has no span."""
    metric = run.metrics[k]
    found: Suggestions = {}
    for name, system in zip(names, run.systems):
        for segment, errors in enumerate(metric.error_spans(system.file.lines) or (), 1):
            found.setdefault((name, segment), []).extend(_marks(name, segment, errors or (), metric.name))
    return found


def marot(run: Run, names: Sequence[str], review: Review) -> str:
    """The review as Marot's TSV (core.output.review_file.marot_tsv) of the whole run's texts."""
    texts = {name: s.lines for name, s in zip(names, run.systems)}
    source = run.context.source
    return marot_tsv(review.state, review.rater, texts, source.lines if source is not None else None, run.context.docs)
