"""Which words move a neural score, by erasure (occlusion; Rei et al. 2023, "The Inside Story"): the segment scored
again with each word left out, one batch of N + 1 texts for N words — the model itself says what each word is worth
to it, nothing about the model is reimplemented. A word whose removal raises the score is one the model holds
against the candidate; on the source, one whose removal raises the score points at something the candidate omits.

What a word is: the text's whitespace words, or — for Chinese, Japanese and Korean, which write none — the pieces
of the run's tokenizer (``tokenize``: text → tokens joined by spaces, as sacreBLEU's tokenizers give them), each
found in the text in order (a token the tokenizer changed is not a place in the text, and is left out). A word is
erased with the whitespace after it (before it, for the last word), so that the rest reads as a text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Tokenize = Callable[[str], str]


def word_spans(text: str, tokenize: Tokenize | None = None) -> list[tuple[int, int]]:
    """The code-point spans of the words of ``text``, in order (see the module)."""
    pieces = (tokenize(text) if tokenize is not None else text).split()
    spans, at = [], 0
    for piece in pieces:
        found = text.find(piece, at)
        if found < 0:
            continue
        spans.append((found, found + len(piece)))
        at = found + len(piece)
    return spans


def erased(text: str, span: tuple[int, int]) -> str:
    """``text`` with the word at ``span`` left out, and the whitespace after it (or, for the last word, before)."""
    start, end = span
    after = end
    while after < len(text) and text[after].isspace():
        after += 1
    if after > end or end < len(text):
        return text[:start] + text[after:]
    before = start
    while before > 0 and text[before - 1].isspace():
        before -= 1
    return text[:before] + text[end:]


@dataclass(frozen=True)
class Word:
    """One word and what leaving it out does: the score with it erased minus the score of the whole text."""

    start: int
    end: int
    text: str
    delta: float


@dataclass(frozen=True)
class Erasure:
    """A segment's words on one side (``target``: the candidate; ``source``) and the model's score without each."""

    side: str
    text: str
    score: float
    words: tuple[Word, ...]

    def against(self, k: int = 3) -> list[Word]:
        """The ``k`` words whose removal raises the score most (what the model holds against the text), largest
        first; none that lowers it."""
        return sorted((w for w in self.words if w.delta > 0), key=lambda w: (-w.delta, w.start))[:k]

    def to_dict(self) -> dict[str, object]:
        return {"side": self.side, "score": self.score,
                "words": [{"start": w.start, "end": w.end, "text": w.text, "delta": w.delta} for w in self.words]}


def erasure_texts(text: str, tokenize: Tokenize | None = None) -> tuple[list[tuple[int, int]], list[str]]:
    """The words of ``text`` and the texts to score: the whole text first, then the text without each word."""
    spans = word_spans(text, tokenize)
    return spans, [text, *(erased(text, s) for s in spans)]


def erasure_of(side: str, text: str, spans: Sequence[tuple[int, int]], scores: Sequence[float]) -> Erasure:
    """The :class:`Erasure` from the scores of :func:`erasure_texts`'s texts, in their order."""
    whole = float(scores[0])
    return Erasure(side, text, whole, tuple(Word(a, b, text[a:b], float(s) - whole) for (a, b), s in zip(spans, scores[1:])))


Segment = tuple[int, str, str]  # (segment of the run, source, candidate)
ScoreVariants = Callable[[Sequence[Segment]], list[float]]  # variants of segments → the model's scores, one request


def erase_all(side: str, segments: Sequence[Segment], score: ScoreVariants,
              tokenize: Tokenize | None = None) -> list[Erasure]:
    """The erasure of one side (``target``: the candidate's words; ``source``: the source's) of every segment, all
    their texts scored in one call of ``score`` (a metric's :meth:`score_variants
    <bleu_gui.core.metrics.base.Metric.score_variants>`): one request to the model for a whole slice."""
    variants: list[Segment] = []
    laid_out = []
    for index, source, candidate in segments:
        text = candidate if side == "target" else source
        spans, texts = erasure_texts(text, tokenize)
        laid_out.append((text, spans, len(variants), len(texts)))
        variants += [(index, source, t) if side == "target" else (index, t, candidate) for t in texts]
    scores = score(variants) if variants else []
    return [erasure_of(side, text, spans, scores[at:at + n]) for text, spans, at, n in laid_out]


def erase(side: str, segment: Segment, score: ScoreVariants, tokenize: Tokenize | None = None) -> Erasure:
    """:func:`erase_all` of one segment."""
    return erase_all(side, [segment], score, tokenize)[0]


def _word_key(text: str) -> str:
    """What counts as the same word across segments: its letters, casefolded, without the punctuation around it."""
    start, end = 0, len(text)
    while start < end and unicodedata.category(text[start]).startswith("P"):
        start += 1
    while end > start and unicodedata.category(text[end - 1]).startswith("P"):
        end -= 1
    return (text[start:end] or text).casefold()


@dataclass(frozen=True)
class Held:
    """A word across a corpus's erasures: where it occurs, how often leaving it out raised the score, by how much."""

    word: str
    occurrences: int
    raised: int
    mean_delta: float
    segments: tuple[int, ...]  # the segments where leaving it out raised the score


def held_against(erasures: Sequence[tuple[int, Erasure]], k: int = 20) -> list[Held]:
    """The ``k`` words whose erasure most often raises the score across ``erasures`` ((segment, erasure) pairs): what
    the model holds against a system; ties by the mean rise, then the word."""
    seen: dict[str, list[tuple[int, float]]] = {}
    for segment, erasure in erasures:
        for word in erasure.words:
            seen.setdefault(_word_key(word.text), []).append((segment, word.delta))
    held = [Held(word, len(found), sum(d > 0 for _, d in found), sum(d for _, d in found) / len(found),
                 tuple(sorted({s for s, d in found if d > 0}))) for word, found in seen.items()]
    held = [h for h in held if h.raised]
    return sorted(held, key=lambda h: (-h.raised, -h.mean_delta, h.word))[:k]
