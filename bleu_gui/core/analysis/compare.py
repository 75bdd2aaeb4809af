"""Where two systems differ: leave-one-out contributions and length buckets under any metric, BLEU's n-gram wins
and losses.

All of it is computed from the sufficient statistics (and, for n-grams, from
BLEU's reference index), never from a second scoring path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..metrics.base import Metric
from ..metrics.bleu.metric import Bleu
from ..metrics.chunked import Progress
from ..metrics.ngram_stats import MatchedRows

# compare-mt's default reference-length buckets.
_CHUNK = 1 << 19  # table rows handled between cancel checks
LENGTH_EDGES = (10, 20, 30, 40, 50, 60)


def leave_one_out(metric: Metric, without_a: np.ndarray, stats_b: np.ndarray, corpus_a: float,
                  corpus_b: float) -> np.ndarray:
    """How much the corpus Δ (B − A) moves because of each sentence: Δ(all) − Δ(without the sentence);
    ``without_a``: A's corpus score without each sentence (``metric.without_each``, the same for every B).

    Positive: the sentence pushes the corpus difference up (in B's favour for a metric where higher is better).
    """
    return (corpus_b - corpus_a) - (metric.without_each(stats_b) - without_a)


def length_buckets(ref_len: np.ndarray, edges: Sequence[int] = LENGTH_EDGES) -> tuple[list[str], list[np.ndarray]]:
    """compare-mt's reference-length buckets: (labels, a mask of the sentences in each)."""
    bounds = [0, *edges, None]
    labels, masks = [], []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        labels.append(f"<{hi}" if lo == 0 else (f"≥{lo}" if hi is None else f"{lo}-{hi - 1}"))
        masks.append((ref_len >= lo) & (ref_len < hi if hi is not None else True))
    return labels, masks


def bucket_scores(stats_list: Sequence[np.ndarray], metric: Metric, masks: Sequence[np.ndarray]) -> np.ndarray:
    """The corpus score of each system in each bucket (systems × buckets, NaN for an empty bucket)."""
    scores = np.full((len(stats_list), len(masks)), np.nan)
    for s, stats in enumerate(stats_list):
        for b, mask in enumerate(masks):
            if mask.any():
                scores[s, b] = metric.value(stats[mask])
    return scores


@dataclass(frozen=True)
class NgramDifference:
    """An n-gram that one system matches more often than the other, over the corpus."""

    order: int
    ngram: str
    matches_a: int
    matches_b: int

    @property
    def delta(self) -> int:
        return self.matches_b - self.matches_a


def _top(values: np.ndarray, top: int) -> np.ndarray:
    """Indices of the ``top`` largest positive values, largest first, ties by index (no full sort)."""
    cand = np.flatnonzero(values > 0)
    if len(cand) > top:
        kth = np.partition(values[cand], len(cand) - top)[len(cand) - top]
        cand = cand[values[cand] >= kth]
    return cand[np.lexsort((cand, -values[cand]))[:top]]


class NgramComparison:
    """Clipped matches of every reference n-gram by two systems, aggregated over the corpus.

    ``rows_a``/``rows_b`` are the matched rows that :meth:`Bleu.statistics`
    returns with :meth:`Bleu.matched_statistics`, so no system is tokenized or matched twice.
    """

    def __init__(self, evaluator: Bleu, rows_a: MatchedRows, rows_b: MatchedRows, max_order: int = 4,
                 progress: Progress = None):
        index = evaluator.index
        self.index = index
        self.max_order = min(max_order, index.max_order)
        self._strings = evaluator.tokenization.strings
        self.per_order = []
        for n in range(self.max_order):
            size = len(index.tables[n].local_keys)
            counts = []
            # A system matches each (sentence, n-gram) row at most once: the rows are distinct.
            for matched_rows, clipped in (rows_a[n], rows_b[n]):
                if progress is not None:
                    progress(n / self.max_order)
                count = np.zeros(size, np.int64)
                count[matched_rows] = clipped
                counts.append(count)
            self.per_order.append((counts[0], counts[1]))

    def differences(self, order: int, top: int = 50,
                    progress: Progress = None) -> tuple[list[NgramDifference], list[NgramDifference]]:
        """(wins for B, wins for A) at one order, largest difference first; ``progress`` is a cancel check."""
        count_a, count_b = self.per_order[order - 1]
        ids = self.index.ngram_ids(order, progress)

        def check() -> None:
            if progress is not None:
                progress(1.0)

        check()
        n_ids = int(ids.max()) + 1 if len(ids) else 0
        total_a, total_b = np.zeros(n_ids, np.int64), np.zeros(n_ids, np.int64)
        for a in range(0, len(ids), _CHUNK):
            # Only rows that either system matched carry a count.
            piece_a, piece_b, piece_ids = count_a[a:a + _CHUNK], count_b[a:a + _CHUNK], ids[a:a + _CHUNK]
            matched = (piece_a > 0) | (piece_b > 0)
            np.add.at(total_a, piece_ids[matched], piece_a[matched])
            np.add.at(total_b, piece_ids[matched], piece_b[matched])
            check()
        delta = total_b - total_a
        check()
        chosen_by_side = []
        for sign in (1, -1):
            chosen_by_side.append(_top(sign * delta, top))
            check()
        # One table row per chosen id, to spell the n-gram.
        is_chosen = np.zeros(n_ids, bool)
        is_chosen[np.concatenate(chosen_by_side)] = True
        row_of: dict[int, int] = {}
        for a in range(0, len(ids), _CHUNK):
            piece_ids = ids[a:a + _CHUNK]
            hits = np.flatnonzero(is_chosen[piece_ids])
            if len(hits):
                found, first = np.unique(piece_ids[hits], return_index=True)
                row_of.update(zip(found.tolist(), (a + hits[first]).tolist()))
                is_chosen[found] = False  # one row per n-gram is enough
            check()
        out = []
        for chosen in chosen_by_side:
            tokens = self.index.ngram_tokens(order, np.array([row_of[int(i)] for i in chosen], np.int64))
            out.append([NgramDifference(order, " ".join(map(self._strings.string, toks.tolist())),
                                        int(total_a[i]), int(total_b[i])) for i, toks in zip(chosen, tokens)])
        return out[0], out[1]

    def sentences_with(self, order: int, ngram: str) -> np.ndarray:
        """Sentences where system A or B matched this n-gram."""
        count_a, count_b = self.per_order[order - 1]
        toks = ngram.split(" ")
        want = self._strings.find_strings(toks)
        if (want < 0).any() or len(toks) != order:
            return np.zeros(0, np.int64)
        rows = np.flatnonzero((count_a > 0) | (count_b > 0))
        spelled = self.index.ngram_tokens(order, rows)
        hit = rows[(spelled == want[None, :]).all(axis=1)]
        return np.unique(self.index.tables[order - 1].sentence_of(hit))
