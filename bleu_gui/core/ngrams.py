"""Per-sentence sufficient statistics for BLEU over a whole corpus, with numpy.

Every sentence is reduced to one row ``[hyp_len, ref_len, correct_1..N,
total_1..N]`` as in sacreBLEU's ``BLEU._compute_segment_statistics``. Corpus
scores, subsets and resampling are then sums of rows.

How n-grams are matched without a Counter per sentence: the references are
indexed once. For order 1 a reference n-gram occurrence is keyed by
``sentence * V + token``; the sorted unique keys form table 1. For order n the
key is ``entry(prefix) * V + last token``, where ``entry(prefix)`` is the row of
the (sentence, (n-1)-gram prefix) pair in table n-1 — so keys stay small
integers, are exact (no hashing), and already carry the sentence. Each table
row stores the largest count of that n-gram over the sentence's references
(Max_Ref_Count). A system's n-grams are looked up in the same tables with a
binary search; a prefix missing from the references cannot be extended, so
higher orders only look up what the lower order found.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .tokenizers import TokenizedCorpus

MAX_SUPPORTED_ORDER = 9


@dataclass(frozen=True)
class _OrderTable:
    keys: np.ndarray       # sorted unique int64 keys of (sentence, n-gram)
    max_count: np.ndarray  # Max_Ref_Count for each key
    sentence: np.ndarray   # sentence index for each key


def _positions_sentence(corpus: TokenizedCorpus) -> np.ndarray:
    return np.repeat(np.arange(corpus.n_lines, dtype=np.int64), corpus.lengths)


def _remaining(corpus: TokenizedCorpus) -> np.ndarray:
    """For each token position, how many tokens of its line start there (itself included)."""
    ends = np.repeat(corpus.offsets[1:], corpus.lengths)
    return ends - np.arange(len(corpus.ids), dtype=np.int64)


def _lookup(table: _OrderTable, keys: np.ndarray) -> np.ndarray:
    """Row of each key in the table, or -1 where the key is absent."""
    if len(table.keys) == 0 or len(keys) == 0:
        return np.full(len(keys), -1, np.int64)
    idx = np.searchsorted(table.keys, keys)
    np.minimum(idx, len(table.keys) - 1, out=idx)
    return np.where(table.keys[idx] == keys, idx, -1)


def closest_ref_lengths(hyp_len: np.ndarray, ref_lens: np.ndarray) -> np.ndarray:
    """Effective reference length per sentence: the closest reference length, ties to the shorter.

    ``ref_lens`` is (n_refs, n_sentences) with -1 where a reference is missing.
    Same rule as sacreBLEU's ``_get_closest_ref_len`` and NLTK's ``closest_ref_length``.
    """
    present = ref_lens >= 0
    diff = np.abs(ref_lens - hyp_len[None, :])
    big = np.int64(1) << 40
    rank = np.where(present, diff * big + ref_lens, np.iinfo(np.int64).max)
    best = np.argmin(rank, axis=0)
    return ref_lens[best, np.arange(ref_lens.shape[1])]


class ReferenceIndex:
    """The references of one test set, processed once and reused for every system.

    ``refs`` are tokenized with the same :class:`Tokenization` as the systems;
    ``present`` (n_refs × n_sentences) says which reference lines exist (a
    missing one contributes no n-grams and no length).
    """

    def __init__(self, refs: Sequence[TokenizedCorpus], present: np.ndarray, max_order: int, vocab_size: int):
        if not 1 <= max_order <= MAX_SUPPORTED_ORDER:
            raise ValueError(f"max order must be 1..{MAX_SUPPORTED_ORDER}")
        self.max_order = max_order
        self.n_lines = refs[0].n_lines
        self.vocab_size = max(int(vocab_size), 1)
        self.ref_lens = np.where(present, np.stack([r.lengths for r in refs]), -1).astype(np.int64)
        self.tables: list[_OrderTable] = []
        self._build(refs)

    def _build(self, refs: Sequence[TokenizedCorpus]) -> None:
        V = self.vocab_size
        remaining = [_remaining(ref) for ref in refs]
        # rows[r][p]: row in the previous table of the n-gram starting at p in reference r.
        rows: list[np.ndarray] = []
        prev_table = None
        for n in range(1, self.max_order + 1):
            starts_per_ref, keys_per_ref = [], []
            for r, ref in enumerate(refs):
                if n == 1:
                    starts = np.arange(len(ref.ids), dtype=np.int64)
                    keys = _positions_sentence(ref) * V + ref.ids
                else:
                    starts = np.flatnonzero(remaining[r] >= n)
                    keys = rows[r][starts] * V + ref.ids[starts + n - 1]
                starts_per_ref.append(starts)
                keys_per_ref.append(keys)
            table = self._merge(keys_per_ref, prev_table, n)
            rows = []
            for ref, starts, keys in zip(refs, starts_per_ref, keys_per_ref):
                r_rows = np.full(len(ref.ids), -1, np.int64)
                r_rows[starts] = np.searchsorted(table.keys, keys)
                rows.append(r_rows)
            self.tables.append(table)
            prev_table = table

    def _merge(self, keys_per_ref: list[np.ndarray], prev: _OrderTable | None, n: int) -> _OrderTable:
        uniques, counts = [], []
        for keys in keys_per_ref:
            u, c = np.unique(keys, return_counts=True)
            uniques.append(u)
            counts.append(c)
        all_keys = np.concatenate(uniques) if uniques else np.zeros(0, np.int64)
        all_counts = np.concatenate(counts) if counts else np.zeros(0, np.int64)
        order = np.argsort(all_keys, kind="stable")
        all_keys, all_counts = all_keys[order], all_counts[order]
        if len(all_keys):
            starts = np.flatnonzero(np.r_[True, all_keys[1:] != all_keys[:-1]])
            keys = all_keys[starts]
            max_count = np.maximum.reduceat(all_counts, starts)
        else:
            keys = max_count = np.zeros(0, np.int64)
        if n == 1:
            sentence = keys // self.vocab_size
        else:
            sentence = prev.sentence[keys // self.vocab_size]
        return _OrderTable(keys, max_count.astype(np.int64), sentence.astype(np.int64))

    def statistics(self, hyp: TokenizedCorpus, max_order: int | None = None) -> np.ndarray:
        """Sufficient statistics, one row per sentence: hyp_len, ref_len, correct_1..N, total_1..N.

        ``correct_n`` counts clipped matches (Count_clip = min(Count, Max_Ref_Count)),
        ``total_n`` the hypothesis n-grams. Equal to sacreBLEU's segment statistics
        for the same tokens.
        """
        N = self.max_order if max_order is None else max_order
        if N > self.max_order:
            raise ValueError("index was built for a lower order")
        if hyp.n_lines != self.n_lines:
            raise ValueError("hypothesis and references differ in line count")
        L, V = self.n_lines, self.vocab_size
        hyp_len = hyp.lengths.astype(np.int64)
        stats = np.zeros((L, 2 + 2 * N), np.int64)
        stats[:, 0] = hyp_len
        stats[:, 1] = closest_ref_lengths(hyp_len, self.ref_lens)
        sent = _positions_sentence(hyp)
        remaining = _remaining(hyp)
        ids = hyp.ids.astype(np.int64)
        # Order 1: tokens unknown to the references (id >= V) cannot match.
        candidates = np.flatnonzero(ids < V)
        rows = _lookup(self.tables[0], sent[candidates] * V + ids[candidates])
        for n in range(1, N + 1):
            table = self.tables[n - 1]
            if n > 1:
                # Extend only n-1-grams that the references have, and only where
                # an n-gram fits in the line and its last token is known.
                ok = (rows >= 0) & (remaining[candidates] >= n)
                candidates, prefix = candidates[ok], rows[ok]
                last = ids[candidates + n - 1]
                known = last < V
                candidates, prefix, last = candidates[known], prefix[known], last[known]
                rows = _lookup(table, prefix * V + last)
            found = rows[rows >= 0]
            if len(found):
                entry, hyp_count = np.unique(found, return_counts=True)
                clipped = np.minimum(hyp_count, table.max_count[entry])
                stats[:, 1 + n] = np.bincount(table.sentence[entry], weights=clipped, minlength=L).astype(np.int64)
            stats[:, 1 + N + n] = np.maximum(hyp_len - n + 1, 0)
        return stats
