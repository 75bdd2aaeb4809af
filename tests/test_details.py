"""Match details: statuses, reference marks, character offsets; consistent with the corpus statistics."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_gui.core import Bleu, BleuConfig
from bleu_gui.core.metrics.alignment import char_spans
from bleu_gui.core.metrics.bleu.details import CLIPPED, MATCHED, UNMATCHED

from .conftest import data_set
from .strategies import corpus


def test_statuses_and_reference_marks():
    ev = Bleu([["the cat is on the mat"], ["there is a cat on the mat"]])
    d = ev.details(0, "the cat the cat on the mat")
    uni = d.occurrences[1]
    # "cat on the mat" (reference 2) is matched whole, so its "cat" and "the" are the matched ones; the first
    # "the cat" (reference 1) keeps the other "the"; the "cat" inside the 4-gram wins over the one inside the bigram.
    assert [(o.ngram, o.status) for o in uni] == [
        (("the",), MATCHED), (("cat",), CLIPPED), (("the",), CLIPPED), (("cat",), MATCHED),
        (("on",), MATCHED), (("the",), MATCHED), (("mat",), MATCHED)]
    assert uni[0].count == 3 and uni[0].max_ref_count == 2 and uni[0].max_ref == 0
    bi = {(o.ngram, o.status) for o in d.occurrences[2]}
    assert (("the", "cat"), MATCHED) in bi and (("cat", "the"), UNMATCHED) in bi
    # Reference 1 "the cat is on the mat": both "the", "cat", "on", "mat" matched at order 1.
    assert [(s.start, s.end) for s in d.ref_matches[0][1]] == [(0, 1), (1, 2), (3, 4), (4, 5), (5, 6)]
    assert d.best_matched_order()[3:] == [4, 4, 4, 4]  # "cat on the mat" is in reference 2


@given(data=corpus(max_lines=3, max_refs=3), tok=st.sampled_from(["13a", "intl", "none", "char", "zh"]),
       lc=st.booleans())
def test_details_agree_with_statistics(data, tok, lc):
    hyps, refs = data
    ev = Bleu(refs, BleuConfig(tokenizer=tok, lowercase=lc))
    stats = ev.statistics(hyps)
    for i, hyp in enumerate(hyps):
        d = ev.details(i, hyp)
        for n in range(1, 5):
            counts = d.status_counts(n)
            assert counts[MATCHED] == stats[i, 1 + n]
            assert sum(counts.values()) == stats[i, 1 + 4 + n]
        for marks in d.ref_matches:
            for n, spans in marks.items():
                assert len(spans) <= counts_matched(d, n)


def test_clipping_keeps_occurrences_inside_longer_matches():
    ref = "Please read the instructions before you start the test ."
    hyp = "Please read the the the instructions before you start the test ."
    d = Bleu([[ref]]).details(0, hyp)
    the = [o for o in d.occurrences[1] if o.ngram == ("the",)]
    assert [o.start for o in the] == [2, 3, 4, 9]
    # "the instructions before you" and "you start the test" are matched 4-grams: their "the" stay matched
    # ("Please read the" is only a trigram); the surplus of the tripled "the" is clipped.
    assert [o.status for o in the] == [CLIPPED, CLIPPED, MATCHED, MATCHED]
    assert (the[0].count, the[0].max_ref_count) == (4, 2)
    # Bigram counts are unchanged: each of these occurs once and is matched.
    bigrams = {(o.start, o.ngram): o.status for o in d.occurrences[2]}
    assert bigrams[(1, ("read", "the"))] == MATCHED and bigrams[(4, ("the", "instructions"))] == MATCHED


@given(data=corpus(max_lines=3, max_refs=3), tok=st.sampled_from(["13a", "none", "char"]), lc=st.booleans())
def test_clipped_occurrences_are_count_minus_clipped_count(data, tok, lc):
    hyps, refs = data
    ev = Bleu(refs, BleuConfig(tokenizer=tok, lowercase=lc))
    for i, hyp in enumerate(hyps):
        d = ev.details(i, hyp)
        ref_tokens = [ev.tokenization.tokens(r[i]) for r in refs]
        for n, occs in d.occurrences.items():
            grams = Counter(o.ngram for o in occs)
            for gram, count in grams.items():
                max_ref = max(Counter(zip(*(t[k:] for k in range(n))))[gram] for t in ref_tokens)
                statuses = Counter(o.status for o in occs if o.ngram == gram)
                if max_ref:
                    assert statuses[CLIPPED] == count - min(count, max_ref)
                    assert statuses[MATCHED] == min(count, max_ref)
                else:
                    assert statuses[UNMATCHED] == count


@given(data=corpus(max_lines=3, max_refs=3), tok=st.sampled_from(["13a", "intl", "none", "char", "zh"]),
       lc=st.booleans(), empty=st.sampled_from(["empty", "missing"]))
def test_one_sentence_statistics_equal_the_corpus_rows(data, tok, lc, empty):
    hyps, refs = data
    ev = Bleu(refs, BleuConfig(tokenizer=tok, lowercase=lc, empty_refs=empty))
    stats = ev.statistics(hyps)
    for i, hyp in enumerate(hyps):
        assert ev.details(i, hyp).statistics(4) == stats[i].tolist()


def counts_matched(d, n):
    return d.status_counts(n)[MATCHED]


@given(data=corpus(max_lines=2, max_refs=1), tok=st.sampled_from(["13a", "intl", "none", "char", "zh"]),
       lc=st.booleans())
def test_char_spans_cover_the_token_text(data, tok, lc):
    hyps, _ = data
    ev = Bleu([hyps], BleuConfig(tokenizer=tok, lowercase=lc))
    for i, hyp in enumerate(hyps):
        d = ev.details(i, hyp)
        previous_start = previous_end = 0
        for token, span in zip(d.hyp_tokens, d.hyp_spans):
            assert span is not None, (hyp, token)
            start, end = span
            expands = lc and len(hyp.lower()) != len(hyp)
            assert start >= (previous_start if expands else previous_end)
            previous_start = start
            # Lowercase in context (Greek final sigma) where lowercasing keeps the length.
            source = hyp.lower() if lc and len(hyp.lower()) == len(hyp) else hyp
            shown = source[start:end].lower() if lc else source[start:end]
            if tok == "13a":
                for old, new in (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")):
                    shown = shown.replace(old, new)
            if lc and len(hyp.lower()) != len(hyp):
                # e.g. U+0130 lowercases to two characters, each its own char token; casefold
                # also equates the final sigma of the in-context lowercasing.
                assert token.casefold() in shown.casefold()
            else:
                assert shown == token
            previous_end = end


@pytest.mark.parametrize("text,tokens,spans", [
    ("Hello, world!", ["Hello", ",", "world", "!"], [(0, 5), (5, 6), (7, 12), (12, 13)]),
    ("say &quot;hi&quot;", ["say", '"', "hi", '"'], [(0, 3), (4, 10), (10, 12), (12, 18)]),
    ("a<skipped>b c", ["ab", "c"], [(0, 11), (12, 13)]),
])
def test_char_spans_13a(text, tokens, spans):
    assert char_spans(text, tokens, tokenizer="13a") == spans


def test_unplaceable_token_gets_none():
    assert char_spans("abc def", ["abc", "XYZ", "def"], tokenizer="none") == [(0, 3), None, (4, 7)]


def test_flagged_tokens_are_those_the_details_match_in_no_order():
    # What error recall reads of BLEU (unmatched_token_spans, without the references' marks) is what the details
    # show: the tokens whose best matched order is 0. Hand-worked: "the cat the cat on the mat" against the two
    # references of test_statuses_and_reference_marks: the first "cat" is clipped as a unigram but inside the
    # matched bigram "the cat"; the second "the" is clipped as a unigram, and its bigrams "cat the" (in no
    # reference) and "the cat" (its one occurrence in reference 1 taken by the first) match nothing: it alone is
    # flagged, characters 8 to 11.
    ev = Bleu([["the cat is on the mat"], ["there is a cat on the mat"]])
    text = "the cat the cat on the mat"
    assert ev.flagged([0], [text]) == [[(8, 11)]]


@given(data=corpus(max_lines=3, max_refs=3), tok=st.sampled_from(["13a", "intl", "none", "char", "zh"]),
       lc=st.booleans())
def test_flagged_tokens_equal_the_details_best_orders(data, tok, lc):
    hyps, refs = data
    ev = Bleu(refs, BleuConfig(tokenizer=tok, lowercase=lc))
    flagged = ev.flagged(list(range(len(hyps))), hyps)
    for i, hyp in enumerate(hyps):
        d = ev.details(i, hyp)
        assert flagged[i] == [span for span, best in zip(d.hyp_spans, d.best_matched_order()) if span and not best]


@pytest.mark.parametrize("set_name,tokenizer,lowercase", [
    ("wmt22-en-ja", "ja-mecab", False),           # Japanese
    ("wmt22-en-zh-2ref", "zh", False),            # Chinese, two references
    ("sacrebleu-wmt17-en-de", "13a", True),       # German
    ("wmt22-zh-en-2ref", "intl", False),          # English
    ("mtce-en-cs-medium", "13a", False),          # Czech
])
def test_flagged_tokens_equal_the_details_on_real_text(set_name, tokenizer, lowercase):
    # Error recall's BLEU flags (lines tokenized in bulk, orders assigned only around clipped words) are the tokens
    # the details, worked out line by line, match in no order.
    folder = data_set(set_name)
    refs = [p.read_text(encoding="utf-8").split("\n")[:250] for p in sorted(folder.glob("ref*.txt"))]
    hyps = (folder / "sys1.txt").read_text(encoding="utf-8").split("\n")[:250]
    ev = Bleu(refs, BleuConfig(tokenizer=tokenizer, lowercase=lowercase))
    flagged = ev.flagged(list(range(len(hyps))), hyps)
    assert any(flagged)
    for i, hyp in enumerate(hyps):
        d = ev.details(i, hyp)
        assert flagged[i] == [span for span, best in zip(d.hyp_spans, d.best_matched_order()) if span and not best], i


def test_a_line_two_systems_share_is_flagged_once_by_bleu_and_chrf(monkeypatch):
    """Error recall asks for every system's flags, and systems often write the very same line (a third of the TED
    MQM file's candidates): BLEU and chrF work a (segment, line) out once; another line of that segment, or the same
    line at another segment, is worked out on its own."""
    from bleu_gui.core.metrics.bleu import metric as bleu_metric
    from bleu_gui.core.metrics.chrf import evidence as chrf_evidence
    from bleu_gui.core.metrics.chrf.chrf import Chrf

    asked: list[str] = []

    def count_calls(module, name):
        real = getattr(module, name)

        def counted(hypothesis, *args, **kwargs):
            asked.append(hypothesis)
            return real(hypothesis, *args, **kwargs)
        monkeypatch.setattr(module, name, counted)

    count_calls(bleu_metric, "unmatched_token_spans")
    count_calls(chrf_evidence, "unmatched_spans")
    refs = [["the cat is on the mat", "a dog sat on the mat"]]
    line = "the cat the cat on the mat"
    for metric in (Bleu(refs), Chrf(refs)):
        asked.clear()
        first = metric.flagged([0, 1], [line, "the mat"])
        again = metric.flagged([0, 1], [line, "a dog"])
        metric.flagged([1], [line])
        assert asked == [line, "the mat", "a dog", line], metric.name
        assert again[0] == first[0] and again[0] is not first[0]  # a copy: a caller's change stays its own
