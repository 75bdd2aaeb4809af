"""A table of distinct strings with dense ids 0, 1, 2, ..., held in numpy arrays instead of a dict.

Strings are kept as UTF-8 bytes (one buffer and the offsets into it), each with a 64-bit hash, and found
through an open-addressing array of slots. A whole batch is hashed and looked up with array steps, so a
batch of strings costs a few passes over arrays instead of one dict lookup each: at millions of distinct
strings a dict lookup is a chain of cache misses (hash slot, entry, key, value, ~1 µs each on this kind of
machine), while the array steps overlap their misses. The strings need not be Python objects either: the
words of a text split by Arrow are looked up straight from Arrow's buffers, and only the words new to the
table become Python strings. A dict of 4M strings with their int ids took ~570 MB; these arrays take
about a quarter of that.

Ids are exact: strings whose hashes are equal are compared byte for byte, and a hash collision between two
different strings only makes the search go on to the next slot. Python strings are written as UTF-8 with
``surrogatepass``, so a lone surrogate (a line that is not valid Unicode) has bytes of its own that no valid
text has.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

import numpy as np

_PIECE = 1 << 16  # strings hashed and looked up at once: bounds temporary arrays and each numpy call
_ENCODE = operator.methodcaller("encode", "utf-8", "surrogatepass")
_MULTIPLIER = np.uint64(0x100000001B3)
_LENGTH_MIX = np.uint64(0x9E3779B97F4A7C15)


def utf8(strings: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(starts, lengths, data): the UTF-8 bytes of ``strings`` one after the other, and where each one is."""
    joined = "".join(strings)
    data = np.frombuffer(_ENCODE(joined), np.uint8)
    if joined.isascii():  # one byte a character: the lengths are the strings' lengths
        lengths = np.fromiter(map(len, strings), np.int64, len(strings))
    else:
        lengths = np.fromiter(map(len, map(_ENCODE, strings)), np.int64, len(strings))
    return np.cumsum(lengths) - lengths, lengths, data


def _mix(h: np.ndarray) -> np.ndarray:
    """MurmurHash3's 64-bit finaliser: every input bit affects the low bits that pick a slot."""
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xC4CEB9FE1A85EC53)
    h ^= h >> np.uint64(33)
    return h


class _Powers:
    """Powers of the hash multiplier modulo 2^64, grown to the longest string met."""

    def __init__(self) -> None:
        self.values = np.ones(1, np.uint64)

    def upto(self, n: int) -> np.ndarray:
        if len(self.values) <= n:
            size = max(n + 1, 2 * len(self.values))
            factors = np.full(size, _MULTIPLIER, np.uint64)
            factors[0] = 1
            self.values = np.cumprod(factors, dtype=np.uint64)  # wraps modulo 2^64, as a hash wants
        return self.values


_POWERS = _Powers()


def _gather(starts: np.ndarray, lengths: np.ndarray, data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the strings' bytes one after the other, each byte's place in its string)."""
    firsts = np.cumsum(lengths) - lengths
    within = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(firsts, lengths)
    return data[np.repeat(starts, lengths) + within], within


def string_hashes(starts: np.ndarray, lengths: np.ndarray, data: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each string ``data[starts[i]:starts[i] + lengths[i]]``: a polynomial over its bytes
    (sums of byte * multiplier^place, modulo 2^64), mixed with its length."""
    if len(lengths) == 0:
        return np.zeros(0, np.uint64)
    raw, within = _gather(starts, lengths, data)
    terms = raw.astype(np.uint64) * _POWERS.upto(int(lengths.max()))[within]
    cumulative = np.zeros(len(terms) + 1, np.uint64)
    np.cumsum(terms, dtype=np.uint64, out=cumulative[1:])
    ends = np.cumsum(lengths)
    h = cumulative[ends] - cumulative[ends - lengths]  # wraps modulo 2^64, as the sums did
    return _mix(h ^ (lengths.astype(np.uint64) * _LENGTH_MIX))


