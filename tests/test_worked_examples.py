"""Hand-worked and published examples: Papineni et al. 2002, the d2l textbook, a Korean pair, BP ties."""

import collections
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_gui.core import Bleu, BleuConfig
from bleu_gui.core.metrics.ngram_stats import closest_ref_lengths

# Papineni et al. (2002), and NLTK's documentation of sentence_bleu.
HYP1 = ("It is a guide to action which ensures that the military always obeys the commands of the party")
HYP2 = "It is to insure the troops forever hearing the activity guidebook that party direct"
REF1 = "It is a guide to action that ensures that the military will forever heed Party commands"
REF2 = "It is the guiding principle which guarantees the military forces always being under the command of the Party"
REF3 = "It is the practical guide for the army always to heed the directions of the party"


def nltk_cfg(**kw):
    return BleuConfig(variant="nltk", **kw)


def test_papineni_sentence_bleu_value():
    ev = Bleu([[REF1], [REF2], [REF3]], nltk_cfg())
    assert ev.corpus_score(ev.statistics([HYP1])).score == pytest.approx(100 * 0.5045666840058485, abs=1e-12)


@pytest.mark.parametrize("hyp,unigram,bigram", [(HYP1, (17, 18), (10, 17)), (HYP2, (8, 14), (1, 13))])
def test_papineni_modified_precisions(hyp, unigram, bigram):
    ev = Bleu([[REF1], [REF2], [REF3]], nltk_cfg())
    stats = ev.statistics([hyp])[0]
    assert (stats[2], stats[6]) == unigram
    assert (stats[3], stats[7]) == bigram


def test_the_the_the_is_clipped():
    ev = Bleu([["the cat is on the mat"], ["there is a cat on the mat"]], nltk_cfg())
    stats = ev.statistics(["the the the the the the the"])[0]
    assert (stats[2], stats[6]) == (2, 7)
    details = ev.details(0, "the the the the the the the")
    assert details.status_counts(1) == {"matched": 2, "clipped": 5, "unmatched": 0}
    statuses = [o.status for o in details.occurrences[1]]
    assert statuses == ["matched"] * 2 + ["clipped"] * 5
    assert all(o.max_ref_count == 2 and o.max_ref == 0 for o in details.occurrences[1])


def d2l_textbook(pred_seq, label_seq, k):
    """The textbook's definition written out plainly: the independent check for our vectorised d2l."""
    pred, label = pred_seq.split(" "), label_seq.split(" ")
    score = math.exp(min(0, 1 - len(label) / len(pred)))
    for n in range(1, min(k, len(pred)) + 1):
        label_counts = collections.Counter(tuple(label[i:i + n]) for i in range(len(label) - n + 1))
        matches = 0
        for i in range(len(pred) - n + 1):
            gram = tuple(pred[i:i + n])
            if label_counts[gram] > 0:
                matches += 1
                label_counts[gram] -= 1
        score *= math.pow(matches / (len(pred) - n + 1), math.pow(0.5, n))
    return score


@pytest.mark.parametrize("k,expected", [(1, 0.7322950476607851), (2, 0.6814773296495302),
                                        (3, 0.5940339360503315), (4, 0.0)])
def test_d2l_published_numbers(k, expected):
    ev = Bleu([["A B C D E F"]], BleuConfig(variant="d2l", max_order=k))
    score = ev.corpus_score(ev.statistics(["A B B C D"]))
    assert score.score == pytest.approx(100 * expected, abs=1e-12)
    assert any("mean of sentence scores" in n for n in score.notes)


tokens = st.lists(st.sampled_from("A B C D E F".split()), min_size=1, max_size=9).map(" ".join)


@given(pred=tokens, label=tokens, k=st.integers(1, 5))
def test_d2l_matches_textbook_definition(pred, label, k):
    ev = Bleu([[label]], BleuConfig(variant="d2l", max_order=k))
    ours = ev.sentence_rows(ev.statistics([pred])).score[0]
    assert ours == pytest.approx(100 * d2l_textbook(pred, label, k), rel=1e-12, abs=1e-12)


def test_d2l_corpus_is_mean_and_first_reference_only():
    ev = Bleu([["A B C D", "x y"], ["zzz", "x y"]], BleuConfig(variant="d2l", max_order=2))
    score = ev.corpus_score(ev.statistics(["A B C", "x y"]))
    expected = (d2l_textbook("A B C", "A B C D", 2) + d2l_textbook("x y", "x y", 2)) / 2
    assert score.score == pytest.approx(100 * expected, abs=1e-12)
    assert any("first reference" in n for n in score.notes)


KO_HYP = "빛이 쐬는 노인은 완벽한 어두운곳에서 잠든 사람과 비교할 때 강박증이 심해질 기회가 훨씬 높았다"
KO_REF = "빛이 쐬는 사람은 완벽한 어둠에서 잠든 사람과 비교할 때 우울증이 심해질 가능성이 훨씬 높았다"


def test_korean_pair():
    ev = Bleu([[KO_REF]], BleuConfig(tokenizer="none"))
    score = ev.corpus_score(ev.statistics([KO_HYP]))
    assert list(zip(score.counts, score.totals)) == [(10, 14), (5, 13), (2, 12), (1, 11)]
    assert round(score.score, 2) == 25.40
    # By hand: BP = 1 (14 tokens each); exp(mean(log p_n)).
    by_hand = 100 * math.exp((math.log(10 / 14) + math.log(5 / 13) + math.log(2 / 12) + math.log(1 / 11)) / 4)
    assert score.score == pytest.approx(by_hand, abs=1e-12)


def test_brevity_penalty_tie_goes_to_shorter_reference():
    import numpy as np

    assert closest_ref_lengths(np.array([10]), np.array([[9], [11]]))[0] == 9
    ev = Bleu([[" ".join("abcdefghi")], [" ".join("abcdefghijk")]], BleuConfig())
    score = ev.corpus_score(ev.statistics([" ".join("abcdefghij")]))
    assert (score.sys_len, score.ref_len, score.bp) == (10, 9, 1.0)
    short = ev.corpus_score(ev.statistics([" ".join("abcdefgh")]))
    assert short.ref_len == 9 and short.bp == pytest.approx(math.exp(1 - 9 / 8))
