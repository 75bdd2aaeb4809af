"""sacreBLEU's BLEU (``sacrebleu.metrics.BLEU.compute_bleu``), vectorised over rows of statistics.

Matches sacreBLEU 2.x detail for detail (exp and log are the C library's, as its ``math`` calls; see
:mod:`.libm`): the early exit when nothing matches,
add-k applied from order 2 on, the ``exp`` (NIST) smoothing counter, the break
at the first order with no n-grams, effective order, and ``my_log(0)`` being a
huge negative number so that any zero precision gives 0.
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np

from ...errors import ConfigError, term
from .. import libm
from ..base import resampled_float
from ..sacrebleu_parts import sacrebleu_version
from ..settings import test_fields
from .scores import RowScores
from .variant import BleuSettings, SentenceRow, Variant, reference_fields

_MY_LOG_ZERO = -9999999999.0


_ROWS = 1 << 16  # rows scored at a time: a million rows at once held ~100 MB of temporaries at the peak


def score_rows(stats: np.ndarray, cfg: BleuSettings, effective_order: bool, float32: bool = False,
               exact: bool = True) -> RowScores:
    """BLEU for every row of ``stats`` ([hyp_len, ref_len, correct_1..N, total_1..N]).

    ``float32=True`` reproduces sacreBLEU's bootstrap arithmetic (statistics
    held as float32, so precisions are float32 numbers under NumPy 2). ``exact=False``: NumPy's exp and log
    instead of the C library's (:mod:`.libm` maps those over Python floats, 70% of an approximate randomization's
    time), a few units in the last place from sacreBLEU's numbers.
    """
    stats = np.atleast_2d(stats)
    N, rows = cfg.max_order, len(stats)
    score, precisions, bp = np.empty(rows), np.empty((rows, N)), np.empty(rows)
    for a in range(0, rows, _ROWS):  # each row on its own: blocks change no number
        b = min(a + _ROWS, rows)
        score[a:b], precisions[a:b], bp[a:b] = _score_block(stats[a:b], cfg, effective_order, float32, exact)
    return RowScores(score=score, precisions=precisions, bp=bp, counts=stats[:, 2:2 + N],
                     totals=stats[:, 2 + N:2 + 2 * N], sys_len=stats[:, 0], ref_len=stats[:, 1],
                     valid=np.ones(rows, bool))


def _score_block(stats: np.ndarray, cfg: BleuSettings, effective_order: bool, float32: bool,
                 exact: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(score, precisions, brevity penalty) of each row of ``stats``.

    Whole columns are computed and the cases chosen with ``np.where`` (no masked assignment: a million rows
    took ~0.35 s that way). Each element goes through the same operations, in the same order, as in
    sacreBLEU's loop, so every number is the same.
    """
    ftype = resampled_float(float32)
    exp, log = (libm.exp, libm.log) if exact else (np.exp, np.log)
    N = cfg.max_order
    sys_len = stats[:, 0].astype(np.float64)
    ref_len = stats[:, 1].astype(np.float64)
    counts = stats[:, 2:2 + N]
    correct: np.ndarray = counts.astype(ftype)
    total: np.ndarray = stats[:, 2 + N:2 + 2 * N].astype(ftype)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        short = (sys_len < ref_len) & (sys_len > 0)
        bp = np.where(short, exp(np.where(short, 1.0 - ref_len / np.where(short, sys_len, 1.0), 0.0)),
                      np.where(sys_len < ref_len, 0.0, 1.0))
        k = cfg.smoothing_value
        if cfg.smooth_method == "add-k":
            correct[:, 1:] += ftype(k)
            total[:, 1:] += ftype(k)
        # sacreBLEU stops at the first order without n-grams; the orders before it are "live".
        live = np.logical_and.accumulate(total != 0, axis=1)
        zero = live & (correct == 0)
        hundred = ftype(100.0)
        precisions = np.where(live & ~zero, hundred * correct / total, ftype(0.0))
        if cfg.smooth_method == "exp":
            # The NIST counter doubles at each order without a match: 2 ** (such orders so far).
            smooth_mteval = np.ldexp(1.0, np.cumsum(zero, axis=1))
            precisions = np.where(zero, hundred / (smooth_mteval.astype(ftype) * total), precisions)
        elif cfg.smooth_method == "floor":
            precisions = np.where(zero, ftype(100.0 * float(k or 0.0)) / total, precisions)
    eff_order = live.sum(axis=1) if effective_order else np.full(len(stats), N)
    eff_order[eff_order == 0] = N  # no order with n-grams: sacreBLEU leaves the order as it was

    precisions = precisions.astype(np.float64)  # logs of the exact (possibly float32) values, in double
    with np.errstate(divide="ignore"):
        logs = np.where(precisions > 0, log(np.where(precisions > 0, precisions, 1.0)), _MY_LOG_ZERO)
    log_sum = np.zeros(len(stats))
    for n in range(N):  # added order by order, as sacreBLEU sums
        log_sum += np.where(n < eff_order, logs[:, n], 0.0)
    any_match = counts.any(axis=1)
    score = np.where(any_match, bp * exp(log_sum / eff_order), 0.0)
    precisions[~any_match] = 0.0
    return score, precisions, bp


