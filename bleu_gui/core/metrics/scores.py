"""Score objects: what one BLEU computation returns, for a corpus or a sentence."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class RowScores:
    """Scores for many rows of statistics at once (one row per sentence, or one summed row).

    ``score`` is on the 0-100 scale for every variant; ``precisions`` are the
    per-order values that enter the geometric mean (after smoothing), also 0-100.
    ``valid`` is False where the variant's reference implementation refuses to
    give a number (NLTK's method6 without trigram matches); ``score`` is NaN there.
    """

    score: np.ndarray
    precisions: np.ndarray
    bp: np.ndarray
    counts: np.ndarray
    totals: np.ndarray
    sys_len: np.ndarray
    ref_len: np.ndarray
    valid: np.ndarray


@dataclass(frozen=True)
class BleuScore:
    """One BLEU figure with everything needed to explain and reproduce it."""

    variant: str
    score: float
    precisions: list[float]
    counts: list[int]
    totals: list[int]
    bp: float
    sys_len: int
    ref_len: int
    signature: str
    notes: tuple[str, ...] = field(default=())

    @property
    def ratio(self) -> float:
        return self.sys_len / self.ref_len if self.ref_len else 0.0

    @classmethod
    def from_rows(cls, rows: RowScores, i: int, variant: str, signature: str,
                  notes: tuple[str, ...] = ()) -> BleuScore:
        return cls(
            variant=variant,
            score=float(rows.score[i]),
            precisions=[float(p) for p in rows.precisions[i]],
            counts=[int(c) for c in rows.counts[i]],
            totals=[int(t) for t in rows.totals[i]],
            bp=float(rows.bp[i]),
            sys_len=int(rows.sys_len[i]),
            ref_len=int(rows.ref_len[i]),
            signature=signature,
            notes=notes,
        )
