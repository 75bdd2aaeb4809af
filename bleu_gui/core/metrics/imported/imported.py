"""Segment scores given from outside (COMET, MetricX, a file of MQM scores) as a metric like the others.

The scores are read, not computed (:mod:`..inputs.score_files` attaches them to each system's file); the corpus
score is their mean over the segments that have one (:mod:`..segment_means`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from ...errors import ConfigError, term
from ...inputs.annotations import attach_annotations, review_scores
from ...inputs.corpus import Context
from ...inputs.run_inputs import InputRequest
from ...inputs.score_files import attach_scores
from ...inputs.span_placement import placed_ratings, score_table, score_tables
from ...inputs.span_ratings import is_campaign, read_campaign, sniff
from ...inputs.text_files import SegmentFile
from ..account import Account, Explanation, Section, plural
from ..base import Metric, Progress, Score
from ..segment_means import SegmentMeans
from .config import ImportedConfig, imported_configs


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
        return super().text(width, confidence) + ("" if self.absent else f" {self.breakdown()}")

    def breakdown(self) -> str:
        if self.absent:
            return "(the segment score is missing)" if self.missing == 1 else (
                f"(every one of the {self.missing:,} segment scores is missing)")
        return f"(mean of {plural(self.present, 'segment score')}{f'; {self.missing:,} missing' if self.missing else ''})"

    def columns(self) -> list[tuple[str, str]]:
        return [("scored", f"{self.present:,}"), ("missing", f"{self.missing:,}")]


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

    reads_attached = True

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
        scores = np.asarray(values, dtype=np.float64)
        self.decimals = max(self.decimals, _decimals_of(scores))
        return self.rows(scores)

    def corpus_score(self, stats: np.ndarray) -> Score:
        present = int(stats[:, 1].sum())
        return ImportedScore(metric=self.name, score=float(self.scores_of_sums(stats.sum(axis=0))[0]),
                             signature=self.signature(), present=present, missing=len(stats) - present,
                             decimals=self.decimals)

    def sentence_score(self, stats: np.ndarray, index: int) -> Score:
        present = int(stats[index, 1])
        return ImportedScore(metric=self.name, score=float(stats[index, 0]) if present else math.nan,
                             signature=self.signature(True), present=present, missing=1 - present,
                             decimals=self.decimals)

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


def bind(config: ImportedConfig, references: Sequence[Sequence[str]], progress: Progress | None,
          like: Metric | None) -> ImportedMetric:
    metric = ImportedMetric(config, len(references[0]) if references else 0)
    if isinstance(like, ImportedMetric) and like.config == config:  # a slice shows its whole run's decimals
        metric.decimals = like.decimals
    return metric


def attach_imported(request: InputRequest, systems: Sequence[SegmentFile], names: Sequence[str],
                    context: Context) -> tuple[list[SegmentFile], Context, tuple[ImportedConfig, ...]]:
    """The request's score files and annotation files (human MQM ratings) read onto ``systems`` (``names``: their
    display names), the context with the notes on what was left out, and the imported metrics (none when the
    request has no score files)."""
    files, notes, encoding = list(systems), [], request.encoding
    # A Pearmut campaign file given beside a log says what an older log's items showed: it is no ratings file.
    campaign_paths = [p for p in (*request.annotations, *request.scores) if is_campaign(p, encoding)]
    campaigns = [read_campaign(p, encoding) for p in campaign_paths]
    annotations = [p for p in request.annotations if p not in campaign_paths]
    request = replace(request, annotations=tuple(annotations),
                      scores=tuple(p for p in request.scores if p not in campaign_paths))
    # ESA's and Pearmut's ratings carry a human segment score beside their spans: given as annotations, each file is
    # read and placed once, for its spans and its score (its notes said once, with the spans); given as scores,
    # only the score.
    placed = {str(p): placed_ratings(p, files, names, context, encoding, campaigns) for p in request.annotations
              if sniff(p, encoding)}
    if request.annotations:
        files, said = attach_annotations(request.annotations, files, names, context, request.scores_partial,
                                         encoding, placed)
        notes += said
    tables = [t for read, where, _ in placed.values() if (t := score_table(read, where, names)) is not None]
    tables += [t for t in (review_scores(p, encoding) for p in request.annotations if str(p) not in placed)
               if t is not None]
    scored = [p for p in request.scores if sniff(p, encoding)]
    scored_tables, said = score_tables(scored, files, names, context, encoding, campaigns)
    tables, notes = [*tables, *scored_tables], notes + said
    plain = [p for p in request.scores if p not in scored]
    if not plain and not tables:
        if request.lower_better or (request.scores_partial and not request.annotations):
            raise ConfigError(f"{term('lower_better')} and {term('scores_partial')} apply to {term('scores')}")
        return files, replace(context, notes=context.notes + tuple(notes)), ()
    files, columns, said = attach_scores(plain, files, names, context, request.scores_partial, request.encoding,
                                         tables)
    configs = tuple(imported_configs(columns, request.lower_better))
    return files, replace(context, notes=context.notes + tuple(notes + said)), configs


def _decimals_of(scores: np.ndarray) -> int:
    """The decimals imported scores need to be told apart: 4 for fractions within -1..1 (COMET's, MetricX's
    probabilities), as a computed COMET shows them; none otherwise (points, MQM's weights)."""
    finite = scores[np.isfinite(scores)]
    if finite.size and np.all(np.abs(finite) <= 1) and np.any(finite != np.round(finite)):
        return 4
    return 0
