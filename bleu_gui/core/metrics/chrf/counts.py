"""chrF's segment statistics for a whole block of segments at once, in numpy.

sacreBLEU counts each segment's n-grams in Python ``Counter`` objects. Here the units of a block (characters, or
chrF++'s words) are one array, and each reference's n-grams are numbered *within their segment*: an entry of
order 1 is a (segment, unit) pair, an entry of order n an (entry of order n−1, unit) pair, and each order's
entries are sorted, so an entry's number says its segment and its n-gram at once. A candidate's n-gram at a
position is then found with one binary search of its key (the number of the (n−1)-gram found there, and the unit
that follows) in its own segment's part of the table, and its matches need no sort at all: count the candidate's
hits per entry, take ``min(candidate count, reference count)`` — sacreBLEU's clipped count, to the unit — and add
them up per segment.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Units:
    """The units of a block of segments, concatenated: ``ids`` (code points, or word ids; -1 for a word no
    reference has), the segment each belongs to, its position in its segment, and each segment's length."""

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

    def following(self, n: int) -> np.ndarray:
        """The n-th unit of the n-gram starting at each position (-1 past the end of the block)."""
        out = np.full(len(self.ids), -1, np.int64)
        if len(self.ids) >= n:
            out[:len(self.ids) - (n - 1)] = self.ids[n - 1:]
        return out


@dataclass(frozen=True)
class _Order:
    """One reference's n-grams of one order in a block: sorted distinct entry keys, each entry's count and
    segment, and each segment's number of n-grams."""

    keys: np.ndarray
    counts: np.ndarray
    segment: np.ndarray
    totals: np.ndarray

    def find(self, keys: np.ndarray) -> np.ndarray:
        """The entry number of each key (-1 for a key not there, or a key of -1)."""
        if not len(self.keys):
            return np.full(len(keys), -1, np.int64)
        at = np.searchsorted(self.keys, keys)
        np.minimum(at, len(self.keys) - 1, out=at)
        return np.where((self.keys[at] == keys) & (keys >= 0), at, -1)


class _Reference:
    """One reference's entries of orders 1..``orders`` over a block's units (see the module)."""

    def __init__(self, units: Units, orders: int, base: int):
        self.orders: list[_Order] = []
        entry = np.zeros(0, np.int64)
        segment_of_previous = np.zeros(0, np.int32)
        for n in range(1, orders + 1):
            fits = units.fits(n)
            previous = units.segment[fits] if n == 1 else entry[fits]
            keys, inverse, counts = np.unique(previous * base + units.following(n)[fits], return_inverse=True,
                                              return_counts=True)
            segment = (keys // base).astype(np.int32) if n == 1 else segment_of_previous[keys // base]
            # Counts and segments are small numbers: 32 bits keep the block's tables a third smaller.
            self.orders.append(_Order(keys, counts.astype(np.int32), segment, units.totals(n)))
            entry = np.full(len(units.ids), -1, np.int64)
            entry[fits] = inverse.reshape(-1)
            segment_of_previous = segment


class ReferenceNgrams:
    """The references' n-grams of orders 1..``orders`` over their units, each reference's own (see the module)."""

    def __init__(self, references: list[Units], orders: int):
        top = max((int(r.ids.max(initial=-1)) for r in references), default=-1)
        # Keys are (entry number) × base + unit: every reference unit is below the base; a candidate's unit at
        # or above it is one no reference has.
        self.base = top + 1
        self.n_orders = orders
        self.references = [_Reference(r, orders, self.base) for r in references]

    def rows(self, units: Units, segments: np.ndarray) -> list[np.ndarray]:
        """Per reference, the statistics of the candidate ``units`` whose block segments are the references'
        (distinct) segments ``segments``: (segments × 3·orders) of [candidate n-grams, reference n-grams,
        matches]."""
        unit_ids = np.where(units.ids < self.base, units.ids, -1)
        candidate = Units(unit_ids, units.segment, units.position, units.lengths)
        fits = [candidate.fits(n) for n in range(1, self.n_orders + 1)]
        following = [candidate.following(n) for n in range(1, self.n_orders + 1)]
        their_segment = segments[units.segment]
        return [self._rows(reference, candidate, their_segment, segments, fits, following)
                for reference in self.references]

    def _rows(self, reference: _Reference, units: Units, their_segment: np.ndarray, segments: np.ndarray,
              fits: list[np.ndarray], following: list[np.ndarray]) -> np.ndarray:
        row = np.zeros((len(segments), 3 * self.n_orders), np.int64)
        entry = their_segment
        for n, order in enumerate(reference.orders, start=1):
            known = fits[n - 1] & (entry >= 0) & (following[n - 1] >= 0)
            entry = order.find(np.where(known, entry * self.base + following[n - 1], -1))
            hits = np.bincount(entry[entry >= 0], minlength=len(order.keys))
            matched = np.bincount(order.segment, weights=np.minimum(hits, order.counts),
                                  minlength=len(order.totals))
            ref_totals = order.totals[segments]
            # sacreBLEU counts no candidate n-gram of an order the reference has none of.
            row[:, 3 * (n - 1)] = np.where(ref_totals > 0, units.totals(n), 0)
            row[:, 3 * (n - 1) + 1] = ref_totals
            row[:, 3 * (n - 1) + 2] = matched[segments]
        return row
