"""Triage: which segments of a system need a human (post-editing), by a metric's segment scores — in a run
without references a QE metric's (CometKiwi, xCOMET, MetricX-QE, any read column).

A rule is the worst share of the scored segments (``20%``) or a threshold on the score (``0.6``: below it for a
metric whose higher is better, above it for one whose lower is better). A segment the metric gave no score needs a
human too (nothing vouches for it). Each segment carries the metric's spans where it marks them (xCOMET) and the
QA checks' flags, so the post-editor sees why.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from ..analysis.qa import QAFlag
from ..errors import InputError, term
from ..metrics.base import Metric
from .results import Run

_SHARE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")


@dataclass(frozen=True)
class TriageRule:
    """The worst ``share`` of the scored segments (0 < share ≤ 1), or those past ``threshold``."""

    share: float | None = None
    threshold: float | None = None

    @classmethod
    def parse(cls, text: str) -> TriageRule:
        """``20%`` (a share) or a number (a threshold); :class:`InputError` says what is wrong."""
        found = _SHARE.match(text)
        if found:
            share = float(found.group(1)) / 100
            if not 0 < share <= 1:
                raise InputError(f"{term('triage', text)}: a share is more than 0% and at most 100%")
            return cls(share=share)
        try:
            value = float(text)
        except ValueError:
            raise InputError(f"{term('triage', text)}: give a share of the segments (20%) or a score threshold "
                             "(0.6)") from None
        if not math.isfinite(value):
            raise InputError(f"{term('triage', text)}: the threshold must be a finite number")
        return cls(threshold=value)

    def words(self, higher_is_better: bool) -> str:
        """The rule in words: ``the worst 20% of the scored segments`` or ``score below 0.6``."""
        if self.share is not None:
            return f"the worst {self.share * 100:g}% of the scored segments"
        return f"score {'below' if higher_is_better else 'above'} {self.threshold:g}"


@dataclass(frozen=True)
class TriageRow:
    """One segment: its index, its score (NaN: none), whether it needs a human, the metric's spans on the candidate
    (code-point ``(start, end)``) and the QA flags (``check: detail``)."""

    segment: int
    score: float
    post_edit: bool
    spans: tuple[tuple[int, int], ...]
    qa: tuple[str, ...]

    @property
    def decision(self) -> str:
        """``post-edit`` or ``keep`` (``post-edit`` for a segment without a score)."""
        return "post-edit" if self.post_edit else "keep"


@dataclass(frozen=True)
class Triage:
    """A system's segments triaged by a metric under a rule: every segment in order (:attr:`rows`), and what made
    the decision (the metric's name and signature, the rule in words)."""

    system: str
    metric: str
    signature: str
    rule: str
    higher_is_better: bool
    rows: tuple[TriageRow, ...]

    def worst_first(self) -> list[TriageRow]:
        """The segments that need a human, the worst first (no score first of all), then by position."""
        def badness(row: TriageRow) -> tuple[bool, float, int]:
            missing = math.isnan(row.score)
            worse = 0.0 if missing else (row.score if self.higher_is_better else -row.score)
            return not missing, worse, row.segment
        return sorted((r for r in self.rows if r.post_edit), key=badness)

    @property
    def counts(self) -> tuple[int, int]:
        """(segments to post-edit, all segments)."""
        return sum(r.post_edit for r in self.rows), len(self.rows)


def post_edit_mask(scores: np.ndarray, rule: TriageRule, higher_is_better: bool) -> np.ndarray:
    """Which segments need a human under ``rule``: a segment without a score always; of the scored ones, the worst
    ``ceil(share × scored)`` (ties at the boundary: the earlier segment first, so the count is exact) or those past
    the threshold."""
    missing = np.isnan(scores)
    oriented = np.where(missing, np.inf, scores if higher_is_better else -scores)  # low = bad
    if rule.share is not None:
        scored = int((~missing).sum())
        take = math.ceil(rule.share * scored - 1e-9)
        chosen = np.zeros(len(scores), bool)
        chosen[np.argsort(oriented, kind="stable")[:take]] = True
        return chosen | missing
    assert rule.threshold is not None
    limit = rule.threshold if higher_is_better else -rule.threshold
    return missing | (oriented < limit)


def triage(run: Run, system: int, metric: int, rule: TriageRule, qa: list[QAFlag] | None = None) -> Triage:
    """System ``system`` of ``run`` triaged by its ``metric``-th metric's segment scores under ``rule``, with that
    metric's spans on each candidate and the QA ``qa`` flags of the system."""
    chosen: Metric = run.metrics[metric]
    scored = run.systems[system]
    scores = np.asarray(scored.results[metric].sentences, np.float64)
    mask = post_edit_mask(scores, rule, chosen.higher_is_better)
    lines = scored.lines
    flagged = chosen.of_system(scored.file, run.context.source).flagged(range(len(lines)), lines) or [[]] * len(lines)
    by_segment: dict[int, list[str]] = {}
    for flag in qa or []:
        by_segment.setdefault(flag.segment, []).append(f"{flag.check}: {flag.detail}")
    rows = tuple(TriageRow(i, float(scores[i]), bool(mask[i]), tuple(flagged[i]), tuple(by_segment.get(i, ())))
                 for i in range(len(lines)))
    return Triage(scored.name, chosen.name, chosen.signature(True), rule.words(chosen.higher_is_better),
                  chosen.higher_is_better, rows)
