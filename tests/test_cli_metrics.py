"""``bleu-score -m bleu chrf ter``: every metric's numbers, paired tests and intervals against sacreBLEU's own
classes and command; flags of a metric not asked for are refused."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

from bleu_gui.cli.bleu_score import run as cli_run
from bleu_gui.core import RunConfig, SegmentFile, Significance, score_run
from bleu_gui.core.metrics.chrf.chrf import ChrfConfig
from bleu_gui.core.metrics.ter.ter import TerConfig

from .conftest import data_set
from .test_chrf_ter import shifty

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "bleu_gui" / "demo_data" / "en"


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def cli(capsys, *args) -> tuple[int, str, str]:
    code = cli_run([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def theirs_metrics(refs, chrf=ChrfConfig(), ter=TerConfig()) -> dict:
    return {"chrF2" + "+" * chrf.word_order: CHRF(word_order=chrf.word_order, references=refs),
            "TER": TER(references=refs)}


def _write(tmp_path: Path, name: str, text: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in text), encoding="utf-8")
    return path


@pytest.fixture
def three_refs(tmp_path):
    """The first 50 lines of a WMT21 set with three references and three systems (TER's mean reference lengths
    are fractions there, so its statistics are not whole numbers)."""
    folder = data_set("wmt21-en-de-3ref")
    refs = [lines(folder / f"ref{k}.txt")[:50] for k in (1, 2, 3)]
    systems = [lines(folder / f"sys{k}.txt")[:50] for k in (1, 2, 3)]
    ref_paths = [_write(tmp_path, f"ref{k}.txt", r) for k, r in enumerate(refs, 1)]
    sys_paths = [_write(tmp_path, f"sys{k}.txt", s) for k, s in enumerate(systems, 1)]
    return refs, systems, ref_paths, sys_paths


@pytest.mark.parametrize("test_type,n", [("bs", 1000), ("ar", 10000)])
def test_paired_tests_per_metric_equal_sacrebleus(capsys, three_refs, test_type, n):
    refs, systems, ref_paths, sys_paths = three_refs
    code, out, err = cli(capsys, *ref_paths, "-i", *sys_paths, "-m", "chrf", "ter", f"--paired-{test_type}", "-f",
                         "json")
    assert code == 0, err
    ours = json.loads(out)
    named = [(f"s{k}", s) for k, s in enumerate(systems)]
    _, theirs = PairedTest(named, theirs_metrics(refs), references=None, test_type=test_type, n_samples=n)()
    assert [(o["system"], o["metric"]) for o in ours] == [(p.name, m) for p in sys_paths for m in ("chrF2", "TER")]
    for k, metric in ((0, "chrF2"), (1, "TER")):
        for o, t in zip(ours[k::2], theirs[metric]):
            assert o["score"] == pytest.approx(t.score, abs=1e-9) and o["p_value"] == t.p_value
            if t.mean is not None:
                assert o["mean"] == pytest.approx(t.mean, abs=1e-9) and o["ci"] == pytest.approx(t.ci, abs=1e-9)
            assert f"{test_type}:{n}|seed:12345" in o["signature"]


def test_paired_bootstrap_text_table_has_a_column_per_metric(capsys):
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", DEMO / "system-b.txt",
                       "-m", "bleu", "chrf", "ter", "--paired-bs", "-w", "1")
    assert code == 0
    header = next(line for line in out.splitlines() if "System" in line)
    assert "BLEU (μ ± 95% CI)" in header and "chrF2 (μ ± 95% CI)" in header and "TER (μ ± 95% CI)" in header
    # sacreBLEU's own table (the same command) holds the same cells.
    theirs = subprocess.run([sys.executable, "-m", "sacrebleu", str(DEMO / "ref1.txt"), "-i", str(DEMO / "system-a.txt"),
                             str(DEMO / "system-b.txt"), "-m", "bleu", "chrf", "ter", "--paired-bs", "-w", "1", "-f",
                             "text"], capture_output=True, text=True, check=True).stdout
    for cell in ("66.0 (65.3 ± 16.2)", "82.1 (81.9 ± 8.2)", "19.0 (19.2 ± 8.7)"):
        assert cell in out and cell in theirs
    assert "nrefs:1|bs:1000|seed:12345|case:lc|tok:tercom" in out


def test_single_system_text_is_sacrebleus(capsys):
    """Several metrics of one system: sacreBLEU's lines, aligned on '=' as it aligns them."""
    args = [str(DEMO / "ref1.txt"), str(DEMO / "ref2.txt"), "-i", str(DEMO / "system-a.txt"), "-m", "bleu", "chrf",
            "ter", "-w", "1"]
    code, out, _ = cli(capsys, *args)
    theirs = subprocess.run([sys.executable, "-m", "sacrebleu", *args, "-f", "text"], capture_output=True, text=True,
                            check=True).stdout
    assert code == 0 and out == theirs


