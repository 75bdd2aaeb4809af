"""Match details for one sentence, computed on demand for the sentence on screen.

For each order n and each candidate n-gram occurrence: its token span and
status. An n-gram no reference has is *unmatched*. Of the ``count``
occurrences of an n-gram that a reference has, ``min(count, Max_Ref_Count)``
are *matched* and the rest *clipped* (Max_Ref_Count is the largest count in any
single reference, Papineni et al. 2002; ``max_ref`` names the first reference
that holds it). The counts are BLEU's; *which* occurrences are matched is our
choice, made so that it reads right:

    Orders are assigned from the highest down. An occurrence inside a longer
    matched n-gram is preferred to one that is not, the longer the better;
    among equals the leftmost wins.

So in "read the the the instructions … start the test" against a reference
with two "the", the "the" of the matched "start the test" stays matched and
the surplus of the doubled "the" is clipped. In each reference, the leftmost
occurrences of every matched n-gram (as many as were matched, at most as many
as that reference has) are marked.
"""

from __future__ import annotations

import operator
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache, reduce
from typing import TypeVar

from ..alignment import Span, char_spans
from ..tokenizers import Tokenization

Gram = TypeVar("Gram", str, tuple[str, ...])

MATCHED, CLIPPED, UNMATCHED = "matched", "clipped", "unmatched"


@dataclass(frozen=True)
class NgramOccurrence:
    """One occurrence of an n-gram in the candidate."""

    order: int
    start: int          # first token index
    end: int            # one past the last token index
    ngram: tuple[str, ...]
    status: str         # MATCHED, CLIPPED or UNMATCHED
    count: int          # occurrences of this n-gram in the candidate
    max_ref_count: int  # Max_Ref_Count over the references
    max_ref: int | None  # reference index holding Max_Ref_Count (None when 0)


@dataclass(frozen=True)
class RefSpan:
    """Tokens ``start:end`` of a reference form an n-gram of ``order`` that the candidate matched."""

    order: int
    start: int
    end: int


@dataclass(frozen=True)
class SentenceDetails:
    """Everything the window needs to colour one sentence pair."""

    hypothesis: str
    hyp_tokens: list[str]
    hyp_spans: list[Span | None]
    references: list[str]
    ref_tokens: list[list[str]]
    ref_spans: list[list[Span | None]]
    ref_present: list[bool]
    occurrences: dict[int, list[NgramOccurrence]]
    ref_matches: list[dict[int, list[RefSpan]]]

    @property
    def max_order(self) -> int:
        return max(self.occurrences) if self.occurrences else 0

    def status_counts(self, order: int) -> dict[str, int]:
        """How many occurrences of ``order`` are matched, clipped and unmatched."""
        counts = Counter(o.status for o in self.occurrences.get(order, []))
        return {s: counts.get(s, 0) for s in (MATCHED, CLIPPED, UNMATCHED)}

    def statistics(self, max_order: int) -> list[int]:
        """This sentence's statistics row, as the corpus scorer makes it: hyp_len, the effective reference
        length (closest, ties to the shorter, over the references present), correct_1..N, total_1..N."""
        hyp_len = len(self.hyp_tokens)
        lengths = [len(t) for t, ok in zip(self.ref_tokens, self.ref_present) if ok]
        ref_len = min(lengths, key=lambda r: (abs(r - hyp_len), r)) if lengths else 0
        correct = [self.status_counts(n)[MATCHED] for n in range(1, max_order + 1)]
        total = [max(hyp_len - n + 1, 0) for n in range(1, max_order + 1)]
        return [hyp_len, ref_len, *correct, *total]

    def best_matched_order(self) -> list[int]:
        """For each candidate token, the highest order of a matched n-gram covering it (0 = none)."""
        return _best_matched_order(self.occurrences, len(self.hyp_tokens))


def _best_matched_order(occurrences: dict[int, list[NgramOccurrence]], n_tokens: int) -> list[int]:
    best = [0] * n_tokens
    for order, occs in occurrences.items():
        for occ in occs:
            if occ.status == MATCHED:
                for t in range(occ.start, occ.end):
                    best[t] = max(best[t], order)
    return best


def _ngrams(tokens: Sequence[str], n: int) -> list[tuple[str, ...]]:
    return list(zip(*(tokens[k:] for k in range(n))))


def _most(ref_counts: Sequence[Counter[Gram]]) -> Counter[Gram]:
    """Max_Ref_Count of every n-gram (or word): the most times any one reference has it."""
    return ref_counts[0] if len(ref_counts) == 1 else reduce(operator.or_, ref_counts, Counter())


