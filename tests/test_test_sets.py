"""Test sets by name through sacreBLEU's own registry: its cache folder pre-filled with the shared WMT14 SGML files as
its download would leave them (sacreBLEU itself turns them into text), then every field bleu-score reads equal to
``sacrebleu -t … --echo``, every score equal to sacreBLEU's on the same test set, and a set neither cached nor
reachable said in one line. sacreBLEU reads its folder ($SACREBLEU) when it is imported: each run is a process."""

import json
import os
import socket
import subprocess
import sys

import pytest

from tests.conftest import data_set

PAIR = "de-en"
NAME = "wmt14/full"


@pytest.fixture(scope="module")
def sacrebleu_home(tmp_path_factory):
    """$SACREBLEU with WMT14's test-full files where sacreBLEU's download extracts them (a placeholder tarball: it
    downloads nothing), and the source echoed by sacreBLEU as the system to score."""
    home = tmp_path_factory.mktemp("sacrebleu")
    raw = home / "wmt14" / "full" / "raw"
    (raw / "test-full").mkdir(parents=True)
    for sgm in data_set("formats/sgml-wmt14-newstest2014-deen").glob("*.sgm"):
        (raw / "test-full" / sgm.name).write_bytes(sgm.read_bytes())
    (raw / "wmt14_full.test-full.tgz").write_text("already downloaded")
    return home


def _env(home, **more):
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    return {**env, "SACREBLEU": str(home), **more}


def sacrebleu(home, *args) -> str:
    done = subprocess.run([sys.executable, "-m", "sacrebleu", *map(str, args)], capture_output=True, text=True,
                          env=_env(home))
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def bleu_score(home, *args, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bleu_gui.cli", *map(str, args)], capture_output=True, text=True,
                          env=_env(home, **env))


READ = r"""
import json, sys
from bleu_gui.core.inputs.format_table import ReadOptions
from bleu_gui.core.inputs.run_inputs import InputRequest, read_request
inputs = read_request(InputRequest(systems=(sys.argv[3],), test_set=sys.argv[1],
                                   options=ReadOptions(langs=tuple(sys.argv[2].split("-")))))
c = inputs.context
print(json.dumps({"src": c.source.lines, "ref": [r.lines for r in inputs.references], "docid": list(c.docs),
                  "meta": {k: list(v) for k, v in c.meta.items()}, "languages": list(c.languages),
                  "test_set": list(c.test_set)}))
"""


def test_every_field_is_what_sacrebleus_echo_gives(sacrebleu_home, tmp_path):
    fields = ["src", "ref", "docid", "origlang", "genre"]
    echoed = [line.split("\t") for line in sacrebleu(sacrebleu_home, "-t", NAME, "-l", PAIR, "--echo",
                                                     *fields).split("\n")[:-1]]
    system = tmp_path / "hyp.txt"
    system.write_text("".join(row[0] + "\n" for row in echoed), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", READ, NAME, PAIR, str(system)], capture_output=True, text=True,
                          env=_env(sacrebleu_home))
    assert done.returncode == 0, done.stderr[-2000:]
    read = json.loads(done.stdout)
    assert len(echoed) == 3003 == len(read["src"])
    assert read["src"] == [row[0] for row in echoed]
    assert read["ref"] == [[row[1] for row in echoed]]
    assert read["docid"] == [row[2] for row in echoed]
    assert read["meta"]["origlang"] == [row[3] for row in echoed] and read["meta"]["genre"] == [row[4] for row in echoed]
    assert read["languages"] == ["de", "en"] and read["test_set"] == [NAME, PAIR]


def test_scores_equal_sacrebleus_on_the_test_set_and_the_signature_names_it(sacrebleu_home, tmp_path):
    system = tmp_path / "hyp.txt"
    system.write_text(sacrebleu(sacrebleu_home, "-t", NAME, "-l", PAIR, "--echo", "src"), encoding="utf-8")
    theirs = json.loads(sacrebleu(sacrebleu_home, "-t", NAME, "-l", PAIR, "-i", system, "-m", "bleu", "chrf", "ter",
                                  "-f", "json", "-w", "4"))
    done = bleu_score(sacrebleu_home, "-t", NAME, "-l", PAIR, "-i", system, "-m", "bleu", "chrf", "ter", "-f", "json")
    assert done.returncode == 0, done.stderr
    ours = json.loads(done.stdout)
    ours = ours if isinstance(ours, list) else [ours]
    assert [round(m["score"], 4) for m in ours] == [m["score"] for m in theirs]
    for mine, sacre in zip(ours, theirs):
        # sacreBLEU's Signature names a test set's fields test: and lang: after nrefs (its command line leaves them
        # out of its own line); every other field is its own.
        assert "|test:wmt14/full|lang:de-en|" in mine["signature"]
        assert mine["signature"].replace("|test:wmt14/full|lang:de-en", "") == sacre["signature"]
    # The documents came with it: a slice by sacreBLEU's origlang field.
    done = bleu_score(sacrebleu_home, "-t", NAME, "-l", PAIR, "-i", system, "--where", "origlang = de")
    assert done.returncode == 0 and "origlang = de" in done.stderr


