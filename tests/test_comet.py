"""COMET computed in a worker process: our scores against unbabel-comet's own ``load_from_checkpoint(...).predict``
on the same tiny checkpoints (fp32, to 1e-6), the cache, the signature, cancel, and every way a set-up can be wrong
said in one clear message. The checkpoints are built by a fixture (no download); the worker runs in a Python of its
own (conftest.py: comet_python)."""

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bleu_gui.core.errors import Cancelled, InputError
from bleu_gui.core.metrics.comet.cache import cache_size
from bleu_gui.core.metrics.comet.config import CometConfig
from bleu_gui.core.metrics.comet.metric import spans_in
from bleu_gui.core.metrics.comet.worker import end_idle_workers
from tests import comet_setup
from tests.comet_setup import (
    comet,
    comet_panel,
    requests_sent,
    system,
    three_references,
    worker_processes,
    write_en_ja,
)
from tests.conftest import cli, data_set

# One test process runs them all (pytest-xdist's loadgroup): the COMET worker's environment and tiny models are made
# once per process.
pytestmark = pytest.mark.xdist_group("comet")
en_ja = comet_setup.en_ja
fresh_user_cache = comet_setup.fresh_user_cache  # one user cache for every COMET test (its docstring says why)


def test_the_comet_tests_run_in_one_test_process(request):
    """The README's command (``-n 2 --dist loadgroup``) sends every test of the "comet" group to one process: the tiny
    models and COMET's own predictions are made once, and each test takes the worker the one before left idle.
    pytest-xdist marks a grouped test's id with its group; pytest 9.2 drops that mark (pytest-xdist#1386), and the
    tests then run in both processes, each making the models (pyproject.toml keeps pytest below 9.2)."""
    if request.config.getoption("dist", "no") == "no" and not hasattr(request.config, "workerinput"):
        pytest.skip("one process: nothing to group")
    if not request.config.getvalue("loadgroup"):
        pytest.skip("not run with --dist loadgroup")
    assert request.node.nodeid.endswith("@comet"), "pytest-xdist did not group the COMET tests (pytest-xdist#1386)"


@pytest.mark.parametrize("kind", ["regression", "referenceless", "xcomet"])
def test_scores_equal_comets_own_predict(kind, tiny_comet, comet_python, en_ja, comets_own, tmp_path):
    metric = comet(tiny_comet[kind], comet_python, [en_ja["ref1"]], en_ja["src"], tmp_path)
    stats = metric.system_statistics(system(en_ja["sys1"]))
    theirs = comets_own[kind]
    assert np.allclose(stats[:, 0], theirs["scores"], atol=1e-6, rtol=0)
    assert len(set(np.round(stats[:, 0], 4))) > 12  # the tiny model's scores differ between segments
    assert metric.corpus_score(stats).score == pytest.approx(np.mean(theirs["scores"]), abs=1e-6)


@pytest.mark.parametrize(("kind", "theirs"), [("referenceless", "referenceless"),
                                               ("xcomet", "xcomet without a reference")])
def test_a_run_without_references_scores_source_and_candidate_as_comets_own_predict(
        kind, theirs, tiny_comet, comet_python, en_ja, comets_own, tmp_path):
    metric = comet(tiny_comet[kind], comet_python, [], en_ja["src"], tmp_path)
    hyps = en_ja["sys1"]
    stats = metric.system_statistics(system(hyps))
    own = comets_own[theirs]
    assert np.allclose(stats[:, 0], own["scores"], atol=1e-6, rtol=0)
    assert metric.corpus_score(stats).score == pytest.approx(np.mean(own["scores"]), abs=1e-6)
    assert "|refs:0|" in metric.signature()
    explained = metric.of_system(system(hyps))
    shown = explained.shown(0, hyps[0], "sys1", [])
    assert [p.title.split(" —")[0] for p in shown.panes] == ["Candidate", "Source"]  # no empty reference pane
    how = explained.account(0, hyps[0], stats[0], []).explanation.sections[0].lines
    assert any("source and the candidate only" in line for line in how)
    if kind == "xcomet":  # its spans without a reference are the API's
        flagged = explained.flagged(range(len(hyps)), hyps)
        for i, hypothesis in enumerate(hyps):
            expected = [(s["start"] + (hypothesis[s["start"]:s["start"] + 1].isspace()),
                         min(s["end"], len(hypothesis))) for s in own["spans"][i]]
            assert flagged[i] == [(a, b) for a, b in expected if a < b]
        assert sum(map(len, flagged)) > 5


def test_a_checkpoint_that_needs_a_reference_is_refused_in_a_run_without_one(tiny_comet, comet_python, en_ja,
                                                                             tmp_path, monkeypatch):
    sent = requests_sent(monkeypatch)
    metric = comet(tiny_comet["regression"], comet_python, [], en_ja["src"], tmp_path)
    with pytest.raises(InputError, match=r"regression_metric\) compares the translation with a reference, and the "
                                         r"run has none"):
        metric.system_statistics(system(en_ja["sys1"]))
    assert [op for op, _ in sent] == ["resolve"]  # refused from hparams.yaml: no model loaded, nothing scored


