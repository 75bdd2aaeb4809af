"""Segment scores given from outside (COMET, MetricX, a file of MQM scores) as a metric like the others.

The scores are read, not computed (:mod:`..inputs.score_files` attaches them to each system's file); the corpus
score is their mean over the segments that have one (:mod:`..segment_means`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ...errors import ConfigError, term
from ...inputs.annotations import attach_annotations
from ...inputs.corpus import Context
from ...inputs.run_inputs import InputRequest
from ...inputs.score_files import ImportedColumn, attach_scores
from ...inputs.text_files import SegmentFile
from ..account import Account, Advice, Explanation, Section
from ..base import Family, Metric, Progress, Score
from ..segment_means import SegmentMeans


@dataclass(frozen=True, kw_only=True)
class ImportedScore(Score):
    """The mean of a system's imported segment scores, and how many were present."""

    present: int
    missing: int

    def fields(self) -> dict[str, object]:
        return {"segments": self.present, "missing": self.missing}

    @property
    def absent(self) -> bool:
        return self.present == 0

    def text(self, width: int = 2, confidence: tuple[float, float] | None = None) -> str:
        if self.absent:
            return f"{self.metric}|{self.signature} = no scores {self.breakdown()}"
        return f"{super().text(width, confidence)} {self.breakdown()}"

    def breakdown(self) -> str:
        if self.absent:
            return f"(every one of the {self.missing:,} segment scores is missing)"
        return f"(mean of {self.present:,} segment scores{f'; {self.missing:,} missing' if self.missing else ''})"

    def columns(self) -> list[tuple[str, str]]:
        return [("scored", f"{self.present:,}"), ("missing", f"{self.missing:,}")]


@dataclass(frozen=True)
class ImportedConfig:
    """A column of a score file: the metric's name (the column's), whether higher is better, and the file."""

    name: str
    higher_is_better: bool = True
    source: str = ""  # the file's name, for the signature

    @property
    def key(self) -> str:
        return self.name

    def for_other_files(self) -> ImportedConfig:
        return self

    def for_target_language(self, languages: tuple[str, str] | None, declared: str = "") -> tuple[ImportedConfig, str]:
        return self, ""

    def advice(self, references: Sequence[Sequence[str]], language: str) -> Advice | None:
        return None

    def non_default(self) -> list[str]:
        return []

    @property
    def significance(self) -> bool:
        return True

    def why_no_tests(self) -> str:
        return ""

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.name, "higher_is_better": self.higher_is_better, "source": self.source}

    def validated(self) -> ImportedConfig:
        if not self.name:
            raise ConfigError("an imported metric needs a name")
        return self


@dataclass(frozen=True)
class ImportedEvidence:
    """What an imported segment score is: the value (None when missing) and where it came from."""

    metric: str
    value: float | None
    source: str

    def to_dict(self) -> dict[str, object]:
        return {"metric": self.metric, "value": self.value, "source": self.source}


