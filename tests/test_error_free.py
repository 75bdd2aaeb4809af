"""Error-free detection (--error-free, WMT26's third task) on WMT24's ESA release: the human labels read here from
the raw file by WMT26's rule, each segment's chrF from sacreBLEU itself, scikit-learn's average precision and
precision-recall curve the oracle; a calibration written, then taken by triage on new text, and refused when it
is not one or was made with another metric."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

from .conftest import cli, data_set

PAIR = "en-zh"


def run_args(root, *systems):
    systems = systems or tuple(sorted((root / PAIR / "systems").glob("*.txt")))
    return [root / PAIR / "ref.txt", "-i", *systems, "--src", root / PAIR / "src.txt", "--langs", *PAIR.split("-")]


def wmt26_labels(root, threshold=85.0):
    """(system, line) → error-free, by WMT26's rule on the raw lines: a rater's later rating replaces the earlier,
    the score is the mean over the segment's raters, and a segment is error-free when it is at least the threshold
    and no rater marked a minor or major span (or an omission); undecided spans are no error."""
    from .span_cases import wmt24_latest

    scores, errors = defaultdict(list), defaultdict(bool)
    for (system, line_id, _rater), o in wmt24_latest(root / "wmt24_esa.jsonl", PAIR).items():
        scores[(system, line_id)].append(float(o["esa_score"]))
        errors[(system, line_id)] |= any(s["severity"] in ("minor", "major") for s in o["esa_spans"])
    return {k: sum(v) / len(v) >= threshold and not errors[k] for k, v in scores.items()}


def test_error_free_detection_is_scikit_learns_on_wmt24(capsys):
    import sacrebleu
    from sklearn.metrics import average_precision_score

    root = data_set("esa-wmt24-en-zh-en-hi")
    code, out, err = cli(capsys, *run_args(root), "--annotations", root / "wmt24_esa.jsonl", "-m", "chrf", "esa",
                         "--error-free", "-f", "json")
    assert code == 0, err
    found = json.loads(out)["error_free"]
    labels = wmt26_labels(root)
    refs = (root / PAIR / "ref.txt").read_text("utf-8").splitlines()
    y, s = [], []
    for (system, line_id), free in sorted(labels.items()):
        text = (root / PAIR / "systems" / f"{system}.txt").read_text("utf-8").splitlines()[line_id]
        y.append(free)
        s.append(sacrebleu.sentence_chrf(text, [refs[line_id]]).score)
    chrf = next(d for d in found["detectors"] if d["metric"] == "chrF2")
    assert chrf["segments"] == len(y) and chrf["error_free"] == sum(y)
    assert chrf["average_precision"] == pytest.approx(average_precision_score(y, s), abs=1e-12)
    assert found["human_columns_not_detectors"] == ["esa"]  # the humans are never a detector of themselves
    assert "ESA ≥ 85 and no error span" in found["definition"]


def test_a_calibration_is_taken_by_triage_on_new_text_and_signed(tmp_path, capsys):
    root = data_set("esa-wmt24-en-zh-en-hi")
    calibration = tmp_path / "calibration.json"
    code, out, err = cli(capsys, *run_args(root), "--annotations", root / "wmt24_esa.jsonl", "-m", "chrf", "esa",
                         "--error-free", "--error-free-precision", "0.8", "--error-free-out", calibration)
    assert code == 0, err
    said = json.loads(calibration.read_text("utf-8"))
    assert said["human_files"][0]["path"].endswith("wmt24_esa.jsonl") and len(said["human_files"][0]["sha256"]) == 64
    assert "chrF2 ≥ 67.5 is error-free 80% of the time" in out
    one = run_args(root, root / PAIR / "systems" / "GPT-4.txt")
    code, out, err = cli(capsys, *one, "-m", "chrf", "--triage", "chrF2>=calibrated:0.8", "--triage-calibration",
                         calibration, "-f", "json")
    assert code == 0, err
    triaged = json.loads(out)["triage"][0]
    assert "calibrated:calibration.json#sha256:" in triaged["signature"] and "precision:0.8" in triaged["signature"]
    assert all(r["score"] < 67.5031 for r in triaged["segments"] if r["decision"] == "post-edit" and not r["qa"])
    # Another chrF (word n-grams too) is another metric: the threshold was not found for it.
    code, _out, err = cli(capsys, *one, "-m", "chrf", "--chrf-word-order", "2", "--triage", "calibrated:0.8",
                          "--triage-calibration", calibration)
    assert code != 0 and "no calibration of chrF2++" in err
    # A precision no threshold reaches, a file that is not a calibration, a curve that is not one: one line each.
    code, _out, err = cli(capsys, *one, "-m", "chrf", "--triage", "calibrated:0.999", "--triage-calibration",
                          calibration)
    assert code != 0 and "no threshold of chrF2 is error-free 100% of the time" in err
    said["metrics"]["chrF2"]["precision"][0] = 1.5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(said), "utf-8")
    for path, message in ((bad, "holds a number outside 0..1"), (root / PAIR / "ref.txt", "not JSON")):
        code, _out, err = cli(capsys, *one, "-m", "chrf", "--triage", "calibrated:0.8", "--triage-calibration", path)
        assert code != 0 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    code, _out, err = cli(capsys, *one, "-m", "chrf", "--triage", "calibrated:0.8")
    assert code != 0 and "--triage-calibration FILE" in err
    # Through the one door: a BOM and CRLF are a calibration still; a key twice, nesting 1,000 deep, one line each.
    edited = tmp_path / "edited.json"
    edited.write_bytes(b"\xef\xbb\xbf" + calibration.read_bytes().replace(b"\n", b"\r\n"))
    code, out, err = cli(capsys, *one, "-m", "chrf", "--triage", "calibrated:0.8", "--triage-calibration", edited,
                         "-f", "json")
    assert code == 0, err
    for text, message in (('{"calibration": 1, "calibration": 1}', "appears twice"),
                          ("[" * 1000 + "]" * 1000, "nested more than")):
        bad.write_text(text, "utf-8")
        code, _out, err = cli(capsys, *one, "-m", "chrf", "--triage", "calibrated:0.8", "--triage-calibration", bad)
        assert code != 0 and message in err and len(err.strip().splitlines()) == 1
