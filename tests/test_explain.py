"""The why-this-score account: every number in its text is the one the oracles give."""

import math
import re
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_gui.core import Bleu, BleuConfig
from bleu_gui.core.metrics.bleu.explain import explain_sentence

from .oracles import nltk_bleu, sacre_metric
from .strategies import corpus
from .test_worked_examples import HYP1, KO_HYP, KO_REF, REF1, REF2, REF3


def account(refs, hyp, cfg, names=None):
    ev = Bleu([[r] for r in refs], cfg)
    stats = ev.statistics([hyp])
    names = names or [f"ref{i + 1}" for i in range(len(refs))]
    return explain_sentence(ev.details(0, hyp), stats[0].tolist(), ev.sentence_rows(stats), ev.config, names)


def fractions(text):
    """{order: (matched, total)} as the text states them."""
    return {int(n): (int(c), int(t)) for n, c, t in re.findall(r"\bp(\d) = (\d+)/(\d+)", text)}


def headline_score(explanation):
    return float(re.match(r"Sentence BLEU (\d+\.\d\d)", explanation.headline).group(1))


def test_the_the_the_unigram_case():
    refs = ["the cat is on the mat", "there is a cat on the mat"]
    hyp = "the the the the the the the"
    e = account(refs, hyp, BleuConfig(variant="nltk"))
    text = e.text()
    assert fractions(text)[1] == (2, 7)
    p1 = nltk_bleu().modified_precision([r.split() for r in refs], hyp.split(), 1)
    assert (p1.numerator, p1.denominator) == (2, 7)  # NLTK agrees (2/7 is already reduced)
    assert "'the' ×7 but at most 2 in one reference (ref1): 5 clipped" in text
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = nltk_bleu().sentence_bleu([r.split() for r in refs], hyp.split())
    assert headline_score(e) == round(100 * theirs, 2) == 0.0
    assert "method0" in e.headline and f"{theirs:.3g}" in e.headline


def test_papineni_nltk_sentence():
    refs = [REF1, REF2, REF3]
    e = account(refs, HYP1, BleuConfig(variant="nltk"))
    text = e.text()
    theirs = nltk_bleu().sentence_bleu([r.split() for r in refs], HYP1.split())
    assert round(theirs, 4) == 0.5046
    assert headline_score(e) == round(100 * theirs, 2)
    for n, (c, t) in fractions(text).items():
        p = nltk_bleu().modified_precision([r.split() for r in refs], HYP1.split(), n)
        assert c / t == pytest.approx(float(p)) and t == len(HYP1.split()) - n + 1
    assert fractions(text)[1] == (17, 18) and fractions(text)[2] == (10, 17)
    assert "no brevity penalty (BP = 1)" in text
    assert "effective reference length of 18 (ref2, the closest of the reference lengths" in text


def test_korean_example_against_sacrebleu():
    cfg = BleuConfig(tokenizer="none")
    e = account([KO_REF], KO_HYP, cfg)
    theirs = sacre_metric(cfg, effective_order=True).sentence_score(KO_HYP, [KO_REF])
    assert fractions(e.text()) == {1: (10, 14), 2: (5, 13), 3: (2, 12), 4: (1, 11)}
    assert [fractions(e.text())[n] for n in (1, 2, 3, 4)] == list(zip(theirs.counts, theirs.totals))
    assert headline_score(e) == round(theirs.score, 2) == 25.40
    shown = [float(x) for x in re.findall(r"= (\d+\.\d\d)%", e.text())]
    assert shown == [round(p, 2) for p in theirs.precisions]


def test_d2l_example():
    e = account(["A B C D E F"], "A B B C D", BleuConfig(variant="d2l", max_order=1))
    text = e.text()
    assert headline_score(e) == 73.23
    bp = math.exp(min(0, 1 - 6 / 5))
    assert f"BP = exp(min(0, 1 − 6/5)) = {bp:.3f}" in text
    assert fractions(text) == {1: (4, 5)}
    assert "1/2^n" in text


