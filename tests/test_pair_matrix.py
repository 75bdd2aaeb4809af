"""All-pairs significance: every pair equals sacreBLEU with either system as baseline; Holm, ranks, sign test by hand."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleu_gui.core import Bleu, BleuConfig
from bleu_gui.core.analysis.pair_matrix import assign_ranks, holm, pair_matrix, sign_test, win_tie_loss
from bleu_gui.core.inputs.text_files import read_segments
from bleu_gui.core.metrics.base import APPROXIMATE

from .conftest import data_set
from .oracles import with_missing
from .strategies import sentence


def sacre_p_values(systems, refs, cfg, test_type, n, baseline):
    """sacreBLEU's p-value of every other system against ``baseline``: {index: p}."""
    metric = BLEU(tokenize=cfg.tokenizer_name, lowercase=cfg.lowercase, smooth_method=cfg.smooth_method,
                  references=with_missing(refs))
    order = [baseline] + [i for i in range(len(systems)) if i != baseline]
    named = [(f"s{i}", systems[i]) for i in order]
    _, scores = PairedTest(named, {"BLEU": metric}, references=None, test_type=test_type, n_samples=n)()
    return {order[k]: r.p_value for k, r in enumerate(scores["BLEU"]) if k > 0}


def assert_matrix_equals_sacrebleu(systems, refs, cfg, bs, ar):
    ev = Bleu(refs, cfg)
    stats = [ev.statistics(h) for h in systems]
    m = pair_matrix(stats, ev, [f"s{i}" for i in range(len(systems))], bs, ar)
    for test, n in (("bs", bs), ("ar", ar)):
        for a in range(len(systems)):
            for b, p in sacre_p_values(systems, refs, cfg, test, n, baseline=a).items():
                assert m.raw(test)[a, b] == p, (test, a, b, m.raw(test)[a, b], p)
    return m


corpora = st.integers(4, 25).flatmap(lambda n: st.tuples(
    st.lists(st.lists(sentence(), min_size=n, max_size=n), min_size=3, max_size=4),
    st.lists(st.lists(sentence(), min_size=n, max_size=n), min_size=1, max_size=2)))


@settings(max_examples=12, deadline=None)
@given(data=corpora, smooth=st.sampled_from(["exp", "floor", "none"]))
def test_random_all_pairs_equal_sacrebleu_with_every_baseline(data, smooth):
    systems, refs = data
    assert_matrix_equals_sacrebleu(systems, refs, BleuConfig(smooth_method=smooth), bs=150, ar=300)


@pytest.mark.slow
def test_wmt17_four_systems_every_pair_equals_sacrebleu():
    folder = data_set("sacrebleu-wmt17-en-de")
    # The first 1,000 of its 3,004 segments: sacreBLEU's own tests are most of the time, and every pair is compared.
    refs = [read_segments(folder / "ref1.txt").lines[:1000]]
    systems = [read_segments(folder / f"sys{i}.txt").lines[:1000] for i in (1, 2, 4, 7)]
    # 2,000 rounds of the randomised test, not sacreBLEU's default 10,000: every pair's and baseline's value is
    # compared all the same (test_cli_metrics compares the default's per metric), at a fifth of sacreBLEU's time.
    m = assert_matrix_equals_sacrebleu(systems, refs, BleuConfig(tokenizer="none"), bs=1000, ar=2000)
    # Symmetric, one value per pair, nothing on the diagonal.
    for test in ("bs", "ar"):
        p = m.raw(test)
        assert np.array_equal(p, p.T, equal_nan=True) and np.isnan(np.diag(p)).all()


def test_permuted_matrix_is_the_matrix_of_the_reordered_systems():
    refs = [["the cat sat on the mat today", "a quick brown fox jumps over", "hello big world out there now",
             "we will see what happens next"]]
    systems = [["the cat sat on a mat today", "a quick fox jumps", "hello world out there", "we see what happens"],
               ["the cat is on the mat today", "a quick brown fox jumped over", "hello big world", "we will see"],
               ["a cat sat on the mat", "quick brown fox", "hello big world out there now", "what happens next"]]
    cfg = BleuConfig()
    ev = Bleu(refs, cfg)
    stats = [ev.statistics(h) for h in systems]
    m = pair_matrix(stats, ev, ["a", "b", "c"], 200, 400)
    order = [2, 0, 1]
    again = pair_matrix([stats[i] for i in order], ev, ["c", "a", "b"], 200, 400)
    moved = m.permuted(order)
    for test in ("bs", "ar"):
        assert np.array_equal(moved.raw(test), again.raw(test), equal_nan=True)
    assert moved.names == ["c", "a", "b"] and np.array_equal(moved.resampled, again.resampled)