def test_several_references_score_the_mean_of_each(tiny_comet, comet_python, comets_own, tmp_path):
    src, hyp, refs = three_references()
    metric = comet(tiny_comet["regression"], comet_python, refs, src, tmp_path)
    stats = metric.system_statistics(system(hyp))
    each = [comets_own[f"reference {k} of 3"]["scores"] for k in (1, 2, 3)]
    # Each reference scored by COMET alone batches its 10 items otherwise than the worker's one request of all 30
    # (COMET sorts a request's items by length and pads each batch to its longest): float32 sums over other padding
    # differ in the sixth decimal (1.1e-6 seen once in CI), so the mean is compared to 1e-5.
    assert np.allclose(stats[:, 0], np.mean(each, axis=0), atol=1e-5, rtol=0)
    assert "refs:3" in metric.signature()


def test_a_cached_reopen_gives_the_same_numbers_and_loads_no_model(tiny_comet, comet_python, en_ja, tmp_path):
    refs, src = [en_ja["ref1"]], en_ja["src"]
    first = comet(tiny_comet["regression"], comet_python, refs, src, tmp_path)
    first.prepare([system(en_ja["sys1"]), system(en_ja["sys2"], "b.txt")])
    assert first.scorer.loaded
    again = comet(tiny_comet["regression"], comet_python, refs, src, tmp_path)
    for name in ("sys1", "sys2"):
        assert np.array_equal(again.system_statistics(system(en_ja[name])), first.system_statistics(system(en_ja[name])))
    assert not again.scorer.loaded
    assert again.signature() == first.signature()
    assert any("of the run's scores read from the cache" in n for n in again.work_notes)
    assert not any("read from the cache" in n for n in again.notes)  # how it went, not what the number is


def test_a_new_run_takes_the_worker_an_earlier_run_left_with_its_model_loaded(tiny_comet, comet_python, en_ja,
                                                                             comets_own, tmp_path, monkeypatch):
    """A worker costs COMET's import to start (5-12 s) and a model's load more: a new run (files opened again, a
    setting changed) that needs scores its cache lacks takes the worker the earlier run left idle between its
    requests — the earlier run still shown, as in the window — its model still loaded."""
    refs, src = [en_ja["ref1"]], en_ja["src"]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    sent = requests_sent(monkeypatch)
    earlier = comet(tiny_comet["regression"], comet_python, refs, src, tmp_path / "a")
    earlier.prepare([system(en_ja["sys2"])])
    assert earlier.scorer.worker is None  # idle between requests, not held by the earlier run
    pids = {pid for _, pid in sent}
    sent.clear()
    new = comet(tiny_comet["regression"], comet_python, refs, src, tmp_path / "b")  # a cache of its own: empty
    stats = new.system_statistics(system(en_ja["sys1"]))
    assert {pid for _, pid in sent} == pids and len(pids) == 1
    assert [op for op, _ in sent] == ["resolve", "score"]  # no load: the model is the one loaded
    assert np.allclose(stats[:, 0], comets_own["regression"]["scores"], atol=1e-6, rtol=0)


def test_a_checkpoint_changed_on_disk_is_loaded_again_by_an_idle_worker(monkeypatch, tmp_path):
    """The model a worker holds is known by the checkpoint's hash, not its path: a file replaced between two runs is
    loaded again, never scored with the weights of the old one under the new one's signature."""
    from bleu_gui.core.metrics.comet.scoring import CometScorer, ModelFacts

    class Worker:
        alive, model = True, None

        def request(self, message, tick=None, on_batch=None):
            sent.append(message["op"])
            return {}

    sent: list[str] = []
    scorer = CometScorer(CometConfig(model="m", python=sys.executable, cache=str(tmp_path / "c.sqlite")))
    monkeypatch.setattr(scorer, "_started", lambda tick=None: worker)
    worker = Worker()
    facts = ModelFacts("m", "/models/m/checkpoints/model.ckpt", "a" * 64, "2.2.7", "2.5", "regression_metric", False,
                       False, 510)
    scorer._load(facts, None)
    scorer._load(facts, None)
    scorer._load(ModelFacts(**{**facts.__dict__, "sha256": "b" * 64}), None)
    assert sent == ["load", "load"]


def copied(model: Path, tmp_path: Path) -> Path:
    out = tmp_path / "model"
    shutil.copytree(model, out)
    return out


def repoint_encoder(model: Path, where: str) -> None:
    """Make hparams.yaml name the encoder at ``where`` (as a checkpoint moved from another machine does)."""
    hparams = model / "hparams.yaml"
    text = hparams.read_text(encoding="utf-8")
    named = next(line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("pretrained_model:"))
    hparams.write_text(text.replace(named, where), encoding="utf-8")


def test_a_moved_model_folder_finds_its_encoder_beside_it(tiny_comet, comet_python, en_ja, comets_own, tmp_path):
    model = copied(tiny_comet["regression"], tmp_path)
    repoint_encoder(model, "/nowhere/encoder")
    metric = comet(model, comet_python, [en_ja["ref1"]], en_ja["src"], tmp_path)
    stats = metric.system_statistics(system(en_ja["sys1"]))
    theirs = comets_own["regression"]
    assert np.allclose(stats[:, 0], theirs["scores"], atol=1e-6, rtol=0)
    assert any("the encoder folder /nowhere/encoder named by hparams.yaml is not there" in n for n in metric.notes)


def _broken(kind: str, model: Path) -> str:
    """Break a copied model folder as ``kind`` says; the model setting to give."""
    if kind == "no checkpoint":
        (model / "checkpoints" / "model.ckpt").unlink()
    elif kind == "no hparams":
        (model / "hparams.yaml").unlink()
    elif kind == "no encoder":
        repoint_encoder(model, "/nowhere/encoder")
        shutil.rmtree(model / "encoder")
    return str(model)


