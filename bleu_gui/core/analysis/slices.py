"""Slices: which segments a run is restricted to, chosen by their metadata (the run scores them again as a
corpus of its own, see :func:`~bleu_gui.core.run.subset_run`).

Corpus scores are not averages of sentence scores, so a slice (one document,
one ``origlang``, the sentences a filter shows) is scored from its own summed
statistics, and its significance tests resample the slice's sentences only:
the numbers equal sacreBLEU's on the same subset of lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import InputError
from ..inputs.corpus import Context


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


def parse_conditions(texts: Sequence[str]) -> list[tuple[str, str]]:
    """``KEY=VALUE`` conditions (``--where``), as pairs."""
    out = []
    for text in texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--where {text!r}: give KEY=VALUE, e.g. doc=abc-123 or origlang=en")
        out.append((key.strip(), value.strip()))
    return out


def select(context: Context, n: int, conditions: Sequence[tuple[str, str]]) -> list[int]:
    """Of ``n`` segments, those whose metadata equals every condition (``doc`` and the input's columns, e.g.
    ``origlang``)."""
    columns = context.columns()
    rows = list(range(n))
    for key, value in conditions:
        if key not in columns:
            have = ", ".join(columns) or "none (the input has no documents or metadata)"
            raise InputError(f"no column {key!r} to select by (columns: {have})")
        values = columns[key]
        rows = [i for i in rows if values[i] == value]
    if not rows:
        raise InputError(f"no segment has {' and '.join(f'{k} = {v}' for k, v in conditions)}")
    return rows


def describe(conditions: Sequence[tuple[str, str]]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in conditions)
