"""chrF's segment statistics for a whole block of segments at once, in numpy.

sacreBLEU counts each segment's n-grams in Python ``Counter`` objects. Here the units of a block (characters, or
chrF++'s words) are one array; an n-gram is an integer id, built order by order from the id of the (n−1)-gram at
a position and the unit that follows it, ids given by the references' n-grams (a candidate n-gram no reference
has gets none, and can match nothing). Matches are then counted per (segment, id) with sorted keys: for each
distinct candidate n-gram of a segment, ``min(candidate count, reference count)`` — sacreBLEU's clipped count,
to the unit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Units:
    """The units of a block of segments, concatenated: ``ids`` (-1 for a unit no reference has), the segment
    each belongs to, its position in its segment, and each segment's length."""

    ids: np.ndarray
    segment: np.ndarray
    position: np.ndarray
    lengths: np.ndarray

    @classmethod
    def of(cls, ids: np.ndarray, lengths: np.ndarray) -> Units:
        lengths = np.asarray(lengths, np.int64)
        segment = np.repeat(np.arange(len(lengths)), lengths)
        starts = np.cumsum(lengths) - lengths
        return cls(ids, segment, np.arange(len(ids)) - np.repeat(starts, lengths), lengths)

    def totals(self, n: int) -> np.ndarray:
        """Each segment's number of n-grams."""
        return np.maximum(self.lengths - n + 1, 0)

    def fits(self, n: int) -> np.ndarray:
        """Which positions start an n-gram inside their segment."""
        return self.position + n <= self.lengths[self.segment]


def _next_keys(units: Units, previous: np.ndarray, n: int, base: int, fits: np.ndarray) -> np.ndarray:
    """The key of the n-gram at each position: the (n−1)-gram's id and the n-th unit's (-1 where there is none;
    ``fits``: where an n-gram starts inside its segment)."""
    following = np.full(len(units.ids), -1, np.int64)
    if len(units.ids) >= n:
        following[:len(units.ids) - (n - 1)] = units.ids[n - 1:]
    ok = fits & (previous >= 0) & (following >= 0)
    return np.where(ok, previous * base + following, -1)


def _lookup(table: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """The index of each key in the sorted ``table``; -1 for a key not there (or a key of -1)."""
    if not len(table):
        return np.full(len(keys), -1, np.int64)
    at = np.minimum(np.searchsorted(table, keys), len(table) - 1)
    return np.where((table[at] == keys) & (keys >= 0), at, -1)


def _lookup_many(table: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """:func:`_lookup` for many keys in no order: each distinct key is looked up once, in sorted order (a binary
    search for keys in order stays in the cache: 4x faster on a block's characters)."""
    distinct, back = np.unique(keys, return_inverse=True)
    return _lookup(table, distinct)[back]


@dataclass(frozen=True)
class _Counted:
    """One reference's n-grams of one order: sorted (segment, id) keys, their counts, each segment's total."""

    keys: np.ndarray
    counts: np.ndarray
    totals: np.ndarray


def _count(units: Units, ids: np.ndarray, n: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Distinct (segment, id) keys of the known n-grams of order ``n``, with their counts."""
    known = units.fits(n) & (ids >= 0)
    return np.unique(units.segment[known] * width + ids[known], return_counts=True)


class ReferenceNgrams:
    """The references' n-grams of orders 1..``orders`` over their units: the id tables, and each reference's
    counts per segment and order."""

    def __init__(self, references: list[Units], orders: int):
        self.tables: list[np.ndarray] = []
        self.counted: list[list[_Counted]] = [[] for _ in references]
        every = np.concatenate([r.ids for r in references]) if references else np.zeros(0, np.int64)
        self.unit_table = np.unique(every[every >= 0])
        self.base = max(len(self.unit_table), 1)
        # Order 1: a unit's id is its place among the references' units; order n: among their n-grams.
        units = [Units(_lookup(self.unit_table, r.ids), r.segment, r.position, r.lengths) for r in references]
        ids = [u.ids for u in units]
        for n in range(1, orders + 1):
            if n == 1:
                table = self.unit_table
            else:
                keys = [_next_keys(u, previous, n, self.base, u.fits(n)) for u, previous in zip(units, ids)]
                table = np.unique(np.concatenate(keys))
                table = table[table >= 0]
                ids = [_lookup(table, k) for k in keys]
            self.tables.append(table)
            width = max(len(table), 1)
            for k, (u, i) in enumerate(zip(units, ids)):
                keys2, counts = _count(u, i, n, width)
                self.counted[k].append(_Counted(keys2, counts, u.totals(n)))

    def candidate_ids(self, units: Units, fits: list[np.ndarray]) -> list[np.ndarray]:
        """The candidate's n-gram ids per order (-1: no reference has that n-gram, or none starts there;
        ``fits[n-1]``: where an n-gram starts inside its segment)."""
        unit_ids = _lookup_many(self.unit_table, units.ids)
        unit_view = Units(unit_ids, units.segment, units.position, units.lengths)
        out, previous = [unit_ids], unit_ids
        for n in range(2, len(self.tables) + 1):
            previous = _lookup_many(self.tables[n - 1], _next_keys(unit_view, previous, n, self.base, fits[n - 1]))
            out.append(previous)
        return out

    def rows(self, units: Units, segments: np.ndarray) -> list[np.ndarray]:
        """Per reference, the statistics of the candidate ``units`` whose block segments are the references'
        segments ``segments``: (segments × 3·orders) of [candidate n-grams, reference n-grams, matches]."""
        fits = [units.fits(n) for n in range(1, len(self.tables) + 1)]
        ids = self.candidate_ids(units, fits)
        index_of = np.zeros(int(segments.max(initial=0)) + 1, np.int64)
        index_of[segments] = np.arange(len(segments))  # the block's segment of a reference segment
        out = []
        for counted in self.counted:
            row = np.zeros((len(segments), 3 * len(self.tables)), np.int64)
            for n, (order_ids, c) in enumerate(zip(ids, counted), start=1):
                width = max(len(self.tables[n - 1]), 1)
                known = fits[n - 1] & (order_ids >= 0)
                keys, counts = np.unique(segments[units.segment[known]] * width + order_ids[known],
                                         return_counts=True)
                at = np.minimum(np.searchsorted(c.keys, keys), max(len(c.keys) - 1, 0))
                found = (c.keys[at] == keys) if len(c.keys) else np.zeros(len(keys), bool)
                matched = np.where(found, np.minimum(counts, c.counts[at] if len(c.counts) else 0), 0)
                position = index_of[keys // width]
                ref_totals = c.totals[segments]
                # sacreBLEU counts no candidate n-gram of an order the reference has none of.
                row[:, 3 * (n - 1)] = np.where(ref_totals > 0, units.totals(n), 0)
                row[:, 3 * (n - 1) + 1] = ref_totals
                row[:, 3 * (n - 1) + 2] = np.bincount(position, weights=matched, minlength=len(segments))
            out.append(row)
        return out
