"""The LLM judge's side of an answer, on answers written by hand: reading them against the schema, placing the
quoted text on the candidate (German, Japanese, Russian), the segment's score worked by hand with MQM's weights,
the prompt and the signature. The requests themselves are tested against a real llama-server
(tests/test_llm_server.py)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from bleu_gui.core.errors import InputError
from bleu_gui.core.metrics.llm.answers import Judgement, Refused, read_answer, schema
from bleu_gui.core.metrics.llm.config import LlmConfig
from bleu_gui.core.metrics.llm.judging import Judge, api_key
from bleu_gui.core.metrics.llm.metric import LlmJudge, judged_segment
from bleu_gui.core.metrics.llm.placement import place_quote
from bleu_gui.core.metrics.llm.prompts import load_prompt, parse_prompt
from bleu_gui.core.metrics.mqm.config import MqmConfig


def mqm(*errors: tuple[str, str, str]) -> str:
    return json.dumps({"errors": [{"span": s, "category": c, "severity": v} for s, c, v in errors]},
                      ensure_ascii=False)


@pytest.mark.parametrize("content, why", [
    ("{\"errors\": [", "not JSON"),
    ("[]", "not a JSON object"),
    ("{\"errors\": [], \"score\": 3}", "unknown field 'score'"),
    ("{\"mistakes\": []}", "unknown field 'mistakes'"),
    (mqm(("x", "Accuracy/Mistranslation", "fatal")), "severity 'fatal'"),
    (mqm(("x", "Accuracy/Wrong", "major")), "category 'Accuracy/Wrong'"),
    ("{\"errors\": [{\"span\": \"x\", \"severity\": \"major\"}]}", "missing 'category'"),
    ("{\"errors\": [{\"span\": 3, \"category\": \"Other\", \"severity\": \"major\"}]}", "span is not a string"),
])
def test_an_answer_not_of_the_schema_says_why(content, why):
    read = read_answer(content, "mqm")
    assert isinstance(read, Refused) and why in read.why


def test_an_answer_is_read_leniently_where_a_server_lets_control_characters_through():
    # A raw newline inside a string (JSON forbids it; llama.cpp's grammar lets it through) and a Markdown fence.
    content = "```json\n{\"errors\": [{\"span\": \"Zeile\neins\", \"category\": \"Fluency/Grammar\", " \
              "\"severity\": \"minor\"}]}\n```"
    read = read_answer(content, "mqm")
    assert isinstance(read, Judgement)
    assert read.errors[0].span == "Zeile\neins" and read.errors[0].severity == "Minor"


@pytest.mark.parametrize("content, score", [
    ('{"errors": [], "score": 100}', 100.0), ('{"errors": [{"span": "a", "severity": "major"}], "score": 0}', 0.0)])
def test_esa_answers_carry_a_whole_score_from_0_to_100(content, score):
    read = read_answer(content, "esa")
    assert isinstance(read, Judgement) and read.score == score
    # Python's JSON reads Infinity, NaN and 1e400 as floats that are no whole number (they raised).
    for bad in ('{"errors": [], "score": 101}', '{"errors": [], "score": 7.5}', '{"errors": []}',
                '{"errors": [], "score": Infinity}', '{"errors": [], "score": NaN}', '{"errors": [], "score": 1e400}',
                '{"errors": [], "score": 1' + '0' * 400 + '}',
                '{"errors": [{"span": "a", "severity": "critical"}], "score": 5}'):
        assert isinstance(read_answer(bad, "esa"), Refused), bad


def test_the_schemas_bound_what_a_server_may_generate():
    for judge in ("mqm", "esa"):
        properties: Any = schema(judge)["properties"]
        errors = properties["errors"]
        assert errors["maxItems"] == 8 and errors["items"]["properties"]["span"]["maxLength"] == 200
    properties = schema("esa")["properties"]
    assert properties["score"] == {"type": "integer", "minimum": 0, "maximum": 100}


@pytest.mark.parametrize("quote, candidate, taken, expected", [
    # German: the exact occurrence; a second error quoting the same word lands on its second occurrence.
    ("Haus", "Das Haus neben dem Haus brennt.", [], (4, 8, "exact")),
    ("Haus", "Das Haus neben dem Haus brennt.", [(4, 8)], (19, 23, "exact")),
    # Japanese: no spaces; exact by code points.
    ("東京", "私は東京に住んでいます。", [], (2, 4, "exact")),
    # Russian with the spacing changed by the judge: the nearest passage.
    ("большой  дом", "Это большой дом у реки.", [], (4, 15, "nearest")),
    # A quote of another segment's text is not placed here.
    ("völlig andere Worte", "Das Haus brennt.", [], None),
    ("", "Das Haus brennt.", [], None),
])
def test_a_quote_is_placed_exactly_first_then_on_the_nearest_passage(quote, candidate, taken, expected):
    placed = place_quote(quote, candidate, taken)
    assert placed == expected
    if placed is not None and placed[2] == "exact":
        assert candidate[placed[0]:placed[1]] == quote


def test_a_segments_score_is_minus_the_weights_of_its_errors_worked_by_hand():
    candidate = "Der Hund bellt laut , und die Katze schläft"
    answer = mqm(("bellt laut", "Accuracy/Mistranslation", "major"),       # 5
                 (" ,", "Fluency/Punctuation", "minor"),                  # 0.1
                 ("Katze", "Style/Awkward", "minor"),                     # 1
                 ("the cat sleeps", "Non-translation", "major"))          # 25, quoted text not in the candidate
    judged = judged_segment(candidate, answer, "mqm", MqmConfig())
    assert judged.score == -31.1  # -(5 + 0.1 + 1 + 25), in exact decimal arithmetic as MQM's
    placed = [(e.start, e.end) for e in judged.errors]
    # The quote's space before the comma is not the error.
    assert placed[:3] == [(9, 19), (20, 21), (30, 35)] and placed[3] == (None, None)
    assert judged.unplaced == 1 and not judged.refused
    # The run's weights, not fixed ones.
    assert judged_segment(candidate, answer, "mqm", MqmConfig(major=10)).score == -36.1  # -(10 + 0.1 + 1 + 25)


def test_an_unread_or_cut_answer_leaves_the_segment_unscored():
    for answer, why in (("{\"errors\": ", "not JSON"), (None, "cut at the answer-token limit")):
        judged = judged_segment("text", answer, "mqm", MqmConfig())
        assert judged.score != judged.score and why in judged.refused  # NaN


def test_the_prompt_names_the_languages_and_fills_each_field_once():
    prompt = load_prompt("", "mqm")
    messages = prompt.messages("Er sagte {translation}.", "He said.", ("de", "en"))
    assert [m["role"] for m in messages] == ["system", "user"]
    user = messages[1]["content"]
    assert "German source:\nEr sagte {translation}." in user and "English translation:\nHe said." in user
    undeclared = load_prompt("", "esa").messages("a", "b", None)[1]["content"]
    assert "the target-language translation of the original text" in undeclared and "original translation" not in undeclared


def test_a_prompt_of_ones_own(tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_text("Judge {translation} of {source}.", encoding="utf-8")
    prompt = load_prompt(str(plain), "esa")
    assert prompt.system == "" and prompt.messages("s", "t", None) == [{"role": "user", "content": "Judge t of s."}]
    with pytest.raises(InputError, match="no \\{translation\\}"):
        parse_prompt("### system\nx\n### user\nJudge {source}.", "mine.txt")
    with pytest.raises(InputError, match="cannot be read"):
        load_prompt(str(tmp_path / "missing.txt"), "mqm")


def test_the_signature_says_model_api_prompt_sampling_and_schema(tmp_path):
    config = LlmConfig(model="tiny", cache=str(tmp_path / "c.sqlite")).validated()
    judge = Judge(config)
    prompt = load_prompt("", "mqm")
    digest = hashlib.sha256(f"{prompt.system}\0{prompt.user}".encode()).hexdigest()[:12]
    assert judge.signature() == f"model:tiny|via:openai-compatible|prompt:{digest}|temp:0|seed:1|schema:1"
    # With a paired test the resampling's seed is named apart from the judge's: every field of a signature once.
    metric = LlmJudge(config, 2, ["a", "b"], judge)
    fields = metric.signature(resampling={"bs": 1000, "seed": "12345"}).split("|")
    keys = [f.split(":")[0] for f in fields]
    assert len(keys) == len(set(keys)) and "seed:1" in fields and "bs:1000" in fields, fields
    assert "resampling-seed:12345" in fields, fields


def test_settings_are_checked_and_the_key_is_never_a_setting(monkeypatch):
    with pytest.raises(InputError, match="http:// or https://"):
        LlmConfig(endpoint="127.0.0.1:8080").validated()
    with pytest.raises(InputError, match="not the key itself"):
        LlmConfig(key_env="sk-abc123-def").validated()
    monkeypatch.delenv("BLEU_GUI_TEST_NO_KEY", raising=False)
    with pytest.raises(InputError, match="BLEU_GUI_TEST_NO_KEY is not set"):
        api_key("BLEU_GUI_TEST_NO_KEY")
    monkeypatch.setenv("BLEU_GUI_TEST_KEY", "sk-secret-123")
    config = LlmConfig(key_env="BLEU_GUI_TEST_KEY", endpoint="https://user:pw@api.example.com/v1?k=1")
    assert api_key(config.key_env) == "sk-secret-123"
    assert "sk-secret" not in json.dumps(config.to_dict())
    assert config.validated().shown_endpoint() == "https://api.example.com/v1"


def test_an_endpoint_off_this_machine_is_said_before_anything_is_sent():
    assert LlmConfig().notice() == ""
    assert LlmConfig(endpoint="http://localhost:11434/v1").notice() == ""
    said = LlmConfig(endpoint="https://api.openai.com/v1").notice()
    assert "sent to api.openai.com, off this machine" in said


def test_a_cache_that_cannot_be_used_is_said_once_and_the_judge_goes_on(tmp_path):
    from bleu_gui.core.metrics.llm.cache import AnswerCache

    (tmp_path / "taken").mkdir()  # a folder where the file should be: SQLite cannot open it
    cache = AnswerCache(tmp_path / "taken")
    cache.put(b"k", "{}", "tiny")
    assert cache.get([b"k"]) == {}
    assert cache.problem is not None and cache.problem.startswith(f"LLM judge: the cache {tmp_path / 'taken'} cannot")
    assert cache.problem.endswith("answers are asked and not kept")
    working = AnswerCache(tmp_path / "c.sqlite")
    working.put(b"k", '{"errors": []}', "tiny")
    assert working.get([b"k", b"other"]) == {b"k": '{"errors": []}'} and working.problem is None
