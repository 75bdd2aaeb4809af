"""The LLM judge against a real OpenAI-compatible server, offline: llama.cpp's llama-server (built once per machine,
tests/conftest.py) serving a tiny random-weight model (scripts/tiny_gguf.py). Random weights say random things: the
tests check our side — answers of the schema read, the cache (a re-open sends no request), cancel, progress, the
key never written, and each failure (a server stopped mid-run, a 500, a reply past the timeout, an answer cut by
max_tokens, a missing key, an unknown model, a server that is not there or not an API) said in one line with the
finished segments kept. Faults the server itself never makes are made by a proxy in front of it."""

from __future__ import annotations

import http.server
import json
import sqlite3
import threading
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bleu_gui.core.errors import Cancelled, InputError
from bleu_gui.core.inputs.text_files import SegmentFile
from bleu_gui.core.metrics.llm.config import LlmConfig
from bleu_gui.core.metrics.llm.metric import LlmJudge
from bleu_gui.core.metrics.status import status_to

from .conftest import DATA, script

# The first test waits for llama-server's build (.ci/run starts it early; a slow machine may still be at it): it may
# take longer than the 20 minutes the suite gives a test.
pytestmark = [pytest.mark.xdist_group("llm"), pytest.mark.timeout(3600)]
serving = script("llama_server")

GERMAN = ["Das Haus ist klein.", "Der Hund bellt laut, und die Katze schläft.", "Ich habe 3,5 kg Äpfel gekauft."]
ENGLISH = ["The house is small.", "The dog barks loudly and the cat sleeps.", "I bought 3.5 kg of apples."]


def shared_lines(folder: str, name: str, n: int) -> list[str]:
    path = DATA / folder / name
    if not path.is_file():
        pytest.skip(f"{path} is absent (the shared data sets: ../shared/data)")
    return path.read_text(encoding="utf-8").splitlines()[:n]


@pytest.fixture(scope="module")
def server(llama_server_binary, tiny_gguf):
    with serving.serving(llama_server_binary, str(tiny_gguf)) as running:
        yield running


class Proxy(http.server.ThreadingHTTPServer):
    """Forwards to the real server, counting the requests, and makes the faults it is told to (see the module)."""

    daemon_threads = True

    def __init__(self, upstream: str):
        super().__init__(("127.0.0.1", 0), _Forward)
        self.upstream = upstream
        self.requests: list[str] = []
        self.fail_next = 0          # answer that many requests with a 500 (Retry-After: 0)
        self.not_json = False       # answer /models with an HTML page
        self.held = threading.Event()
        self.hold = False           # keep a chat request waiting until ``held`` is set
        self.old_server = False     # refuse response_format json_schema with a 400, as a server that predates it
        self.formats: list[str] = []
        self.asked: list[str] = []  # each chat request's last message: which segment it asks about
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def chats(self) -> int:
        return sum(p.endswith("/chat/completions") for p in self.requests)


