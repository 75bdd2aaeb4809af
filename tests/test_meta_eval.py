"""Metrics against human scores (--meta-eval): hand-worked cases, scipy's correlations, and mt-metrics-eval's own
numbers on Google's MQM file of the WMT21 TED en-de test suite.

The MTME numbers below were computed with mt-metrics-eval itself (google-research/mt-metrics-eval at its newest
commit on 2026-11-27, its package on PYTHONPATH), on the segments and scores bleu-score reads from that file:
``stats.Agreement`` on the system scores, ``scipy.stats.pearsonr``, ``stats.PairwiseConfidenceError(gold, metric,
num_sys=13)``, ``stats.KendallWithTiesOpt(gold, metric, variant='acc23', num_sys=13, average_by='item',
sample_rate=1.0)`` and ``scipy.stats.kendalltau(variant='b')`` on the flattened segment scores. They are written here
as expected numbers; MTME is not a dependency."""

import json
import math

import numpy as np
import pytest

from bleu_gui.core.analysis.meta_eval import (
    acc_eq,
    kendall_tau_b,
    pairwise_accuracy,
    pairwise_p_values,
    pearson,
    soft_pairwise_accuracy,
)

from .conftest import cli, data_set


@pytest.mark.parametrize(("human", "metric", "expected"), [
    ([1, 2, 3], [1, 3, 2], 2 / 3),         # (1, 2) and (1, 3) ordered alike, (2, 3) not
    ([1, 1, 2], [0, 0, 1], 1.0),           # a pair tied in both agrees
    ([1, 1, 2], [0, 1, 1], 1 / 3),         # a tie on one side only does not
])
def test_pairwise_accuracy_counts_pairs_ordered_alike_and_ties_in_both(human, metric, expected):
    assert pairwise_accuracy(np.array(human, float), np.array(metric, float)) == pytest.approx(expected, abs=1e-15)


def test_acc_eq_finds_the_tie_threshold_by_hand():
    # One segment, three systems. Humans: A = B < C. Metric: 0.0, 0.1, 0.5.
    # ε = 0: (A, B) is wrong (humans tie, the metric does not), the other two right: 2/3.
    # ε = 0.1: (A, B) becomes a metric tie, right: 3/3. ε = 0.4: (B, C) becomes a tie, wrong: 2/3.
    human, metric = np.array([[0.0, 0.0, 1.0]]), np.array([[0.0, 0.1, 0.5]])
    assert acc_eq(human, metric) == (pytest.approx(1.0), pytest.approx(0.1))
    # Two segments: the threshold is one for all, the accuracy their mean.
    human2, metric2 = np.array([[0.0, 0.0, 1.0], [1.0, 2.0, 3.0]]), np.array([[0.0, 0.1, 0.5], [0.0, 0.05, 1.0]])
    # ε = 0: 2/3 and 3/3 → 5/6; ε = 0.05: (second, 1-2) becomes a tie, wrong → 4/6; ε = 0.1: first 3/3 → 5/6;
    # the first of equal bests is kept: ε = 0.
    assert acc_eq(human2, metric2) == (pytest.approx(5 / 6), pytest.approx(0.0))


def test_correlations_equal_scipys_with_ties_and_are_none_when_constant():
    import scipy.stats  # here, not at collection (~1.5 s in every test process)

    rng = np.random.default_rng(7)
    x, y = rng.integers(0, 6, 400).astype(float), rng.integers(0, 4, 400) + rng.random(400) * (rng.random(400) < 0.5)
    assert kendall_tau_b(x, y) == pytest.approx(scipy.stats.kendalltau(x, y, variant="b")[0], abs=1e-12)
    assert pearson(x, y) == pytest.approx(scipy.stats.pearsonr(x, y)[0], abs=1e-12)
    assert pearson(x, np.zeros(400)) is None and kendall_tau_b(x, np.ones(400)) is None


def test_spa_is_one_for_the_same_scores_and_p_values_are_one_sided():
    rng = np.random.default_rng(1)
    scores = rng.random((4, 50))
    scores[0] += 0.5  # system 0 is clearly better than every other
    p = pairwise_p_values(scores)
    assert np.all(p[0, 1:] < 0.01) and np.isnan(p[1, 0])
    assert soft_pairwise_accuracy(p, pairwise_p_values(scores)) == 1.0
    assert 0.0 <= soft_pairwise_accuracy(p, pairwise_p_values(-scores)) < 0.5