@pytest.mark.parametrize(("kind", "said"), [
    ("no checkpoint", r"the model folder .*/model has no checkpoints/model.ckpt"),
    ("no hparams", r"hparams.yaml is missing beside the checkpoint"),
    ("no encoder", r"the encoder folder /nowhere/encoder that .*/model/hparams.yaml names is not there"),
])
def test_a_broken_model_folder_is_named(kind, said, tiny_comet, comet_python, en_ja, tmp_path):
    model = _broken(kind, copied(tiny_comet["regression"], tmp_path))
    metric = comet(Path(model), comet_python, [en_ja["ref1"]], en_ja["src"], tmp_path)
    with pytest.raises(InputError, match=said):
        metric.system_statistics(system(en_ja["sys1"]))


def test_xcomets_spans_are_drawn_on_the_candidate_at_valid_offsets(tiny_comet, comet_python, en_ja, comets_own,
                                                                   tmp_path):
    metric = comet(tiny_comet["xcomet"], comet_python, [en_ja["ref1"]], en_ja["src"], tmp_path)
    hyps = en_ja["sys1"]
    stats = metric.system_statistics(system(hyps))
    theirs = comets_own["xcomet"]["spans"]
    explained = metric.of_system(system(hyps))
    flagged = explained.flagged(range(len(hyps)), hyps)
    marked = 0
    for i, hypothesis in enumerate(hyps):
        # COMET's offsets, moved off a leading space, clipped to the text: the spans we draw
        expected = [(s["start"] + (hypothesis[s["start"]:s["start"] + 1].isspace()), min(s["end"], len(hypothesis)))
                    for s in theirs[i]]
        assert flagged[i] == [(a, b) for a, b in expected if a < b]
        for start, end in flagged[i]:
            assert 0 <= start < end <= len(hypothesis) and not hypothesis[start].isspace()
        shown = explained.shown(i, hypothesis, "sys1", ["ref1"])
        assert shown is not None and shown.summary.startswith("xCOMET marked")
        marked += len(flagged[i])
        if flagged[i]:
            start, end = flagged[i][0]
            assert "background-color" in shown.panes[0].html
            assert explained.account(i, hypothesis, stats[i], ["ref1"]).evidence["error_spans"][0]["start"] == start
    assert marked > 5  # the tiny model marks spans on this data


def test_span_offsets_that_include_a_leading_space_are_corrected():
    spans, corrected = spans_in("Hallo Welt und mehr", [
        {"text": " Welt", "start": 5, "end": 10, "severity": "major", "confidence": 0.9},
        {"text": "und", "start": 11, "end": 14, "severity": "minor", "confidence": 0.4},
        {"text": "past the end", "start": 15, "end": 99, "severity": "minor", "confidence": 0.4}])
    assert [(s.start, s.end, s.text, s.severity) for s in spans] == [
        (6, 10, "Welt", "Major"), (11, 14, "und", "Minor"), (15, 19, "mehr", "Minor")]
    assert corrected == 1


def test_the_signature_names_the_checkpoint_hash_and_versions(tiny_comet, comet_python, en_ja, tmp_path, capsys):
    for name in ("src", "ref1", "sys1"):
        (tmp_path / f"{name}.txt").write_text("\n".join(en_ja[name]) + "\n", encoding="utf-8")
    model = tiny_comet["regression"]
    code, out, err = cli(capsys, "-i", tmp_path / "sys1.txt", "--src", tmp_path / "src.txt", "-m", "comet",
                         "--comet-model", model, "--comet-python", comet_python, "--comet-cache",
                         tmp_path / "comet.sqlite", "--format", "json", tmp_path / "ref1.txt")
    assert code == 0, err
    sha = hashlib.sha256((model / "checkpoints" / "model.ckpt").read_bytes()).hexdigest()[:12]
    torch_version = subprocess.run([comet_python, "-c", "import importlib.metadata as m; print(m.version('torch'))"],
                                   capture_output=True, text=True).stdout.strip()
    found = json.loads(out)
    assert found["signature"] == f"model:{model}|ckpt:{sha}|comet:2.2.7|torch:{torch_version}|fp32|refs:1|batch:16"


def test_a_run_never_mixes_two_signatures(tiny_comet, comet_python, en_ja, tmp_path):
    refs, src = [en_ja["ref1"]], en_ja["src"]
    comet(tiny_comet["regression"], comet_python, refs, src, tmp_path, batch_size=4).prepare(
        [system(en_ja["sys1"][:12] + en_ja["sys2"][12:])])  # half of sys1's segments cached under batch:4
    metric = comet(tiny_comet["regression"], comet_python, refs, src, tmp_path, batch_size=8)
    metric.system_statistics(system(en_ja["sys1"]))
    assert "batch:8" in metric.signature()
    assert any("12 cached scores were made under another signature and were scored again" in n for n in metric.work_notes)


def test_comet_needs_the_source(tmp_path, capsys):
    for name, text in (("ref", "Hallo Welt."), ("hyp", "Hallo, Welt!")):
        (tmp_path / f"{name}.txt").write_text(text + "\n", encoding="utf-8")
    code, _, err = cli(capsys, tmp_path / "ref.txt", "-i", tmp_path / "hyp.txt", "-m", "comet")
    assert code == 2 and "COMET reads the source: give it (--src FILE)" in err


