"""Segment scores from outside as metrics: Google's MQM files end to end, sacreBLEU's paired tests applied to the
mean (an oracle written here from sacreBLEU's procedure, with its own p-value function), and every rule of the
reader on small files."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from sacrebleu.significance import _compute_p_value

from .conftest import cli, data_set

MQM = "scores-mqm-ted-ende"



def mqm_files():
    folder = data_set("formats") / MQM
    return folder / "mqm_ted_ende.tsv", folder / "mqm_ted_ende.avg_seg_scores.tsv"


def oracle_scores(scores_path, rated_path):
    """Each system's MQM score per rated segment, read here on its own: the segments of the rated TSV in the
    order they first appear, the scores file split at any whitespace, None as missing."""
    order = []
    for line in rated_path.read_text(encoding="utf-8").splitlines()[1:]:
        seg = line.split("\t")[3]
        if seg not in order:
            order.append(seg)
    table: dict[str, dict[str, float]] = {}
    for line in scores_path.read_text(encoding="utf-8").splitlines()[1:]:
        system, value, seg = line.split()
        table.setdefault(system, {})[seg] = math.nan if value == "None" else float(value)
    return {system: np.array([by_seg[s] for s in order]) for system, by_seg in table.items()}


def stats_of(values):
    present = ~np.isnan(values)
    return np.stack([np.where(present, values, 0.0), present.astype(float)], axis=1)


def mean_of(sums):
    """The mean of summed [score, present] rows."""
    return sums[..., 0] / sums[..., 1]


def sacrebleu_paired_bs(base, system, n=1000, seed=12345):
    """sacreBLEU's _paired_bs_test with the mean as the metric, in float64."""
    idx = np.random.default_rng(seed).choice(len(base), size=(n, len(base)), replace=True)
    bl = np.array([mean_of(base[i].sum(0)) for i in idx])
    sy = np.array([mean_of(system[i].sum(0)) for i in idx])
    diffs = np.abs(sy - bl)
    return _compute_p_value(diffs - diffs.mean(), abs(mean_of(base.sum(0)) - mean_of(system.sum(0))))


def sacrebleu_paired_ar(base, system, n=10000, seed=12345):
    """sacreBLEU's _paired_ar_test with the mean as the metric, in float64."""
    pos = np.random.default_rng(seed).integers(2, size=(n, len(base)), dtype=bool)
    a = pos @ base + ~pos @ system
    b = ~pos @ base + pos @ system
    return _compute_p_value(np.abs(mean_of(a) - mean_of(b)), abs(mean_of(base.sum(0)) - mean_of(system.sum(0))))


@pytest.mark.slow
def test_mqm_means_and_paired_tests_are_sacrebleus_procedure_on_the_mean(capsys):
    rated, scores = mqm_files()
    systems = ["Nemo", "UEdin", "Facebook-AI", "metricsystem2"]
    expected = oracle_scores(scores, rated)
    for flag, oracle in (("--paired-bs", sacrebleu_paired_bs), ("--paired-ar", sacrebleu_paired_ar)):
        code, out, err = cli(capsys, rated, "--refs", "ref", "--scores", scores, "--systems", *systems,
                             "-m", "mqm_avg_score", flag, "-f", "json")
        assert code == 0, err
        rows = json.loads(out)
        base = stats_of(expected[systems[0]])
        for system, row in zip(systems, rows):
            assert row["system"] == system and row["metric"] == "mqm_avg_score"
            values = expected[system]
            assert row["score"] == pytest.approx(np.nanmean(values), abs=1e-12)
            assert (row["segments"], row["missing"]) == (int((~np.isnan(values)).sum()), int(np.isnan(values).sum()))
            if system != systems[0]:
                assert row["p_value"] == pytest.approx(oracle(base, stats_of(values)), abs=1e-12), (flag, system)
    assert "rows of systems the run does not hold left out: " in err and "ref-A (606)" in err
    # The run holds the 529 rated segments of 606: each system's 77 rows of unrated segments are left out.
    assert f"{77 * len(systems)} rows of segments the run does not hold left out" in err


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def plain(tmp_path):
    """Two systems of three plain-text lines and their reference."""
    ref = write(tmp_path / "ref.txt", "a b c\nd e f\ng h i\n")
    a = write(tmp_path / "a.txt", "a b c\nd x f\ng h\n")
    b = write(tmp_path / "b.txt", "a b\nd e f\ng h i\n")
    return tmp_path, ref, a, b