# mt-metrics-eval's numbers (see the module): pairwise accuracy, system Pearson, SPA, acc*_eq, ε, segment Pearson,
# segment Kendall τ_b.
MTME = {
    "BLEU": (0.692307692308, 0.620022527939, 0.668923076923, 0.480296640977, 100.0, 0.173514200278, 0.140609422681),
    "chrF2": (0.679487179487, 0.562318021869, 0.668705128205, 0.480296640977, 92.592592592593, 0.158306937409,
              0.146777683732),
    "TER": (0.679487179487, 0.608620633569, 0.555897435897, 0.480587465465, 300.0, 0.110558952268, 0.130810488421),
    "EditDistance": (0.692307692308, 0.652499596813, 0.608666666667, 0.480296640977, 338.461538461538, 0.137356528447,
                     0.130586182064),
}


# PDP, by scripts/mtme_oracle.py (MTME's stats.Correlation(13, …).Pearson(average_by='item', pdp=True), its commit
# of 2026-04-23) on the run's --export-mtme folder, 2026-12-02.
MTME_PDP = {"BLEU": 0.05280395427230689, "chrF2": 0.06408881847794745, "TER": 0.04028483388889362,
            "EditDistance": 0.03504022795584488}


def test_pdp_is_mt_metrics_evals_on_its_own_example():
    from bleu_gui.core.analysis.meta_eval import pairwise_difference_pearson

    # MTME's stats_test.testPearsonPdp: Correlation(2, [1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 3, 7]), items as rows.
    human, metric = np.array([[1, 4], [2, 5], [3, 6]], float), np.array([[2, 3], [1, 3], [4, 7]], float)
    assert pairwise_difference_pearson(human, metric) == pytest.approx(0.926, abs=5e-4)
    assert pairwise_difference_pearson(human, np.ones_like(metric)) is None


@pytest.mark.slow
def test_the_ted_mqm_file_gives_mt_metrics_evals_numbers(capsys):
    rated = data_set("formats/scores-mqm-ted-ende") / "mqm_ted_ende.tsv"
    code, out, err = cli(capsys, rated, "--refs", "ref", "-m", "bleu", "chrf", "ter", "edit", "mqm", "--meta-eval",
                         "mqm", "--format", "json")
    assert code == 0, err
    found = json.loads(out, parse_constant=lambda word: pytest.fail(f"not JSON: {word}"))["meta_evaluation"]
    assert found["human"] == "MQM" and len(found["systems"]) == 13 and found["segments"] == 529
    by_name = {m["metric"]: m for m in found["metrics"]}
    for name, (pa, r_sys, spa, acc, eps, r_seg, tau) in MTME.items():
        m = by_name[name]
        assert m["system_pairwise_accuracy"] == pytest.approx(pa, abs=1e-11)
        assert m["system_pearson"] == pytest.approx(r_sys, abs=1e-11)
        assert m["segment_acc_eq"] == pytest.approx(acc, abs=1e-11)
        assert m["segment_epsilon"] == pytest.approx(eps, rel=1e-12)
        assert m["segment_pearson"] == pytest.approx(r_seg, abs=1e-11)
        assert m["segment_kendall"] == pytest.approx(tau, abs=1e-11)
        # SPA draws MTME's very permutations, and its float32 matrix product sums as MTME's does only on arrays laid
        # out as MTME's are (C order; in Fortran order BLEU's was 0.66904 against MTME's 0.66892).
        assert m["spa"] == pytest.approx(spa, abs=1e-12)
        assert m["segment_pdp"] == pytest.approx(MTME_PDP[name], abs=1e-12)
    assert by_name["TER"]["negated"] and not by_name["BLEU"]["negated"]
    constant, random = found["baselines"]["constant"], found["baselines"]["random"]
    assert constant["system_pearson"] is None and constant["system_pairwise_accuracy"] == 0.0
    assert 0.3 < random["system_pairwise_accuracy"] < 0.7 and random["draws"] == 100


def test_a_segment_some_system_has_no_human_score_for_is_left_out_and_counted(tmp_path, capsys):
    (tmp_path / "ref.txt").write_text("a b c d\ne f g h\ni j k l\nm n o p\n", encoding="utf-8")
    (tmp_path / "x.txt").write_text("a b c d\ne f g\ni j\nm\n", encoding="utf-8")
    (tmp_path / "y.txt").write_text("a b c\ne f g h\ni j k\nm n o p\n", encoding="utf-8")
    (tmp_path / "z.txt").write_text("a\ne f\ni j k l\nm n\n", encoding="utf-8")
    rows = ["system\tsegment\thuman"] + [f"{s}.txt\t{i}\t{v}" for s, values in (
        ("x", (90, 60, 40, "None")), ("y", (70, 95, 60, 99)), ("z", (20, 40, 90, 30))) for i, v in enumerate(values, 1)]
    (tmp_path / "h.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, out, err = cli(capsys, tmp_path / "ref.txt", "-i", tmp_path / "x.txt", tmp_path / "y.txt", tmp_path / "z.txt",
                         "--scores", tmp_path / "h.tsv", "--scores-partial", "-m", "bleu", "human", "--meta-eval",
                         "human", "--format", "json")
    assert code == 0, err
    found = json.loads(out)["meta_evaluation"]
    assert found["segments"] == 3 and found["left_out"] == 1
    (bleu,) = found["metrics"]
    assert all(v is None or math.isfinite(v) for v in bleu.values() if isinstance(v, float))
    code, out, err = cli(capsys, tmp_path / "ref.txt", "-i", tmp_path / "x.txt", tmp_path / "y.txt", "--scores",
                         tmp_path / "h.tsv", "--scores-partial", "-m", "bleu", "human", "--meta-eval", "mqm")
    assert code == 2 and "--meta-eval mqm: not a metric of the run (bleu, human; -m/--metrics adds one)" in err