def test_segments_past_the_encoders_length_are_counted_and_listed(tiny_comet, comet_python, tmp_path):
    long = " ".join(["Ein sehr langer Satz mit vielen Wörtern."] * 120)
    metric = comet(tiny_comet["regression"], comet_python, [["Kurz.", long, "Kurz."]], ["Short.", "Long.", "Short."],
                   tmp_path)
    metric.system_statistics(system(["Kurz.", long, "Kurz!"]))
    assert any("1 segment of sys.txt are longer than the 510 tokens the model keeps and were truncated by COMET "
               "(segments 2)" in n for n in metric.notes)
    assert metric.truncated_segments(["Kurz.", long, "Kurz!"]) == [1]
    caveats = metric.caveats(system(["Kurz.", long, "Kurz!"]))  # the window's list marks it ⚠ with this tooltip
    assert list(caveats) == [1] and "longer than the 510 the model keeps, so COMET truncated the input" in caveats[1]


@pytest.mark.parametrize(("languages", "said"), [
    (("en", "ja"), ""), (("de", "hr"), ""), (("zh-Hant", "ru"), ""),
    (("en", "tlh"), "the target language tlh"), (("zu", "yo"), "the source language zu and the target language yo")])
def test_a_language_outside_xlmr_gets_a_note(languages, said):
    _, note = CometConfig().for_target_language(languages, "--langs")
    assert (said in note and "not among the 100 languages XLM-R" in note) if said else note == ""


def test_comet_through_paired_tests_slices_and_disagreement(tiny_comet, comet_python, en_ja, tmp_path, capsys):
    for name in ("src", "ref1", "sys1", "sys2"):
        (tmp_path / f"{name}.txt").write_text("\n".join(en_ja[name]) + "\n", encoding="utf-8")
    common = ["--src", tmp_path / "src.txt", "--comet-model", tiny_comet["regression"], "--comet-python", comet_python,
              "--comet-cache", tmp_path / "comet.sqlite"]
    hyps = ["-i", tmp_path / "sys1.txt", tmp_path / "sys2.txt"]
    code, out, err = cli(capsys, *hyps, *common, "-m", "bleu", "comet", "--paired-bs", tmp_path / "ref1.txt")
    assert code == 0, err
    assert "COMET" in out and "p = " in out
    assert re.search(r"-?\d\.\d{4} \(-?\d\.\d{4} ± \d\.\d{4}\)", out)  # COMET's four decimals, BLEU's two
    code, out, err = cli(capsys, *hyps, *common, "-m", "comet", "--where", "comet[sys1] < 0.3", tmp_path / "ref1.txt")
    assert code == 0, err
    assert "segments" in err
    code, out, err = cli(capsys, *hyps, *common, "-m", "bleu", "comet", "--disagree", "bleu", "comet",
                         tmp_path / "ref1.txt")
    assert code == 0, err


def test_the_window_scores_comet_in_its_worker_says_its_progress_and_draws_xcomets_spans(
        qtbot, window, tiny_comet, comet_python, en_ja, tmp_path):
    write_en_ja(en_ja, tmp_path)
    comet_panel(window, tiny_comet["xcomet"], comet_python, tmp_path / "cache.sqlite")
    steps = []
    window.jobs.step.connect(steps.append)
    window.run_actions.open_files([tmp_path / "sys1.txt", tmp_path / "sys2.txt"], [tmp_path / "ref1.txt"],
                                  source=tmp_path / "src.txt")
    qtbot.waitUntil(lambda: window.controller.run is not None and any(
        m.key == "comet" for m in window.controller.run.metrics) and not window.jobs.busy, timeout=120_000)
    run = window.controller.run
    assert any(s.startswith("COMET: ") and " segments, " in s and " left" in s for s in steps)
    k = next(i for i, m in enumerate(run.metrics) if m.key == "comet")
    assert "ckpt:" in run.metrics[k].signature()
    window.controller.set_metric(k)
    assert re.fullmatch(r"COMET -?\d\.\d{4}", window.inspect.header.corpus_label.text())
    assert re.fullmatch(r"-?\d\.\d{4}", window.inspect.sentences.model.index(0, 1).data())
    marked = []
    for sentence in range(len(en_ja["sys1"])):
        window.controller.set_sentence(sentence)
        marked.append("xCOMET marked" in window.inspect.evidence.sentence_label.text())
    assert all(marked)
    # The dock's cache line counts what this run wrote, shown or not (it once said "empty" until shown again).
    scored = 2 * len(en_ja["sys1"])
    assert window.comet_cache.label.text().startswith(f"Cache: {scored:,} scores")
    # xCOMET's spans are offered to the review desk as suggestions, as an LLM judge's are (they name no category).
    assert window.start_review(str(tmp_path / "review.jsonl"), "ana", "mqm")
    review = window.inspect.detail.review
    assert (k, run.metrics[k].name) in review.suggesting_metrics()
    spans = [e for errors in run.metrics[k].error_spans(run.systems[0].file.lines) for e in errors or ()]
    offered = review.suggestions_from_metric(k)
    assert offered >= len(spans) > 0
    window.controller.set_sentence(0)
    assert all(m.category == "" and m.suggested_by == run.metrics[k].name for m in review.pending())


