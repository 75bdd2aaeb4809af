"""Trust at the seams (issue 45): no claim from missing data, JSON that is JSON, sacreBLEU's own reading of lines
and its bits, compare-mt's words, and the small defects found by a search for breakage. Each test failed before
its fix."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest
from sacrebleu.metrics import BLEU
from sacrebleu.significance import _compute_p_value

from bleu_gui.core.analysis.pair_matrix import pair_matrix
from bleu_gui.core.metrics.imported.config import ImportedConfig
from bleu_gui.core.metrics.registry import bind

from .conftest import cli, data_set


def strict(text):
    """JSON parsed by a strict parser: NaN and Infinity are refused."""
    def refuse(word):
        raise ValueError(f"not JSON: {word}")

    return json.loads(text, parse_constant=refuse)


@pytest.fixture
def gappy(tmp_path):
    """Three systems over three segments; a.txt's scores are mostly missing, c.txt has no row in the file."""
    (tmp_path / "ref.txt").write_text("the cat sat\na dog ran\nhello world\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("the cat sat\na dog ran fast\nhello there world\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("the cat sit\na dog ran\nhello world\n", encoding="utf-8")
    (tmp_path / "c.txt").write_text("the cat\na dog\nhello world\n", encoding="utf-8")
    (tmp_path / "s.tsv").write_text("system\tsegment\tcomet\na.txt\t1\t0.5\na.txt\t2\tNone\na.txt\t3\tNone\n"
                                    "b.txt\t1\t0.5\nb.txt\t2\t0.5\nb.txt\t3\t0.5\n", encoding="utf-8")
    return tmp_path


def gappy_args(folder, *extra):
    return [folder / "ref.txt", "-i", folder / "a.txt", folder / "b.txt", folder / "c.txt", "--scores",
            folder / "s.tsv", "--scores-partial", "-m", "comet", *extra]


# -- 1, 2: no claim from missing data -----------------------------------------------------------------------------

def test_a_system_with_no_scores_has_no_p_value_interval_or_rank(capsys, gappy):
    code, out, err = cli(capsys, *gappy_args(gappy, "--paired-bs"))
    assert code == 0, err
    assert "nan" not in out and "0.0010*" not in out
    assert " - c.txt: no scores: no interval, no p-value, no rank." in out
    code, out, err = cli(capsys, *gappy_args(gappy, "--paired-bs", "-f", "json"))
    rows = {r["system"]: r for r in strict(out)}
    assert rows["c.txt"]["score"] is None and rows["c.txt"]["p_value"] is None and rows["c.txt"]["mean"] is None
    assert rows["c.txt"]["why_no_p_value"] == "c.txt has no scores"
    code, out, err = cli(capsys, *gappy_args(gappy, "--all-pairs"))
    assert "c.txt  no scores" in out and "c.txt: no scores, so no rank and no p-value" in out
    code, out, err = cli(capsys, *gappy_args(gappy, "--all-pairs", "-f", "json"))
    table = strict(out)
    assert table["ranks"]["c.txt"] is None and table["unranked"] == {"c.txt": "no scores"}
    assert all(p["p_bs"] is None and p["p_ar"] is None for p in table["pairs"] if "c.txt" in (p["a"], p["b"]))


def test_the_same_scores_on_every_scored_segment_are_no_difference(capsys, gappy):
    """a.txt: 0.5, missing, missing; b.txt: 0.5, 0.5, 0.5 — they agree on the one segment both have."""
    code, out, err = cli(capsys, *gappy_args(gappy, "--paired-ar", "-f", "json"))
    rows = {r["system"]: r for r in strict(out)}
    b = rows["b.txt"]
    assert b["tested_on"] == 1  # the one segment both scored
    code, out, err = cli(capsys, *gappy_args(gappy, "--paired-ar"))
    assert "*" not in out.split("Paired approximate")[0]  # no star: the scores are the same
    assert "b.txt: tested on the 1 segments both it and the baseline scored" in out
    code, out, err = cli(capsys, *gappy_args(gappy, "--paired-bs"))
    assert "b.txt: no p-value: " in out and "bootstrap resamples drew none of the 1 segments both scored" in out


def _oracle_bs(a, b, n=1000, seed=12345):
    """sacreBLEU's _paired_bs_test with the mean over the segments both systems scored as the metric, the
    resamples drawn over every segment (as every pair's are)."""
    idx = np.random.default_rng(seed).choice(len(a), size=(n, len(a)), replace=True)

    def mean(rows):
        return rows[..., 0] / rows[..., 1]

    bl = np.array([mean(a[i].sum(0)) for i in idx])
    sy = np.array([mean(b[i].sum(0)) for i in idx])
    diffs = np.abs(sy - bl)
    return _compute_p_value(diffs - diffs.mean(), abs(mean(a.sum(0)) - mean(b.sum(0))))


def _oracle_ar(a, b, n=10000, seed=12345):
    pos = np.random.default_rng(seed).integers(2, size=(n, len(a)), dtype=bool)
    x, y = pos @ a + ~pos @ b, ~pos @ a + pos @ b
    real = abs(a[:, 0].sum() / a[:, 1].sum() - b[:, 0].sum() / b[:, 1].sum())
    return _compute_p_value(np.abs(x[:, 0] / x[:, 1] - y[:, 0] / y[:, 1]), real)


def test_each_pair_is_tested_on_the_segments_both_systems_scored():
    rng = np.random.default_rng(3)
    length = 400
    values = [rng.normal(0.6 + 0.02 * k, 0.2, length) for k in range(3)]
    for v in values:
        v[rng.random(length) < 0.25] = np.nan  # each system misses other segments
    stats = [np.stack([np.nan_to_num(v), ~np.isnan(v)], axis=1).astype(float) for v in values]
    metric = bind(ImportedConfig("comet"), [["x"] * length])
    matrix = pair_matrix(stats, metric, ["a", "b", "c"], 1000, 10000)
    for i, j in ((0, 1), (0, 2), (1, 2)):
        both = ~np.isnan(values[i]) & ~np.isnan(values[j])
        a, b = (np.where(both[:, None], s, 0.0) for s in (stats[i], stats[j]))
        assert matrix.tested_on(i, j) == int(both.sum())
        assert matrix.p_bs[i, j] == pytest.approx(_oracle_bs(a, b), abs=1e-12)
        assert matrix.p_ar[i, j] == pytest.approx(_oracle_ar(a, b), abs=1e-12)


# -- 3: JSON is JSON ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("extra", [
    [], ["-sl"], ["--confidence"], ["--paired-bs"], ["--paired-ar"], ["--all-pairs"], ["--explain", "2"],
    ["--disagree", "bleu", "comet"], ["--word-accuracy"], ["--qa"], ["--tokenizer-table"],
])
def test_every_json_the_command_writes_parses_strictly(capsys, gappy, extra):
    argv = [gappy / "ref.txt", "-i", gappy / "a.txt", gappy / "b.txt", gappy / "c.txt", "--scores", gappy / "s.tsv",
            "--scores-partial", "--src", gappy / "ref.txt", "-f", "json", *extra]
    if "--qa" in extra or "--tokenizer-table" in extra:
        argv += ["-m", "bleu"]
    elif "-sl" in extra or not extra:
        argv += ["-m", "bleu", "comet", "--variant", "nltk", "--nltk-smoothing", "6"]  # NLTK's undefined sentences
    else:
        argv += ["-m", "bleu", "comet"]
    code, out, err = cli(capsys, *argv)
    assert code == 0, err
    strict(out)


