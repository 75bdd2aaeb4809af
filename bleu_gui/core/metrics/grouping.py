"""Grouping and looking up integer keys with plain sorts, the fastest primitive numpy has.

``np.sort`` of int64 runs vectorised (several times faster than ``np.argsort``,
which ``np.unique(..., return_inverse=True)`` needs), and ``np.searchsorted``
is many times faster for sorted queries than for scattered ones (the searches
then walk memory in order). So where a key and its position fit together in
63 bits, the position rides in the low bits of the key: one ``np.sort`` then
gives both the sorted keys and where each came from. Results equal
``np.unique``'s exactly; when the packing would not fit, ``np.unique`` itself
is used.
"""

from __future__ import annotations

import numpy as np


def _position_bits(n: int) -> int:
    return max(int(n - 1).bit_length(), 1)


def _packable(keys: np.ndarray) -> bool:
    if len(keys) == 0:
        return False
    low, high = int(keys.min()), int(keys.max())
    return low >= 0 and high.bit_length() + _position_bits(len(keys)) <= 63


def _sorted_with_positions(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(keys sorted, the original position of each), via one sort of packed values (call only if packable)."""
    bits = _position_bits(len(keys))
    packed = np.sort((keys.astype(np.int64) << bits) | np.arange(len(keys), dtype=np.int64))
    return packed >> bits, packed & ((1 << bits) - 1)


def group(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``np.unique(keys, return_inverse=True, return_counts=True)`` for non-negative integer keys:
    (distinct keys sorted, the row of each key among them, how often each occurs)."""
    if not _packable(keys):
        unique, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
        return unique, inverse.reshape(-1), counts
    ordered, positions = _sorted_with_positions(keys)
    starts = np.flatnonzero(np.diff(ordered, prepend=ordered[0] - 1))
    rows = np.zeros(len(keys), np.int64)
    rows[starts[1:]] = 1
    inverse = np.empty(len(keys), np.int64)
    inverse[positions] = np.cumsum(rows)
    counts = np.diff(starts, append=len(keys))
    return ordered[starts], inverse, counts


def counted(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(keys, return_counts=True)``: distinct keys sorted and how often each occurs."""
    if len(keys) == 0:
        return keys.copy(), np.zeros(0, np.int64)
    ordered = np.sort(keys)
    starts = np.flatnonzero(np.diff(ordered, prepend=ordered[0] - 1))
    return ordered[starts], np.diff(starts, append=len(keys))


def find(table: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """For each query, its index in the sorted ``table`` or -1 where it is absent."""
    if len(table) == 0 or len(queries) == 0:
        return np.full(len(queries), -1, np.int64)
    if _packable(queries):
        ordered, positions = _sorted_with_positions(queries)
        idx_sorted = np.searchsorted(table, ordered)
        idx = np.empty(len(queries), np.int64)
        idx[positions] = idx_sorted
    else:
        idx = np.searchsorted(table, queries)
    idx = np.minimum(idx, len(table) - 1)
    return np.where(table[idx] == queries, idx, -1)
