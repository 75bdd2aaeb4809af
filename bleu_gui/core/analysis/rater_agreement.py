"""How far the raters of MQM annotations agree, so an analyst can judge the annotations before trusting them.

Only segments rated by two raters or more say anything. For every pair of raters of such a segment: do both say
there is an error (Critical, Major or Minor) or both that there is none — *presence* — and is the worst severity
each marked the same (none counts as a severity) — *severity*. Overall: the share of agreeing pairs, and Cohen's
kappa of presence over all pairs (pooled: the chance agreement from how often raters say "error" at all), which
discounts the agreement two raters who mark nearly everything would reach by chance.
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
class RaterAgreement:
    """Agreement over every segment with several raters (see the module)."""

    segments: list[SegmentAgreement]
    rated_segments: int  # segments with any rating
    pairs: int
    presence_pairs: int  # pairs agreeing on presence
    severity_pairs: int
    kappa: float | None  # Cohen's kappa of presence, pooled (None: no pair, or chance agreement 1)

    @property
    def presence(self) -> float | None:
        return self.presence_pairs / self.pairs if self.pairs else None

    @property
    def severity(self) -> float | None:
        return self.severity_pairs / self.pairs if self.pairs else None

    def to_dict(self) -> dict[str, object]:
        return {"rated_segments": self.rated_segments, "several_raters": len(self.segments), "pairs": self.pairs,
                "presence": self.presence, "severity": self.severity, "kappa": self.kappa,
                "segments": [s.to_dict() for s in self.segments]}

    def summary(self) -> str:
        """One line for the screen."""
        if not self.pairs:
            return (f"rater agreement: no segment has two raters ({self.rated_segments:,} rated segments, one rater "
                    "each) — nothing to compare")
        kappa = f", Cohen's kappa {self.kappa:.2f}" if self.kappa is not None else ""
        return (f"rater agreement over {len(self.segments):,} segments with several raters ({self.pairs:,} pairs): "
                f"error or not {self.presence:.0%}{kappa}; worst severity {self.severity:.0%}")


def rater_agreement(systems: Sequence[SegmentFile], rows: Sequence[int] | None = None,
                    names: Sequence[str] | None = None) -> RaterAgreement:
    """Agreement of the raters of every system's annotated segments ``rows`` (all); ``names``: the systems' names
    as shown (their files' by default)."""
    found: list[SegmentAgreement] = []
    rated = pairs = presence = severity = said_error = said_total = 0
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
            for (_, a), (_, b) in combinations(worst, 2):
                pairs += 1
                presence += (a == "no error") == (b == "no error")
                severity += a == b
                said_error += (a != "no error") + (b != "no error")
                said_total += 2
    return RaterAgreement(found, rated, pairs, presence, severity, _kappa(pairs, presence, said_error, said_total))


def _kappa(pairs: int, agreeing: int, said_error: int, said_total: int) -> float | None:
    if not pairs:
        return None
    p_error = said_error / said_total
    chance = p_error ** 2 + (1 - p_error) ** 2
    return None if chance == 1 else (agreeing / pairs - chance) / (1 - chance)