def test_plain_text_rows_by_line_number_with_missing_scores(capsys, plain):
    folder, ref, a, b = plain
    scores = write(folder / "comet.tsv", "system\tsegment\tCOMET\tnote\n"
                                         "a\t1\t0.5\tok\na\t2\tNone\tx\na\t3\t0.7\tok\n"
                                         "b\t1\t0.1\tok\nb\t2\t0.2\tok\nb\t3\tnan\tok\nother\t1\t0.9\tok\n")
    code, out, err = cli(capsys, ref, "-i", a, b, "--scores", scores, "-m", "COMET", "-f", "json")
    assert code == 0, err
    rows = {r["system"]: r for r in json.loads(out)}
    assert rows["a.txt"]["score"] == pytest.approx(0.6) and rows["a.txt"]["missing"] == 1
    assert rows["b.txt"]["score"] == pytest.approx(0.15) and rows["b.txt"]["missing"] == 1
    assert "column(s) note hold text, not scores" in err and "other (1)" in err


def test_a_header_of_spaces_over_rows_of_tabs_and_spaces(capsys, plain):
    folder, ref, a, b = plain
    scores = write(folder / "s.tsv", "system score segment\na\t1.0 1\na\t2.0 2\na\t3.0 3\n")
    code, out, err = cli(capsys, ref, "-i", a, "--scores", scores, "-f", "json")
    assert code == 0, err
    by_metric = {r["metric"]: r for r in json.loads(out)}
    assert set(by_metric) == {"BLEU", "score"} and by_metric["score"]["score"] == pytest.approx(2.0)


@pytest.mark.parametrize(("text", "partial", "said"), [
    ("system\tsegment\tX\na\t1\t1\na\t2\t1\n", False, "system a.txt has no row for 1 of 3 segments (segment 3)"),
    ("system\tsegment\tX\na\t1\t1\na\t2\t1\na\t3\t1\n", False, "system b.txt has no row"),
    ("system\tsegment\tX\na\t1\t1\na\t1\t2\n", False, "lines 2 and 3 both score system 'a', segment 1"),
    ("system segment X\na 1\n", False, "line 2: 2 fields split at spaces and tabs"),
    ("system\tsegment\tnote\na\t1\thello\n", False, "no numeric column"),
    ("segment\tX\n1\t2\n", False, "no system column"),
    ("system\tseg_id\tX\na\t1\t2\n", False, "the input has no segment ids (plain text)"),
])
def test_a_bad_scores_file_names_what_is_wrong(capsys, plain, text, partial, said):
    folder, ref, a, b = plain
    scores = write(folder / "s.tsv", text)
    code, out, err = cli(capsys, ref, "-i", a, b, "--scores", scores)
    assert code == 2 and out == ""
    assert said in err and "Traceback" not in err


def test_partial_scores_are_read_as_missing_and_said(capsys, plain):
    folder, ref, a, b = plain
    scores = write(folder / "s.tsv", "system\tsegment\tX\na\t1\t1\na\t2\t3\n")
    code, out, err = cli(capsys, ref, "-i", a, b, "--scores", scores, "--scores-partial", "-m", "X", "-f", "json")
    assert code == 0, err
    rows = {r["system"]: r for r in json.loads(out)}
    assert rows["a.txt"]["score"] == pytest.approx(2.0) and rows["a.txt"]["missing"] == 1
    assert rows["b.txt"]["score"] is None and rows["b.txt"]["missing"] == 3
    assert "system b.txt has no row" in err and "read as missing" in err


def test_systems_lacking_the_same_segments_are_said_once(capsys, plain):
    # As WMT24's ESA release is: every system rated on the same subset (12 equal lines of notes before).
    folder, ref, a, b = plain
    scores = write(folder / "s.tsv", "system\tsegment\tX\na\t1\t1\nb\t1\t3\n")
    code, out, err = cli(capsys, ref, "-i", a, b, "--scores", scores, "--scores-partial", "-m", "X", "-f", "json")
    assert code == 0, err
    assert "2 systems (a.txt, b.txt) have no row for the same 2 of 3 segments (segment 2, 3): read as missing" in err
    assert "system a.txt has no row" not in err


