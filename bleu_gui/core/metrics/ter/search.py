"""TER's edit count as sacreBLEU 2.x finds it (``sacrebleu/metrics/lib_ter.py``, after Tercom), for many
sentence pairs at once.

sacreBLEU's number is not the true minimum of shifts + edits: it is what Tercom's greedy search reaches, and
this module reaches the very same number by the very same steps:

- the edit distance is a beam search around a pseudo-diagonal (``floor(i · m/n)`` ± 25 reference words, more
  when the lengths differ wildly), the whole last row, and cells outside the beam at "infinity";
- ties in the distance matrix go to a match or substitution, then to a hypothesis word dropped, then to a
  reference word added; the trace walks back from the last cell;
- shift candidates are every hypothesis span of 1..10 words that equals a reference span starting at most 50
  words away, in the order (hypothesis start, reference start, length), skipped when the hypothesis span has
  no error, when the reference span has no error, or when the reference start is aligned inside the span;
  each is tried at the insertion points the alignment gives for the reference positions start-1 .. end-1;
- the best candidate by (distance gained, length, earlier start, earlier target) is applied while it gains,
  and after 1,000 candidates tried for one sentence pair the search stops without applying its last best.

How it is computed here: a round of the search (one shift) runs for every unfinished sentence pair of a block
at once, and every distance is numpy arrays a matrix row at a time (the row's insertions are a running
minimum). A candidate's rows before its first moved word are the current hypothesis' rows (sacreBLEU's
prefix cache), so only the rows after it are computed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_CANDIDATES = 1000
# sacreBLEU's "infinity" (1e16) only needs to exceed every real distance plus a sentence's length: an
# int32 one halves the memory of the matrices.
INF = np.int32(1 << 30)

# Operations of the distance matrix, rewriting the hypothesis into the reference.
NOP, SUB, INS, DEL, UNDEF = 0, 1, 2, 3, 4  # INS: a reference word the hypothesis lacks; DEL: a hypothesis word
START = 5  # the matrix' first cell, where every walk back ends
OP_NAMES = {NOP: "=", SUB: "S", INS: "I", DEL: "D"}
# Per operation (indexed by its code): does it take a hypothesis word, a reference word, is it an edit.
_USES_HYP = np.array([1, 1, 0, 1, 0, 0], np.int64)
_USES_REF = np.array([1, 1, 1, 0, 0, 0], np.int64)
_EDITS = np.array([0, 1, 1, 1, 0, 0], np.int64)

_BLOCK = 512  # sentence pairs searched together (their padding is that of the longest)
_CELLS = 1 << 23  # matrix cells of a block at most (its distance matrices take 5 bytes a cell)
# Rows of the candidates' distances whose beams and words are gathered at once: fewer numpy calls than one gather
# a row, and on long sentences far less memory than gathering every row (thousands of candidates × 1,000 rows).
_STEPS_GATHERED = 32
Progress = Callable[[float], None]


@dataclass(frozen=True)
class Shift:
    """One applied shift: ``length`` words from ``start`` moved to insertion point ``target`` (sacreBLEU's
    ``_perform_shift`` arguments; :attr:`landing` says where the block starts afterwards)."""

    start: int
    length: int
    target: int
    n_words: int

    @property
    def landing(self) -> int:
        """The block's first position in the shifted hypothesis."""
        if self.target < self.start:
            return self.target
        if self.target > self.start + self.length:
            return self.target - self.length
        return self.start + min(self.target - self.start, self.n_words - self.start - self.length)


@dataclass(frozen=True)
class SearchRecord:
    """How one sentence pair's edits were found: the shifts in order, then the alignment of the shifted
    hypothesis with the reference as (operation, hypothesis index or -1, reference index or -1) in order."""

    edits: int
    shifts: list[Shift]
    words: list[int]                       # the shifted hypothesis (word ids)
    alignment: list[tuple[int, int, int]]


