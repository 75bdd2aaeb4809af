"""COMET handed to a cluster without Ray: ``--comet-batch-out`` writes shards that unbabel-comet's own ``comet-score``
scores (run here as the Slurm script's tasks would run, in the worker's environment), ``--comet-batch-in`` reads its
``--to_json`` outputs back by shard and position into the cache, and the run then scores nothing. The imported
numbers are comet-score's own, exactly (in half precision, as comet-score always scores: a worker's fp16 batches of
other items round apart from its batches, by tens of fp16 steps on this random model, so the two are not compared);
each broken shard is said in one line and the others are imported."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests import comet_setup
from tests.comet_setup import requests_sent, write_en_ja
from tests.conftest import bytecode_written, cli

pytestmark = pytest.mark.xdist_group("comet")
en_ja = comet_setup.en_ja
fresh_user_cache = comet_setup.fresh_user_cache
SHARD = 12  # items a shard: two shards of the 24 segments


def args(tmp_path, model, python, cache, *more):
    return [tmp_path / "ref1.txt", "-i", tmp_path / "sys1.txt", "--src", tmp_path / "src.txt", "-m", "comet",
            "--comet-model", model, "--comet-python", python, "--comet-cache", cache, "--comet-precision", "fp16",
            *more]


@pytest.fixture(scope="module")
def scored_elsewhere(tiny_comet, comet_python, tmp_path_factory):
    """The batch written for sys1 of WMT22 en-ja (24 segments) and each of its shards scored by comet-score, as the
    Slurm script's tasks run it."""
    tmp = tmp_path_factory.mktemp("comet-batch")
    write_en_ja(comet_setup.en_ja_lines(), tmp)
    from bleu_gui.cli.bleu_score import run

    batch = tmp / "batch"
    assert run([str(a) for a in args(tmp, tiny_comet["regression"], comet_python, tmp / "export.sqlite",
                                     "--comet-batch-out", batch, "--comet-batch-shard", str(SHARD))]) == 0
    env = dict(bytecode_written(), PATH=f"{Path(comet_python).parent}{os.pathsep}{os.environ['PATH']}", COMET_GPUS="0")
    for task in (1, 2):
        done = subprocess.run(["bash", str(batch / "run_array.sh")], env=dict(env, SLURM_ARRAY_TASK_ID=str(task)),
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-3000:]
    return tmp, batch


def test_comet_scores_own_outputs_are_imported_by_position_and_the_run_scores_nothing(
        scored_elsewhere, tiny_comet, comet_python, capsys, monkeypatch):
    tmp, batch = scored_elsewhere
    manifest = json.loads((batch / "manifest.json").read_text())
    assert manifest["items"] == 24 and [s["items"] for s in manifest["shards"]] == [SHARD, SHARD]
    assert manifest["precision"] == "fp16" and manifest["comet"] == "2.2.7"
    script = (batch / "run_array.sh").read_text()
    assert "#SBATCH --array=1-2" in script and "comet-score" in script and "--disable_cache" in script
    sent = requests_sent(monkeypatch)
    code, out, err = cli(capsys, *args(tmp, tiny_comet["regression"], comet_python, tmp / "export.sqlite",
                                       "--comet-batch-in", batch, "-sl", "-f", "json"))
    assert code == 0, err
    assert "COMET batch: 24 scores imported from 2 of 2 shards" in err
    assert [op for op, _ in sent if op == "score"] == []  # every score read from the cache: nothing scored here
    found = json.loads(out)
    assert "|fp16|refs:1|batch:16|via:comet-score" in found["signature"]
    theirs = [e["COMET"] for s in (1, 2) for e in next(iter(json.loads(
        (batch / f"shard-{s:05d}" / "out.json").read_text()).values()))]
    lines = comet_setup.en_ja_lines()
    assert [s["score"] for s in found["sentences"]] == theirs  # comet-score's own numbers, in the run's order
    assert lines["sys1"][0] in (batch / "shard-00001" / "mt.txt").read_text()


def _copy(batch: Path, to: Path) -> Path:
    import shutil

    shutil.copytree(batch, to)
    return to


