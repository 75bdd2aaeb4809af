"""TER, translation edit rate (Snover et al. 2006), as sacreBLEU 2.x computes it (``sacrebleu/metrics/ter.py``).

A segment's statistics are [the fewest edits over its references, the mean length of its references]; the
corpus TER is the summed edits over the summed mean lengths, times 100 (lower is better). What is matched,
as sacreBLEU has it:

- words are sacreBLEU's Tercom tokenizer's (lowercased unless case-sensitive; normalised, punctuation removed,
  Asian characters split only when asked); a reference line goes through the tokenizer twice (sacreBLEU
  pre-processes references when it caches them, then again when it reads their words), a hypothesis once;
- the edits are those of sacreBLEU's greedy shift search and beam edit distance (:mod:`.ter_search`);
- an empty reference counts every hypothesis word as an edit; edits over no reference words score 100
  (1.0), no edits over none 0.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..account import Account, Shown
from ..base import Metric, Score
from ..rates import edits_per_length
from .config import TerConfig
from .search import Found, SearchRecord, fewest_edits_possible, search_pairs

if TYPE_CHECKING:
    from .evidence import TerEvidence

Progress = Callable[[float], None]
_FILES_REMEMBERED = 32  # scored files whose edited words are kept: more than the window's systems


@dataclass(frozen=True, kw_only=True)
class TerScore(Score):
    """One TER figure: edits over the (mean) reference length."""

    metric: str = "TER"
    num_edits: float
    ref_length: float

    def fields(self) -> dict[str, object]:
        return {"num_edits": self.num_edits, "ref_length": self.ref_length}

    def columns(self) -> list[tuple[str, str]]:
        return [("edits", f"{self.num_edits:g}"), ("ref_len", f"{self.ref_length:g}")]


@dataclass(frozen=True)
class _EditedWords:
    """The words the search edited in each line of one scored file (see :meth:`Ter.flagged`), as one array."""

    lines: Sequence[str]
    flat: np.ndarray   # the lines' edited word indices, one after the other
    ends: np.ndarray   # where each line's end in ``flat``

    @classmethod
    def of(cls, lines: Sequence[str], edited: Sequence[np.ndarray]) -> _EditedWords:
        ends = np.cumsum([len(e) for e in edited], dtype=np.int64)
        flat = np.concatenate(edited).astype(np.int32) if len(edited) else np.zeros(0, np.int32)
        return cls(lines, flat, ends)

    def holds(self, rows: Sequence[int], lines: Sequence[str]) -> bool:
        """Whether these are the very lines (or equal ones) at segments ``rows``."""
        return all(i < len(self.lines) and (self.lines[i] is line or self.lines[i] == line)
                   for i, line in zip(rows, lines))

    def words_of(self, rows: Sequence[int]) -> list[np.ndarray]:
        return [self.flat[(self.ends[i - 1] if i else 0):self.ends[i]] for i in rows]


class _Words:
    """Word ids shared by references and hypotheses (the shift search compares ids, not strings)."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self._names: list[str] = []  # the word of each id, taken from ``ids`` when a word is decoded

    def encode(self, text: str) -> np.ndarray:
        ids = self.ids
        return np.array([ids.setdefault(w, len(ids)) for w in text.split()], np.int64)

    def decode(self, ids: np.ndarray) -> list[str]:
        if len(self._names) < len(self.ids):  # a dict keeps insertion order: the word of id i is the i-th key
            self._names += list(self.ids)[len(self._names):]
        return [self._names[i] for i in ids.tolist()]