def test_ranks_open_a_cluster_when_one_of_the_rank_beats_a_metric():
    from bleu_gui.core.analysis.meta_eval import assign_ranks

    # Metrics best first; p[i, j]: the p-value that i beats j. 0 beats 2 (0.01), nothing else is significant:
    # 0 and 1 share rank 1, 2 opens rank 2 (beaten by 0, of its rank), 3 is not beaten by 2 (of rank 2): rank 2.
    p = np.full((4, 4), np.nan)
    p[0, 1], p[0, 2], p[0, 3], p[1, 2], p[1, 3], p[2, 3] = 0.3, 0.01, 0.001, 0.2, 0.04, 0.4
    assert assign_ranks(p) == [1, 1, 2, 2]


def test_a_metric_that_orders_systems_as_the_humans_beats_one_that_reverses_them():
    from bleu_gui.core.analysis.meta_eval import better_p_value

    human = np.arange(8, dtype=float)
    assert better_p_value(human, human * 2 + 1, -human) < 0.01
    assert better_p_value(human, -human, human * 2 + 1) > 0.99


@pytest.mark.slow
def test_the_pairs_a_metric_orders_against_the_humans_are_listed(capsys):
    import scipy.stats  # here, not at collection (~1.5 s in every test process)

    rated = data_set("formats/scores-mqm-ted-ende") / "mqm_ted_ende.tsv"
    code, out, err = cli(capsys, rated, "--refs", "ref", "-m", "bleu", "mqm", "--meta-eval", "mqm", "--format", "json")
    assert code == 0, err
    (bleu,) = json.loads(out)["meta_evaluation"]["metrics"]
    pairs = bleu["pairs_against_humans"]
    # 1 − pairwise accuracy of the 78 pairs are ordered against the humans, each written humans' better first.
    assert len(pairs) == round((1 - bleu["system_pairwise_accuracy"]) * 78) == 24
    assert all(p["human_delta"] >= 0 and p["metric_delta"] <= 0 for p in pairs)
    assert bleu["rank"] == 1
    # The segments that pull BLEU and the humans apart on a pair: the differences a − b of each segment's sentence
    # BLEU and MQM (from -sl), placed 0..1 by scipy's average ranks; the listed segments are those whose two places
    # differ most.
    code, out, err = cli(capsys, rated, "--refs", "ref", "-m", "bleu", "mqm", "-sl", "--format", "json")
    assert code == 0, err
    sentences = {(e["metric"], e["system"]): np.array([np.nan if s["score"] is None else s["score"]
                                                       for s in e["sentences"]]) for e in json.loads(out)}
    pair = pairs[0]
    d_bleu = sentences["BLEU", pair["a"]] - sentences["BLEU", pair["b"]]
    d_mqm = sentences["MQM", pair["a"]] - sentences["MQM", pair["b"]]
    both = np.isfinite(d_bleu) & np.isfinite(d_mqm)
    gap = np.full(len(d_bleu), np.nan)
    gap[both] = np.abs(scipy.stats.rankdata(d_bleu[both]) - scipy.stats.rankdata(d_mqm[both])) / (both.sum() - 1)
    listed = pair["segments_apart"]
    assert len(listed) == 10
    for s in listed:
        assert s["metric_delta"] == pytest.approx(d_bleu[s["segment"] - 1], abs=1e-9)
        assert s["human_delta"] == pytest.approx(d_mqm[s["segment"] - 1], abs=1e-9)
    assert gap[listed[0]["segment"] - 1] == pytest.approx(np.nanmax(gap), abs=1e-12)
    assert min(gap[s["segment"] - 1] for s in listed) >= np.sort(gap[both])[-10] - 1e-12