def shifted_positions(start: np.ndarray, length: np.ndarray, target: np.ndarray, n: np.ndarray,
                      width: int) -> np.ndarray:
    """For each shift, the position of the unshifted hypothesis each position of the shifted one takes its word
    from (shifts × width; positions past a hypothesis' end map to themselves)."""
    p = np.arange(width)[None, :]
    h, ln, t = start[:, None], length[:, None], target[:, None]
    before = np.where(p < t, p, np.where(p < t + ln, h + p - t, np.where(p < h + ln, p - ln, p)))
    after = np.where(p < h, p, np.where(p < t - ln, p + ln, np.where(p < t, h + p - (t - ln), p)))
    k = np.minimum(t - h, n[:, None] - h - ln)  # sacreBLEU's third case: the block lands k words further on
    within = np.where(p < h, p, np.where(p < h + k, p + ln, np.where(p < h + k + ln, p - k, p)))
    src = np.where(t < h, before, np.where(t > h + ln, after, within))
    return np.clip(src, 0, width - 1)


class _Pairs:
    """One block of sentence pairs, padded: hypothesis word ids ``hyp`` (pairs × N, -1 past the end) and
    reference ids ``ref`` (pairs × M, -2 past the end), with their lengths and beam geometry."""

    def __init__(self, hyps: Sequence[np.ndarray], refs: Sequence[np.ndarray]):
        self.n = np.array([len(h) for h in hyps], np.int64)
        self.m = np.array([len(r) for r in refs], np.int64)
        self.N, self.M = int(self.n.max(initial=0)), int(self.m.max(initial=0))
        self.hyp = np.full((len(hyps), max(self.N, 1)), -1, np.int64)
        self.ref = np.full((len(refs), max(self.M, 1)), -2, np.int64)
        for k, (h, r) in enumerate(zip(hyps, refs)):
            self.hyp[k, :len(h)] = h
            self.ref[k, :len(r)] = r
        # sacreBLEU: the ratio of lengths sets the pseudo-diagonal, and a beam half as wide as the ratio when
        # that is wider than 25 words ("crazy sentences").
        ratio = np.where(self.n > 0, self.m / np.maximum(self.n, 1), 1.0)
        beam = np.where(BEAM_WIDTH < ratio / 2, np.ceil(ratio / 2 + BEAM_WIDTH), float(BEAM_WIDTH))
        # Each row's beam, [lo, hi) of the columns, worked out once for every row of every pair: sacreBLEU's
        # pseudo-diagonal floor(i · m/n), the beam either side, and the whole last row.
        i = np.arange(self.N + 1)[None, :]
        diag = np.floor(i * ratio[:, None])
        end = (self.m + 1)[:, None]
        self.lo = np.maximum(diag - beam[:, None], 0).astype(np.int32)
        self.hi = np.where(i == self.n[:, None], end, np.minimum(end, diag + beam[:, None])).astype(np.int32)
        self.whole = (self.lo == 0) & (self.hi >= end)  # rows the beam covers entirely


def _walls(lo: np.ndarray, hi: np.ndarray, whole: np.ndarray, cols: np.ndarray) -> np.ndarray | None:
    """The cells of one row of several pairs that their beams (``lo``, ``hi``, ``whole``: see :class:`_Pairs`)
    leave out, as walls (rows × columns, int32): INF outside the beam and 0 within it, so that a cell is pushed
    out by a maximum; None when every beam covers its whole row."""
    if whole.all():
        return None
    walls = ((cols < lo[:, None]) | (cols >= hi[:, None])).astype(np.int32)
    walls *= INF
    return walls


