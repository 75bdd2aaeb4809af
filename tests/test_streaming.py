"""Speed users feel with several metrics: a run scored again keeps every statistic that still holds (the same metric,
the same file), and the window shows the quick metrics' numbers while chrF and TER are scored — the numbers of
both runs equal a run scored from scratch."""

from __future__ import annotations

import sys

import numpy as np

from bleu_gui.core import RunConfig, score_run
from bleu_gui.core.inputs.text_files import read_segments
from bleu_gui.core.metrics.registry import cost_stages, family
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


def test_metrics_are_staged_cheapest_first_each_stage_in_their_order():
    stages = cost_stages(configs("ter", "bleu", "chrf", "edit"))
    assert [[m.key for m in stage] for stage in stages] == [["bleu", "edit"], ["bleu", "chrf", "edit"],
                                                            ["ter", "bleu", "chrf", "edit"]]
    assert [[m.key for m in stage] for stage in cost_stages(configs("bleu"))] == [["bleu"]]


def test_stages_compare_each_metric_once_and_count_the_ngram_wins_last_equal_to_a_fresh_run(monkeypatch):
    from bleu_gui.core.metrics.bleu.config import BleuConfig
    from bleu_gui.core.metrics.bleu.metric import Bleu
    from bleu_gui.core.run import score_in_stages

    matched, advised = [], []
    plain, plain_advice = Bleu.matched_statistics, BleuConfig.advice
    monkeypatch.setattr(Bleu, "matched_statistics", lambda self, lines, progress=None: (
        matched.append(1), plain(self, lines, progress))[1])
    monkeypatch.setattr(BleuConfig, "advice", lambda self, lines, language: (
        advised.append(1), plain_advice(self, lines, language))[1])
    systems, refs = demo_files()
    stages = list(score_in_stages(systems, refs, RunConfig(configs("bleu", "chrf", "ter"))))
    assert len(matched) == len(systems)  # BLEU matched once per system, in its own stage
    assert len(advised) == 1  # and its settings checked against the references once
    assert [s.waiting for s in stages] == [("chrF", "TER", "BLEU's n-gram wins", "significance tests"),
                                           ("TER", "BLEU's n-gram wins", "significance tests"),
                                           ("BLEU's n-gram wins", "significance tests"), ()]
    runs = [s.run for s in stages]
    assert all(r.comparison is not None and not r.comparison.ngram_wins for r in runs[:-1])
    for before, after in zip(runs, runs[1:]):  # a later stage keeps the comparisons of the metrics before it
        assert before.comparison is not None and after.comparison is not None
        for k in range(len(before.metrics)):
            assert after.comparison.by_metric[k].pairwise is before.comparison.by_metric[k].pairwise
    matched.clear()
    fresh = score_run(systems, refs, RunConfig(configs("bleu", "chrf", "ter")))
    whole = runs[-1]
    assert whole.comparison is not None and fresh.comparison is not None
    assert [w.wins for w in whole.comparison.ngram_wins] == [w.wins for w in fresh.comparison.ngram_wins]
    assert whole.advice == fresh.advice
    for a, f in zip(whole.comparison.by_metric, fresh.comparison.by_metric):
        assert all(np.array_equal(d.loo, e.loo) and (d.sentences, d.sign_p) == (e.sentences, e.sign_p)
                   for d, e in zip(a.pairwise, f.pairwise, strict=True))
        assert np.array_equal(a.bucket_scores, f.bucket_scores, equal_nan=True)
        assert a.matrix is not None and f.matrix is not None
        assert np.array_equal(a.matrix.p("bs", "none"), f.matrix.p("bs", "none"), equal_nan=True)


def test_a_later_stage_keeps_the_advice_a_fresh_run_gives():
    from pathlib import Path

    from bleu_gui.core.inputs.text_files import SegmentFile
    from bleu_gui.core.run import score_in_stages

    # Chinese references under 13a: sacreBLEU recommends zh (and TER: Asian support), whatever the stage.
    refs = [SegmentFile(Path("ref.zh"), ["我们今天去公园散步。", "他喜欢读书。"], "utf-8")]
    systems = [SegmentFile(Path(f"sys{i}.zh"), lines, "utf-8")
               for i, lines in enumerate((["我们今天去公园。", "他喜欢书。"], ["今天我们去公园散步。", "他爱读书。"]))]
    config = RunConfig(configs("bleu", "chrf", "ter"))
    stages = [s.run for s in score_in_stages(systems, refs, config)]
    fresh = score_run(systems, refs, config)
    assert [a.action for a in fresh.advice] == ["Use zh", "Use Asian support and normalization"]
    assert stages[0].advice == fresh.advice[:1] and stages[-1].advice == fresh.advice


