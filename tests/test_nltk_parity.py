"""Our nltk variant equals NLTK's corpus_bleu and sentence_bleu, every smoothing method."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_gui.core import Bleu, BleuConfig
from bleu_gui.core.inputs.text_files import read_segments

from .conftest import data_set
from .oracles import nltk_corpus, nltk_sentence, nltk_tokens, sacre_tokenizer
from .strategies import corpus

EPS = 1e-9

weights = st.sampled_from([None, (0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.1, 0.2, 0.3, 0.4),
                           (0.4, 0.3, 0.2, 0.05, 0.05), (1.0,)])


def close(a, b):
    return a == b  # bit for bit


@given(data=corpus(), method=st.integers(0, 7), w=weights, reweigh=st.booleans(),
       rule=st.sampled_from(["empty", "missing"]))
def test_random_corpus_and_sentences(data, method, w, reweigh, rule):
    hyps, refs = data
    cfg = BleuConfig(variant="nltk", nltk_smoothing=method, weights=w, auto_reweigh=reweigh,
                     empty_refs=rule).validated()
    ev = Bleu(refs, cfg)
    stats = ev.statistics(hyps)
    hyp_toks, ref_toks = nltk_tokens(hyps, refs, str.split, rule)
    theirs = None
    try:
        theirs = nltk_corpus(hyp_toks, ref_toks, cfg)
    except (AssertionError, IndexError):  # NLTK's method6 refuses
        pass
    ours = ev.corpus_score(stats)
    if theirs is None:
        assert math.isnan(ours.score)
    else:
        assert close(ours.score, 100 * theirs), (ours.score, 100 * theirs)
    rows = ev.sentence_rows(stats)
    for i in range(len(hyps)):
        theirs = nltk_sentence(hyp_toks[i], ref_toks[i], cfg)
        if theirs is None:
            assert math.isnan(rows.score[i]) and not rows.valid[i]
        else:
            assert close(rows.score[i], 100 * theirs), (i, rows.score[i], 100 * theirs)


@pytest.mark.parametrize("method", range(8))
def test_smoothing_parameters(method):
    hyps = ["the cat sat on the mat today", "a b c", "x"]
    refs = [["the cat is on the mat", "a b d c", "x y"], ["there is a cat on the mat", "a b c d", "y"]]
    cfg = BleuConfig(variant="nltk", nltk_smoothing=method, nltk_epsilon=0.3, nltk_alpha=2.0, nltk_k=3.0)
    ev = Bleu(refs, cfg)
    hyp_toks, ref_toks = nltk_tokens(hyps, refs, str.split)
    assert close(ev.corpus_score(ev.statistics(hyps)).score, 100 * nltk_corpus(hyp_toks, ref_toks, cfg))


@pytest.mark.slow
@pytest.mark.parametrize("set_name", ["kor-sacrebleu-doc1-en-ko", "mtce-en-cs-medium", "wmt21-en-de-3ref",
                                      "cmt-ted-sk-en", "wmt22-en-ja"])
def test_real_sets_every_method(set_name):
    folder = data_set(set_name)
    refs = [read_segments(p).lines for p in sorted(folder.glob("ref*.txt"))]
    hyps = read_segments(folder / "sys1.txt").lines
    hyp_toks, ref_toks = nltk_tokens(hyps, refs, str.split)
    for method in range(8):
        cfg = BleuConfig(variant="nltk", nltk_smoothing=method)
        ev = Bleu(refs, cfg)
        stats = ev.statistics(hyps)
        theirs = nltk_corpus(hyp_toks, ref_toks, cfg)
        assert close(ev.corpus_score(stats).score, 100 * theirs), (method, ev.corpus_score(stats).score, theirs)
        rows = ev.sentence_rows(stats)
        for i in range(0, len(hyps), max(1, len(hyps) // 60)):
            s = nltk_sentence(hyp_toks[i], ref_toks[i], cfg)
            if s is None:
                assert math.isnan(rows.score[i])
            else:
                assert close(rows.score[i], 100 * s), (method, i)


def test_nltk_with_a_sacrebleu_tokenizer():
    tok = sacre_tokenizer("13a")
    hyps = ["Hello, world! It's 3.5 o'clock.", "A test (really)."]
    refs = [["Hello world, it's 3.5 o'clock.", "A test, really."]]
    cfg = BleuConfig(variant="nltk", tokenizer="13a", nltk_smoothing=1)
    ev = Bleu(refs, cfg)
    hyp_toks, ref_toks = nltk_tokens(hyps, refs, lambda s: tok(s.rstrip()).split())
    assert close(ev.corpus_score(ev.statistics(hyps)).score, 100 * nltk_corpus(hyp_toks, ref_toks, cfg))
