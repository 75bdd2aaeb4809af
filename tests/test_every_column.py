"""Exports and outputs keep every number (issue 57, items 7–10): every column named by its metric, unique, and
holding its metric's value (sacreBLEU, rapidfuzz and the imported file are the oracles); a missing value printed
as every text output prints one; a workbook's numbers equal the JSON's; the menu says what it offers."""

from __future__ import annotations

import csv
import io
import itertools
import json

import pytest
from rapidfuzz.distance import Levenshtein
from sacrebleu.metrics import BLEU, CHRF, TER

from bleu_gui.demo import demo_folder

from .conftest import cli

DEMO = demo_folder("en")
REFS = [DEMO / "ref1.txt", DEMO / "ref2.txt"]
SYSTEMS = [DEMO / "system-a.txt", DEMO / "system-b.txt"]


def lines(path):
    return path.read_text(encoding="utf-8").splitlines()



def _imported(hyp: str, refs: list[str], i: int, system: int) -> dict[str, float]:
    """The imported columns' values, made up but distinct per metric, system and segment."""
    return {"comet": round(0.5 + 0.01 * i + 0.1 * system, 4), "mqm_score": -float((i + system) % 5)}


def oracle(key: str, hyp: str, refs: list[str], i: int, system: int) -> tuple[float, dict[str, float]]:
    """A segment's score and statistics by the reference implementations (the imported file for imported ones)."""
    if key == "bleu":
        s = BLEU(effective_order=True).sentence_score(hyp, refs)
        return s.score, {"hyp_len": s.sys_len, "ref_len": s.ref_len, "correct_1": s.counts[0], "total_4": s.totals[3]}
    if key == "chrf":
        return CHRF().sentence_score(hyp, refs).score, {}
    if key == "ter":
        s = TER().sentence_score(hyp, refs)
        return s.score, {"edits": s.num_edits}
    if key == "edit":  # the reference needing the fewest edits; of equals the shorter, then the first (metrics.md)
        edits, length = min((Levenshtein.distance(hyp, r), len(r)) for r in refs)
        score = 100.0 * edits / length if length else (0.0 if not hyp else 100.0)
        return score, {"edits": edits, "ref_chars": length, "hyp_chars": len(hyp)}
    value = _imported(hyp, refs, i, system)[key]
    return value, {"score": value, "present": 1}


PAIRS = [*itertools.combinations(["bleu", "chrf", "ter", "edit"], 2), ("comet", "mqm_score"), ("ter", "comet")]


@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_every_pair_of_metrics_exports_unique_columns_each_holding_its_metrics_value(tmp_path, capsys, pair):
    hyps = [lines(s) for s in SYSTEMS]
    refs = [lines(r) for r in REFS]
    scores = tmp_path / "scores.tsv"
    scores.write_text("system\tsegment\tcomet\tmqm_score\n" + "".join(
        f"{SYSTEMS[s].name}\t{i + 1}\t{v['comet']}\t{v['mqm_score']}\n"
        for s in range(2) for i in range(len(refs[0])) for v in [_imported(hyps[s][i], [], i, s)]), encoding="utf-8")
    out_csv, out_json = tmp_path / "s.csv", tmp_path / "s.json"
    extra = ["--scores", scores] if set(pair) & {"comet", "mqm_score"} else []
    for out in (out_csv, out_json):
        code, _, err = cli(capsys, *REFS, "-i", *SYSTEMS, "-m", *pair, *extra, "--export-sentences", out)
        assert code == 0, err
    header = next(csv.reader(io.StringIO(out_csv.read_text(encoding="utf-8"))))
    assert len(header) == len(set(header)), [h for h in header if header.count(h) > 1]
    rows = json.loads(out_json.read_text(encoding="utf-8"))["sentences"]
    assert list(rows[0]) == header
    for s, system in enumerate(SYSTEMS):
        for i, row in enumerate(rows):
            segment_refs = [r[i] for r in refs]
            for key in pair:
                score, statistics = oracle(key, hyps[s][i], segment_refs, i, s)
                assert row[f"{system.name}:{key}"] == pytest.approx(score, abs=1e-9), (key, i)
                for name, value in statistics.items():
                    assert row[f"{system.name}:{key}:{name}"] == pytest.approx(value, abs=1e-9), (key, name, i)


# -- 8. a missing value is printed as the text output prints every missing value -------------------------------------

def test_an_unrated_segment_prints_no_scores_in_text_and_null_in_json(tmp_path, capsys):
    spans = tmp_path / "spans.jsonl"
    spans.write_text('{"system": "system-a.txt", "segment": 1, "start": 0, "end": 3, "severity": "Major", "rater": "r"}\n'
                     '{"system": "system-a.txt", "segment": 2, "severity": "No-error", "rater": "r"}\n', encoding="utf-8")
    args = [REFS[0], "-i", SYSTEMS[0], "--annotations", spans, "--scores-partial", "-m", "mqm", "-sl"]
    code, out, err = cli(capsys, *args)
    assert code == 0, err
    sentences = out.splitlines()
    assert "nan" not in out.lower()
    assert sentences[0].endswith("= -5.00 (mean of 1 rated segment)") and sentences[1].endswith("= 0.00 (mean of 1 "
                                                                                                  "rated segment)")
    assert len(sentences) == 12 and all(line.endswith("= no scores (no rater rated this segment)")
                                        for line in sentences[2:])
    code, out, err = cli(capsys, *args[:-1])
    assert code == 0 and out.strip().endswith("= -2.50 (mean of 2 rated segments; 10 unrated)"), out
    code, out, err = cli(capsys, *args, "-f", "json")
    assert code == 0, err
    assert [s["score"] for s in json.loads(out)["sentences"]][:3] == [-5.0, 0.0, None]


def test_a_score_of_minus_zero_prints_as_zero(tmp_path, capsys):
    scores = tmp_path / "scores.tsv"
    n = len(lines(REFS[0]))
    scores.write_text("system\tsegment\tqe\n" + "".join(f"system-a.txt\t{i + 1}\t-0.0\n" for i in range(n)),
                      encoding="utf-8")
    code, out, err = cli(capsys, REFS[0], "-i", SYSTEMS[0], "--scores", scores, "-m", "qe", "-sl")
    assert code == 0, err
    assert "-0.00" not in out and out.splitlines()[0].endswith("= 0.00 (mean of 1 segment score)")


# -- 9. a workbook's numbers equal the JSON's ---------------------------------------------------------------------

def test_numbers_read_back_from_the_workbook_equal_the_jsons(tmp_path, capsys):
    from python_calamine import CalamineWorkbook

    out_xlsx, out_json = tmp_path / "s.xlsx", tmp_path / "s.json"
    for out in (out_xlsx, out_json):
        code, _, err = cli(capsys, *REFS, "-i", *SYSTEMS, "-m", "bleu", "chrf", "ter", "--export-sentences", out)
        assert code == 0, err
    book = CalamineWorkbook.from_path(str(out_xlsx))
    header, *cells = book.get_sheet_by_name("sentences").to_python()
    rows = json.loads(out_json.read_text(encoding="utf-8"))["sentences"]
    compared = 0
    for row, obj in zip(cells, rows, strict=True):
        for name, value in zip(header, row):
            if isinstance(obj[name], float):
                assert value == obj[name], (name, value, obj[name])  # bit for bit, not approximately
                compared += 1
    assert compared > 100
    about = dict(book.get_sheet_by_name("about").to_python())
    assert "every digit" in about["numbers"]