def _matched_starts(hyp_grams: dict[int, list[tuple[int, tuple[str, ...]]]],
                    most: dict[int, Counter[tuple[str, ...]]]) -> dict[int, set[int]]:
    """Which occurrences (start, n-gram) of each order are matched (their starts), the orders assigned from the
    highest down: per n-gram, the ``min(count, Max_Ref_Count)`` occurrences inside the longest matched n-grams (then
    the leftmost). An n-gram the references hold as often as the candidate has every occurrence matched: only a
    clipped one's occurrences are ranked. Each order's occurrences of an n-gram are all of them or none."""
    matched: dict[int, set[int]] = {}
    for n in sorted(hyp_grams, reverse=True):
        occurrences, limit = hyp_grams[n], most[n]
        # .get: a Counter's own look-up of a missing n-gram is a Python call (most n-grams are missing)
        counts = Counter(gram for _, gram in occurrences)
        clipped = {gram for gram, count in counts.items() if count > limit.get(gram, 0) > 0}
        chosen = {i for i, gram in occurrences if gram in limit and gram not in clipped}
        for gram in clipped:
            starts = [i for i, g in occurrences if g == gram]
            inside = {i: _longest_around(matched, i, n) for i in starts}
            chosen.update(sorted(starts, key=lambda i: (-inside[i], i))[:limit[gram]])
        matched[n] = chosen
    return matched


def _longest_around(matched_starts: dict[int, set[int]], i: int, n: int) -> int:
    """The longest order of a matched n-gram (of the orders above ``n`` assigned so far) that contains the
    ``n``-gram starting at ``i`` (0: none)."""
    for order in sorted(matched_starts, reverse=True):
        if any(s in matched_starts[order] for s in range(max(i - (order - n), 0), i + 1)):
            return order
    return 0


@lru_cache(maxsize=64)  # bounded: it keeps a few tokenizations alive until evicted
def _tokens_and_spans(tokenization: Tokenization, text: str) -> tuple[list[str], list[Span | None]]:
    # A sentence edited key by key keeps its references: they are tokenized once, not at every key.
    tokens = tokenization.tokens(text)
    return tokens, char_spans(text, tokens, tokenization.lowercase, tokenization.name)


def _occurrences(hyp_tokens: list[str], ref_tokens: list[list[str]], max_order: int
                 ) -> dict[int, list[NgramOccurrence]]:
    """Every order's candidate n-grams with their statuses (see :func:`_matched_starts`), keyed in ascending
    order."""
    orders = range(1, max_order + 1)
    per_ref = {n: [Counter(_ngrams(tokens, n)) for tokens in ref_tokens] for n in orders}
    most = {n: _most(per_ref[n]) for n in orders}
    grams = {n: _ngrams(hyp_tokens, n) for n in orders}
    matched = _matched_starts({n: list(enumerate(grams[n])) for n in orders}, most)
    occurrences: dict[int, list[NgramOccurrence]] = {}
    for n in orders:
        counts = Counter(grams[n])
        occurrences[n] = [
            NgramOccurrence(n, i, i + n, gram,
                            MATCHED if i in matched[n] else CLIPPED if most[n][gram] else UNMATCHED, counts[gram],
                            most[n][gram],
                            next((k for k, c in enumerate(per_ref[n]) if c[gram] == most[n][gram]), None)
                            if most[n][gram] else None)
            for i, gram in enumerate(grams[n])]
    return occurrences


def _covered_by_matches(hyp_tokens: list[str], ref_tokens: Sequence[list[str]], max_order: int,
                        words: Counter[str], clipped: set[str]) -> list[bool]:
    """Per candidate token: whether a matched n-gram of some order covers it (:func:`_matched_starts`), without the
    occurrences' records; ``words``: the most times any one reference has each word, ``clipped``: the candidate's
    words it has more often than that (and the references hold).

    A word the references lack is in no matched n-gram, and one not clipped is matched as a unigram wherever it
    is: only the places of clipped words are open. An n-gram over such a place holds the clipped word at the same
    offset wherever it occurs, and so does every longer n-gram around it: the orders are assigned among the
    n-grams over those places alone, with the statuses they have among all."""
    orders = range(1, max_order + 1)
    size = len(hyp_tokens)
    places = [p for p, w in enumerate(hyp_tokens) if w in clipped]
    grams = {}
    for n in orders:
        over = sorted({i for p in places for i in range(max(0, p - n + 1), min(p, size - n) + 1)})
        grams[n] = [(i, tuple(hyp_tokens[i:i + n])) for i in over]
    matched = _matched_starts(grams, {n: _most([Counter(_ngrams(tokens, n)) for tokens in ref_tokens])
                                      for n in orders})
    covered = [w in words and w not in clipped for w in hyp_tokens]
    for n, chosen in matched.items():
        for i in chosen:
            covered[i:i + n] = [True] * n
    return covered


