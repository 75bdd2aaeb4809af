"""Human ratings as their producers really write them: WMT24's ESA release (../shared/data/esa-wmt24-en-zh-en-hi,
both layouts, checked against WMT's own system scores by WMT's rule) and the files a real Pearmut 1.1.6 server
wrote (tests/data/pearmut, made by scripts/make_pearmut_files.py through Pearmut's HTTP API: UTF-16 spans over
Japanese with emoji, an omission on [missing], a resubmission, a reset). The oracles are WMT's scores file, the
ratings the script gave (expected.json), and spans cut from the text in UTF-16 code units as the raters' pages
count them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleu_gui.core.inputs.annotations import attach_annotations
from bleu_gui.core.inputs.corpus import Context
from bleu_gui.core.inputs.span_ratings import read_span_ratings
from bleu_gui.core.inputs.text_files import SegmentFile

from .conftest import cli, data_set

PEARMUT = Path(__file__).parent / "data" / "pearmut"
LAYOUTS = ["wmt24_esa.jsonl", "wmt24-genmt-humeval.jsonl"]


def scored(capsys, *argv: object) -> tuple[list[dict[str, object]], str]:
    code, out, err = cli(capsys, *argv, "-sl", "-f", "json")
    assert code == 0, err
    got = json.loads(out)
    return got if isinstance(got, list) else [got], err


def wmt_run(pair: str) -> list[object]:
    root = data_set("esa-wmt24-en-zh-en-hi")
    systems = sorted((root / pair / "systems").glob("*.txt"))
    return [root / pair / "ref.txt", "-i", *systems, "--src", root / pair / "src.txt", "--langs", *pair.split("-")]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("pair", ["en-zh", "en-hi"])
def test_wmt24_esa_gives_wmts_own_system_scores(capsys, pair, layout):
    root = data_set("esa-wmt24-en-zh-en-hi")
    oracle = json.loads((root / "wmt-system-esa.json").read_text("utf-8"))[pair]
    got, err = scored(capsys, *wmt_run(pair), "--scores", root / layout, "--scores-partial", "-m", "esa")
    assert {Path(str(e["system"])).stem: (e["score"], e["segments"]) for e in got} == {
        name: (v["esa_mean"], v["rated_segments"]) for name, v in oracle.items()}
    other = "en-hi" if pair == "en-zh" else "en-zh"
    assert f"ratings of other language pairs left out: {other}" in err
    assert "ratings replaced by the same rater's later rating" in err
    assert "ratings of systems the run does not hold left out: refA" in err


def test_both_wmt24_layouts_give_one_score_per_segment(capsys):
    root = data_set("esa-wmt24-en-zh-en-hi")
    runs = [scored(capsys, *wmt_run("en-zh"), "--scores", root / layout, "--scores-partial", "-m", "esa")[0]
            for layout in LAYOUTS]
    segments = [{e["system"]: [s["score"] for s in e["sentences"]] for e in run} for run in runs]
    assert segments[0] == segments[1]
    # Two segments of one text ("@user44", lines 257 and 262 of the files) are placed by their line, for every system.
    lines = (root / "en-zh" / "src.txt").read_text("utf-8").splitlines()
    assert lines[257] == lines[262]
    assert all(scores[257] is not None and scores[262] is not None for scores in segments[0].values())


def utf16_cut(text: str, start: int, end: int) -> str:
    """The characters of UTF-16 code units ``start``..``end`` (inclusive), as the raters' pages count them; a
    character half selected (one unit of an emoji's pair: the page splits a text into code units) is selected."""
    units = text.encode("utf-16-le")
    if 0xDC00 <= int.from_bytes(units[2 * start:2 * start + 2], "little") <= 0xDFFF:
        start -= 1
    if 0xD800 <= int.from_bytes(units[2 * end:2 * end + 2], "little") <= 0xDBFF:
        end += 1
    return units[2 * start:2 * (end + 1)].decode("utf-16-le")


def test_wmt24_spans_are_the_characters_the_raters_selected():
    root = data_set("esa-wmt24-en-zh-en-hi")
    read = read_span_ratings(root / "wmt24_esa.jsonl")
    lines = [json.loads(line) for line in (root / "wmt24_esa.jsonl").read_text("utf-8").splitlines()]
    seen = {json.dumps(o, sort_keys=True, ensure_ascii=False): o for o in lines}  # exact repeats read once
    assert len(read.ratings) == len(seen)
    checked = astral = omissions = 0
    for rating, obj in zip(read.ratings, seen.values(), strict=True):
        for span, raw in zip(rating.spans, obj["esa_spans"], strict=True):
            if raw["start_i"] == "missing":
                assert span.start is None and span.end is None
                omissions += 1
                continue
            assert span.start is not None and span.end is not None
            assert rating.target[span.start:span.end] == utf16_cut(obj["tgt"], raw["start_i"], raw["end_i"])
            checked += 1
            astral += len(obj["tgt"]) != len(obj["tgt"].encode("utf-16-le")) // 2
    assert checked > 4000 and omissions > 400 and astral > 0


def test_a_file_of_several_pairs_is_refused_when_the_run_declares_no_language(capsys):
    root = data_set("esa-wmt24-en-zh-en-hi")
    argv = [a for a in wmt_run("en-zh") if a not in ("--langs", "en", "zh")]
    code, _out, err = cli(capsys, *argv, "--scores", root / "wmt24_esa.jsonl", "--scores-partial", "-m", "esa")
    assert code != 0 and "Traceback" not in err
    assert "the ratings are of 2 language pairs (en-hi: 3,268, en-zh: 8,256)" in err and "--langs SRC TGT" in err


def write_jsonl(path: Path, objects: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objects), encoding="utf-8")
    return path


