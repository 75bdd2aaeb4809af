"""Trust round 6, the LLM judge's one HTTP policy: credentials only to their origin, a deadline per answer, a
bounded reply read through the one door for JSON, Ctrl+C at once — each case failed before its fix, against a
scripted endpoint on 127.0.0.1 (tests/fake_endpoint.py)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bleu_gui.core.errors import InputError
from bleu_gui.core.inputs.text_files import SegmentFile
from bleu_gui.core.metrics.llm.answers import read_answer
from bleu_gui.core.metrics.llm.cache import AnswerCache
from bleu_gui.core.metrics.llm.config import LlmConfig, is_loopback
from bleu_gui.core.metrics.llm.metric import LlmJudge
from bleu_gui.core.metrics.llm.placement import place_quote

from .conftest import ROOT, cli
from .fake_endpoint import MODELS, FakeEndpoint, Reply, chat_reply

SOURCE = ["Der Hund bellt.", "Die Katze schläft.", "Ein Vogel singt.", "Das Haus ist rot."]
TARGET = ["The dog barks.", "The cat sleeps.", "A bird sings.", "The house is red."]
KEY = "sk-test-0123456789abcdefghijklmnop"


@pytest.fixture
def endpoint():
    served: list[FakeEndpoint] = []

    def make(answer=None) -> FakeEndpoint:
        served.append(FakeEndpoint(answer).start())
        return served[-1]

    yield make
    for s in served:
        s.stop()


def _judge(base: str, tmp_path: Path, n: int = 1, **settings) -> LlmJudge:
    config = LlmConfig(endpoint=base, model="fake", cache=str(tmp_path / "answers.sqlite"), **settings)
    return LlmJudge(config, n, SOURCE[:n])


def _scores(judge: LlmJudge, n: int = 1) -> np.ndarray:
    return judge.system_statistics(SegmentFile(Path("mt.txt"), TARGET[:n], "utf-8"))


def _rows(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT COUNT(*) FROM answers").fetchone()[0])


# -- 5. credentials go only to their origin --------------------------------------------------------------------
def test_a_redirect_to_another_origin_is_not_followed_and_the_key_never_leaves(endpoint, tmp_path, monkeypatch):
    other = endpoint()
    redirecting = endpoint(lambda seen: Reply(302, headers={"Location": other.base + seen.path[3:]}))
    monkeypatch.setenv("JUDGE_KEY", KEY)
    judge = _judge(redirecting.base, tmp_path, key_env="JUDGE_KEY")
    with pytest.raises(InputError) as refused:
        _scores(judge)
    said = str(refused.value)
    assert "redirects to another origin, http://127.0.0.1:" in said and "not followed" in said
    assert "\n" not in said and KEY not in said
    assert other.seen == []  # nothing, and so no key, reached the other origin
    assert redirecting.seen[0].headers["authorization"] == f"Bearer {KEY}"


def test_a_redirect_within_the_origin_keeps_the_post_and_a_post_turned_get_is_refused(endpoint, tmp_path,
                                                                                     monkeypatch):
    monkeypatch.setenv("JUDGE_KEY", KEY)

    def moved(status: int):
        def answer(seen):
            if seen.path.startswith("/v1/"):
                return Reply(status, headers={"Location": "/v2/" + seen.path[4:]})
            return Reply(body=MODELS if seen.route.endswith("/models") else chat_reply('{"errors": []}'))
        return answer

    kept = endpoint(moved(307))
    assert _scores(_judge(kept.base, tmp_path, key_env="JUDGE_KEY"))[0].tolist() == [0.0, 1.0]
    followed = [s for s in kept.seen if s.path == "/v2/chat/completions"]
    assert [s.method for s in followed] == ["POST"] and followed[0].headers["authorization"] == f"Bearer {KEY}"
    turned = endpoint(moved(302))
    with pytest.raises(InputError, match=r"redirects the POST as a GET \(302\): not followed"):
        _scores(_judge(turned.base, tmp_path / "2", key_env="JUDGE_KEY"))
    assert not [s for s in turned.seen if s.path.startswith("/v2/chat")]


# -- 16. a deadline per answer -----------------------------------------------------------------------------------
def test_a_server_that_drips_its_answer_is_cut_off_at_the_deadline(endpoint, tmp_path):
    body = chat_reply('{"errors": []}') + b" " * 400
    dripping = endpoint(lambda seen: Reply(body=MODELS) if seen.route.endswith("/models")
                        else Reply(body=body, drip=1, every=0.5))
    with pytest.raises(InputError, match=r"gave no answer within 2 s \(the timeout"):
        _scores(_judge(dripping.base, tmp_path, timeout=2))
    assert dripping.dripped < len(body)  # given up while the server was still dripping


# -- 12, 13. what the door refuses: never a traceback, never cached -------------------------------------------
HOSTILE = ["[" * 1000 + "]" * 1000, '{"errors": [], "score": ' + "9" * 5000 + "}",
           '{"errors": [], "score": 40, "score": 100}']


@pytest.mark.parametrize("content", HOSTILE, ids=["nested-1000", "5000-digits", "key-twice"])
def test_an_answer_the_door_refuses_is_unscored_not_cached_and_a_rerun_never_crashes(endpoint, tmp_path, content):
    hostile = endpoint(lambda seen: Reply(body=MODELS if seen.route.endswith("/models") else chat_reply(content)))
    judge = _judge(hostile.base, tmp_path, judge="esa")
    assert _scores(judge)[0].tolist()[1] == 0.0  # unscored
    assert _rows(tmp_path / "answers.sqlite") == 0
    assert any("not kept in the cache" in note for note in judge.work_notes)
    hostile.stop()
    with pytest.raises(InputError, match="does not answer"):  # asked again (nothing was kept), in one line
        _scores(_judge(hostile.base, tmp_path, judge="esa"))


def test_an_answer_cached_by_an_older_version_reads_as_unscored(tmp_path):
    judge = _judge("http://127.0.0.1:9/v1", tmp_path, judge="esa")
    (key,) = judge.judge.keys([(SOURCE[0], TARGET[0])], None)
    AnswerCache(tmp_path / "answers.sqlite").put(key, HOSTILE[0], "fake")
    stats = _scores(judge)  # read from the cache: no request (port 9 answers nothing)
    assert stats[0].tolist()[1] == 0.0 and "nested more than" in judge.judged(TARGET[:1])[0].refused


def test_a_reply_body_the_door_refuses_is_not_json_in_one_line(endpoint, tmp_path):
    body = b'{"usage": {"t": ' + b"9" * 5000 + b'}, "choices": []}'
    odd = endpoint(lambda seen: Reply(body=MODELS if seen.route.endswith("/models") else body))
    with pytest.raises(InputError, match=r"/chat/completions answered something that is not JSON") as refused:
        _scores(_judge(odd.base, tmp_path))
    assert "\n" not in str(refused.value)


# -- 14, 21. URLs -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("url", ["http://127.0.0.1:99999/v1", "http://127.0.0.1:abc/v1", "http://[::1/v1",
                                 "http://user:s3cret@[::1/v1"])
def test_an_endpoint_that_is_no_url_is_one_line(tmp_path, capsys, url):
    (tmp_path / "src.txt").write_text("Hallo\n", encoding="utf-8")
    (tmp_path / "mt.txt").write_text("Hello\n", encoding="utf-8")
    code, out, err = cli(capsys, "-i", tmp_path / "mt.txt", "--src", tmp_path / "src.txt", "-m", "llm",
                         "--llm-endpoint", url, "--llm-model", "fake")
    assert code == 2 and out == "" and "Traceback" not in err and err.count("\n") == 1
    assert "--llm-endpoint" in err and "s3cret" not in err


def test_a_query_is_kept_after_the_path_it_is_joined_to(endpoint, tmp_path):
    served = endpoint()
    assert _scores(_judge(served.base + "?api-version=2024-06-01", tmp_path))[0].tolist() == [0.0, 1.0]
    assert [s.path for s in served.seen] == ["/v1/models?api-version=2024-06-01",
                                              "/v1/chat/completions?api-version=2024-06-01"]


# -- 6, 20. what the judge says of itself --------------------------------------------------------------------
def test_a_key_given_as_the_variables_name_is_never_echoed(tmp_path, capsys):
    pasted = "Xk9pQ2mZ7rT4vB8nL1cW6yH3jF5dS0aE"
    (tmp_path / "src.txt").write_text("Hallo\n", encoding="utf-8")
    (tmp_path / "mt.txt").write_text("Hello\n", encoding="utf-8")
    code, out, err = cli(capsys, "-i", tmp_path / "mt.txt", "--src", tmp_path / "src.txt", "-m", "llm",
                         "--llm-key-env", pasted)
    assert code == 2 and pasted not in err and pasted[:6] not in err and "--llm-key-env" in err
    assert "looks like a key" in err


def test_this_machine_is_decided_by_the_address_a_host_names():
    def resolving_to(*addresses):
        return lambda name: list(addresses)

    def unresolvable(name):
        raise OSError("no such host")

    assert is_loopback("127.0.0.1") and is_loopback("[::1]") and is_loopback("127.8.9.10")
    assert is_loopback("localhost", resolving_to("127.0.0.1", "::1"))
    assert not is_loopback("127.attacker.example", unresolvable)  # spelt like a loopback address, is none
    assert not is_loopback("127.0.0.1.nip.io", resolving_to("203.0.113.7"))
    assert is_loopback("127.0.0.1.nip.io", resolving_to("127.0.0.1"))  # what it resolves to decides
    assert not is_loopback("judge.example.org", resolving_to("127.0.0.1", "203.0.113.7"))
    assert LlmConfig(endpoint="http://127.attacker.invalid/v1").notice().startswith(
        "LLM judge: the source and translation texts are sent to 127.attacker.invalid, off this machine")


# -- 24. answers as servers really send them ---------------------------------------------------------------------
def test_content_parts_are_read_and_a_score_of_minus_zero_is_zero(endpoint, tmp_path):
    parts = [{"type": "text", "text": '{"errors": [], '}, {"type": "text", "text": '"score": -0.0}'}]
    served = endpoint(lambda seen: Reply(body=MODELS if seen.route.endswith("/models") else chat_reply(parts)))
    judge = _judge(served.base, tmp_path, judge="esa")
    assert _scores(judge)[0].tolist() == [0.0, 1.0]
    text = judge.of_system(SegmentFile(Path("mt.txt"), TARGET[:1], "utf-8")).account(
        0, TARGET[0], _scores(judge)[0], []).explanation.sections[0].lines[-1]
    assert text == "score: the judge's own, 0 of 100"
    assert read_answer('{"errors": [], "score": -0.0}', "esa").score == 0.0  # type: ignore[union-attr]


# -- 23. where a quote lands ---------------------------------------------------------------------------------
def test_near_matches_take_the_passages_still_free_and_cover_the_whole_quote():
    candidate = "Die Matte liegt hier, die Matte liegt dort."
    first = place_quote("matte", candidate)
    assert first is not None and candidate[first[0]:first[1]] == "Matte" and first[0] == 4
    second = place_quote("matte", candidate, [first[:2]])
    assert second is not None and second[0] == candidate.index("Matte", 5)
    spaced = "He said   hello   there, twice."
    placed = place_quote("said hello there", spaced)
    assert placed is not None and spaced[placed[0]:placed[1]] == "said   hello   there"


# -- 15. Ctrl+C -------------------------------------------------------------------------------------------------
def test_ctrl_c_ends_the_command_at_once_and_keeps_the_answers_received(endpoint, tmp_path):
    answered: list[int] = []

    def answer(seen):
        if seen.route.endswith("/models"):
            return Reply(body=MODELS)
        if len(answered) < 2:
            answered.append(1)
            return Reply(body=chat_reply('{"errors": []}'))
        return Reply(body=chat_reply('{"errors": []}'), hold=True)  # the slowest requests: held until released

    served = endpoint(answer)
    (tmp_path / "src.txt").write_text("".join(f"Satz {k}.\n" for k in range(12)), encoding="utf-8")
    (tmp_path / "mt.txt").write_text("".join(f"Sentence {k}.\n" for k in range(12)), encoding="utf-8")
    cache = tmp_path / "answers.sqlite"
    command = [sys.executable, "-m", "bleu_gui.cli", "-i", str(tmp_path / "mt.txt"), "--src", str(tmp_path / "src.txt"),
               "-m", "llm", "--llm-endpoint", served.base, "--llm-model", "fake", "--llm-cache", str(cache),
               "--llm-concurrency", "4", "--llm-timeout", "3600"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as child:
        while served.held < 4:  # the condition: two answers in, four requests held
            assert child.poll() is None, child.communicate()
            served.release.wait(0.05)
        child.send_signal(signal.SIGINT)
        _out, err = child.communicate(timeout=600)
    assert not served.release.is_set()  # it ended while the held requests were still held
    assert child.returncode == 130 and "Traceback" not in err and err.strip().count("\n") == 0
    assert "interrupted" in err and _rows(cache) == 2


def test_the_bar_follows_the_segments_the_judge_has_answered(endpoint, tmp_path):
    """The judge's stage was given a third of its bar for binding, which costs it nothing: the bar said 32% beside
    'LLM judge: 4 of 1,000 segments'."""
    from bleu_gui.core import RunConfig
    from bleu_gui.core.inputs.corpus import Context
    from bleu_gui.core.metrics.bleu.config import BleuConfig
    from bleu_gui.core.metrics.status import status_to
    from bleu_gui.core.run.scoring import score_in_stages

    served = endpoint()
    n = 40
    source = SegmentFile(Path("src.txt"), [f"{SOURCE[k % 4]} ({k})" for k in range(n)], "utf-8")
    target = SegmentFile(Path("mt.txt"), [f"{TARGET[k % 4]} ({k})" for k in range(n)], "utf-8")
    reference = SegmentFile(Path("ref.txt"), [f"{TARGET[(k + 1) % 4]} ({k})" for k in range(n)], "utf-8")
    config = RunConfig((BleuConfig(), LlmConfig(endpoint=served.base, model="fake", concurrency=1,
                                                cache=str(tmp_path / "answers.sqlite"))))
    seen: list[tuple[str, float]] = []
    with status_to(lambda text: seen.append((text, -1.0))):
        for _stage in score_in_stages([target], [reference], config, context=Context(source=source),
                                      progress=lambda f: seen.append(("", f))):
            pass
    bar = 0.0
    for text, fraction in seen:
        if not text:
            bar = max(bar, fraction)
            continue
        if text.startswith("LLM judge: ") and " of " in text:
            answered = int(text.removeprefix("LLM judge: ").split(" of ")[0].replace(",", ""))
            assert bar <= answered / n + 0.1, (text, bar)  # never ahead of the answers by more than BLEU's stage
    assert bar == 1.0 and len(served.chats()) == n
