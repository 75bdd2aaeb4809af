"""Paired bootstrap, approximate randomization and confidence intervals equal sacreBLEU's with the same seed."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleu_gui.core import Bleu, BleuConfig
from bleu_gui.core.analysis.pair_matrix import pair_matrix
from bleu_gui.core.analysis.significance import confidence
from bleu_gui.core.inputs.text_files import read_segments

from .conftest import data_set
from .oracles import with_missing
from .strategies import sentence


def sacre_paired(systems, refs, cfg, test_type, n):
    metric = BLEU(tokenize=cfg.tokenizer_name, lowercase=cfg.lowercase, smooth_method=cfg.smooth_method,
                  references=with_missing(refs))
    named = [(f"s{i}", hyps) for i, hyps in enumerate(systems)]
    _, scores = PairedTest(named, {"BLEU": metric}, references=None, test_type=test_type, n_samples=n)()
    return scores["BLEU"]


def ours_paired(systems, refs, cfg, test_type, n):
    ev = Bleu(refs, cfg)
    stats = [ev.statistics(h) for h in systems]
    return baseline_layout(stats, ev, test_type, n)


def baseline_layout(stats, metric, test_type, n, seed=12345):
    """sacreBLEU's baseline-against-the-others layout, read from the all-pairs matrix."""
    names = [f"s{i}" for i in range(len(stats))]
    bs, ar = (n, None) if test_type == "bs" else (None, n)
    return pair_matrix(stats, metric, names, bs, ar, seed=seed).baseline_tests(test_type)


def assert_same(ours, theirs):
    assert len(ours) == len(theirs)
    for o, t in zip(ours, theirs):
        assert math.isclose(o.score, t.score, rel_tol=1e-12, abs_tol=1e-12)
        assert o.p_value == t.p_value, (o.p_value, t.p_value)
        for a, b in ((o.mean, t.mean), (o.ci, t.ci)):
            assert (a is None and b is None) or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9), (a, b)


corpora = st.integers(4, 30).flatmap(lambda n: st.tuples(
    st.lists(st.lists(sentence(), min_size=n, max_size=n), min_size=2, max_size=3),
    st.lists(st.lists(sentence(), min_size=n, max_size=n), min_size=1, max_size=2)))


@settings(max_examples=25, deadline=None)
@given(data=corpora, test_type=st.sampled_from(["bs", "ar"]),
       smooth=st.sampled_from(["exp", "floor", "add-k", "none"]))
def test_random_paired_tests(data, test_type, smooth):
    systems, refs = data
    cfg = BleuConfig(smooth_method=smooth)
    n = 200 if test_type == "bs" else 500
    assert_same(ours_paired(systems, refs, cfg, test_type, n), sacre_paired(systems, refs, cfg, test_type, n))


def test_seed_from_environment(monkeypatch):
    refs = [["the cat sat on the mat today", "a quick brown fox jumps", "hello big world out there"]]
    systems = [["the cat sat on a mat today", "a quick fox jumps", "hello world out there"],
               ["the cat is on the mat today", "a quick brown fox jumped", "hello big world"]]
    cfg = BleuConfig()
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    from bleu_gui.core.analysis.resampling import seed_from_env

    ev = Bleu(refs, cfg)
    stats = [ev.statistics(h) for h in systems]
    ours = baseline_layout(stats, ev, "bs", 300, seed=seed_from_env())
    assert_same(ours, sacre_paired(systems, refs, cfg, "bs", 300))


@pytest.mark.slow
def test_wmt17_against_sacrebleu_and_external_expectations():
    folder = data_set("sacrebleu-wmt17-en-de")
    refs = [read_segments(folder / "ref1.txt").lines]
    systems = [read_segments(folder / f"sys{i}.txt").lines for i in (1, 2, 4, 7, 11)]
    cfg = BleuConfig(tokenizer="none")
    bs = ours_paired(systems, refs, cfg, "bs", 1000)
    assert_same(bs, sacre_paired(systems, refs, cfg, "bs", 1000))
    ar = ours_paired(systems, refs, cfg, "ar", 10000)
    assert_same(ar, sacre_paired(systems, refs, cfg, "ar", 10000))
    # SIGNIFICANCE.md: Moses' bootstrap (2000 resamples) and multeval's AR p-values, within 0.01.
    moses_bs = {2: 0.01267, 4: 0.04383, 7: 0.381, 11: 0.0}
    multeval_ar = {2: 0.0218, 4: 0.09029, 7: 0.94111, 11: 0.0001}
    bs2000 = ours_paired(systems, refs, cfg, "bs", 2000)
    for result, sys_no in zip(bs2000[1:], (2, 4, 7, 11)):
        assert abs(result.p_value - moses_bs[sys_no]) < 0.01, (sys_no, result.p_value)
    for result, sys_no in zip(ar[1:], (2, 4, 7, 11)):
        assert abs(result.p_value - multeval_ar[sys_no]) < 0.01, (sys_no, result.p_value)


@pytest.mark.parametrize("n", [100, 1000])
def test_confidence_interval_equals_sacrebleu(n):
    refs = [["the cat sat on the mat", "it is raining today in the city", "where are you going now",
             "a b c d e f g", "we will see what happens next"]]
    hyps = ["the cat sat on a mat", "it rains today in the city", "where do you go now", "a b c d e f",
            "we shall see what happens"]
    ev = Bleu(refs)
    mean, ci = confidence(ev.statistics(hyps), ev, n=n).pair
    theirs = BLEU().corpus_score(hyps, refs, n_bootstrap=n)
    assert math.isclose(mean, theirs._mean, rel_tol=1e-12) and math.isclose(ci, theirs._ci, rel_tol=1e-9, abs_tol=1e-12)