class _Forward(http.server.BaseHTTPRequestHandler):
    server: Proxy

    def log_message(self, *args: object) -> None:
        return None

    def _reply(self, code: int, body: bytes, kind: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def _forward(self, body: bytes | None) -> None:
        proxy = self.server
        proxy.requests.append(self.path)
        if proxy.not_json and self.path.endswith("/models"):
            return self._reply(200, b"<html><body>It works!</body></html>", "text/html")
        if proxy.fail_next > 0 and body is not None:
            proxy.fail_next -= 1
            return self._reply(500, b'{"error": {"message": "overloaded"}}', "application/json", {"Retry-After": "0"})
        if body is not None:
            chat = json.loads(body)
            proxy.formats.append(chat["response_format"]["type"])
            proxy.asked.append(chat["messages"][-1]["content"])
            if proxy.old_server and proxy.formats[-1] == "json_schema":
                return self._reply(400, b'{"error": {"message": "response_format: json_schema is not supported"}}',
                                   "application/json")
        if proxy.hold and body is not None:
            proxy.held.wait()
        path = self.path.removeprefix("/v1")
        request = urllib.request.Request(proxy.upstream + path, data=body, method=self.command,
                                         headers={k: v for k, v in self.headers.items()
                                                  if k.lower() in ("content-type", "authorization")})
        try:
            with urllib.request.urlopen(request, timeout=300) as answer:
                self._reply(answer.status, answer.read(), answer.headers.get("Content-Type", ""))
        except urllib.error.HTTPError as exc:
            self._reply(exc.code, exc.read(), exc.headers.get("Content-Type", ""))

    def do_GET(self) -> None:
        self._forward(None)

    def do_POST(self) -> None:
        self._forward(self.rfile.read(int(self.headers.get("Content-Length", 0))))


@pytest.fixture
def proxy(server):
    running = Proxy(server.base)
    yield running
    running.held.set()
    running.shutdown()
    running.server_close()


def judge(base: str, cache: Path, source: list[str], languages: tuple[str, str] = ("de", "en"),
          **settings: Any) -> LlmJudge:
    config = LlmConfig(endpoint=base, cache=str(cache), **settings).for_target_language(languages)[0]
    return LlmJudge(config, len(source), source)


def cached_rows(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT COUNT(*) FROM answers").fetchone()[0])


def system(lines: list[str], name: str = "sys") -> SegmentFile:
    return SegmentFile(Path(f"{name}.txt"), lines, "utf-8")


@pytest.mark.parametrize("judgement", ["mqm", "esa"])
def test_answers_of_the_schema_are_read_on_every_language(server, proxy, tmp_path, judgement):
    # ESA's answers from the random model run long (its free-text spans): one segment a language, not two or three.
    n, k = (3, 2) if judgement == "mqm" else (1, 1)
    cases = [(GERMAN[:n], ENGLISH[:n], ("de", "en"))]
    cases.append((shared_lines("wmt22-en-ja", "src.txt", k), shared_lines("wmt22-en-ja", "sys1.txt", k), ("en", "ja")))
    cases.append((shared_lines("wmt22-zh-en-2ref", "src.txt", k), shared_lines("wmt22-zh-en-2ref", "sys1.txt", k),
                  ("zh", "en")))
    said: list[str] = []
    fractions: list[float] = []  # of one system's request
    read = 0
    for source, candidate, languages in cases:
        metric = judge(proxy.base, tmp_path / "cache.sqlite", source, languages, judge=judgement)
        with status_to(said.append):
            stats = metric.system_statistics(system(candidate), fractions.append)
        judged = metric.judged(candidate)
        assert not [j.refused for j in judged if j.answer is not None and j.refused], "answers of the schema"
        for j, score in zip(judged, stats):
            if j.answer is None:  # cut at max_tokens: unscored
                assert score[1] == 0
                continue
            assert score[1] == 1
            read += 1
            if judgement == "esa":
                assert 0 <= score[0] <= 100 and score[0] == json.loads(j.answer, strict=False)["score"]
            else:
                assert score[0] <= 0
            for error in j.errors:  # placed spans are the candidate's own text
                if error.start is not None:
                    assert candidate[judged.index(j)][error.start:error.end] == error.text
        assert fractions[-1] == 1.0 and fractions == sorted(fractions)
        fractions.clear()
    assert proxy.chats() == n + k + k and read > 0  # one request a segment, none twice; answers read and checked
    assert any(line.startswith(f"LLM judge: {n} of {n} segments, ") and line.endswith(" left") for line in said)


def test_a_cached_reopen_sends_no_request_even_with_the_server_gone(llama_server_binary, tiny_gguf, tmp_path):
    cache = tmp_path / "cache.sqlite"
    with serving.serving(llama_server_binary, str(tiny_gguf)) as alone:
        first = judge(alone.base, cache, GERMAN, model="tiny")
        stats = first.system_statistics(system(ENGLISH))
        kept = cached_rows(cache)
    again = judge(alone.base, cache, GERMAN, model="tiny")  # the server is stopped: nothing could answer
    assert np.array_equal(again.system_statistics(system(ENGLISH)), stats, equal_nan=True)
    assert kept == 3 - sum(j.answer is None for j in first.judged(ENGLISH))
    assert any("read from the cache" in n for n in again.work_notes)
    assert again.signature() == first.signature()


def test_a_cancel_keeps_the_answers_received_and_the_next_run_asks_only_the_rest(server, proxy, tmp_path):
    cache = tmp_path / "cache.sqlite"
    source = GERMAN * 4  # 12 segments: the same texts, asked once each
    candidate = [f"{line} ({k})" for k, line in enumerate(ENGLISH * 4)]

    def stop_after_two(fraction: float) -> None:
        if fraction >= 2 / 12:
            raise Cancelled()

    metric = judge(proxy.base, cache, source, concurrency=1, max_tokens=4096)
    with pytest.raises(Cancelled):
        metric.system_statistics(system(candidate), stop_after_two)
    kept = cached_rows(cache)
    assert 2 <= kept < 12
    before = len(proxy.asked)
    metric = judge(proxy.base, cache, source, concurrency=1, max_tokens=4096)
    metric.system_statistics(system(candidate))
    # The request the cancel cut may reach the proxy late, so segments are counted, not requests: the next run
    # asks each segment not kept (all 12 are cached after it) and none of those kept.
    assert cached_rows(cache) == 12
    assert len(set(proxy.asked[before:])) == 12 - kept


def test_a_500_is_retried_as_retry_after_says_and_one_that_persists_is_one_line(server, proxy, tmp_path):
    proxy.fail_next = 1
    metric = judge(proxy.base, tmp_path / "cache.sqlite", GERMAN[:1], concurrency=1)
    metric.system_statistics(system(ENGLISH[:1]))
    assert proxy.chats() == 2  # the 500, then the answer
    proxy.fail_next = 100
    metric = judge(proxy.base, tmp_path / "cache.sqlite", GERMAN, concurrency=1)
    with pytest.raises(InputError) as failed:
        metric.system_statistics(system(ENGLISH))
    message = str(failed.value)
    assert "\n" not in message and "refused the request (500" in message and "overloaded" in message
    assert "0 of 2 segments asked were judged and kept in the cache" in message


def test_a_reply_past_the_timeout_is_one_line(server, proxy, tmp_path):
    proxy.hold = True
    metric = judge(proxy.base, tmp_path / "cache.sqlite", GERMAN[:1], timeout=1)
    with pytest.raises(InputError, match="gave no answer within 1 s"):
        metric.system_statistics(system(ENGLISH[:1]))


def test_an_answer_cut_by_max_tokens_is_counted_unscored_and_not_kept(server, proxy, tmp_path):
    cache = tmp_path / "cache.sqlite"
    metric = judge(proxy.base, cache, GERMAN, max_tokens=16)
    stats = metric.system_statistics(system(ENGLISH))
    assert stats[:, 1].sum() == 0 and cached_rows(cache) == 0
    assert any("3 answers cut at 16 tokens (sys.txt 1, 2, 3)" in n for n in metric.work_notes), metric.work_notes


def test_a_server_stopped_mid_run_keeps_the_finished_segments(llama_server_binary, tiny_gguf, tmp_path):
    cache = tmp_path / "cache.sqlite"
    source = [f"{line} ({k})" for k, line in enumerate(GERMAN * 3)]
    alone = serving.start(llama_server_binary, str(tiny_gguf))
    try:
        def stop_server(fraction: float) -> None:
            if fraction > 0:
                alone.stop()

        metric = judge(alone.base, cache, source, concurrency=1, max_tokens=4096)
        with pytest.raises(InputError) as failed:
            metric.system_statistics(system(ENGLISH * 3), stop_server)
    finally:
        alone.stop()
    message = str(failed.value)
    kept = cached_rows(cache)
    assert kept >= 1 and f"{kept} of 9 segments asked were judged and kept in the cache" in message
    assert "\n" not in message and ("does not answer" in message or "dropped the connection" in message)


def test_a_key_is_needed_read_from_the_environment_or_the_keyring_and_never_written(
        llama_server_binary, tiny_gguf, tmp_path, monkeypatch):
    import keyring
    from keyring.backend import KeyringBackend

    secret = "sk-test-7f3a9c"
    cache = tmp_path / "cache.sqlite"
    with serving.serving(llama_server_binary, str(tiny_gguf), extra=("--api-key", secret)) as locked:
        with pytest.raises(InputError, match="needs an API key"):
            judge(locked.base, cache, GERMAN).system_statistics(system(ENGLISH))
        monkeypatch.delenv("JUDGE_KEY", raising=False)
        with pytest.raises(InputError, match="JUDGE_KEY is not set and (the keyring has no entry JUDGE_KEY|no OS keyring "
                                             "can be read here)"):
            judge(locked.base, cache, GERMAN, key_env="JUDGE_KEY").system_statistics(system(ENGLISH))

        class Stored(KeyringBackend):
            priority = 1

            def get_password(self, service: str, username: str) -> str | None:
                return secret if (service, username) == ("bleu-gui", "JUDGE_KEY") else None

            def set_password(self, service: str, username: str, password: str) -> None:
                raise NotImplementedError

        before = keyring.get_keyring()
        keyring.set_keyring(Stored())
        try:
            metric = judge(locked.base, cache, GERMAN, key_env="JUDGE_KEY")
            metric.system_statistics(system(ENGLISH))
        finally:
            keyring.set_keyring(before)
        monkeypatch.setenv("JUDGE_KEY", secret)
        by_env = judge(locked.base, tmp_path / "other.sqlite", GERMAN, key_env="JUDGE_KEY")
        by_env.system_statistics(system(ENGLISH))
    said = [cache.read_bytes(), (tmp_path / "other.sqlite").read_bytes(), metric.signature().encode(),
            "\n".join((*metric.notes, *metric.work_notes)).encode(), json.dumps(metric.config.to_dict()).encode()]
    assert not [s for s in said if secret.encode() in s]


def test_an_unknown_model_a_silent_endpoint_and_a_non_api_are_one_line_each(server, proxy, tmp_path):
    cache = tmp_path / "cache.sqlite"
    with pytest.raises(InputError, match="offers no model nope \\(it offers tiny"):
        judge(proxy.base, cache, GERMAN, model="nope").system_statistics(system(ENGLISH))
    closed = f"http://127.0.0.1:{serving.free_port()}/v1"
    with pytest.raises(InputError, match="does not answer \\(.*\\): is the server running"):
        judge(closed, cache, GERMAN).system_statistics(system(ENGLISH))
    proxy.not_json = True
    with pytest.raises(InputError, match="answered something that is not JSON \\(text/html"):
        judge(proxy.base, cache, GERMAN).system_statistics(system(ENGLISH))
    assert proxy.chats() == 0 and cached_rows(cache) == 0


def test_a_server_that_refuses_json_schema_is_asked_for_json_object_with_the_schema(server, proxy, tmp_path):
    proxy.old_server = True
    metric = judge(proxy.base, tmp_path / "cache.sqlite", GERMAN, concurrency=1, max_tokens=4096)
    stats = metric.system_statistics(system(ENGLISH))
    assert proxy.formats == ["json_schema", "json_object", "json_object", "json_object"]  # refused once, remembered
    assert not [j.refused for j in metric.judged(ENGLISH) if j.answer is not None and j.refused]
    assert stats[:, 1].sum() == sum(j.answer is not None for j in metric.judged(ENGLISH))