def _row(prev: np.ndarray, mismatch: np.ndarray, walls: np.ndarray | None,
         cols: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One row of the beam edit distance from the row above: (values, the best of substitution and deletion
    before insertions minus each cell's column, and the substitution costs), cells outside the beam (``walls``,
    see :func:`_walls`) at INF or more.

    A cell that is INF or more is infinite: it is never clamped back to INF (two numpy passes a row saved), so
    one may read INF plus a few. Nothing finite is derived from it and no walk back visits it (each step of a walk
    goes to the finite cell the value came from), so which operation it keeps makes no difference."""
    sub = prev[:, :-1] + mismatch
    t = np.empty_like(prev)
    t[:, 0] = prev[:, 0] + 1
    np.minimum(sub, prev[:, 1:] + 1, out=t[:, 1:])
    if walls is not None:  # every real cost is below INF: the walls' maximum makes the cells outside infinite
        np.maximum(t, walls, out=t)
    # Insertions run along the row: value[j] = min over k <= j of t[k] + (j - k), a running minimum.
    t -= cols
    values = np.minimum.accumulate(t, axis=1)
    values += cols
    if walls is not None:
        np.maximum(values, walls, out=values)
    return values, t, sub


def _row_ops(prev: np.ndarray, values: np.ndarray, t: np.ndarray, sub: np.ndarray, mismatch: np.ndarray,
             walls: np.ndarray | None, cols: np.ndarray) -> np.ndarray:
    """The operation sacreBLEU keeps in each cell: a match or substitution, else a deletion if strictly
    cheaper, else an insertion if strictly cheaper still; UNDEF where nothing is finite. ``t`` is :func:`_row`'s,
    less each column. The operations are int8 arithmetic: several times faster than ``np.where`` with scalars or
    masked assignments on a block's rows."""
    ops = np.empty(values.shape, np.int8)
    ops[:, 0] = DEL
    kept = mismatch.astype(np.int8)  # NOP is 0 and SUB 1: the diagonal's operation is the mismatch
    # DEL and UNDEF are above every code they replace (a maximum); INS is not (a blend).
    np.maximum(kept, (prev[:, 1:] + 1 < sub).view(np.int8) * np.int8(DEL), out=kept)
    tsd = t[:, 1:] + cols[1:]
    np.maximum(kept, (tsd >= INF).view(np.int8) * np.int8(UNDEF), out=kept)
    insert = (values[:, :-1] + 1 < tsd).view(np.int8)
    kept += insert * (np.int8(INS) - kept)
    ops[:, 1:] = kept
    if walls is not None:
        np.maximum(ops, (walls != 0).view(np.int8) * np.int8(UNDEF), out=ops)
    return ops


def _forward(pairs: _Pairs, rows: np.ndarray, words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The whole distance matrix, values and operations, of hypotheses ``words`` (of pairs ``rows``):
    (pairs × (N+1) × (M+1)) each."""
    # Computed with the pairs sorted longest hypothesis first, so that the pairs still computing a row are a
    # prefix (slices, not gathers), and put back in the callers' order at the end.
    order = np.argsort(-pairs.n[rows], kind="stable")
    g = rows[order]
    n, lo, hi, whole = pairs.n[g], pairs.lo[g], pairs.hi[g], pairs.whole[g]
    ref, hyp = pairs.ref[g], words[order]
    width = pairs.M + 1
    cols = np.arange(width, dtype=np.int32)
    values = np.full((len(rows), pairs.N + 1, width), INF, np.int32)
    ops = np.full((len(rows), pairs.N + 1, width), UNDEF, np.int8)
    values[:, 0, :] = cols
    ops[:, 0, :] = INS
    ops[:, 0, 0] = START
    live = np.searchsorted(-n, -np.arange(pairs.N + 1), side="right").tolist()
    for i in range(1, pairs.N + 1):
        a = live[i]
        prev = values[:a, i - 1]
        mismatch = hyp[:a, i - 1][:, None] != ref[:a]
        walls = _walls(lo[:a, i], hi[:a, i], whole[:a, i], cols)
        row, t, sub = _row(prev, mismatch, walls, cols)
        values[:a, i] = row
        ops[:a, i] = _row_ops(prev, row, t, sub, mismatch, walls, cols)
    back = np.empty_like(order)
    back[order] = np.arange(len(order))
    return values[back], ops[back]


@dataclass(frozen=True)
class _Alignment:
    hyp_err: np.ndarray  # pairs × N: 1 where the hypothesis word is not matched
    ref_err: np.ndarray  # pairs × M: 1 where the reference word is not matched
    align: np.ndarray    # pairs × M: the hypothesis position each reference word is aligned to (-1: before all)


def _walk(ops: np.ndarray, n: np.ndarray, m: np.ndarray, width_n: int, width_m: int,
          keep: bool = False) -> tuple[_Alignment, list[list[tuple[int, int, int]]]]:
    """Walk each matrix back from its last cell: the alignment sacreBLEU derives from the flipped trace, and
    with ``keep`` the trace itself in order as (op, hypothesis index or -1, reference index or -1)."""
    count = len(n)
    here = np.arange(count)
    hyp_err = np.zeros((count, width_n + 1), np.int64)
    ref_err = np.zeros((count, width_m + 1), np.int64)
    align = np.zeros((count, width_m + 1), np.int64)
    i, j = n.copy(), m.copy()
    steps: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    # Every pair steps at once; one whose walk has ended stays on its START cell, which takes no word (its
    # writes go to the spare last column).
    while True:
        op = ops[here, i, j]
        if (op == START).all():
            break
        if (op == UNDEF).any():
            raise AssertionError("the edit distance trace left the beam")
        uses_hyp, uses_ref, edit = _USES_HYP[op], _USES_REF[op], _EDITS[op]
        h_at, r_at = np.where(uses_hyp == 1, i - 1, width_n), np.where(uses_ref == 1, j - 1, width_m)
        hyp_err[here, h_at] = edit
        ref_err[here, r_at] = edit
        align[here, r_at] = i - 1
        if keep:
            steps.append((op, np.where(uses_hyp == 1, i - 1, -1), np.where(uses_ref == 1, j - 1, -1)))
        i -= uses_hyp
        j -= uses_ref
    traces: list[list[tuple[int, int, int]]] = [[] for _ in range(count)]
    for op, hs, rs in reversed(steps):
        for k, o, h, r in zip(range(count), op.tolist(), hs.tolist(), rs.tolist()):
            if o != START:
                traces[k].append((o, h, r))
    return _Alignment(hyp_err[:, :width_n], ref_err[:, :width_m], align[:, :width_m]), traces


@dataclass(frozen=True)
class _Candidates:
    pair: np.ndarray    # local index of the pair (into the round's rows)
    start: np.ndarray
    length: np.ndarray
    target: np.ndarray


def _candidates(words: np.ndarray, ref: np.ndarray, n: np.ndarray, m: np.ndarray,
                al: _Alignment) -> tuple[_Candidates, np.ndarray]:
    """Every shift sacreBLEU tries this round, in its order, and how many each pair tries."""
    count, width_n = words.shape
    width_m = ref.shape[1]
    eq = words[:, :, None] == ref[:, None, :]
    run = np.zeros((count, width_n + 1, width_m + 1), np.int8)
    for row in range(width_n - 1, -1, -1):  # matching words in a row from (h, r), at most MAX_SHIFT_SIZE
        np.multiply(np.minimum(run[:, row + 1, 1:] + 1, MAX_SHIFT_SIZE), eq[:, row], out=run[:, row, :width_m])
    near = np.abs(np.arange(width_m)[None, :] - np.arange(width_n)[:, None]) <= MAX_SHIFT_DIST
    # np.nonzero of the 3-D mask, in the same (pair, h, r) order, as one flat search (4x faster)
    flat = np.flatnonzero(eq & near[None])
    pair_of, rest = np.divmod(flat, width_n * width_m)
    starts = (pair_of, *np.divmod(rest, width_m))
    longest = run[starts].astype(np.int64)
    s, h, r = (np.repeat(x, longest) for x in starts)
    first = np.cumsum(longest) - longest
    length = np.arange(len(s)) - np.repeat(first, longest) + 1
    hyp_wrong = np.concatenate([np.zeros((count, 1), np.int64), np.cumsum(al.hyp_err, axis=1)], axis=1)
    ref_wrong = np.concatenate([np.zeros((count, 1), np.int64), np.cumsum(al.ref_err, axis=1)], axis=1)
    aligned = al.align[s, r]
    ok = ((hyp_wrong[s, h + length] > hyp_wrong[s, h]) & (ref_wrong[s, r + length] > ref_wrong[s, r])
          & ~((h <= aligned) & (aligned < h + length)))
    s, h, r, length = s[ok], h[ok], r[ok], length[ok]
    # Insertion points: before everything for the position before the span, else after the hypothesis word
    # each reference position of the span (and the one before it) is aligned to; a point equal to the one
    # just tried is skipped.
    offsets = np.arange(-1, MAX_SHIFT_SIZE)[None, :]
    q = r[:, None] + offsets
    target = np.where(q < 0, 0, np.take_along_axis(al.align[s], np.clip(q, 0, width_m - 1), axis=1) + 1)
    tried = offsets < length[:, None]
    tried[:, 1:] &= target[:, 1:] != target[:, :-1]
    which, _ = np.nonzero(tried)
    cands = _Candidates(s[which], h[which], length[which], target[tried])
    return cands, np.bincount(cands.pair, minlength=count)


def _candidate_distances(pairs: _Pairs, rows: np.ndarray, words: np.ndarray, values: np.ndarray,
                         cands: _Candidates) -> tuple[np.ndarray, np.ndarray]:
    """The beam edit distance of every candidate's shifted hypothesis, and the shifted word positions
    (candidates × N). Rows before the first moved word are the current hypothesis' rows."""
    pair = cands.pair
    g = rows[pair]
    n = pairs.n[g]
    src = shifted_positions(cands.start, cands.length, cands.target, n, words.shape[1])
    first = np.minimum(cands.start, cands.target)
    todo = n - first
    order = np.argsort(-todo, kind="stable")
    pair_o, first_o, todo_o, src_o = pair[order], first[order], todo[order], src[order]
    g_o = g[order]
    m_o = pairs.m[g_o]
    ref_o = pairs.ref[g_o]
    cols = np.arange(pairs.M + 1, dtype=np.int32)
    prev = values[pair_o, first_o]
    out = np.empty(len(order), np.int64)
    steps = int(todo_o.max(initial=0))
    # Candidates still computing at step k are a prefix; those whose last row it is, its end.
    rising = -todo_o
    live = np.searchsorted(rising, -np.arange(1, steps + 1), side="right").tolist()
    ending = np.searchsorted(rising, -np.arange(1, steps + 1), side="left").tolist()
    for k0 in range(0, steps, _STEPS_GATHERED):
        # What the next steps need of each candidate still computing, gathered at once: its row first + 1 + k,
        # that row's beam, and the word the shifted hypothesis has there (past a candidate's last row: not read).
        a0, k1 = live[k0], min(k0 + _STEPS_GATHERED, steps)
        at = np.minimum(first_o[:a0, None] + 1 + np.arange(k0, k1)[None, :], pairs.N)
        lo, hi, whole = (x[g_o[:a0, None], at] for x in (pairs.lo, pairs.hi, pairs.whole))
        word = words[pair_o[:a0, None], np.take_along_axis(src_o[:a0], at - 1, axis=1)]
        for k in range(k0, k1):
            a, c = live[k], k - k0
            mismatch = word[:a, c][:, None] != ref_o[:a]
            walls = _walls(lo[:a, c], hi[:a, c], whole[:a, c], cols)
            prev = _row(prev[:a], mismatch, walls, cols)[0]
            out[ending[k]:a] = prev[np.arange(ending[k], a), m_o[ending[k]:a]]
    distances = np.empty_like(out)
    distances[order] = out
    return distances, src


def _best(cands: _Candidates, gain: np.ndarray, pairs_count: int) -> tuple[np.ndarray, np.ndarray]:
    """Per pair, the candidate sacreBLEU keeps (the highest gain, then the longest, the earliest start, the
    earliest target, then the first tried), as (pairs having one, its candidate index)."""
    order = np.lexsort((np.arange(len(gain)), cands.target, cands.start, -cands.length, -gain, cands.pair))
    first = np.ones(len(order), bool)
    first[1:] = cands.pair[order][1:] != cands.pair[order][:-1]
    chosen = order[first]
    return cands.pair[chosen], chosen


def _search_block(hyps: Sequence[np.ndarray], refs: Sequence[np.ndarray], bound: np.ndarray,
                  record: bool = False) -> tuple[np.ndarray, list[np.ndarray], list[SearchRecord]]:
    """The edits of each pair of one block (no empty reference), the hypothesis words edited (see
    :class:`Searched`), and with ``record`` how they were found; ``bound``: each pair's
    :func:`fewest_edits_possible`."""
    pairs = _Pairs(hyps, refs)
    count = len(hyps)
    words = pairs.hyp.copy()
    shifts = np.zeros(count, np.int64)
    checked = np.zeros(count, np.int64)
    edits = np.zeros(count, np.int64)
    applied: list[list[Shift]] = [[] for _ in range(count)]
    traces: list[list[tuple[int, int, int]]] = [[] for _ in range(count)]
    # Which word of the hypothesis as given sits at each place as the shifts apply, and the words shifted: with the
    # last alignment's substitutions and deletions, the words TER holds against the hypothesis (error recall).
    origin = np.tile(np.arange(words.shape[1]), (count, 1))
    moved = np.zeros(words.shape, bool)
    edited: list[np.ndarray] = [np.zeros(0, np.int64)] * count
    live = np.arange(count)
    # A shift moves words without changing them, so no shift takes a pair below its bound: where the distance is
    # the bound already, sacreBLEU tries the candidates and applies none; here they are not tried (a third of the
    # pairs of WMT17 en-de, short ones: about 1% of the time).
    while len(live):
        values, ops = _forward(pairs, live, words[live])
        n, m = pairs.n[live], pairs.m[live]
        here = np.arange(len(live))
        before = values[here, n, m].astype(np.int64)
        al, trace = _walk(ops, n, m, pairs.N, pairs.M, keep=record)
        cands, tried = _candidates(words[live], pairs.ref[live], n, m, al)
        checked[live] += tried
        # sacreBLEU stops a pair once 1,000 candidates are tried, without applying that round's best.
        searching = (checked[live] < MAX_CANDIDATES) & (tried > 0) & (before > bound[live])
        keep = searching[cands.pair]
        cands = _Candidates(cands.pair[keep], cands.start[keep], cands.length[keep], cands.target[keep])
        distances, src = _candidate_distances(pairs, live, words[live], values, cands)
        gain = before[cands.pair] - distances
        owners, chosen = _best(cands, gain, len(live))
        improving = owners[gain[chosen] > 0]
        moves = chosen[gain[chosen] > 0]
        finished = np.ones(len(live), bool)
        finished[improving] = False
        done = np.flatnonzero(finished)
        held = moved[live[done]]
        at, place = np.nonzero(al.hyp_err[done].astype(bool))
        held[at, origin[live[done]][at, place]] = True
        for k, row in zip(done.tolist(), held):
            edited[live[k]] = np.flatnonzero(row)
            edits[live[k]] = before[k] + shifts[live[k]]
            if record:
                traces[live[k]] = trace[k]
        for k, c in zip(improving.tolist(), moves.tolist()):
            g = live[k]
            start, length = int(cands.start[c]), int(cands.length[c])
            moved[g, origin[g, start:start + length]] = True
            origin[g] = origin[g, src[c]]
            words[g] = words[g, src[c]]
            shifts[g] += 1
            if record:
                applied[g].append(Shift(start, length, int(cands.target[c]), int(pairs.n[g])))
        live = live[~finished]
    records = [SearchRecord(int(edits[k]), applied[k], words[k, :pairs.n[k]].tolist(), traces[k])
               for k in range(count)] if record else []
    return edits, edited, records


def _blocks(order: np.ndarray, n: np.ndarray, m: np.ndarray) -> list[np.ndarray]:
    """``order`` (pairs sorted by length) cut into blocks of at most _BLOCK pairs whose matrices (pairs × longest
    hypothesis × longest reference) stay within _CELLS: a few pairs of a thousand words each get blocks of their own."""
    out, start = [], 0
    while start < len(order):
        end, longest_n, longest_m = start, 0, 0
        while end < len(order) and end - start < _BLOCK:
            k = order[end]
            wider_n, wider_m = max(longest_n, int(n[k])), max(longest_m, int(m[k]))
            if end > start and (end - start + 1) * (wider_n + 1) * (wider_m + 1) > _CELLS:
                break
            longest_n, longest_m, end = wider_n, wider_m, end + 1
        out.append(order[start:end])
        start = end
    return out


@dataclass(frozen=True)
class Searched:
    """What the search found of each sentence pair: sacreBLEU's number of edits, the hypothesis words TER holds
    against it (indices before any shift: the words shifted, and those the last alignment substitutes or deletes),
    and with ``record`` how the edits were found."""

    edits: np.ndarray
    edited: list[np.ndarray]
    records: list[SearchRecord]


@dataclass(frozen=True)
class Found:
    """Each line's fewest edits over the references, the reference they are counted against, the words edited
    there (:class:`Searched`), and with ``record`` how they were found."""

    edits: np.ndarray
    reference: np.ndarray
    edited: list[np.ndarray]
    records: list[SearchRecord]


def search_pairs(hyps: Sequence[np.ndarray], refs: Sequence[np.ndarray], progress: Progress | None = None,
                 bounds: np.ndarray | None = None, record: bool = False) -> Searched:
    """sacreBLEU's number of edits (shifts + insertions + deletions + substitutions) of each hypothesis
    against its reference, both as arrays of word ids, and the words edited (see :class:`Searched`); an empty
    reference counts every hypothesis word, an empty hypothesis every reference word (as
    ``translation_edit_rate``), and such a pair has no shifts: its alignment is every word inserted or deleted.
    ``progress`` is called between blocks; ``bounds``: the pairs' :func:`fewest_edits_possible` when the caller
    has them already. Pairs of like lengths are searched together.

    One thread: the arrays of a block are small, so the interpreter's share of the work is large and a second
    thread waits for the lock as long as it works (measured: 1.85 s on two threads, 1.73 s on one)."""
    count = len(hyps)
    out = np.zeros(count, np.int64)
    n = np.array([len(h) for h in hyps], np.int64)
    m = np.array([len(r) for r in refs], np.int64)
    edited = [np.arange(int(n[k])) if m[k] == 0 else np.zeros(0, np.int64) for k in range(count)]
    records: list[SearchRecord | None] = [None] * count
    out[m == 0] = n[m == 0]
    out[(n == 0) & (m > 0)] = m[(n == 0) & (m > 0)]
    if record:
        for k in np.flatnonzero((n == 0) | (m == 0)).tolist():
            alignment = [(DEL, h, -1) for h in range(int(n[k]))] + [(INS, -1, r) for r in range(int(m[k]))]
            records[k] = SearchRecord(int(out[k]), [], hyps[k].tolist(), alignment)
    todo = np.flatnonzero((n > 0) & (m > 0))
    # Pairs of like lengths searched together: less padding, and the longest rounds in few blocks.
    todo = todo[np.lexsort((n[todo], m[todo]))]
    bounds = fewest_edits_possible(hyps, refs) if bounds is None else bounds
    done = 0
    for block in _blocks(todo, n, m):
        if progress is not None:
            progress(done / max(len(todo), 1))
        counts, words, found = _search_block([hyps[k] for k in block], [refs[k] for k in block], bounds[block],
                                             record)
        out[block] = counts
        for j, k in enumerate(block.tolist()):
            edited[k] = words[j]
            if record:
                records[k] = found[j]
        done += len(block)
    if progress is not None:
        progress(1.0)
    return Searched(out, edited, [r for r in records if r is not None])


def fewest_edits_possible(hyps: Sequence[np.ndarray], refs: Sequence[np.ndarray]) -> np.ndarray:
    """A lower bound of each pair's edits (:func:`search_pairs`): the words one side has more of than the other (counted
    with repeats), the larger side. Shifts move words without changing them, each insertion, deletion or
    substitution leaves at most one word of each side without its match, and the beam only makes the distance
    larger, so sacreBLEU's count is never lower."""
    n = np.array([len(h) for h in hyps], np.int64)
    m = np.array([len(r) for r in refs], np.int64)
    if not n.sum() + m.sum():
        return np.zeros(len(hyps), np.int64)
    words = np.concatenate([*hyps, *refs]).astype(np.int64)
    width = int(words.max()) + 1
    pairs = np.concatenate([np.repeat(np.arange(len(hyps)), n), np.repeat(np.arange(len(refs)), m)])
    keys, where = np.unique(pairs * width + words, return_inverse=True)
    # Per (pair, word): the hypothesis' count minus the reference's.
    surplus = np.bincount(where, weights=np.concatenate([np.ones(int(n.sum())), -np.ones(int(m.sum()))]))
    owner = keys // width
    hyp_more = np.bincount(owner, weights=np.maximum(surplus, 0), minlength=len(hyps))
    ref_more = np.bincount(owner, weights=np.maximum(-surplus, 0), minlength=len(hyps))
    return np.maximum(hyp_more, ref_more).astype(np.int64)
