"""Triage: which segments of a system need a human, and what work — by a metric's segment scores (in a run
without references a QE metric's: CometKiwi, xCOMET, MetricX-QE, any read column) and by the QA checks' flags.

Each segment gets one of three decisions, as a CAT tool's states say them:

- **translate**: the target is empty (nothing to post-edit: a translator's work, whatever the score says);
- **post-edit**: the metric's rule picks it — the worst share of the scored segments (``20%``) or a threshold
  (``0.6``: below it where higher is better) — or the metric gave it no score (nothing vouches for it), or a QA
  check flags it (the flags are its reasons);
- **keep**: the rest.

The rule ``qa`` takes no metric: QA flags and empty targets alone decide (a run of source and MT that nothing scores
yet). Each segment carries the metric's spans where it marks them (xCOMET) and its reasons, so the post-editor
sees why.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

import numpy as np

from ..analysis.qa import QAFlag
from ..errors import InputError, term
from ..inputs.calibration import Calibrated
from ..metrics.base import Metric
from .results import Run

_SHARE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")
_CALIBRATED = re.compile(r"^\s*(?:(?P<metric>[^<>=\s]+)\s*>=\s*)?calibrated\s*:\s*(?P<precision>\S+)\s*$", re.I)


@dataclass(frozen=True)
class TriageRule:
    """The worst ``share`` of the scored segments (0 < share ≤ 1), or those past ``threshold``; neither: the QA
    flags and empty targets alone (``qa``). ``calibrated``: the precision whose threshold a calibration file gives
    (``calibrated:0.95``, or ``kiwi>=calibrated:0.95`` naming the metric); :meth:`with_calibration` sets it."""

    share: float | None = None
    threshold: float | None = None
    calibrated: float | None = None
    metric: str | None = None  # named by the rule (``kiwi>=calibrated:0.95``)
    calibration: Calibrated | None = None

    @property
    def qa_only(self) -> bool:
        return self.share is None and self.threshold is None and self.calibrated is None

    def with_calibration(self, found: Calibrated) -> TriageRule:
        """The rule with the calibrated threshold in force."""
        return replace(self, threshold=found.threshold, calibration=found)

    @classmethod
    def parse(cls, text: str) -> TriageRule:
        """``20%`` (a share), a number (a threshold) or ``qa``; :class:`InputError` says what is wrong."""
        if text.strip().lower() == "qa":
            return cls()
        calibrated = _CALIBRATED.match(text)
        if calibrated:
            try:
                precision = float(calibrated.group("precision"))
            except ValueError:
                precision = math.nan
            if not 0 < precision <= 1:
                raise InputError(f"{term('triage', text)}: calibrated:P takes the precision asked, more than 0 and "
                                 "at most 1 (calibrated:0.95)")
            return cls(calibrated=precision, metric=calibrated.group("metric"))
        found = _SHARE.match(text)
        if found:
            share = float(found.group(1)) / 100
            if not 0 < share <= 1:
                raise InputError(f"{term('triage', text)}: a share is more than 0% and at most 100%")
            return cls(share=share)
        try:
            value = float(text)
        except ValueError:
            raise InputError(f"{term('triage', text)}: give a share of the segments (20%), a score threshold "
                             "(0.6), or qa (the QA flags and empty targets alone)") from None
        if not math.isfinite(value):
            raise InputError(f"{term('triage', text)}: the threshold must be a finite number")
        return cls(threshold=value)

    def words(self, higher_is_better: bool) -> str:
        """The rule in words: ``the worst 20% of the scored segments`` or ``score below 0.6``."""
        if self.qa_only:
            return "the QA checks' flags and empty targets"
        if self.calibration is not None:
            return self.calibration.words(higher_is_better)
        if self.share is not None:
            return f"the worst {self.share * 100:g}% of the scored segments"
        return f"score {'below' if higher_is_better else 'above'} {self.threshold:g}"


TRANSLATE, POST_EDIT, KEEP = "translate", "post-edit", "keep"


@dataclass(frozen=True)
class TriageRow:
    """One segment: its index, its score (NaN: none), its decision (see the module) and why, the metric's spans on
    the candidate (code-point ``(start, end)``) and the QA flags (``check: detail``)."""

    segment: int
    score: float
    decision: str
    spans: tuple[tuple[int, int], ...]
    qa: tuple[str, ...]
    reason: str = ""

    @property
    def post_edit(self) -> bool:
        """Whether a human works on it (to translate it or to post-edit it)."""
        return self.decision != KEEP


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
    assert rule.threshold is not None, "a calibrated rule is given its threshold first (with_calibration)"
    limit = rule.threshold if higher_is_better else -rule.threshold
    return missing | (oriented < limit)


def triage(run: Run, system: int, metric: int, rule: TriageRule, qa: list[QAFlag] | None = None) -> Triage:
    """System ``system`` of ``run`` triaged by its ``metric``-th metric's segment scores under ``rule`` and by the
    QA ``qa`` flags of the system (see the module), with that metric's spans on each candidate."""
    chosen: Metric = run.metrics[metric]
    scored = run.systems[system]
    scores = np.asarray(scored.results[metric].sentences, np.float64)
    mask = np.zeros(len(scores), bool) if rule.qa_only else post_edit_mask(scores, rule, chosen.higher_is_better)
    lines = scored.lines
    flagged = chosen.of_system(scored.file, run.context.source).flagged(range(len(lines)), lines) or [[]] * len(lines)
    by_segment: dict[int, list[str]] = {}
    for flag in qa or []:
        if flag.check != "empty":
            by_segment.setdefault(flag.segment, []).append(f"{flag.check}: {flag.detail}")
    words = rule.words(chosen.higher_is_better)
    rows = []
    for i, line in enumerate(lines):
        reasons = tuple(by_segment.get(i, ()))
        if not line.strip():
            decision, why = TRANSLATE, "the target is empty"
        elif mask[i]:
            decision, why = POST_EDIT, "no score" if math.isnan(scores[i]) else words
        elif reasons:
            decision, why = POST_EDIT, f"QA: {reasons[0]}" + (f" (and {len(reasons) - 1} more)" if len(reasons) > 1
                                                              else "")
        else:
            decision, why = KEEP, ""
        rows.append(TriageRow(i, float(scores[i]), decision, tuple(flagged[i]), reasons, why))
    name = "QA" if rule.qa_only else chosen.name
    signature = "qa" if rule.qa_only else chosen.signature(True)
    if rule.calibration is not None:
        signature += f"|{rule.calibration.signature()}|precision:{rule.calibrated:g}"
    return Triage(scored.name, name, signature, words, chosen.higher_is_better, tuple(rows))
