"""Which segments a campaign for the humans asks about, and how many it needs: one way for the command and the window.

- The rows a ``where`` expression chooses (all without one), then a seeded sample of them: at random, whole
  documents, or equal shares of a metric's quantile bins (:mod:`..analysis.human_sample`).
- Per pair of the systems asked about (of more than four, each and its neighbour in the metric's ranking), how many
  segments the metric's own segment scores say a campaign needs to separate them
  (:func:`..analysis.human_sample.segments_needed`): the metric's estimate, a floor.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..analysis.human_sample import document_rows, quantile_rows, random_rows, segments_needed
from ..errors import InputError, term
from ..run.results import Run

RANDOM, DOCUMENT = "random", "document"  # the samples that are not by a metric

NEEDED_SAID = ("a paired t-test at p < 0.05 in 80% of 1,000 bootstrap samples of the metric's segment scores on the "
               "chosen segments; the humans will disagree with the metric and with each other: a floor, not a promise")


@dataclass(frozen=True)
class Sample:
    """``n`` of the chosen rows (None: all of them), ``by`` ``random``, ``document`` or a metric's name, seeded."""

    n: int | None = None
    by: str = RANDOM
    seed: int = 0


def chosen_rows(run: Run, where: Sequence[str]) -> tuple[list[int], str]:
    """The rows (0-based, of the whole run) the ``where`` expressions choose (all without one), and how, in
    words."""
    from ..where import where_rows

    if not where:
        return list(range(run.n_sentences)), f"all {run.n_sentences:,} segments of the run"
    rows, said = where_rows(run, where)
    return list(rows), said


def sample_metric(run: Run, by: str) -> int | None:
    """The run's index of the metric a sample ``by`` names (None for ``random`` and ``document``); InputError for a
    name that is none of these."""
    if by in (RANDOM, DOCUMENT):
        return None
    try:
        return run.metric_index(by)
    except KeyError:
        raise InputError(f"{term('sample_by', by)}: {RANDOM}, {DOCUMENT}, or a metric of the run "
                         f"({', '.join(m.name for m in run.metrics)})") from None


def sampled_rows(run: Run, rows: Sequence[int], systems: Sequence[int], sample: Sample) -> tuple[list[int], str]:
    """``sample`` of ``rows`` and how it was drawn, in words ("" when it takes them all). A sample by a metric
    draws from the bins of its mean segment score over ``systems``."""
    rows = list(rows)
    if sample.n is None:
        return rows, ""
    n, seed = sample.n, sample.seed
    if n >= len(rows):  # a sample of more than there are is all of them: said so, never "100 at random" of 30
        return rows, f"all {len(rows):,} (a sample of {n:,} was asked for)"
    if sample.by == RANDOM:
        return random_rows(rows, n, seed), f"{n:,} at random (seed {seed})"
    if sample.by == DOCUMENT:
        if run.context.docs is None:
            raise InputError(f"{term('sample_by', DOCUMENT)}: the run has no documents ({term('docs')}, or a format "
                             "that has them)")
        return document_rows(rows, run.context.docs, n, seed), f"whole documents at random until {n:,} segments " \
                                                                f"(seed {seed})"
    k = sample_metric(run, sample.by)
    assert k is not None
    with np.errstate(invalid="ignore"):
        mean = np.nanmean(np.stack([run.systems[s].results[k].sentences for s in systems]), axis=0)
    return (quantile_rows(rows, [float(x) for x in mean], n, seed),
            f"{n:,} in equal shares of five quantile bins of {run.metrics[k].name} (seed {seed})")


def deciding_metric(run: Run, by: str) -> int:
    """The metric whose segment scores estimate a campaign's size: the one a sample is by, else the run's first."""
    try:
        return run.metric_index(by)
    except KeyError:
        return 0


@dataclass(frozen=True)
class PairNeed:
    """Systems ``a`` and ``b`` (run indices) and the segments a campaign needs to separate them (None: more than
    the largest size tried, the metric sees them as equal)."""

    a: int
    b: int
    segments: int | None


ALL_PAIRS_UP_TO = 4  # systems; more are estimated for their neighbours in the metric's ranking


def pairs_to_estimate(run: Run, systems: Sequence[int], rows: Sequence[int], metric: int) -> list[tuple[int, int]]:
    """The pairs whose separation a campaign's size is estimated for: every pair of up to four systems; of more,
    each system and its neighbour in the metric's ranking on ``rows`` (a ranking is settled when neighbours are
    separated; 13 systems are 12 pairs, not 78)."""
    systems = list(systems)
    if len(systems) <= ALL_PAIRS_UP_TO:
        return [(a, b) for n, a in enumerate(systems) for b in systems[n + 1:]]
    rows = list(rows)
    sign = 1.0 if run.metrics[metric].higher_is_better else -1.0
    with np.errstate(invalid="ignore"):
        means = {s: float(np.nanmean(run.systems[s].results[metric].sentences[rows])) for s in systems}
    ranked = sorted(systems, key=lambda s: (-sign * means[s] if not np.isnan(means[s]) else np.inf, s))
    return list(zip(ranked, ranked[1:]))


def pairs_needed(run: Run, systems: Sequence[int], rows: Sequence[int], metric: int, seed: int,
                 progress: Callable[[float], None] | None = None) -> list[PairNeed]:
    """Per pair of :func:`pairs_to_estimate`, how many segments metric ``metric``'s scores on ``rows`` say a
    campaign needs; ``progress(fraction)`` after each pair (it may raise to stop)."""
    rows = list(rows)
    pairs = pairs_to_estimate(run, systems, rows, metric)
    found = []
    for k, (a, b) in enumerate(pairs):
        found.append(PairNeed(a, b, segments_needed(run.systems[a].results[metric].sentences[rows],
                                                    run.systems[b].results[metric].sentences[rows], seed)))
        if progress is not None:
            progress((k + 1) / len(pairs))
    return found
