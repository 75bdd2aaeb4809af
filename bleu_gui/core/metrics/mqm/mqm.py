"""MQM from human error annotations (Freitag et al. 2021, as Google scores its WMT MQM data and as its Marot app
does): per rater and segment the negated sum of the weights of the errors the rater marked, averaged over the
segment's raters; the corpus score is the mean over rated segments (an unrated segment is missing, never 0).
Higher is better; 0 is no error.

Google's weights are the defaults: Major 5, a Major Non-translation 25, Minor 1, a Minor Fluency/Punctuation
0.1, Neutral and No-error 0 (Critical, where a file has it, 25 as well). Each is a setting. With them every
segment score equals Google's own ``mqm_*.avg_seg_scores.tsv`` (tests check the WMT21 TED en-de file).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ...errors import ConfigError, InputError, term
from ...inputs.ratings import Ratings
from ...inputs.text_files import SegmentFile
from ..account import Account, Shown, plural
from ..base import Metric, Progress, Score
from ..segment_means import SegmentMeans
from .config import MqmConfig, rater_scores, segment_score


def ratings_of(system: SegmentFile) -> tuple[Ratings | None, ...]:
    """A system's ratings; :class:`InputError` when it has none."""
    if system.annotations is None:
        raise InputError(f"MQM needs human error annotations, and {system.name} has none: open an MQM table (Google's "
                         f"TSV, Marot's) or give the annotations with {term('annotations', 'FILE')}")
    return system.annotations


@dataclass(frozen=True, kw_only=True)
class MqmScore(Score):
    """A system's MQM: the mean over its rated segments."""

    metric: str = "MQM"
    rated: int
    unrated: int

    def fields(self) -> dict[str, object]:
        return {"rated": self.rated, "unrated": self.unrated}

    @property
    def absent(self) -> bool:
        return self.rated == 0

    def text(self, width: int = 2, confidence: tuple[float, float] | None = None) -> str:
        return super().text(width, confidence) + ("" if self.absent else f" {self.breakdown()}")

    def breakdown(self) -> str:
        if self.absent:
            return f"(no rater rated {'this segment' if self.unrated == 1 else f'any of the {self.unrated:,} segments'})"
        return f"(mean of {plural(self.rated, 'rated segment')}{f'; {self.unrated:,} unrated' if self.unrated else ''})"

    def columns(self) -> list[tuple[str, str]]:
        return [("rated", f"{self.rated:,}"), ("unrated", f"{self.unrated:,}")]


class Mqm(SegmentMeans):
    """MQM of a system's ratings (see the module); its statistics come from the ratings, not the text."""

    key = "mqm"
    reads_attached = True
    name = "MQM"
    evidence_shown = True
    shows_human_errors = True

    def __init__(self, n_lines: int, config: MqmConfig = MqmConfig()):
        super().__init__(n_lines)
        self.config = config.validated()
        self.system: SegmentFile | None = None  # the system whose segments it explains (see of_system)
        self.source: SegmentFile | None = None

    def of_system(self, system: SegmentFile, source: SegmentFile | None = None) -> Mqm:
        explains = copy.copy(self)
        explains.system, explains.source = system, source
        return explains

    @property
    def notes(self) -> tuple[str, ...]:
        return ("MQM: human error annotations, not computed from the text (an edit does not change them); each "
                "segment is the mean of its raters' negated error weights, the corpus the mean over rated segments",)

    def signature(self, sentence_level: bool = False, resampling: dict[str, object] | None = None) -> str:
        return self.config.signature(resampling)

    def statistics(self, lines: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        raise ConfigError("MQM is read from human annotations, not computed from text")

    def system_statistics(self, system: SegmentFile, progress: Progress | None = None) -> np.ndarray:
        return self.rows(np.array([segment_score(r, self.config) for r in ratings_of(system)], np.float64))

    def corpus_score(self, stats: np.ndarray) -> MqmScore:
        rated = int(stats[:, 1].sum())
        return MqmScore(score=float(self.scores_of_sums(stats.sum(axis=0))[0]), signature=self.signature(),
                        rated=rated, unrated=len(stats) - rated)

    def sentence_score(self, stats: np.ndarray, index: int) -> MqmScore:
        rated = int(stats[index, 1])
        return MqmScore(score=float(stats[index, 0]) if rated else float("nan"), signature=self.signature(True),
                        rated=rated, unrated=1 - rated)

    def rater_scores(self, system: SegmentFile, segment: int) -> dict[str, float]:
        """Each rater's MQM of the segment (the negated sum of their errors' weights), in the files' order."""
        ratings = system.annotations or ()
        found = ratings[segment] if segment < len(ratings) else None
        return rater_scores(found, self.config) if found is not None else {}

    def system_details(self, system: SegmentFile, rows: Sequence[int] | None = None) -> dict[str, object]:
        """The errors by category and severity (over all raters) and each rater's score (the mean over the
        segments the rater rated) of a system's segments ``rows`` (all)."""
        ratings = ratings_of(system)
        chosen = [ratings[i] for i in (rows if rows is not None else range(len(ratings)))]
        categories: dict[str, Counter[str]] = {}
        by_rater: dict[str, list[float]] = {}
        for r in chosen:
            if r is None:
                continue
            for error in r.errors:
                categories.setdefault(error.category or "(none)", Counter())[error.severity] += 1
            for rater, score in rater_scores(r, self.config).items():
                by_rater.setdefault(rater, []).append(score)
        return {"categories": {c: dict(sorted(n.items())) for c, n in sorted(categories.items())},
                "raters": {rater: sum(s) / len(s) for rater, s in sorted(by_rater.items())}}

    def _explained(self) -> SegmentFile:
        if self.system is None:
            raise ConfigError("MQM explains a system's segments: call of_system(system) first")
        return self.system

    def account(self, index: int, hypothesis: str, row: np.ndarray, reference_names: Sequence[str]) -> Account:
        """Why the system's segment scores what it does: its raters, their errors with weights and spans (the
        system's text, not ``hypothesis``: an edit does not change what the raters marked)."""
        from .explain import mqm_account  # loaded when a segment is explained, not at every start

        system = self._explained()
        return mqm_account(self.config, ratings_of(system)[index])

    def shown(self, index: int, hypothesis: str, system: str, reference_names: Sequence[str]) -> Shown:
        from .explain import mqm_shown

        explained = self._explained()
        source = self.source.lines[index] if self.source is not None else None
        return mqm_shown(self.config, system, explained.lines[index], source, ratings_of(explained)[index])


def bind(config: MqmConfig, references: Sequence[Sequence[str]], progress: Callable[[float], None] | None,
         like: Metric | None) -> Mqm:
    return Mqm(len(references[0]) if references else 0, config)
