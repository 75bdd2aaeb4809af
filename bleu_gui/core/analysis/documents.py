"""Documents: each document's corpus BLEU, from the summed statistics of its own segments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..run import Run


@dataclass(frozen=True)
class DocumentScores:
    """One row per document, in the order documents first appear."""

    ids: list[str]
    rows: list[np.ndarray]      # the run's segment indices of each document
    scores: np.ndarray          # systems × documents, corpus BLEU of each document (0-100)


def document_scores(run: Run) -> DocumentScores | None:
    """Every document's BLEU for every system (None when the run has no document ids). A document's BLEU is
    a corpus score of its segments (statistics summed, as for the whole corpus), never a mean of sentences."""
    docs = run.context.docs
    if docs is None:
        return None
    order: dict[str, list[int]] = {}
    for i, doc in enumerate(docs):
        order.setdefault(doc, []).append(i)
    rows = [np.asarray(r, np.int64) for r in order.values()]
    cfg, variant = run.config, run.evaluator.variant
    scores = np.array([[variant.corpus_scores(s.stats[r], cfg).score[0] for r in rows] for s in run.systems])
    return DocumentScores(list(order), rows, scores.reshape(len(run.systems), len(rows)))