def test_the_window_shows_each_metric_as_soon_as_it_is_ready(qtbot, window):
    window.controller.set_scoring(configs("bleu", "chrf", "ter"), "chosen for the test")
    shown, steps = [], []
    window.controller.run_changed.connect(lambda: shown.append(
        ([m.name for m in window.controller.run.metrics], window.controller.run.notes)))
    window.jobs.step.connect(steps.append)

    def choose_chrf_when_ready():
        names = [m.name for m in window.controller.run.metrics]
        if names == ["BLEU", "chrF2"]:  # the user looks at chrF while TER is computed: it stays chosen
            assert window.metric_chooser.isEnabled()
            window.controller.set_metric(1)

    window.controller.run_changed.connect(choose_chrf_when_ready)
    with qtbot.waitSignal(window.run_changed) as blocker:
        window.run_actions.open_demo()
    assert [names for names, _ in shown] == [["BLEU"], ["BLEU", "chrF2"], ["BLEU", "chrF2", "TER"],
                                             ["BLEU", "chrF2", "TER"]]
    assert "chrF, TER, BLEU's n-gram wins, significance tests: being computed, shown when ready" in shown[0][1]
    assert "TER, BLEU's n-gram wins, significance tests: being computed, shown when ready" in shown[1][1]
    assert "BLEU's n-gram wins, significance tests: being computed, shown when ready" in shown[2][1]
    assert not any("being computed" in n for n in shown[3][1])
    assert [s for s in steps if s] == ["Reading files", "Scoring BLEU", "Scoring chrF", "Scoring TER",
                                       "Significance tests"]
    assert window.job_progress.step.text() == "Significance tests"
    assert [m.name for m in blocker.args[0].metrics] == ["BLEU", "chrF2", "TER"]
    assert window.controller.run.metrics[window.controller.metric].name == "chrF2"
    assert window.controller.run.comparison is not None
    systems, refs = demo_files()
    fresh = score_run(systems, refs, RunConfig(configs("bleu", "chrf", "ter")))
    for a, f in zip(window.controller.run.systems, fresh.systems):
        assert [r.corpus.score for r in a.results] == [r.corpus.score for r in f.results]


def test_a_later_stage_leaves_the_list_and_the_sentence_as_they_are(qtbot, window):
    """A stage that adds metrics or tests changes nothing the list and the sentence show: neither is drawn again
    (each redraw took the interpreter lock from the scoring of the next metric) and the sentence chosen stays."""
    window.controller.set_scoring(configs("bleu", "chrf", "ter"), "chosen for the test")
    sentences, detail = window.inspect.sentences, window.inspect.detail
    resets, drawn, seen = [], [], []
    sentences.model.modelReset.connect(lambda: resets.append(len(seen)))
    original, panes_text = detail.show_line, []

    def show_line(*args, **kwargs):
        drawn.append(len(seen))
        original(*args, **kwargs)
        panes_text[:] = [pane.toPlainText() for pane in detail.panes.ref_panes]

    detail.show_line = show_line
    scatter, scattered = window.compare_view.charts.scatter, []
    draw_scatter = scatter.update_values
    scatter.update_values = lambda *args: (scattered.append(len(seen)), draw_scatter(*args))

    def stage_shown():
        seen.append((window.controller.sentence, window.controller.same_view))
        if len(seen) == 1:
            window.controller.set_sentence(5)  # the user picks a sentence while chrF is scored

    window.controller.run_changed.connect(stage_shown)
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_demo()
    assert seen == [(None, False), (5, True), (5, True), (5, True)]
    assert resets and set(resets) == {0}  # filled for the first stage only
    assert drawn == [1]  # sentence 5, once, when it was picked
    assert sentences.model.sentence_at(sentences.table.currentIndex().row()) == 5
    assert [pane.toPlainText() for pane in detail.panes.ref_panes] == panes_text and all(panes_text)
    assert scattered == [0, 3]  # BLEU's A-against-B scatter: first, then with the tests' comparison
    assert "p =" in window.compare_view.charts.delta_chart.text.toPlainText()
    assert window.controller.same_view is False  # said only while a stage is shown
    # Another file is a new run: the list and the sentence are drawn again.
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files(*demo_paths())
    assert window.controller.run.metrics[0].name == "BLEU" and max(resets) == len(seen) - 4


def test_scoring_again_with_other_chrf_settings_keeps_the_bleu_list_and_the_sentence(qtbot, window):
    """A re-score that leaves the shown metric's numbers as they were (another chrF β while BLEU is shown) is
    shown as a later stage is: the same sentence, the list not filled again."""
    from bleu_gui.core.metrics.chrf.config import ChrfConfig

    window.controller.set_scoring(configs("bleu", "chrf"), "chosen for the test")
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_demo()
    qtbot.waitUntil(lambda: window.controller.sentence is not None)
    window.inspect.sentences.select_sentence(5)
    bleu_before, resets = window.controller.run.systems[0].results[0], []
    window.inspect.sentences.model.modelReset.connect(lambda: resets.append(window.controller.sentence))
    window.controller.choose_scoring((family("bleu").config(), ChrfConfig(beta=1)))
    with qtbot.waitSignal(window.run_changed):
        window.file_menu.score_again.trigger()
    run = window.controller.run
    assert run.systems[0].results[0] is bleu_before and run.config.metrics[1] == ChrfConfig(beta=1)
    assert window.controller.sentence == 5 and resets == []
    # chrF shown now: its list is filled with chrF's scores.
    window.controller.set_metric(1)
    assert window.inspect.sentences.model.metric == "chrF1" and resets == [5]


