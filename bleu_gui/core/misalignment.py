"""Files one line off: a candidate that matches its neighbours' references better than its own.

A dropped or doubled line shifts every line after it. BLEU then stays
plausible and low; nothing says the files are misaligned. Here each candidate
line is compared with its reference line and with the references at offsets
±1 and ±2 by word overlap (characters for text without spaces). When, over a
run of lines, one offset is clearly better than the aligned one, the files are
misaligned from the first line of that run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate

SHIFTS = (-2, -1, 1, 2)
RUN = 12            # consecutive lines that must agree
MARGIN = 0.2        # mean overlap gain of the shifted reading over the aligned one
AGREEING = 0.75     # share of the run's lines where the shifted reading wins
FLOOR = 0.25        # mean overlap of the shifted reading: real matches, not noise
_FULL_SCAN = 5_000  # lines scanned one by one; longer files are scanned in windows of four runs
_WINDOWS = 64


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


def _units(line: str) -> frozenset[str]:
    words = line.lower().split()
    if len(words) <= 2 and len(line) > 8:  # CJK and other text without spaces: characters
        return frozenset(ch for ch in line if not ch.isspace())
    return frozenset(words)


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / max(len(a), len(b))


def _lines_to_scan(n: int, run: int) -> list[range]:
    if n <= _FULL_SCAN:
        return [range(n)]
    size = 4 * run  # enough to see a run of shifted lines; the break itself is found line by line after
    count = max(min(_WINDOWS, n // size), 2)
    return [range(start, min(start + size, n)) for start in
            (round(w * (n - size) / (count - 1)) for w in range(count))]


class _Units:
    """The units of each line, computed once and only for the lines looked at."""

    def __init__(self, lines: Sequence[str]):
        self.lines = lines
        self._cache: dict[int, frozenset[str]] = {}

    def __len__(self) -> int:
        return len(self.lines)

    def __getitem__(self, i: int) -> frozenset[str]:
        if i not in self._cache:
            self._cache[i] = _units(self.lines[i])
        return self._cache[i]


def _first_run(lines: range, hyp: _Units, refs: list[_Units], run: int) -> Misalignment | None:
    n = len(hyp)

    def best(i: int, j: int) -> float:
        if not 0 <= j < n:
            return 0.0
        units = hyp[i]
        return max(_overlap(units, ref[j]) for ref in refs) if len(refs) > 1 else _overlap(units, refs[0][j])

    aligned = [best(i, i) for i in lines]
    found = []
    for shift in SHIFTS:
        gains = [(best(i, i + shift), a) for i, a in zip(lines, aligned)]
        # Running sums: each window of ``run`` lines is judged in constant time.
        shifted_sum = [0.0, *accumulate(s for s, _ in gains)]
        own_sum = [0.0, *accumulate(a for _, a in gains)]
        wins_sum = [0, *accumulate(int(s > a) for s, a in gains)]
        for start in range(0, len(gains) - run + 1):
            end = start + run
            shifted = (shifted_sum[end] - shifted_sum[start]) / run
            own = (own_sum[end] - own_sum[start]) / run
            if shifted >= FLOOR and shifted - own >= MARGIN and wins_sum[end] - wins_sum[start] >= AGREEING * run:
                found.append((_break_at(gains, start, run), shift, own, shifted))
                break
    if not found:
        return None
    at, shift, own, shifted = min(found)
    return Misalignment(lines[at] + 1, shift, own, shifted)


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
        self.refs = [_Units(ref) for ref in references]

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
        hyp, refs = _Units(hypothesis), self.refs
        windows = _lines_to_scan(n, run)
        previous_clean = 0
        for w, lines in enumerate(windows):
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
