"""ESA (WMT24/25) and Pearmut ratings read as they are released: the three layouts give one set of numbers, worked
out by hand; spans land on the characters the raters marked (end inclusive, code points: German, Japanese and
Russian text); a rating is placed on its segment by its text, never on a neighbour; bad rows are refused naming the
file and line. No ESA or Pearmut file is in ../shared/data: the files here are written in the layouts WMT's
wmt24-news-systems (humeval/merge_to_jsonl.py) and Pearmut (README, server/app.py's log) document."""

from __future__ import annotations

import json

import pytest

from bleu_gui.core.inputs.annotations import attach_annotations
from bleu_gui.core.inputs.corpus import Context
from bleu_gui.core.inputs.text_files import SegmentFile

from .conftest import cli

SOURCE = ["The dog sat.", "Hello, world.", "Hello world"]
REF = ["Die Katze saß.", "こんにちは世界。", "Привет, мир."]
A = ["Der Hund saß.", "こんにちは地球。", "Привет мир."]
B = ["Die Katze saß da.", "こんにちは世界。", "Привет, мир."]

# (system, 0-based line, rater, score, spans as (start_i, end_i inclusive, severity) or ("missing", severity))
RATINGS = [
    ("A", 0, "r1", 40, [(4, 7, "major")]),         # "Hund"
    ("A", 0, "r2", 60, [("missing", "minor")]),    # an omission: no span
    ("A", 1, "r1", 70, [(5, 6, "minor")]),         # "地球"
    ("A", 2, "r1", 80, [(0, 5, "minor")]),         # "Привет"
    ("B", 0, "r1", 100, []),
    ("B", 1, "r1", 90, []),
    ("B", 2, "r1", 95, []),
]
# By hand: ESA per segment is the raters' mean — A 50, 70, 80 (mean 66.67), B 100, 90, 95 (mean 95). MQM per rater
# the negated sum of weights (major 5, minor 1), averaged over raters — A −3 (−5 and −1), −1, −1; B 0, 0, 0.
ESA_A, ESA_B = [50.0, 70.0, 80.0], [100.0, 90.0, 95.0]
MQM_A, MQM_B = [-3.0, -1.0, -1.0], [0.0, 0.0, 0.0]
TEXTS = {"A": A, "B": B}


def span_json(span) -> dict[str, object]:
    if span[0] == "missing":
        return {"start_i": "missing", "end_i": "missing", "severity": span[1]}
    return {"start_i": span[0], "end_i": span[1], "severity": span[2]}


def wmt_lines() -> list[dict[str, object]]:
    """WMT24's wmt24_esa.jsonl: one object per rater and segment."""
    return [{"langs": "en-de", "line_id": line, "src": SOURCE[line], "tgt": TEXTS[system][line], "doc_id": "d1",
             "domain": "news", "esa_spans": [span_json(s) for s in spans], "esa_score": score, "times": [0, 1],
             "system": system, "annotator": rater, "speech_info": None}
            for system, line, rater, score, spans in RATINGS]


def wmt_segments() -> list[dict[str, object]]:
    """WMT24's wmt24-genmt-humeval.jsonl: one object per segment."""
    out = []
    for line in range(3):
        scores: dict[str, list[dict[str, object]]] = {}
        for system, at, rater, score, spans in RATINGS:
            if at == line:
                scores.setdefault(system, []).append({"score": score, "annotator": rater,
                                                      "errors": [span_json(s) for s in spans], "times": [0, 1]})
        out.append({"scores": scores, "src_text": SOURCE[line], "tgt_text": {s: TEXTS[s][line] for s in scores},
                    "doc_id": f"d1_#_{line}"})
    return out


def pearmut_lines() -> list[dict[str, object]]:
    """Pearmut's log: r1 judged the three segments as one document item (lists in step), r2 one segment (the
    item and its annotation as single objects)."""
    def annotation(rater: str, line: int) -> dict[str, object]:
        return {system: {"score": score, "error_spans": [dict(span_json(s), category=None) for s in spans]}
                for system, at, who, score, spans in RATINGS if who == rater and at == line}

    def item(line: int, systems) -> dict[str, object]:
        return {"src": SOURCE[line], "tgt": {s: TEXTS[s][line] for s in systems}, "doc_id": "d1"}

    return [{"annotation": [annotation("r1", k) for k in range(3)], "actions": [], "item": [item(k, "AB")
                                                                                      for k in range(3)],
             "user_id": "r1", "item_i": 0},
            {"annotation": annotation("r2", 0), "item": item(0, "A"), "user_id": "r2", "item_i": 3}]


def write_jsonl(path, objects):
    path.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objects), encoding="utf-8")
    return path


def plain(tmp_path):
    paths = {}
    for name, lines in (("src", SOURCE), ("ref", REF), ("A", A), ("B", B)):
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


def sentences(capsys, paths, *argv):
    code, out, err = cli(capsys, paths["ref"], "-i", paths["A"], paths["B"], "--src", paths["src"], *argv,
                         "-sl", "-f", "json")
    assert code == 0, err
    return {(e["metric"], e["system"]): [s["score"] for s in e["sentences"]] for e in json.loads(out)}, err


