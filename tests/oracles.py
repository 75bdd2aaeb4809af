"""The reference implementations our numbers are checked against: sacreBLEU and NLTK themselves."""

from __future__ import annotations

import warnings

from sacrebleu.metrics import BLEU

from bleu_gui.core import BleuConfig


def presence(references, rule: str = "empty"):
    """Which reference lines count, stated here on its own: every line (sacreBLEU's command line), or with
    ``missing`` a blank line is a reference left out, unless every reference of the sentence is blank."""
    n = len(references[0]) if references else 0
    if rule == "empty":
        return [[True] * n for _ in references]
    blank = [[not line.strip() for line in ref] for ref in references]
    all_blank = [all(b[i] for b in blank) for i in range(n)]
    return [[not b[i] or all_blank[i] for i in range(n)] for b in blank]


def with_missing(references, rule: str = "empty"):
    """References with missing ones as None, the way sacreBLEU's API takes them."""
    present = presence(references, rule)
    return [[line if present[r][i] else None for i, line in enumerate(ref)] for r, ref in enumerate(references)]


def sacre_tokenizer(name: str):
    """sacreBLEU's own tokenizer for ``name``, from the public package (its memo and all): the oracle of every
    tokenization, never the copy bleu-gui loads (whose 13a and zh rules run by table, see mteval_rules)."""
    return BLEU(tokenize=name).tokenizer


def sacre_metric(cfg: BleuConfig, effective_order: bool = False) -> BLEU:
    return BLEU(lowercase=cfg.lowercase, tokenize=cfg.tokenizer_name, smooth_method=cfg.smooth_method,
                smooth_value=cfg.smooth_value, max_ngram_order=cfg.max_order, effective_order=effective_order)


def sacre_corpus(hyps, references, cfg: BleuConfig):
    return sacre_metric(cfg).corpus_score(list(hyps), with_missing(references, cfg.empty_refs))


def sacre_corpora(systems, references, cfg: BleuConfig):
    """sacreBLEU's corpus score of each system: the references given once, as sacreBLEU caches them for many
    systems (``BLEU(references=…)``)."""
    metric = BLEU(lowercase=cfg.lowercase, tokenize=cfg.tokenizer_name, smooth_method=cfg.smooth_method,
                  smooth_value=cfg.smooth_value, max_ngram_order=cfg.max_order,
                  references=with_missing(references, cfg.empty_refs))
    return [metric.corpus_score(list(hyps), None) for hyps in systems]


def sacre_sentences(hyps, references, cfg: BleuConfig):
    metric = sacre_metric(cfg, effective_order=True)
    refs = with_missing(references, cfg.empty_refs)
    return [metric.sentence_score(h, [r[i] for r in refs if r[i] is not None]) for i, h in enumerate(hyps)]


def nltk_tokens(hyps, references, tokenize, rule: str = "empty"):
    """Token lists for NLTK (missing references left out)."""
    present = presence(references, rule)
    hyp_toks = [tokenize(h) for h in hyps]
    ref_toks = [[tokenize(ref[i]) for r, ref in enumerate(references) if present[r][i]] for i in range(len(hyps))]
    return hyp_toks, ref_toks


# NLTK is imported where it is called: its import (SciPy's with it) took ~2 s in every test process, most of whose
# tests never call it.
def nltk_bleu():
    """NLTK's ``nltk.translate.bleu_score`` module."""
    from nltk.translate import bleu_score

    return bleu_score


def _smoothing(cfg: BleuConfig):
    from nltk.translate.bleu_score import SmoothingFunction

    sf = SmoothingFunction(epsilon=cfg.nltk_epsilon, alpha=cfg.nltk_alpha, k=cfg.nltk_k)
    return getattr(sf, f"method{cfg.nltk_smoothing}")


def nltk_corpus(hyp_toks, ref_toks, cfg: BleuConfig) -> float:
    from nltk.translate.bleu_score import corpus_bleu

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return corpus_bleu(ref_toks, hyp_toks, weights=cfg.nltk_weights, smoothing_function=_smoothing(cfg),
                           auto_reweigh=cfg.auto_reweigh)


def nltk_sentence(hyp_tok, ref_tok, cfg: BleuConfig):
    """NLTK's sentence_bleu, or None where NLTK raises (method6 without a trigram precision)."""
    from nltk.translate.bleu_score import sentence_bleu

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return sentence_bleu(ref_tok, hyp_tok, weights=cfg.nltk_weights, smoothing_function=_smoothing(cfg),
                                 auto_reweigh=cfg.auto_reweigh)
        except (AssertionError, IndexError):
            return None


def sacre_wmt_xml_fields(path) -> dict[str, list[str]]:
    """sacreBLEU's own reading of a WMT XML file (lxml, ``WMTXMLDataset``), each line cleaned as its
    ``process_to_text`` cleans it before scoring."""
    from sacrebleu.dataset.base import Dataset
    from sacrebleu.dataset.wmt_xml import WMTXMLDataset

    fields = WMTXMLDataset._unwrap_wmt21_or_later(str(path))
    return {name: [Dataset._clean(line or "") for line in lines] for name, lines in fields.items()}


def sacre_sgml_segments(path) -> list[str]:
    """sacreBLEU's own reading of an old WMT SGML file (``FakeSGMLDataset._convert_format``)."""
    import tempfile
    from pathlib import Path

    from sacrebleu.dataset.fake_sgml import FakeSGMLDataset

    reader = object.__new__(FakeSGMLDataset)  # its conversion needs no downloaded data set
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out.txt"
        reader._convert_format(str(path), str(out))
        # sacreBLEU reads its text files back one line per "\n" (it writes with print).
        return out.read_text(encoding="utf-8").split("\n")[:-1]