def test_the_sentence_export_is_strict_json(capsys, gappy):
    target = gappy / "sentences.json"
    code, _out, err = cli(capsys, *gappy_args(gappy, "--export-sentences", target))
    assert code == 0, err
    strict(target.read_text(encoding="utf-8"))


# -- 4: slices and missing values --------------------------------------------------------------------------------

def test_a_comparison_with_a_missing_score_is_false_negated_or_not(capsys, gappy):
    def rows(where):
        code, out, err = cli(capsys, *gappy_args(gappy, "--where", where, "-m", "comet", "bleu", "-f", "json"))
        assert code == 0, err
        assert "nan" not in err
        return next(line for line in err.splitlines() if "note: slice:" in line)

    assert "(1 of 3 segments)" in rows("comet[a.txt] != 0.7")       # only segment 1: 2 and 3 are missing
    assert "(1 of 3 segments)" in rows("not comet[a.txt] > 0.7")
    assert "(2 of 3 segments)" in rows("comet[a.txt] is missing")
    assert "(1 of 3 segments)" in rows("comet[a.txt] is not missing")


def test_a_deeply_nested_expression_is_one_error_not_a_traceback(capsys, gappy):
    for text in ["not " * 5000 + "ref_words > 1", "(" * 3000 + "ref_words > 1" + ")" * 3000]:
        code, out, err = cli(capsys, gappy / "ref.txt", "-i", gappy / "a.txt", "--where", text)
        assert code == 2 and out == ""
        assert err.startswith("bleu-score: error: --where of ") and "at most 100 nested" in err
        assert "Traceback" not in err and len(err) < 400