@pytest.mark.parametrize("break_it, said", [
    (lambda b: (b / "shard-00002" / "mt.txt").write_text("edited\n" * SHARD, encoding="utf-8"),
     "shard-00002/mt.txt was changed after the export (its sha256 differs)"),
    (lambda b: (b / "shard-00002" / "out.json").write_text((b / "shard-00002" / "out.json").read_text()[:-200],
                                                          encoding="utf-8"),
     "shard-00002/out.json: line"),
    (lambda b: (b / "shard-00002" / "out.json").write_text(
        (b / "shard-00002" / "out.json").read_text().replace('"mt": "', '"mt": "x', 1), encoding="utf-8"),
     "shard-00002/out.json: entry 1 carries other texts than line 1 of the shard"),
    (lambda b: (b / "shard-00002" / "versions.json").write_text(
        (b / "shard-00002" / "versions.json").read_text().replace('"2.2.7"', '"2.3.0"'), encoding="utf-8"),
     "shard-00002: scored by unbabel-comet 2.3.0, the run's worker has 2.2.7"),
    (lambda b: (b / "shard-00002" / "out.json").unlink(), "shard-00002: no out.json (the task has not run"),
])
def test_a_broken_shard_is_one_line_and_the_others_are_imported(break_it, said, scored_elsewhere, tiny_comet,
                                                                 comet_python, capsys, tmp_path):
    tmp, batch = scored_elsewhere
    copied = _copy(batch, tmp_path / "batch")
    break_it(copied)
    code, _, err = cli(capsys, *args(tmp, tiny_comet["regression"], comet_python, tmp_path / "c.sqlite",
                                     "--comet-batch-in", copied, "--comet-batch-out", tmp_path / "rest"))
    assert code == 0, err
    assert f"COMET batch: {SHARD} scores imported from 1 of 2 shards" in err
    line = next(x for x in err.splitlines() if "COMET batch: left out:" in x)
    assert said in line and "Traceback" not in err
    # The shard left out is what the next batch asks for: its items, and only those.
    rest = json.loads((tmp_path / "rest" / "manifest.json").read_text())
    assert rest["items"] == SHARD


def test_the_flags_need_comet_and_comet_score_needs_half_precision(tiny_comet, comet_python, capsys, tmp_path, en_ja):
    write_en_ja(en_ja, tmp_path)
    code, _, err = cli(capsys, tmp_path / "ref1.txt", "-i", tmp_path / "sys1.txt", "--comet-batch-in", tmp_path)
    assert code == 2 and "--comet-batch-in is COMET's: add comet to the metrics" in err
    argv = args(tmp_path, tiny_comet["regression"], comet_python, tmp_path / "c.sqlite", "--comet-batch-out",
                tmp_path / "b")
    argv[argv.index("fp16")] = "fp32"
    code, _, err = cli(capsys, *argv)
    assert code == 2 and "comet-score scores in fp16 only" in err and "--comet-precision fp16" in err
    code, _, err = cli(capsys, tmp_path / "ref1.txt", "-i", tmp_path / "sys1.txt", "-m", "comet",
                       "--comet-ray-actors", "2")
    assert code == 2 and "--comet-ray-actors is read with a Ray cluster only" in err


def test_the_window_hands_off_comets_items_without_asking_and_reads_comet_scores_scores_back(
        qtbot, window, scored_elsewhere, tiny_comet, comet_python, monkeypatch, tmp_path):
    # COMET set up in the dock but not ticked: File ▸ Export COMET batch… writes the very items the command line's
    # batch holds; comet-score's scored shards imported, ticking COMET scores every segment from the cache, sending
    # the worker no score request, and the numbers are comet-score's own.
    from bleu_gui.gui.window_words import in_window_words

    tmp, batch = scored_elsewhere
    window.run_actions.open_files([tmp / "sys1.txt"], [tmp / "ref1.txt"], source=tmp / "src.txt")
    qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy)
    group = window.settings_panel.group("comet")
    for name, value in (("model", str(tiny_comet["regression"])), ("python", comet_python),
                        ("cache", str(tmp_path / "c.sqlite"))):
        group.fields[name].set(value)
    said, failed = [], []
    window.batches.said.connect(said.append)
    window.batches.failed.connect(failed.append)
    run = window.controller.whole_run
    window.batches.export_comet(run, tmp_path / "fp32")  # the dock's precision: fp32, which comet-score never scores
    qtbot.waitUntil(lambda: bool(failed), timeout=60_000)
    assert "Precision fp16 (COMET, Scoring settings)" in in_window_words(failed[0])
    assert not (tmp_path / "fp32").exists()
    group.fields["precision"].set("fp16")
    window.batches.export_comet(run, tmp_path / "mine")
    qtbot.waitUntil(lambda: bool(said), timeout=60_000)
    assert said[0].startswith(f"24 COMET items written to {tmp_path / 'mine'} as 1 comet-score shard")
    theirs_mt = "".join((batch / f"shard-{s:05d}" / "mt.txt").read_text("utf-8") for s in (1, 2))
    assert (tmp_path / "mine" / "shard-00001" / "mt.txt").read_text("utf-8") == theirs_mt
    window.batches.import_comet(run, batch)
    qtbot.waitUntil(lambda: len(said) == 2, timeout=60_000)
    assert said[1].startswith("COMET batch: 24 scores imported from 2 of 2 shards")
    sent = requests_sent(monkeypatch)
    group.setChecked(True)
    qtbot.waitUntil(lambda: any(m.key == "comet" for m in window.controller.run.metrics) and not window.jobs.busy,
                    timeout=120_000)
    shown = window.controller.run
    k = next(i for i, m in enumerate(shown.metrics) if m.key == "comet")
    assert "via:comet-score" in shown.metrics[k].signature()
    assert [op for op, _ in sent if op == "score"] == []
    theirs = [e["COMET"] for s in (1, 2) for e in next(iter(json.loads(
        (batch / f"shard-{s:05d}" / "out.json").read_text()).values()))]
    assert [float(v) for v in shown.systems[0].results[k].sentences] == theirs
