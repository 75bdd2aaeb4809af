"""A reviewer's scorecard (LQA, as language service providers grade a translation): each system's human-marked
errors by category × severity, penalty points per 1,000 source words, and pass or fail against a threshold — per
document and whole, per rater side by side.

The arithmetic is MQM's scoring model (themqm.org, "The MQM Scoring Models"; Lommel et al. 2024): the absolute
penalty total APT = Σ errors × their severity's multiplier; the evaluation word count EWC = the source words of
the rated segments (once per rater who rated them); the normed penalty total NPT = APT / EWC × 1,000 (penalty
points per 1,000 words); the overall quality score OQS = 100 × (1 − APT / EWC). Defaults: Neutral 0, Minor 1,
Major 5, Critical 25 (MQM's multipliers, Google's MQM weights for Minor and Major); pass when OQS ≥ 99 — at most
10 penalty points per 1,000 words — a threshold to agree with the client, never a standard one. Words are counted
as CAT tools count them: whitespace-separated, each Han, kana (half-width kana too), Hangul syllable or Thai
character a word of its own (ISO 5060 notes that character counts suit such scripts); punctuation and symbols,
full-width or not, standing alone, are no word."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..inputs.ratings import Ratings

SEVERITIES = ("Neutral", "Minor", "Major", "Critical")
DEFAULT_WEIGHTS: Mapping[str, float] = {"Neutral": 0.0, "Minor": 1.0, "Major": 5.0, "Critical": 25.0}
DEFAULT_THRESHOLD = 99.0  # OQS: at most 10 penalty points per 1,000 words
PER_WORDS = 1000

# Han, kana (half-width katakana too: ｶﾀｶﾅ is four words, as カタカナ is), Hangul syllables and Thai: a word each.
_CHARACTER_WORDS = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
                              r"\uff66-\uff9d\U00020000-\U0003134f]")
# Half-width kana's voicing marks belong to the kana before them (ｶﾞ is one word, as ガ is).
_HALF_WIDTH_MARKS = re.compile(r"[\uff9e\uff9f]")


def _is_word(token: str) -> bool:
    """A whitespace-separated token is a word unless it is only punctuation or symbols (。, ！, —, „“, …)."""
    return any(not unicodedata.category(ch).startswith(("P", "S")) for ch in token)


def word_count(text: str) -> int:
    """Words as CAT tools count them (see the module): punctuation, full-width or not, is no word."""
    text = _HALF_WIDTH_MARKS.sub("", text)
    characters = len(_CHARACTER_WORDS.findall(text))
    rest = _CHARACTER_WORDS.sub(" ", text)
    return characters + sum(_is_word(token) for token in rest.split())


@dataclass(frozen=True)
class Card:
    """One scope's scorecard (a system's whole text or one document, all raters or one)."""

    system: str
    scope: str          # "all" or a document id
    rater: str          # "all raters" or a rater's name
    counts: dict[tuple[str, str], int]   # (category, severity) → errors
    segments: int       # rated segments
    words: int          # their source words (EWC)
    weights: Mapping[str, float]
    threshold: float

    @property
    def penalty(self) -> float:
        """The absolute penalty total (APT)."""
        return float(sum(n * self.weights.get(severity, 0.0) for (_c, severity), n in self.counts.items()))

    @property
    def per_thousand(self) -> float | None:
        """Penalty points per 1,000 words (NPT); None without words."""
        return self.penalty / self.words * PER_WORDS if self.words else None

    @property
    def quality(self) -> float | None:
        """The overall quality score (OQS); None without words."""
        return 100.0 * (1.0 - self.penalty / self.words) if self.words else None

    @property
    def passed(self) -> bool | None:
        return None if self.quality is None else self.quality >= self.threshold

    def errors(self, severity: str | None = None) -> int:
        return sum(n for (_c, s), n in self.counts.items() if severity is None or s == severity)

    def to_dict(self) -> dict[str, object]:
        return {"system": self.system, "scope": self.scope, "rater": self.rater, "segments": self.segments,
                "words": self.words, "errors": {s: self.errors(s) for s in SEVERITIES if self.errors(s)},
                "by_category": [{"category": c, "severity": s, "errors": n}
                                for (c, s), n in sorted(self.counts.items())],
                "penalty": self.penalty, "per_1000_words": self.per_thousand, "quality": self.quality,
                "passed": self.passed}


@dataclass(frozen=True)
class LqaError:
    """One error as an LQA report lists it (memoQ's LQA, Trados's TQA): where (system, document, 1-based segment),
    the source, the target with the error's span (``start``/``end`` in the target or, an omission, the source;
    None: no span), category, severity, its weight, the rater's comment, the rater, and when it was marked ('' when
    the file does not say)."""

    system: str
    document: str
    segment: int
    source: str
    target: str
    side: str
    start: int | None
    end: int | None
    category: str
    severity: str
    weight: float
    comment: str
    rater: str
    time: str = ""

    def marked(self, open_mark: str = "⟦", close_mark: str = "⟧") -> tuple[str, str]:
        """(source, target) with the span between the marks, on its side."""
        def mark(text: str) -> str:
            if self.start is None or self.end is None:
                return text
            return f"{text[:self.start]}{open_mark}{text[self.start:self.end]}{close_mark}{text[self.end:]}"
        on_source = self.side == "source"
        return (mark(self.source) if on_source else self.source), (self.target if on_source else mark(self.target))

    def to_dict(self) -> dict[str, object]:
        return {"system": self.system, "document": self.document, "segment": self.segment, "source": self.source,
                "target": self.target, "side": self.side, "start": self.start, "end": self.end,
                "category": self.category, "severity": self.severity, "weight": self.weight,
                "comment": self.comment, "rater": self.rater, "time": self.time}


@dataclass(frozen=True)
class Scorecard:
    """Every card: per system the whole text and each document, all raters and each rater."""

    cards: tuple[Card, ...]
    weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    threshold: float = DEFAULT_THRESHOLD
    errors: tuple[LqaError, ...] = ()  # every error, the LQA report's list (where the targets were given)

    def whole(self, rater: str = "all raters") -> list[Card]:
        return [c for c in self.cards if c.scope == "all" and c.rater == rater]

    def raters(self) -> list[str]:
        return list(dict.fromkeys(c.rater for c in self.cards if c.rater != "all raters"))

    def to_dict(self) -> dict[str, object]:
        return {"weights": dict(self.weights), "threshold": self.threshold, "per_words": PER_WORDS,
                "formula": "APT = sum of errors x weight; per_1000_words = APT / words x 1000; "
                           "quality = 100 x (1 - APT / words); passed: quality >= threshold",
                "cards": [c.to_dict() for c in self.cards], "errors": [e.to_dict() for e in self.errors]}


def _card(system: str, scope: str, rater: str, rows: Sequence[int], annotations: Sequence[Ratings | None],
          sources: Sequence[str], weights: Mapping[str, float], threshold: float) -> Card:
    counts: dict[tuple[str, str], int] = {}
    segments = words = 0
    for i in rows:
        ratings = annotations[i]
        if ratings is None or (rater != "all raters" and rater not in ratings.raters):
            continue
        segments += 1
        # Several raters of one segment are several evaluations of its words: all raters' errors over all their
        # words, so that the rate is the raters' mean, never a sum of their penalties over the words once.
        words += word_count(sources[i]) * (len(ratings.raters) if rater == "all raters" else 1)
        for e in ratings.errors:
            if e.severity in SEVERITIES and (rater == "all raters" or e.rater == rater):
                key = (e.category or "(none)", e.severity)
                counts[key] = counts.get(key, 0) + 1
    return Card(system, scope, rater, counts, segments, words, weights, threshold)


def scorecard(systems: Sequence[tuple[str, Sequence[Ratings | None]]], sources: Sequence[str],
              docs: Sequence[str] | None = None, weights: Mapping[str, float] = DEFAULT_WEIGHTS,
              threshold: float = DEFAULT_THRESHOLD, targets: Sequence[Sequence[str]] | None = None) -> Scorecard:
    """The scorecard of ``systems`` (name, annotations per segment) over the source segments ``sources`` (their
    words are the evaluation word count), per document of ``docs`` too; ``weights`` per severity (see the
    module). With several raters, a card per rater beside the card of all (whose errors add up every rater's, as
    an LQA of several reviewers does). ``targets``: each system's segments, for the report's list of errors."""
    cards = []
    n = len(sources)
    documents = list(dict.fromkeys(docs)) if docs is not None else []
    for name, rated in systems:
        raters = list(dict.fromkeys(r for a in rated if a is not None for r in a.raters))
        for rater in ["all raters", *(raters if len(raters) > 1 else [])]:
            cards.append(_card(name, "all", rater, range(n), rated, sources, weights, threshold))
            for d in documents if len(documents) > 1 else []:
                rows = [i for i in range(n) if docs is not None and docs[i] == d]
                card = _card(name, d, rater, rows, rated, sources, weights, threshold)
                if card.segments:  # a document this rater never rated is no row of the rater's
                    cards.append(card)
    errors = tuple(_errors(systems, targets, sources, docs, weights)) if targets is not None else ()
    return Scorecard(tuple(cards), dict(weights), threshold, errors)


def _errors(systems: Sequence[tuple[str, Sequence[Ratings | None]]], targets: Sequence[Sequence[str]],
            sources: Sequence[str], docs: Sequence[str] | None, weights: Mapping[str, float]) -> list[LqaError]:
    out = []
    for (name, rated), lines in zip(systems, targets):
        for i, ratings in enumerate(rated):
            for e in ratings.errors if ratings is not None else ():
                if e.severity not in SEVERITIES:
                    continue
                out.append(LqaError(name, docs[i] if docs is not None else "", i + 1, sources[i], lines[i], e.side,
                                    e.start, e.end, e.category or "(none)", e.severity, weights.get(e.severity, 0.0),
                                    e.comment, e.rater, e.time))
    return out


def scorecard_text(card: Scorecard) -> str:
    """The scorecard for the terminal: per system (and rater) the whole text, then each document."""
    w = card.weights
    lines = [f"Scorecard: penalty points per {PER_WORDS:,} source words (weights: " + ", ".join(
        f"{s} {w.get(s, 0):g}" for s in SEVERITIES) + f"; pass: quality ≥ {card.threshold:g})", "",
        f"{'system':<24} {'scope':<18} {'rater':<12} {'segs':>5} {'words':>7} {'Minor':>6} {'Major':>6} "
        f"{'Crit.':>6} {'penalty':>8} {'/1000 w':>8} {'quality':>8}  verdict"]
    for c in card.cards:
        per = "–" if c.per_thousand is None else f"{c.per_thousand:.2f}"
        quality = "–" if c.quality is None else f"{c.quality:.2f}"
        verdict = "–" if c.passed is None else "pass" if c.passed else "FAIL"
        lines.append(f"{c.system[:24]:<24} {c.scope[:18]:<18} {c.rater[:12]:<12} {c.segments:>5,} {c.words:>7,} "
                     f"{c.errors('Minor'):>6} {c.errors('Major'):>6} {c.errors('Critical'):>6} {c.penalty:>8g} "
                     f"{per:>8} {quality:>8}  {verdict}")
    for c in card.whole():
        if c.counts:
            lines += ["", f"{c.system}: errors by category"]
            for category in sorted({k for k, _ in c.counts}):
                cells = ", ".join(f"{s} {c.counts[(category, s)]}" for s in SEVERITIES if (category, s) in c.counts)
                lines.append(f"  {category}: {cells}")
    lines += ["", "quality = 100 × (1 − penalty / words), MQM's scoring model; words: the rated segments' source "
              "words (Han, kana, Hangul and Thai characters one word each); the threshold is yours to agree."]
    return "\n".join(lines)
