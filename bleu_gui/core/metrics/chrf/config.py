"""chrF's settings (named as sacreBLEU's ``--chrf-*`` flags name them) and the F-score they define, as sacreBLEU
2.x computes it from summed statistics (``_compute_f_score``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...errors import ConfigError
from ..base import Family, resampled_float
from ..sacrebleu_parts import sacrebleu_version
from ..settings import MetricSettings, setting

_EPS = 1e-16


@dataclass(frozen=True)
class ChrfConfig(MetricSettings):
    """chrF's settings, named as sacreBLEU's ``--chrf-*`` flags name them (word_order 2 is chrF++)."""

    char_order: int = setting(6, label="character order", low=0, high=20, metavar="N",
                              help="character n-gram orders 1..N (default 6)")
    word_order: int = setting(0, label="word order", low=0, high=20, metavar="N",
                              help="word n-gram orders 1..N (default 0; 2 gives chrF++)")
    beta: int = setting(2, label="β", low=0, high=10, metavar="B",
                        help="recall is B times as important as precision (default 2)")
    whitespace: bool = setting(False, label="whitespace kept", help="keep whitespace in character n-grams")
    lowercase: bool = setting(False, label="lowercased", help="lowercase before chrF")
    eps_smoothing: bool = setting(False, label="eps smoothing",
                                  help="average the orders' F-scores with epsilon smoothing (chrF++.py, NLTK and Moses)")

    key: ClassVar[str] = "chrf"
    badge: ClassVar[str] = "chrF"

    @property
    def name(self) -> str:
        """sacreBLEU's name for the metric: ``chrF2``, ``chrF2++``."""
        return f"chrF{self.beta}" + "+" * self.word_order

    def validated(self) -> ChrfConfig:
        if not 0 <= self.char_order <= 20 or not 0 <= self.word_order <= 20:
            raise ConfigError("chrF orders must be 0..20 (character and word n-grams)")
        if self.char_order + self.word_order == 0:
            raise ConfigError("chrF needs at least one character or word order")
        if self.beta < 0:
            raise ConfigError(f"chrF beta must be 0 or more, got {self.beta}")
        return self

    def signature(self, nrefs: int | str, resampling: dict[str, object] | None = None) -> str:
        """sacreBLEU's chrF signature, e.g. ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0``."""
        extra = [f"{k}:{v}" for k, v in (resampling or {}).items()]
        return "|".join([f"nrefs:{nrefs}", *extra, f"case:{'lc' if self.lowercase else 'mixed'}",
                         f"eff:{'no' if self.eps_smoothing else 'yes'}", f"nc:{self.char_order}",
                         f"nw:{self.word_order}", f"space:{'yes' if self.whitespace else 'no'}",
                         f"version:{sacrebleu_version()}"])


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


FAMILY = Family("chrf", "chrF", ChrfConfig, "chrf.chrf", cost=1,
                about="Character n-gram F-score (Popović 2015) as sacreBLEU computes it; word order 2 gives chrF++")
