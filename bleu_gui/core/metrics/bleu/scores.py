"""BLEU's score objects: many rows scored at once, and one BLEU figure for a corpus or a sentence."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..base import Score, confidence_text


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


@dataclass(frozen=True, kw_only=True)
class BleuScore(Score):
    """One BLEU figure with everything needed to explain and reproduce it."""

    metric: str = "BLEU"
    variant: str
    precisions: list[float]
    counts: list[int]
    totals: list[int]
    bp: float
    sys_len: int
    ref_len: int

    @property
    def ratio(self) -> float:
        return self.sys_len / self.ref_len if self.ref_len else 0.0

    def text(self, width: int = 2, confidence: tuple[float, float] | None = None) -> str:
        """sacreBLEU's line: ``BLEU|<signature> = 31.12 90.0/50.0/16.7/12.5 (BP = 1.000 ratio = 1.000 hyp_len = 10
        ref_len = 10)``; with ``confidence`` the score is followed by ``(μ = 31.05 ± 2.10)``."""
        if math.isnan(self.score):
            return f"BLEU|{self.signature} = undefined (NLTK refuses this sentence: method6 needs a trigram match)"
        return (f"BLEU|{self.signature} = {self.score:.{width}f}{confidence_text(confidence, width)} "
                f"{self.breakdown()}")

    def breakdown(self) -> str:
        """What the score is made of, as sacreBLEU prints it after the score."""
        precisions = "/".join(f"{p:.1f}" for p in self.precisions)
        return (f"{precisions} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} hyp_len = {self.sys_len:d} "
                f"ref_len = {self.ref_len:d})")

    def fields(self) -> dict[str, object]:
        def num(x: float) -> float | None:
            return None if math.isnan(x) else x

        return {"precisions": [num(p) for p in self.precisions], "counts": self.counts, "totals": self.totals,
                "bp": self.bp, "ratio": self.ratio, "sys_len": self.sys_len, "ref_len": self.ref_len,
                "variant": self.variant}

    def columns(self) -> list[tuple[str, str]]:
        return ([(f"p{n}", f"{p:.1f}") for n, p in enumerate(self.precisions, start=1)]
                + [("BP", f"{self.bp:.3f}"), ("ratio", f"{self.ratio:.3f}"), ("hyp_len", str(self.sys_len)),
                   ("ref_len", str(self.ref_len))])

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


def bleu_score(score: Score) -> BleuScore:
    """A score of BLEU's as the BLEU figure it is (its precisions, brevity penalty and lengths)."""
    if not isinstance(score, BleuScore):
        raise TypeError(f"{score.metric} is not a BLEU score")
    return score


def bleu_scores(scores: Sequence[Score]) -> list[BleuScore]:
    """The BLEU scores among ``scores`` (multi-bleu's format has a line for BLEU alone)."""
    return [s for s in scores if isinstance(s, BleuScore)]
