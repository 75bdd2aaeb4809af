"""Slices: which segments a run is restricted to, chosen by their metadata (the run scores them again as a
corpus of its own, see :func:`~bleu_gui.core.run.subset_run`).

Corpus scores are not averages of sentence scores, so a slice (one document,
one ``origlang``, the sentences a filter shows) is scored from its own summed
statistics, and its significance tests resample the slice's sentences only:
the numbers equal sacreBLEU's on the same subset of lines.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Slice:
    """Which segments of the whole run a sliced run holds, and what the whole scored."""

    description: str            # e.g. "doc = abc-123" or "origlang = en, 212 sentences shown by the filter"
    rows: tuple[int, ...]       # the whole run's segment index of each sliced segment
    total: int                  # segments in the whole run
    whole: tuple[tuple[float, ...], ...]  # per metric of the run, each system's corpus score on the whole run

    @property
    def summary(self) -> str:
        return f"slice: {self.description} ({len(self.rows):,} of {self.total:,} segments)"
