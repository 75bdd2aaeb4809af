"""chrF's F-score of summed statistics, as sacreBLEU 2.x computes it (``_compute_f_score``): per order the
character (then word) n-gram precision and recall, averaged over the orders both sides have, F-beta of the averages
(or, with eps smoothing, the mean of the orders' F-scores, as chrF++.py, NLTK and Moses)."""

from __future__ import annotations

import numpy as np

from ..base import resampled_float
from .config import ChrfConfig

_EPS = 1e-16  # sacreBLEU's epsilon for an order with no n-grams


def f_scores(stats: np.ndarray, cfg: ChrfConfig, float32: bool = False) -> np.ndarray:
    """chrF (0-100) of every row of summed statistics, as sacreBLEU's ``_compute_f_score`` computes it.

    ``float32``: the statistics as sacreBLEU's bootstrap holds them (float32): every operation, and the scores,
    are float32 then (sacreBLEU's resampled chrF scores are numpy float32 numbers, and its p-values and intervals
    are computed from them in float32).
    """
    stats = np.atleast_2d(stats)
    ftype = resampled_float(float32)
    orders = cfg.char_order + cfg.word_order
    factor = ftype(cfg.beta ** 2)
    eps = ftype(_EPS)
    rows = len(stats)
    score = np.zeros(rows, ftype)
    avg_prec, avg_rec = np.zeros(rows, ftype), np.zeros(rows, ftype)
    effective = np.zeros(rows, np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(orders):  # added order by order, as sacreBLEU's loop adds them
            n_hyp, n_ref, n_match = (stats[:, 3 * i + k].astype(ftype) for k in range(3))
            prec = np.where(n_hyp > 0, n_match / n_hyp, eps)
            rec = np.where(n_ref > 0, n_match / n_ref, eps)
            denom = factor * prec + rec
            score = score + np.where(denom > 0, (1 + factor) * prec * rec / denom, eps)
            both = (n_hyp > 0) & (n_ref > 0)
            avg_prec = np.where(both, avg_prec + prec, avg_prec)
            avg_rec = np.where(both, avg_rec + rec, avg_rec)
            effective += both
        if cfg.eps_smoothing:
            return np.asarray(100 * score / ftype(orders), ftype)
        divisor = np.maximum(effective, 1).astype(ftype)
        avg_prec = np.where(effective > 0, avg_prec / divisor, ftype(0.0))
        avg_rec = np.where(effective > 0, avg_rec / divisor, ftype(0.0))
        total = avg_prec + avg_rec
        f = (1 + factor) * avg_prec * avg_rec / (factor * avg_prec + avg_rec)
    return np.asarray(np.where(total != 0, 100 * f, ftype(0.0)), ftype)
