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
    tokens, its effective reference length), else words of the candidate and the first reference."""
    k = run.bleu_index
    if k is not None:
        stats = run.systems[system].results[k].stats
        return stats[:, 0], stats[:, 1]
    hyp = np.array([len(line.split()) for line in run.systems[system].lines], np.int64)
    ref = np.array([len(line.split()) for line in run.references[0].lines], np.int64)
    return hyp, ref


def prepare(run: Run) -> Prepared:
    """Everything :class:`Prepared` holds for ``run`` (call it in the worker)."""
    texts = [text_order(s.lines) for s in run.systems]  # the costly order, the same for every metric
    lengths = [_lengths(run, i) for i in range(len(run.systems))]
    # One scale per metric for every system: their histograms and filters line up.
    scales = [m.score_scale(np.concatenate([s.results[k].sentences for s in run.systems]))
              for k, m in enumerate(run.metrics)]
    orders = tuple(tuple(sentence_orders(s.lines, s.results[k].sentences, *lengths[i], text=texts[i],
                                         scale=scales[k])
                         for i, s in enumerate(run.systems)) for k in range(len(run.metrics)))
    documents = tuple(document_scores(run.context.docs, [s.results[k].stats for s in run.systems], metric)
                      for k, metric in enumerate(run.metrics))
    tags = tuple(run.tag_mismatches(i) for i in range(len(run.systems)))
    out_of_gc_passes(run.n_sentences * (len(run.systems) + len(run.references)))
    return Prepared(run, orders, documents, tags)