def test_comet_is_switched_on_from_the_settings_alone_and_inspect_shows_its_segment(
        qtbot, window, tiny_comet, comet_python, en_ja, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    write_en_ja(en_ja, tmp_path)
    window.run_actions.open_files([tmp_path / "sys1.txt"], [tmp_path / "ref1.txt"], source=tmp_path / "src.txt")
    qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy)
    group, setup = window.settings_panel.group("comet"), window.comet_setup
    group.setChecked(True)  # ticked with this app's own Python, which has no COMET: said, nothing started
    assert group.isChecked() and setup.isVisibleTo(group) and setup.problem.isVisibleTo(group)
    assert "has no unbabel-comet" in setup.problem.text()
    assert not window.jobs.busy and not any(m.key == "comet" for m in window.controller.scoring.metrics)
    # Browse… for the model folder and the worker Python (the dialogs answered as a user would).
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(tiny_comet["regression"]))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (comet_python, ""))
    setup.buttons["model"].click()
    assert group.fields["model"].get() == str(tiny_comet["regression"]) and setup.problem.isVisibleTo(group)
    setup.buttons["python"].click()
    assert not setup.problem.isVisibleTo(group)
    assert window.controller.state.folders["comet-python"] == str(Path(comet_python).parent)
    qtbot.waitUntil(lambda: window.controller.run is not None and any(
        m.key == "comet" for m in window.controller.run.metrics) and not window.jobs.busy, timeout=180_000)
    run = window.controller.run
    window.controller.set_metric(next(i for i, m in enumerate(run.metrics) if m.key == "comet"))
    evidence = window.inspect.evidence
    assert window.inspect.top_stack.currentWidget() is evidence
    for sentence in (0, 5):
        window.controller.set_sentence(sentence)
        shown = [(p.title.text(), p.text.toPlainText()) for p in evidence.panes if p.isVisibleTo(evidence)]
        assert shown == [("Candidate — sys1.txt", en_ja["sys1"][sentence]), ("Source", en_ja["src"][sentence]),
                         ("Reference — ref1.txt", en_ja["ref1"][sentence])]
        assert evidence.sentence_label.text().endswith(f"model {tiny_comet['regression']}")
        explained = evidence.explain_panel.view.toPlainText()
        assert explained.startswith("COMET ") and f"model {tiny_comet['regression']}" in explained


def test_a_bilingual_xliff_opens_without_a_reference_and_inspect_shows_source_candidate_and_spans(
        qtbot, window, tiny_comet, comet_python, tmp_path):
    from PySide6.QtCore import Qt

    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.inspect.sentence_model import COL_RATIO
    from bleu_gui.gui.state import OpenChoice

    xliff = data_set("formats/xliff20-matecat-realworld") / "apos.xliff.xliff"  # en-US → pt-BR, 21 units, no reference
    comet_panel(window, tiny_comet["xcomet"], comet_python, tmp_path / "cache.sqlite")
    window.run_actions.open_inputs(OpenChoice(InputRequest(systems=(str(xliff),))))
    qtbot.waitUntil(lambda: window.controller.run is not None and any(
        m.key == "comet" for m in window.controller.run.metrics) and not window.jobs.busy, timeout=120_000)
    run = window.controller.run
    assert run.references == [] and [m.key for m in run.metrics] == ["comet"]  # BLEU, always in the window, left out
    assert "No reference: BLEU left out (they compare with a reference)" in run.notes
    assert "|refs:0|" in run.metrics[0].signature() and "no reference" in run.summary
    assert window.settings_panel.no_reference_note.text().startswith("The run has no reference: BLEU, chrF")
    evidence, model = window.inspect.evidence, window.inspect.sentences.model
    assert model.headerData(COL_RATIO, Qt.Orientation.Horizontal) == "Len/src"
    marked = 0
    for sentence in range(run.n_sentences):
        window.controller.set_sentence(sentence)
        shown = [(p.title.text(), p.text.toPlainText()) for p in evidence.panes if p.isVisibleTo(evidence)]
        assert [title.split(" —")[0] for title, _ in shown] == ["Candidate", "Source"]  # no empty reference pane
        assert shown[0][1] == run.systems[0].lines[sentence] and shown[1][1] == run.context.source.lines[sentence]
        marked += "xCOMET marked" in evidence.sentence_label.text()
    assert marked > 0


# The tests below end the worker a test left idle (or start one of another Python or environment, which ends
# it): they come last, so that each test above takes the worker the one before left instead of loading a
# model in a new one (COMET's import and the load: ~8 s each).


