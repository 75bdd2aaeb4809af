"""Every system of a run compared with its baseline under each metric (leave-one-out, wins/ties/losses, length
buckets, the paired tests of all pairs, BLEU's n-gram wins), and what a run scored again keeps of an earlier
comparison (the same statistics, the same files)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

import numpy as np

from ..analysis.compare import NgramComparison, bucket_scores, leave_one_out, length_buckets
from ..analysis.pair_matrix import PairMatrix, pair_matrix, sign_test, win_tie_loss
from ..inputs.text_files import SegmentFile
from ..metrics.base import Metric
from ..metrics.bleu.metric import find_bleu, scaled_progress
from ..metrics.ngram_stats import MatchedRows
from .results import (
    Comparison,
    MetricComparison,
    MetricResult,
    NgramWins,
    PairDelta,
    Run,
    RunConfig,
    ScoredSystem,
)

Progress = Callable[[float], None]
NGRAM_TOP = 200  # n-grams listed per order and direction


def reusable_wins(previous: Run | None, systems: Sequence[SegmentFile], metrics: Sequence[Metric],
                  earlier: dict[tuple[int, int], MetricResult], same: Mapping[int, int]) -> list[NgramWins] | None:
    """The previous run's n-gram wins when BLEU's statistics of every system stand and the systems are the same
    files in the same order (the wins are per pair with the baseline; ``same``: files given again with other
    annotations, new id → old); None: count them again."""
    found = find_bleu(metrics)
    if (previous is None or previous.comparison is None or not previous.comparison.ngram_wins or found is None
            or [id(s.file) for s in previous.systems] != [same.get(id(f), id(f)) for f in systems]
            or any((id(f), found[0]) not in earlier for f in systems)):
        return None
    return previous.comparison.ngram_wins


def reusable_matrices(previous: Run | None, systems: list[ScoredSystem], metrics: Sequence[Metric],
                      config: RunConfig, same: Mapping[int, int]) -> list[PairMatrix | None]:
    """Per metric, the previous run's pair matrix, reordered, when it tested the same files with the same metric
    and tests (a new baseline changes no p-value: both tests are symmetric in the pair); ``same``: files given
    again with other annotations (new id → old), the same files to a metric that does not read annotations."""
    none: list[PairMatrix | None] = [None] * len(metrics)
    if previous is None or previous.comparison is None or len(previous.systems) != len(systems):
        return none
    if previous.comparison.significance != config.significance:
        return none
    where = {id(s.file): i for i, s in enumerate(previous.systems)}

    def kept(ids: list[int]) -> list[int] | None:
        order = [where.get(i) for i in ids]
        if any(i is None for i in order) or len(set(order)) != len(order):
            return None
        return [int(i) for i in order if i is not None]

    strict = kept([id(s.file) for s in systems])
    lines_only = kept([same.get(id(s.file), id(s.file)) for s in systems])
    out = list(none)
    for k, metric in enumerate(metrics):
        order = strict if metric.reads_attached else lines_only
        for j, before in enumerate(previous.metrics):
            matrix = previous.comparison.by_metric[j].matrix
            if before is metric and matrix is not None and order is not None:
                out[k] = matrix.permuted(order).renamed([s.name for s in systems])
    return out


def reusable_comparisons(previous: Run | None, systems: list[ScoredSystem], references: Sequence[SegmentFile],
                         metrics: Sequence[Metric]) -> list[MetricComparison | None]:
    """Per metric, the previous run's comparison with the baseline (leave-one-out, wins/ties/losses, length
    buckets) when it compared the very statistics of these systems in this order with the same metric object, and
    its length buckets came from the same BLEU (or from the references' words in both); its pair matrix is not
    read (see :func:`reusable_matrices`)."""
    none: list[MetricComparison | None] = [None] * len(metrics)
    if (previous is None or previous.comparison is None or len(previous.systems) != len(systems)
            or [id(r) for r in previous.references] != [id(r) for r in references]):
        return none
    bleu_before, bleu_now = find_bleu(previous.metrics), find_bleu(metrics)
    if (bleu_before is None) != (bleu_now is None) or (
            bleu_before is not None and bleu_now is not None and bleu_before[1] is not bleu_now[1]):
        return none
    out = list(none)
    for k, metric in enumerate(metrics):
        for j, before in enumerate(previous.metrics):
            if before is metric and all(a.results[j].stats is b.results[k].stats
                                        for a, b in zip(previous.systems, systems)):
                out[k] = previous.comparison.by_metric[j]
    return out


def _bucket_lengths(metrics: Sequence[Metric], systems: list[ScoredSystem], references: Sequence[SegmentFile],
                    source: SegmentFile | None) -> tuple[np.ndarray, str]:
    """Each sentence's length for compare-mt's length buckets, and what it is: BLEU's effective reference length
    of the baseline where BLEU is a metric of the run, else the first reference's words; without references, the
    source's words (the same for every system, as a reference is)."""
    found = find_bleu(metrics)
    if found is not None:
        return systems[0].results[found[0]].stats[:, 1], "reference length"
    if references:
        return np.array([len(line.split()) for line in references[0].lines], np.int64), "reference length"
    lines = source.lines if source is not None else [""] * len(systems[0].file.lines)
    return np.array([len(line.split()) for line in lines], np.int64), "source length"


def compare_with_baseline(metrics: Sequence[Metric], cfg: RunConfig, systems: list[ScoredSystem],
                          references: Sequence[SegmentFile], matched: list[MatchedRows] | None,
                          progress: Progress | None, matrices: list[PairMatrix | None],
                          earlier: list[MetricComparison | None], source: SegmentFile | None = None) -> Comparison:
    """Every system of ``systems[1:]`` against the baseline under each metric: leave-one-out, wins/ties/losses
    with the sign test, length buckets, the paired tests of every pair (``cfg.significance``; ``matrices``: those
    still holding from an earlier run), and BLEU's n-gram wins from the ``matched`` rows (none without them).
    ``earlier``: per metric, a comparison of these very statistics from an earlier run, kept as it is."""
    names = [s.name for s in systems]
    significance = cfg.significance
    note = ""
    if significance is not None and not all(m.significance for m in metrics):
        note = "Significance tests follow sacreBLEU: switch the variant to sacrebleu to run them."
    if significance is not None and not (significance.bootstrap or significance.approximate):
        significance = None
    lengths, bucketed_by = _bucket_lengths(metrics, systems, references, source)
    labels, masks = length_buckets(lengths)
    by_metric = []
    span = 0.9 / len(metrics)
    for k, metric in enumerate(metrics):
        stats = [s.results[k].stats for s in systems]
        tested = significance is not None and metric.significance
        matrix = matrices[k] if tested else None
        if matrix is None and tested and significance is not None:
            matrix = pair_matrix(stats, metric, names, significance.bootstrap, significance.approximate,
                                 seed=significance.seed, progress=scaled_progress(progress, k * span, span))
        before = earlier[k]
        if before is not None:  # an earlier stage compared these very statistics: the same object when all holds
            by_metric.append(before if before.matrix is matrix else replace(before, matrix=matrix))
            continue
        pairwise = []
        base = systems[0].results[k]
        done = scaled_progress(progress, (k + 1) * span, 0.0)  # a cancel check between systems
        base_without = metric.without_each(base.stats)  # the baseline's leave-one-out, once for every pair
        for s in systems[1:]:
            if done is not None:
                done(1.0)
            result = s.results[k]
            loo = leave_one_out(metric, base_without, result.stats, base.corpus.score, result.corpus.score)
            wtl = win_tie_loss(base.sentences, result.sentences, _both_scored(metric, base.stats, result.stats))
            if not metric.higher_is_better:  # "B better" means a lower score
                wtl = (wtl[2], wtl[1], wtl[0])
            pairwise.append(PairDelta(loo, wtl, sign_test(wtl[0], wtl[2])))
        if done is not None:
            done(1.0)
        by_metric.append(MetricComparison(pairwise, bucket_scores(stats, metric, masks), matrix))
    wins = _ngram_wins(metrics, matched, scaled_progress(progress, 0.9, 0.1)) if matched is not None else []
    identical = [i > 0 and s.lines == systems[0].lines for i, s in enumerate(systems)]
    return Comparison(tuple(by_metric), labels, np.array([int(m.sum()) for m in masks]), significance, wins, note,
                      identical, bucketed_by=bucketed_by)


def _both_scored(metric: Metric, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """The segments both systems have a score for (None: every segment)."""
    scored_a, scored_b = metric.scored(a), metric.scored(b)
    if scored_a is None and scored_b is None:
        return None
    every = np.ones(len(a), bool)
    return (scored_a if scored_a is not None else every) & (scored_b if scored_b is not None else every)


def _ngram_wins(metrics: Sequence[Metric], matched: list[MatchedRows], progress: Progress | None) -> list[NgramWins]:
    found = find_bleu(metrics)
    assert found is not None  # matched rows are BLEU's
    bleu = found[1]
    pairs = len(matched) - 1
    out = []
    for i in range(1, len(matched)):
        def part(start: float, span: float, i: int = i) -> Progress | None:
            return scaled_progress(progress, ((i - 1) + start) / pairs, span / pairs)

        ngrams = NgramComparison(bleu, matched[0], matched[i], max_order=bleu.config.max_order,
                                 progress=part(0.0, 0.1))
        top = ngrams.max_order
        wins = {n: ngrams.differences(n, top=NGRAM_TOP, progress=part(0.1 + 0.9 * (n - 1) / top, 0.9 / top))
                for n in range(1, top + 1)}
        out.append(NgramWins(ngrams, wins))
    return out


