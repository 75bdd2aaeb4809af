"""Documents: each document's corpus score, from the summed statistics of its own segments."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..metrics.base import Metric


@dataclass(frozen=True)
class DocumentScores:
    """One row per document, in the order documents first appear."""

    ids: list[str]
    rows: list[np.ndarray]      # the run's segment indices of each document
    scores: np.ndarray          # systems × documents, the corpus score of each document


def document_scores(docs: Sequence[str] | None, stats: Sequence[np.ndarray], metric: Metric) -> DocumentScores | None:
    """Every document's score for every system's statistics (None when there are no document ids). A document's
    score is a corpus score of its segments (statistics summed, as for the whole corpus), never a mean of
    sentence scores."""
    if docs is None:
        return None
    order: dict[str, list[int]] = {}
    for i, doc in enumerate(docs):
        order.setdefault(doc, []).append(i)
    rows = [np.asarray(r, np.int64) for r in order.values()]
    # Each document's rows summed in order (np.add.reduceat, row after row as Metric.value's sum adds them), then
    # every document scored in one call: one per document took 0.3 s for chrF on 181 documents x 13 systems.
    grouped = np.concatenate(rows) if rows else np.zeros(0, np.int64)
    starts = np.cumsum([0] + [len(r) for r in rows[:-1]])
    scores = np.array([metric.scores_of_sums(np.add.reduceat(s[grouped], starts, axis=0)) if rows else []
                       for s in stats])
    return DocumentScores(list(order), rows, scores.reshape(len(stats), len(rows)))
