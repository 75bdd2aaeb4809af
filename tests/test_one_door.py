"""Trust round 6: one door for untrusted JSON and one validation of a human rating, used by every reader. The door's
own hostile cases first (depth, digits, size, duplicate keys, NaN, surrogates, U+2028), then each reader shown to go
through it — score files, annotations, WMT's and Pearmut's ratings, reviews, sessions, tables, MetricX, COMET's
JSON — and each rating reader and the desk shown to share one range check. Each case here failed before its fix
(a traceback, a silently kept last key, a score of 150 read)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bleu_gui.core.errors import InputError
from bleu_gui.core.inputs.ratings import rating_score
from bleu_gui.core.inputs.untrusted_json import JsonRefused, Limits, json_lines, parse
from bleu_gui.core.output.review_file import Mark, Review

from .conftest import ROOT, cli

PEARMUT = ROOT / "tests" / "data" / "pearmut"
CAMPAIGN = ROOT / "tests" / "data" / "pearmut-campaign"


# -- the door ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, said", [
    ('{"a": {"score": 40,\n "score": 100}}', r"line 1, column 7: the key 'score' appears twice"),
    ("[1, 2, NaN]", r"line 1, column 8: NaN is not a JSON number"),
    ('{"x": -Infinity}', r"column 7: -Infinity is not a JSON number"),
    ('{"x": 1e400}', r"the number 1e400 is too large"),
    ('{"x": ' + "9" * 5000 + "}", r"a number of 5,000 digits \(at most 40"),
    ('{"x": 0.' + "1" * 200 + "}", r"a number written with 202 characters"),
    ("[" * 1000 + "]" * 1000, r"column 65: nested more than 64 levels deep"),
    ('{"t": "a", "n": [{"x": [' + "[" * 70 + "]" * 70 + "]}]}", r"nested more than 64 levels deep"),
    ('{"a": "\\ud800 x"}', r"column 8: \\ud800 is half of a UTF-16 surrogate pair"),
    ('{"a": "\\udc00"}', r"\\udc00 is half of a UTF-16 surrogate pair"),
    ('{"a": 1', r"line 1, column 8: not JSON"),
    ('{\n"a": 1,\n"b": 2,\n"b": 3}', r"line 1, column 1: the key 'b' appears twice"),
    ('{"list": [1,\n2,\n' + "7" * 60 + "]}", r"line 3, column 1: a number of 60 digits"),
])
def test_the_door_refuses_each_hostile_shape_in_one_line_naming_where(text, said):
    with pytest.raises(JsonRefused, match=said) as refused:
        parse(text, "f.json")
    assert str(refused.value).startswith("f.json: ") and "\n" not in str(refused.value)


def test_the_door_reads_what_real_files_hold_and_its_limits_are_settable():
    assert parse('{"a": "\\ud83d\\ude00", "b": "\\\\ud800", "n": 12345678901234567890, "f": -1.5e-3}', "f") == \
        {"a": "😀", "b": "\\ud800", "n": 12345678901234567890, "f": -0.0015}
    assert parse('[1, NaN]', "f", nan_as_null=True) == [1, None]
    assert parse('{"t": "a\tb"}', "f", strict=False) == {"t": "a\tb"}
    with pytest.raises(JsonRefused, match="not JSON"):
        parse('{"t": "a\tb"}', "f")
    with pytest.raises(JsonRefused, match="more than the 10 read"):
        parse('"' + "x" * 20 + '"', "f", limits=Limits(chars=10))
    with pytest.raises(JsonRefused, match="nested more than 3"):
        parse("[[[[1]]]]", "f", limits=Limits(depth=3))
    assert parse("[[[1]]]", "f", limits=Limits(depth=3)) == [[[1]]]


def test_json_lines_split_at_a_line_feed_alone():
    text = '{"c": "one\u2028two\u2029three\u0085four"}\r\n\n{"c": "x"}'
    assert list(json_lines(text, "r.jsonl")) == [(1, {"c": "one\u2028two\u2029three\u0085four"}), (3, {"c": "x"})]
    with pytest.raises(JsonRefused, match=r"r.jsonl: line 3, column 1: the key 'a'"):
        list(json_lines('{}\n\n{"a": 1, "a": 2}\n', "r.jsonl"))


# -- every reader goes through it -----------------------------------------------------------------------------------
def _run_files(tmp_path: Path) -> dict[str, Path]:
    paths = {}
    for name, lines in (("src", ["Hallo Welt.", "Danke."]), ("ref", ["Hello world.", "Thanks."]),
                        ("A", ["Hello world.", "Thank you."])):
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


DEEP = "[" * 1000 + "]" * 1000
HUGE = "9" * 5001


def _hostile_files(tmp_path: Path) -> list[tuple[str, Path, list[str], str]]:
    """(what, the file, the flags that read it, what the message must say) for each reader."""
    wmt = {"langs": "de-en", "line_id": 0, "src": "Hallo Welt.", "tgt": "Hello world.", "esa_spans": [],
           "system": "A.txt", "annotator": "r1"}
    out = []

    def write(name: str, text: str) -> Path:
        (tmp_path / name).write_text(text, encoding="utf-8")
        return tmp_path / name

    out.append(("score file", write("scores.jsonl", '{"system": "A.txt", "segment": 1, "COMET": ' + HUGE + "}\n"),
                ["--scores"], r"scores.jsonl: line 1, column \d+: a number of 5,001 digits"))
    out.append(("score file nested", write("deep.jsonl", '{"system": "A.txt", "x": ' + DEEP + "}\n"),
                ["--scores"], r"deep.jsonl: line 1, column \d+: nested more than 64 levels deep"))
    out.append(("annotations", write("spans.jsonl", '{"system": "A.txt", "segment": 1, "severity": "Major", '
                                                    '"severity": "Minor"}\n'),
                ["--annotations"], r"spans.jsonl: line 1, column 1: the key 'severity' appears twice"))
    out.append(("WMT ESA", write("wmt.jsonl", json.dumps(wmt)[:-1] + ', "esa_score": ' + "1" + "0" * 400 + "}\n"),
                ["--annotations"], r"wmt.jsonl: line 1, column \d+: a number of 401 digits"))
    out.append(("WMT ESA nested", write("wmt2.jsonl", json.dumps(dict(wmt, esa_score="50"))[:-1] + ', "x": ' + DEEP
                                        + "}\n"),
                ["--annotations"], r"wmt2.jsonl: line 1, column \d+: nested more than 64"))
    download = json.loads((CAMPAIGN / "emoji-download.json").read_text(encoding="utf-8"))
    text = json.dumps(download, ensure_ascii=False).replace('{"score":90,', '{"score":40,"score":90,', 1)
    text = text.replace('{"score": 90,', '{"score": 40, "score": 90,', 1)
    out.append(("Pearmut download", write("download.json", text), ["--annotations"],
                r"download.json: line 1, column \d+: the key 'score' appears twice"))
    out.append(("MetricX", write("metricx.jsonl", '{"hypothesis": "Hello world.", "prediction": ' + HUGE + "}\n"),
                ["--scores"], r"metricx.jsonl: line 1, column \d+: a number of 5,001 digits"))
    out.append(("COMET JSON", write("comet.json", '{"A.txt": [{"src": "x", "mt": "Hello world.", "COMET": 0.5, '
                                                   '"COMET": 0.9}]}'),
                ["--scores"], r"comet.json: line 1, column \d+: the key 'COMET' appears twice"))
    return out


def test_every_reader_refuses_hostile_json_in_one_line_naming_file_and_line(tmp_path, capsys):
    paths = _run_files(tmp_path)
    for what, path, flags, said in _hostile_files(tmp_path):
        code, out, err = cli(capsys, paths["ref"], "-i", paths["A"], "--src", paths["src"], *flags, path)
        assert code == 2 and out == "" and "Traceback" not in err, (what, err)
        assert re.search(said, err), (what, err)
        assert len(err.strip().splitlines()) == 1, (what, err)


def test_a_jsonl_table_a_session_and_a_review_go_through_the_door(tmp_path, capsys):
    table = tmp_path / "t.jsonl"
    table.write_text('{"reference": "a b", "hypothesis": "a b", "reference": "c d"}\n', encoding="utf-8")
    code, _out, err = cli(capsys, table)
    assert code == 2 and "t.jsonl: line 1, column 1: the key 'reference' appears twice" in err
    from bleu_gui.core.output.sessions import load_session

    session = tmp_path / "s.json"
    session.write_text('{"systems": ["a"], "systems": ["b"]}', encoding="utf-8")
    with pytest.raises(InputError, match=r"s.json: line 1, column 1: the key 'systems' appears twice"):
        load_session(session)
    review = tmp_path / "review.jsonl"
    review.write_text('{"system": "A.txt", "segment": 1, "rater": "ana", "severity": "Minor", "n": ' + HUGE + "}\n",
                      encoding="utf-8")
    with pytest.raises(InputError, match=r"review.jsonl: line 1, column \d+: a number of 5,001 digits"):
        Review.open(review, "ana", "mqm-core")


# -- 3. a comment holding U+2028 ------------------------------------------------------------------------------------
def test_a_comment_with_line_separators_is_written_and_read_back_whole(tmp_path, capsys):
    paths = _run_files(tmp_path)
    path = tmp_path / "review.jsonl"
    comment = "zwei\u2028Zeilen\u2029und\u0085mehr"
    review = Review.open(path, "ana", "mqm-core")
    review.add(Mark("A.txt", 1, "Minor", "Style/Awkward", 0, 5, comment=comment))
    review.add(Mark("A.txt", 2, "Major", "Accuracy/Mistranslation", 0, 5, comment="second"))
    assert [m.comment for m in Review.open(path, "ana", "mqm-core").state.marks] == [comment, "second"]
    code, out, err = cli(capsys, paths["ref"], "-i", paths["A"], "--annotations", path, "-m", "mqm", "-sl", "-f",
                         "json")
    assert code == 0, err
    assert [s["score"] for s in json.loads(out)["sentences"]] == [-1.0, -5.0]


# -- 7. one range check for every rating ---------------------------------------------------------------------------
@pytest.mark.parametrize("value, said", [(150, "the ESA score 150 is outside 0-100"), (-5, "score -5 is outside"),
                                         ("١٥٠", 'the score "١٥٠" is not a number written in digits 0-9'),
                                         ("1" + "0" * 400, "is outside 0-100"), (True, "is not a number"),
                                         (float("inf"), "is outside")])
def test_a_rating_out_of_its_protocols_range_is_refused_naming_where(value, said):
    with pytest.raises(InputError, match=re.escape(said)):
        rating_score(value, "esa", "f.jsonl: line 3")
    assert rating_score("98", "esa", "f") == 98.0 and rating_score(None, "esa", "f") is None
    assert rating_score(" 0 ", "da", "f") == 0.0 and rating_score("nan", "esa", "f") is None


def _esa_log(tmp_path: Path, score: object) -> Path:
    lines = (PEARMUT / "esa.jsonl").read_text(encoding="utf-8").split("\n")
    first = json.loads(lines[0])
    model = next(iter(first["annotation"][0] if isinstance(first["annotation"], list) else first["annotation"]))
    annotation = first["annotation"][0] if isinstance(first["annotation"], list) else first["annotation"]
    annotation[model]["score"] = score
    path = tmp_path / "esa.jsonl"
    path.write_text("\n".join([json.dumps(first, ensure_ascii=False), *lines[1:]]), encoding="utf-8")
    return path


@pytest.mark.parametrize("score", [150, -5, "١٥٠"])
def test_every_rating_reader_and_the_desk_refuse_a_score_out_of_range(tmp_path, capsys, score):
    paths = _run_files(tmp_path)
    wmt = tmp_path / "wmt.jsonl"
    wmt.write_text(json.dumps({"langs": "de-en", "line_id": 0, "src": "Hallo Welt.", "tgt": "Hello world.",
                               "esa_spans": [], "esa_score": score, "system": "A.txt", "annotator": "r1"},
                              ensure_ascii=False) + "\n", encoding="utf-8")
    segments = tmp_path / "segments.jsonl"
    segments.write_text(json.dumps({"scores": {"A.txt": [{"score": score, "annotator": "r1", "errors": []}]},
                                    "src_text": "Hallo Welt.", "tgt_text": {"A.txt": "Hello world."},
                                    "doc_id": "de-en_#_news_#_d_#_0"}, ensure_ascii=False) + "\n", encoding="utf-8")
    review = tmp_path / "review.jsonl"
    review.write_text(json.dumps({"system": "A.txt", "segment": 1, "rater": "ana", "reviewed": True, "esa": score,
                                  "seconds": 1, "typology": "esa"}, ensure_ascii=False) + "\n", encoding="utf-8")
    for path in (wmt, segments, review):
        code, _out, err = cli(capsys, paths["ref"], "-i", paths["A"], "--src", paths["src"], "--annotations", path,
                              "-m", "esa")
        assert code == 2 and f"{path.name}: line 1" in err and ("outside 0-100" in err or "digits 0-9" in err), err
    code, _out, err = cli(capsys, PEARMUT / "ref.txt", "-i", PEARMUT / "A.txt", PEARMUT / "B.txt", "--src",
                          PEARMUT / "src.txt", "--annotations", _esa_log(tmp_path, score), "-m", "esa")
    assert code == 2 and "esa.jsonl: line 1" in err and ("outside 0-100" in err or "digits 0-9" in err), err
    desk = Review.open(tmp_path / "desk.jsonl", "ana", "esa")
    with pytest.raises(InputError, match="outside 0-100|not a number"):
        desk.judge("A.txt", 1, esa=score)  # type: ignore[arg-type]
    assert not (tmp_path / "desk.jsonl").exists()


# -- 8. an MQM row whose severity was emptied -------------------------------------------------------------------------
def test_an_mqm_row_with_an_empty_severity_is_refused_as_an_unknown_one_is(tmp_path, capsys):
    paths = _run_files(tmp_path)
    header = "system\tdoc\tsegment\trater\tsource\ttarget\tcategory\tseverity\n"
    rows = ["A.txt\td\t1\tr1\tHallo Welt.\t<v>Hello</v> world.\tAccuracy/Mistranslation\t{}\n",
            "A.txt\td\t2\tr1\tDanke.\tThank you.\tNo-error\tNo-error\n"]
    for severity, said in (("", "line 2: the severity is empty"), ("Huge", "line 2: severity 'Huge' is none of")):
        table = tmp_path / "mqm.tsv"
        table.write_text(header + rows[0].format(severity) + rows[1], encoding="utf-8")
        code, _out, err = cli(capsys, paths["ref"], "-i", paths["A"], "--annotations", table, "-m", "mqm")
        assert code == 2 and said in err, err
    reviewed = tmp_path / "reviewed.jsonl"  # a review's row without a severity: the segment rated, no error
    reviewed.write_text('{"system": "A.txt", "segment": 1, "rater": "ana", "reviewed": true}\n'
                        '{"system": "A.txt", "segment": 2, "rater": "ana", "severity": "Minor"}\n', encoding="utf-8")
    code, out, err = cli(capsys, paths["ref"], "-i", paths["A"], "--annotations", reviewed, "-m", "mqm", "-sl", "-f",
                         "json")
    assert code == 0, err
    assert [s["score"] for s in json.loads(out)["sentences"]] == [0.0, -1.0]


# -- 9. each producer's rule on its own files ------------------------------------------------------------------------
@pytest.mark.parametrize("start, end", [(62, 62), (0, 12), (12, 12)])
def test_a_wmt_span_past_its_text_is_refused_naming_the_line(tmp_path, capsys, start, end):
    paths = _run_files(tmp_path)
    wmt = tmp_path / "wmt.jsonl"
    wmt.write_text(json.dumps({"langs": "de-en", "line_id": 0, "src": "Hallo Welt.", "tgt": "Hello world.",
                               "esa_spans": [{"start_i": start, "end_i": end, "severity": "minor"}],
                               "esa_score": "50", "system": "A.txt", "annotator": "r1"}) + "\n", encoding="utf-8")
    code, _out, err = cli(capsys, paths["ref"], "-i", paths["A"], "--src", paths["src"], "--annotations", wmt, "-m",
                          "esa")
    assert code == 2 and f"wmt.jsonl: line 1: the span {start}..{end}" in err and "12 UTF-16 code units" in err


def test_wmt_files_keep_their_own_omission_and_severities(tmp_path, capsys):
    paths = _run_files(tmp_path)
    wmt = tmp_path / "wmt.jsonl"
    spans = [{"start_i": "missing", "end_i": "missing", "severity": "major"},
             {"start_i": 0, "end_i": 4, "severity": "undecided"}]
    wmt.write_text(json.dumps({"langs": "de-en", "line_id": 0, "src": "Hallo Welt.", "tgt": "Hello world.",
                               "esa_spans": spans, "esa_score": "50", "system": "A.txt", "annotator": "r1"}) + "\n",
                   encoding="utf-8")
    code, out, err = cli(capsys, paths["ref"], "-i", paths["A"], "--src", paths["src"], "--annotations", wmt, "-m",
                         "mqm", "esa", "--scores-partial", "-sl", "-f", "json")
    assert code == 0, err
    mqm = next(e for e in json.loads(out) if e["metric"] == "MQM")
    assert mqm["sentences"][0]["score"] == -5.0  # the omission counts (Major), the undecided span weighs 0
    spans[1]["severity"] = "critical"  # not one of ESA's
    wmt.write_text(json.dumps({"langs": "de-en", "line_id": 0, "src": "Hallo Welt.", "tgt": "Hello world.",
                               "esa_spans": spans, "esa_score": "50", "system": "A.txt", "annotator": "r1"}) + "\n",
                   encoding="utf-8")
    code, _out, err = cli(capsys, paths["ref"], "-i", paths["A"], "--src", paths["src"], "--annotations", wmt, "-m",
                          "esa")
    assert code == 2 and "severity 'critical' is none of Major, Minor" in err


# -- 11. two campaigns in one download ---------------------------------------------------------------------------------
def test_ratings_of_another_campaign_in_one_download_are_left_out_and_counted(tmp_path, capsys):
    download = json.loads((CAMPAIGN / "emoji-download.json").read_text(encoding="utf-8"))
    foreign = json.loads(json.dumps(download["emoji"]).replace("bleu-gui:cb33d1457a5a:", "bleu-gui:0123456789ab:"))
    for entry in foreign:  # another run's campaign: its raters found every segment perfect
        for annotation in entry["annotation"]:
            for said in annotation.values():
                said["score"], said["error_spans"] = 100, []
    both = tmp_path / "both.json"
    both.write_text(json.dumps({"emoji": download["emoji"], "other": foreign}, ensure_ascii=False), encoding="utf-8")
    run = (PEARMUT / "ref.txt", "-i", PEARMUT / "A.txt", PEARMUT / "B.txt", "--src", PEARMUT / "src.txt")
    alone = cli(capsys, *run, "--annotations", CAMPAIGN / "emoji-download.json", "-m", "esa", "-b")
    mixed = cli(capsys, *run, "--annotations", both, "-m", "esa", "-b")
    assert alone[0] == 0 and mixed[0] == 0, (alone[2], mixed[2])
    assert mixed[1] == alone[1]  # the other campaign's ratings moved no number
    assert f"{len(foreign) and sum(len(a) for e in foreign for a in e['annotation']):,} ratings left out: their item " \
           "ids name another source" in mixed[2]


# -- 24. a compressed release ------------------------------------------------------------------------------------
def test_a_gzipped_release_is_named_with_how_to_decompress_it(tmp_path, capsys):
    import gzip

    paths = _run_files(tmp_path)
    packed = tmp_path / "wmt24_esa.jsonl.gz"
    packed.write_bytes(gzip.compress(b'{"langs": "de-en", "line_id": 0, "esa_score": "50"}\n'))
    code, _out, err = cli(capsys, paths["ref"], "-i", paths["A"], "--annotations", packed, "-m", "esa")
    assert code == 2 and "wmt24_esa.jsonl.gz: compressed with gzip, not text: decompress it first (gunzip -k " \
                         "wmt24_esa.jsonl.gz)" in err and "NUL" not in err
