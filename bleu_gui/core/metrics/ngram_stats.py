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
row has the largest count of that n-gram over the sentence's references
(Max_Ref_Count), stored only where it is above 1 (a byte a row for ones cost
~80 MB at a million lines of 3M word types). A system's n-grams are looked up
in the same tables with a binary search; a prefix missing from the references cannot be extended, so
higher orders only look up what the lower order found.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..runtime import release_now_and_then
from .chunked import CHUNK, Progress, concatenate, dense_ranks
from .grouping import counted, find, group
from .parallel import in_order
from .tokenizers import CorpusPieces, TokenizedCorpus

# Per order: (reference-table rows a hypothesis matched, clipped matches of each).
MatchedRows = list[tuple[np.ndarray, np.ndarray]]
# A system's tokens: the whole corpus, or its pieces in order as (first line, the piece's lines as a corpus).
Hypothesis = TokenizedCorpus | Iterable[tuple[int, TokenizedCorpus]]


@dataclass(frozen=True)
class _OrderTable:
    """Reference n-grams of one order, grouped by sentence.

    Rows of sentence s are ``sentence_start[s]:sentence_start[s+1]``, sorted by
    a key that is local to the sentence (so it fits 32 bits): the token for
    order 1, ``(prefix row - first row of s in the previous table) * V + token``
    for higher orders.
    """

    local_keys: np.ndarray      # int32 where it fits, else int64
    sentence_start: np.ndarray  # int64, n_sentences + 1
    key_span: int               # one more than the largest local key
    repeated: np.ndarray        # sorted rows whose Max_Ref_Count is above 1 (int32 where it fits)
    repeats: np.ndarray         # ... and their counts (the smallest unsigned type); every other row: 1

    def max_counts(self, rows: np.ndarray) -> np.ndarray:
        """Max_Ref_Count of each row (int64)."""
        out = np.ones(len(rows), np.int64)
        if len(self.repeated) and len(rows):
            at = np.minimum(np.searchsorted(self.repeated, rows), len(self.repeated) - 1)
            hit = self.repeated[at] == rows
            out[hit] = self.repeats[at[hit]]
        return out

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

    ``refs`` are tokenized with the same :class:`Tokenization` as the systems (taken in order);
    ``present`` (n_refs × n_sentences) says which reference lines exist (a
    missing one contributes no n-grams and no length).
    """

    def __init__(self, refs: Sequence[CorpusPieces], present: np.ndarray, max_order: int, vocab_size: int,
                 progress: Callable[[float], None] | None = None):
        if max_order < 1:  # the highest order offered is BLEU's settings' (MAX_SUPPORTED_ORDER)
            raise ValueError(f"max order must be 1 or more, got {max_order}")
        self.max_order = max_order
        self.n_lines = refs[0].n_lines
        self.vocab_size = max(int(vocab_size), 1)
        self.ref_lens = np.where(present, np.stack([r.lengths for r in refs]), -1).astype(np.int64)
        self.tables: list[_OrderTable] = []
        self._ngram_ids: list[np.ndarray] = []
        self._build(refs, progress)

    def _build(self, refs: Sequence[CorpusPieces], progress: Callable[[float], None] | None) -> None:
        # Rows are ordered by sentence, so tables built block by block (each block's rows counted from 0) and
        # written one after the other, with the blocks' row offsets added to their sentence starts, are the whole
        # corpus's. The tables are allocated once at their largest possible size (n-gram occurrences) and shrunk
        # at the end: blocks kept until a final concatenation doubled the peak and left the heap fragmented
        # (150-250 MB of resident memory at a million lines). Pages never written are never resident.
        N, L = self.max_order, self.n_lines
        lengths = np.stack([ref.lengths for ref in refs])
        longest = int(lengths.sum(axis=0).max()) if L else 0  # the most n-grams one sentence's references have
        key_type = np.int32 if (longest + 1) * self.vocab_size <= np.iinfo(np.int32).max else np.int64
        # Order n + 1 has max(length - n, 0) n-grams in a line: the distinct ones per sentence are no more.
        keys = [np.empty(int(np.maximum(lengths - n, 0).sum()), key_type) for n in range(N)]
        repeated: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in range(N)]  # (rows, counts) a block
        starts = [np.empty(L + 1, np.int64) for _ in range(N)]
        sizes = [0] * N

        def build(item: tuple[int, list[TokenizedCorpus]]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
            return self._build_block(item[1], item[0])

        # Blocks are taken in order on this thread, so the references' ids are let go of as the tables grow.
        taken = ((a, [ref.take(a, min(a + _BLOCK, L)) for ref in refs]) for a in range(0, L, _BLOCK))
        with contextlib.closing(in_order(build, taken)) as blocks:
            for (a, _), tables in blocks:
                if progress is not None:
                    progress(a / max(L, 1))
                release_now_and_then(L)  # the blocks are freed on worker threads (see core/runtime.py)
                for n, (block_keys, block_repeated, block_repeats, block_starts) in enumerate(tables):
                    at, size = sizes[n], len(block_keys)
                    keys[n][at:at + size] = block_keys
                    repeated[n].append((block_repeated + at, block_repeats))
                    starts[n][a:a + len(block_starts)] = block_starts + at
                    sizes[n] += size
        for n in range(N):
            if progress is not None:
                progress(1.0)  # a cancel check between orders
            starts[n][L] = sizes[n]
            keys[n].resize(sizes[n], refcheck=False)  # in place: the unused tail is handed back
            span = int(keys[n].max()) + 1 if sizes[n] else 1
            rows = np.concatenate([np.zeros(0, np.int64)] + [r for r, _ in repeated[n]])
            counts = np.concatenate([np.zeros(0, np.int64)] + [c for _, c in repeated[n]])
            row_type = np.int32 if sizes[n] <= np.iinfo(np.int32).max else np.int64
            self.tables.append(_OrderTable(keys[n], starts[n], span, rows.astype(row_type),
                                           counts.astype(np.min_scalar_type(int(counts.max(initial=1))))))

    def _build_block(self, refs: Sequence[TokenizedCorpus],
                     first: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        """(local keys, rows with a Max_Ref_Count above 1, those counts, sentence starts) of each order for the
        sentences first.. of this block; rows (and so sentence starts) are counted from the block's first row."""
        V = self.vocab_size
        remaining = [_remaining(ref) for ref in refs]
        rows: list[np.ndarray] = []
        prev_start = prev_sentence = np.zeros(0, np.int64)  # rows of the previous order (set by order 1)
        sentences = np.arange(first, first + refs[0].n_lines)
        out = []
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
                local = (inverse if len(refs) == 1 else np.searchsorted(keys, unique)[inverse]).astype(np.int64)
                if starts is None:
                    rows.append(local)
                else:
                    full = np.full(len(ref.ids), -1, np.int64)
                    full[starts] = local
                    rows.append(full)
            if n == 1:
                sentence = keys // V
                local_keys = keys - sentence * V
            else:
                # A row's sentence is its prefix row's: carried along, never searched for.
                prefix = keys // V
                sentence = prev_sentence[prefix]
                local_keys = (prefix - prev_start[sentence - first]) * V + keys % V
            start = np.searchsorted(sentence, sentences)
            prev_start, prev_sentence = start, sentence
            repeated = np.flatnonzero(max_count > 1)
            out.append((local_keys, repeated, max_count[repeated], start))
        return out

    def statistics(self, hyp: Hypothesis, max_order: int | None = None,
                   progress: Callable[[float], None] | None = None) -> np.ndarray:
        """Sufficient statistics, one row per sentence: hyp_len, ref_len, correct_1..N, total_1..N.

        ``correct_n`` counts clipped matches (Count_clip = min(Count, Max_Ref_Count)),
        ``total_n`` the hypothesis n-grams. Equal to sacreBLEU's segment statistics
        for the same tokens. ``hyp``: the whole corpus, or its pieces in order as
        (first line, corpus of the piece's lines), e.g. from
        :meth:`Tokenization.encode_chunks` (pieces are matched while the next ones are
        tokenized, and no corpus-wide array of ids is ever held).
        """
        return self._statistics(hyp, max_order, progress, None)

    def matched_statistics(self, hyp: Hypothesis, max_order: int | None = None,
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

    def _statistics(self, hyp: Hypothesis, max_order: int | None, progress: Callable[[float], None] | None,
                    collect: list[list[tuple[np.ndarray, np.ndarray]]] | None) -> np.ndarray:
        N = self.max_order if max_order is None else max_order
        if N > self.max_order:
            raise ValueError("index was built for a lower order")
        L = self.n_lines
        if isinstance(hyp, TokenizedCorpus):
            if hyp.n_lines != L:
                raise ValueError("hypothesis and references differ in line count")
            whole = hyp
            hyp = ((a, _block(whole, a, min(a + _BLOCK, L))) for a in range(0, L, _BLOCK))
        stats = np.zeros((L, 2 + 2 * N), np.int64)

        def match(piece: tuple[int, TokenizedCorpus]) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
            first, block = piece
            return self._block_statistics(block, first, N, collect is not None)

        done = 0
        with contextlib.closing(in_order(match, hyp)) as blocks:
            for (first, block), (rows, matched) in blocks:
                if first != done or first + block.n_lines > L:
                    raise ValueError("hypothesis and references differ in line count")
                if progress is not None:
                    progress(first / max(L, 1))
                release_now_and_then(L)
                stats[first:first + block.n_lines] = rows
                done += block.n_lines
                if collect is not None:
                    for n, found in enumerate(matched):
                        collect[n].append(found)
        if done != L:
            raise ValueError("hypothesis and references differ in line count")
        return stats

    def _block_statistics(self, hyp: TokenizedCorpus, first: int, N: int,
                          collect: bool) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
        """Statistics rows of the sentences first.. of one block and, with ``collect``, the matched rows."""
        hyp_len = hyp.lengths.astype(np.int64)
        rows = np.empty((hyp.n_lines, 2 + 2 * N), np.int64)
        rows[:, 0] = hyp_len
        rows[:, 1] = closest_ref_lengths(hyp_len, self.ref_lens[:, first:first + hyp.n_lines])
        rows[:, 2:2 + N], matched = self._block_correct(hyp, first, N, collect)
        for n in range(1, N + 1):
            rows[:, 1 + N + n] = np.maximum(hyp_len - n + 1, 0)
        return rows, matched

    def _block_correct(self, hyp: TokenizedCorpus, first: int, N: int,
                       collect: bool = False) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
        """Clipped match counts (sentences × orders) for one block of sentences and, with ``collect``, for
        each order the matched table rows and their clipped counts (for n-gram level comparisons)."""
        V = self.vocab_size
        correct = np.zeros((hyp.n_lines, N), np.int64)
        sent = _positions_sentence(hyp, first)
        remaining = _remaining(hyp)
        ids = hyp.ids.astype(np.int64)
        # Order 1: tokens unknown to the references (id >= V) cannot match.
        candidates = np.flatnonzero(ids < V)
        rows = np.zeros(0, np.int64)  # set by order 1 before order 2 reads it
        matched: list[tuple[np.ndarray, np.ndarray]] = []
        for n in range(1, N + 1):
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
            entry, hyp_count = counted(rows[rows >= 0])
            clipped = np.minimum(hyp_count, table.max_counts(entry))
            # Sentence of each row, searched among this block's sentences only (cache-sized).
            block_starts = table.sentence_start[first:first + hyp.n_lines + 1]
            sentence = np.searchsorted(block_starts, entry, side="right") - 1
            correct[:, n - 1] = np.bincount(sentence, weights=clipped, minlength=hyp.n_lines).astype(np.int64)
            if collect:
                matched.append((entry, clipped))
        return correct, matched

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
