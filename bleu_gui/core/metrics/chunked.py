"""Array steps done a chunk at a time, so that a cancel is never kept waiting.

Every function here calls ``progress`` between chunks of about :data:`CHUNK`
values; the progress callback raises
:class:`~bleu_gui.core.errors.Cancelled` when the user cancels.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

Progress = Callable[[float], None] | None
CHUNK = 1 << 18  # values handled at once: a cancel check between chunks


def _grouped_order(groups: np.ndarray, counts: np.ndarray, progress: Progress) -> np.ndarray:
    """``np.argsort(groups, kind="stable")`` as a counting sort a chunk at a time (``counts``: of each group)."""
    ends = np.cumsum(counts)
    cursor = ends - counts  # where each group's next row goes
    order = np.empty(len(groups), np.int64)
    for a in range(0, len(groups), CHUNK):
        chunk = groups[a:a + CHUNK]
        local = np.argsort(chunk, kind="stable")  # radix sort of 16-bit values
        sorted_groups = chunk[local]
        counts = np.bincount(chunk, minlength=len(ends))
        first = np.cumsum(counts) - counts  # where each group starts inside the sorted chunk
        order[cursor[sorted_groups] + np.arange(len(chunk)) - first[sorted_groups]] = a + local
        cursor += counts
        if progress is not None:
            progress(0.0)
    return order


def concatenate(parts: list[np.ndarray], dtype: type, progress: Progress) -> np.ndarray:
    """``np.concatenate(parts)``, with a cancel check about every million values."""
    out: np.ndarray = np.empty(sum(len(p) for p in parts), dtype)
    at = done = 0
    for part in parts:
        out[at:at + len(part)] = part
        at += len(part)
        if progress is not None and at - done >= CHUNK:
            progress(1.0)
            done = at
    return out


def dense_ranks(keys: np.ndarray, progress: Progress = None) -> np.ndarray:
    """The rank of each key among the distinct keys (``np.unique(keys, return_inverse=True)[1]``), in pieces.

    Keys are first split into ranges at quantiles of a sample (so a skewed,
    Zipf-like key distribution still gives even pieces), the pieces grouped by
    a radix sort of their 16-bit range numbers (linear time), then ranked a
    piece at a time: no single step sorts more than about a million keys, and
    ``progress`` is called between steps. Ranges are ordered, so the ranks are
    global and equal np.unique's.
    """
    n = len(keys)
    if n <= CHUNK:
        return np.unique(keys, return_inverse=True)[1].astype(np.int64)
    pieces = min(65_535, 4 * (n // CHUNK) + 1)
    # The sample only decides where pieces are cut, never a rank; a fixed seed keeps runs alike.
    sample = np.sort(keys[np.random.default_rng(0).integers(0, n, min(n, 64 * pieces))])
    step = max(len(sample) // pieces, 1)
    bounds = np.unique(sample[step::step])
    piece = np.empty(n, np.uint16)
    for start in range(0, n, CHUNK):
        piece[start:start + CHUNK] = np.searchsorted(bounds, keys[start:start + CHUNK], side="right")
        if progress is not None:
            progress(0.0)
    counts = np.bincount(piece, minlength=len(bounds) + 1)
    ends = np.cumsum(counts)
    order = _grouped_order(piece, counts, progress)
    del piece
    out = np.empty(n, np.int64)
    next_rank, start = 0, 0
    while start < n:
        # Whole pieces only, about a chunk of keys (a piece larger than a chunk is taken alone).
        end = int(ends[max(int(np.searchsorted(ends, start + CHUNK, side="right")) - 1, 0)])
        if end <= start:
            end = int(ends[np.searchsorted(ends, start, side="right")])
        rows = order[start:end]
        unique, inverse = np.unique(keys[rows], return_inverse=True)
        out[rows] = inverse + next_rank
        next_rank += len(unique)
        start = end
        if progress is not None:
            progress(start / n)
    return out