def _grown(array: np.ndarray, needed: int) -> np.ndarray:
    """``array`` with room for ``needed`` values (capacity doubled, the values kept)."""
    if needed <= len(array):
        return array
    bigger = np.empty(max(needed, 2 * len(array)), array.dtype)
    bigger[:len(array)] = array
    return bigger


class StringTable:
    """Distinct strings, each with the id it was added with (0, 1, 2, ... in order of adding)."""

    def __init__(self) -> None:
        self._n = 0
        self._data = np.empty(1 << 12, np.uint8)     # the strings' bytes, one after the other
        self._starts = np.empty(1 << 10, np.int64)   # by id
        self._lengths = np.empty(1 << 10, np.int32)  # a string of 2 GB is no word
        self._hashes = np.empty(1 << 10, np.uint64)
        self._slots = np.full(1 << 11, -1, np.int32)  # id by hash, open addressing; at most half full
        self._bytes = 0

    def __len__(self) -> int:
        return self._n

    def copy(self) -> StringTable:
        """An independent table with the same strings and ids."""
        twin = StringTable.__new__(StringTable)
        twin._n, twin._bytes = self._n, self._bytes
        twin._data, twin._starts = self._data[:self._bytes].copy(), self._starts[:self._n].copy()
        twin._lengths, twin._hashes = self._lengths[:self._n].copy(), self._hashes[:self._n].copy()
        twin._slots = self._slots.copy()
        return twin

    def string(self, i: int) -> str:
        """The string with id ``i``."""
        start = int(self._starts[i])
        return self._data[start:start + int(self._lengths[i])].tobytes().decode("utf-8", "surrogatepass")

    def strings(self) -> list[str]:
        """Every string, by id."""
        return [self.string(i) for i in range(self._n)]

    # -- looking up ----------------------------------------------------------------
    def find(self, starts: np.ndarray, lengths: np.ndarray, data: np.ndarray) -> np.ndarray:
        """The id of each string ``data[starts[i]:starts[i] + lengths[i]]``, -1 where the table lacks it."""
        out = np.empty(len(starts), np.int64)
        for a in range(0, len(starts), _PIECE):
            piece = slice(a, a + _PIECE)
            out[piece] = self._find(starts[piece], lengths[piece], data,
                                    string_hashes(starts[piece], lengths[piece], data))
        return out

    def find_strings(self, strings: list[str]) -> np.ndarray:
        """:meth:`find` for Python strings."""
        return self.find(*utf8(strings))

    def _find(self, starts: np.ndarray, lengths: np.ndarray, data: np.ndarray, hashes: np.ndarray) -> np.ndarray:
        out = np.full(len(starts), -1, np.int64)
        mask = len(self._slots) - 1
        live = np.arange(len(starts))
        slot = (hashes & np.uint64(mask)).astype(np.int64)
        while len(live):
            candidate = self._slots[slot].astype(np.int64)
            filled = candidate >= 0
            same = filled.copy()
            same[filled] = self._hashes[candidate[filled]] == hashes[live[filled]]
            if same.any():
                pairs = np.flatnonzero(same)
                equal = self._equal(starts[live[pairs]], lengths[live[pairs]], data, candidate[pairs])
                out[live[pairs[equal]]] = candidate[pairs[equal]]
                same[pairs[~equal]] = False  # the same hash, another string: search on
            going = filled & ~same  # an empty slot ends a search: the string is not in the table
            live, slot = live[going], (slot[going] + 1) & mask
        return out

    def _equal(self, starts: np.ndarray, lengths: np.ndarray, data: np.ndarray, ids: np.ndarray) -> np.ndarray:
        """Whether each string of ``data`` equals the table's string with the paired id, byte for byte."""
        equal = lengths == self._lengths[ids]
        pairs = np.flatnonzero(equal)
        if len(pairs):
            theirs, _ = _gather(starts[pairs], lengths[pairs], data)
            ours, _ = _gather(self._starts[ids[pairs]], lengths[pairs], self._data)
            owner = np.repeat(np.arange(len(pairs)), lengths[pairs])
            equal[pairs[np.bincount(owner[theirs != ours], minlength=len(pairs)) > 0]] = False
        return equal

    # -- adding ------------------------------------------------------------------
    def add(self, starts: np.ndarray, lengths: np.ndarray, data: np.ndarray) -> np.ndarray:
        """Add strings the table lacks, all distinct (the caller makes sure); gives their ids, in order."""
        first, n = self._n, len(starts)
        if n == 0:
            return np.zeros(0, np.int64)
        for name in ("_starts", "_lengths", "_hashes"):
            setattr(self, name, _grown(getattr(self, name), first + n))
        for a in range(0, n, _PIECE):
            piece_starts, piece_lengths = starts[a:a + _PIECE], lengths[a:a + _PIECE]
            raw, _ = _gather(piece_starts, piece_lengths, data)
            self._data = _grown(self._data, self._bytes + len(raw))
            self._data[self._bytes:self._bytes + len(raw)] = raw
            at = slice(first + a, first + a + len(piece_lengths))
            self._starts[at] = self._bytes + np.cumsum(piece_lengths) - piece_lengths
            self._lengths[at] = piece_lengths
            self._hashes[at] = string_hashes(piece_starts, piece_lengths, data)
            self._bytes += len(raw)
        self._n += n
        if 2 * self._n > len(self._slots):
            size = len(self._slots)
            while 2 * self._n > size:
                size *= 2
            self._slots = np.full(size, -1, np.int32)
            first = 0  # every string moves to the larger array
        self._place(first, self._n)
        return np.arange(self._n - n, self._n, dtype=np.int64)

    def add_strings(self, strings: list[str]) -> np.ndarray:
        """:meth:`add` for Python strings."""
        return self.add(*utf8(strings))

    def _place(self, first: int, last: int) -> None:
        """Give ids first..last-1 a free slot each: their hash's, or the next free one after it. A piece of ids
        at a time: moving millions to a larger array holds no large temporary array and no long numpy call."""
        mask = len(self._slots) - 1
        for a in range(first, last, _PIECE):
            ids = np.arange(a, min(a + _PIECE, last), dtype=np.int64)
            slot = (self._hashes[ids] & np.uint64(mask)).astype(np.int64)
            while len(ids):
                free = self._slots[slot] < 0
                # Several ids may want one free slot: one of them gets it (whichever was written last), the
                # others look on.
                self._slots[slot[free]] = ids[free]
                placed = self._slots[slot] == ids
                ids, slot = ids[~placed], (slot[~placed] + 1) & mask