def test_compare_shows_metrics_vs_humans_computed_in_a_worker_and_a_pair_opens_a_and_b(qtbot, window):
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    rated = data_set("formats/tsv-mqm-wmt") / "mqm_ted_ende.head588lines.tsv"
    window.settings_panel.group("mqm").setChecked(True)
    for key in ("chrf", "ter", "edit"):
        window.settings_panel.group(key).setChecked(True)
    window.run_actions.open_inputs(OpenChoice(InputRequest(references=(str(rated),), refs_wanted=("ref",)), None))
    qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy and any(
        m.key == "mqm" for m in window.controller.run.metrics), timeout=300_000)  # five metrics of 588 lines
    panel = window.humans.scores
    assert panel.isEnabled() and panel.human.currentText() == "MQM"
    panel.evaluate()
    qtbot.waitUntil(lambda: panel.found is not None)
    rows = panel.table.model().rowCount()
    assert rows == 4 + 2  # BLEU, chrF2, TER, edit distance, then the constant and the random baselines
    assert {panel.table.model().index(r, 1).data() for r in range(2)} <= {"BLEU", "chrF2", "TER (negated)",
                                                                         "edit distance (negated)"}
    assert len(panel.scatter.data) == len(window.controller.run.systems)
    names = {s.name for s in window.controller.run.systems}
    assert len(panel.names) == 3 and {t.textItem.toPlainText() for t in panel.names} <= names
    # Every row in view, the baselines too (1366×768 hid them below the fold).
    window.resize(1366, 768)
    assert window.tabs.isTabEnabled(2)
    window.tabs.setCurrentIndex(2)  # Humans ▸ Scores
    panel._fit_table()
    qtbot.waitUntil(lambda: panel.table.isVisible())
    last = panel.table.rowViewportPosition(rows - 1) + panel.table.rowHeight(rows - 1)
    assert 0 <= panel.table.rowViewportPosition(rows - 1) and last <= panel.table.viewport().height()
    pairs = panel.pairs.model()
    assert pairs.rowCount() == len(panel.found.metrics[0].parted) > 0
    a, b = pairs.index(0, 0).data().split(" > ")
    panel._pair_chosen(pairs.index(0, 0))  # A made the baseline in the worker (unless it is), B chosen

    def shown() -> bool:
        run = window.controller.run
        return not window.jobs.busy and run.systems[0].name == a and run.systems[window.controller.b].name == b

    qtbot.waitUntil(shown)
    # A made the baseline re-orders the systems: the results stand, and the pair's segments apart are listed.
    assert panel.found is not None and panel.table.model().rowCount() == rows
    apart = panel.apart.model()
    assert 0 < apart.rowCount() <= 10
    line = int(apart.index(0, 0).data())
    with qtbot.waitSignal(panel.segment_opened):
        panel._segment_chosen(apart.index(0, 0))
    assert window.controller.run.line_number(window.controller.sentence) == line
    # The raters' spans of A and B beside BLEU's colours, without switching the Metric to MQM.
    panes = window.compare_view.panes
    assert window.controller.metric_object.key == "bleu"
    assert panes.human_a.isVisibleTo(window.compare_view) and panes.human_b.isVisibleTo(window.compare_view)
    assert panes.human_a.summary.text() and panes.human_b.summary.text()


def test_the_scatter_names_the_systems_furthest_from_the_line():
    from bleu_gui.gui.compare.metrics_vs_humans import outliers

    # By hand, x 0..4 and y 0, 1, 2, 9, 4: least squares gives slope 1.6 (Sxy 16 / Sxx 10) and intercept 0
    # (mean y 3.2 − 1.6 × mean x 2), so the residuals are 0, −0.6, −1.2, 4.2, −2.4: furthest 3, then 4, then 2.
    assert outliers([0, 1, 2, 3, 4], [0, 1, 2, 9, 4]) == [3, 4, 2]
    assert outliers([0, 1, 2, 3, 4], [0, 1, 2, 9, 4], k=1) == [3]
    assert outliers([1, 2], [5, 3]) == [0, 1]  # as few as asked: each named
    assert outliers([2, 2, 2, 2], [1, 5, 2, 3], k=1) == [1]  # one human score for all: off the mean


@pytest.mark.slow
def test_export_mtme_writes_the_layout_mt_metrics_eval_reads(tmp_path, capsys):
    # Read back as MTME's data.ReadScoreFile reads it (a line split at whitespace: SYSTEM and a number or None).
    # The folder, read by MTME's own data.EvalSet(name, 'en-de', info=MetaInfo('ref', {'sys': 'mqm', 'seg': 'mqm'},
    # set(), set()), path=DIR), gave the system and segment Pearson of BLEU and chrF2 that --meta-eval gives.
    rated = data_set("formats/scores-mqm-ted-ende") / "mqm_ted_ende.tsv"
    code, out, err = cli(capsys, rated, "--refs", "ref", "-m", "bleu", "mqm", "--langs", "en", "de",
                         "--export-mtme", tmp_path, "-b")
    assert code == 0, err
    root = tmp_path / "bleu-gui"
    seg = [line.split() for line in (root / "human-scores" / "en-de.mqm.seg.score").read_text().splitlines()]
    systems = [p.stem for p in (root / "system-outputs" / "en-de").glob("*.txt")]
    assert len(systems) == 13 and len(seg) == 13 * 529 and {s for s, _ in seg} == set(systems)
    bleu_sys = dict(line.split() for line in (root / "metric-scores" / "en-de" / "BLEU-ref.sys.score").read_text()
                    .splitlines())
    assert len(bleu_sys) == 13 and all(0 < float(v) < 100 for v in bleu_sys.values())
    assert len((root / "sources" / "en-de.txt").read_text().splitlines()) == 529
    assert all(len(line.split()) == 2 for line in (root / "documents" / "en-de.docs").read_text().splitlines())


