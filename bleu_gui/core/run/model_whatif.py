"""What-if through a model: an edited candidate scored again by every metric of the run that scores variants
(COMET's worker and cache, :meth:`..metrics.base.Metric.score_variants`), and the corpus score it would make — what
the window shows beside BLEU's instant what-if, and how it names what produced the number."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..metrics.base import Progress
from .results import Run


def model_metrics(run: Run) -> list[int]:
    """The run's metrics that score a variant of a segment through their model."""
    return [k for k, m in enumerate(run.metrics) if m.scores_variants]


def score_edit(run: Run, metrics: Sequence[int], segment: int, text: str,
               progress: Progress | None = None) -> dict[int, float]:
    """Each of ``metrics``' score of segment ``segment`` with ``text`` as its candidate (one request each; a text
    scored before is read from the metric's cache)."""
    source = run.context.source.lines[segment] if run.context.source is not None else ""
    found = {}
    for k in metrics:
        scores = run.metrics[k].score_variants([(segment, source, text)], progress)
        assert scores is not None  # model_metrics
        found[k] = scores[0]
    return found


@dataclass(frozen=True)
class ModelWhatIf:
    """A metric's what-if on one system: the segment's score before and after its edit, the corpus's, and how many
    of the system's edits the model has scored (the corpus counts those)."""

    metric: str
    segment_before: float
    segment_after: float
    corpus_before: float
    corpus_after: float
    scored_edits: int
    edits: int
    signature: str


def model_whatif(run: Run, k: int, system: int, segment: int, scores: Mapping[int, float],
                 edits: int) -> ModelWhatIf | None:
    """The ``k``-th metric's what-if on ``system`` for ``segment``, from the model's ``scores`` of the edited
    segments it has scored (segment → score; ``segment`` among them) out of ``edits`` edited; None when the metric's
    rows are not its segment scores."""
    metric, result = run.metrics[k], run.systems[system].results[k]
    stats = metric.stats_with_scores(result.stats, scores)
    if stats is None:
        return None
    edited = ",".join(str(run.line_number(i)) for i in sorted(scores))
    return ModelWhatIf(metric.name, float(result.sentences[segment]), scores[segment],
                       metric.corpus_score(result.stats).score, metric.corpus_score(stats).score,
                       len(scores), edits, f"{metric.signature()}|edited:{edited}")
