"""What one segment's chrF is made of: per order, the candidate's and the reference's n-grams and the matches
(sacreBLEU's own segment statistics), the reference they were taken against, and for every character of the
candidate and of that reference how many of its character n-grams matched.

chrF removes whitespace before it takes character n-grams and may lowercase the text (which can change the
number of characters, as 'İ' does): each character chrF sees is mapped back to the character of the text the
user reads. Which occurrences of a repeated n-gram count as matched is a choice (chrF only counts them): the
leftmost ones, in the candidate and in the reference alike.
"""

from __future__ import annotations

import operator
from collections import Counter
from dataclasses import dataclass
from itertools import compress
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
    if len(lowered) == len(text):  # (lowercasing makes no character two): each character its own
        if cfg.whitespace:
            return lowered, list(range(len(text)))
        # The places of the characters that are not whitespace, without a Python step per character.
        kept_at = compress(range(len(text)), map(operator.not_, map(str.isspace, lowered)))
        return "".join(lowered.split()), list(kept_at)
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


@dataclass(frozen=True)
class ReferenceCharacters:
    """A reference as :func:`unmatched_spans` reads it: the characters chrF takes n-grams of, and how often each
    occurs (made once per reference line and read for every system's candidate)."""

    chars: str
    counts: Counter[str]

    @classmethod
    def of(cls, reference: str, cfg: ChrfConfig) -> ReferenceCharacters:
        chars = _seen_characters(reference, cfg)[0]
        return cls(chars, Counter(chars))


def unmatched_spans(hypothesis: str, reference: ReferenceCharacters, cfg: ChrfConfig) -> list[tuple[int, int]]:
    """The candidate's characters chrF took n-grams of and matched in none against ``reference`` (whitespace, which
    it removes, never), one span per run of them: what chrF holds against the candidate — the characters whose
    :func:`chrf_evidence` hits are covered and never matched, found without counting every n-gram.

    A character matched as a unigram is matched; only the others are looked for in the n-grams that cover them.
    Such an n-gram is matched when the reference holds one more occurrence of it than the candidate has before it
    (the leftmost occurrences match first), both counted by ``str.find``, overlaps included."""
    other, theirs = reference.chars, reference.counts
    if not other or not cfg.char_order:
        return []  # sacreBLEU takes no candidate n-gram against an empty reference: nothing covered, nothing held
    chars, owners = _seen_characters(hypothesis, cfg)
    mine = Counter(chars)
    # A character the reference lacks is in no matched n-gram; one the candidate has no more of than the reference
    # is matched as a unigram; only the surplus of the others (clipped as unigrams) is looked for further.
    absent = [j for ch in mine if ch not in theirs for j in _places(chars, ch)]
    # The leftmost occurrences of a clipped character are the ones matched.
    unmatched = [j for ch, k in mine.items() if k > theirs[ch] > 0 for j in _places(chars, ch)[theirs[ch]:]]
    hopeless: list[int] = []
    size = len(chars)
    for n in range(2, min(cfg.char_order, len(other)) + 1):
        if not unmatched:
            break
        # An n-gram the reference lacks is inside no longer n-gram it holds: a character whose every covering
        # n-gram the reference lacks stays unmatched at every higher order and is looked for no further (most of
        # the look-ups of orders 4-6 were for such n-grams).
        windows = {j: range(max(0, j - n + 1), min(j, size - n) + 1) for j in unmatched}
        held = {i for i in {i for covering in windows.values() for i in covering} if chars[i:i + n] in other}
        matched_here: set[int] = set()
        for i in held:
            if _leftmost_matched(chars, other, chars[i:i + n], i):
                matched_here.update(range(i, i + n))
        unmatched = []
        for j, covering in windows.items():
            if not any(i in held for i in covering):
                hopeless.append(j)
            elif j not in matched_here:
                unmatched.append(j)
    left = set(unmatched).union(hopeless, absent)
    # A character of the text is held against the candidate when none of the characters chrF sees of it matched
    # (lowercasing can make one character two).
    if len(set(owners)) == len(owners):  # one seen character to a character of the text
        flagged = sorted(owners[j] for j in left)
    else:
        flagged = sorted({owners[j] for j in left} - {owner for j, owner in enumerate(owners) if j not in left})
    spans: list[tuple[int, int]] = []
    for i in flagged:
        if hypothesis[i].isspace():
            continue
        if spans and spans[-1][1] == i:
            spans[-1] = (spans[-1][0], i + 1)
        else:
            spans.append((i, i + 1))
    return spans


def _places(text: str, ch: str) -> list[int]:
    """Where character ``ch`` occurs in ``text``, left to right."""
    out = []
    at = text.find(ch)
    while at >= 0:
        out.append(at)
        at = text.find(ch, at + 1)
    return out


def _leftmost_matched(chars: str, other: str, gram: str, at: int) -> bool:
    """Whether the occurrence of ``gram`` at ``at`` in ``chars`` is matched: ``other`` holds more occurrences of it
    than ``chars`` has before ``at``."""
    found = other.find(gram)
    if found < 0:
        return False
    before = chars.find(gram)
    while 0 <= before < at:
        found = other.find(gram, found + 1) if found >= 0 else -1
        before = chars.find(gram, before + 1)
    return found >= 0


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