def test_mtme_score_files_are_read_back_as_written(tmp_path, capsys):
    # A run written with --export-mtme, then its human-scores and metric-scores segment files read with --scores
    # onto the same systems: every value comes back, on its system and segment (the k-th line of a system is its
    # segment k); the MQM column equals the annotations' MQM, the BLEU column the sentence BLEU of -sl.
    from .test_span_ratings import plain, wmt_lines, write_jsonl

    paths = plain(tmp_path)
    ratings = write_jsonl(tmp_path / "esa.jsonl", wmt_lines())
    run = [paths["ref"], "-i", paths["A"], paths["B"], "--src", paths["src"], "--annotations", ratings, "-m", "bleu",
           "mqm", "esa", "--langs", "en", "de"]
    code, _out, err = cli(capsys, *run, "--export-mtme", tmp_path / "mtme", "--meta-eval", "esa")
    assert code == 0, err
    root = tmp_path / "mtme" / "bleu-gui"
    human = root / "human-scores" / "en-de.esa.seg.score"
    bleu = root / "metric-scores" / "en-de" / "BLEU-ref.seg.score"
    code, out, err = cli(capsys, paths["ref"], "-i", paths["A"], paths["B"], "--scores", human, "--scores", bleu, "-m", "bleu",
                         "esa", "BLEU-ref", "-sl", "-f", "json")
    assert code == 0, err
    got = {(e["metric"], e["system"]): [s["score"] for s in e["sentences"]] for e in json.loads(out)}
    names = sorted({s for _, s in got})
    assert [got["esa", s] for s in names] == [[50.0, 70.0, 80.0], [100.0, 90.0, 95.0]]  # test_span_ratings' hand ESA
    for s in names:
        assert got["BLEU-ref", s] == pytest.approx(got["BLEU", s], abs=1e-12)
    system_level = root / "human-scores" / "en-de.esa.sys.score"
    code, _out, err = cli(capsys, paths["ref"], "-i", paths["A"], "--scores", system_level)
    assert code != 0 and "system-level scores" in err and "Traceback" not in err


def test_the_latex_table_is_wmts_layout(tmp_path, capsys):
    # The 2-system ESA run of test_span_ratings: every metric a row of 9 cells (rank, metric, three system-level and
    # four segment-level statistics), TER marked negated, the three baselines in italics, booktabs rules, and the
    # numbers those of the JSON output. MQM, made of the same raters' spans, is human: no row of the metrics.
    from .test_span_ratings import plain, wmt_lines, write_jsonl

    paths = plain(tmp_path)
    ratings = write_jsonl(tmp_path / "esa.jsonl", wmt_lines())
    run = [paths["ref"], "-i", paths["A"], paths["B"], "--src", paths["src"], "--annotations", ratings, "-m", "bleu",
           "ter", "mqm", "esa", "--meta-eval", "esa"]
    code, out, err = cli(capsys, *run, "--format", "latex")
    assert code == 0, err
    lines = out.splitlines()
    assert lines.count(r"\toprule") == 1 and lines.count(r"\bottomrule") == 1 and r"\end{tabular}" in lines
    rows = [line for line in lines if line.endswith(r"\\") and "&" in line and not line.startswith(" & &")]
    assert all(line.count("&") == 8 for line in rows)
    body = {line.split(" & ")[1]: line.split(" & ")[2:] for line in rows[1:]}
    assert set(body) == {"BLEU", "TER ($-$)", r"\textit{constant metric}", r"\textit{random (mean)}",
                         r"\textit{random (spread)}"}
    code, out, err = cli(capsys, *run, "--format", "json")
    meta = json.loads(out)["meta_evaluation"]
    found = {m["metric"]: m for m in meta["metrics"]}
    assert meta["human_columns_not_ranked"] == ["MQM"]
    assert body["BLEU"][0] == f"{found['BLEU']['system_pairwise_accuracy']:.3f}"
    assert body["TER ($-$)"][4] == f"{found['TER']['segment_pearson']:.3f}".replace("-", "$-$")  # not the last cell