def test_lower_better_ranks_the_lowest_first(capsys, plain):
    folder, ref, a, b = plain
    scores = write(folder / "s.csv", "system,segment,MetricX\na,1,5\na,2,5\na,3,5\nb,1,1\nb,2,1\nb,3,1\n")
    code, out, err = cli(capsys, ref, "-i", a, b, "--scores", scores, "-m", "MetricX", "--lower-better", "MetricX",
                         "--all-pairs", "--paired-ar-n", "100", "--paired-bs-n", "100")
    assert code == 0, err
    table = out.split("\n\n")[0]
    assert table.index("b.txt") < table.index("a.txt")  # lower is better: b first
    code, out, err = cli(capsys, ref, "-i", a, b, "--scores", scores, "--lower-better", "Metric")
    assert code == 2 and "--lower-better Metric: not a column" in err
    code, out, err = cli(capsys, ref, "-i", a, b, "-m", "COMET")
    assert code == 2 and "unknown metric COMET" in err


def test_wmt_xml_rows_keyed_by_document_and_segment_id(capsys, tmp_path):
    path = data_set("formats") / "wmt-xml-wmt22-liv-en" / "wmttest2022.liv-en.all.xml"
    from bleu_gui.core.inputs.run_inputs import read_run_inputs

    inputs = read_run_inputs([], [path], systems_wanted=["TartuNLP", "NiuTrans"])
    docs, ids = inputs.context.docs, inputs.context.segment_ids
    lines = ["system\tdoc\tseg_id\tCOMET"]
    for k, system in enumerate(("TartuNLP", "NiuTrans")):
        lines += [f"{system}\t{d}\t{s}\t{(i % 7) / 10 + k}" for i, (d, s) in enumerate(zip(docs, ids))]
    scores = write(tmp_path / "comet.tsv", "\n".join(reversed(lines[1:])).join([lines[0] + "\n", "\n"]))
    code, out, err = cli(capsys, path, "--systems", "TartuNLP", "NiuTrans", "--scores", scores, "-m", "COMET",
                         "-f", "json")
    assert code == 0, err
    rows = {r["system"]: r for r in json.loads(out)}
    expected = np.mean([(i % 7) / 10 for i in range(len(ids))])
    assert rows["TartuNLP"]["score"] == pytest.approx(expected) and rows["NiuTrans"]["score"] == pytest.approx(expected + 1)


def test_a_slice_is_scored_on_its_own_segments(capsys):
    rated, scores = mqm_files()
    expected = oracle_scores(scores, rated)
    docs = [line.split("\t")[1] for line in rated.read_text(encoding="utf-8").splitlines()[1:]]
    segs = [line.split("\t")[3] for line in rated.read_text(encoding="utf-8").splitlines()[1:]]
    first_doc = dict(zip(segs, docs))
    order = list(dict.fromkeys(segs))
    keep = [i for i, s in enumerate(order) if first_doc[s] == "talk.1"]
    code, out, err = cli(capsys, rated, "--refs", "ref", "--scores", scores, "--systems", "Nemo", "UEdin",
                         "-m", "mqm_avg_score", "--where", "doc=talk.1", "-f", "json")
    assert code == 0, err
    rows = {r["system"]: r for r in json.loads(out)}
    for system in ("Nemo", "UEdin"):
        assert rows[system]["score"] == pytest.approx(np.nanmean(expected[system][keep]), abs=1e-12)


