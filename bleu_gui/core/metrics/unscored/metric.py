"""The stand-in of a run that nothing scores yet (see :mod:`.config`): every segment unscored, so every view that
shows a metric shows "not scored" where a number would be, and says what could score the run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...inputs.text_files import SegmentFile
from ..account import Account, Explanation, Section
from ..base import Metric, Progress, Score
from ..segment_means import SegmentMeans
from .config import TITLE, WHAT_COULD, UnscoredConfig


@dataclass(frozen=True, kw_only=True)
class UnscoredScore(Score):
    """No score: nothing scores the run yet."""

    metric: str = TITLE
    stand_in: ClassVar[bool] = True

    @property
    def absent(self) -> bool:
        return True

    def breakdown(self) -> str:
        return "(no metric: nothing scores this run yet)"


class Unscored(SegmentMeans):
    """Every segment unscored (see the module)."""

    key = "unscored"
    name = TITLE

    def __init__(self, config: UnscoredConfig, n_lines: int):
        super().__init__(n_lines)
        self.config = config

    @property
    def notes(self) -> tuple[str, ...]:
        return (f"Nothing scores this run yet: QA, the review desk, lengths and the scorecard need no score. What "
                f"could score it: {WHAT_COULD}",)

    def signature(self, sentence_level: bool = False, resampling: dict[str, object] | None = None) -> str:
        return "none"

    def statistics(self, lines: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        return self.rows(np.full(len(lines), np.nan))

    def system_statistics(self, system: SegmentFile, progress: Progress | None = None) -> np.ndarray:
        return self.statistics(system.lines, progress)

    def corpus_score(self, stats: np.ndarray) -> Score:
        return UnscoredScore(score=float("nan"), signature="none")

    def sentence_score(self, stats: np.ndarray, index: int) -> Score:
        return UnscoredScore(score=float("nan"), signature="none")

    def account(self, index: int, hypothesis: str, row: np.ndarray, reference_names: Sequence[str]) -> Account:
        return Account(Explanation("Not scored yet: nothing scores this run", [
            Section("What could score it", [WHAT_COULD])]), {"score": None}, None)


def bind(config: UnscoredConfig, references: Sequence[Sequence[str]], progress: Progress | None,
         like: Metric | None, source: Sequence[str] | None = None) -> Unscored:
    n = len(references[0]) if references else (len(source) if source is not None else 0)
    return Unscored(config, n)