# -- trust round 5: the seams with mt-metrics-eval -----------------------------------------------------------------
def _four_systems(tmp_path, columns: dict[str, dict[str, list[float]]]):
    """Four systems of six segments against one reference, and a scores file of ``columns`` (name → system → its
    six segment scores)."""
    ref = ["the cat sat on the mat", "a dog ran in the park", "it is cold today", "we like green tea",
           "the sun is bright", "birds sing at dawn"]
    outputs = {"w": ref, "x": [" ".join(r.split()[:-1]) for r in ref], "y": [" ".join(r.split()[:3]) for r in ref],
               "z": [r.split()[0] for r in ref]}
    (tmp_path / "ref.txt").write_text("\n".join(ref) + "\n", encoding="utf-8")
    for name, lines in outputs.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    names = list(columns)
    rows = ["system\tsegment\t" + "\t".join(names)]
    rows += [f"{s}.txt\t{i + 1}\t" + "\t".join(repr(columns[c][s][i]) for c in names) for s in outputs for i in range(6)]
    (tmp_path / "scores.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return [tmp_path / "ref.txt", "-i", *(tmp_path / f"{s}.txt" for s in outputs), "--scores", tmp_path / "scores.tsv",
            "--allow-identical-refs"]


def test_a_lower_is_better_human_column_is_negated_before_it_is_compared(tmp_path, capsys):
    # Penalties by hand: w 0 per segment, x 2, y 5, z 9 (lower is better) — the order chrF gives the four systems
    # (w is the reference, x less a word, y three words, z one). Read as higher-is-better, chrF would order every
    # pair against them.
    penalty = {"w": [0.0] * 6, "x": [2.0] * 6, "y": [5.0, 5.0, 4.0, 5.0, 6.0, 5.0], "z": [9.0] * 6}
    run = _four_systems(tmp_path, {"penalty": penalty})
    code, out, err = cli(capsys, *run, "--lower-better", "penalty", "-m", "chrf", "penalty", "--meta-eval", "penalty",
                         "-f", "json")
    assert code == 0, err
    found = json.loads(out)["meta_evaluation"]
    (chrf,) = found["metrics"]
    assert found["human_negated"] is True
    assert chrf["system_pairwise_accuracy"] == 1.0 and chrf["system_pearson"] > 0.8
    assert found["human_scores"] == [-0.0, -2.0, -5.0, -9.0]


def test_a_constant_metric_ranks_below_as_mt_metrics_eval_ranks_it():
    from bleu_gui.core.analysis.meta_eval import assign_ranks, better_p_value

    # MTME's PermutationSigDiff z-scores each metric with scipy: a constant one becomes NaN, orders no pair (NaN
    # compares unequal to every sign), and stays NaN in every resample (0 × NaN): a metric that orders one pair as
    # the humans do beats it in all 1,000 resamples, p = 0, and the constant opens rank 2.
    human = np.array([1.0, 2.0, 3.0, 4.0])
    good, constant = np.array([0.1, 0.3, 0.2, 0.9]), np.full(4, 0.5)
    p = better_p_value(human, good, constant)
    assert p == 0.0
    assert assign_ranks(np.array([[np.nan, p], [np.nan, np.nan]])) == [1, 2]


def test_a_metric_computed_from_the_text_is_refused_as_the_humans_unless_asked(tmp_path, capsys):
    human = {"w": [90.0] * 6, "x": [70.0] * 6, "y": [50.0] * 6, "z": [20.0] * 6}
    run = _four_systems(tmp_path, {"esa": human})
    code, _out, err = cli(capsys, *run, "-m", "bleu", "chrf", "esa", "--meta-eval", "bleu")
    assert code != 0 and "Traceback" not in err
    assert ("--meta-eval bleu: BLEU is computed from the text, not a human judgement; the run's human scores: esa "
            "(--meta-eval-human-is-metric takes a metric as the humans anyway)") in err
    code, out, err = cli(capsys, *run, "-m", "bleu", "chrf", "esa", "--meta-eval", "bleu", "--meta-eval-human-is-metric",
                         "-f", "json")
    assert code == 0, err
    assert json.loads(out)["meta_evaluation"]["human"] == "BLEU"


