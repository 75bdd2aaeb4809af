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
from typing import Callable, Sequence

import numpy as np

from .tokenizers import TokenizedCorpus

MAX_SUPPORTED_ORDER = 9


@dataclass(frozen=True)
class _OrderTable:
    keys: np.ndarray            # sorted unique int64 keys of (sentence, n-gram)
    max_count: np.ndarray       # Max_Ref_Count for each key (int32)
    sentence_start: np.ndarray  # rows of sentence s are sentence_start[s]:sentence_start[s+1]

    def sentence_of(self, rows: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.sentence_start, rows, side="right") - 1


_BLOCK = 50_000  # sentences processed together; bounds temporary memory


def _block(corpus: TokenizedCorpus, a: int, b: int) -> TokenizedCorpus:
    """Sentences a..b-1 of a corpus as a corpus of their own."""
    lo, hi = corpus.offsets[a], corpus.offsets[b]
    return TokenizedCorpus(corpus.ids[lo:hi], corpus.offsets[a:b + 1] - lo)


def _positions_sentence(corpus: TokenizedCorpus, first: int = 0) -> np.ndarray:
    return np.repeat(np.arange(first, first + corpus.n_lines, dtype=np.int64), corpus.lengths)


def _remaining(corpus: TokenizedCorpus) -> np.ndarray:
    """For each token position, how many tokens of its line start there (itself included)."""
    ends = np.repeat(corpus.offsets[1:], corpus.lengths)
    return (ends - np.arange(len(corpus.ids), dtype=np.int64)).astype(np.int32)


