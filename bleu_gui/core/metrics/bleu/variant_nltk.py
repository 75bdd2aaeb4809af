"""NLTK's ``corpus_bleu`` / ``sentence_bleu`` (nltk.translate.bleu_score), vectorised over rows.

Reproduced on purpose, because users compare against NLTK:
- the per-sentence denominator is ``max(1, number of hypothesis n-grams)``;
- the corpus score is 0 as soon as no unigram matches;
- ``method0`` replaces a zero precision by ``sys.float_info.min`` (not 0);
- orders whose (smoothed) precision is 0 are left out of the weighted sum;
- ``corpus_bleu`` calls the smoothing function with the *last* sentence's
  hypothesis and references, which ``method5`` (its 5-gram precision) and
  ``method6`` (its n-gram counts) use — so the corpus row carries the last
  sentence's figures;
- ``method6`` asserts a non-zero trigram precision; where NLTK would raise,
  the row is marked invalid instead of inventing a number;
- ``auto_reweigh`` only applies to the exact default weights (0.25,)*4;
- NLTK's precisions are ``Fraction``s: methods 5, 6 and 7 average and divide them exactly, so those methods are
  computed row by row in its own types, and the weighted logs are added with ``math.fsum`` as NLTK adds them —
  every score equal to NLTK's bit for bit.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import numpy as np

from .... import __version__
from .. import libm
from ..settings import test_fields
from .scores import RowScores
from .variant import BleuSettings, SentenceRow, Variant, reference_fields

_DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)


def _smooth(method: int, num: np.ndarray, den: np.ndarray, hyp_len: np.ndarray, last5: np.ndarray,
            last_hyp_len: np.ndarray, cfg: BleuSettings) -> tuple[np.ndarray, np.ndarray]:
    """Return (precisions as fractions of 1, valid-row mask) after NLTK smoothing ``method``."""
    rows, N = num.shape
    raw = num / den
    p = raw.copy()
    valid = np.ones(rows, bool)
    zero = num == 0
    if method == 0:
        p[zero] = sys.float_info.min
    elif method == 1:
        p = np.where(zero, (num + cfg.nltk_epsilon) / den, raw)
    elif method == 2:
        p[:, 1:] = (num[:, 1:] + 1) / (den[:, 1:] + 1)
    elif method == 3:
        p = _method3(num, den, raw)
    elif method == 4:
        p = _method4(num, den, raw, hyp_len, cfg.nltk_k)
    else:  # 5, 6, 7 average or divide NLTK's Fractions: row by row, in its own types
        p, valid = _fraction_methods(method, num, den, hyp_len, last5, last_hyp_len, cfg)
    return p, valid


def _method3(num: np.ndarray, den: np.ndarray, raw: np.ndarray) -> np.ndarray:
    p = raw.copy()
    incvnt = np.ones(len(num))
    for i in range(num.shape[1]):
        z = num[:, i] == 0
        p[z, i] = 1.0 / (2.0 ** incvnt[z] * den[z, i])
        incvnt[z] += 1
    return p


def _method4(num: np.ndarray, den: np.ndarray, raw: np.ndarray, hyp_len: np.ndarray, k: float) -> np.ndarray:
    p = raw.copy()
    incvnt = np.ones(len(num))
    log_len = libm.log(np.maximum(hyp_len, 1).astype(np.float64))
    for i in range(num.shape[1]):
        z = (num[:, i] == 0) & (hyp_len > 1)
        numerator = 1.0 / (2.0 ** incvnt[z] * k / log_len[z])
        p[z, i] = numerator / den[z, i]
        incvnt[z] += 1
    return p


def _fraction_row(method: int, counts: list[int], totals: list[int], hyp_len: int, five: tuple[int, int],
                  last_hyp_len: int, cfg: BleuSettings) -> list[float] | None:
    """NLTK's smoothed precisions of one row for methods 5, 6 and 7, in NLTK's types: its precisions are
    Fractions (of raw counts), method4 puts floats in their place, method5 averages what it finds (exactly where
    both are Fractions) and method6 divides them. None where method6 asserts (no trigram match)."""
    p: list[Fraction | float] = [Fraction(c, t) for c, t in zip(counts, totals)]
    if method == 7:  # method4 first
        incvnt = 1
        for i, c in enumerate(counts):
            if c == 0 and hyp_len > 1:
                p[i] = 1 / (2 ** incvnt * cfg.nltk_k / math.log(hyp_len)) / totals[i]
                incvnt += 1
    if method in (5, 7):
        following = [*p[1:], Fraction(*five)]  # NLTK's p_n_plus1: the precisions before this loop changes them
        previous: Fraction | float = p[0] + 1
        for i in range(len(p)):
            p[i] = (previous + p[i] + following[i]) / 3
            previous = p[i]
    elif method == 6:
        if len(p) < 3 or not p[2]:
            return None
        for i in range(2, len(p)):
            pi0 = 0 if p[i - 2] == 0 else p[i - 1] ** 2 / p[i - 2]
            p[i] = (counts[i] + cfg.nltk_alpha * pi0) / (max(last_hyp_len - i, 0) + cfg.nltk_alpha)
    return [float(x) for x in p]


def _fraction_methods(method: int, num: np.ndarray, den: np.ndarray, hyp_len: np.ndarray, last5: np.ndarray,
                      last_hyp_len: np.ndarray, cfg: BleuSettings) -> tuple[np.ndarray, np.ndarray]:
    p = np.zeros(num.shape)
    valid = np.ones(len(num), bool)
    for r, (counts, totals) in enumerate(zip(num.astype(np.int64).tolist(), den.astype(np.int64).tolist())):
        row = _fraction_row(method, counts, totals, int(hyp_len[r]), (int(last5[r, 0]), int(last5[r, 1])),
                            int(last_hyp_len[r]), cfg)
        if row is None:
            valid[r] = False
        else:
            p[r] = row
    return p, valid


def nltk_statistics(stats: np.ndarray) -> np.ndarray:
    """Copy of ``stats`` with every sentence's n-gram total raised to at least 1, as NLTK's ``modified_precision`` does.

    Must be applied per sentence, before rows are summed into a corpus row.
    """
    out = np.array(stats, copy=True)
    width = (out.shape[1] - 2) // 2
    np.maximum(out[:, 2 + width:], 1, out=out[:, 2 + width:])
    return out


def score_rows(stats: np.ndarray, cfg: BleuSettings, last5: np.ndarray | None = None,
               last_hyp_len: np.ndarray | None = None) -> RowScores:
    """NLTK BLEU for every row of statistics made by :func:`nltk_statistics`.

    For sentence rows, ``last5``/``last_hyp_len`` are each row's own 5-gram
    precision and length; for a corpus row, those of the corpus's last sentence.
    """
    weights = cfg.nltk_weights
    N = len(weights)
    stats = np.atleast_2d(stats)
    width = (stats.shape[1] - 2) // 2
    hyp_len = stats[:, 0]
    ref_len = stats[:, 1]
    counts = stats[:, 2:2 + N]
    totals = stats[:, 2 + width:2 + width + N]
    rows = len(stats)
    if last_hyp_len is None:
        last_hyp_len = hyp_len
    if last5 is None:
        last5 = np.tile(np.array([0, 1], np.int64), (rows, 1))

    hyp_f = hyp_len.astype(np.float64)
    ref_f = ref_len.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        short = (hyp_len <= ref_len) & (hyp_len > 0)
        bp = np.where(hyp_len > ref_len, 1.0,
                      np.where(short, libm.exp(np.where(short, 1.0 - ref_f / np.where(short, hyp_f, 1.0), 0.0)), 0.0))

    num = counts.astype(np.float64)
    den = totals.astype(np.float64)
    p, valid = _smooth(cfg.nltk_smoothing, num, den, hyp_len, last5, last_hyp_len, cfg)

    w = np.tile(np.asarray(weights, np.float64), (rows, 1))
    if cfg.auto_reweigh and tuple(weights) == _DEFAULT_WEIGHTS:
        for length in (1, 2, 3):
            sel = hyp_len == length
            w[sel] = 0.0
            w[sel, :length] = 1.0 / length

    logs = np.where(p > 0, libm.log(np.where(p > 0, p, 1.0)), 0.0)
    # NLTK: bp * math.exp(math.fsum(w_i * math.log(p_i) for p_i > 0)), the weighted logs summed exactly.
    score = bp * libm.exp(libm.fsum_rows(w * logs))
    no_unigram = counts[:, 0] == 0
    score[no_unigram] = 0.0
    # NLTK returns 0 for "no unigram match" before smoothing, so method6's assertion never fires there.
    valid = valid | no_unigram
    score[~valid] = np.nan
    precisions = 100.0 * p
    return RowScores(score=100.0 * score, precisions=precisions, bp=bp, counts=counts, totals=totals,
                     sys_len=hyp_len, ref_len=ref_len, valid=valid)


def signature(cfg: BleuSettings, nrefs: int | str, tokenizer_signature: str, version: str) -> str:
    """A signature in sacreBLEU's style that names NLTK's settings."""
    weights = ",".join(f"{w:g}" for w in cfg.nltk_weights)
    return "|".join([
        "variant:nltk", *reference_fields(cfg, nrefs), *test_fields(cfg.test), f"case:{'lc' if cfg.lowercase else 'mixed'}",
        f"tok:{tokenizer_signature}", f"smooth:method{cfg.nltk_smoothing}", f"weights:{weights}",
        f"reweigh:{'yes' if cfg.auto_reweigh else 'no'}", f"version:bleu-gui-{version}",
    ])


def _p5(rows: np.ndarray) -> np.ndarray:
    """Each row's 5-gram precision as (matches, n-grams) (what method5/method7 look at), 0/1 where the rows stop
    below order 5."""
    width = (rows.shape[1] - 2) // 2
    if width < 5:
        return np.tile(np.array([0, 1], np.int64), (len(rows), 1))
    return np.stack([rows[:, 2 + 4], rows[:, 2 + width + 4]], axis=1).astype(np.int64)


class NltkBleu(Variant):
    """NLTK's ``corpus_bleu`` / ``sentence_bleu`` with its smoothing functions, weights and auto_reweigh."""

    name = "nltk"
    default_tokenizer = "none"
    hint = "NLTK corpus_bleu / sentence_bleu, uniform weights 1/N."
    settings = frozenset({"nltk_smoothing", "weights", "auto_reweigh"})

    def stats_order(self, cfg: BleuSettings) -> int:
        # method5 and method7 also look at the 5-gram precision.
        n = len(cfg.nltk_weights)
        return max(n, 5) if cfg.nltk_smoothing in (5, 7) else n

    def sentence_scores(self, stats: np.ndarray, cfg: BleuSettings) -> RowScores:
        rows = nltk_statistics(stats)
        return score_rows(rows, cfg, last5=_p5(rows), last_hyp_len=rows[:, 0])

    def corpus_scores(self, stats: np.ndarray, cfg: BleuSettings) -> RowScores:
        rows = nltk_statistics(stats)
        last = rows[-1:]  # corpus_bleu smooths with the last sentence's figures
        return score_rows(rows.sum(axis=0, keepdims=True), cfg, last5=_p5(last), last_hyp_len=last[:, 0])

    def without_each(self, stats: np.ndarray, cfg: BleuSettings) -> np.ndarray:
        L = len(stats)
        if L < 2:
            return np.zeros(L)
        rows = nltk_statistics(stats)
        # corpus_bleu's smoothing sees the last remaining sentence.
        last = np.full(L, L - 1)
        last[L - 1] = L - 2
        return score_rows(rows.sum(axis=0)[None, :] - rows, cfg, last5=_p5(rows[last]),
                          last_hyp_len=rows[last, 0]).score

    def signature(self, cfg: BleuSettings, nrefs: int | str, tokenizer_signature: str, sentence_level: bool,
                  resampling: dict[str, object] | None = None) -> str:
        return signature(cfg, nrefs, tokenizer_signature, __version__)

    def explained_orders(self, cfg: BleuSettings) -> int:
        return len(cfg.nltk_weights)

    def sentence_weights(self, cfg: BleuSettings, row: SentenceRow) -> list[float]:
        weights = list(cfg.nltk_weights)
        if cfg.auto_reweigh and tuple(weights) == (0.25,) * 4 and 1 <= row.hyp_len <= 3:
            weights = [1 / row.hyp_len if n < row.hyp_len else 0.0 for n in range(4)]
        return weights

    def explain_lines(self, cfg: BleuSettings, row: SentenceRow, weights: list[float]) -> list[str]:
        shown = ", ".join(f"{w:g}" for w in weights)
        lines = [f"NLTK's sentence_bleu with weights ({shown}) and smoothing method{cfg.nltk_smoothing}."]
        if cfg.auto_reweigh:
            lines.append("auto_reweigh is on: with the default weights, a candidate of 1-3 tokens weighs only the "
                         "orders it has.")
        lines.append("Orders whose precision is 0 after smoothing are left out of the weighted sum; no unigram "
                     "match gives 0.")
        return lines

    def no_match_line(self, cfg: BleuSettings, row: SentenceRow, n: int, weights: list[float]) -> str | None:
        if cfg.nltk_smoothing != 0:
            return None
        return (f"no {n}-gram matches: p{n} = 0/{row.totals[n - 1]}; NLTK's method0 uses the smallest float instead "
                "of 0, so the score is practically 0")

    def zero_reason(self, cfg: BleuSettings, row: SentenceRow, n: int | None) -> str | None:
        if row.counts[0] == 0:
            return "no unigram matches (NLTK returns 0)."
        if n is not None and cfg.nltk_smoothing == 0:
            return (f"no {n}-gram matches (p{n} = 0/{row.totals[n - 1]}) and NLTK's method0 puts the smallest "
                    f"float in its place, so the score is practically 0 ({row.score / 100:.3g}).")
        return None