def test_export_mtme_writes_higher_is_better_scores_under_unique_names(tmp_path, capsys):
    ref = ["the cat sat on the mat", "a dog ran in the park", "it is cold today"]
    (tmp_path / "ref.txt").write_text("\n".join(ref) + "\n", encoding="utf-8")
    (tmp_path / "A B.txt").write_text("the cat sat\na dog ran in a park\nit is cold\n", encoding="utf-8")
    (tmp_path / "A_B.txt").write_text("a cat sat on the mat\na dog\nit is cold today\n", encoding="utf-8")
    rows = ["system\tsegment\tesa"] + [f"{s}\t{i}\t{v}" for s, vs in (("A B", (50, 60, 70)), ("A_B", (80, 20, 90)))
                                       for i, v in enumerate(vs, 1)]
    (tmp_path / "esa.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    run = [tmp_path / "ref.txt", "-i", tmp_path / "A B.txt", tmp_path / "A_B.txt", "--labels", "A B", "A_B",
           "--scores", tmp_path / "esa.tsv", "--langs", "en", "de"]
    code, out, err = cli(capsys, *run, "-m", "ter", "esa", "-sl", "-f", "json")
    assert code == 0, err
    ter = {e["system"]: [s["score"] for s in e["sentences"]] for e in json.loads(out) if e["metric"] == "TER"}
    code, _out, err = cli(capsys, *run, "-m", "ter", "esa", "--meta-eval", "esa", "--export-mtme", tmp_path / "mtme")
    assert code == 0, err
    root = tmp_path / "mtme" / "bleu-gui"
    assert sorted(p.name for p in (root / "system-outputs" / "en-de").iterdir()) == ["A_B.txt", "A_B_2.txt"]
    assert (root / "names.tsv").read_text("utf-8") == "A_B\tA B\nA_B_2\tA_B\n"
    written: dict[str, list[float]] = {}
    for line in (root / "metric-scores" / "en-de" / "TER-ref.seg.score").read_text("utf-8").splitlines():
        system, value = line.split("\t")
        written.setdefault(system, []).append(float(value))
    # MTME takes every score as higher-is-better: TER is written negated, system by system.
    assert written == {"A_B": [-v for v in ter["A B"]], "A_B_2": [-v for v in ter["A_B"]]}
    readme = (root / "README.txt").read_text("utf-8")
    assert "written negated" in readme and "TER" in readme and "A_B_2\tA_B" in readme


def test_the_table_is_said_in_words_a_translator_reads():
    from bleu_gui.core.analysis.meta_eval import Agreement, MetaEvaluation, in_words

    def agreement(name, accuracy):
        return Agreement(name, accuracy, None, 0.6, 0.5, 0.0, None, None)

    # 14 systems: 91 pairs. chrF orders 70 as the raters do (70/91), BLEU 58 (58/91 = 0.637, inside the random band
    # 0.50 ± 2 × 0.07 = 0.64).
    found = MetaEvaluation("mqm", tuple(f"s{k}" for k in range(14)), 529, 0,
                           (agreement("chrF", 70 / 91), agreement("BLEU", 58 / 91)),
                           {"random": {"system_pairwise_accuracy": 0.50, "system_pairwise_accuracy_sd": 0.07}})
    assert in_words(found) == (
        "On these 529 segments of 14 systems, chrF agrees most with mqm: it orders 70 of 91 system pairs as the raters "
        "do, pairwise accuracy 0.77 (a random metric: 0.50 ± 0.07). BLEU orders 58 of 91 system pairs as the raters "
        "do: no better than chance.")
    clear = MetaEvaluation("mqm", found.systems, 529, 0, (agreement("chrF", 70 / 91), agreement("BLEU", 66 / 91)),
                           found.baselines)
    assert "no better than chance" not in in_words(clear)  # 0.725 > 0.64: above the band


def test_the_words_never_overstate_a_tie_or_a_metric_no_better_than_chance():
    from dataclasses import replace

    from bleu_gui.core.analysis.meta_eval import Agreement, MetaEvaluation, in_words

    def agreement(name, accuracy, rank):
        return Agreement(name, accuracy, None, 0.6, 0.5, 0.0, None, None, rank=rank)

    band = {"random": {"system_pairwise_accuracy": 0.50, "system_pairwise_accuracy_sd": 0.07}}
    systems = tuple(f"s{k}" for k in range(14))
    # BLEU 0.714 and chrF2 0.703 in one significance cluster: a tie, whichever decimals lead.
    tied = MetaEvaluation("esa", systems, 998, 0, (agreement("BLEU", 65 / 91, 1), agreement("chrF2", 64 / 91, 1),
                                                    agreement("TER", 40 / 91, 2)), band)
    said = in_words(tied)
    assert "BLEU and chrF2 agree most with esa, tied" in said and "BLEU agrees most" not in said
    # Every metric within the random band (0.50 ± 2 × 0.07): none is said to agree, the best is named as such.
    chance = MetaEvaluation("mqm", systems, 529, 0, (agreement("chrF2", 41 / 91, 1), agreement("BLEU", 38 / 91, 1)),
                            band)
    assert in_words(chance).startswith("On these 529 segments of 14 systems, no metric agrees with mqm better than "
                                       "chance: the best, chrF2,")
    # A human column of the run beside the metrics is said to be human, never ranked.
    assert "MQM: human ratings too" in in_words(replace(tied, human_columns=("MQM",)))


