"""The LLM judge handed to an engine elsewhere as an OpenAI batch and read back by key: vLLM's own batch runner (its
CPU build, made once per machine in the user's cache: conftest.py's vllm_python) runs what ``--llm-batch-out``
wrote on a tiny random Llama; ``--llm-batch-in`` imports its output, and the run then sends nothing. Every body in
the batch is the body a live request sends, and an imported answer scores as the same answer asked live. The faults
(an engine's 500 lines, a cut file, another run's ids, a shard edited after export, half an output) are each said in
one line, with the rest imported."""

import hashlib
import json
import re
import subprocess
from pathlib import Path

import pytest

from bleu_gui.core.metrics.llm.batch import import_batch
from bleu_gui.core.metrics.llm.cache import AnswerCache
from tests.conftest import ROOT, bytecode_written, cli, data_set
from tests.fake_endpoint import FakeEndpoint, Reply, chat_reply

pytestmark = pytest.mark.xdist_group("vllm")  # the vLLM environment and its one batch run: once per test process
N = 8  # segments of each system


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """N segments of WMT22 en-ja: source, reference, two systems, as files."""
    folder = tmp_path_factory.mktemp("en-ja")
    d = data_set("wmt22-en-ja")
    for name in ("src", "ref1", "sys1", "sys2"):
        lines = (d / f"{name}.txt").read_text("utf-8").splitlines()[:N]
        (folder / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


@pytest.fixture
def endpoint():
    """An endpoint that counts what reaches it (a run that must send nothing is checked against it)."""
    server = FakeEndpoint().start()
    yield server
    server.stop()


def judge_args(corpus, cache, endpoint, model="tiny-llama", *more):
    return [corpus / "ref1.txt", "-i", corpus / "sys1.txt", corpus / "sys2.txt", "--src", corpus / "src.txt", "-m",
            "llm", "--llm-model", str(model), "--llm-cache", cache, "--llm-endpoint", endpoint.base,
            "--llm-max-tokens", "512", *more]


def export(capsys, corpus, cache, endpoint, folder, model="tiny-llama", *more):
    code, out, err = cli(capsys, *judge_args(corpus, cache, endpoint, model, "--llm-batch-out", folder, *more))
    assert code == 0, err
    return out, err


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def vllm_like(requests: list[dict], content=lambda i: '{"errors": []}') -> list[dict]:
    """Output lines as vLLM's run_batch writes them (the shape of the real output the test below reads)."""
    return [{"id": f"vllm-{i}", "custom_id": r["custom_id"], "error": None,
             "response": {"status_code": 200, "request_id": f"vllm-batch-{i}",
                          "body": {"object": "chat.completion", "model": r["body"]["model"],
                                   "choices": [{"index": 0, "finish_reason": "stop",
                                                "message": {"role": "assistant", "content": content(i)}}]}}}
            for i, r in enumerate(requests)]


def sentence_scores(printed: str) -> list[list[float | None]]:
    """Each system's segment scores from ``-sl -f json``."""
    found = json.loads(printed)
    return [[s["score"] for s in system["sentences"]] for system in (found if isinstance(found, list) else [found])]


def write_lines(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def vllm_run(vllm_python, corpus, tmp_path_factory):
    """What ``--llm-batch-out`` wrote for a tiny random Llama (head dimension 32), run once by vLLM's own batch runner
    on the CPU — with one request more, for a model vLLM does not serve (its error line) — and vLLM's output."""
    folder = tmp_path_factory.mktemp("vllm")
    model = folder / "tiny-llama"
    made = subprocess.run([vllm_python, str(ROOT / "scripts" / "tiny_llama.py"), str(model), "--text",
                           *map(str, sorted((ROOT / "bleu_gui" / "demo_data").glob("*/*.txt")))],
                          capture_output=True, text=True, env=bytecode_written())
    if made.returncode:
        pytest.skip(f"the tiny Llama could not be written in vLLM's environment: {made.stderr[-500:]}")
    server = FakeEndpoint().start()
    try:
        from bleu_gui.cli.bleu_score import run

        code = run([str(a) for a in judge_args(corpus, folder / "cache.sqlite", server, model,
                                               "--llm-batch-out", folder / "batch")])
        assert code == 0 and server.seen == []  # handed off: nothing reached the endpoint, not even /models
    finally:
        server.stop()
    shard = folder / "batch" / "requests-00001.jsonl"
    stray = dict(lines_of(shard)[0], custom_id="f" * 64)
    stray["body"] = dict(stray["body"], model="no-such-model")
    given = write_lines(folder / "given.jsonl", lines_of(shard) + [stray])
    ran = subprocess.run([vllm_python, "-m", "vllm.entrypoints.openai.run_batch", "-i", str(given), "-o",
                          str(folder / "out.jsonl"), "--model", str(model), "--served-model-name", str(model),
                          "--structured-outputs-config", '{"backend": "xgrammar", "disable_any_whitespace": true}',
                          "--max-model-len", "2048", "--gpu-memory-utilization", "0.1"],
                         capture_output=True, text=True, env=bytecode_written(), cwd=folder)
    assert ran.returncode == 0, ran.stderr[-3000:]  # vLLM exits 0 even with error lines
    return {"folder": folder, "model": model, "cache": folder / "cache.sqlite", "batch": folder / "batch",
            "out": folder / "out.jsonl"}


def test_vllms_batch_output_is_imported_by_key_scores_as_asked_live_and_the_run_then_sends_nothing(
        vllm_run, corpus, endpoint, capsys, tmp_path):
    batch, out = vllm_run["batch"], vllm_run["out"]
    manifest = json.loads((batch / "manifest.json").read_text())
    shard = batch / "requests-00001.jsonl"
    assert manifest["requests"] == 2 * N and manifest["judge"] == "mqm" and manifest["model"] == str(vllm_run["model"])
    assert manifest["shards"] == [{"file": shard.name, "requests": 2 * N,
                                   "sha256": hashlib.sha256(shard.read_bytes()).hexdigest()}]
    outputs = lines_of(out)
    assert len(outputs) == 2 * N + 1 and [o for o in outputs if o["response"]["status_code"] != 200] != []
    code, printed, err = cli(capsys, *judge_args(corpus, vllm_run["cache"], endpoint, vllm_run["model"],
                                                 "--llm-batch-in", out, "-sl", "-f", "json"))
    assert code == 0, err
    assert f"LLM batch: {2 * N} answers imported into the judge's cache from {2 * N + 1} output lines" in err
    assert re.search(r"LLM batch: 1 line the engine answered with an error, left out .*status 404: The model "
                     r"`no-such-model` does not exist", err)
    assert endpoint.seen == []  # every answer from the batch: nothing asked
    batch_scores = sentence_scores(printed)
    assert "via:openai-batch" in printed
    # The same answers asked live (an endpoint that answers each request as vLLM did): the bodies it gets are the
    # batch's, byte for byte as JSON, and the scores are the imported run's.
    by_body = {json.dumps(r["body"], sort_keys=True): o["response"]["body"]["choices"][0]["message"]["content"]
               for r, o in zip(lines_of(shard), outputs)}

    def as_vllm_did(seen):
        if seen.route.endswith("/models"):
            return Reply(body=json.dumps({"data": [{"id": str(vllm_run["model"])}]}).encode())
        return Reply(body=chat_reply(by_body[json.dumps(json.loads(seen.body), sort_keys=True)]))

    endpoint.answer = as_vllm_did
    code, live, err = cli(capsys, *judge_args(corpus, tmp_path / "live.sqlite", endpoint, vllm_run["model"], "-sl",
                                              "-f", "json"))
    assert code == 0, err
    assert len(endpoint.chats()) == 2 * N
    assert sorted(json.loads(s.body)["messages"][1]["content"] for s in endpoint.chats()) == \
        sorted(r["body"]["messages"][1]["content"] for r in lines_of(shard))
    assert sentence_scores(live) == batch_scores and "via:openai-compatible" in live
    # A complete import: the next run, and another export, find nothing missing.
    code, _, err = cli(capsys, *judge_args(corpus, vllm_run["cache"], endpoint, vllm_run["model"], "--llm-batch-out",
                                           tmp_path / "again"))
    assert code == 0 and "nothing to hand off: the judge's cache answers every request" in err
    assert not (tmp_path / "again").exists()


@pytest.fixture
def exported(capsys, corpus, endpoint, tmp_path):
    """A batch exported (no engine needed): the cache, the folder, its requests."""
    cache, folder = tmp_path / "cache.sqlite", tmp_path / "batch"
    export(capsys, corpus, cache, endpoint, folder)
    return cache, folder, lines_of(folder / "requests-00001.jsonl")


def _import(cache, *files):
    store = AnswerCache(cache)
    try:
        return import_batch(store, files)
    finally:
        store.close()


def test_an_engines_error_lines_and_a_cut_file_are_said_and_the_rest_is_imported(exported, tmp_path):
    cache, _folder, requests = exported
    rows = vllm_like(requests)
    rows[3]["response"] = {"status_code": 500, "request_id": "x", "body": {"error": {"message": "engine died"}}}
    text = "\ufeff" + "".join(json.dumps(r) + "\r\n" for r in rows)  # a BOM and CRLF, as a Windows tool saves it
    cut = tmp_path / "cut.jsonl"
    cut.write_text(text[:-40], encoding="utf-8")  # the last line cut in the middle (a copy that stopped)
    done = _import(cache, cut)
    assert done.kept == len(requests) - 2 and done.failed.count == 1 and done.unread.count == 1
    said = done.said()
    assert "status 500: engine died" in said[1] and f"{cut}: line 4" in said[1]
    assert f"{cut}: line {len(requests)}" in said[2] and "not JSON" in said[2]
    assert all("\n" not in line for line in said)


def test_ids_of_another_run_and_a_shard_edited_after_export_are_refused(exported, capsys, corpus, endpoint,
                                                                      tmp_path):
    cache, folder, requests = exported
    output = write_lines(tmp_path / "out.jsonl", vllm_like(requests))
    other = _import(tmp_path / "other.sqlite", output)  # a cache that handed none of them off
    assert other.kept == 0 and other.unknown.count == len(requests)
    assert "answer no request this cache handed off" in other.said()[1]
    shard = folder / "requests-00001.jsonl"
    shard.write_text(shard.read_text("utf-8").replace("translation", "translaton", 1), encoding="utf-8")
    edited = _import(cache, output)
    assert edited.kept == 0 and edited.edited.count == len(requests)
    assert "was changed after the export (its sha256 differs)" in edited.said()[1]


def test_half_an_output_imported_leaves_the_next_export_the_other_half(exported, capsys, corpus, endpoint,
                                                                       tmp_path):
    cache, _folder, requests = exported
    half = write_lines(tmp_path / "half.jsonl", vllm_like(requests[: len(requests) // 2]))
    assert _import(cache, half).kept == len(requests) // 2
    assert _import(cache, half).had == len(requests) // 2  # again: nothing new, nothing lost
    _, err = export(capsys, corpus, cache, endpoint, tmp_path / "rest")
    rest = lines_of(tmp_path / "rest" / "requests-00001.jsonl")
    assert [r["custom_id"] for r in rest] == [r["custom_id"] for r in requests[len(requests) // 2:]]
    assert f"{len(rest)} requests of the LLM judge written" in err and endpoint.seen == []
    # A folder that holds a batch already is not written over.
    code, _, err = cli(capsys, *judge_args(corpus, cache, endpoint, "tiny-llama", "--llm-batch-out", tmp_path / "rest"))
    assert code == 2 and "a batch is written into a new or empty folder" in err


def test_a_batch_needs_the_model_named_and_the_flags_their_metric(capsys, corpus, endpoint, tmp_path):
    code, _, err = cli(capsys, corpus / "ref1.txt", "-i", corpus / "sys1.txt", "--src", corpus / "src.txt", "-m", "llm",
                       "--llm-endpoint", endpoint.base, "--llm-cache", tmp_path / "c.sqlite",
                       "--llm-batch-out", tmp_path / "b")
    assert code == 2 and "the model must be named (--llm-model)" in err and endpoint.seen == []
    code, _, err = cli(capsys, corpus / "ref1.txt", "-i", corpus / "sys1.txt", "--llm-batch-in", tmp_path / "x.jsonl")
    assert code == 2 and "--llm-batch-in is the LLM judge's: add llm to the metrics" in err
    code, _, err = cli(capsys, corpus / "ref1.txt", "-i", corpus / "sys1.txt", "--llm-batch-shard", "10")
    assert code == 2 and "--llm-batch-shard sizes the shards of --llm-batch-out" in err


def test_shards_split_at_the_size_asked_and_each_is_signed(capsys, corpus, endpoint, tmp_path):
    _, err = export(capsys, corpus, tmp_path / "c.sqlite", endpoint, tmp_path / "b", "tiny-llama",
                    "--llm-batch-shard", "5")
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert [s["requests"] for s in manifest["shards"]] == [5, 5, 5, 1] and manifest["requests"] == 2 * N
    for s in manifest["shards"]:
        assert s["sha256"] == hashlib.sha256((tmp_path / "b" / s["file"]).read_bytes()).hexdigest()
    assert "(4 shards, manifest manifest.json)" in err
    assert endpoint.seen == []  # an export asks the endpoint nothing, not even its models


def test_the_window_exports_the_judges_batch_without_asking_and_reads_the_answers_back(qtbot, window, corpus, endpoint,
                                                                                     tmp_path):
    # The judge set up in the dock but not ticked (its texts not sent): File ▸ Export LLM batch… writes what it would
    # ask; the engine's output imported, ticking the judge scores every segment from the cache, sending nothing.
    window.run_actions.open_files([corpus / "sys1.txt", corpus / "sys2.txt"], [corpus / "ref1.txt"],
                                  source=corpus / "src.txt")
    qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy)
    group = window.settings_panel.group("llm")
    for name, value in (("model", "tiny-llama"), ("endpoint", endpoint.base), ("cache", str(tmp_path / "c.sqlite"))):
        group.fields[name].set(value)
    said, failed = [], []
    window.batches.said.connect(said.append)
    window.batches.failed.connect(failed.append)
    window.batches.export(window.controller.whole_run, tmp_path / "batch")
    qtbot.waitUntil(lambda: bool(said or failed))
    assert failed == [] and said[0].startswith(f"{2 * N} requests of the LLM judge written to {tmp_path / 'batch'}")
    requests = lines_of(tmp_path / "batch" / "requests-00001.jsonl")
    out = write_lines(tmp_path / "out.jsonl", vllm_like(requests))
    window.batches.import_outputs(window.controller.whole_run, [str(out)])
    qtbot.waitUntil(lambda: len(said) == 2)
    assert said[1].startswith(f"LLM batch: {2 * N} answers imported into the judge's cache")
    group.setChecked(True)
    qtbot.waitUntil(lambda: any(m.key == "llm" for m in window.controller.run.metrics) and not window.jobs.busy,
                    timeout=60_000)
    run = window.controller.run
    k = next(i for i, m in enumerate(run.metrics) if m.key == "llm")
    assert "via:openai-batch" in run.metrics[k].signature() and endpoint.seen == []
    assert all(s.results[k].corpus.score == 0.0 for s in run.systems)  # every answer: no error
