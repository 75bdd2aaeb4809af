"""Edits over a length, as TER and the character edit distance report them (one arithmetic, two families)."""

from __future__ import annotations

import numpy as np

from .base import resampled_float


def edits_per_length(sums: np.ndarray, float32: bool = False) -> np.ndarray:
    """100 × edits / length of rows of summed [edits, length, …]; a row with no length is 100 with edits and 0
    without — sacreBLEU's ``TER._compute_score_from_stats`` (in float32 when the sums are sacreBLEU's
    bootstrap's)."""
    sums = np.atleast_2d(sums)
    ftype = resampled_float(float32)
    edits, length = sums[:, 0].astype(ftype), sums[:, 1].astype(ftype)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(length > 0, edits / np.where(length > 0, length, 1), np.where(edits > 0, 1.0, 0.0))
    return np.asarray(ftype(100) * rate.astype(ftype), ftype)