def two_rater_tsv(tmp_path):
    """Google's MQM layout: 4 systems and the reference, 10 segments, each rated by rater1 and rater2 (seeded
    errors, the second rater agreeing with the first most of the time); returns the file and each rater's MQM
    per system and segment, by hand: −(5 × Major + Minor)."""
    import random

    rng = random.Random(3)
    words = "the cat sat on a mat while the dog ran far away".split()
    lines = ["system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment"]
    by_hand = {}
    for system, quality in (("ref", 0.0), ("A", 0.2), ("B", 0.5), ("C", 0.8), ("D", 1.2)):
        for seg in range(1, 11):
            target = " ".join(rng.sample(words, 6))
            first = [rng.choice(["Major", "Minor"]) for _ in range(rng.randint(0, 4) if quality else 0)
                     if rng.random() < quality]
            second = [s if rng.random() < 0.7 else "Minor" for s in first] + (["Minor"] if rng.random() < 0.3 else [])
            for rater, errors in (("rater1", first), ("rater2", second)):
                by_hand[(system, seg, rater)] = -sum(5 if e == "Major" else 1 for e in errors)
                if not errors:
                    lines.append(f"{system}\td\t1\t{seg}\t{rater}\tsrc {seg}\t{target}\tNo-error\tno-error\t")
                for e in errors:
                    marked = target.replace(target.split()[0], f"<v>{target.split()[0]}</v>", 1)
                    lines.append(f"{system}\td\t1\t{seg}\t{rater}\tsrc {seg}\t{marked}\tAccuracy/Mistranslation\t{e}\t")
    path = tmp_path / "two_raters.tsv"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path, by_hand


def test_the_raters_ceiling_is_their_agreement_with_each_other(tmp_path, capsys):
    import scipy.stats

    path, by_hand = two_rater_tsv(tmp_path)
    code, out, err = cli(capsys, path, "--refs", "ref", "-m", "chrf", "mqm", "--meta-eval", "mqm", "-f", "json")
    assert code == 0, err
    ceiling = json.loads(out)["meta_evaluation"]["rater_ceiling"]
    systems = json.loads(out)["meta_evaluation"]["systems"]
    first = np.array([[by_hand[(s, g, "rater1")] for g in range(1, 11)] for s in systems], float)
    second = np.array([[by_hand[(s, g, "rater2")] for g in range(1, 11)] for s in systems], float)
    raters = ceiling["raters"]
    assert ceiling["segments"] == 10
    assert raters["system_pearson"] == pytest.approx(scipy.stats.pearsonr(first.mean(1), second.mean(1))[0], abs=1e-12)
    assert raters["segment_pearson"] == pytest.approx(scipy.stats.pearsonr(first.ravel(), second.ravel())[0],
                                                      abs=1e-12)
    assert raters["segment_kendall"] == pytest.approx(scipy.stats.kendalltau(first.ravel(), second.ravel())[0],
                                                      abs=1e-12)
    m1, m2 = first.mean(1), second.mean(1)
    pairs = [(i, j) for i in range(len(systems)) for j in range(i + 1, len(systems))]
    agree = sum(np.sign(m1[i] - m1[j]) == np.sign(m2[i] - m2[j]) for i, j in pairs) / len(pairs)
    assert raters["system_pairwise_accuracy"] == pytest.approx(agree, abs=1e-12)
    (chrf,) = ceiling["metrics"]
    assert chrf["metric"] == "chrF2"
    share = chrf["share_of_raters"]["system_pairwise_accuracy"]
    assert share == pytest.approx(chrf["system_pairwise_accuracy"] / agree, abs=1e-12)
    code, out, err = cli(capsys, path, "--refs", "ref", "-m", "chrf", "mqm", "--meta-eval", "mqm")
    assert f"the raters order {agree:.0%} of the pairs alike" in out


def test_span_agreement_between_two_raters_is_the_ceiling_of_span_detectors(tmp_path, capsys):
    path, _by_hand = two_rater_tsv(tmp_path)
    code, out, err = cli(capsys, path, "--refs", "ref", "-m", "mqm", "--span-eval", "-f", "json")
    assert code == 0, err
    found = json.loads(out)["span_agreement"]
    # Each segment's first rater is the gold: rater2 is the one detector, scored on every segment, and rater
    # against rater over the same segments is the ceiling — the same numbers.
    (rater2,) = found["detectors"]
    assert rater2["detector"] == "rater2" and rater2["kind"] == "rater" and rater2["overall"]["segments"] == 40
    assert found["rater_ceiling"] == rater2["overall"]
    code, out, err = cli(capsys, path, "--refs", "ref", "-m", "mqm", "--span-eval", "rater2", "-f", "json")
    assert [d["detector"] for d in json.loads(out)["span_agreement"]["detectors"]] == ["rater1"]
    code, out, err = cli(capsys, path, "--refs", "ref", "-m", "mqm", "--span-eval", "rater9")
    assert code != 0 and "no rater of that name (the run's raters: rater1, rater2)" in err
