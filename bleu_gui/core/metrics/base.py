"""What every metric is: the shape of sacreBLEU's ``metrics/base.py``, so that one significance module, one
pair matrix, one set of slices, documents and leave-one-out serve them all.

A metric is bound to one set of references, processed once when it is made (sacreBLEU's
``_cache_references``). It reduces each segment of a system to one row of *sufficient statistics* that sum
over a corpus (``_extract_corpus_statistics``), and turns summed rows into a score
(``_compute_score_from_stats``). Everything that resamples, slices or leaves sentences out works on those
rows and never asks which metric it holds. A ``Signature`` states every setting that changes the number.

What differs from sacreBLEU's base class: the statistics are one numpy array for the whole corpus (one row
per segment); many summed rows are scored at once (:meth:`Metric.scores_of_sums`, for a thousand bootstrap
resamples in one call); and :meth:`Metric.evidence` gives, for the segment on screen, what the number was made
of (for BLEU the matched and clipped n-gram occurrences), computed on demand and never stored, and
:meth:`Metric.account` and :meth:`Metric.shown` say it in words and in panes, so that no caller asks which metric
it holds. What the registry knows of a metric before it is scored is in :mod:`.family`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from ..inputs.ratings import ErrorSpan
from ..inputs.text_files import SegmentFile
from .account import Account, Shown

Progress = Callable[[float], None]
Variant = tuple[int, str, str]  # a text to score as one segment of the run: (segment, source, candidate)
Spans = list[tuple[int, int]]

# How far a score of Metric.approximate_scores_of_sums may be from the exact one. The one approximation made is
# BLEU's (0-100): NumPy's exp and log instead of the C library's, a few units in the last place apart (~1e-13 at
# 100), so the margin is thousands of times wider than the error.
APPROXIMATE = 1e-9

# sacreBLEU's bootstrap turns statistics into float32 and computes scores from them with Python numbers: NumPy 2
# keeps that arithmetic in float32 (NEP 50), NumPy 1 promoted it to float64. Follow whichever NumPy is installed.
_FLOAT32_STAYS = (100.0 * np.float32(1.0)).dtype == np.float32


def resampled_float(float32: bool) -> type[np.floating[Any]]:
    """The float type a score is computed in: float32 for sacreBLEU's bootstrap sums (``float32``) where NumPy
    keeps it, else float64."""
    return np.float32 if float32 and _FLOAT32_STAYS else np.float64


@dataclass(frozen=True, kw_only=True)
class Score:
    """One figure of one metric, with the signature that reproduces it (sacreBLEU's ``Score``)."""

    metric: str            # sacreBLEU's name for the metric: BLEU, chrF2, chrF2++, TER
    score: float
    signature: str
    notes: tuple[str, ...] = field(default=())
    # The fewest decimals that tell its scores apart, whatever the width asked (sacreBLEU's -w): none for scores in
    # points (BLEU shows -w's decimals, 2 by default), 4 for COMET's scores near 0..1.
    decimals: int = 0
    # A score that stands in for no metric at all (a run nothing scores yet): said by its name alone, never "n/a".
    stand_in: ClassVar[bool] = False

    def text(self, width: int = 2, confidence: tuple[float, float] | None = None) -> str:
        """sacreBLEU's text line for this score, e.g. ``chrF2|nrefs:1|…|version:2.6.0 = 57.30``; with
        ``confidence`` (mean, half-width) followed by ``(μ = 57.12 ± 1.10)`` as ``sacrebleu --confidence``. A score
        that is :attr:`absent` says ``no scores`` and why (never ``nan``); -0.0 shows as 0.00."""
        if self.absent:
            return f"{self.metric}|{self.signature} = no scores {self.breakdown()}".rstrip()
        width = max(width, self.decimals)
        return f"{self.metric}|{self.signature} = {self.score + 0.0:.{width}f}{confidence_text(confidence, width)}"

    def fields(self) -> dict[str, object]:
        """The metric's own unrounded fields for JSON (beside ``metric``, ``score`` and ``signature``)."""
        return {}

    @property
    def absent(self) -> bool:
        """Whether there is no score at all (a system none of whose imported scores is present)."""
        return False

    def breakdown(self) -> str:
        """What the score is made of, in one line as sacreBLEU prints it after the score ('' if nothing)."""
        return ""

    def columns(self) -> list[tuple[str, str]]:
        """The metric's own columns of a table of corpus scores: (heading, the value as shown)."""
        return []


def confidence_text(confidence: tuple[float, float] | None, width: int) -> str:
    """`` (μ = 31.05 ± 2.10)`` after a score, as ``sacrebleu --confidence`` prints it ('' without one)."""
    return f" (μ = {confidence[0]:.{width}f} ± {confidence[1]:.{width}f})" if confidence else ""


@dataclass(frozen=True)
class HandOff:
    """Requests a metric did not send but handed off, to be run elsewhere (an OpenAI batch): each request's id (its
    key in the metric's cache) and body, what decides the answers (a batch's manifest says it), and ``mark(ids,
    manifest, shard)``, which records them in the cache as handed off there (an import takes only those)."""

    requests: tuple[tuple[str, dict[str, object]], ...]
    facts: dict[str, object]
    mark: Callable[[Sequence[str], str, str], None]


class Metric(ABC):
    """One metric with its settings, bound to one set of references (see the module).

    Subclasses set :attr:`name` (sacreBLEU's name for the metric and its settings: ``BLEU``, ``chrF2``,
    ``chrF2++``, ``TER``), :attr:`key` (the name of its family on the command line: ``bleu``, ``chrf``,
    ``ter``) and, where they differ from the defaults, :attr:`higher_is_better`, :attr:`significance` and
    :attr:`integer_statistics`.
    """

    name: str = ""
    key: str = ""
    # Scores what is attached to the files beside their text — human error annotations (MQM), imported segment
    # scores — not the text: a reviewer's change gives the file anew, and only such metrics are scored again.
    reads_attached = False
    higher_is_better: bool = True
    # Whether sacreBLEU's paired tests and confidence intervals apply (NLTK's and d2l's BLEU: no).
    significance: bool = True
    decimals: int = 0  # the fewest decimals that tell its scores apart, whatever the width asked (as its Score's)
    # Whether every statistic is a whole number, so that sums of resampled rows are exact integers.
    integer_statistics: bool = True
    # Whether approximate_scores_of_sums differs from scores_of_sums (then rows near a threshold are scored again).
    approximates: bool = False
    # Whether the window shows this metric's evidence with its one view for every family (:meth:`shown`); BLEU's
    # evidence has the window's n-gram panes, a score read from a file has none.
    evidence_shown: bool = False
    shows_human_errors: bool = False  # its evidence is the raters' error spans (the window needs no strip of them)
    scores_variants: bool = False  # :meth:`score_variants` asks a model (COMET): erasure and what-if through it
    # Statistics that are not whole numbers are resampled as sacreBLEU resamples its own metrics': summed in
    # float32 (a metric sacreBLEU does not have, a mean of imported scores, sums in float64).
    bootstrap_float32: bool = True

    @property
    @abstractmethod
    def n_lines(self) -> int:
        """Segments in the reference set."""

    @property
    def corpus_from_sums(self) -> bool:
        """Whether the corpus score is a function of the column sums alone (then one summed row scores the same
        as all rows, and a running sum can follow edits)."""
        return True

    @property
    def notes(self) -> tuple[str, ...]:
        """Plain-language notes shown beside every score of this metric."""
        return ()

    @property
    def work_notes(self) -> tuple[str, ...]:
        """Notes on how the scoring went (answers read from a cache, cut or unread): said with the run's notes,
        folded behind their first in the window's header, not kept beside every score as :attr:`notes` are."""
        return ()

    @abstractmethod
    def signature(self, sentence_level: bool = False, resampling: dict[str, object] | None = None) -> str:
        """The settings string shown next to every score (``resampling``: sacreBLEU's ``bs``/``ar``/``seed``)."""

    @abstractmethod
    def statistics(self, lines: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        """One row of sufficient statistics per segment of a system's ``lines`` (segments × columns).

        ``progress(fraction)`` is called along the way; it may raise to stop."""

    def prepare(self, systems: Sequence[SegmentFile], progress: Progress | None = None) -> None:
        """Get ready to give :meth:`system_statistics` of every one of ``systems`` (a model scores them all in one
        request: COMET); nothing for a metric that counts each system on its own."""
        return

    def system_statistics(self, system: SegmentFile, progress: Progress | None = None) -> np.ndarray:
        """:meth:`statistics` of a system's file (a metric of imported scores reads them from the file)."""
        return self.statistics(system.lines, progress)

    @abstractmethod
    def scores_of_sums(self, sums: np.ndarray, float32: bool = False) -> np.ndarray:
        """The score of each row of ``sums`` (rows of summed statistics), as sacreBLEU computes it from them.

        ``float32``: the statistics as sacreBLEU's bootstrap holds them (its resample sums are float32)."""

    def approximate_scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        """:meth:`scores_of_sums`, each within :data:`APPROXIMATE` of the exact score, for a question that only asks
        on which side of a threshold a score lies (approximate randomization scores again exactly the rows
        near it). The exact scores, unless a metric has a faster way."""
        return self.scores_of_sums(sums)

    @abstractmethod
    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        """Each segment's own score (sacreBLEU's ``sentence_score``, ``-sl``); NaN where the metric gives none."""

    @abstractmethod
    def corpus_score(self, stats: np.ndarray) -> Score:
        """The corpus score of the rows of ``stats``, with its signature."""

    @abstractmethod
    def sentence_score(self, stats: np.ndarray, index: int) -> Score:
        """Segment ``index``'s score as a whole :class:`Score` (what ``-sl`` prints for it)."""

    @abstractmethod
    def account(self, index: int, hypothesis: str, row: np.ndarray, reference_names: Sequence[str]) -> Account:
        """Why segment ``index`` scores what it does when its candidate is ``hypothesis`` (its statistics ``row``
        as the run holds it): the explanation and the evidence as JSON (computed now, never stored)."""

    def shown(self, index: int, hypothesis: str, system: str, reference_names: Sequence[str]) -> Shown | None:
        """How the window shows segment ``index``'s evidence (panes, legend, chart); None where the window has a
        view of its own (BLEU's n-gram panes) or nothing to show (a score read from a file)."""
        return None

    def error_spans(self, lines: Sequence[str]) -> list[tuple[ErrorSpan, ...] | None] | None:
        """The errors the metric names on each of ``lines`` — an LLM judge's, with their categories and severities
        — for the review desk to offer as suggestions and for span agreement to score; a segment it gave no answer
        for is None (an answer not read), one it found nothing in ``()``; None for a metric that names none (or
        lines it did not score)."""
        return None

    def flagged(self, rows: Sequence[int], hypotheses: Sequence[str]) -> list[list[tuple[int, int]]] | None:
        """For each segment of ``rows`` whose candidate is the matching one of ``hypotheses``: the parts of it the
        metric's own evidence holds against it, as code-point spans ``(start, end)`` — an empty span ``(p, p)``
        marks a place where something is missing — for asking which human-marked errors a metric saw
        (docs/metrics.md says what each family flags); None for a metric with no evidence in the text (a score
        read from a file, human annotations)."""
        return None

    def of_system(self, system: SegmentFile, source: SegmentFile | None = None) -> Metric:
        """The metric as it explains ``system``'s segments (:meth:`account`, :meth:`shown`): itself for a metric
        computed from the text; one whose evidence is not in the text (human annotations) reads it from the
        system's file (and the ``source``, where the evidence marks it)."""
        return self

    def caveats(self, system: SegmentFile) -> dict[int, str]:
        """The segments of ``system`` whose score deserves a caveat, and why (COMET: an input longer than its encoder
        holds, truncated); none by default. The window marks them in the sentence list."""
        return {}

    def system_details(self, system: SegmentFile, rows: Sequence[int] | None = None) -> dict[str, object]:
        """The metric's own figures of a system's segments ``rows`` (all) beyond its score, for JSON (MQM: its
        errors by category and severity, each rater's score); none by default."""
        return {}

    def score_variants(self, variants: Sequence[Variant], progress: Progress | None = None) -> list[float] | None:
        """The metric's score of each variant — (segment, source, candidate): the candidate and source as that
        segment of the run is scored (its references) — for erasure and what-if through a model, all in one
        request; None for a metric that explains itself otherwise (BLEU's n-grams)."""
        return None

    def stats_with_scores(self, stats: np.ndarray, scores: Mapping[int, float]) -> np.ndarray | None:
        """``stats`` with segments' rows replaced by the rows of the model's ``scores`` of variants of them (a
        what-if through the model: segment → score); None for a metric whose rows are not its segment scores."""
        return None

    def requests_missing(self, systems: Sequence[SegmentFile]) -> HandOff | None:
        """The requests this metric would send for ``systems`` that its cache cannot answer, to hand off to an engine
        elsewhere (an LLM judge's, as an OpenAI batch); None for a metric that sends none, or when none is missing."""
        return None

    def rater_scores(self, system: SegmentFile, segment: int) -> dict[str, float]:
        """Each rater's own score of a segment, where the metric is human judgement made of several raters' (a human
        ESA or DA column read with its raters; MQM overrides it with each rater's errors); empty otherwise."""
        rated = system.rated.get(self.name) or system.rated.get(self.key)
        return {r.rater: r.score for r in rated[segment]} if rated is not None and segment < len(rated) else {}

    def read_from(self) -> str | None:
        """The file the scores were read from (None: computed here, from the text)."""
        return None

    def scored(self, stats: np.ndarray) -> np.ndarray | None:
        """Which segments have a score (a boolean per row), or None when every segment has one: a metric computed
        from the text always has one; imported scores may be missing."""
        return None

    def keep_only(self, stats: np.ndarray, segments: np.ndarray) -> np.ndarray:
        """``stats`` with every segment outside the boolean mask ``segments`` made missing (a metric whose
        :meth:`scored` can be other than None implements it: a paired test of two systems is on the segments both
        have)."""
        raise NotImplementedError(f"{self.name}: every segment has a score")

    def score_scale(self, sentence_scores: np.ndarray) -> tuple[float, float]:
        """The range a histogram and a score filter of this metric's sentence scores span (0-100 for the metrics
        that score in points)."""
        return 0.0, 100.0

    def statistics_table(self, stats: np.ndarray) -> tuple[list[str], np.ndarray]:
        """The statistics as exports write them: column names and the columns (all of them, by default)."""
        return [f"stat_{i + 1}" for i in range(stats.shape[1])], stats

    def value(self, stats: np.ndarray) -> float:
        """The corpus score of the rows of ``stats`` as a number (a document, a bucket, a slice)."""
        return float(self.scores_of_sums(stats.sum(axis=0, keepdims=True))[0])

    def without_each(self, stats: np.ndarray) -> np.ndarray:
        """The corpus score with each segment left out in turn (leave-one-out)."""
        if len(stats) < 2:
            return np.zeros(len(stats))
        return self.scores_of_sums(stats.sum(axis=0)[None, :] - stats)

    def better(self, a: float, b: float) -> bool:
        """Whether score ``a`` is better than ``b`` under this metric."""
        return a > b if self.higher_is_better else a < b


def flags_once(kept: dict[tuple[int, str], Spans], rows: Sequence[int], hypotheses: Sequence[str],
               work: Callable[[list[int], list[str]], Sequence[Spans]]) -> list[Spans]:
    """:meth:`Metric.flagged` for a metric whose flags depend on the segment and its line alone: ``work`` (the
    metric's flags of segments and lines) runs only for (segment, line) pairs not ``kept`` yet, and keeps them.
    Error recall asks for every system's flags, and systems often write the very same line (a third of the TED MQM
    file's candidates). Each caller gets its own lists."""
    new = [j for j, (i, h) in enumerate(zip(rows, hypotheses)) if (i, h) not in kept]
    found = work([rows[j] for j in new], [hypotheses[j] for j in new])
    for j, spans in zip(new, found):
        kept[rows[j], hypotheses[j]] = spans
    return [list(kept[i, h]) for i, h in zip(rows, hypotheses)]
