"""What the window is showing: the loaded files and their scores (built in the worker, read on the GUI thread)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..core import BleuConfig, BleuScore, Evaluator, RowScores, SegmentFile
from ..core.evaluate import scaled_progress


@dataclass(frozen=True)
class Session:
    candidate: SegmentFile
    references: list[SegmentFile]
    config: BleuConfig
    evaluator: Evaluator
    stats: np.ndarray
    sentences: RowScores
    corpus: BleuScore

    @property
    def n_sentences(self) -> int:
        return len(self.candidate.lines)

    def details(self, index: int):
        return self.evaluator.details(index, self.candidate.lines[index])

    @property
    def encodings(self) -> str:
        seen = {}
        for f in [self.candidate, *self.references]:
            seen.setdefault(f.encoding + (" (detected)" if f.detected else ""), []).append(f.name)
        if len(seen) == 1:
            return next(iter(seen))
        return "; ".join(f"{enc}: {', '.join(names)}" for enc, names in seen.items())


def score(candidate: SegmentFile, references: list[SegmentFile], config: BleuConfig,
          progress: Callable[[float], None] | None = None) -> Session:
    """Build the evaluator and score the candidate; ``progress`` may raise Cancelled."""
    evaluator = Evaluator([r.lines for r in references], config, progress=scaled_progress(progress, 0.0, 0.5))
    stats = evaluator.statistics(candidate.lines, progress=scaled_progress(progress, 0.5, 0.45))
    sentences = evaluator.sentence_scores(stats)
    corpus = evaluator.corpus_score(stats)
    if progress is not None:
        progress(1.0)
    return Session(candidate, references, config, evaluator, stats, sentences, corpus)