class ImportedMetric(SegmentMeans):
    """Segment scores read from a file (see the module); ``statistics`` of bare lines cannot exist."""

    def __init__(self, config: ImportedConfig, n_lines: int):
        super().__init__(n_lines)
        self.config = config
        self.name = self.key = config.name
        self.higher_is_better = config.higher_is_better

    def read_from(self) -> str | None:
        return self.config.source

    @property
    def notes(self) -> tuple[str, ...]:
        return (f"{self.name}: segment scores from {self.config.source}, not computed from the text (an edit does "
                "not change them); the corpus score is their mean",)

    def signature(self, sentence_level: bool = False, resampling: dict[str, object] | None = None) -> str:
        parts = [f"file:{self.config.source}", f"column:{self.name}", "mean",
                 "higher-better" if self.higher_is_better else "lower-better"]
        if resampling:
            parts += [f"{k}:{v}" for k, v in resampling.items()]
        return "|".join(parts)

    def statistics(self, lines: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        raise ConfigError(f"{self.name}: imported scores are read from their file, not computed from text")

    def system_statistics(self, system: SegmentFile, progress: Progress | None = None) -> np.ndarray:
        values = system.scores.get(self.name)
        if values is None:
            raise ConfigError(f"{self.name}: no scores for {system.name} (import them from a scores file)")
        return self.rows(np.asarray(values, dtype=np.float64))

    def corpus_score(self, stats: np.ndarray) -> Score:
        present = int(stats[:, 1].sum())
        return ImportedScore(metric=self.name, score=float(self.scores_of_sums(stats.sum(axis=0))[0]),
                             signature=self.signature(), present=present, missing=len(stats) - present)

    def sentence_score(self, stats: np.ndarray, index: int) -> Score:
        present = int(stats[index, 1])
        return ImportedScore(metric=self.name, score=float(stats[index, 0]) if present else math.nan,
                             signature=self.signature(True), present=present, missing=1 - present)

    def account(self, index: int, hypothesis: str, row: np.ndarray, reference_names: Sequence[str]) -> Account:
        """The score read for this segment (its statistics ``row``: the score and whether it is present)."""
        value = float(row[0]) if row[1] > 0 else None
        evidence = ImportedEvidence(self.name, value, self.config.source)
        said = "missing (left out of the mean)" if value is None else f"{value:g}"
        return Account(Explanation(f"{self.name} {said}: read from {self.config.source}", [Section(
            "Where it comes from", [f"column {self.name} of {self.config.source}, for this system and segment",
                                    "not computed from the text: an edit of the candidate does not change it",
                                    f"the corpus score is the mean of the segments' scores "
                                    f"({'higher' if self.higher_is_better else 'lower'} is better)"])]),
                       evidence.to_dict(), value)


RESERVED = frozenset({"bleu", "chrf", "ter", "chrf2", "chrf2++"})


def imported_configs(columns: Sequence[ImportedColumn], lower_better: Sequence[str] = ()) -> list[ImportedConfig]:
    """The metrics of imported score columns; ``lower_better``: the names whose lower scores are better (each
    must be one of the columns)."""
    names = [c.name for c in columns]
    unknown = [n for n in lower_better if n not in names]
    if unknown:
        raise ConfigError(f"{term('lower_better')} {' '.join(unknown)}: not a column of the scores files "
                          f"({', '.join(names) or 'none read'})")
    for name in names:
        if name.lower() in RESERVED:
            raise ConfigError(f"a scores column is named {name!r}, as a built-in metric: rename the column")
    return [ImportedConfig(c.name, c.name not in lower_better, c.path.name) for c in columns]


def choose_imported(configs: Sequence[ImportedConfig], wanted: Sequence[str] | None,
                    built_in: Sequence[str] = ()) -> tuple[ImportedConfig, ...]:
    """The imported metrics ``-m`` names, in its order (every one of ``configs`` when it names none: None);
    :class:`InputError` for a name that is neither ``built_in`` nor a column read."""
    if wanted is None:
        return tuple(configs)
    by_name = {c.name: c for c in configs}
    unknown = [n for n in wanted if n not in by_name and n not in built_in]
    if unknown:
        columns = f", or a column of {term('scores')}: {', '.join(by_name)}" if by_name else f" (or a column of {term('scores')})"
        raise ConfigError(f"{term('metrics')}: unknown metric {', '.join(unknown)}; choose {', '.join(built_in)}{columns}")
    return tuple(by_name[n] for n in wanted if n in by_name)


def attach_imported(request: InputRequest, systems: Sequence[SegmentFile], names: Sequence[str],
                    context: Context) -> tuple[list[SegmentFile], Context, tuple[ImportedConfig, ...]]:
    """The request's score files and annotation files (human MQM ratings) read onto ``systems`` (``names``: their
    display names), the context with the notes on what was left out, and the imported metrics (none when the
    request has no score files)."""
    files, notes = list(systems), []
    if request.annotations:
        files, said = attach_annotations(request.annotations, files, names, context, request.scores_partial,
                                         request.encoding)
        notes += said
    if not request.scores:
        if request.lower_better or (request.scores_partial and not request.annotations):
            raise ConfigError(f"{term('lower_better')} and {term('scores_partial')} apply to {term('scores')}")
        return files, replace(context, notes=context.notes + tuple(notes)), ()
    files, columns, said = attach_scores(request.scores, files, names, context, request.scores_partial,
                                         request.encoding)
    configs = tuple(imported_configs(columns, request.lower_better))
    return files, replace(context, notes=context.notes + tuple(notes + said)), configs


def bind(config: ImportedConfig, references: Sequence[Sequence[str]], progress: Progress | None,
          like: Metric | None) -> ImportedMetric:
    return ImportedMetric(config, len(references[0]) if references else 0)


# Not chosen by a name of its own: a column of a scores file is the metric (see imported_configs).
FAMILY = Family("imported", "Imported scores", ImportedConfig, "imported.imported")