def test_brevity_penalty_names_the_closest_reference():
    refs = ["a b c d e f g h i j", "a b c d e f"]
    e = account(refs, "a b c d", BleuConfig())
    theirs = sacre_metric(BleuConfig(), effective_order=True).sentence_score("a b c d", refs)
    line = e.sections[1].lines[0]
    assert "4 tokens against an effective reference length of 6 (ref2, the closest of the reference lengths 10, 6)" in line
    assert f"= {theirs.bp:.3f}, −{100 * (1 - theirs.bp):.0f}%" in line


def test_exp_smoothing_is_spelled_out():
    e = account(["the cat sat on the mat today"], "the cat sat in a hat", BleuConfig())
    theirs = sacre_metric(BleuConfig(), effective_order=True).sentence_score("the cat sat in a hat",
                                                                           ["the cat sat on the mat today"])
    assert theirs.counts[3] == 0
    assert f"no 4-gram matches: p4 = 0/3; exp smoothing counts it as 1/(2·3) = {theirs.precisions[3]:.2f}%" in e.text()
    assert "The 4-gram precision" in e.text()


def test_no_match_at_all_is_not_said_to_be_smoothed():
    """sacreBLEU leaves before smoothing when no n-gram of any order matches (its issue #141): p1 stays 0."""
    e = account(["hello"], "bye", BleuConfig())
    theirs = sacre_metric(BleuConfig(), effective_order=True).sentence_score("bye", ["hello"])
    assert theirs.precisions[0] == 0.0 and theirs.score == 0.0
    text = e.text()
    assert "counts it as" not in text
    assert "no 1-gram matches: p1 = 0/1 = 0.00%; with no match of any order, sacreBLEU stops at 0 before " \
           "smoothing" in text


def test_effective_order_for_short_sentences():
    e = account(["hello world"], "hello world", BleuConfig())
    assert headline_score(e) == 100.0
    assert "only orders 1..2 count, each with weight 1/2" in e.text()


@given(data=corpus(max_lines=3, max_refs=2), smooth=st.sampled_from(["exp", "floor", "add-k", "none"]))
def test_numbers_in_the_text_are_sacrebleus(data, smooth):
    hyps, refs = data
    cfg = BleuConfig(smooth_method=smooth)
    ev = Bleu(refs, cfg)
    stats = ev.statistics(hyps)
    metric = sacre_metric(cfg, effective_order=True)
    for i, hyp in enumerate(hyps):
        e = explain_sentence(ev.details(i, hyp), stats[i].tolist(), ev.sentence_rows(stats[i:i + 1]), ev.config,
                             ["r1", "r2"])
        theirs = metric.sentence_score(hyp, [r[i] for r in refs])
        assert headline_score(e) == round(theirs.score, 2)
        # sacreBLEU reports add-k's counts with k added from order 2 on, unless it left early (nothing matched).
        k = 1 if smooth == "add-k" and theirs.counts[0] > 0 else 0
        for n, (c, t) in fractions(e.text()).items():
            assert (c, t) == (theirs.counts[n - 1] - (k if n > 1 else 0), theirs.totals[n - 1] - (k if n > 1 else 0))
        for _gram, count, most, clipped in re.findall(r"'([^']*)' ×(\d+) but at most (\d+) .*?: (\d+) clipped",
                                                     e.text()):
            assert int(clipped) == int(count) - int(most) > 0


def test_no_order_is_said_to_pull_a_perfect_sentence_down():
    refs = ["The cat is sitting on the mat next to the door ."]
    e = account(refs, refs[0], BleuConfig())
    assert headline_score(e) == round(sacre_metric(BleuConfig()).sentence_score(refs[0], refs).score, 2) == 100.0
    assert "pulls the score down" not in e.text()
    # With an imperfect order the weakest one is still named.
    assert "The 4-gram precision" in account(refs, "The cat is sitting on the mat next to a door .",
                                             BleuConfig()).text()


def test_a_one_token_candidate_is_one_token():
    line = account(["ok"], "ok", BleuConfig()).sections[1].lines[0]
    assert line.startswith("1 token against an effective reference length of 1 ("), line