@pytest.mark.parametrize("layout", ["wmt lines", "wmt segments", "pearmut log", "pearmut download"])
def test_every_layout_gives_the_hand_worked_esa_and_mqm(tmp_path, capsys, layout):
    paths = plain(tmp_path)
    if layout == "pearmut download":
        ratings = tmp_path / "annotations.json"
        ratings.write_text(json.dumps({"campaign": pearmut_lines()}, ensure_ascii=False), encoding="utf-8")
    else:
        objects = {"wmt lines": wmt_lines, "wmt segments": wmt_segments, "pearmut log": pearmut_lines}[layout]()
        ratings = write_jsonl(tmp_path / "ratings.jsonl", objects)
    got, err = sentences(capsys, paths, "--annotations", ratings, "-m", "mqm", "esa")
    by_name = {metric.split()[0].lower(): None for metric, _ in got}
    assert "esa" in by_name and "mqm" in by_name, got.keys()
    esa = {s: v for (m, s), v in got.items() if m.lower().startswith("esa")}
    mqm = {s: v for (m, s), v in got.items() if m.lower().startswith("mqm")}
    assert list(esa.values()) == [ESA_A, ESA_B]
    assert list(mqm.values()) == [MQM_A, MQM_B]
    assert "spans in UTF-16 code units, ends inclusive" in err


def test_spans_mark_the_characters_the_raters_marked(tmp_path):
    paths = plain(tmp_path)
    ratings = write_jsonl(tmp_path / "ratings.jsonl", wmt_lines())
    systems = [SegmentFile(paths[s], list(TEXTS[s]), "utf-8") for s in "AB"]
    context = Context(source=SegmentFile(paths["src"], list(SOURCE), "utf-8"))
    attached, _notes = attach_annotations([ratings], systems, ["A", "B"], context)
    a = attached[0].annotations
    assert a is not None
    marked = [[(e.severity, e.text) for e in r.errors] for r in a if r is not None]
    assert marked == [[("Major", "Hund"), ("Minor", "")], [("Minor", "地球")], [("Minor", "Привет")]]
    assert a[0] is not None and a[0].raters == ("r1", "r2")
    assert attached[1].annotations is not None and all(r is not None and not r.errors
                                                        for r in attached[1].annotations)


def test_a_rating_is_placed_by_its_text_never_on_a_neighbour(tmp_path, capsys):
    paths = plain(tmp_path)
    same = ["Ja.", "Ja.", "Nein."]  # a system whose first two segments are one text
    paths["A"].write_text("\n".join(same) + "\n", encoding="utf-8")
    paths["src"].write_text("Yes.\nYes.\nNo.\n", encoding="utf-8")
    rows = [{"system": "A", "tgt": "Ja.", "src": "Yes.", "line_id": 1, "esa_score": 30, "esa_spans": []},
            {"system": "A", "tgt": "Ja.", "src": "Yes.", "esa_score": 99, "esa_spans": []},      # which "Ja."?
            {"system": "A", "tgt": "Nein!", "src": "No.", "esa_score": 99, "esa_spans": []},     # no such text
            {"system": "B", "tgt": B[2], "esa_score": 10, "esa_spans": []},
            {"system": "C", "tgt": "x", "esa_score": 10, "esa_spans": []}]
    ratings = write_jsonl(tmp_path / "esa.jsonl", rows)
    got, err = sentences(capsys, paths, "--scores", ratings, "-m", "esa")
    assert [v for _, v in sorted(got.items())] == [[None, 30.0, None], [None, None, 10.0]]
    assert "1 ratings of a text several segments of its system hold" in err
    assert "1 ratings of a text that is no segment of its system left out" in err
    assert "ratings of systems the run does not hold left out: C (1)" in err


@pytest.mark.parametrize("span, said", [
    ({"start_i": 3, "end_i": 40, "severity": "minor"},
     "line 1: the span 3..40 (UTF-16 offsets, end inclusive) is outside its text"),
    ({"start_i": "3", "end_i": 4, "severity": "minor"}, "line 1: start_i and end_i must be character offsets"),
    ({"start_i": 0, "end_i": 1, "severity": "fatal"}, "line 1: severity 'fatal' is none of"),
])
def test_a_bad_span_is_refused_naming_file_and_line(tmp_path, capsys, span, said):
    paths = plain(tmp_path)
    ratings = write_jsonl(tmp_path / "esa.jsonl", [{"system": "A", "tgt": A[0], "esa_score": 5, "esa_spans": [span]}])
    code, _out, err = cli(capsys, paths["ref"], "-i", paths["A"], "--annotations", ratings, "-m", "mqm")
    assert code != 0 and str(ratings) in err and said in err and "Traceback" not in err


def test_a_score_that_is_not_a_number_is_refused(tmp_path, capsys):
    paths = plain(tmp_path)
    ratings = write_jsonl(tmp_path / "esa.jsonl", [{"system": "A", "tgt": A[0], "esa_score": "good", "esa_spans": []}])
    code, _out, err = cli(capsys, paths["ref"], "-i", paths["A"], "--scores", ratings, "-m", "esa")
    assert code != 0 and f"{ratings}: line 1: the score \"good\" is not a number" in err


def test_meta_evaluation_takes_the_esa_column(tmp_path, capsys):
    paths = plain(tmp_path)
    ratings = write_jsonl(tmp_path / "ratings.jsonl", wmt_lines())
    code, out, err = cli(capsys, paths["ref"], "-i", paths["A"], paths["B"], "--src", paths["src"], "--annotations",
                         ratings, "-m", "bleu", "mqm", "esa", "--meta-eval", "esa", "-f", "json")
    assert code == 0, err
    meta = json.loads(out)["meta_evaluation"]
    assert meta["human"].lower().startswith("esa") and meta["segments"] == 3
    # Two systems, ESA puts B first; BLEU (B is nearly the reference) does too. MQM, made of the same raters' spans,
    # is human judgement: shown apart, never ranked among the metrics.
    assert {m["metric"].split()[0].lower(): m["system_pairwise_accuracy"] for m in meta["metrics"]} == {"bleu": 1.0}
    assert meta["human_columns_not_ranked"] == ["MQM"]