def test_a_set_neither_cached_nor_reachable_is_one_line(tmp_path):
    with socket.socket() as closed:  # a proxy nothing listens on: no network, as offline
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    system = tmp_path / "hyp.txt"
    system.write_text("a\n", encoding="utf-8")
    proxy = f"http://127.0.0.1:{port}"
    done = bleu_score(tmp_path / "empty", "-t", NAME, "-l", PAIR, "-i", system, https_proxy=proxy, http_proxy=proxy)
    assert done.returncode == 2
    line = done.stderr.strip()
    assert "\n" not in line and "Traceback" not in line
    assert f"-t {NAME} ({PAIR}) is neither in sacreBLEU's cache ({tmp_path / 'empty' / 'wmt14' / 'full'}) " \
           "nor reachable" in line


def test_a_name_or_pair_sacrebleu_does_not_have_is_said_with_what_it_has(tmp_path):
    system = tmp_path / "hyp.txt"
    system.write_text("a\n", encoding="utf-8")
    done = bleu_score(tmp_path, "-t", "wmt41", "-l", PAIR, "-i", system)
    assert done.returncode == 2 and "sacreBLEU has no test set of that name (did you mean wmt24, wmt21" in done.stderr
    done = bleu_score(tmp_path, "-t", NAME, "-l", "xx-yy", "-i", system)
    assert done.returncode == 2 and f"{NAME} has no language pair xx-yy (it has cs-en, en-cs" in done.stderr
    done = bleu_score(tmp_path, "-t", NAME, "-i", system)
    assert done.returncode == 2 and "name the language pair (-l/--language-pair)" in done.stderr
    done = bleu_score(tmp_path, system, "-t", NAME, "-l", PAIR, "-i", system)
    assert done.returncode == 2 and "brings its references: give no reference file with it" in done.stderr


def test_the_window_opens_a_system_against_a_test_set_by_name(qtbot, window, sacrebleu_home, tmp_path, monkeypatch):
    # sacreBLEU's own dataset object for wmt14/full, its folder pointed at the prefilled one (sacreBLEU fixes its
    # folder when imported, and this process imported it long before).
    import copy

    from sacrebleu.dataset import DATASETS

    from bleu_gui.core.inputs import test_sets

    theirs = copy.copy(DATASETS[NAME])
    theirs._outdir = str(sacrebleu_home / "wmt14" / "full")
    theirs._rawdir = str(sacrebleu_home / "wmt14" / "full" / "raw")
    monkeypatch.setattr(test_sets, "_registry", lambda: {**DATASETS, NAME: theirs})
    system = tmp_path / "hyp.txt"
    system.write_text(sacrebleu(sacrebleu_home, "-t", NAME, "-l", PAIR, "--echo", "src"), encoding="utf-8")
    dialog = window.file_open.ask_test_set()
    dialog.name.setText(NAME)
    assert [dialog.pair.itemText(i) for i in range(dialog.pair.count())][:2] == ["cs-en", "en-cs"]
    dialog.pair.setCurrentText(PAIR)
    dialog.systems.setText(str(system))
    with qtbot.waitSignal(window.run_changed, timeout=60_000):
        dialog.buttons.button(dialog.buttons.StandardButton.Open).click()
    qtbot.waitUntil(lambda: not window.jobs.busy)
    run = window.controller.run
    echoed = sacrebleu(sacrebleu_home, "-t", NAME, "-l", PAIR, "--echo", "ref").split("\n")[:-1]
    assert run.references[0].lines == echoed and run.context.test_set == (NAME, PAIR)
    assert "|test:wmt14/full|lang:de-en|" in run.metrics[0].signature()
    assert "origlang" in run.context.meta and run.context.docs is not None