# -- 5, 6, 7: equal to sacreBLEU and compare-mt, to the bit and as they read files -------------------------------

SACREBLEU_FLAGS = [
    ["-m", "bleu"], ["-m", "bleu", "-lc", "-tok", "intl"], ["-m", "chrf"], ["-m", "chrf", "--chrf-whitespace"],
    ["-m", "chrf", "--chrf-word-order", "2", "--chrf-lowercase"], ["-m", "ter"], ["-m", "ter", "--ter-normalized"],
    ["-m", "ter", "--ter-case-sensitive", "--ter-no-punct"],
]


@pytest.mark.parametrize("flags", SACREBLEU_FLAGS)
def test_lines_with_leading_and_trailing_whitespace_score_as_the_sacrebleu_command_scores_them(capsys, tmp_path,
                                                                                                flags):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("the cat\na dog ran \nx y z\n\u3000Hello, world!\t\n", encoding="utf-8")
    hyp.write_text("the cat \n\u3000a dog ran\u00a0\n  x y\t\n Hello world ! \n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "sacrebleu", str(ref), "-i", str(hyp), *flags, "-w", "16", "-f",
                           "json"], capture_output=True, text=True, check=True)
    theirs = json.loads(done.stdout)
    code, out, err = cli(capsys, ref, "-i", hyp, *flags, "-f", "json")
    assert code == 0, err
    ours = json.loads(out)
    assert round(ours["score"], 16) == theirs["score"], (flags, ours["score"], theirs["score"])
    assert "trailing whitespace removed from 4 line(s), the first line 1, as the sacrebleu command reads lines" in err


@pytest.mark.slow
def test_bleu_json_scores_are_sacrebleus_bit_for_bit(capsys):
    folder = data_set("wmt22-en-ja")
    refs = [(folder / "ref1.txt").read_text(encoding="utf-8").splitlines()]
    for k in (1, 2, 3):
        path = folder / f"sys{k}.txt"
        code, out, err = cli(capsys, folder / "ref1.txt", "-i", path, "-f", "json", "-sl")
        assert code == 0, err
        ours = strict(out)
        hyps = path.read_text(encoding="utf-8").splitlines()
        assert ours["score"] == BLEU().corpus_score(hyps, refs).score
        sentence = BLEU(effective_order=True)
        assert [s["score"] for s in ours["sentences"]] == [sentence.sentence_score(h, [refs[0][i]]).score
                                                             for i, h in enumerate(hyps)]


@pytest.mark.slow
def test_word_accuracy_on_whitespace_tokens_is_compare_mts_reading_of_the_files(capsys):
    from compare_mt.bucketers import FreqWordBucketer
    from compare_mt.corpus_utils import load_tokens

    folder = data_set("wmt22-en-ja")  # U+3000 and double spaces in the reference
    ref = load_tokens(str(folder / "ref1.txt"))
    outs = [load_tokens(str(folder / f"sys{k}.txt")) for k in (1, 2)]
    bucketer = FreqWordBucketer(freq_data=ref)
    expected, *_ = bucketer.calc_statistics(ref, outs)
    capsys.readouterr()  # compare-mt says what it reads on standard output
    code, out, err = cli(capsys, folder / "ref1.txt", "-i", folder / "sys1.txt", folder / "sys2.txt",
                         "--word-accuracy", "-tok", "none", "-f", "json")
    assert code == 0, err
    systems = strict(out)["word_accuracy"]["systems"]
    for s, rows in enumerate(expected):
        assert [(systems[s]["matched"][b], systems[s]["ref"][b], systems[s]["out"][b])
                for b in range(len(rows))] == [tuple(r[:3]) for r in rows]


# -- 14-18: defects found ------------------------------------------------------------------------------------------

def bleu_gui(*argv):
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    code = "import sys; from bleu_gui.gui.shell.app import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *map(str, argv)], capture_output=True, text=True, env=env,
                          timeout=300)


