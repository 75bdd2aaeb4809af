"""Files one line off: a candidate that matches its neighbours' references better than its own.

A dropped or doubled line shifts every line after it. BLEU then stays
plausible and low; nothing says the files are misaligned. Here each candidate
line is compared with its reference line and with the references at offsets
±1 and ±2 by word overlap (characters for text without spaces). When, over a
run of lines, one offset is clearly better than the aligned one, the files are
misaligned from the first line of that run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, count

import numpy as np

from ..metrics.grouping import counted

SHIFTS = (-2, -1, 1, 2)
RUN = 12            # consecutive lines that must agree
MARGIN = 0.2        # mean overlap gain of the shifted reading over the aligned one
AGREEING = 0.75     # share of the run's lines where the shifted reading wins
FLOOR = 0.25        # mean overlap of the shifted reading: real matches, not noise
_FULL_SCAN = 5_000  # lines scanned one by one; longer files are scanned in windows of four runs
_WINDOWS = 64
_REACH = max(abs(s) for s in SHIFTS)
_LINE_SHIFT = 36  # keys: the line number above a unit id below 2^36


@dataclass(frozen=True)
class Misalignment:
    """The files are misaligned from ``line`` (1-based) on: candidate line i matches reference line i + shift."""

    line: int
    shift: int
    aligned: float   # mean overlap of the run with its own reference lines
    shifted: float   # ... and with the lines ``shift`` away

    def describe(self, system: str) -> str:
        what = ("a candidate line is missing or a reference line extra" if self.shift > 0
                else "a candidate line is doubled or a reference line missing")
        return (f"{system} looks misaligned from line {self.line}: its lines match the reference lines "
                f"{abs(self.shift)} {'later' if self.shift > 0 else 'earlier'} (word overlap {self.shifted:.2f} "
                f"against {self.aligned:.2f} with their own), as if {what} near line {self.line}")


def _in_characters(words: list[str], line: str) -> bool:
    """CJK and other text without spaces is compared by its characters."""
    return len(words) <= 2 and len(line) > 8


def _lines_to_scan(n: int, run: int) -> list[range]:
    if n <= _FULL_SCAN:
        return [range(n)]
    size = 4 * run  # enough to see a run of shifted lines; the break itself is found line by line after
    count = max(min(_WINDOWS, n // size), 2)
    return [range(start, min(start + size, n)) for start in
            (round(w * (n - size) / (count - 1)) for w in range(count))]


class _Units:
    """The distinct units of each line as ids of one vocabulary (shared by a candidate and its references),
    built for the lines looked at: a key ``line << _LINE_SHIFT | unit id`` per distinct unit of a line."""

    def __init__(self, lines: Sequence[str], vocabulary: dict[str, int], ids: Iterator[int]):
        self.lines = lines
        self._vocabulary, self._ids = vocabulary, ids
        self._tables: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}

    def table(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        """Sorted distinct keys of lines ``lo`` .. ``hi`` - 1 (clipped to the file), and each line's number of
        distinct units (zero outside the file). Kept: a reference's table serves every system checked."""
        if (lo, hi) not in self._tables:
            self._tables[(lo, hi)] = self._table(lo, hi)
        return self._tables[(lo, hi)]

    def _table(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        first, last = max(lo, 0), min(hi, len(self.lines))
        lines = self.lines[first:last]
        split = [line.lower().split() for line in lines]
        characters = [_in_characters(words, line) for words, line in zip(split, lines)]
        words = [[] if c else w for w, c in zip(split, characters)]
        # A unit seen for the first time takes the next number of a counter shared with the references.
        word_ids = np.fromiter(map(self._vocabulary.setdefault, chain.from_iterable(words), self._ids), np.int64)
        word_line = np.repeat(np.arange(first, last, dtype=np.int64), [len(w) for w in words])
        texts = ["".join(line.split()) if c else "" for line, c in zip(lines, characters)]
        char_ids, char_line = self._character_ids(texts, first)
        ids, line_of = np.concatenate([word_ids, char_ids]), np.concatenate([word_line, char_line])
        keys, _ = counted(line_of << _LINE_SHIFT | ids)  # sorted and distinct
        counts = np.zeros(hi - lo, np.int64)
        counts[first - lo:last - lo] = np.bincount((keys >> _LINE_SHIFT) - first, minlength=last - first)
        return keys, counts

    def _character_ids(self, texts: list[str], first: int) -> tuple[np.ndarray, np.ndarray]:
        """The numbers of the characters of ``texts`` (lines from ``first``), as of one-character words: each
        distinct character is looked up once."""
        codes = np.frombuffer("".join(texts).encode("utf-32-le"), np.uint32)
        distinct, back = np.unique(codes, return_inverse=True)
        numbers = np.fromiter(map(self._vocabulary.setdefault, map(chr, distinct.tolist()), self._ids), np.int64,
                              len(distinct))
        line_of = np.repeat(np.arange(first, first + len(texts), dtype=np.int64), [len(t) for t in texts])
        return numbers[back.reshape(-1)] if len(codes) else np.zeros(0, np.int64), line_of


def _overlaps(hyp: tuple[np.ndarray, np.ndarray], lo: int, refs: list[tuple[np.ndarray, np.ndarray]],
              shift: int) -> np.ndarray:
    """For each candidate line i from ``lo``: the best overlap |A ∩ B| / max(|A|, |B|) of its units A with
    those of reference line i + ``shift`` (0 when either is empty or the line is outside the file).
    ``refs``: each reference's table from ``lo`` - 2."""
    keys, counts = hyp
    n = len(counts)
    best = np.zeros(n)
    for ref_keys, ref_counts in refs:
        start = lo + shift
        window = ref_keys[np.searchsorted(ref_keys, start << _LINE_SHIFT):
                          np.searchsorted(ref_keys, (start + n) << _LINE_SHIFT)]
        shared = np.bincount((keys[_members(keys, window - (shift << _LINE_SHIFT))] >> _LINE_SHIFT) - lo,
                             minlength=n)
        theirs = ref_counts[start - (lo - _REACH):start - (lo - _REACH) + n]
        both = (counts > 0) & (theirs > 0)
        overlap = np.divide(shared, np.maximum(counts, theirs), out=np.zeros(n), where=both)
        np.maximum(best, overlap, out=best)
    return best


def _members(keys: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Which of the sorted ``keys`` the sorted ``table`` holds (a search per key: cheaper than sorting both)."""
    if not len(table):
        return np.zeros(len(keys), bool)
    at = np.minimum(np.searchsorted(table, keys), len(table) - 1)
    return table[at] == keys


def _first_run(lines: range, hyp: _Units, refs: list[_Units], run: int) -> Misalignment | None:
    lo, hi = lines.start, lines.stop
    own = hyp.table(lo, hi)
    theirs = [ref.table(lo - _REACH, hi + _REACH) for ref in refs]
    aligned = _overlaps(own, lo, theirs, 0)
    found = []
    for shift in SHIFTS:
        reading = _overlaps(own, lo, theirs, shift)
        hit, own_means, shifted_means = _shifted_runs(aligned, reading, run)
        hits = np.flatnonzero(hit)
        if len(hits):
            start = int(hits[0])
            gains = list(zip(reading.tolist(), aligned.tolist()))
            found.append((_break_at(gains, start, run), shift, float(own_means[start]), float(shifted_means[start])))
    if not found:
        return None
    at, shift, mean_own, shifted = min(found)
    return Misalignment(lines[at] + 1, shift, mean_own, shifted)


def _shifted_runs(aligned: np.ndarray, reading: np.ndarray, run: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every ``run`` consecutive lines (along the last axis), whether they read shifted, with the run's mean
    overlap aligned and shifted. Running sums (cumsum adds in order, as Python did): every run judged at once."""
    def windowed(values: np.ndarray) -> np.ndarray:
        sums = np.cumsum(values, axis=-1)
        sums = np.concatenate([np.zeros_like(sums[..., :1]), sums], axis=-1)
        return sums[..., run:] - sums[..., :-run]

    mean_own, shifted = windowed(aligned) / run, windowed(reading) / run
    wins = windowed((reading > aligned).astype(np.int64))
    return (shifted >= FLOOR) & (shifted - mean_own >= MARGIN) & (wins >= AGREEING * run), mean_own, shifted


def _break_at(gains: list[tuple[float, float]], start: int, run: int) -> int:
    """Where, near a run that reads shifted, the lines stop reading aligned: the split that best separates
    aligned-reading lines before it from shifted-reading lines after it (weak translations blur the
    first lines of a shift, so the split is looked for up to three runs back)."""
    width = 3 * run

    def fit(b: int) -> int:
        before = gains[max(b - width, 0):b]
        after = gains[b:b + width]
        return sum(a >= s for s, a in before) + sum(s > a for s, a in after)

    return max(range(max(start - width, 0), min(start + run, len(gains)) + 1), key=lambda b: (fit(b), -b))


class MisalignmentCheck:
    """Checks system outputs against one set of references (their word sets are built once, for all)."""

    def __init__(self, references: Sequence[Sequence[str]]):
        self._vocabulary: dict[str, int] = {}
        self._ids = count()
        self.refs = [_Units(ref, self._vocabulary, self._ids) for ref in references]
        self._stacked_refs: dict[tuple[range, ...], _Units] = {}  # the first reference's lines of a file's windows

    def find(self, hypothesis: Sequence[str], progress: Callable[[float], None] | None = None) -> Misalignment | None:
        """The first place where ``hypothesis`` is shifted against the references, or None.

        Files up to 5,000 lines are scanned line by line; longer ones in 64
        windows of four runs, and the break is then searched line by line between
        the last aligned window and the first shifted one. (A shift that corrects
        itself between two windows can go unseen in a long file.)
        """
        n = len(hypothesis)
        run = min(RUN, max(4, n // 4))  # short files: shorter runs
        if n < 2 * run:
            return None
        hyp, refs = _Units(hypothesis, self._vocabulary, self._ids), self.refs
        windows = _lines_to_scan(n, run)
        first = self._first_suspect(hypothesis, windows, run) if len(windows) > 1 else 0
        previous_clean = windows[first - 1].stop if first else 0
        for w, lines in enumerate(windows[first:], first):
            if progress is not None:
                progress(w / len(windows))
            found = _search(lines, hyp, refs, run)
            if found is None:
                previous_clean = lines.stop
                continue
            if len(windows) == 1 or found.line - 1 > lines.start:
                return found
            # The window starts shifted: the break lies between the last clean window and this one.
            refined = _search(range(max(previous_clean - run, 0), lines.stop), hyp, refs, run)
            return refined or found
        return None

    def _first_suspect(self, hypothesis: Sequence[str], windows: list[range], run: int) -> int:
        """The first window in which the first reference reads a run of lines shifted (as :func:`_search` would
        begin), or ``len(windows)``: every window judged at once, each stacked between empty lines as wide as
        the largest shift, so that a shifted reading sees the same reference lines as the window alone would
        (one table and one overlap per shift instead of 64 of each)."""
        size = len(windows[0])  # every window is as long (see _lines_to_scan)
        key = tuple(windows)
        if key not in self._stacked_refs:
            ref = self.refs[0].lines
            self._stacked_refs[key] = _Units([ref[i] if 0 <= i < len(ref) else "" for lines in windows
                                              for i in range(lines.start - _REACH, lines.stop + _REACH)],
                                             self._vocabulary, self._ids)
        pad = [""] * _REACH
        own_units = _Units([line for lines in windows for line in (*pad, *hypothesis[lines.start:lines.stop], *pad)],
                           self._vocabulary, self._ids)
        stride, total = size + 2 * _REACH, len(windows) * (size + 2 * _REACH)
        own, theirs = own_units.table(0, total), [self._stacked_refs[key].table(-_REACH, total + _REACH)]

        def per_window(shift: int) -> np.ndarray:
            return _overlaps(own, 0, theirs, shift).reshape(len(windows), stride)[:, _REACH:_REACH + size]

        aligned = per_window(0)
        suspect = np.zeros(len(windows), bool)
        for shift in SHIFTS:
            suspect |= _shifted_runs(aligned, per_window(shift), run)[0].any(axis=1)
        return int(np.argmax(suspect)) if suspect.any() else len(windows)


def find_misalignment(hypothesis: Sequence[str], references: Sequence[Sequence[str]],
                      progress: Callable[[float], None] | None = None) -> Misalignment | None:
    """The first place where ``hypothesis`` is shifted against ``references``, or None (see
    :meth:`MisalignmentCheck.find`; to check several systems, make one check and reuse it)."""
    return MisalignmentCheck(references).find(hypothesis, progress)


def _search(lines: range, hyp: _Units, refs: list[_Units], run: int) -> Misalignment | None:
    """The first shifted run in ``lines``: scanned against the first reference alone, each candidate then
    confirmed (and placed) against every reference, so that several references cost about one."""
    start = lines.start
    while start < lines.stop:
        found = _first_run(range(start, lines.stop), hyp, refs[:1], run)
        if found is None or len(refs) == 1:
            return found
        around = range(max(found.line - 1 - 3 * run, lines.start), min(found.line - 1 + 4 * run, lines.stop))
        confirmed = _first_run(around, hyp, refs, run)
        if confirmed is not None:
            return confirmed
        start = found.line - 1 + run
    return None
