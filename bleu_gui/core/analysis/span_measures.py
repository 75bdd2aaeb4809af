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


def components(measure: str, predicted: Sequence[Mark], gold: Sequence[Mark], length: int) -> Components:
    """One segment's components under ``measure`` (one of :data:`MEASURES`); ``length``: the translation's length
    in code points (the character-count measures cut spans to it)."""
    if measure == "wmt25":
        return _wmt25(predicted, gold, length)
    if measure == "towereval":
        return _towereval(predicted, gold, length)
    penalty = SEVERITY_PENALTY if measure == "partial-severity" else 0.0
    if measure in ("partial", "partial-severity"):
        return _partial(predicted, gold, penalty)
    if measure not in ("exact", "overlap"):
        raise ValueError(f"unknown span measure {measure!r}")
    if not predicted or not gold:
        return 0.0, float(len(predicted)), 0.0, float(len(gold))
    weights = [[_pair_weight(measure, p, g) for g in gold] for p in predicted]
    credit = max_weight_matching(weights)
    return credit, float(len(predicted)), credit, float(len(gold))


def _overlap(a: Mark, b: Mark) -> int:
    return max(0, min(a.end, b.end) - max(a.start, b.start)) if a.side == b.side else 0


def _reward(a: Mark, b: Mark, penalty: float) -> float:
    return 1.0 if penalty == 0.0 or a.severity == b.severity else 1.0 - penalty


def _pair_weight(measure: str, p: Mark, g: Mark) -> float:
    if measure == "exact":
        return 1.0 if (p.side, p.start, p.end) == (g.side, g.start, g.end) else 0.0
    return 1.0 if _overlap(p, g) > 0 else 0.0


def max_weight_matching(weights: Sequence[Sequence[float]]) -> float:
    """The largest sum of weights of a one-to-one pairing of rows with columns (the Hungarian method, as
    ``scipy.optimize.linear_sum_assignment(maximize=True)`` finds it); weights are non-negative."""
    n_rows, n_cols = len(weights), len(weights[0]) if weights else 0
    if not n_rows or not n_cols:
        return 0.0
    transpose = n_rows > n_cols  # the method below wants rows <= columns
    rows, cols = (n_cols, n_rows) if transpose else (n_rows, n_cols)
    top = max(max(r) for r in weights)
    cost = [[top - (weights[j][i] if transpose else weights[i][j]) for j in range(cols)] for i in range(rows)]
    # Shortest augmenting paths with potentials (Jonker-Volgenant style), 1-based with a virtual column 0.
    u, v = [0.0] * (rows + 1), [0.0] * (cols + 1)
    owner, way = [0] * (cols + 1), [0] * (cols + 1)
    for i in range(1, rows + 1):
        owner[0], j0 = i, 0
        least, used = [float("inf")] * (cols + 1), [False] * (cols + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = owner[j0], float("inf"), 0
            for j in range(1, cols + 1):
                if not used[j]:
                    here = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if here < least[j]:
                        least[j], way[j] = here, j0
                    if least[j] < delta:
                        delta, j1 = least[j], j
            for j in range(cols + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    total = 0.0
    for j in range(1, cols + 1):
        if owner[j]:
            i = owner[j] - 1
            total += weights[j - 1][i] if transpose else weights[i][j - 1]
    return total


def _partial(predicted: Sequence[Mark], gold: Sequence[Mark], penalty: float) -> Components:
    """MPP: the pairing that maximises the segment's F1, found exactly by a bounded search over the pairs that
    earn credit (a segment holds few spans)."""
    candidates = [[(k, shared / p.length * reward, shared / g.length * reward)
                   for k, g in enumerate(gold)
                   if (shared := _overlap(p, g)) and (reward := _reward(p, g, penalty)) > 0.0]
                  for p in predicted]
    if not any(candidates):
        return 0.0, float(len(predicted)), 0.0, float(len(gold))
    search = _PairingSearch(candidates, float(len(predicted)), float(len(gold)))
    search.run(0, 0, 0.0, 0.0, 0)
    return search.best_p, float(len(predicted)), search.best_r, float(len(gold))


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


def _boundaries(marks: Sequence[Mark], length: int) -> list[int]:
    cuts = {0, length}
    for m in marks:
        cuts.update((min(m.start, length), min(m.end, length)))
    return sorted(cuts)


def _cover(marks: Sequence[Mark], lo: int, hi: int) -> tuple[int, int]:
    """How many Major (Critical included) and Minor spans cover the characters lo..hi (one run of equal cover)."""
    major = minor = 0
    for m in marks:
        if m.start <= lo and hi <= m.end:
            if m.severity in ("major", "critical"):
                major += 1
            elif m.severity == "minor":
                minor += 1
    return major, minor


def _target(marks: Sequence[Mark], omissions: bool) -> list[Mark]:
    return [m for m in marks if m.side == TARGET and (omissions or not m.omission)]


def _wmt25(predicted: Sequence[Mark], gold: Sequence[Mark], length: int) -> Components:
    pred, ref = _target(predicted, False), _target(gold, False)
    tp = total_pred = total_gold = 0.0
    cuts = _boundaries([*pred, *ref], length)
    for lo, hi in zip(cuts, cuts[1:]):  # runs of characters under the same spans: one computation per run
        width = hi - lo
        g_major, g_minor = _cover(ref, lo, hi)
        p_major, p_minor = _cover(pred, lo, hi)
        total_gold += width * (g_major + g_minor)
        total_pred += width * (p_major + p_minor)
        agree = min(g_major, p_major) + min(g_minor, p_minor)
        gold_left = max(0, g_major - p_major) + max(0, g_minor - p_minor)
        pred_left = max(0, p_major - g_major) + max(0, p_minor - g_minor)
        tp += width * (agree + SEVERITY_PENALTY * min(gold_left, pred_left))
    return tp, total_pred, tp, total_gold


def _towereval(predicted: Sequence[Mark], gold: Sequence[Mark], length: int) -> Components:
    # Its character array holds one cell past the text, where an omission (a span at the end) is marked.
    pred, ref = _target(predicted, True), _target(gold, True)
    tp = total_pred = total_gold = 0.0
    cuts = _boundaries([*pred, *ref], length + 1)
    for lo, hi in zip(cuts, cuts[1:]):
        width = hi - lo
        g_major, g_minor = _cover(ref, lo, hi)
        p_major, p_minor = _cover(pred, lo, hi)
        total_gold += width * bool(g_major or g_minor)
        total_pred += width * bool(p_major or p_minor)
        if g_major and g_minor:
            tp += width * bool(p_major or p_minor)
        elif g_major:
            tp += width * (1.0 if p_major else SEVERITY_PENALTY if p_minor else 0.0)
        elif g_minor:
            tp += width * (1.0 if p_minor else SEVERITY_PENALTY if p_major else 0.0)
    return tp, total_pred, tp, total_gold
