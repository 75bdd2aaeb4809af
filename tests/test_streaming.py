"""Speed users feel with several metrics: a run scored again keeps every statistic that still holds (the same metric,
the same file), and the window shows the quick metrics' numbers while chrF and TER are scored — the numbers of
both runs equal a run scored from scratch."""

from __future__ import annotations

import numpy as np

from bleu_gui.core import RunConfig, score_run
from bleu_gui.core.inputs.text_files import read_segments
from bleu_gui.core.metrics.registry import family, quick_first
from bleu_gui.demo import demo_paths


def demo_files():
    systems, refs = demo_paths()
    return [read_segments(p) for p in systems], [read_segments(p) for p in refs]


def configs(*keys):
    return tuple(family(k).config() for k in keys)


def test_a_run_scored_again_keeps_what_holds_and_equals_a_fresh_run():
    systems, refs = demo_files()
    first = score_run(systems, refs, RunConfig(configs("bleu")))
    again = score_run(systems, refs, RunConfig(configs("bleu", "chrf", "ter")), previous=first)
    fresh = score_run(systems, refs, RunConfig(configs("bleu", "chrf", "ter")))
    assert again.metrics[0] is first.metrics[0]
    for a, f, s in zip(again.systems, fresh.systems, first.systems):
        assert a.results[0] is s.results[0]  # BLEU's statistics were not computed again
        for ra, rf in zip(a.results, f.results):
            assert (ra.stats == rf.stats).all() and ra.corpus.score == rf.corpus.score
    assert again.comparison is not None and fresh.comparison is not None
    assert [w.wins for w in again.comparison.ngram_wins] == [w.wins for w in fresh.comparison.ngram_wins]
    for ma, mf in zip(again.comparison.by_metric, fresh.comparison.by_metric):
        assert ma.matrix is not None and mf.matrix is not None
        assert np.array_equal(ma.matrix.p("bs", "none"), mf.matrix.p("bs", "none"), equal_nan=True)


def test_other_files_or_settings_are_scored_anew():
    systems, refs = demo_files()
    first = score_run(systems, refs, RunConfig(configs("bleu")))
    lowered = score_run(systems, refs, RunConfig((family("bleu").config().__class__(lowercase=True),)),
                        previous=first)
    assert lowered.systems[0].results[0] is not first.systems[0].results[0]
    # Another baseline: BLEU's matches are read again to count the n-gram wins against it.
    swapped = score_run(list(reversed(systems)), refs, RunConfig(configs("bleu")), previous=first)
    assert swapped.systems[0].results[0] is not first.systems[-1].results[0]
    fresh = score_run(list(reversed(systems)), refs, RunConfig(configs("bleu")))
    assert swapped.comparison is not None and fresh.comparison is not None
    assert [w.wins for w in swapped.comparison.ngram_wins] == [w.wins for w in fresh.comparison.ngram_wins]


def test_quick_metrics_come_first_in_their_order():
    assert [m.key for m in quick_first(configs("ter", "bleu", "chrf", "edit"))] == ["bleu", "edit"]


def test_the_window_shows_bleu_while_chrf_and_ter_are_scored(qtbot, window):
    window.controller.set_scoring(configs("bleu", "chrf", "ter"), "chosen for the test")
    shown = []
    window.controller.run_changed.connect(lambda: shown.append(
        ([m.name for m in window.controller.run.metrics], window.controller.run.notes)))
    with qtbot.waitSignal(window.run_changed, timeout=60_000) as blocker:
        window.run_actions.open_demo()
    assert [names for names, _ in shown] == [["BLEU"], ["BLEU", "chrF2", "TER"]]
    assert "chrF, TER, significance tests: being computed, shown when ready" in shown[0][1]
    assert not any("being computed" in n for n in shown[1][1])
    assert [m.name for m in blocker.args[0].metrics] == ["BLEU", "chrF2", "TER"]
    systems, refs = demo_files()
    fresh = score_run(systems, refs, RunConfig(configs("bleu", "chrf", "ter")))
    for a, f in zip(window.controller.run.systems, fresh.systems):
        assert [r.corpus.score for r in a.results] == [r.corpus.score for r in f.results]
