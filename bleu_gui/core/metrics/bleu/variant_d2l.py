"""The BLEU of *Dive into Deep Learning* (d2l.ai, section "Evaluation of Predicted Sequences").

Per sentence, with one reference: ``exp(min(0, 1 - len_ref/len_pred))`` times
``p_n ** (1/2**n)`` for n = 1..min(k, len_pred), where ``p_n`` is the clipped
n-gram precision. Orders longer than the prediction are skipped, not zero.
Tokens are the textbook's ``split(' ')``: two spaces make an empty token, and
an empty line is one empty token (so no length is ever 0). d2l has no corpus
BLEU: our corpus figure is the mean of sentence scores, and says so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

import numpy as np

from .... import __version__
from ...errors import ConfigError, term
from .. import libm
from ..settings import test_fields
from .scores import RowScores
from .variant import BleuSettings, SentenceRow, Variant, reference_fields

T = TypeVar("T")

CORPUS_NOTE = "d2l defines BLEU per sentence only; the corpus figure is the mean of sentence scores"
MULTI_REF_NOTE = "d2l uses one reference; only the first reference was used"


def score_rows(stats: np.ndarray, cfg: BleuSettings) -> RowScores:
    """d2l BLEU for every sentence row (statistics against the first reference only)."""
    k = cfg.max_order
    stats = np.atleast_2d(stats)
    pred_len = stats[:, 0]
    label_len = stats[:, 1]
    counts = stats[:, 2:2 + k]
    totals = stats[:, 2 + k:2 + 2 * k]
    rows = len(stats)
    pred_f = np.maximum(pred_len, 1).astype(np.float64)
    bp = libm.exp(np.minimum(0.0, 1.0 - label_len / pred_f))
    score = bp.copy()
    precisions = np.zeros((rows, k))
    for n in range(1, k + 1):
        used = pred_len >= n
        p = np.where(used, counts[:, n - 1] / np.maximum(totals[:, n - 1], 1), 0.0)
        precisions[:, n - 1] = p
        score = np.where(used, score * libm.power(p, math.pow(0.5, n)), score)
    return RowScores(score=100.0 * score, precisions=100.0 * precisions, bp=bp, counts=counts, totals=totals,
                     sys_len=pred_len, ref_len=label_len, valid=np.ones(rows, bool))


def corpus_score(sentence_scores: np.ndarray) -> float:
    """Mean of the sentence scores (0-100), summed exactly."""
    if len(sentence_scores) == 0:
        return 0.0
    return math.fsum(sentence_scores.tolist()) / len(sentence_scores)


def signature(cfg: BleuSettings, nrefs: int | str, tokenizer_signature: str, version: str) -> str:
    """A signature in sacreBLEU's style naming the d2l settings."""
    return "|".join([
        "variant:d2l", *reference_fields(cfg, nrefs), *test_fields(cfg.test), f"case:{'lc' if cfg.lowercase else 'mixed'}",
        f"tok:{tokenizer_signature}", f"k:{cfg.max_order}", "weights:1/2^n", "corpus:mean",
        f"version:bleu-gui-{version}",
    ])


class D2lBleu(Variant):
    """The d2l.ai textbook's sentence BLEU; the corpus figure is the mean of sentence scores."""

    name = "d2l"
    default_tokenizer = "none"
    hint = "d2l.ai textbook BLEU: first reference only; corpus = mean of sentence scores."
    token_split = "space"

    def references_used(self, references: Sequence[T]) -> list[T]:
        return list(references[:1])

    def notes(self, n_refs_given: int) -> tuple[str, ...]:
        return (CORPUS_NOTE, MULTI_REF_NOTE) if n_refs_given > 1 else (CORPUS_NOTE,)

    def validate(self, cfg: BleuSettings) -> None:
        if cfg.weights is not None:
            raise ConfigError(f"{term('bleu.weights')} applies to the nltk variant only: d2l weighs order n by 1/2^n")

    def sentence_scores(self, stats: np.ndarray, cfg: BleuSettings) -> RowScores:
        return score_rows(stats, cfg)

    def corpus_scores(self, stats: np.ndarray, cfg: BleuSettings) -> RowScores:
        # Precisions, BP and lengths from summed counts (for display); the score is the mean.
        rows = score_rows(stats.sum(axis=0, keepdims=True), cfg)
        mean = corpus_score(score_rows(stats, cfg).score)
        return RowScores(score=np.array([mean]), precisions=rows.precisions, bp=rows.bp, counts=rows.counts,
                         totals=rows.totals, sys_len=rows.sys_len, ref_len=rows.ref_len, valid=rows.valid)

    def without_each(self, stats: np.ndarray, cfg: BleuSettings) -> np.ndarray:
        L = len(stats)
        if L < 2:
            return np.zeros(L)
        scores = score_rows(stats, cfg).score
        return (scores.sum() - scores) / (L - 1)

    def signature(self, cfg: BleuSettings, nrefs: int | str, tokenizer_signature: str, sentence_level: bool,
                  resampling: dict[str, object] | None = None) -> str:
        return signature(cfg, nrefs, tokenizer_signature, __version__)

    def sentence_weights(self, cfg: BleuSettings, row: SentenceRow) -> list[float]:
        return [0.5 ** (n + 1) if n < row.hyp_len else 0.0 for n in range(len(row.counts))]

    def explain_lines(self, cfg: BleuSettings, row: SentenceRow, weights: list[float]) -> list[str]:
        used = [n + 1 for n, w in enumerate(weights) if w > 0]
        return [f"d2l weighs order n by 1/2^n (here {', '.join(f'1/{2 ** n}' for n in used) or 'none'}) and "
                "skips orders longer than the candidate; it scores against the first reference only.",
                "Its brevity penalty is exp(min(0, 1 − reference length / candidate length))."]

    def bp_formula(self, ref_len: int, hyp_len: int) -> str:
        return f"exp(min(0, 1 − {ref_len}/{hyp_len}))"