def test_confidence_per_metric(capsys):
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-b.txt", "-m", "chrf", "ter", "--confidence",
                       "-f", "json")
    ours = json.loads(out)
    hyps, refs = lines(DEMO / "system-b.txt"), [lines(DEMO / "ref1.txt")]
    for o, metric in zip(ours, (CHRF(), TER())):
        t = metric.corpus_score(hyps, refs, n_bootstrap=1000)
        assert o["score"] == pytest.approx(t.score, abs=1e-9)
        assert o["mean"] == pytest.approx(t._mean, abs=1e-9) and o["ci"] == pytest.approx(t._ci, abs=1e-9)


def test_sentence_level_json_per_metric(capsys):
    hyps, refs = lines(DEMO / "system-a.txt"), [lines(DEMO / "ref1.txt")]
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", "-m", "ter", "chrf", "--chrf-word-order",
                       "2", "-sl", "-f", "json")
    ter, chrf = json.loads(out)
    assert (ter["metric"], chrf["metric"]) == ("TER", "chrF2++")
    for k, hyp in enumerate(hyps):
        assert ter["sentences"][k]["score"] == pytest.approx(TER().sentence_score(hyp, [refs[0][k]]).score, abs=1e-9)
        expected = CHRF(word_order=2).sentence_score(hyp, [refs[0][k]]).score
        assert chrf["sentences"][k]["score"] == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("args,message", [
    (["-m", "chrf", "-lc"], "-lc/--lowercase: a BLEU setting, and BLEU is not among the metrics"),
    (["--chrf-word-order", "2"], "--chrf-word-order: a chrF setting, and chrF is not among the metrics"),
    (["-m", "bleu", "--ter-normalized", "--ter-no-punct"], "--ter-no-punct, --ter-normalized: TER settings"),
    (["-m", "chrf", "chrf"], "each metric once"),
    (["-m", "chrf", "-f", "multi-bleu"], "--format multi-bleu is Moses' BLEU line"),
    (["-m", "ter", "--tokenizer-table"], "--tokenizer-table compares BLEU scores"),
    (["-m", "chrf", "--chrf-char-order", "30"], "chrF orders must be 0..20"),
])
def test_a_flag_that_would_be_ignored_is_refused(capsys, args, message):
    code, out, err = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", *args)
    assert code == 2 and message in err and not out and "Traceback" not in err


def test_explain_json_gives_each_metrics_evidence(capsys):
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-b.txt", "-m", "bleu", "chrf", "ter",
                       "--explain", "1", "-f", "json")
    (obj,) = json.loads(out)
    assert obj["headline"].startswith("Sentence BLEU")
    assert set(obj["ter"]) >= {"edits", "ref_length", "shifts", "alignment"}
    assert {"n", "hyp_total", "ref_total", "matched"} == set(obj["chrf"]["char_orders"][0])
    hyp, ref = lines(DEMO / "system-b.txt")[0], lines(DEMO / "ref1.txt")[0]
    assert obj["ter"]["edits"] == TER().sentence_score(hyp, [ref]).num_edits
    stats = CHRF()._extract_corpus_statistics([hyp], [[ref]])[0]
    assert [x for o in obj["chrf"]["char_orders"] for x in (o["hyp_total"], o["ref_total"], o["matched"])] == stats


@st.composite
def small_run(draw):
    n = draw(st.integers(1, 8))
    systems = [[draw(shifty(12)) for _ in range(n)] for _ in range(draw(st.integers(2, 3)))]
    refs = [[draw(shifty(12)) for _ in range(n)] for _ in range(draw(st.integers(1, 3)))]
    return systems, refs


def _files(texts, stem):
    return [SegmentFile(Path(f"{stem}{i}.txt"), t, "utf-8") for i, t in enumerate(texts)]


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(small_run())
def test_paired_tests_on_random_corpora(data):
    """The run's paired tests for chrF and TER equal sacreBLEU's PairedTest, fractional TER lengths included."""
    systems, refs = data
    config = RunConfig((ChrfConfig(), TerConfig()), significance=Significance(100, 256, 12345))
    run = score_run(_files(systems, "sys"), _files(refs, "ref"), config)
    named = [(s.name, hyps) for s, hyps in zip(run.systems, systems)]
    for kind, n in (("bs", 100), ("ar", 256)):
        _, theirs = PairedTest(named, theirs_metrics(refs), references=None, test_type=kind, n_samples=n)()
        for k, metric in ((0, "chrF2"), (1, "TER")):
            tested = run.comparison.by_metric[k]
            ours = tested.bootstrap if kind == "bs" else tested.approximate
            for o, t in zip(ours, theirs[metric]):
                assert math.isclose(o.score, t.score, rel_tol=1e-12, abs_tol=1e-12)
                assert o.p_value == t.p_value


def test_bleu_alone_by_default_and_the_order_kept(capsys):
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", "-f", "json")
    assert json.loads(out)["metric"] == "BLEU"
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", "-m", "ter", "bleu", "-f", "json")
    ter, bleu = json.loads(out)
    assert (ter["metric"], bleu["metric"]) == ("TER", "BLEU")
    assert bleu["score"] == pytest.approx(BLEU().corpus_score(lines(DEMO / "system-a.txt"),
                                                              [lines(DEMO / "ref1.txt")]).score, abs=1e-9)
