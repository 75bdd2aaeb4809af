"""Neural metrics' own output files read by --scores as they come: MetricX's predictions (JSON Lines of one system's
segments, lower is better) matched to the system whose lines they scored; comet-score's --to_json file as it wrote it."""

import json

import numpy as np
import pytest

from tests.conftest import ROOT, cli


def _files(tmp_path, hyps_a, hyps_b):
    (tmp_path / "ref.txt").write_text("Der Hund bellt.\nDie Katze schläft.\nEs regnet.\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("\n".join(hyps_a) + "\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("\n".join(hyps_b) + "\n", encoding="utf-8")


def _metricx(path, hypotheses, predictions):
    # As metricx23/predict.py writes them: the input object with "prediction" added.
    path.write_text("".join(json.dumps({"source": "src", "hypothesis": h, "reference": "ref", "prediction": p},
                                       ensure_ascii=False) + "\n" for h, p in zip(hypotheses, predictions)),
                    encoding="utf-8")


A = ["Der Hund bellt.", "Die Katze schlaft.", "Es regnet heute."]
B = ["Ein Hund bellt.", "Katze schläft.", "Regen."]


def test_metricx_predictions_are_matched_to_the_system_they_scored_and_lower_is_better(tmp_path, capsys):
    _files(tmp_path, A, B)
    _metricx(tmp_path / "b.jsonl", B, [3.5, 7.0, 12.25])
    _metricx(tmp_path / "a.jsonl", A, [0.5, 2.0, 1.5])
    code, out, err = cli(capsys, tmp_path / "ref.txt", "-i", tmp_path / "a.txt", tmp_path / "b.txt", "--scores",
                         tmp_path / "b.jsonl", "--scores", tmp_path / "a.jsonl", "-m", "MetricX", "--paired-bs")
    assert code == 0, err
    assert "MetricX    file:b.jsonl + a.jsonl|column:MetricX|mean|lower-better" in out
    assert "1.33" in out and "7.58" in out  # (0.5 + 2 + 1.5) / 3 and (3.5 + 7 + 12.25) / 3, each on its system


def test_metricx_predictions_of_other_lines_name_the_closest_system(tmp_path, capsys):
    _files(tmp_path, A, B)
    _metricx(tmp_path / "x.jsonl", [A[0], A[1], "Es schneit."], [1.0, 2.0, 3.0])
    code, _, err = cli(capsys, tmp_path / "ref.txt", "-i", tmp_path / "a.txt", tmp_path / "b.txt", "--scores",
                       tmp_path / "x.jsonl")
    assert code == 2
    assert code == 2
    assert "x.jsonl: its 3 hypotheses are not the lines of any system of the run (the closest, a.txt, differs at " \
           "line 3)" in err


def test_metricx_qe_predictions_without_a_reference_score_a_run_without_references(tmp_path, capsys):
    # MetricX-24's QE mode: its input has no reference; the column says so and scores a run that has none.
    (tmp_path / "src.txt").write_text("The dog barks.\nThe cat sleeps.\nIt rains.\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("\n".join(A) + "\n", encoding="utf-8")
    (tmp_path / "qe.jsonl").write_text("".join(json.dumps({"source": s, "hypothesis": h, "prediction": p}) + "\n"
                                               for s, h, p in zip(("The dog barks.", "The cat sleeps.", "It rains."),
                                                                  A, (1.0, 4.0, 2.5))), encoding="utf-8")
    code, out, err = cli(capsys, "-i", tmp_path / "a.txt", "--src", tmp_path / "src.txt", "--scores",
                         tmp_path / "qe.jsonl", "-f", "json")
    assert code == 0, err
    found = json.loads(out)
    assert found["metric"] == "MetricX-QE" and found["score"] == 2.5  # (1 + 4 + 2.5) / 3
    assert found["signature"].endswith("column:MetricX-QE|mean|lower-better")


def test_comet_score_to_json_is_read_by_scores_as_it_comes(capsys):
    """comet-score's own --to_json file, as it wrote it (tests/data/comet-score: scripts/make_comet_score_files.py ran
    unbabel-comet's command on a tiny checkpoint)."""
    kept = ROOT / "tests" / "data" / "comet-score"
    theirs = json.loads((kept / "out.json").read_text(encoding="utf-8"))
    code, out, err = cli(capsys, kept / "ref.txt", "-i", kept / "sys1.txt", kept / "sys2.txt", "--scores",
                         kept / "out.json", "-m", "COMET", "-sl", "--format", "json")
    assert code == 0, err
    found = json.loads(out)
    assert [system["system"] for system in found] == ["sys1.txt", "sys2.txt"]
    for system in found:
        segments = [s["COMET"] for s in theirs[system["system"]]]  # keyed by the file names comet-score was given
        assert len(segments) == 5 and len(set(segments)) > 1
        assert system["signature"].startswith("file:out.json|column:COMET")
        assert [s["score"] for s in system["sentences"]] == segments
        assert system["score"] == pytest.approx(np.mean(segments), abs=1e-12)
