"""Our sacrebleu variant equals sacreBLEU's BLEU, corpus and sentence, on random and real data: bit for bit (``==``),
as a JSON score prints every bit."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_gui.core import Bleu, BleuConfig
from bleu_gui.core.inputs.text_files import read_segments

from .conftest import data_set
from .oracles import sacre_corpora, sacre_corpus, sacre_sentences
from .strategies import corpus


def assert_same(ours, theirs, counts_offset=0.0):
    assert ours.score == theirs.score, (ours.score, theirs.score)
    assert ours.sys_len == theirs.sys_len
    assert ours.ref_len == theirs.ref_len
    assert ours.bp == theirs.bp
    assert len(ours.precisions) == len(theirs.precisions)
    for a, b in zip(ours.precisions, theirs.precisions):
        assert a == b, (ours.precisions, theirs.precisions)
    # sacreBLEU's add-k adds k to its counts and totals lists in place (orders 2..N),
    # after its early exit for "no match at all".
    k = counts_offset if any(ours.counts) else 0.0
    want_counts = [c - (k if n else 0) for n, c in enumerate(theirs.counts)]
    want_totals = [t - (k if n else 0) for n, t in enumerate(theirs.totals)]
    assert all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(ours.counts, want_counts)), (ours.counts, want_counts)
    assert all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(ours.totals, want_totals)), (ours.totals, want_totals)


configs = st.builds(
    BleuConfig,
    tokenizer=st.sampled_from(["13a", "intl", "zh", "char", "none"]),
    lowercase=st.booleans(),
    smooth_method=st.sampled_from(["exp", "floor", "add-k", "none"]),
    max_order=st.integers(1, 6),
    empty_refs=st.sampled_from(["empty", "missing"]),
)


def add_k_offset(cfg):
    return cfg.smoothing_value if cfg.smooth_method == "add-k" else 0.0


@given(data=corpus(), cfg=configs)
def test_random_corpus_and_sentences(data, cfg):
    hyps, refs = data
    ev = Bleu(refs, cfg)
    stats = ev.statistics(hyps)
    assert_same(ev.corpus_score(stats), sacre_corpus(hyps, refs, cfg), add_k_offset(cfg))
    rows = ev.sentence_rows(stats)
    for i, theirs in enumerate(sacre_sentences(hyps, refs, cfg)):
        assert rows.score[i] == theirs.score, (i, rows.score[i], theirs.score)
        for a, b in zip(rows.precisions[i], theirs.precisions):
            assert a == b


@given(data=corpus(), value=st.sampled_from([0.01, 0.5, 2.0]), method=st.sampled_from(["floor", "add-k"]))
def test_random_smoothing_values(data, value, method):
    hyps, refs = data
    cfg = BleuConfig(smooth_method=method, smooth_value=value)
    ev = Bleu(refs, cfg)
    assert_same(ev.corpus_score(ev.statistics(hyps)), sacre_corpus(hyps, refs, cfg), add_k_offset(cfg))


def test_signature_format_matches_sacrebleu():
    from .oracles import sacre_metric, with_missing

    refs = [["a b c", "d e"], ["a b", ""]]
    for cfg in [BleuConfig(), BleuConfig(lowercase=True, smooth_method="floor"),
                BleuConfig(smooth_method="add-k", smooth_value=2),
                BleuConfig(tokenizer="intl", smooth_method="none")]:
        ev = Bleu(refs, cfg)
        metric = sacre_metric(cfg)
        metric.corpus_score(["a b c", "d e"], with_missing(refs))
        assert ev.signature() == metric.get_signature().format()
    # sacreBLEU's command line reads the empty line as an empty reference: nrefs:2.
    assert Bleu(refs).nrefs == 2
    missing = Bleu(refs, BleuConfig(empty_refs="missing"))
    assert missing.nrefs == "var" and missing.signature().startswith("nrefs:var|emptyrefs:missing|case:mixed")


REAL_SETS = {
    "sacrebleu-wmt17-en-de": ["13a", "intl", "none"],
    "wmt21-en-de-3ref": ["13a", "intl", "char"],
    "cmt-ted-sk-en": ["13a", "none"],
    "cmt-ted-sk-en-detok": ["13a", "intl"],
    "cmt-multited-ja": ["none", "char", "ja-mecab"],
    "mtce-en-cs-medium": ["13a", "intl"],
    "wmt22-en-zh-2ref": ["zh", "char", "13a"],
    "wmt22-zh-en-2ref": ["13a", "intl"],
    "wmt22-en-ja": ["ja-mecab", "char", "13a"],
    "wmt22-ja-en": ["13a", "intl"],
    "kor-sacrebleu-doc1-en-ko": ["ko-mecab", "char", "none", "13a"],
    "opusmt-flores101-en-ko-first100": ["ko-mecab", "char", "13a"],
}


def load_set(folder):
    refs = [read_segments(p).lines for p in sorted(folder.glob("ref*.txt"))]
    systems = {p.name: read_segments(p).lines for p in sorted(folder.glob("sys*.txt"))}
    return refs, systems


@pytest.mark.slow
@pytest.mark.parametrize("set_name", sorted(REAL_SETS))
def test_real_sets_every_tokenizer(set_name):
    refs, systems = load_set(data_set(set_name))
    # Five systems of a set at most (WMT17 en-de has twelve: two of the suite's minutes for no new kind of text).
    systems = dict(list(systems.items())[:5])
    for tok in REAL_SETS[set_name]:
        cfg = BleuConfig(tokenizer=tok)
        ev = Bleu(refs, cfg)
        for hyps, theirs in zip(systems.values(), sacre_corpora(systems.values(), refs, cfg)):
            assert_same(ev.corpus_score(ev.statistics(hyps)), theirs)


@pytest.mark.slow
def test_real_set_lowercase_smoothing_and_sentences():
    refs, systems = load_set(data_set("wmt21-en-de-3ref"))
    hyps = systems["sys1.txt"]
    for cfg in [BleuConfig(lowercase=True), BleuConfig(smooth_method="floor", smooth_value=0.2),
                BleuConfig(smooth_method="add-k"), BleuConfig(smooth_method="none", max_order=6)]:
        ev = Bleu(refs, cfg)
        stats = ev.statistics(hyps)
        assert_same(ev.corpus_score(stats), sacre_corpus(hyps, refs, cfg), add_k_offset(cfg))
        rows = ev.sentence_rows(stats)
        for i, theirs in enumerate(sacre_sentences(hyps[:300], [r[:300] for r in refs], cfg)):
            assert rows.score[i] == theirs.score


@pytest.mark.parametrize("rule, nrefs", [("empty", 2), ("missing", "var")])
def test_empty_reference_lines(rule, nrefs):
    refs = [["the cat sat", "a dog", "", "x y z"], ["", "a dog barks", "hello there", "x y"]]
    hyps = ["the cat sat down", "a dog barks loudly", "hello", "x y z"]
    cfg = BleuConfig(empty_refs=rule)
    ev = Bleu(refs, cfg)
    stats = ev.statistics(hyps)
    assert ev.nrefs == nrefs
    assert_same(ev.corpus_score(stats), sacre_corpus(hyps, refs, cfg))


@given(data=corpus(max_lines=9, max_refs=3), block=st.integers(1, 4), chunk=st.integers(1, 4), order=st.integers(1, 5))
def test_block_boundaries_do_not_change_statistics(data, block, chunk, order):
    """Large corpora are indexed in blocks of sentences, taken from the pieces the tokenizer made; tiny blocks
    and pieces, their boundaries anywhere, must give sacreBLEU's numbers too."""
    from unittest import mock

    from bleu_gui.core.metrics import ngram_stats, tokenizers

    hyps, refs = data
    cfg = BleuConfig(max_order=order)
    with mock.patch.object(ngram_stats, "_BLOCK", block), mock.patch.object(tokenizers, "_CHUNK", chunk):
        ev = Bleu(refs, cfg)
        stats = ev.statistics(hyps)
    assert_same(ev.corpus_score(stats), sacre_corpus(hyps, refs, cfg))
    rows = ev.sentence_rows(stats)
    for i, theirs in enumerate(sacre_sentences(hyps, refs, cfg)):
        assert rows.score[i] == theirs.score


