"""What-if editing: a system's candidate lines with some sentences rewritten, and the scores they would get.

Corpus statistics are sums over sentences, so an edit re-scores its own row
only: the edited sentence is tokenized and matched alone
(:meth:`SentenceDetails.statistics` gives the row the corpus scorer would
make). Where the variant's corpus score depends on the summed statistics alone
(sacreBLEU), a running sum is kept edit by edit; otherwise the edited rows
replace the originals in a copy of the statistics. Input files are never
touched; :func:`edited_lines` gives the text to save elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..metrics.account import Explanation
from ..metrics.bleu.details import SentenceDetails
from ..metrics.bleu.explain import explain_sentence
from ..metrics.bleu.metric import Bleu
from ..metrics.bleu.scores import BleuScore, RowScores


@dataclass(frozen=True)
class ScoredLine:
    """One candidate line as the scorer sees it: its match details, statistics row, scores and explanation."""

    text: str
    details: SentenceDetails
    stats: np.ndarray
    scores: RowScores
    explanation: Explanation

    @property
    def score(self) -> float:
        return float(self.scores.score[0])


@dataclass(frozen=True)
class BleuLines:
    """One system's lines as BLEU scored them: the metric, the lines, their statistics and corpus score, and the
    names of the references (what the explanation calls them)."""

    bleu: Bleu
    lines: list[str]
    stats: np.ndarray
    corpus: BleuScore
    reference_names: Sequence[str]


def scored_line(system: BleuLines, index: int) -> ScoredLine:
    """Sentence ``index`` as BLEU scored it: its details, its own statistics row, scores and explanation."""
    return _scored(system, system.lines[index], system.bleu.details(index, system.lines[index]),
                   system.stats[index:index + 1])


def _scored(system: BleuLines, text: str, details: SentenceDetails, stats: np.ndarray) -> ScoredLine:
    """``text`` with its details and one-row statistics, scored and explained by the variant."""
    scores = system.bleu.sentence_rows(stats)
    return ScoredLine(text, details, stats[0], scores,
                      explain_sentence(details, stats[0].tolist(), scores, system.bleu.config,
                                       system.reference_names))


class WhatIf:
    """Edits of one system's sentences, scored under the settings the system was scored with."""

    def __init__(self, system: BleuLines, edits: Mapping[int, str] | None = None):
        self.system = system
        self.texts: dict[int, str] = {}
        self._rows: dict[int, np.ndarray] = {}  # statistics rows of the edited sentences
        self._total: np.ndarray | None = None   # column sums with the edits in place, kept edit by edit
        for index, text in (edits or {}).items():
            self.set_text(index, text)

    @property
    def original(self) -> list[str]:
        return self.system.lines

    @property
    def _stats(self) -> np.ndarray:
        return self.system.stats

    def score_line(self, index: int, text: str) -> ScoredLine:
        """Details, statistics and scores of ``text`` as sentence ``index`` (nothing is stored)."""
        bleu = self.system.bleu
        cfg = bleu.config
        details = bleu.details(index, text)
        # NLTK's method5/7 also read 5-grams: their rows need more orders than the panes show.
        counted = details if cfg.stats_order == cfg.max_order else bleu.details(index, text, cfg.stats_order)
        stats = np.asarray([counted.statistics(cfg.stats_order)], dtype=self._stats.dtype)
        return _scored(self.system, text, details, stats)

    def set_text(self, index: int, text: str) -> ScoredLine:
        """Make ``text`` sentence ``index``'s candidate (the original text removes the edit)."""
        line = self.score_line(index, text)
        if text == self.original[index]:
            self.revert(index)
        else:
            self._set_row(index, line.stats)
            self.texts[index] = text
        return line

    def _set_row(self, index: int, row: np.ndarray | None) -> None:
        if self._total is None:
            self._total = self._stats.sum(axis=0)
        before = self._rows.get(index, self._stats[index])
        after = self._stats[index] if row is None else row
        self._total = self._total + (after - before)  # integer counts: the running sum stays exact
        if row is None:
            self._rows.pop(index, None)
        else:
            self._rows[index] = row

    def revert(self, index: int) -> None:
        """Drop the edit of sentence ``index``."""
        self.texts.pop(index, None)
        if index in self._rows:
            self._set_row(index, None)

    def revert_all(self) -> None:
        self.texts.clear()
        self._rows.clear()
        self._total = None

    def text(self, index: int) -> str:
        return self.texts.get(index, self.original[index])

    def corpus(self) -> BleuScore:
        """The corpus score with every edit in place (the run's own score when nothing is edited)."""
        if not self._rows or self._total is None:
            return self.system.corpus
        bleu = self.system.bleu
        if bleu.corpus_from_sums:  # the score depends on the sums alone: one summed row scores the same
            return bleu.corpus_score(self._total[None, :])
        stats = self._stats.copy()
        for index, row in self._rows.items():
            stats[index] = row
        return bleu.corpus_score(stats)


def edited_lines(original: Sequence[str], edits: Mapping[int, str]) -> list[str]:
    """``original`` with the lines of ``edits`` (index -> text) replaced; an edit may not hold a line break."""
    lines = list(original)
    for index, text in edits.items():
        if "\n" in text or "\r" in text:
            raise ValueError(f"edit of line {index + 1} holds a line break")
        lines[index] = text
    return lines