def _lookup(keys_table: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Row of each key in the sorted table, or -1 where the key is absent."""
    if len(keys_table) == 0 or len(keys) == 0:
        return np.full(len(keys), -1, np.int64)
    idx = np.searchsorted(keys_table, keys)
    np.minimum(idx, len(keys_table) - 1, out=idx)
    return np.where(keys_table[idx] == keys, idx, -1)


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

    def __init__(self, refs: Sequence[TokenizedCorpus], present: np.ndarray, max_order: int, vocab_size: int,
                 progress: Callable[[float], None] | None = None):
        if not 1 <= max_order <= MAX_SUPPORTED_ORDER:
            raise ValueError(f"max order must be 1..{MAX_SUPPORTED_ORDER}")
        self.max_order = max_order
        self.n_lines = refs[0].n_lines
        self.vocab_size = max(int(vocab_size), 1)
        self.ref_lens = np.where(present, np.stack([r.lengths for r in refs]), -1).astype(np.int64)
        self.tables: list[_OrderTable] = []
        self._build(refs, progress)

    def _build(self, refs: Sequence[TokenizedCorpus], progress: Callable[[float], None] | None) -> None:
        # Keys carry the sentence (order 1) or a row of the previous table,
        # which is ordered by sentence, so tables built block by block and
        # concatenated are the tables of the whole corpus.
        parts: list[list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = [[] for _ in range(self.max_order)]
        sizes = [0] * self.max_order
        self.block_starts = [[] for _ in range(self.max_order)]
        for a in range(0, self.n_lines, _BLOCK):
            if progress is not None:
                progress(a / max(self.n_lines, 1))
            b = min(a + _BLOCK, self.n_lines)
            blocks = [_block(ref, a, b) for ref in refs]
            for n, table in enumerate(self._build_block(blocks, a, sizes)):
                self.block_starts[n].append(sizes[n])
                parts[n].append(table)
                sizes[n] += len(table[0])
        for n in range(self.max_order):
            keys = np.concatenate([p[0] for p in parts[n]]) if parts[n] else np.zeros(0, np.int64)
            counts = np.concatenate([p[1] for p in parts[n]]) if parts[n] else np.zeros(0, np.int32)
            starts = np.concatenate([*(p[2] for p in parts[n]), [sizes[n]]]).astype(np.int64)
            parts[n] = []  # free the blocks before the next order is concatenated
            self.tables.append(_OrderTable(keys, counts, starts))
            self.block_starts[n].append(sizes[n])

    def _build_block(self, refs: Sequence[TokenizedCorpus], first: int, sizes: list[int]):
        V = self.vocab_size
        offsets = list(sizes)  # where this block's rows start in each table (sizes grows as we yield)
        remaining = [_remaining(ref) for ref in refs]
        rows: list[np.ndarray] = []
        prev_sentence = None
        for n in range(1, self.max_order + 1):
            per_ref = []
            for r, ref in enumerate(refs):
                if n == 1:
                    starts = None
                    keys = _positions_sentence(ref, first) * V + ref.ids
                else:
                    starts = np.flatnonzero(remaining[r] >= n)
                    keys = rows[r][starts] * V + ref.ids[starts + n - 1]
                unique, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
                per_ref.append((starts, unique, inverse, counts))
            if len(refs) == 1:
                keys, max_count = per_ref[0][1], per_ref[0][3]
            else:
                all_keys = np.concatenate([u for _, u, _, _ in per_ref])
                all_counts = np.concatenate([c for _, _, _, c in per_ref])
                keys, where = np.unique(all_keys, return_inverse=True)
                max_count = np.zeros(len(keys), np.int64)
                np.maximum.at(max_count, where, all_counts)
            if n == 1:
                sentence = keys // V
            else:
                sentence = prev_sentence[keys // V - offsets[n - 2]]
            rows = []
            for ref, (starts, unique, inverse, _) in zip(refs, per_ref):
                local = inverse if len(refs) == 1 else np.searchsorted(keys, unique)[inverse]
                global_rows = local.astype(np.int64) + offsets[n - 1]
                if starts is None:
                    rows.append(global_rows)
                else:
                    full = np.full(len(ref.ids), -1, np.int64)
                    full[starts] = global_rows
                    rows.append(full)
            prev_sentence = sentence
            # Tables are ordered by sentence, so a row's sentence is found from
            # where each sentence starts: far smaller than a sentence per row.
            starts = np.searchsorted(sentence, np.arange(first, first + refs[0].n_lines)) + offsets[n - 1]
            yield keys, max_count.astype(np.int32), starts

    def statistics(self, hyp: TokenizedCorpus, max_order: int | None = None,
                   progress: Callable[[float], None] | None = None) -> np.ndarray:
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
        L = self.n_lines
        hyp_len = hyp.lengths.astype(np.int64)
        stats = np.zeros((L, 2 + 2 * N), np.int64)
        stats[:, 0] = hyp_len
        stats[:, 1] = closest_ref_lengths(hyp_len, self.ref_lens)
        for n in range(1, N + 1):
            stats[:, 1 + N + n] = np.maximum(hyp_len - n + 1, 0)
        for k, a in enumerate(range(0, L, _BLOCK)):
            if progress is not None:
                progress(a / max(L, 1))
            b = min(a + _BLOCK, L)
            stats[a:b, 2:2 + N] = self._block_correct(_block(hyp, a, b), a, k, N)
        return stats

    def _block_correct(self, hyp: TokenizedCorpus, first: int, k: int, N: int) -> np.ndarray:
        """Clipped match counts (sentences × orders) for one block of sentences."""
        V = self.vocab_size
        correct = np.zeros((hyp.n_lines, N), np.int64)
        sent = _positions_sentence(hyp, first)
        remaining = _remaining(hyp)
        ids = hyp.ids.astype(np.int64)
        # Order 1: tokens unknown to the references (id >= V) cannot match.
        candidates = np.flatnonzero(ids < V)
        rows = None
        for n in range(1, N + 1):
            table = self.tables[n - 1]
            lo, hi = self.block_starts[n - 1][k], self.block_starts[n - 1][k + 1]
            if n == 1:
                keys = sent[candidates] * V + ids[candidates]
            else:
                # Extend only (n-1)-grams the references have, where an n-gram
                # fits in the line and its last token is known.
                ok = (rows >= 0) & (remaining[candidates] >= n)
                candidates, prefix = candidates[ok], rows[ok]
                last = ids[candidates + n - 1]
                known = last < V
                candidates, keys = candidates[known], prefix[known] * V + last[known]
            local = _lookup(table.keys[lo:hi], keys)
            rows = np.where(local >= 0, local + lo, -1)
            found = rows[rows >= 0]
            if len(found):
                entry, hyp_count = np.unique(found, return_counts=True)
                clipped = np.minimum(hyp_count, table.max_count[entry])
                correct[:, n - 1] = np.bincount(table.sentence_of(entry) - first, weights=clipped,
                                                minlength=hyp.n_lines).astype(np.int64)
        return correct