def test_a_scores_column_named_comet_is_the_column_unless_comets_flags_ask_for_the_family(tmp_path, capsys):
    (tmp_path / "ref.txt").write_text("Hallo Welt.\nGuten Tag.\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("Hallo, Welt!\nGuten Tag!\n", encoding="utf-8")
    (tmp_path / "s.tsv").write_text("system\tsegment\tcomet\na.txt\t1\t0.25\na.txt\t2\t0.75\n", encoding="utf-8")
    code, out, err = cli(capsys, tmp_path / "ref.txt", "-i", tmp_path / "a.txt", "--scores", tmp_path / "s.tsv",
                         "-m", "comet")
    assert code == 0, err
    assert "comet|file:s.tsv|column:comet|mean|higher-better = 0.50" in out
    code, out, err = cli(capsys, tmp_path / "ref.txt", "-i", tmp_path / "a.txt", "--scores", tmp_path / "s.tsv",
                         "-m", "comet", "--comet-batch-size", "8")
    assert code == 2 and "COMET reads the source" in err  # the family, computed here


# -- trust round 5: COMET's number and its signature honest ---------------------------------------------------------
def test_the_signature_says_this_runs_references_and_a_new_reference_scores_only_its_items(tiny_comet, comet_python,
                                                                                           tmp_path):
    import sqlite3

    src, hyp, refs = three_references()
    one = comet(tiny_comet["regression"], comet_python, refs[:1], src, tmp_path)
    first = one.system_statistics(system(hyp))
    assert "|refs:1|" in one.signature()
    three = comet(tiny_comet["regression"], comet_python, refs, src, tmp_path)
    three.system_statistics(system(hyp))
    # The first reference's 10 items are read back; only the two new references' 20 are scored.
    assert "|refs:3|" in three.signature()
    assert any("COMET: 10 of the run's scores read from the cache" in n for n in three.work_notes)
    # A cache written before rows dropped the count (each row said its run's "refs:3"): a one-reference run reads it
    # and signs what it did.
    with sqlite3.connect(tmp_path / "comet.sqlite") as db:
        db.execute("UPDATE scores SET signature = replace(signature, '|batch:', '|refs:3|batch:')")
    again = comet(tiny_comet["regression"], comet_python, refs[:1], src, tmp_path)
    assert np.array_equal(again.system_statistics(system(hyp)), first)
    assert "|refs:1|" in again.signature() and "refs:3" not in again.signature() and not again.scorer.loaded


def test_xcomets_spans_against_every_reference_are_kept(tiny_comet, comet_python, tmp_path):
    src, hyp, refs = three_references()
    both = comet(tiny_comet["xcomet"], comet_python, refs[:2], src, tmp_path / "both")
    both.system_statistics(system(hyp))
    alone = comet(tiny_comet["xcomet"], comet_python, refs[1:2], src, tmp_path / "alone")
    alone.system_statistics(system(hyp))

    def marked(detail, k):
        return [(e.start, e.end, e.severity) for e in detail.spans_by_reference[k]]

    second = [marked(d, 1) for d in both.details(hyp)]
    assert second == [marked(d, 0) for d in alone.details(hyp)]  # the second reference's, as COMET gives them alone
    assert sum(map(len, second)) > 0
    for detail in both.details(hyp):
        assert len(detail.spans or ()) == len(detail.spans_by_reference[0]) + len(detail.spans_by_reference[1])
    at = next(i for i, d in enumerate(both.details(hyp)) if d.spans_by_reference[1])
    explained = both.of_system(system(hyp)).account(at, hyp[at], np.array([0.5, 1.0]), ["ref1", "ref2"])
    titles = [section.title for section in explained.explanation.sections]
    assert "Error spans the model marked (xCOMET, against ref2)" in titles
    assert "Error spans the model marked (xCOMET, against ref1)" in titles


def _one_token_word(encoder: Path) -> str:
    """A word the tiny tokenizer makes one token of, however often it is repeated: a whole piece of its Unigram
    vocabulary with the Metaspace mark (the likeliest such piece of a few common words). The test below checks the
    token counts the model itself reports, so a wrong pick fails there, never passes."""
    vocab = dict(json.loads((encoder / "tokenizer.json").read_text(encoding="utf-8"))["model"]["vocab"])
    found = {word: vocab["\u2581" + word] for word in ("die", "und", "der", "the", "a", "x") if "\u2581" + word in vocab}
    assert found, "the tiny tokenizer has none of the common words as a piece"
    return max(found, key=found.__getitem__)


def test_truncation_is_flagged_where_comet_truncates(tiny_comet, comet_python, tmp_path):
    # A regression model tokenizes each text alone to at most 510 tokens, its special tokens counted (COMET's
    # encoders/base.py: max_positions - 2): candidates of 510, 511 and 512 tokens are the same truncated input, and the
    # model gives them one score; 509 is another input. The flag must fall where the scores stop changing.
    word = _one_token_word(tiny_comet["regression"].parent / "encoder")
    candidates = [" ".join([word] * n) for n in range(500, 516)]
    metric = comet(tiny_comet["regression"], comet_python, [[word] * len(candidates)], [word] * len(candidates),
                   tmp_path)
    stats = metric.system_statistics(system(candidates))
    by_tokens = {d.tokens: (float(stats[i, 0]), i) for i, d in enumerate(metric.details(candidates))}
    assert {509, 510, 511, 512} <= set(by_tokens), sorted(by_tokens)
    assert by_tokens[510][0] == by_tokens[511][0] == by_tokens[512][0] != by_tokens[509][0]
    flagged = set(metric.truncated_segments(candidates))
    assert by_tokens[511][1] in flagged and by_tokens[512][1] in flagged
    assert by_tokens[510][1] not in flagged and by_tokens[509][1] not in flagged


def test_a_checkpoint_replaced_in_place_with_its_size_and_time_is_hashed_again(tmp_path):
    from bleu_gui.core.metrics.comet.cache import ScoreCache

    cache, checkpoint = ScoreCache(tmp_path / "comet.sqlite"), tmp_path / "model.ckpt"
    checkpoint.write_bytes(b"A" * 4096)
    before = checkpoint.stat()
    assert cache.checkpoint_sha256(checkpoint) == hashlib.sha256(b"A" * 4096).hexdigest()
    checkpoint.write_bytes(b"B" * 4096)  # another model, the same size, its modification time set back (cp -p does)
    os.utime(checkpoint, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert checkpoint.stat().st_mtime_ns == before.st_mtime_ns and checkpoint.stat().st_size == before.st_size
    assert cache.checkpoint_sha256(checkpoint) == hashlib.sha256(b"B" * 4096).hexdigest()
    assert cache.checkpoint_sha256(checkpoint) == hashlib.sha256(b"B" * 4096).hexdigest()  # and remembered
    cache.close()


def _damaged_cache(path: Path) -> Path:
    """A cache file whose header is whole and whose pages past it are not."""
    from bleu_gui.core.metrics.comet.cache import Cached, ScoreCache

    cache = ScoreCache(path)
    cache.put([(bytes([k]) * 32, Cached(0.5, None, 10, "sig")) for k in range(200)])
    cache.close()
    data = bytearray(path.read_bytes())
    data[4096:] = b"\xff" * (len(data) - 4096)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("damage", ["damaged past its header", "its folder is a file"])
def test_a_cache_that_cannot_be_used_is_said_once_and_never_raises(tmp_path, damage):
    from bleu_gui.core.metrics.comet.cache import Cached, ScoreCache

    if damage == "damaged past its header":
        path = _damaged_cache(tmp_path / "comet.sqlite")
    else:
        (tmp_path / "file").write_text("not a folder", encoding="utf-8")
        path = tmp_path / "file" / "comet.sqlite"
    cache = ScoreCache(path)
    assert cache.get([bytes([1]) * 32]) == {}
    cache.put([(b"k" * 32, Cached(0.5, None, 10, "sig"))])
    checkpoint = tmp_path / "model.ckpt"
    checkpoint.write_bytes(b"weights")
    assert cache.checkpoint_sha256(checkpoint) == hashlib.sha256(b"weights").hexdigest()
    assert cache.problem is not None and cache.problem.startswith(f"COMET: the cache {path} cannot be used (")
    assert cache.problem.endswith("): scores are computed and not kept")


def test_scoring_goes_on_past_a_damaged_cache(tiny_comet, comet_python, en_ja, tmp_path):
    fresh = comet(tiny_comet["regression"], comet_python, [en_ja["ref1"]], en_ja["src"], tmp_path / "fresh")
    expected = fresh.system_statistics(system(en_ja["sys1"]))
    (tmp_path / "damaged").mkdir()
    _damaged_cache(tmp_path / "damaged" / "comet.sqlite")
    metric = comet(tiny_comet["regression"], comet_python, [en_ja["ref1"]], en_ja["src"], tmp_path / "damaged")
    assert np.array_equal(metric.system_statistics(system(en_ja["sys1"])), expected)
    assert sum("cannot be used" in n for n in metric.work_notes) == 1


def test_bf16_on_the_cpu_is_refused_in_one_line_before_loading(tiny_comet, comet_python, en_ja, tmp_path, capsys):
    for name in ("src", "ref1", "sys1"):
        (tmp_path / f"{name}.txt").write_text("\n".join(en_ja[name]) + "\n", encoding="utf-8")
    argv = ["-i", tmp_path / "sys1.txt", "--src", tmp_path / "src.txt", "-m", "comet", "--comet-model",
            tiny_comet["regression"], "--comet-python", comet_python, "--comet-cache", tmp_path / "comet.sqlite",
            "--comet-precision", "bf16", tmp_path / "ref1.txt"]
    code, _out, err = cli(capsys, *argv, "--comet-gpus", "0")
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "--comet-precision bf16 runs on a GPU only" in err and "--comet-gpus 1" in err
    code, _out, err = cli(capsys, *argv)  # one GPU asked for, none here: the worker says so before it loads
    assert code == 2 and "Traceback" not in err and "mat1 and mat2" not in err
    assert "bf16 runs on a GPU only, and this worker has none" in err


def test_an_empty_reference_segment_is_scored_against_the_others_and_said(tiny_comet, comet_python, tmp_path):
    src, hyp, refs = three_references()
    second = list(refs[1])
    second[2] = ""
    both = comet(tiny_comet["regression"], comet_python, [refs[0], second], src, tmp_path)
    stats = both.system_statistics(system(hyp))
    alone = comet(tiny_comet["regression"], comet_python, [refs[0]], src, tmp_path)
    assert stats[2, 0] == alone.system_statistics(system(hyp))[2, 0]
    assert "COMET: reference 2 is empty at 1 segment (3): COMET scored them against the other references only" in \
        both.notes
    how = both.of_system(system(hyp)).account(2, hyp[2], stats[2], ["ref1", "ref2"]).explanation.sections[0].lines
    assert "ref2 is empty here: scored against ref1 only" in how


def test_a_progress_line_names_a_model_folder_by_its_name():
    from bleu_gui.core.metrics.comet.scoring import short_name

    assert short_name("/home/ana/models/wmt22-comet-da") == "wmt22-comet-da"
    assert short_name("Unbabel/wmt22-comet-da") == "Unbabel/wmt22-comet-da"  # a Hugging Face name, as given


# -- last: these end the worker they use (a new one costs COMET's import, 40-100 s here), so the tests above share one
def test_cancel_ends_the_worker_and_keeps_the_batches_it_finished(tiny_comet, comet_python, en_ja, comets_own,
                                                                 tmp_path):
    metric = comet(tiny_comet["regression"], comet_python, [en_ja["ref1"]], en_ja["src"], tmp_path, batch_size=4)

    def cancel_after_a_batch(fraction):
        if fraction > 0:
            raise Cancelled()

    with pytest.raises(Cancelled):
        metric.prepare([system(en_ja["sys1"])], cancel_after_a_batch)
    assert metric.scorer.worker is None  # ended, not left computing
    kept, _ = cache_size(tmp_path / "comet.sqlite")
    assert 4 <= kept < 24
    stats = metric.system_statistics(system(en_ja["sys1"]))  # the rest is scored now
    theirs = comets_own["regression, batches of 4"]
    # The rest is batched apart from what was kept, not as predict batches the whole: padding moves a score by
    # ~6e-8 on wmt22-comet-da, by up to ~5e-6 on this random model's larger numbers.
    assert np.allclose(stats[:, 0], theirs["scores"], atol=1e-5, rtol=0)


def test_a_killed_worker_is_one_clear_error(tiny_comet, comet_python, en_ja, tmp_path):
    metric = comet(tiny_comet["regression"], comet_python, [en_ja["ref1"]], en_ja["src"], tmp_path, batch_size=4)

    killed: list[int] = []

    def kill_it(fraction):
        if not killed:  # once: the next wait may come before the reader has seen the worker's end
            killed.append(metric.scorer.worker.pid)
            os.kill(killed[0], signal.SIGKILL)

    with pytest.raises(InputError, match=r"the COMET worker \(.*\) stopped: it was killed \(out of memory\?\)"):
        metric.prepare([system(en_ja["sys1"])], kill_it)


def test_an_idle_worker_serves_only_the_environment_it_started_in_and_ends_when_asked(tiny_comet, comet_python,
                                                                                     en_ja, tmp_path, monkeypatch):
    refs, src = [en_ja["ref1"]], en_ja["src"]
    sent = requests_sent(monkeypatch)
    comet(tiny_comet["regression"], comet_python, refs, src, tmp_path).scorer.facts()
    # Hugging Face's cache and its network switch are read from the environment: another one, another worker.
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    comet(tiny_comet["regression"], comet_python, refs, src, tmp_path).scorer.facts()
    (_, first), (_, other) = sent
    assert other != first
    assert first not in worker_processes()  # the second, left idle, ended the first (one is kept)
    assert end_idle_workers(idle_for=600.0) == 0  # idle for less than ten minutes: kept
    assert other in worker_processes()
    assert end_idle_workers(idle_for=0.0) == 1 and other not in worker_processes()


def test_an_unknown_model_name_offline_is_named(comet_python, en_ja, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    metric = comet(Path("Unbabel/no-such-model"), comet_python, [en_ja["ref1"]], en_ja["src"], tmp_path)
    with pytest.raises(InputError, match="the model Unbabel/no-such-model is not in the Hugging Face cache and the "
                                         r"network is off \(HF_HUB_OFFLINE\)"):
        metric.system_statistics(system(en_ja["sys1"]))


@pytest.mark.parametrize(("python", "said"), [
    (sys.executable, r"has no unbabel-comet: pip install 'bleu-gui\[comet\]' in this environment, or name a Python"),
    ("/no/python/here", r"python /no/python/here: no Python there"),
    ("/bin/cat", r"the COMET worker \(/bin/cat\) does not speak its protocol: it wrote .* \(is it a Python\?\)"),
])
def test_a_worker_python_without_comet_is_named(python, said, en_ja, tmp_path):
    metric = comet(Path("Unbabel/wmt22-comet-da"), python, [en_ja["ref1"]], en_ja["src"], tmp_path)
    with pytest.raises(InputError, match=said):
        metric.system_statistics(system(en_ja["sys1"]))


def test_cancelling_comet_in_the_window_ends_its_worker_and_keeps_the_first_numbers(
        qtbot, window, tiny_comet, comet_python, en_ja, tmp_path):
    write_en_ja(en_ja, tmp_path)
    comet_panel(window, tiny_comet["regression"], comet_python, tmp_path / "cache.sqlite")
    window.settings_panel.group("comet").fields["batch_size"].set(1)
    cancelled = []

    def on_step(text):
        if text.startswith("COMET: ") and not cancelled:
            cancelled.append(text)
            window.jobs.cancel()

    window.jobs.step.connect(on_step)
    end_idle_workers()  # so that the run starts a worker of its own, which the cancel must end
    before = set(worker_processes())  # an earlier test's, kept by its metric until that is collected
    window.run_actions.open_files([tmp_path / "sys1.txt", tmp_path / "sys2.txt"], [tmp_path / "ref1.txt"],
                                  source=tmp_path / "src.txt")
    qtbot.waitUntil(lambda: bool(cancelled) and not window.jobs.busy, timeout=120_000)
    qtbot.waitUntil(lambda: not set(worker_processes()) - before)
    run = window.controller.run
    assert run is not None and run.metrics[0].key == "bleu"
    assert any(n.startswith("COMET") and "not computed (cancelled)" in n for n in run.notes)


def test_a_model_neither_cached_nor_reachable_is_said_with_where_a_copy_goes(comet_python, en_ja, tmp_path,
                                                                            monkeypatch):
    import socket

    with socket.socket() as closed:  # a port nothing listens on: the hub out of reach, as without a network
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    for proxy in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY"):
        monkeypatch.delenv(proxy, raising=False)
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    metric = comet(Path("Unbabel/wmt22-comet-da"), comet_python, [en_ja["ref1"]], en_ja["src"], tmp_path)
    with pytest.raises(InputError) as failed:
        metric.system_statistics(system(en_ja["sys1"]))
    said = str(failed.value)
    assert "not supported" not in said and "\n" not in said
    assert f"is not in the Hugging Face cache ({tmp_path / 'hf' / 'hub'})" in said
    assert f"http://127.0.0.1:{port} cannot be reached (no network?)" in said
    assert "checkpoints/model.ckpt beside hparams.yaml" in said
