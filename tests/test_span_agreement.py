"""Span agreement (--span-eval): each measure equal to its reference implementation's own numbers on the cases of
tests/span_cases.py (tests/data/span-oracles/expected.json, written by scripts/span_oracles.py from Perrella et
al.'s span-mt-metrics-eval, WMT25's official scorer and TowerEval, each run from its own code), and hand-worked."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bleu_gui.core.analysis.span_measures import (
    MEASURES,
    Mark,
    components,
    max_matching,
    precision_recall_f1,
)

from .span_cases import HAND, RANDOM_SEEDS, Segment, random_corpus

EXPECTED = json.loads((Path(__file__).parent / "data" / "span-oracles" / "expected.json").read_text("utf-8"))["cases"]


def marks(length: int, spans) -> list[Mark]:
    return [Mark(length, length + 1, severity, side, omission=True) if a is None else Mark(a, b, severity, side)
            for a, b, severity, side in spans]


def ours(corpus: list[Segment], measure: str, averaging: str) -> tuple[float, float, float]:
    parts = [components(measure, marks(n, p), marks(n, g), n) for n, p, g in corpus]
    if averaging == "micro":
        return precision_recall_f1(tuple(sum(c[k] for c in parts) for k in range(4)))  # type: ignore[arg-type]
    each = [precision_recall_f1(c) for c in parts]
    return tuple(sum(e[k] for e in each) / len(each) for k in range(3))  # type: ignore[return-value]


CORPORA = {**HAND, **{f"random {seed}": random_corpus(seed) for seed in RANDOM_SEEDS}}


@pytest.mark.parametrize("case", list(CORPORA))
def test_every_measure_equals_its_reference_implementation(case):
    expected = EXPECTED[case]
    for key, want in expected.items():
        measure, averaging = key.split("/")
        got = ours(CORPORA[case], measure, averaging)
        if want == "ZeroDivisionError":  # TowerEval divides by an empty side; we give 1.0 for it, as the others do
            assert measure == "towereval" and all(0.0 <= v <= 1.0 for v in got)
            continue
        assert got == pytest.approx(want, abs=1e-12), (case, key)
    assert {k.split("/")[0] for k in expected} == set(MEASURES)


def test_the_hand_worked_cases():
    # Predicted 8..15 over gold 11..15: 4 of the 7 predicted characters are the gold's, all 4 gold ones are found.
    (n, p, g), = HAND["partial overlap"]
    assert precision_recall_f1(components("partial", marks(n, p), marks(n, g), n)) == pytest.approx(
        (4 / 7, 1.0, 2 * (4 / 7) / (4 / 7 + 1)))
    assert precision_recall_f1(components("exact", marks(n, p), marks(n, g), n))[2] == 0.0
    # The same characters with the wrong severity: full credit blind to severity, half with it.
    (n, p, g), = HAND["severity mismatch"]
    for measure, f1 in (("partial", 1.0), ("partial-severity", 0.5), ("wmt25", 0.5), ("towereval", 0.5)):
        assert precision_recall_f1(components(measure, marks(n, p), marks(n, g), n))[2] == pytest.approx(f1)
    # Nothing predicted: precision 1 (nothing wrong said), recall 0 — and no division by zero in TowerEval's.
    (n, p, g), = HAND["empty prediction"]
    for measure in MEASURES:
        assert precision_recall_f1(components(measure, marks(n, p), marks(n, g), n)) == (1.0, 0.0, 0.0)
    # One predicted span over two gold ones: one-to-one pairs it with one (overlap: 1 of 2 found) while the
    # character counts credit both (WMT25: 15 of 20 predicted characters are gold's, every gold character found).
    (n, p, g), = HAND["one over two"]
    assert precision_recall_f1(components("overlap", marks(n, p), marks(n, g), n))[:2] == (1.0, 0.5)
    assert precision_recall_f1(components("wmt25", marks(n, p), marks(n, g), n))[:2] == (0.75, 1.0)


def test_the_matching_is_the_best_pairing():
    # Greedy would give column 0 to row 0 and leave row 1 without one; the best pairs both.
    assert max_matching([[0, 1], [0]]) == 2
    assert max_matching([[0, 1, 2]]) == 1 and max_matching([[0], [0], []]) == 1
    assert max_matching([[], []]) == 0 and max_matching([[1, 2], [2], [1]]) == 2


def test_error_free_detection_equals_scikit_learn():
    from sklearn.metrics import average_precision_score, precision_recall_curve

    from bleu_gui.core.analysis.error_free import curve

    rng = np.random.default_rng(11)
    labels = rng.random(500) < 0.3
    scores = np.round(labels * 0.3 + rng.random(500), 2)  # rounded: many tied scores, as sentence BLEU has
    found = curve("m", scores, labels)
    assert found.average_precision == pytest.approx(average_precision_score(labels, scores), abs=1e-12)
    precision, recall, thresholds = precision_recall_curve(labels, scores)
    ours_at = dict(zip(found.thresholds, zip(found.precision, found.recall)))
    for p, r, t in zip(precision, recall, thresholds):
        assert ours_at[t] == pytest.approx((p, r), abs=1e-12)
    # The calibrated threshold: the lowest reaching the precision asked, i.e. the one catching the most.
    t, p, r = found.at_precision(0.9)
    reached = [(tt, rr) for pp, rr, tt in zip(precision, recall, thresholds) if pp >= 0.9]
    assert (t, r) == min(reached) and p >= 0.9
    best = max(2 * pp * rr / (pp + rr) for pp, rr in zip(precision, recall) if pp + rr)
    assert found.best_f1 == pytest.approx(best, abs=1e-12)
    # A detector that knows nothing: its average precision is the base rate; none reaches an impossible precision.
    flat = curve("flat", np.zeros(500), labels)
    assert flat.average_precision == pytest.approx(labels.mean()) and flat.at_precision(0.99) is None


def utf16_units(text: str, code_points: int) -> int:
    return len(text[:code_points].encode("utf-16-le")) // 2


def detector_file(root: Path, pair: str, out: Path) -> Path:
    """A second rater, "detector", on every segment WMT's raters rated, its spans ``detector_from`` the rater's —
    written in WMT's own layout (UTF-16 offsets, end inclusive, "missing" for an omission), as a span file of
    another annotator would come."""
    from .span_cases import detector_from, wmt24_gold, wmt24_latest

    lines = []
    for o in wmt24_latest(root / "wmt24_esa.jsonl", pair).values():
        text, gold = o["tgt"], wmt24_gold(o)
        spans = [{"start_i": "missing", "end_i": "missing", "severity": s} if a is None else
                 {"start_i": utf16_units(text, a), "end_i": utf16_units(text, b) - 1, "severity": s}
                 for a, b, s, _side in detector_from(gold, len(text), o["line_id"])]
        lines.append(json.dumps(o | {"annotator": "detector", "esa_spans": spans}, ensure_ascii=False))
    out.write_text("\n".join(lines) + "\n", "utf-8")
    return out


@pytest.mark.parametrize("pair", ["en-zh", "en-hi"])
def test_a_span_file_against_wmt24s_raters_gives_the_reference_implementations_numbers(pair, tmp_path, capsys):
    from .conftest import cli, data_set

    root = data_set("esa-wmt24-en-zh-en-hi")
    systems = sorted((root / pair / "systems").glob("*.txt"))
    run = [root / pair / "ref.txt", "-i", *systems, "--src", root / pair / "src.txt", "--langs", *pair.split("-"),
           "--annotations", root / "wmt24_esa.jsonl", "--annotations", detector_file(root, pair, tmp_path / "d.jsonl"),
           "-m", "esa", "--span-eval", "-f", "json"]
    code, out, err = cli(capsys, *run)
    assert code == 0, err
    found = json.loads(out)["span_agreement"]
    expected = EXPECTED[f"wmt24 {pair}"]
    detector = next(d for d in found["detectors"] if d["detector"] == "detector")
    assert detector["kind"] == "rater" and detector["overall"]["segments"] == expected["segments"]
    for key, want in expected.items():
        if key == "segments":
            continue
        got = detector["overall"][key]
        assert [got["precision"], got["recall"], got["f1"]] == pytest.approx(want, abs=1e-12), key
        low, high = got["f1_interval"]
        assert low <= got["f1"] <= high
    # The other raters are never scored against themselves: WMT's raters rate one segment each, so only the
    # detector is left; and its per-system numbers are there for every system.
    assert [d["detector"] for d in found["detectors"]] == ["detector"]
    assert len(detector["systems"]) == len(systems)
