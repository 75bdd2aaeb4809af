"""Where two metrics disagree: places worked out by hand and by counting, Spearman's rho by its textbook
formula, and --disagree on Google's MQM scores."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from bleu_gui.cli.bleu_score import run
from bleu_gui.core.analysis.disagree import disagreements, places, spearman

from .conftest import data_set


def counted_places(values, higher=True):
    """Each finite value's mean rank by counting (less than it, plus half its equals), over n - 1."""
    v = [x if higher else -x for x in values]
    finite = [x for x in v if not math.isnan(x)]
    n = len(finite)
    out = []
    for x in v:
        if math.isnan(x):
            out.append(math.nan)
            continue
        less, equal = sum(y < x for y in finite), sum(y == x for y in finite)
        out.append((less + (equal - 1) / 2) / (n - 1))
    return out


def test_places_by_hand_and_by_counting():
    assert places(np.array([10.0, 30.0, 20.0])).tolist() == [0.0, 1.0, 0.5]
    assert places(np.array([10.0, 30.0, 20.0]), higher_is_better=False).tolist() == [1.0, 0.0, 0.5]  # TER
    assert places(np.array([5.0, 5.0, 1.0, np.nan])).tolist()[:3] == [0.75, 0.75, 0.0]
    rng = np.random.default_rng(3)
    values = rng.integers(0, 6, 200).astype(float)
    values[rng.random(200) < 0.1] = np.nan
    assert np.allclose(places(values), counted_places(values), equal_nan=True)
    assert np.allclose(places(values, False), counted_places(values, False), equal_nan=True)


def test_spearman_is_the_textbook_formula_without_ties():
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=50), rng.normal(size=50)
    ra, rb = np.argsort(np.argsort(a)), np.argsort(np.argsort(b))
    textbook = 1 - 6 * np.sum((ra - rb) ** 2) / (50 * (50**2 - 1))
    assert spearman(a, b) == pytest.approx(textbook, abs=1e-12)
    assert spearman(a, -b, True, False) == pytest.approx(textbook, abs=1e-12)  # read each in its direction


def test_the_top_disagreements_are_the_largest_gaps():
    a = np.array([90.0, 10.0, 50.0, 70.0, 30.0])
    b = np.array([0.1, 0.9, 0.5, 0.6, 0.2])
    rows = disagreements(a, b, top=2)
    assert [r.segment for r in rows] == [0, 1]  # best by a and worst by b; worst by a and best by b
    assert rows[0].difference == pytest.approx(1.0)


def test_disagree_on_mqm_lists_bleu_against_human_scores(capsys):
    folder = data_set("formats") / "scores-mqm-ted-ende"
    code = run([str(folder / "mqm_ted_ende.tsv"), "--refs", "ref", "--scores",
                str(folder / "mqm_ted_ende.avg_seg_scores.tsv"), "--systems", "Nemo", "--disagree", "bleu",
                "mqm_avg_score", "--top", "3", "-f", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    system = json.loads(out)["disagree"]["systems"][0]
    assert system["system"] == "Nemo" and len(system["segments"]) == 3
    gaps = [s["difference"] for s in system["segments"]]
    assert gaps == sorted(gaps, reverse=True) and gaps[0] > 0.8
    for s in system["segments"]:
        assert s["difference"] == pytest.approx(abs(s["place_BLEU"] - s["place_mqm_avg_score"]))
    assert -1 <= system["spearman"] <= 1
    code = run([str(folder / "mqm_ted_ende.tsv"), "--refs", "ref", "--systems", "Nemo", "--disagree", "bleu", "COMET"])
    assert code == 2 and "--disagree COMET: not a metric of the run" in capsys.readouterr().err


def test_the_window_shows_disagreements_and_opens_a_segment(qtbot, window):
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    folder = data_set("formats") / "scores-mqm-ted-ende"
    request = InputRequest(systems=(), references=(str(folder / "mqm_ted_ende.tsv"),), refs_wanted=("ref",),
                           systems_wanted=("Nemo", "UEdin"), scores=(str(folder / "mqm_ted_ende.avg_seg_scores.tsv"),))
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_inputs(OpenChoice(request))
    dialog = window.tools.open_disagree()
    assert dialog is not None and dialog.table.rowCount() == 20
    run = window.controller.run
    expected = disagreements(run.systems[0].results[0].sentences, run.systems[0].results[1].sentences, top=20)
    assert [int(dialog.table.item(r, 0).text()) for r in range(20)] == [run.line_number(d.segment) for d in expected]
    dialog.on_cell_clicked(1, 2)
    assert (window.controller.system, window.controller.sentence) == (0, expected[1].segment)
    dialog.system.setCurrentIndex(2)  # UEdin − Nemo: B − A on BLEU against B − A on MQM
    delta = [s.results[k].sentences for s in run.systems for k in (0, 1)]
    expected = disagreements(delta[2] - delta[0], delta[3] - delta[1], top=20)
    assert [int(dialog.table.item(r, 0).text()) for r in range(20)] == [run.line_number(d.segment) for d in expected]
    dialog.on_cell_clicked(0, 0)
    assert (window.controller.system, window.controller.sentence) == (1, expected[0].segment)
    dialog.close()