class Utf8Strings:
    """Strings as UTF-8 bytes (string i is ``data[starts[i]:starts[i] + lengths[i]]``), which become Python
    strings only when asked for (``decode``: those at the given indices)."""

    def __init__(self, starts: np.ndarray, lengths: np.ndarray, data: np.ndarray,
                 decode: Callable[[list[int]], list[str]]):
        self.starts, self.lengths, self.data = starts, lengths, data
        self._decode = decode
        self._extra: list[str] = []  # strings added by extend, after the first ones
        self._base = len(starts)

    @classmethod
    def of(cls, strings: list[str]) -> Utf8Strings:
        return cls(*utf8(strings), decode=lambda indices: [strings[i] for i in indices])

    def __len__(self) -> int:
        return len(self.starts)

    def strings(self, indices: list[int]) -> list[str]:
        """The strings at ``indices`` as Python strings (ask for many at once: each call may be a call into
        Arrow)."""
        base = self._base
        if not self._extra:
            return self._decode(indices)
        first = iter(self._decode([i for i in indices if i < base]))
        return [next(first) if i < base else self._extra[i - base] for i in indices]

    def extend(self, strings: list[str]) -> None:
        """Add more strings at the end (they may repeat strings already here)."""
        starts, lengths, data = utf8(strings)
        self.starts = np.concatenate([self.starts, starts + len(self.data)])
        self.lengths = np.concatenate([self.lengths, lengths])
        self.data = np.concatenate([self.data, data])
        self._extra += strings