def plain_run(tmp_path: Path, source: list[str], system: list[str]) -> list[object]:
    for name, lines in (("src", source), ("ref", [f"{line} (ref)" for line in system]), ("A", system)):
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [tmp_path / "ref.txt", "-i", tmp_path / "A.txt", "--src", tmp_path / "src.txt"]


def esa_line(langs: str, line: int, src: str, tgt: str, score: int, rater: str = "r1") -> dict[str, object]:
    return {"langs": langs, "line_id": line, "src": src, "tgt": tgt, "doc_id": "d", "domain": "news",
            "esa_spans": [], "esa_score": str(score), "system": "A", "annotator": rater, "speech_info": None}


def test_only_the_runs_language_pair_is_read(tmp_path, capsys):
    # One English source, its Czech and Japanese translations by "A" share a text (a name): en-cs's run must get
    # en-cs's rating, never en-ja's.
    run = plain_run(tmp_path, ["Prague.", "Hello."], ["Praha.", "Ahoj."])
    ratings = write_jsonl(tmp_path / "esa.jsonl", [esa_line("en-ja", 0, "Prague.", "Praha.", 10),
                                                   esa_line("en-cs", 0, "Prague.", "Praha.", 90),
                                                   esa_line("en-cs", 1, "Hello.", "Ahoj.", 80)])
    got, err = scored(capsys, *run, "--langs", "en", "cs", "--scores", ratings, "-m", "esa")
    assert [s["score"] for s in got[0]["sentences"]] == [90.0, 80.0]
    assert "ratings of other language pairs left out: en-ja (1)" in err


def test_a_rating_is_placed_only_where_the_source_matches_too(tmp_path, capsys):
    run = plain_run(tmp_path, ["Danke.", "Thanks a lot."], ["Thank you.", "Many thanks."])
    ratings = write_jsonl(tmp_path / "esa.jsonl", [
        esa_line("de-en", 9, "Vielen herzlichen Dank für alles.", "Thank you.", 20),  # the same text, another source
        esa_line("de-en", 1, "Thanks a lot.", "Many thanks.", 70)])
    got, err = scored(capsys, *run, "--scores", ratings, "--scores-partial", "-m", "esa")
    assert [s["score"] for s in got[0]["sentences"]] == [None, 70.0]
    assert "1 ratings of a text whose segments have another source left out" in err


def test_a_rerating_replaces_the_earlier_and_an_exact_repeat_is_one_rating(tmp_path, capsys):
    run = plain_run(tmp_path, ["One.", "Two."], ["Eins.", "Zwei."])
    spans = [{"start_i": 0, "end_i": 3, "severity": "major", "error_type": None}]
    first = dict(esa_line("en-de", 0, "One.", "Eins.", 30), esa_spans=spans + spans)
    again = dict(esa_line("en-de", 0, "One.", "Eins.", 90), esa_spans=[dict(spans[0], severity="minor")])
    other = esa_line("en-de", 1, "Two.", "Zwei.", 80, rater="r2")
    ratings = write_jsonl(tmp_path / "esa.jsonl", [first, other, again, other])
    got, err = scored(capsys, *run, "--annotations", ratings, "-m", "esa", "mqm")
    by_metric = {str(e["metric"]).split()[0].lower(): [s["score"] for s in e["sentences"]] for e in got}
    # By hand: r1's later rating (90, one minor) replaces its first (30, two majors: −10); r2's line counted once.
    assert by_metric == {"esa": [90.0, 80.0], "mqm": [-1.0, 0.0]}
    assert "1 lines repeat an earlier line exactly: read once" in err
    assert "1 ratings replaced by the same rater's later rating of the segment" in err
    code, out, _err = cli(capsys, *run, "--annotations", ratings, "-m", "mqm", "--explain", "1")
    assert code == 0 and "r1: -1:\n  - Minor (no category) −1" in out and "−5" not in out