def test_a_cancel_after_the_first_numbers_keeps_them_and_says_what_was_not_computed(qtbot, window):
    window.controller.set_scoring(configs("bleu", "chrf", "ter"), "chosen for the test")
    notes = []

    def first_numbers():
        if window.controller.run is not None and not notes:
            notes.append(window.controller.run.notes)
            window.jobs.cancel()  # the user presses Cancel as soon as BLEU is shown

    window.controller.run_changed.connect(first_numbers)
    with qtbot.waitSignal(window.jobs.cancelled):
        window.run_actions.open_demo()
    qtbot.waitUntil(lambda: not window.jobs.busy)
    run = window.controller.run
    assert [m.name for m in run.metrics] == ["BLEU"]
    assert "chrF, TER, BLEU's n-gram wins, significance tests: not computed (cancelled)" in run.notes
    assert not any("being computed" in n for n in run.notes)
    # The settings are those of the numbers shown: chrF and TER are not claimed.
    assert [m.key for m in window.controller.scoring.metrics] == ["bleu"]


def test_at_a_terminal_the_command_says_each_metric_when_it_is_ready(capsys, monkeypatch):
    from bleu_gui.cli.bleu_score import run

    systems, refs = demo_paths()
    argv = [*map(str, refs), "-i", *map(str, systems), "-m", "ter", "bleu", "chrf"]
    assert run(argv) == 0
    quiet_out, quiet_err = capsys.readouterr()
    assert "ready after" not in quiet_err  # a pipe or a file: the output alone, as before
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert run(argv) == 0
    out, err = capsys.readouterr()
    assert out == quiet_out  # the same output, in the same order
    said = [line for line in err.splitlines() if "ready after" in line]
    assert [line.split()[1] for line in said] == ["BLEU", "chrF2"]
    assert said[0].endswith("; TER, chrF to come") and said[1].endswith("; TER to come")
    files, refs_read = demo_files()
    fresh = score_run(files, refs_read, RunConfig(configs("bleu")))
    first = said[0].split(": ", 1)[1]
    for system, name in zip(fresh.systems, [p.name for p in systems]):
        assert f"{name} {system.results[0].corpus.score:.2f}" in first


def test_a_stage_prepares_only_its_new_metric_and_equals_a_fresh_preparation():
    from bleu_gui.gui.prepared import prepare

    systems, refs = demo_files()
    first = score_run(systems, refs, RunConfig(configs("bleu", "edit")))
    before = prepare(first)
    then = score_run(systems, refs, RunConfig(configs("bleu", "chrf", "edit")), previous=first)
    staged, fresh = prepare(then, before), prepare(then)
    assert staged.orders[0] is before.orders[0] and staged.orders[2] is before.orders[1]  # BLEU, edit: kept
    assert staged.orders[1] is not before.orders[1]
    for a, b in zip(staged.orders, fresh.orders):
        for x, y in zip(a, b):
            assert all(np.array_equal(getattr(x, f), getattr(y, f), equal_nan=True)
                       for f in ("text", "score", "ratio", "ratios", "bands")) and x.scale == y.scale
    assert staged.tag_mismatches == fresh.tag_mismatches
    # Other statistics (BLEU lowercased) share nothing with the earlier preparation.
    lowered = score_run(systems, refs, RunConfig((family("bleu").config().__class__(lowercase=True),)), previous=first)
    assert prepare(lowered, before).orders[0] is not before.orders[0]


def test_the_compare_view_says_the_tests_are_coming_then_cancelled_and_score_again_runs_them(qtbot, window):
    window.controller.set_scoring(configs("bleu"), "chosen for the test")
    seen = []

    def first_numbers():
        run = window.controller.run
        if run is not None and not seen:
            seen.append((window.compare_view.systems.matrix.caption.text(),
                         window.compare_view.charts.delta_chart.text.toPlainText()))
            window.jobs.cancel()

    window.controller.run_changed.connect(first_numbers)
    with qtbot.waitSignal(window.jobs.cancelled):
        window.run_actions.open_demo()
    qtbot.waitUntil(lambda: not window.jobs.busy)
    window.controller.run_changed.disconnect(first_numbers)
    assert seen == [("Significance tests: being computed, shown when ready.",) * 2]
    caption = window.compare_view.systems.matrix.caption.text()
    assert caption.startswith("Significance tests: not computed (cancelled)") and "variant" not in caption
    assert window.controller.run.comparison.significance is None
    with qtbot.waitSignal(window.run_changed):
        window.file_menu.score_again.trigger()
    comparison = window.controller.run.comparison
    assert comparison.significance is not None and comparison.by_metric[0].matrix is not None
    assert "Green" in window.compare_view.systems.matrix.caption.text()
