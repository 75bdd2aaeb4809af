"""What the window computes for a run before it shows it, in the worker: sort orders of every list, documents,
inline-tag mismatches. The window's caches, kept beside the run (never in it: the command line needs none).

Computed on the GUI thread they would freeze the window: the text order of a million lines takes about a
second with the interpreter lock held much of the time, and a document table sums a million statistics rows
per metric.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import Run
from ..core.analysis.documents import DocumentScores, document_scores
from ..core.analysis.orders import SentenceOrders, sentence_orders, text_order
from ..core.runtime import out_of_gc_passes


@dataclass(frozen=True)
class Prepared:
    """A run with what the window shows of it, computed once: ``orders[metric][system]``,
    ``documents[metric]`` (None without document ids) and ``tag_mismatches[system]``."""

    run: Run
    orders: tuple[tuple[SentenceOrders, ...], ...]
    documents: tuple[DocumentScores | None, ...]
    tag_mismatches: tuple[list[int], ...]


def _lengths(run: Run, system: int) -> tuple[np.ndarray, np.ndarray]:
    """Candidate and reference lengths for the length-ratio order: BLEU's where BLEU is a metric of the run (its
    tokens, its effective reference length), else words of the candidate and the first reference (without
    references: the characters of the candidate and the source)."""
    k = run.bleu_index
    if k is not None:
        stats = run.systems[system].results[k].stats
        return stats[:, 0], stats[:, 1]
    if not run.references:  # characters: words of a Japanese candidate over an English source mean nothing
        source = run.context.source
        hyp = np.array([len(line) for line in run.systems[system].lines], np.int64)
        return hyp, np.array([len(line) for line in source.lines], np.int64) if source is not None else hyp
    hyp = np.array([len(line.split()) for line in run.systems[system].lines], np.int64)
    return hyp, np.array([len(line.split()) for line in run.references[0].lines], np.int64)


def prepare(run: Run, like: Prepared | None = None) -> Prepared:
    """Everything :class:`Prepared` holds for ``run`` (call it in the worker). ``like``: a prepared run of the same
    systems (an earlier stage of the same open, the run before a change of settings) whose orders and documents
    are taken as they are for every metric whose statistics are the very same objects — each stage of a staged
    open adds one metric, and only that metric's orders are computed."""
    same_files = like is not None and [s.file for s in like.run.systems] == [s.file for s in run.systems] and all(
        a is b for a, b in zip(like.run.references, run.references)) and len(like.run.references) == len(run.references)
    kept = _kept_metrics(run, like) if same_files else {}
    if same_files and like is not None and like.orders:
        texts = [o.text for o in like.orders[0]]  # the text order is the same under every metric
    else:
        texts = [text_order(s.lines) for s in run.systems]  # the costly order, the same for every metric
    lengths = [_lengths(run, i) for i in range(len(run.systems))] if len(kept) < len(run.metrics) else []
    # One scale per metric for every system: their histograms and filters line up.
    orders, documents = [], []
    for k, metric in enumerate(run.metrics):
        if k in kept and like is not None:
            orders.append(like.orders[kept[k]])
            documents.append(like.documents[kept[k]])
            continue
        scale = metric.score_scale(np.concatenate([s.results[k].sentences for s in run.systems]))
        orders.append(tuple(sentence_orders(s.lines, s.results[k].sentences, *lengths[i], text=texts[i], scale=scale)
                            for i, s in enumerate(run.systems)))
        documents.append(document_scores(run.context.docs, [s.results[k].stats for s in run.systems], metric))
    tags = like.tag_mismatches if same_files and like is not None else tuple(
        run.tag_mismatches(i) for i in range(len(run.systems)))
    out_of_gc_passes(run.n_sentences * (len(run.systems) + len(run.references)))
    return Prepared(run, tuple(orders), tuple(documents), tags)


def _kept_metrics(run: Run, like: Prepared | None) -> dict[int, int]:
    """For each metric of ``run`` whose every system's results are those ``like`` prepared, that metric's index in
    ``like``. The length-ratio order follows BLEU's statistics: with other BLEU statistics nothing is kept."""
    if like is None or not _same_bleu(run, like.run):
        return {}
    out = {}
    for k, metric in enumerate(run.metrics):
        for j, earlier in enumerate(like.run.metrics):
            if earlier is metric and all(a.results[j] is b.results[k] for a, b in zip(like.run.systems, run.systems)):
                out[k] = j
    return out


def _same_bleu(run: Run, earlier: Run) -> bool:
    """Whether both runs' length ratios come from the same statistics (BLEU's, or words when neither has BLEU)."""
    k, j = run.bleu_index, earlier.bleu_index
    if k is None or j is None:
        return k is None and j is None
    return all(a.results[j] is b.results[k] for a, b in zip(earlier.systems, run.systems))


def shows_the_same(after: Prepared, before: Prepared, k_after: int, k_before: int) -> bool:
    """Whether ``after`` shows what ``before`` showed under its metric ``k_before`` (``k_after`` in ``after``): the
    same systems, references, context and sentences, the very same statistics and orders of that metric and of
    BLEU. A later stage of a staged open is such a run: it adds metrics or tests and changes nothing else shown."""
    a, b = after.run, before.run
    if a.slice is not None or b.slice is not None or a.context is not b.context:
        return False
    if len(a.systems) != len(b.systems) or len(a.references) != len(b.references):
        return False
    if any(x is not y for x, y in zip(a.references, b.references)):
        return False
    if any(x.file is not y.file or x.name != y.name or x.results[k_after] is not y.results[k_before]
           for x, y in zip(a.systems, b.systems)):
        return False
    return (a.metrics[k_after] is b.metrics[k_before] and after.orders[k_after] is before.orders[k_before]
            and after.tag_mismatches is before.tag_mismatches and _same_bleu(a, b))