def test_holm_by_hand():
    p = np.full((3, 3), np.nan)
    for (i, j), v in {(0, 1): 0.01, (0, 2): 0.04, (1, 2): 0.03}.items():
        p[i, j] = p[j, i] = v
    # Sorted 0.01, 0.03, 0.04 -> 3·0.01, 2·0.03, 1·0.04 -> kept monotone: 0.03, 0.06, 0.06.
    adjusted = holm(p)
    assert adjusted[0, 1] == pytest.approx(0.03) and adjusted[1, 2] == pytest.approx(0.06)
    assert adjusted[0, 2] == pytest.approx(0.06) and adjusted[2, 0] == adjusted[0, 2]
    big = np.full((2, 2), np.nan)
    big[0, 1] = big[1, 0] = 0.7
    assert holm(big)[0, 1] == 0.7


def _matrix(values, n):
    p = np.full((n, n), np.nan)
    for (i, j), v in values.items():
        p[i, j] = p[j, i] = v
    return p


def test_ranks_by_hand():
    # Three systems, best first 0, 1, 2: 0~1 not significant, 2 worse than 0 -> ranks 1, 1, 2.
    p = _matrix({(0, 1): 0.30, (0, 2): 0.01, (1, 2): 0.20}, 3)
    assert assign_ranks([0, 1, 2], p, 0.05) == [1, 1, 2]
    # 1 significantly worse than 0 opens rank 2; 2 ties with 1 and joins it.
    p = _matrix({(0, 1): 0.01, (0, 2): 0.001, (1, 2): 0.40}, 3)
    assert assign_ranks([0, 1, 2], p, 0.05) == [1, 2, 2]
    # The run's order is not the score order: ranks come back in the run's order.
    assert assign_ranks([2, 0, 1], _matrix({(2, 0): 0.5, (2, 1): 0.04, (0, 1): 0.5}, 3), 0.05) == [1, 2, 1]
    # alpha decides: at 0.01 nothing above is significant.
    assert assign_ranks([0, 1, 2], _matrix({(0, 1): 0.03, (0, 2): 0.02, (1, 2): 0.04}, 3), 0.01) == [1, 1, 1]
    # A system with no score is left out of the walk; the others keep their places in the run's order (system 0
    # unscored once raised IndexError: Compare, reviewing WMT24's ESA without a reference).
    ranks = assign_ranks([2, 1], _matrix({(1, 2): 0.01}, 3), 0.05)
    assert (ranks[1], ranks[2]) == (2, 1)


def test_ranks_from_matrix_use_ar_and_holm():
    refs = [["the cat sat on the mat today", "a quick brown fox jumps over", "hello big world out there now"] * 8]
    good = refs[0]
    bad = ["x y z"] * 24
    cfg = BleuConfig()
    ev = Bleu(refs, cfg)
    stats = [ev.statistics(h) for h in (good, good[:-1] + ["hello world"], bad)]
    m = pair_matrix(stats, ev, ["good", "near", "bad"], 200, 500)
    assert m.rank_test == "ar"
    p = m.p("ar")
    assert m.ranks(0.05) == assign_ranks(m.by_score(), p, 0.05)
    assert m.ranks(0.05)[2] > m.ranks(0.05)[0]
    assert np.nanmin(m.p("ar", "holm") - p) >= 0


def test_sign_test_by_hand():
    # n = 10, k = 1: 2 · (C(10,0) + C(10,1)) / 2^10 = 22/1024.
    assert sign_test(9, 1) == pytest.approx(22 / 1024, rel=1e-12)
    assert sign_test(1, 9) == sign_test(9, 1)
    assert sign_test(5, 5) == 1.0 and sign_test(0, 0) == 1.0
    exact = 2 * sum(math.comb(3000, i) for i in range(1401)) / 2**3000
    assert sign_test(1400, 1600) == pytest.approx(exact, rel=1e-9)


def test_win_tie_loss_counts_undefined_as_zero():
    a = np.array([10.0, 20.0, np.nan, 5.0])
    b = np.array([12.0, 20.0, 0.0, 1.0])
    assert win_tie_loss(a, b) == (1, 2, 1)