@pytest.mark.parametrize("L", [37, 40, 301])
@pytest.mark.parametrize("chunk_values", [1, 37, 100, 999])
def test_chunked_draws_equal_one_draw(monkeypatch, L, chunk_values):
    """Resamples are drawn in chunks (odd sizes too, one resample at a time); the chunking must not change a
    single index or coin."""
    from bleu_gui.core.analysis import significance

    n = 300
    whole_idx = np.random.default_rng(5).choice(L, size=(n, L), replace=True)
    whole_pos = np.random.default_rng(5).integers(2, size=(n, L), dtype=bool)
    monkeypatch.setattr(significance, "_CHUNK_VALUES", chunk_values)
    assert np.array_equal(np.concatenate(list(significance.bootstrap_chunks(L, n, 5))), whole_idx)
    assert np.array_equal(np.concatenate(list(significance.ar_chunks(L, n, 5))), whole_pos)


def test_resample_weights_count_each_sentence_drawn_in_each_resample():
    from bleu_gui.core.analysis.significance import resample_weights

    # Worked by hand: resample 1 draws sentence 0 twice and 2 once; resample 2 draws 1 once and 2 twice.
    weights = resample_weights(np.array([[0, 0, 2], [2, 1, 2]]))
    assert weights.tolist() == [[2, 0, 1], [0, 1, 2]]


def test_resample_sums_are_exact_on_both_sides_of_the_float32_limit():
    from bleu_gui.core.analysis.significance import SideBySide

    rng = np.random.default_rng(3)
    weights = rng.integers(0, 3, (7, 50))
    small = rng.integers(-40, 40, (50, 10))
    # Sums near 2^24 + 1: float32 would round them to an even neighbour; the product must not.
    large = small.copy()
    large[:, 0] = 2**24 // 40 + 1
    for stats in (small, large):
        side = SideBySide([stats])
        assert side.sums(weights, int(weights.max())).tolist() == (weights @ stats).tolist()
    assert SideBySide([small]).abs_total * 2 < 2**24 <= SideBySide([large]).abs_total * 2


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_a_cancel_check_stands_between_each_draw_and_its_product(monkeypatch, test_type):
    """A chunk's draw and its product each take about half its time (the first chunk ~0.3 s at 300k lines,
    writing to fresh memory): a cancel must not wait for both."""
    from bleu_gui.core.analysis import significance

    events = []
    sums = significance.SideBySide.sums
    monkeypatch.setattr(significance.SideBySide, "sums", lambda self, *a: events.append("s") or sums(self, *a))
    monkeypatch.setattr(significance, "_CHUNK_VALUES", 64)  # several chunks
    rng = np.random.default_rng(3)
    stats = [rng.integers(0, 5, (40, 10)) for _ in range(2)]
    bs, ar = (50, None) if test_type == "bs" else (None, 300)
    pair_matrix(stats, Bleu([["a"] * 40]), ["a", "b"], bs, ar, progress=lambda _f: events.append("p"))
    products = "".join(events).split("s")
    assert len(products) > 3
    assert products[0].endswith("p")
    assert all(between.count("p") >= 2 for between in products[1:-1])  # one after a product, one before the next


def test_a_cancel_at_the_first_check_comes_before_the_systems_are_put_side_by_side(monkeypatch):
    from bleu_gui.core.analysis import significance
    from bleu_gui.core.errors import Cancelled

    def never(*_a):
        raise AssertionError("the matrix was built before the first cancel check")

    monkeypatch.setattr(significance, "SideBySide", never)

    def cancel(_f):
        raise Cancelled()

    stats = [np.ones((5, 10), np.int64)] * 2
    with pytest.raises(Cancelled):
        significance.bootstrap_scores(stats, Bleu([["a"] * 5]), 10, progress=cancel)


def test_a_count_just_over_the_ceiling_is_not_said_to_need_zero_gigabytes():
    from bleu_gui.core.analysis.resampling import MAX_BS_SAMPLES, check_resamples
    from bleu_gui.core.errors import ConfigError

    with pytest.raises(ConfigError) as raised:
        check_resamples("--confidence-n", MAX_BS_SAMPLES + 1, MAX_BS_SAMPLES)
    message = str(raised.value)
    assert f"above the ceiling of {MAX_BS_SAMPLES:,}" in message and "0.0 GB" not in message


def test_sequential_sums_equal_sacrebleus_row_by_row_sums_bit_for_bit():
    """Resampled column sums as sacreBLEU forms them (``_s.sum(0)`` of each resample's rows)."""
    import numpy as np

    from bleu_gui.core.analysis.significance import sequential_sums

    rng = np.random.default_rng(11)
    n = 700
    columns = [rng.normal(size=n) * 7, rng.integers(0, 50, n).astype(float), rng.integers(5, 40, n) / 3,
               np.full(n, 2.0**40)]  # fractions, small whole numbers, and whole numbers whose sums overflow float32
    for dtype in (np.float32, np.float64):
        stats = np.stack(columns, axis=1).astype(dtype)
        idx = np.random.default_rng(12345).choice(n, size=(50, n))
        oracle = np.array([stats[i].sum(0) for i in idx])
        assert np.array_equal(sequential_sums(stats, idx), oracle), dtype