def test_the_window_takes_a_scores_column_in_m_as_the_command_does(tmp_path, gappy):
    out = tmp_path / "shot.png"
    done = bleu_gui(gappy / "a.txt", gappy / "b.txt", "-r", gappy / "ref.txt", "--scores", gappy / "s.tsv", "-m",
                    "bleu", "comet", "--screenshot", out)
    assert done.returncode == 0, done.stderr
    facts = strict(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert sorted({s["metric"] for s in facts["systems"]}) == ["BLEU", "comet"]
    done = bleu_gui(gappy / "a.txt", gappy / "b.txt", "-r", gappy / "ref.txt", "--scores", gappy / "s.tsv", "-m",
                    "bleu", "cmt", "--screenshot", out)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == ("bleu-gui: error: -m/--metrics: unknown metric cmt; choose bleu, "
                                                    "chrf, ter, edit, mqm, comet, llm, or a column of --scores: comet")


@pytest.mark.parametrize("size", ["99999x99999", "8193x600", "50x50"])
def test_a_size_that_cannot_be_painted_is_refused_in_one_line(tmp_path, size):
    done = bleu_gui("--demo", "--size", size, "--screenshot", tmp_path / "x.png")
    assert done.returncode == 2 and not (tmp_path / "x.png").exists()
    assert len(done.stderr.strip().splitlines()) == 1
    assert "each side must be 100 to 8192 pixels" in done.stderr


@pytest.mark.parametrize(("text", "said"), [
    ("system\tsegment\tcomet\tcomet\na.txt\t1\t0.5\t9\n", "columns 3 and 4 are both named 'comet'"),
    ("system\tsegment\tcomet\na.txt\t1\t0.5\na.txt\t2\tinf\na.txt\t3\t0.1\n", "line 3: 'inf' in the column 'comet'"),
    ("system\tsegment\tcomet\na.txt\t1\tabc\na.txt\t2\t0.2\na.txt\t3\t0.1\n", "line 2: 'abc' in the column 'comet'"),
    ("system\tsegment\tcomet\na.txt\t1\t0.5\na.txt\t2\t1_000\na.txt\t3\t0.1\n", "line 3: '1_000' in the column"),
    ("system\tsegment\tcomet\na.txt\t01\t0.5\na.txt\t1.0\t0.7\na.txt\t3\t0.1\n",
     "rows name segments the run does not have, such as '01' (line 2), '1.0' (line 3): the keys did not match"),
])
def test_a_scores_file_that_would_give_a_wrong_number_is_refused(capsys, gappy, text, said):
    (gappy / "bad.tsv").write_text(text, encoding="utf-8")
    code, out, err = cli(capsys, gappy / "ref.txt", "-i", gappy / "a.txt", "--scores", gappy / "bad.tsv")
    assert code == 2 and out == "" and said in err and len(err.strip().splitlines()) == 1


def test_a_json_scores_file_with_a_key_twice_is_refused(capsys, gappy):
    (gappy / "twice.jsonl").write_text('{"system": "a.txt", "segment": 1, "comet": 0.5, "comet": 9}\n',
                                       encoding="utf-8")
    code, out, err = cli(capsys, gappy / "ref.txt", "-i", gappy / "a.txt", "--scores", gappy / "twice.jsonl")
    assert code == 2 and "the key 'comet' appears twice" in err


def test_sentences_to_a_character_device(capsys, gappy):
    code, out, err = cli(capsys, gappy / "ref.txt", "-i", gappy / "a.txt", "--export-sentences", os.devnull)
    assert code == 0, err


def test_the_leave_one_out_column_never_shows_minus_zero():
    from bleu_gui.core.output.score_text import delta_text

    assert delta_text(-0.00001, 4) == "0.0000" and delta_text(-0.0, 2) == "0.00"
    assert delta_text(0.004, 2) == "0.00" and delta_text(-0.006, 2) == "-0.01" and delta_text(1.2) == "+1.20"


@pytest.mark.parametrize("command", ["bleu_gui.cli.bleu_score", "bleu_gui.gui.shell.app"])
def test_both_commands_say_their_version(command):
    code = f"import sys; from {command} import main; sys.exit(main() if '{command}'.endswith('score') else " \
           f"main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, "--version"], capture_output=True, text=True, timeout=60)
    prog = "bleu-score" if command.endswith("score") else "bleu-gui"
    from importlib.metadata import version

    from bleu_gui import __version__

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{prog} {__version__} (sacreBLEU {version('sacrebleu')})"


def test_the_repository_tracks_no_stray_file():
    from .conftest import ROOT

    assert not (ROOT / "1").exists()


def test_math_of_the_interval_of_a_system_that_has_scores():
    """The confidence interval of a system with every score is sacreBLEU's (unchanged by the gaps' handling)."""
    from bleu_gui.core.analysis.significance import confidence

    metric = bind(ImportedConfig("comet"), [["x"] * 50])
    values = np.linspace(0.1, 0.9, 50)
    interval = confidence(np.stack([values, np.ones(50)], axis=1), metric, n=200)
    assert interval.why_none is None and math.isclose(interval.mean, float(values.mean()), abs_tol=0.05)