def unmatched_token_spans(hypothesis: str, hyp_tokens: list[str], ref_tokens: Sequence[list[str]],
                          tokenization: Tokenization, max_order: int = 4) -> list[Span]:
    """The candidate's tokens (``hyp_tokens``, as ``tokenization`` makes them of ``hypothesis``) in no matched n-gram
    of any order against references tokenized as ``ref_tokens`` (an empty list for a reference left out), as
    character spans of the candidate (tokens that cannot be placed in the text are left out): what BLEU holds against
    the candidate, and what error recall reads of BLEU for every segment of a run (the statuses of
    :func:`sentence_details`, without the rest of its details)."""
    words = _most([Counter(tokens) for tokens in ref_tokens])  # the most times any one reference has each word
    clipped = {w for w, k in Counter(hyp_tokens).items() if k > words.get(w, 0) > 0}
    # Without a clipped word every token's unigram is matched, but a word no reference has, whose every n-gram is
    # unmatched: the flags follow from the unigrams alone. A clipped word needs the orders' assignment.
    if clipped:
        flagged = [not covered for covered in _covered_by_matches(hyp_tokens, ref_tokens, max_order, words, clipped)]
    else:
        flagged = [w not in words for w in hyp_tokens]
    spans = char_spans(hypothesis, hyp_tokens, tokenization.lowercase, tokenization.name)
    return [span for span, flag in zip(spans, flagged) if span and flag]


def sentence_details(hypothesis: str, references: Sequence[str], tokenization: Tokenization, max_order: int = 4,
                     present: Sequence[bool] | None = None) -> SentenceDetails:
    """Match details of one candidate line against its reference lines (missing references skipped)."""
    present = list(present) if present is not None else [True] * len(references)
    name, lc = tokenization.name, tokenization.lowercase
    hyp_tokens = tokenization.tokens(hypothesis)
    refs = [_tokens_and_spans(tokenization, r) if ok else ([], []) for r, ok in zip(references, present)]
    ref_tokens = [list(tokens) for tokens, _spans in refs]
    occurrences = _occurrences(hyp_tokens, ref_tokens, max_order)
    ref_matches: list[dict[int, list[RefSpan]]] = [defaultdict(list) for _ in references]
    for n in range(max_order, 0, -1):
        matched = Counter(o.ngram for o in occurrences[n] if o.status == MATCHED)
        for r, toks in enumerate(ref_tokens):
            marked: Counter = Counter()
            for i, gram in enumerate(_ngrams(toks, n)):
                if marked[gram] < matched.get(gram, 0):
                    marked[gram] += 1
                    ref_matches[r][n].append(RefSpan(n, i, i + n))
    return SentenceDetails(
        hypothesis=hypothesis,
        hyp_tokens=hyp_tokens,
        hyp_spans=char_spans(hypothesis, hyp_tokens, lc, name),
        references=list(references),
        ref_tokens=ref_tokens,
        ref_spans=[list(spans) for _tokens, spans in refs],
        ref_present=present,
        occurrences=occurrences,
        ref_matches=[dict(m) for m in ref_matches],
    )


ALL_ORDERS = 0  # "all orders" in :func:`token_statuses`
_RANK = {MATCHED: 3, CLIPPED: 2, UNMATCHED: 1}


def token_statuses(details: SentenceDetails, order: int) -> list[tuple[str | None, int]]:
    """Per candidate token: (status, order) to show — the window's panes and the report use the same.

    For one order, the best status among that order's n-grams covering the
    token. For "all orders" (``ALL_ORDERS``), the highest matched order
    covering it; otherwise the unigram's own status.
    """
    n_tok = len(details.hyp_tokens)
    result: list[tuple[str | None, int]] = [(None, 0)] * n_tok
    if order == ALL_ORDERS:
        best = details.best_matched_order()
        unigram = {o.start: o.status for o in details.occurrences.get(1, [])}
        return [(MATCHED, b) if b else (unigram.get(t), 1) for t, b in enumerate(best)]
    for occ in details.occurrences.get(order, []):
        for t in range(occ.start, occ.end):
            current = result[t][0]
            if current is None or _RANK[occ.status] > _RANK[current]:
                result[t] = (occ.status, order)
    return result
