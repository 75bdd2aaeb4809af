"""What the window is showing: the loaded files and their scores (built in the worker, read on the GUI thread)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from ..core import BleuConfig, BleuScore, Evaluator, RowScores, SegmentFile
from ..core.readers import check_same_length, expand_paths, read_segments


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


def read_files(candidate: str | Path, references: Sequence[str | Path], encoding: str = "auto",
               progress: Callable[[float], None] | None = None) -> tuple[SegmentFile, list[SegmentFile]]:
    """Read and check the input files (raises the core's InputError with its clear message)."""
    ref_paths = expand_paths(references)
    files = []
    paths = [Path(candidate), *ref_paths]
    for i, path in enumerate(paths):
        if progress is not None:
            progress(i / len(paths))
        files.append(read_segments(path, encoding))
    check_same_length(files)
    return files[0], files[1:]


def score(candidate: SegmentFile, references: list[SegmentFile], config: BleuConfig,
          progress: Callable[[float], None] | None = None) -> Session:
    """Build the evaluator and score the candidate; ``progress`` may raise Cancelled."""
    def part(start, span):
        return None if progress is None else (lambda f: progress(start + span * f))

    evaluator = Evaluator([r.lines for r in references], config, progress=part(0.0, 0.5))
    stats = evaluator.statistics(candidate.lines, progress=part(0.5, 0.45))
    sentences = evaluator.sentence_scores(stats)
    corpus = evaluator.corpus_score(stats)
    if progress is not None:
        progress(1.0)
    return Session(candidate, references, config, evaluator, stats, sentences, corpus)
