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
    scores = np.array([[metric.value(s[r]) for r in rows] for s in stats])
    return DocumentScores(list(order), rows, scores.reshape(len(stats), len(rows)))
