"""How well one segment's predicted error spans match the gold ones, in each definition the field uses — the
numbers behind :mod:`.span_agreement`.

Every measure reduces a segment to four sums — precision's numerator and denominator, recall's numerator and
denominator — that add over a corpus (micro-averaging) or give the segment's own precision, recall and F1
(macro-averaging). An empty denominator gives 1.0 (nothing predicted: nothing predicted wrongly), as every
reference implementation does; F1 is 0 when precision and recall both are.

One-to-one measures (Perrella, Morales Agostinho and Zaragoza 2026, "Span-Level Machine Translation
Meta-Evaluation", arXiv 2603.19921; their sted19/span-mt-metrics-eval, ``matching="one_to_one"``,
``matching_algorithm="optimal"``) pair each predicted span with at most one gold span, choosing the pairing that
scores best:

- ``exact`` (their EM): a pair counts when side, start and end are equal;
- ``overlap`` (MP): a pair counts when it shares a character;
- ``partial`` (MPP, the one the paper recommends): a pair earns overlap / predicted length towards precision and
  overlap / gold length towards recall, precision over the predicted spans, recall over the gold spans; the pairing
  maximises the segment's F1 (then precision + recall, precision, recall, the number of pairs);
- ``partial-severity``: ``partial`` with a severity mismatch earning half (their ``severity_penalty=0.5``).

Character-count measures, each as its own scorer counts:

- ``wmt25``: WMT25's official span scorer (wmt-conference/wmt25-mteval, ``scripts/scoring/task2/scoring_esa.py``):
  per character of the translation, the number of Major (Critical counted as Major) and of Minor spans over it, on
  each side; full credit for the counts that agree by severity, half for the rest that the other side covers with
  the other severity;
- ``towereval``: TowerEval's ``error_span_detection`` (deep-spin/tower-eval): per character whether a Major or a
  Minor span covers it; a covered gold character the prediction covers with the same severity earns 1, with the
  other 0.5, and 1 with any severity where the gold holds both.

What a span is: the side (``target`` or ``source``) and code-point offsets, end exclusive. An omission with no span
(WMT24's ``missing``, Pearmut's ``[missing]`` token) is a one-character span just after the translation — where
Pearmut's token stands and where TowerEval's character array keeps a cell — so two omissions match; WMT25's scorer
leaves omissions out, as its own code does. The character-count measures read the translation only (their scorers
know no source side). A Neutral span (MQM's no-error note, an ESA span left undecided) is no error in any measure
(WMT25's scorer skips undecided ones).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

TARGET, SOURCE = "target", "source"
MEASURES = ("exact", "overlap", "partial", "partial-severity", "wmt25", "towereval")
SEVERITY_PENALTY = 0.5  # partial-severity's, WMT25's and TowerEval's credit lost by a severity mismatch
TOLERANCE = 1e-12  # equal objectives, as the reference implementation compares them


@dataclass(frozen=True)
class Mark:
    """One error span to evaluate: ``side``, ``start``..``end`` (code points, end exclusive, ``end > start``), the
    severity in lower case (``critical``, ``major``, ``minor``) and whether it stands for an omission."""

    start: int
    end: int
    severity: str
    side: str = TARGET
    omission: bool = False

    @property
    def length(self) -> int:
        return self.end - self.start


Components = tuple[float, float, float, float]  # precision num., precision den., recall num., recall den.


def precision_recall_f1(c: Components) -> tuple[float, float, float]:
    """Precision, recall and F1 of summed components (1.0 for an empty denominator)."""
    p = c[0] / c[1] if c[1] > 0 else 1.0
    r = c[2] / c[3] if c[3] > 0 else 1.0
    return p, r, (2 * p * r / (p + r) if p + r > 0 else 0.0)


def all_components(predicted: Sequence[Mark], gold: Sequence[Mark], length: int) -> list[float]:
    """Every measure's components of one segment, in :data:`MEASURES` order (four each); the overlaps of every two
    spans found once for all of them."""
    n_pred, n_gold = float(len(predicted)), float(len(gold))
    if not predicted or not gold:
        # Nothing to pair: the one-to-one measures earn nothing; the character counts count one side.
        empty = [0.0, n_pred, 0.0, n_gold] * 4
        return empty + _characters(predicted, gold, length)
    overlaps = [[_overlap(p, g) for g in gold] for p in predicted]
    exact = max_matching([[k for k, g in enumerate(gold) if (p.side, p.start, p.end) == (g.side, g.start, g.end)]
                          for p in predicted])
    overlap = max_matching([[k for k, shared in enumerate(row) if shared] for row in overlaps])
    out = [exact, n_pred, exact, n_gold, overlap, n_pred, overlap, n_gold]
    out += _partial(predicted, gold, 0.0, overlaps)
    out += _partial(predicted, gold, SEVERITY_PENALTY, overlaps)
    return out + _characters(predicted, gold, length)


def components(measure: str, predicted: Sequence[Mark], gold: Sequence[Mark], length: int) -> Components:
    """One segment's components under ``measure`` (one of :data:`MEASURES`); ``length``: the translation's length
    in code points (the character-count measures cut spans to it)."""
    if measure not in MEASURES:
        raise ValueError(f"unknown span measure {measure!r}")
    k = MEASURES.index(measure)
    found = all_components(predicted, gold, length)[4 * k:4 * k + 4]
    return found[0], found[1], found[2], found[3]


def _overlap(a: Mark, b: Mark) -> int:
    return max(0, min(a.end, b.end) - max(a.start, b.start)) if a.side == b.side else 0


def _reward(a: Mark, b: Mark, penalty: float) -> float:
    return 1.0 if penalty == 0.0 or a.severity == b.severity else 1.0 - penalty


def max_matching(candidates: Sequence[Sequence[int]]) -> float:
    """The most pairs of a one-to-one pairing of rows with the columns each row may take (``candidates[row]``): the
    largest sum of 0/1 weights, as ``scipy.optimize.linear_sum_assignment(maximize=True)`` finds it for the exact
    and overlap measures (Kuhn's augmenting paths; a row with one free column, the usual case, takes it at once)."""
    owner: dict[int, int] = {}

    def place(row: int, seen: set[int]) -> bool:
        for col in candidates[row]:
            if col in seen:
                continue
            seen.add(col)
            if col not in owner or place(owner[col], seen):
                owner[col] = row
                return True
        return False

    return float(sum(place(row, set()) for row in range(len(candidates)) if candidates[row]))


def _partial(predicted: Sequence[Mark], gold: Sequence[Mark], penalty: float,
             overlaps: Sequence[Sequence[int]]) -> list[float]:
    """MPP: the pairing that maximises the segment's F1, found exactly by a bounded search over the pairs that
    earn credit (a segment holds few spans)."""
    candidates = [[(k, shared / p.length * reward, shared / g.length * reward)
                   for k, (g, shared) in enumerate(zip(gold, row))
                   if shared and (reward := _reward(p, g, penalty)) > 0.0]
                  for p, row in zip(predicted, overlaps)]
    n_pred, n_gold = float(len(predicted)), float(len(gold))
    taken = [c[0][0] for c in candidates if c]
    if all(len(c) <= 1 for c in candidates) and len(taken) == len(set(taken)):
        # No two pairs compete for a span: every pair is taken (credits are positive, the denominators fixed).
        return [sum(c[0][1] for c in candidates if c), n_pred, sum(c[0][2] for c in candidates if c), n_gold]
    search = _PairingSearch(candidates, n_pred, n_gold)
    search.run(0, 0, 0.0, 0.0, 0)
    return [search.best_p, n_pred, search.best_r, n_gold]


class _PairingSearch:
    """Every one-to-one pairing of predicted with gold spans, keeping the best by (F1, precision + recall,
    precision, recall, pairs) — the reference implementation's order — and pruning a branch whose most optimistic
    completion cannot reach the best F1 found."""

    def __init__(self, candidates: list[list[tuple[int, float, float]]], n_pred: float, n_gold: float) -> None:
        self.candidates, self.n_pred, self.n_gold = candidates, n_pred, n_gold
        # The most each remaining prediction could still add.
        self.bound_p, self.bound_r = [0.0] * (len(candidates) + 1), [0.0] * (len(candidates) + 1)
        for i in range(len(candidates) - 1, -1, -1):
            self.bound_p[i] = self.bound_p[i + 1] + max((c[1] for c in candidates[i]), default=0.0)
            self.bound_r[i] = self.bound_r[i + 1] + max((c[2] for c in candidates[i]), default=0.0)
        self.best_key, self.best_p, self.best_r = self.key(0.0, 0.0, 0), 0.0, 0.0

    def key(self, p_sum: float, r_sum: float, pairs: int) -> tuple[float, float, float, float, float]:
        precision = p_sum / self.n_pred if self.n_pred else 1.0
        recall = r_sum / self.n_gold if self.n_gold else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
        return f1, precision + recall, precision, recall, float(pairs)

    def run(self, i: int, used: int, p_sum: float, r_sum: float, pairs: int) -> None:
        if self.key(p_sum + self.bound_p[i], r_sum + self.bound_r[i], 0)[0] < self.best_key[0] - TOLERANCE:
            return
        if i == len(self.candidates):
            found = self.key(p_sum, r_sum, pairs)
            if _better(found, self.best_key):
                self.best_key, self.best_p, self.best_r = found, p_sum, r_sum
            return
        for k, p_credit, r_credit in self.candidates[i]:
            if not used >> k & 1:
                self.run(i + 1, used | 1 << k, p_sum + p_credit, r_sum + r_credit, pairs + 1)
        self.run(i + 1, used, p_sum, r_sum, pairs)


def _better(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    for x, y in zip(a, b):
        if x > y + TOLERANCE:
            return True
        if x < y - TOLERANCE:
            return False
    return False


_CLASS = {"critical": 0, "major": 0, "minor": 1}  # the character measures know two severities


def _characters(predicted: Sequence[Mark], gold: Sequence[Mark], length: int) -> list[float]:
    """WMT25's and TowerEval's components in one sweep over the translation's characters (and TowerEval's cell past
    its end, where an omission is marked): at each place a span starts or ends, the counts of gold Major, gold
    Minor, predicted Major and predicted Minor spans over the run of characters that follows."""
    events: dict[int, list[int]] = {}
    for offset, marks in ((0, gold), (2, predicted)):
        for m in marks:
            k = _CLASS.get(m.severity)
            if k is None or m.side != TARGET:
                continue
            start, end = (length, length + 1) if m.omission else (min(m.start, length), min(m.end, length))
            if end > start:
                events.setdefault(start, [0, 0, 0, 0])[offset + k] += 1
                events.setdefault(end, [0, 0, 0, 0])[offset + k] -= 1
    wmt_tp = wmt_pred = wmt_gold = tower_tp = tower_pred = tower_gold = 0.0
    g_major = g_minor = p_major = p_minor = 0
    places = sorted(events)
    for here, there in zip(places, places[1:]):
        d = events[here]
        g_major, g_minor, p_major, p_minor = g_major + d[0], g_minor + d[1], p_major + d[2], p_minor + d[3]
        width = there - here
        if here < length:  # WMT25 reads the text only: its omissions are left out
            wmt_gold += width * (g_major + g_minor)
            wmt_pred += width * (p_major + p_minor)
            agree = min(g_major, p_major) + min(g_minor, p_minor)
            gold_left = max(0, g_major - p_major) + max(0, g_minor - p_minor)
            pred_left = max(0, p_major - g_major) + max(0, p_minor - g_minor)
            wmt_tp += width * (agree + SEVERITY_PENALTY * min(gold_left, pred_left))
        tower_gold += width * bool(g_major or g_minor)
        tower_pred += width * bool(p_major or p_minor)
        if g_major and g_minor:
            tower_tp += width * bool(p_major or p_minor)
        elif g_major:
            tower_tp += width * (1.0 if p_major else SEVERITY_PENALTY if p_minor else 0.0)
        elif g_minor:
            tower_tp += width * (1.0 if p_minor else SEVERITY_PENALTY if p_major else 0.0)
    return [wmt_tp, wmt_pred, wmt_tp, wmt_gold, tower_tp, tower_pred, tower_tp, tower_gold]