def test_esa_ratings_of_several_files_are_one_column_the_mean_over_their_raters(tmp_path, capsys):
    """WMT's ratings beside a review the window wrote (another rater): one human column, each segment the mean of
    every rater's score, signed with both files — a reviewer's own ESA joins the raters' in the next run."""
    run = plain_run(tmp_path, ["One.", "Two.", "Three."], ["Eins.", "Zwei.", "Drei."])
    wmt = write_jsonl(tmp_path / "wmt.jsonl", [esa_line("en-de", 0, "One.", "Eins.", 30),
                                               esa_line("en-de", 1, "Two.", "Zwei.", 70, rater="r2")])
    review = write_jsonl(tmp_path / "review.jsonl", [
        {"system": "A.txt", "segment": 1, "rater": "me", "reviewed": True, "esa": 90, "seconds": 4, "typology": "esa"},
        {"system": "A.txt", "segment": 3, "rater": "me", "reviewed": True, "esa": 40, "seconds": 2, "typology": "esa"}])
    got, err = scored(capsys, *run, "--langs", "en", "de", "--annotations", wmt, "--annotations", review, "-m", "esa")
    (entry,) = got
    # By hand: segment 1 (30 + 90) / 2, segment 2 r2's 70, segment 3 my 40; the corpus the mean of the three.
    assert [s["score"] for s in entry["sentences"]] == [60.0, 70.0, 40.0]
    assert entry["score"] == pytest.approx(170 / 3)
    assert "file:wmt.jsonl + review.jsonl|column:esa" in str(entry["signature"])
    # One rater in two files on one segment is no second opinion: refused, naming both files.
    again = write_jsonl(tmp_path / "again.jsonl", [
        {"system": "A.txt", "segment": 1, "rater": "r1", "reviewed": True, "esa": 10, "seconds": 1, "typology": "esa"}])
    code, _out, err = cli(capsys, *run, "--langs", "en", "de", "--annotations", wmt, "--annotations", again, "-m", "esa")
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "r1" in err and "wmt.jsonl" in err and "again.jsonl" in err and "segment 1" in err, err


def pearmut_run() -> list[object]:
    return [PEARMUT / "ref.txt", "-i", PEARMUT / "A.txt", PEARMUT / "B.txt", "--src", PEARMUT / "src.txt"]


def expected_means(protocol: str) -> dict[str, list[float]]:
    """Each system's segment scores by hand from the ratings the script gave: the mean over the raters."""
    ratings = json.loads((PEARMUT / "expected.json").read_text("utf-8"))[protocol]
    out: dict[str, list[float]] = {}
    for system in ("A", "B"):
        mine = [r for r in ratings if r["system"] == system]
        out[f"{system}.txt"] = [sum(r["score"] for r in mine if r["line"] == k) / 2 for k in range(5)]
    return out


@pytest.mark.parametrize("name", ["esa.jsonl", "esa-download.json"])
def test_pearmuts_esa_files_give_the_ratings_in_force(capsys, name):
    got, err = scored(capsys, *pearmut_run(), "--annotations", PEARMUT / name, "-m", "esa", "mqm")
    esa = {e["system"]: [s["score"] for s in e["sentences"]] for e in got if e["metric"] == "esa"}
    assert esa == expected_means("esa")
    mqm = {e["system"]: [s["score"] for s in e["sentences"]] for e in got if e["metric"] == "MQM"}
    # By hand (major 5, minor 1, per rater, then the mean): A's 山 is major for both raters; its third line an
    # omission (major) for both; its fourth −6 (rater 1's resubmission: 、 minor, 地球 major) and 0.
    assert mqm == {"A.txt": [-5.0, 0.0, -5.0, -3.0, 0.0], "B.txt": [0.0, 0.0, -0.5, 0.0, 0.0]}
    assert "6 ratings voided by a reset of their rater's work" in err
    assert "2 ratings replaced by the same rater's later rating" in err


def test_pearmuts_spans_are_the_characters_the_raters_selected():
    texts = {s: (PEARMUT / f"{s}.txt").read_text("utf-8").splitlines() for s in ("A", "B", "src")}
    systems = [SegmentFile(PEARMUT / f"{s}.txt", texts[s], "utf-8") for s in "AB"]
    context = Context(source=SegmentFile(PEARMUT / "src.txt", texts["src"], "utf-8"))
    attached, _notes = attach_annotations([PEARMUT / "esa.jsonl"], systems, ["A", "B"], context)
    expected = json.loads((PEARMUT / "expected.json").read_text("utf-8"))["esa"]
    for i, system in enumerate("AB"):
        annotations = attached[i].annotations
        assert annotations is not None
        for line, rated in enumerate(annotations):
            assert rated is not None
            got = sorted((e.rater, e.text, e.severity) for e in rated.errors)
            want = sorted((r["rater"], text, severity) for r in expected if (r["system"], r["line"]) == (system, line)
                          for text, severity in r["spans"])
            assert got == want, (system, line)