def signature(cfg: BleuSettings, nrefs: int | str, tokenizer_signature: str, effective_order: bool,
              sacrebleu_version: str, resampling: dict[str, object] | None = None) -> str:
    """sacreBLEU's signature string, e.g. ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``.

    sacreBLEU's own signature does not mention the n-gram order; a non-default
    order is added as ``order:N`` so the string still states every setting.
    ``resampling`` adds sacreBLEU's ``bs``/``ar``/``seed`` fields after ``nrefs``.
    """
    smooth = cfg.smooth_method
    if cfg.smoothing_value is not None:
        smooth += f"[{cfg.smoothing_value:.2f}]"
    extra = [f"{k}:{v}" for k, v in (resampling or {}).items()]
    parts = [*reference_fields(cfg, nrefs), *extra, *test_fields(cfg.test), f"case:{'lc' if cfg.lowercase else 'mixed'}",
             f"eff:{'yes' if effective_order else 'no'}", f"tok:{tokenizer_signature}", f"smooth:{smooth}"]
    if cfg.max_order != 4:
        parts.append(f"order:{cfg.max_order}")
    parts.append(f"version:{sacrebleu_version}")
    return "|".join(parts)


class SacreBleu(Variant):
    """sacreBLEU 2.x: corpus BLEU from summed statistics; sentence BLEU with effective order (``-sl``)."""

    name = "sacrebleu"
    default_tokenizer = "13a"
    # sacreBLEU 2.x BLEU.__init__: zh, ja-mecab or ko-mecab when trg_lang is one of them and no tokenizer is given.
    language_tokenizers = MappingProxyType({"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"})
    hint = "sacreBLEU 2.x BLEU; sentence scores use effective order (as sacrebleu -sl)."
    significance = True
    corpus_is_sum = True
    warns_tokenized = True
    settings = frozenset({"smooth_method", "smooth_value"})

    def validate(self, cfg: BleuSettings) -> None:
        if cfg.weights is not None:
            raise ConfigError(f"{term('bleu.weights')} applies to the nltk variant only: sacreBLEU weighs every order 1/N "
                              f"(set {term('bleu.max_order')})")
        if cfg.smooth_value is not None and cfg.smooth_method in ("exp", "none"):
            raise ConfigError(f"smoothing method {cfg.smooth_method!r} takes no value ({term('bleu.smooth_value')} is for "
                              "floor and add-k)")

    def sentence_scores(self, stats: np.ndarray, cfg: BleuSettings) -> RowScores:
        return score_rows(stats, cfg, effective_order=True)

    def corpus_scores(self, stats: np.ndarray, cfg: BleuSettings) -> RowScores:
        return score_rows(stats.sum(axis=0, keepdims=True), cfg, effective_order=False)

    def scores_of_sums(self, sums: np.ndarray, cfg: BleuSettings, float32: bool = False,
                       exact: bool = True) -> np.ndarray:
        return score_rows(sums, cfg, effective_order=False, float32=float32, exact=exact).score

    def without_each(self, stats: np.ndarray, cfg: BleuSettings) -> np.ndarray:
        if len(stats) < 2:
            return np.zeros(len(stats))
        return score_rows(stats.sum(axis=0)[None, :] - stats, cfg, effective_order=False).score

    def signature(self, cfg: BleuSettings, nrefs: int | str, tokenizer_signature: str, sentence_level: bool,
                  resampling: dict[str, object] | None = None) -> str:
        return signature(cfg, nrefs, tokenizer_signature, sentence_level, sacrebleu_version(), resampling)

    def sentence_weights(self, cfg: BleuSettings, row: SentenceRow) -> list[float]:
        # Effective order: orders up to the first with no n-grams (after add-k).
        N = len(row.counts)
        k = (cfg.smoothing_value or 0.0) if cfg.smooth_method == "add-k" else 0.0
        eff = next((n for n in range(N) if row.totals[n] + (k if n else 0.0) == 0), N) or N
        return [1 / eff if n < eff else 0.0 for n in range(N)]

    def explain_lines(self, cfg: BleuSettings, row: SentenceRow, weights: list[float]) -> list[str]:
        N = len(row.counts)
        used = [n + 1 for n, w in enumerate(weights) if w > 0]
        lines = ["sacreBLEU's sentence BLEU (sentence_bleu, sacrebleu -sl) uses effective order: orders the "
                 "candidate has no n-grams of are left out."]
        if len(used) < N:
            lines.append(f"Here only orders 1..{len(used)} count, each with weight 1/{len(used)}.")
        else:
            lines.append(f"All {N} orders count, each with weight 1/{N}.")
        smooth = {"exp": "exp: the k-th order with no match counts as 1/(2^k · n-grams)",
                  "floor": f"floor: an order with no match counts as {cfg.smoothing_value}/n-grams",
                  "add-k": f"add-k: {cfg.smoothing_value} is added to matches and n-grams from order 2 on",
                  "none": "none: any order with no match makes the score 0"}[cfg.smooth_method]
        lines.append(f"Smoothing {smooth}.")
        return lines

    def no_match_line(self, cfg: BleuSettings, row: SentenceRow, n: int, weights: list[float]) -> str | None:
        t, p = row.totals[n - 1], row.precisions[n - 1]
        if not any(row.counts):
            # compute_bleu returns 0 before smoothing when nothing matches (sacreBLEU's issue #141).
            return (f"no {n}-gram matches: p{n} = 0/{t} = {p:.2f}%; with no match of any order, sacreBLEU stops at "
                    "0 before smoothing")
        if cfg.smooth_method != "exp":
            return None
        # The NIST counter doubles at each counted order without a match, this one included.
        zeros = sum(1 for m in range(n) if row.counts[m] == 0 and row.totals[m] > 0 and weights[m] > 0)
        return f"no {n}-gram matches: p{n} = 0/{t}; exp smoothing counts it as 1/({2 ** zeros}·{t}) = {p:.2f}%"
