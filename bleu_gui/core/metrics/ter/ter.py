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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..account import Account, Shown
from ..base import Metric, Score
from ..rates import edits_per_length
from .config import TerConfig
from .search import edit_counts, fewest_edits_possible

if TYPE_CHECKING:
    from .evidence import TerEvidence

Progress = Callable[[float], None]


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
        stats = np.empty((len(lines), 2), np.float64)
        stats[:, 0] = self._fewest_edits(hyps, progress)
        stats[:, 1] = self.mean_lengths
        return stats

    def _fewest_edits(self, hyps: list[np.ndarray], progress: Progress | None) -> np.ndarray:
        """Each line's fewest edits over the references. A line is searched first against the reference that
        could need the fewest (:func:`.search.fewest_edits_possible`: the words one side has more of), then against
        another only where that one could need fewer edits than found: the minimum is the same, and with WMT21
        en-de's three references 43% of the pairs are searched."""
        refs = self.reference_words
        rows = np.arange(len(hyps))
        bounds = np.array([fewest_edits_possible(hyps, r) for r in refs]) if len(refs) > 1 else None
        order = np.argsort(bounds, axis=0, kind="stable") if bounds is not None else np.zeros((1, len(hyps)), int)
        best = np.full(len(hyps), np.iinfo(np.int64).max, np.int64)
        for j, chosen in enumerate(order):
            def part(f: float, j: int = j) -> None:
                if progress is not None:
                    progress((j + f) / len(order))

            todo = rows if bounds is None else np.flatnonzero(bounds[chosen, rows] < best)
            counted = edit_counts([hyps[i] for i in todo], [refs[chosen[i]][i] for i in todo], part,
                                  None if bounds is None else bounds[chosen[todo], todo])
            best[todo] = np.minimum(best[todo], counted)
        return best

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
        order; one the tokenizer changed past finding is left out); the segments searched together."""
        from ..alignment import char_spans
        from .evidence import edited_words, ter_evidences

        out = []
        for hypothesis, evidence in zip(hypotheses, ter_evidences(self, rows, hypotheses)):
            spans = char_spans(hypothesis, evidence.hypothesis, not self.config.case_sensitive, "tercom")
            out.append([span for span in (spans[w] for w in edited_words(evidence)) if span is not None])
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
