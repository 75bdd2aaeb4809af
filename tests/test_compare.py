"""Per-sentence and n-gram comparisons, checked against sacreBLEU and plain counting."""

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_gui.core import Bleu, BleuConfig
from bleu_gui.core.analysis.compare import NgramComparison, bucket_scores, leave_one_out, length_buckets
from bleu_gui.core.metrics.sacre_tokenizers import load_tokenizer

from .oracles import nltk_corpus, nltk_tokens, sacre_corpus
from .strategies import sentence


def comparison(ev, a, b, max_order=4):
    """The n-gram comparison of two systems, from the matched rows that scoring returns."""
    _, rows_a = ev.matched_statistics(a)
    _, rows_b = ev.matched_statistics(b)
    return NgramComparison(ev, rows_a, rows_b, max_order=max_order)


corpora = st.integers(2, 8).flatmap(lambda n: st.tuples(
    st.lists(sentence(), min_size=n, max_size=n), st.lists(sentence(), min_size=n, max_size=n),
    st.lists(st.lists(sentence(), min_size=n, max_size=n), min_size=1, max_size=2)))


def sacre_score(hyps, refs, cfg):
    return sacre_corpus(hyps, refs, cfg).score


def nltk_score(hyps, refs, cfg):
    hyp_toks, ref_toks = nltk_tokens(hyps, refs, str.split)
    return 100 * nltk_corpus(hyp_toks, ref_toks, cfg)


@settings(max_examples=40, deadline=None)
@given(data=corpora, cfg=st.sampled_from([BleuConfig()] + [BleuConfig(variant="nltk", nltk_smoothing=m)
                                                           for m in (0, 1, 5, 7)]))
def test_leave_one_out_equals_the_oracle_without_the_sentence(data, cfg):
    """Leave-one-out against sacreBLEU (or NLTK, whose corpus_bleu smooths with the last sentence) run
    without each sentence in turn."""
    oracle = sacre_score if cfg.variant == "sacrebleu" else nltk_score
    a, b, refs = data
    ev = Bleu(refs, cfg)
    sa, sb = ev.statistics(a), ev.statistics(b)
    ca, cb = ev.corpus_score(sa).score, ev.corpus_score(sb).score
    loo = leave_one_out(ev, ev.without_each(sa), sb, ca, cb)
    for i in range(len(a)):
        keep = [j for j in range(len(a)) if j != i]
        sub_refs = [[r[j] for j in keep] for r in refs]
        without = oracle([b[j] for j in keep], sub_refs, cfg) - oracle([a[j] for j in keep], sub_refs, cfg)
        assert math.isclose(loo[i], (cb - ca) - without, abs_tol=1e-9)


def plain_clipped_matches(hyps, refs, n, tokenize):
    """Corpus-wide clipped matches per n-gram, counted sentence by sentence with Counters."""
    total = Counter()
    for i, hyp in enumerate(hyps):
        h = tokenize(hyp)
        grams = Counter(tuple(h[k:k + n]) for k in range(len(h) - n + 1))
        best = Counter()
        for ref in refs:
            r = tokenize(ref[i])
            for g, c in Counter(tuple(r[k:k + n]) for k in range(len(r) - n + 1)).items():
                best[g] = max(best[g], c)
        for g, c in grams.items():
            if best[g]:
                total[" ".join(g)] += min(c, best[g])
    return total


@settings(max_examples=60, deadline=None)
@given(data=corpora, order=st.integers(1, 3))
def test_ngram_wins_and_losses_equal_plain_counting(data, order):
    a, b, refs = data
    if any(not any(line.strip() for line in col) for col in zip(*refs)):
        refs = [[line if line.strip() else "x" for line in ref] for ref in refs]
    ev = Bleu(refs, BleuConfig())
    tok = load_tokenizer("13a")
    tokenize = lambda s: tok(s.rstrip()).split()  # noqa: E731
    ma, mb = plain_clipped_matches(a, refs, order, tokenize), plain_clipped_matches(b, refs, order, tokenize)
    wins_b, wins_a = comparison(ev, a, b, max_order=3).differences(order, top=1000)
    expected_b = {g: (ma[g], mb[g]) for g in set(ma) | set(mb) if mb[g] > ma[g]}
    expected_a = {g: (ma[g], mb[g]) for g in set(ma) | set(mb) if ma[g] > mb[g]}
    assert {d.ngram: (d.matches_a, d.matches_b) for d in wins_b} == expected_b
    assert {d.ngram: (d.matches_a, d.matches_b) for d in wins_a} == expected_a
    assert [d.delta for d in wins_b] == sorted((d.delta for d in wins_b), reverse=True)


def test_sentences_with_an_ngram():
    refs = [["the cat is on the mat", "a dog barks", "the cat sleeps"]]
    ev = Bleu(refs)
    comp = comparison(ev, ["the cat", "a dog", "a cat sleeps"], ["cat is on", "the dog barks", "the cat sleeps"])
    assert comp.sentences_with(2, "the cat").tolist() == [0, 2]
    assert comp.sentences_with(1, "barks").tolist() == [1]
    assert comp.sentences_with(1, "unicorn").tolist() == []


def test_length_buckets_equal_sacrebleu_on_subsets():
    refs = [["a b c d e f g h i j k l", "a b c", "x y z w v u t s r q p o n m l k j i h g f e"]]
    a = ["a b c d e f g h i j k", "a b", "x y z w v u t s r q p o n m l k j i h g f"]
    ev = Bleu(refs)
    sa = ev.statistics(a)
    labels, masks = length_buckets(sa[:, 1])
    scores, counts = bucket_scores([sa], ev, masks), [int(m.sum()) for m in masks]
    assert labels[:3] == ["<10", "10-19", "20-29"] and counts[:3] == [1, 1, 1]
    assert scores[0, 0] == pytest.approx(sacre_corpus([a[1]], [[refs[0][1]]], BleuConfig()).score, abs=1e-9)
    assert scores[0, 1] == pytest.approx(sacre_corpus([a[0]], [[refs[0][0]]], BleuConfig()).score, abs=1e-9)
    assert np.isnan(scores[0, 3])


@settings(max_examples=40, deadline=None)
@given(keys=st.lists(st.integers(0, 2**40), min_size=0, max_size=400), chunk=st.integers(1, 50),
       zipf=st.booleans())
def test_dense_ranks_in_pieces_equal_numpy_unique(keys, chunk, zipf):
    from unittest import mock

    from bleu_gui.core.metrics import chunked

    values = np.array(keys, np.int64)
    if zipf and len(values):
        values = values % 7  # a few keys carry most of the mass
    calls = []
    with mock.patch.object(chunked, "CHUNK", chunk):
        ranks = chunked.dense_ranks(values, progress=calls.append)
    assert ranks.tolist() == np.unique(values, return_inverse=True)[1].tolist()
    if len(values) > chunk:
        assert calls  # cancel checks between the pieces