@pytest.mark.parametrize("repeats", [255, 256, 70_000])
def test_an_ngram_repeated_beyond_a_small_counter_is_clipped_as_sacrebleu_clips_it(repeats):
    """Max_Ref_Counts above 1 are stored in the smallest type that holds the largest one: a count one past a
    byte (or two bytes), in a block after sentences that fit, must widen the table, not wrap around."""
    from unittest import mock

    from bleu_gui.core.metrics import ngram_stats


    refs = [["a b c", "x y z", " ".join(["a"] * repeats) + " b", "the end"]]
    hyps = ["a b c", "x y", " ".join(["a"] * (repeats + 3)), "the end ."]
    cfg = BleuConfig()
    with mock.patch.object(ngram_stats, "_BLOCK", 2):  # the long sentence comes in the second block
        ev = Bleu(refs, cfg)
        stats = ev.statistics(hyps)
    assert_same(ev.corpus_score(stats), sacre_corpus(hyps, refs, cfg))
    assert int(stats[2, 2]) == repeats  # unigram "a": min(repeats + 3, repeats) clipped matches


@given(data=corpus(max_lines=9, max_refs=2), cfg=configs, rows=st.integers(1, 4))
def test_rows_scored_a_block_at_a_time_give_sacrebleus_sentence_scores(data, cfg, rows):
    from unittest import mock

    from bleu_gui.core.metrics.bleu import variant_sacrebleu as bleu_sacrebleu


    hyps, refs = data
    ev = Bleu(refs, cfg)
    stats = ev.statistics(hyps)
    with mock.patch.object(bleu_sacrebleu, "_ROWS", rows):
        scored = ev.sentence_rows(stats)
    for i, theirs in enumerate(sacre_sentences(hyps, refs, cfg)):
        assert scored.score[i] == theirs.score, (i, scored.score[i], theirs.score)
        assert scored.bp[i] == theirs.bp
        for a, b in zip(scored.precisions[i], theirs.precisions):
            assert a == b