def test_new_baseline_reuses_the_matrix_and_equals_a_fresh_run():
    from bleu_gui.core import RunConfig, score_run
    from bleu_gui.core.run import Significance, rescore
    from bleu_gui.demo import demo_folder

    folder = demo_folder("en")
    systems = [read_segments(folder / n) for n in ("system-a.txt", "system-b.txt")]
    refs = [read_segments(folder / "ref1.txt")]
    sig = Significance(200, 400)
    run = score_run(systems, refs, RunConfig((BleuConfig(),), significance=sig))
    moved = rescore(run, baseline=1)
    fresh = score_run(systems[::-1], refs, RunConfig((BleuConfig(),), significance=sig))
    assert [s.name for s in moved.systems] == [s.name for s in fresh.systems]
    before, after = moved.comparison.by_metric[0], fresh.comparison.by_metric[0]
    assert before.matrix is not after.matrix
    for test in ("bs", "ar"):
        assert np.array_equal(before.matrix.raw(test), after.matrix.raw(test), equal_nan=True)
    assert [t.p_value for t in before.bootstrap] == [t.p_value for t in after.bootstrap]
    assert [t.mean for t in before.bootstrap] == [t.mean for t in after.bootstrap]
    assert np.array_equal(before.pairwise[0].loo, after.pairwise[0].loo)


def test_report_shows_ranks_under_the_chosen_ranking():
    from bleu_gui.core import RunConfig, score_run
    from bleu_gui.core.output.rankings import Ranking
    from bleu_gui.core.output.report import ReportView, build_report
    from bleu_gui.demo import demo_folder

    folder = demo_folder("en")
    systems = [read_segments(folder / n) for n in ("system-a.txt", "system-b.txt")]
    run = score_run(systems, [read_segments(folder / "ref1.txt")], RunConfig((BleuConfig(),)))
    html = build_report(run, ReportView(pairs=(1,), ranking=Ranking(0.1, "holm")))
    assert "<th>Rank</th>" in html and "Holm-corrected" in html and "α = 0.1" in html


@settings(deadline=None)
@given(seed=st.integers(0, 2**32 - 1), smooth=st.sampled_from(["exp", "floor", "add-k", "none"]),
       order=st.integers(1, 6))
def test_approximate_bleu_is_within_its_promise_of_the_exact_score(seed, smooth, order):
    """NumPy's exp and log instead of the C library's: each score within APPROXIMATE of sacreBLEU's arithmetic, on
    sums with short and long systems, orders without n-grams and without matches."""
    rng = np.random.default_rng(seed)
    rows = 2_000
    totals = rng.integers(0, 60, (rows, order)) * rng.integers(0, 2, (rows, 1))
    correct = (totals * rng.random((rows, order))).astype(np.int64)
    lengths = rng.integers(0, 80, (rows, 2))
    sums = np.concatenate([lengths, correct, totals], axis=1)
    ev = Bleu([["a b"]], BleuConfig(smooth_method=smooth, max_order=order))
    exact, approximate = ev.scores_of_sums(sums), ev.approximate_scores_of_sums(sums)
    assert np.max(np.abs(exact - approximate)) <= APPROXIMATE


def test_trials_that_tie_the_observed_difference_are_counted_as_sacrebleu_counts_them(monkeypatch):
    """Two systems one line apart: every AR trial that leaves that line unswapped ties the observed difference to
    the last bit, and sacreBLEU counts none of them. Approximate scores off by up to half their promise would count
    about half; the trials near the observed difference are scored again exactly, so none is."""
    from bleu_gui.core.analysis import randomization

    folder = data_set("sacrebleu-wmt17-en-de")
    refs = [read_segments(folder / "ref1.txt").lines[:40]]
    a = read_segments(folder / "sys1.txt").lines[:40]
    b = [*a[:3], read_segments(folder / "sys2.txt").lines[3], *a[4:]]
    assert a[3] != b[3]
    rng = np.random.default_rng(7)

    def off(self, sums):  # within the promise, never exact
        exact = self.scores_of_sums(sums)
        return exact + rng.uniform(0.1, 0.5, exact.shape) * APPROXIMATE * rng.choice([-1, 1], exact.shape)

    monkeypatch.setattr(Bleu, "approximate_scores_of_sums", off)
    ev = Bleu(refs)
    stats = [ev.statistics(a), ev.statistics(b)]
    wanted = sacre_p_values([a, b], refs, BleuConfig(), "ar", 1000, baseline=0)[1]
    assert pair_matrix(stats, ev, ["a", "b"], None, 1000).raw("ar")[0, 1] == wanted
    monkeypatch.setattr(randomization, "APPROXIMATE", 0.0)  # no trial scored again: the ties now count by chance
    assert pair_matrix(stats, ev, ["a", "b"], None, 1000).raw("ar")[0, 1] > wanted + 0.2