def test_the_window_imports_scores_and_keeps_them_through_a_change_of_settings(qtbot, window, tmp_path):
    from bleu_gui.core.analysis.orders import score_bands
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.core.metrics.imported.config import ImportedConfig
    from bleu_gui.core.output.sessions import load_session, save_session
    from bleu_gui.gui.state import OpenChoice

    rated, scores = mqm_files()
    request = InputRequest(systems=(), references=(str(rated),), refs_wanted=("ref",), systems_wanted=("Nemo", "UEdin"))
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_inputs(OpenChoice(request))
    with qtbot.waitSignal(window.run_changed):
        window.import_scores([str(scores)])
    run = window.controller.run
    assert [m.name for m in run.metrics] == ["BLEU", "mqm_avg_score"]
    expected = oracle_scores(scores, rated)
    assert run.systems[1].results[1].corpus.score == pytest.approx(np.nanmean(expected["UEdin"]), abs=1e-12)
    scale = window.controller.shown.orders[1][0].scale
    assert scale == (-25.0, 0.0)  # the histogram and the score filter span the scores' own range
    window.controller.set_metric(1)
    assert (window.inspect.sentences.score_low.minimum(), window.inspect.sentences.score_high.maximum()) == scale
    assert score_bands(np.array([-25.0, -12.5, -0.1, 0.0]), scale).tolist() == [1, 0, 0, 0, 0, 1, 0, 0, 0, 2]
    with qtbot.waitSignal(window.run_changed):
        # a change of settings scores again: the scores stay
        window.settings_panel.group("bleu").widget("lowercase").setChecked(True)
    run = window.controller.run
    assert run.bleu.config.lowercase and any(isinstance(m, ImportedConfig) for m in run.config.metrics)
    assert [m.name for m in run.metrics] == ["BLEU", "mqm_avg_score"]
    saved = load_session(save_session(tmp_path / "s.json", window.current_session()))
    assert saved.scores == [str(scores.absolute())] and saved.opening().scores == (str(scores.absolute()),)
    assert not any(isinstance(m, ImportedConfig) for m in saved.metrics)


def test_a_bad_scores_file_in_the_window_names_the_field(qtbot, window, plain):
    folder, ref, a, b = plain
    scores = write(folder / "s.tsv", "system\tsegment\tX\na\t1\t1\n")
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files([a, b], [ref])
    with qtbot.waitSignal(window.error_shown) as shown:
        window.import_scores([str(scores)])
    assert "has no row" in shown.args[0] and "Partial scores (File ▸ Open)" in shown.args[0]
    assert [m.name for m in window.controller.run.metrics] == ["BLEU"]  # the run shown stays


def test_explain_says_an_imported_score_is_read_from_its_file(capsys):
    rated, scores = mqm_files()
    expected = oracle_scores(scores, rated)
    code, out, err = cli(capsys, rated, "--refs", "ref", "--scores", scores, "--systems", "Nemo", "--explain", "3",
                         "-m", "mqm_avg_score", "-f", "json")
    assert code == 0, err
    obj = json.loads(out)[0]
    account = obj["mqm_avg_score"]
    assert (account["value"], account["source"]) == (expected["Nemo"][2], "mqm_ted_ende.avg_seg_scores.tsv")
    code, out, err = cli(capsys, rated, "--refs", "ref", "--scores", scores, "--systems", "Nemo", "--explain", "3")
    assert code == 0 and "read from mqm_ted_ende.avg_seg_scores.tsv" in out and "Traceback" not in err


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_CELLS = st.sampled_from(["system", "segment", "seg_id", "doc", "X", "a", "b", "1", "2", "3", "None", "nan", "",
                          "-1.5", "1e999", "x y", '"q"', "\t", " "])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(_CELLS, min_size=1, max_size=5).map("\t".join), min_size=1, max_size=6),
       st.sampled_from([".tsv", ".csv", ".jsonl"]))
def test_any_scores_file_reads_or_says_what_is_wrong(plain, rows, suffix):
    """A scores file is read or refused with its name; never another exception, never a wrong number."""
    from bleu_gui.core.errors import InputError
    from bleu_gui.core.inputs.corpus import Context
    from bleu_gui.core.inputs.score_files import attach_scores
    from bleu_gui.core.inputs.text_files import read_segments

    folder, ref, a, b = plain
    path = write(folder / f"fuzz{suffix}", "\n".join(rows) + "\n")
    systems = [read_segments(a), read_segments(b)]
    try:
        attached, columns, _notes = attach_scores([path], systems, ["a.txt", "b.txt"], Context())
    except InputError as exc:
        assert str(path.name) in str(exc) or "--scores" in str(exc) or "fuzz" in str(exc)
        return
    for column in columns:
        for f in attached:
            values = f.scores[column.name]
            assert len(values) == 3 and all(math.isnan(v) or math.isfinite(v) for v in values)
