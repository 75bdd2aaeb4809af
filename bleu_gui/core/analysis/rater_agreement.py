"""How far the raters of MQM annotations agree, so an analyst can judge the annotations before trusting them.

Only segments rated by two raters or more say anything. For every pair of raters of such a segment: do both say
there is an error (Critical, Major or Minor) or both that there is none — *presence* — and is the worst severity
each marked the same (none counts as a severity) — *severity*. Overall: the share of agreeing pairs, and Scott's π
of presence over all pairs — its chance agreement from how often raters say "error" at all, pooled over every
rater, since the pairs are not one fixed two raters — which discounts the agreement raters who mark nearly
everything would reach by chance. For each two raters who rated the same segments: Cohen's κ of presence over
those segments, its chance agreement from each rater's own rate of saying "error" (Cohen 1960; scikit-learn's
``cohen_kappa_score``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from ..inputs.ratings import Ratings
from ..inputs.text_files import SegmentFile
from .error_recall import SEVERITIES

_RANK = {"Critical": 3, "Major": 2, "Minor": 1}


def worst_severity(ratings: Ratings, rater: str) -> str:
    """The worst severity ``rater`` marked in a segment ("no error" when none)."""
    marked = [e.severity for e in ratings.errors if e.rater == rater and e.severity in SEVERITIES]
    return max(marked, key=_RANK.__getitem__) if marked else "no error"


@dataclass(frozen=True)
class SegmentAgreement:
    """One segment of one system with several raters: each rater's worst severity and whether they all agree."""

    system: str
    segment: int  # 0-based
    worst: tuple[tuple[str, str], ...]  # (rater, worst severity)

    @property
    def presence_agrees(self) -> bool:
        return len({w != "no error" for _, w in self.worst}) == 1

    @property
    def severity_agrees(self) -> bool:
        return len({w for _, w in self.worst}) == 1

    def to_dict(self) -> dict[str, object]:
        return {"system": self.system, "segment": self.segment + 1, "worst": dict(self.worst),
                "presence_agrees": self.presence_agrees, "severity_agrees": self.severity_agrees}


@dataclass(frozen=True)
class PairKappa:
    """Cohen's κ of presence for two raters over the segments both rated (None where chance agreement is 1: both
    always said the same one thing)."""

    raters: tuple[str, str]
    segments: int
    kappa: float | None

    def to_dict(self) -> dict[str, object]:
        return {"raters": list(self.raters), "segments": self.segments, "kappa": self.kappa}


@dataclass(frozen=True)
class RaterAgreement:
    """Agreement over every segment with several raters (see the module)."""

    segments: list[SegmentAgreement]
    rated_segments: int  # segments with any rating
    pairs: int
    presence_pairs: int  # pairs agreeing on presence
    severity_pairs: int
    scott_pi: float | None  # of presence, pooled over every pair (None: no pair, or chance agreement 1)
    cohen: tuple[PairKappa, ...] = ()  # each two raters who rated the same segments, most segments first

    @property
    def presence(self) -> float | None:
        return self.presence_pairs / self.pairs if self.pairs else None

    @property
    def severity(self) -> float | None:
        return self.severity_pairs / self.pairs if self.pairs else None

    def to_dict(self) -> dict[str, object]:
        return {"rated_segments": self.rated_segments, "several_raters": len(self.segments), "pairs": self.pairs,
                "presence": self.presence, "severity": self.severity, "scott_pi": self.scott_pi,
                "cohen_kappa": [p.to_dict() for p in self.cohen], "segments": [s.to_dict() for s in self.segments]}

    def summary(self) -> str:
        """One line for the screen."""
        if not self.pairs:
            return (f"rater agreement: no segment has two raters ({self.rated_segments:,} rated segments, one rater "
                    "each) — nothing to compare")
        pi = f", Scott's π {self.scott_pi:.2f}" if self.scott_pi is not None else ""
        shown = [f"{a}–{b} {p.kappa:.2f} ({p.segments:,})" for p in self.cohen[:3] if p.kappa is not None
                 for a, b in [p.raters]]
        kappas = f"; Cohen's κ {', '.join(shown)}{' …' if len(self.cohen) > 3 else ''}" if shown else ""
        return (f"rater agreement over {len(self.segments):,} segments with several raters ({self.pairs:,} pairs): "
                f"error or not {self.presence:.0%}{pi}; worst severity {self.severity:.0%}{kappas}")


def rater_agreement(systems: Sequence[SegmentFile], rows: Sequence[int] | None = None,
                    names: Sequence[str] | None = None) -> RaterAgreement:
    """Agreement of the raters of every system's annotated segments ``rows`` (all); ``names``: the systems' names
    as shown (their files' by default)."""
    found: list[SegmentAgreement] = []
    rated = pairs = presence = severity = said_error = said_total = 0
    by_raters: dict[tuple[str, str], list[tuple[bool, bool]]] = {}  # each two raters' (error?, error?) per segment
    for name, system in zip(names if names is not None else [s.name for s in systems], systems):
        annotations = system.annotations or ()
        for i in rows if rows is not None else range(len(annotations)):
            ratings = annotations[i] if i < len(annotations) else None
            if ratings is None:
                continue
            rated += 1
            if len(ratings.raters) < 2:
                continue
            worst = tuple((rater, worst_severity(ratings, rater)) for rater in ratings.raters)
            found.append(SegmentAgreement(name, i, worst))
            for (rater_a, a), (rater_b, b) in combinations(sorted(worst), 2):
                by_raters.setdefault((rater_a, rater_b), []).append((a != "no error", b != "no error"))
                pairs += 1
                presence += (a == "no error") == (b == "no error")
                severity += a == b
                said_error += (a != "no error") + (b != "no error")
                said_total += 2
    cohen = sorted((PairKappa(raters, len(labels), _cohen_kappa(labels)) for raters, labels in by_raters.items()),
                   key=lambda p: (-p.segments, p.raters))
    return RaterAgreement(found, rated, pairs, presence, severity,
                          _scott_pi(pairs, presence, said_error, said_total), tuple(cohen))


def _scott_pi(pairs: int, agreeing: int, said_error: int, said_total: int) -> float | None:
    """Scott's π: the chance agreement from the pooled rate of "error" over both sides of every pair."""
    if not pairs:
        return None
    p_error = said_error / said_total
    chance = p_error ** 2 + (1 - p_error) ** 2
    return None if chance == 1 else (agreeing / pairs - chance) / (1 - chance)


def _cohen_kappa(labels: Sequence[tuple[bool, bool]]) -> float | None:
    """Cohen's κ of two raters' (error?, error?) labels: the chance agreement from each rater's own rate."""
    n = len(labels)
    a_error = sum(a for a, _ in labels) / n
    b_error = sum(b for _, b in labels) / n
    observed = sum(a == b for a, b in labels) / n
    chance = a_error * b_error + (1 - a_error) * (1 - b_error)
    return None if chance == 1 else (observed - chance) / (1 - chance)
