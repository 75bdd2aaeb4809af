"""What one segment's chrF is made of: per order, the candidate's and the reference's n-grams and the matches
(sacreBLEU's own segment statistics), the reference they were taken against, and for every character of the
candidate and of that reference how many of its character n-grams matched.

chrF removes whitespace before it takes character n-grams and may lowercase the text (which can change the
number of characters, as 'İ' does): each character chrF sees is mapped back to the character of the text the
user reads. Which occurrences of a repeated n-gram count as matched is a choice (chrF only counts them): the
leftmost ones, in the candidate and in the reference alike.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from .config import ChrfConfig
from .fscore import f_scores


class ChrfSegments(Protocol):
    """What the evidence reads of a bound chrF: its settings, references and one segment's statistics."""

    config: ChrfConfig
    reference_lines: list[list[str]]

    def segment_statistics(self, index: int, hypothesis: str) -> tuple[list[int], int]: ...


@dataclass(frozen=True)
class OrderCounts:
    """One order's statistics: character or word n-grams of length ``n``."""

    kind: str          # "char" or "word"
    n: int
    hyp_total: int     # sacreBLEU's count: 0 when the reference has no n-gram of this order
    ref_total: int
    matched: int

    @property
    def precision(self) -> float | None:
        return self.matched / self.hyp_total if self.hyp_total else None

    @property
    def recall(self) -> float | None:
        return self.matched / self.ref_total if self.ref_total else None

    def to_dict(self) -> dict[str, int]:
        return {"n": self.n, "hyp_total": self.hyp_total, "ref_total": self.ref_total, "matched": self.matched}


@dataclass(frozen=True)
class CharHits:
    """For each character of a text: how many character n-grams chrF takes cover it, and how many of those matched
    (0 and 0 for whitespace, which chrF removes)."""

    text: str
    covered: list[int]
    matched: list[int]


@dataclass(frozen=True)
class ChrfEvidence:
    """See the module. ``reference`` is the index of the reference the statistics come from."""

    reference: int
    orders: list[OrderCounts]
    score: float
    beta: int
    hypothesis: CharHits
    reference_text: CharHits

    def to_dict(self) -> dict[str, object]:
        """``--explain N -m chrf -f json``: the statistics of each order and the reference they came from."""
        return {"char_orders": [o.to_dict() for o in self.orders if o.kind == "char"],
                "word_orders": [o.to_dict() for o in self.orders if o.kind == "word"],
                "reference": self.reference, "score": self.score}


def _seen_characters(text: str, cfg: ChrfConfig) -> tuple[str, list[int]]:
    """The characters chrF takes n-grams of, and for each the index of the character of ``text`` it comes from."""
    lowered = text.lower() if cfg.lowercase else text
    owners: list[int] = []
    for i, ch in enumerate(text):
        owners += [i] * (len(ch.lower()) if cfg.lowercase else 1)
    if len(owners) != len(lowered):  # a casing that rewrites a whole run at once: characters map in order
        owners = list(range(len(lowered)))
    kept = [(owner, ch) for owner, ch in zip(owners, lowered) if cfg.whitespace or not ch.isspace()]
    return "".join(ch for _, ch in kept), [owner for owner, _ in kept]


def _hits(text: str, chars: str, owners: list[int], other: str, cfg: ChrfConfig, candidate: bool) -> CharHits:
    """Per character of ``text``: character n-grams that cover it, and those matched against ``other`` (the
    characters chrF sees on the other side); the leftmost occurrences of a repeated n-gram match first."""
    # How many n-grams start and end at each seen character, as running differences: an n-gram adds one to the
    # characters i..i+n-1 (the sums follow in one pass, not a loop over each n-gram's characters).
    size = len(chars)
    covering = [0] * (size + 1)
    matching = [0] * (size + 1)
    for n in range(1, cfg.char_order + 1):
        theirs = Counter(other[i:i + n] for i in range(len(other) - n + 1))
        if candidate and not theirs:
            continue  # sacreBLEU counts no candidate n-gram of an order the reference has none of
        for i in range(size - n + 1):
            gram = chars[i:i + n]
            covering[i] += 1
            covering[i + n] -= 1
            if theirs[gram] > 0:
                theirs[gram] -= 1
                matching[i] += 1
                matching[i + n] -= 1
    covered = [0] * len(text)
    matched = [0] * len(text)
    running_covered = running_matched = 0
    for j, owner in enumerate(owners):
        running_covered += covering[j]
        running_matched += matching[j]
        covered[owner] += running_covered
        matched[owner] += running_matched
    return CharHits(text, covered, matched)


def unmatched_characters(hits: CharHits) -> list[tuple[int, int]]:
    """The characters chrF took n-grams of and matched in none (whitespace, which it removes, never), one span
    per run of them: what chrF holds against the candidate."""
    spans: list[tuple[int, int]] = []
    for i, (covered, matched) in enumerate(zip(hits.covered, hits.matched)):
        if covered and not matched and not hits.text[i].isspace():
            if spans and spans[-1][1] == i:
                spans[-1] = (spans[-1][0], i + 1)
            else:
                spans.append((i, i + 1))
    return spans


def candidate_hits(metric: ChrfSegments, index: int, hypothesis: str, reference: int | None = None) -> CharHits:
    """The candidate's side of :func:`chrf_evidence` alone, against the reference its statistics come from
    (``reference``, when known already)."""
    cfg = metric.config
    k = reference if reference is not None else metric.segment_statistics(index, hypothesis)[1]
    hyp_chars, hyp_owners = _seen_characters(hypothesis, cfg)
    return _hits(hypothesis, hyp_chars, hyp_owners, _seen_characters(metric.reference_lines[k][index], cfg)[0], cfg,
                 True)


def chrf_evidence(metric: ChrfSegments, index: int, hypothesis: str) -> ChrfEvidence:
    """The evidence of segment ``index`` when its candidate is ``hypothesis`` (see the module)."""
    cfg = metric.config
    row, k = metric.segment_statistics(index, hypothesis)
    orders = [OrderCounts("char" if i < cfg.char_order else "word",
                          i + 1 if i < cfg.char_order else i + 1 - cfg.char_order, *row[3 * i:3 * i + 3])
              for i in range(cfg.char_order + cfg.word_order)]
    reference = metric.reference_lines[k][index]
    hyp_chars, hyp_owners = _seen_characters(hypothesis, cfg)
    ref_chars, ref_owners = _seen_characters(reference, cfg)
    score = float(f_scores(np.asarray([row]), cfg)[0]) if row else 0.0
    return ChrfEvidence(k, orders, score, cfg.beta, _hits(hypothesis, hyp_chars, hyp_owners, ref_chars, cfg, True),
                        _hits(reference, ref_chars, ref_owners, hyp_chars, cfg, False))
