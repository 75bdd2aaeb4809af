"""The reference implementations our numbers are checked against: sacreBLEU and NLTK themselves."""

from __future__ import annotations

import warnings

from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu
from sacrebleu.metrics import BLEU

from bleu_gui.core import BleuConfig
from bleu_gui.core.evaluate import reference_presence


def with_missing(references):
    """References transposed per sentence with missing ones as None, the way sacreBLEU's API takes them."""
    present = reference_presence(references)
    return [[line if present[r, i] else None for i, line in enumerate(ref)] for r, ref in enumerate(references)]


def sacre_metric(cfg: BleuConfig, effective_order: bool = False) -> BLEU:
    return BLEU(lowercase=cfg.lowercase, tokenize=cfg.tokenizer_name, smooth_method=cfg.smooth_method,
                smooth_value=cfg.smooth_value, max_ngram_order=cfg.max_order, effective_order=effective_order)


def sacre_corpus(hyps, references, cfg: BleuConfig):
    return sacre_metric(cfg).corpus_score(list(hyps), with_missing(references))


def sacre_sentences(hyps, references, cfg: BleuConfig):
    metric = sacre_metric(cfg, effective_order=True)
    refs = with_missing(references)
    return [metric.sentence_score(h, [r[i] for r in refs if r[i] is not None]) for i, h in enumerate(hyps)]


def nltk_tokens(hyps, references, tokenize):
    """Token lists for NLTK (missing references left out)."""
    present = reference_presence(references)
    hyp_toks = [tokenize(h) for h in hyps]
    ref_toks = [[tokenize(ref[i]) for r, ref in enumerate(references) if present[r, i]] for i in range(len(hyps))]
    return hyp_toks, ref_toks


def _smoothing(cfg: BleuConfig):
    sf = SmoothingFunction(epsilon=cfg.nltk_epsilon, alpha=cfg.nltk_alpha, k=cfg.nltk_k)
    return getattr(sf, f"method{cfg.nltk_smoothing}")


def nltk_corpus(hyp_toks, ref_toks, cfg: BleuConfig) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return corpus_bleu(ref_toks, hyp_toks, weights=cfg.nltk_weights, smoothing_function=_smoothing(cfg),
                           auto_reweigh=cfg.auto_reweigh)


def nltk_sentence(hyp_tok, ref_tok, cfg: BleuConfig):
    """NLTK's sentence_bleu, or None where NLTK raises (method6 without a trigram precision)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return sentence_bleu(ref_tok, hyp_tok, weights=cfg.nltk_weights, smoothing_function=_smoothing(cfg),
                                 auto_reweigh=cfg.auto_reweigh)
        except (AssertionError, IndexError):
            return None