class Ter(Metric):
    """TER against one set of references (see the module)."""

    key = "ter"
    name = "TER"
    higher_is_better = False
    evidence_shown = True

    def __init__(self, references: Sequence[Sequence[str]], config: TerConfig = TerConfig(),
                 progress: Progress | None = None, like: Ter | None = None):
        self.config = config.validated()
        self.tokenize = self.config.tokenizer()
        self.reference_lines = [list(r) for r in references]
        self._n_lines = len(references[0]) if references else 0
        self.nrefs: int | str = len(references)
        self._words = _Words()
        # What the search edited in the files scored last (their lines are the run's: no copy is kept).
        self._edited: deque[_EditedWords] = deque(maxlen=_FILES_REMEMBERED)
        tok = self.tokenize
        self.reference_words = []
        for k, lines in enumerate(references):
            if progress is not None:
                progress(k / max(len(references), 1))
            self.reference_words.append([self._words.encode(tok(tok(line.rstrip()).rstrip())) for line in lines])
        lengths = np.array([[len(w) for w in ref] for ref in self.reference_words], np.int64).reshape(
            len(references), self._n_lines)
        # sacreBLEU's statistic is the mean reference length, a float; with one reference, or lengths that
        # divide evenly, every statistic is a whole number and resampled sums are exact.
        self.mean_lengths = lengths.sum(axis=0) / max(len(references), 1)
        self.integer_statistics = bool(np.all(self.mean_lengths == np.round(self.mean_lengths)))

    @property
    def n_lines(self) -> int:
        return self._n_lines

    def signature(self, sentence_level: bool = False, resampling: dict[str, object] | None = None) -> str:
        return self.config.signature(self.nrefs, resampling)

    def hypothesis_words(self, line: str) -> np.ndarray:
        """A hypothesis line as the shift search reads it (tokenized once)."""
        return self._words.encode(self.tokenize(line.rstrip()))

    def words(self, ids: np.ndarray) -> list[str]:
        """The words of word ids (of :meth:`hypothesis_words` or :attr:`reference_words`)."""
        return self._words.decode(ids)

    def statistics(self, lines: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        if len(lines) != self._n_lines:
            raise ValueError(f"system has {len(lines)} lines, references have {self._n_lines}")
        hyps = [self.hypothesis_words(line) for line in lines]
        found = self.search(hyps, range(len(lines)), progress)
        # The words the search edited are kept (a few bytes a segment): which human-marked errors TER saw is then
        # read from them, not searched again (the search is most of TER's time).
        self._edited.append(_EditedWords.of(lines, found.edited))
        stats = np.empty((len(lines), 2), np.float64)
        stats[:, 0] = found.edits
        stats[:, 1] = self.mean_lengths
        return stats

    def search(self, hyps: Sequence[np.ndarray], rows: Sequence[int], progress: Progress | None = None,
               record: bool = False) -> Found:
        """Each line's fewest edits over the references (``hyps``: the lines' word ids, of segments ``rows``), with
        the reference they are counted against and what the search found there (:class:`.search.Searched`).

        A line is searched first against the reference that could need the fewest (:func:`.search.fewest_edits_possible`:
        the words one side has more of), then against another only where that one could need fewer edits than
        found: the minimum is the same, and with WMT21 en-de's three references 43% of the pairs are searched.
        Of references with as few edits, the first searched is kept."""
        rows = list(rows)
        refs = self.reference_words
        bounds = (np.array([fewest_edits_possible(hyps, [r[i] for i in rows]) for r in refs]) if len(refs) > 1
                  else None)
        order = np.argsort(bounds, axis=0, kind="stable") if bounds is not None else np.zeros((1, len(hyps)), int)
        every = np.arange(len(hyps))
        best = np.full(len(hyps), np.iinfo(np.int64).max, np.int64)
        reference = np.zeros(len(hyps), np.int64)
        edited: list[np.ndarray] = [np.zeros(0, np.int64)] * len(hyps)
        records: list[SearchRecord | None] = [None] * len(hyps)
        for j, chosen in enumerate(order):
            def part(f: float, j: int = j) -> None:
                if progress is not None:
                    progress((j + f) / len(order))

            todo = every if bounds is None else np.flatnonzero(bounds[chosen, every] < best)
            pairs, picks = todo.tolist(), chosen.tolist()
            found = search_pairs([hyps[t] for t in pairs], [refs[picks[t]][rows[t]] for t in pairs], part,
                                 None if bounds is None else bounds[chosen[todo], todo], record)
            for k, (t, count, words) in enumerate(zip(pairs, found.edits.tolist(), found.edited)):
                if count < best[t]:
                    best[t], reference[t], edited[t] = count, picks[t], words
                    if record:
                        records[t] = found.records[k]
        return Found(best, reference, edited, [r for r in records if r is not None])

    def scores_of_sums(self, sums: np.ndarray, float32: bool = False) -> np.ndarray:
        return edits_per_length(sums, float32)

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return edits_per_length(stats)

    def _score(self, edits: float, length: float, sentence_level: bool) -> TerScore:
        value = float(edits_per_length(np.array([[edits, length]]))[0])
        return TerScore(score=value, signature=self.signature(sentence_level), num_edits=edits, ref_length=length)

    def corpus_score(self, stats: np.ndarray) -> TerScore:
        total = stats.sum(axis=0)
        return self._score(float(total[0]), float(total[1]), False)

    def sentence_score(self, stats: np.ndarray, index: int) -> TerScore:
        return self._score(float(stats[index, 0]), float(stats[index, 1]), True)

    def evidence(self, index: int, hypothesis: str) -> TerEvidence:
        """Segment ``index``'s shifts and alignment (see :mod:`.evidence`)."""
        from .evidence import ter_evidence  # loaded when a segment is explained, not at every start

        return ter_evidence(self, index, hypothesis)

    def flagged(self, rows: Sequence[int], hypotheses: Sequence[str]) -> list[list[tuple[int, int]]]:
        """The candidate's words TER substitutes, deletes or shifts, placed in the text (Tercom's words are found in
        order; one the tokenizer changed past finding is left out): as the scoring found them, or searched again
        (together) for lines this metric has not scored."""
        from ..alignment import char_spans

        rows = list(rows)
        edited = next((e.words_of(rows) for e in reversed(self._edited) if e.holds(rows, hypotheses)),
                      None)
        if edited is None:
            edited = self.search([self.hypothesis_words(h) for h in hypotheses], rows).edited
        out: list[list[tuple[int, int]]] = []
        for hypothesis, words in zip(hypotheses, edited):
            if not len(words):
                out.append([])
                continue
            words_of_line = self.tokenize(hypothesis.rstrip()).split()  # the words hypothesis_words numbers
            spans = char_spans(hypothesis, words_of_line, not self.config.case_sensitive, "tercom")
            out.append([span for span in (spans[w] for w in words.tolist()) if span is not None])
        return out

    def account(self, index: int, hypothesis: str, row: np.ndarray, reference_names: Sequence[str]) -> Account:
        from .explain import explain_ter

        evidence = self.evidence(index, hypothesis)
        name = _reference_name(reference_names, evidence.reference)
        return Account(explain_ter(evidence, self.config, len(self.reference_lines), name), evidence.to_dict(),
                       evidence.score)

    def shown(self, index: int, hypothesis: str, system: str, reference_names: Sequence[str]) -> Shown:
        from .explain import ter_shown

        evidence = self.evidence(index, hypothesis)
        return ter_shown(evidence, system, _reference_name(reference_names, evidence.reference),
                         len(self.reference_lines) > 1)

    def statistics_table(self, stats: np.ndarray) -> tuple[list[str], np.ndarray]:
        return ["edits", "mean_ref_len"], stats


def _reference_name(names: Sequence[str], k: int) -> str:
    return names[k] if k < len(names) else f"reference {k + 1}"


def bind(config: TerConfig, references: Sequence[Sequence[str]], progress: Progress | None,
          like: Metric | None) -> Ter:
    return Ter(references, config, progress, like if isinstance(like, Ter) else None)
