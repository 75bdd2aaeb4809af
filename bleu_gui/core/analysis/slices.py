"""Slices: a subset of a run's segments, scored again as a corpus of its own.

Corpus BLEU is not an average of sentence scores, so a slice (one document,
one ``origlang``, the sentences a filter shows) is scored from its own summed
statistics, and its significance tests resample the slice's sentences only:
the numbers equal sacreBLEU's on the same subset of lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ..errors import InputError
from ..inputs.corpus import subset_file
from ..metrics.bleu_evaluator import Evaluator, scaled_progress
from ..run import Run, Significance, score_run


@dataclass(frozen=True)
class Slice:
    """Which segments of the whole run a sliced run holds, and what the whole scored."""

    description: str            # e.g. "doc = abc-123" or "origlang = en, 212 sentences shown by the filter"
    rows: tuple[int, ...]       # the whole run's segment index of each sliced segment
    total: int                  # segments in the whole run
    whole: tuple[float, ...]    # each system's corpus BLEU on the whole run

    @property
    def summary(self) -> str:
        return f"slice: {self.description} ({len(self.rows):,} of {self.total:,} segments)"


def parse_conditions(texts: Sequence[str]) -> list[tuple[str, str]]:
    """``KEY=VALUE`` conditions (``--where``), as pairs."""
    out = []
    for text in texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--where {text!r}: give KEY=VALUE, e.g. doc=abc-123 or origlang=en")
        out.append((key.strip(), value.strip()))
    return out


def select(run: Run, conditions: Sequence[tuple[str, str]]) -> list[int]:
    """Segments whose metadata equals every condition (``doc`` and the input's columns, e.g. ``origlang``)."""
    columns = run.context.columns()
    rows = list(range(run.n_sentences))
    for key, value in conditions:
        if key not in columns:
            have = ", ".join(columns) or "none (the input has no documents or metadata)"
            raise InputError(f"no column {key!r} to select by (columns: {have})")
        values = columns[key]
        rows = [i for i in rows if values[i] == value]
    if not rows:
        raise InputError(f"no segment has {' and '.join(f'{k} = {v}' for k, v in conditions)}")
    return rows


def describe(conditions: Sequence[tuple[str, str]]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in conditions)


def sliced(run: Run, rows: Sequence[int], description: str, *,
           significance: Significance | None | Literal["same"] = "same",
           progress: Callable[[float], None] | None = None) -> Run:
    """The run restricted to the segments ``rows`` (indices of ``run``), scored again from their statistics,
    with the same systems, names and settings, and the run's paired tests (or ``significance``).
    ``run`` must be a whole run, not a slice."""
    if run.slice is not None:
        raise ValueError("slice the whole run, not a slice of it")
    keep = sorted(set(rows))
    if not keep:
        raise InputError("the slice is empty")
    if significance == "same":
        significance = run.comparison.significance if run.comparison is not None else None
    ngram_diffs = run.comparison is not None and any(p.ngrams is not None for p in run.comparison.pairwise)
    references = [subset_file(r, keep) for r in run.references]
    # The whole run tokenized every word of the slice already: its word cache is continued, not rebuilt.
    evaluator = Evaluator([r.lines for r in references], run.config, scaled_progress(progress, 0.0, 0.3),
                          tokenization=run.evaluator.tokenization)
    part = score_run([subset_file(s.file, keep) for s in run.systems], references,
                     run.config, names=[s.name for s in run.systems], evaluator=evaluator,
                     significance=significance, ngram_diffs=ngram_diffs,
                     context=run.context.subset(keep), check_alignment=False,
                     progress=scaled_progress(progress, 0.3, 0.7))
    whole = tuple(s.corpus.score for s in run.systems)
    return replace(part, slice=Slice(description, tuple(keep), run.n_sentences, whole))
