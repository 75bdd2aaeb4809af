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

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from .chunked import CHUNK, Progress, concatenate, dense_ranks
from .grouping import counted, find, group
from .tokenizers import TokenizedCorpus

MAX_SUPPORTED_ORDER = 9
# Per order: (reference-table rows a hypothesis matched, clipped matches of each).
MatchedRows = list[tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class _OrderTable:
    """Reference n-grams of one order, grouped by sentence.

    Rows of sentence s are ``sentence_start[s]:sentence_start[s+1]``, sorted by
    a key that is local to the sentence (so it fits 32 bits): the token for
    order 1, ``(prefix row - first row of s in the previous table) * V + token``
    for higher orders.
    """

    local_keys: np.ndarray      # int32 where it fits, else int64
    max_count: np.ndarray       # Max_Ref_Count per row (uint8/uint16/int32, the smallest that fits)
    sentence_start: np.ndarray  # int64, n_sentences + 1
    key_span: int               # one more than the largest local key

    def sentence_of(self, rows: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.sentence_start, rows, side="right") - 1

    def lookup_block(self, first: int, count: int, sentence: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """Row of each (sentence, local key) pair for sentences first..first+count-1, or -1 where absent.

        Within one block the local keys are made block-wide again
        (``sentence in block * span + local key``), which is sorted, so a single
        binary search per key does it.
        """
        starts = self.sentence_start[first:first + count + 1]
        r0, r1 = int(starts[0]), int(starts[-1])
        if r1 == r0 or len(keys) == 0:
            return np.full(len(keys), -1, np.int64)
        span = self.key_span
        row_sentence = np.repeat(np.arange(count, dtype=np.int64), np.diff(starts))
        block_keys = row_sentence * span + self.local_keys[r0:r1]
        wanted = (sentence - first) * span + keys
        idx = find(block_keys, wanted)
        return np.where((keys < span) & (idx >= 0), idx + r0, -1)


def _compact(values: np.ndarray, signed: bool = True) -> np.ndarray:
    """The same values in the smallest integer type that holds them."""
    top = int(values.max()) if len(values) else 0
    if not signed:
        for dtype in (np.uint8, np.uint16, np.uint32):
            if top <= np.iinfo(dtype).max:
                return values.astype(dtype)
    return values.astype(np.int32 if top <= np.iinfo(np.int32).max else np.int64)


_BLOCK = 20_000  # sentences processed together; bounds temporary memory


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


def closest_ref_lengths(hyp_len: np.ndarray, ref_lens: np.ndarray) -> np.ndarray:
    """Effective reference length per sentence: the closest reference length, ties to the shorter.

    ``ref_lens`` is (n_refs, n_sentences) with -1 where a reference is missing.
    Same rule as sacreBLEU's ``_get_closest_ref_len`` and NLTK's ``closest_ref_length``.
    """
    # Two exact integer passes (no packed rank that could overflow): the smallest distance, then the
    # shortest reference among those at that distance.
    never = np.iinfo(np.int64).max
    present = ref_lens >= 0
    diff = np.where(present, np.abs(ref_lens - hyp_len[None, :]), never)
    closest = diff == diff.min(axis=0, keepdims=True)
    return np.where(closest & present, ref_lens, never).min(axis=0)


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
        self._ngram_ids: list[np.ndarray] = []
        self._build(refs, progress)

    def _build(self, refs: Sequence[TokenizedCorpus], progress: Callable[[float], None] | None) -> None:
        # Rows are ordered by sentence, so tables built block by block and
        # concatenated are the tables of the whole corpus.
        parts: list[list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = [[] for _ in range(self.max_order)]
        sizes = [0] * self.max_order
        for a in range(0, self.n_lines, _BLOCK):
            if progress is not None:
                progress(a / max(self.n_lines, 1))
            b = min(a + _BLOCK, self.n_lines)
            blocks = [_block(ref, a, b) for ref in refs]
            for n, table in enumerate(self._build_block(blocks, a, sizes)):
                if progress is not None and n:
                    progress(a / max(self.n_lines, 1))  # a cancel check between orders
                parts[n].append(table)
                sizes[n] += len(table[0])
        for n in range(self.max_order):
            if progress is not None:
                progress(1.0)  # a cancel check between orders
            keys = np.concatenate([p[0] for p in parts[n]]) if parts[n] else np.zeros(0, np.int32)
            counts = np.concatenate([p[1] for p in parts[n]]) if parts[n] else np.zeros(0, np.uint8)
            starts = np.concatenate([*(p[2] for p in parts[n]), [sizes[n]]]).astype(np.int64)
            parts[n] = []  # free the blocks before the next order is concatenated
            span = int(keys.max()) + 1 if len(keys) else 1
            self.tables.append(_OrderTable(keys, counts, starts, span))

    def _build_block(self, refs: Sequence[TokenizedCorpus], first: int,
                     sizes: list[int]) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Yield (local keys, max counts, sentence starts) of each order for sentences first.. of this block."""
        V = self.vocab_size
        offsets = list(sizes)  # where this block's rows start in each table (sizes grows as we yield)
        remaining = [_remaining(ref) for ref in refs]
        rows: list[np.ndarray] = []
        prev_start = prev_sentence = np.zeros(0, np.int64)  # rows of the previous order (set by order 1)
        sentences = np.arange(first, first + refs[0].n_lines)
        for n in range(1, self.max_order + 1):
            per_ref = []
            for r, ref in enumerate(refs):
                # Block-wide exact keys: sentence * V + token, then prefix row * V + token.
                if n == 1:
                    starts = None
                    keys = _positions_sentence(ref, first) * V + ref.ids
                else:
                    starts = np.flatnonzero(remaining[r] >= n)
                    keys = rows[r][starts] * V + ref.ids[starts + n - 1]
                unique, inverse, counts = group(keys)
                per_ref.append((starts, unique, inverse, counts))
            if len(refs) == 1:
                keys, max_count = per_ref[0][1], per_ref[0][3]
            else:
                all_keys = np.concatenate([u for _, u, _, _ in per_ref])
                all_counts = np.concatenate([c for _, _, _, c in per_ref])
                keys, where, _ = group(all_keys)
                max_count = np.zeros(len(keys), np.int64)
                np.maximum.at(max_count, where, all_counts)
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
            if n == 1:
                sentence = keys // V
                local_keys = keys - sentence * V
            else:
                # A row's sentence is its prefix row's: carried along, never searched for.
                prefix = keys // V
                sentence = prev_sentence[prefix - offsets[n - 2]]
                local_keys = (prefix - prev_start[sentence - first]) * V + keys % V
            start = np.searchsorted(sentence, sentences) + offsets[n - 1]
            prev_start, prev_sentence = start, sentence
            yield _compact(local_keys), _compact(max_count, signed=False), start

    def statistics(self, hyp: TokenizedCorpus, max_order: int | None = None,
                   progress: Callable[[float], None] | None = None) -> np.ndarray:
        """Sufficient statistics, one row per sentence: hyp_len, ref_len, correct_1..N, total_1..N.

        ``correct_n`` counts clipped matches (Count_clip = min(Count, Max_Ref_Count)),
        ``total_n`` the hypothesis n-grams. Equal to sacreBLEU's segment statistics
        for the same tokens.
        """
        return self._statistics(hyp, max_order, progress, None)

    def matched_statistics(self, hyp: TokenizedCorpus, max_order: int | None = None,
                           progress: Callable[[float], None] | None = None) -> tuple[np.ndarray, MatchedRows]:
        """:meth:`statistics` and, from the same pass, ``rows[n-1]`` = (reference-table rows the
        hypothesis matched, clipped matches of each), for n-gram level comparisons."""
        N = self.max_order if max_order is None else max_order
        collect: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in range(N)]
        stats = self._statistics(hyp, max_order, progress, collect)
        rows = []
        for parts in collect:
            rows.append((concatenate([p[0] for p in parts], np.int64, progress),
                         concatenate([p[1] for p in parts], np.int64, progress)))
            parts.clear()
        return stats, rows

    def _statistics(self, hyp: TokenizedCorpus, max_order: int | None, progress: Callable[[float], None] | None,
                    collect: list[list[tuple[np.ndarray, np.ndarray]]] | None) -> np.ndarray:
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
        for a in range(0, L, _BLOCK):
            if progress is not None:
                progress(a / max(L, 1))
            b = min(a + _BLOCK, L)
            fraction = a / max(L, 1)
            tick = None if progress is None else (lambda fraction=fraction: progress(fraction))
            stats[a:b, 2:2 + N] = self._block_correct(_block(hyp, a, b), a, N, collect, tick)
        return stats

    def _block_correct(self, hyp: TokenizedCorpus, first: int, N: int,
                       collect: list[list[tuple[np.ndarray, np.ndarray]]] | None = None,
                       tick: Callable[[], None] | None = None) -> np.ndarray:
        """Clipped match counts (sentences × orders) for one block of sentences.

        With ``collect`` (one list per order), also appends the matched table
        rows and their clipped counts, for n-gram level comparisons.
        """
        V = self.vocab_size
        correct = np.zeros((hyp.n_lines, N), np.int64)
        sent = _positions_sentence(hyp, first)
        remaining = _remaining(hyp)
        ids = hyp.ids.astype(np.int64)
        # Order 1: tokens unknown to the references (id >= V) cannot match.
        candidates = np.flatnonzero(ids < V)
        rows = np.zeros(0, np.int64)  # set by order 1 before order 2 reads it
        for n in range(1, N + 1):
            if tick is not None and n > 1:
                tick()  # a cancel check between orders
            table = self.tables[n - 1]
            if n == 1:
                keys = ids[candidates]
            else:
                # Extend only (n-1)-grams the references have, where an n-gram
                # fits in the line and its last token is known.
                ok = (rows >= 0) & (remaining[candidates] >= n)
                candidates, prefix = candidates[ok], rows[ok]
                last = ids[candidates + n - 1]
                known = last < V
                candidates, prefix, last = candidates[known], prefix[known], last[known]
                prev_start = self.tables[n - 2].sentence_start
                keys = (prefix - prev_start[sent[candidates]]) * V + last
            rows = table.lookup_block(first, hyp.n_lines, sent[candidates], keys)
            found = rows[rows >= 0]
            if len(found):
                entry, hyp_count = counted(found)
                clipped = np.minimum(hyp_count, table.max_count[entry])
                # Sentence of each row, searched among this block's sentences only (cache-sized).
                block_starts = table.sentence_start[first:first + hyp.n_lines + 1]
                sentence = np.searchsorted(block_starts, entry, side="right") - 1
                correct[:, n - 1] = np.bincount(sentence, weights=clipped, minlength=hyp.n_lines).astype(np.int64)
                if collect is not None:
                    collect[n - 1].append((entry, clipped.astype(np.int64)))
        return correct

    def row_parts(self, order: int, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(prefix row in the previous table, last token id) of rows of table ``order`` (prefix -1 for order 1)."""
        table = self.tables[order - 1]
        local = table.local_keys[rows].astype(np.int64)
        if order == 1:
            return np.full(len(rows), -1, np.int64), local
        sentence = table.sentence_of(rows)
        prev_start = self.tables[order - 2].sentence_start
        return local // self.vocab_size + prev_start[sentence], local % self.vocab_size

    def ngram_ids(self, order: int, progress: Progress = None) -> np.ndarray:
        """An id for every row of table ``order`` that is equal exactly when the n-grams are equal (across sentences).

        Computed on first use and kept: the index never changes, and every
        comparison against these references shares them. ``progress`` is called
        along the way (a cancel check).
        """
        while len(self._ngram_ids) < order:
            n = len(self._ngram_ids) + 1
            table = self.tables[n - 1]
            if progress is not None:
                progress(0.0)
            local = table.local_keys.astype(np.int64)
            if n == 1:
                self._ngram_ids.append(local)
                continue
            # Key of each row: (id of its prefix n-gram) * V + last token, a piece at a time.
            prev_start = self.tables[n - 2].sentence_start
            previous = self._ngram_ids[-1]
            keys = np.empty(len(local), np.int64)
            for a in range(0, len(local), CHUNK):
                b = min(a + CHUNK, len(local))
                piece = local[a:b]
                sentence = table.sentence_of(np.arange(a, b, dtype=np.int64))
                keys[a:b] = previous[piece // self.vocab_size + prev_start[sentence]] * self.vocab_size \
                    + piece % self.vocab_size
                if progress is not None:
                    progress(0.0)
            del local
            self._ngram_ids.append(dense_ranks(keys, progress))
        return self._ngram_ids[order - 1]

    def ngram_tokens(self, order: int, rows: np.ndarray) -> np.ndarray:
        """Token ids (len(rows) × order) of the n-grams at these rows of table ``order``."""
        out = np.zeros((len(rows), order), np.int64)
        current = np.asarray(rows, np.int64)
        for n in range(order, 0, -1):
            prefix, token = self.row_parts(n, current)
            out[:, n - 1] = token
            current = prefix
        return out