def test_a_pearmut_campaign_without_spans_is_a_da_column(capsys):
    got, err = scored(capsys, *pearmut_run(), "--scores", PEARMUT / "da.jsonl", "-m", "da")
    assert {e["system"]: [s["score"] for s in e["sentences"]] for e in got} == expected_means("da")
    assert "no rating marks an error span: read as DA scores (da)" in err


def test_a_bad_entry_of_a_dashboard_download_names_its_campaign_and_entry(tmp_path, capsys):
    download = json.loads((PEARMUT / "esa-download.json").read_text("utf-8"))
    download["esa"][2]["annotation"][0]["A"]["score"] = "fine"
    path = tmp_path / "annotations.json"
    path.write_text(json.dumps(download, ensure_ascii=False), encoding="utf-8")
    code, _out, err = cli(capsys, *pearmut_run(), "--scores", path, "-m", "esa")
    assert code != 0 and f"{path}: campaign 'esa', entry 3: the score \"fine\" is not a number" in err


def _without_items(tmp_path: Path, name: str) -> Path:
    """A Pearmut file as versions before 1.1.6 wrote it: the ratings without what was shown."""
    if name.endswith(".json"):
        download = json.loads((PEARMUT / name).read_text("utf-8"))
        for lines in download.values():
            for line in lines:
                line.pop("item", None)
        path = tmp_path / name
        path.write_text(json.dumps(download, ensure_ascii=False), encoding="utf-8")
        return path
    lines = [json.loads(line) for line in (PEARMUT / name).read_text("utf-8").splitlines()]
    for line in lines:
        line.pop("item", None)
    return write_jsonl(tmp_path / name, lines)


def test_an_old_pearmut_log_without_texts_says_what_is_missing(tmp_path, capsys):
    path = _without_items(tmp_path, "esa.jsonl")
    code, _out, err = cli(capsys, *pearmut_run(), "--scores", path, "-m", "esa")
    assert code != 0 and "Traceback" not in err
    assert f"{path}: line 1: a Pearmut line without \"item\"" in err and "1.1.6" in err
    assert "give the campaign file Pearmut stored (data/campaigns/esa.json) beside it, with --annotations" in err


@pytest.mark.parametrize("name", ["esa.jsonl", "esa-download.json"])
def test_an_old_pearmut_log_is_placed_by_the_campaign_file_pearmut_stored(tmp_path, capsys, name):
    path = _without_items(tmp_path, name)
    got, err = scored(capsys, *pearmut_run(), "--annotations", path, "--annotations", PEARMUT / "esa-campaign.json",
                      "-m", "esa", "mqm")
    esa = {e["system"]: [s["score"] for s in e["sentences"]] for e in got if e["metric"] == "esa"}
    mqm = {e["system"]: [s["score"] for s in e["sentences"]] for e in got if e["metric"] == "MQM"}
    assert esa == expected_means("esa")
    assert mqm == {"A.txt": [-5.0, 0.0, -5.0, -3.0, 0.0], "B.txt": [0.0, 0.0, -0.5, 0.0, 0.0]}
    assert "its campaign file says the protocol is ESA: read as ESA scores (esa)" in err


def test_a_campaign_file_says_its_protocol(tmp_path, capsys):
    path = _without_items(tmp_path, "da.jsonl")
    got, err = scored(capsys, *pearmut_run(), "--scores", path, "--scores", PEARMUT / "da-campaign.json", "-m", "da")
    assert {e["system"]: [s["score"] for s in e["sentences"]] for e in got} == expected_means("da")
    assert "its campaign file says the protocol is DA: read as DA scores (da)" in err


def test_the_pearmut_files_are_what_pearmut_wrote():
    """The kept files came from Pearmut's server (the script's record) and hold what the tests rely on."""
    expected = json.loads((PEARMUT / "expected.json").read_text("utf-8"))
    assert expected["pearmut"] == "1.1.6"
    log = [json.loads(line) for line in (PEARMUT / "esa.jsonl").read_text("utf-8").splitlines()]
    assert {"user_id": "rater2", "annotation": "__RESET__"} in log
    assert all(isinstance(line.get("item"), list) for line in log if line["annotation"] != "__RESET__")
    a_first = (PEARMUT / "A.txt").read_text("utf-8").splitlines()[0]
    assert len(a_first) != len(a_first.encode("utf-16-le")) // 2  # emoji before the span: the offsets differ
