"""The desk files every key on the segment it was pressed on (issue: an ESA score filed on another segment while a
re-score ran). Keys are sent while the re-scores a mark starts are held in the worker — not after waiting for them —
and again with a re-score landing between two keys of one segment: the score, the marks and the ticks each belong to
the segment they were given on, a re-score never moves the view, and a segment's desk (score, category) starts empty.
Key events only, from a fresh settings file, on WMT22 en-ja (the source, a system; no reference)."""

from __future__ import annotations

import json
import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from bleu_gui.core.inputs.review_rows import rows_in_force

from .conftest import data_set

N = 10


def _files(tmp_path):
    data = data_set("wmt22-en-ja")
    paths = {}
    for role, file in (("src", "src.txt"), ("hyp", "sys1.txt")):
        lines = (data / file).read_text(encoding="utf-8").splitlines()[:N]
        paths[role] = tmp_path / f"{role}.txt"
        paths[role].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


def _rows(path) -> list[dict]:
    rows = [(n, json.loads(line)) for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if line]
    return [row for _n, row in rows_in_force(rows)]


@pytest.fixture
def held(monkeypatch):
    """Every re-score waits in the worker until the test lets it go (``held.set()``)."""
    from bleu_gui.gui.shell import run_actions

    gate = threading.Event()
    real = run_actions.rescore

    def waiting(*args, **kwargs):
        gate.wait()
        return real(*args, **kwargs)

    monkeypatch.setattr(run_actions, "rescore", waiting)
    yield gate
    gate.set()


def _open_without_reference(window, qtbot, paths):
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    window.run_actions.open_inputs(OpenChoice(InputRequest(systems=(str(paths["hyp"]),), source=str(paths["src"]))))
    qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy)


def _keys(qtbot, widget, *keys):
    for key in keys:
        if isinstance(key, tuple):
            qtbot.keyClick(widget, key[0], key[1])
        else:
            qtbot.keyClick(widget, key)


SELECT_TWO = [(Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier),
              (Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier),
              (Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)]


@pytest.mark.parametrize("lands", ["after every key", "between two keys of a segment"])
def test_an_esa_score_is_filed_on_the_segment_it_was_given_on(qtbot, window, tmp_path, held, lands):
    paths = _files(tmp_path)
    held.set()
    _open_without_reference(window, qtbot, paths)
    review_path = tmp_path / "review.jsonl"
    window.activateWindow()
    assert window.start_review(str(review_path), "ana", "esa")
    desk, candidate = window.inspect.detail.review, window.inspect.detail.panes.candidate
    qtbot.waitUntil(lambda: candidate.hasFocus() and window.controller.sentence == 0 and not window.jobs.busy)
    held.clear()  # from here on, every re-score a key starts waits in the worker
    _keys(qtbot, candidate, *SELECT_TWO, Qt.Key.Key_1, *[Qt.Key.Key_Plus] * 14, Qt.Key.Key_Return)
    assert window.controller.sentence == 1 and desk.score_box.value() == -1  # segment 2 starts unscored
    _keys(qtbot, candidate, *SELECT_TWO, Qt.Key.Key_2)
    if lands == "between two keys of a segment":
        held.set()
        qtbot.waitUntil(lambda: not window.jobs.busy)
        QApplication.processEvents()
        assert window.controller.sentence == 1  # the re-score did not move the view
        held.clear()
    _keys(qtbot, candidate, *[Qt.Key.Key_Plus] * 11, Qt.Key.Key_Return)
    held.set()
    qtbot.waitUntil(lambda: not window.jobs.busy)
    rows = _rows(review_path)
    assert sorted((r["segment"], r["esa"]) for r in rows if r.get("reviewed")) == [(1, 70.0), (2, 55.0)]
    assert sorted((r["segment"], r["severity"], r["start"], r["end"]) for r in rows if "severity" in r) == \
        [(1, "Minor", 0, 2), (2, "Major", 0, 2)]
    assert window.controller.sentence == 2
    esa = window.controller.run.systems[0].results[window.controller.run.metric_index("esa")]
    assert esa.sentences[:2].tolist() == [70.0, 55.0] and esa.corpus.score == pytest.approx(62.5)


def test_an_esa_segment_marked_but_not_scored_is_not_ticked_reviewed(qtbot, window, tmp_path, held):
    paths = _files(tmp_path)
    held.set()
    _open_without_reference(window, qtbot, paths)
    window.activateWindow()
    assert window.start_review(str(tmp_path / "review.jsonl"), "ana", "esa")
    desk, candidate = window.inspect.detail.review, window.inspect.detail.panes.candidate
    qtbot.waitUntil(lambda: candidate.hasFocus() and not window.jobs.busy)
    _keys(qtbot, candidate, *SELECT_TWO, Qt.Key.Key_1)
    qtbot.waitUntil(lambda: not window.jobs.busy)
    assert not window.inspect.sentences.model.reviewed and "0 of 10 reviewed" in desk.title.text()


def test_an_mqm_category_is_chosen_for_each_segment_never_carried_over(qtbot, window, tmp_path, held):
    paths = _files(tmp_path)
    held.set()
    _open_without_reference(window, qtbot, paths)
    window.activateWindow()
    review_path = tmp_path / "review.jsonl"
    assert window.start_review(str(review_path), "ana", "mqm")
    desk, candidate = window.inspect.detail.review, window.inspect.detail.panes.candidate
    qtbot.waitUntil(lambda: candidate.hasFocus() and not window.jobs.busy)
    _keys(qtbot, candidate, *SELECT_TWO, Qt.Key.Key_C)
    _keys(qtbot, desk.category, Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Return)
    chosen = desk.category.currentText()
    _keys(qtbot, candidate, Qt.Key.Key_1, Qt.Key.Key_0)  # segment 1 marked with the category chosen, reviewed
    assert window.controller.sentence == 1
    with qtbot.waitSignal(desk.told) as told:  # segment 2: no category chosen yet, so the key asks for one
        _keys(qtbot, candidate, *SELECT_TWO, Qt.Key.Key_2)
    assert "category" in told.args[0]
    _keys(qtbot, candidate, Qt.Key.Key_C)
    _keys(qtbot, desk.category, Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_2)
    qtbot.waitUntil(lambda: not window.jobs.busy)
    marks = {r["segment"]: r["category"] for r in _rows(review_path) if "severity" in r}
    assert marks[1] == chosen and marks[2] != chosen and len(marks) == 2


def test_a_rescore_keeps_the_segment_shown_from_the_moment_it_lands(qtbot, window, tmp_path, held):
    """The desk's keys act on the segment on screen: a re-score of the same files that leaves the view without one
    for a turn of the event loop (to open it again later) let keys in between act on nothing, and the later opening
    put the view back on a segment the reviewer had left."""
    paths = _files(tmp_path)
    held.set()
    _open_without_reference(window, qtbot, paths)
    window.activateWindow()
    assert window.start_review(str(tmp_path / "review.jsonl"), "ana", "esa")
    candidate = window.inspect.detail.panes.candidate
    qtbot.waitUntil(lambda: candidate.hasFocus() and not window.jobs.busy)
    window.controller.set_sentence(3)
    seen: list[int | None] = []
    window.run_actions.shown.connect(lambda _compare: seen.append(window.controller.sentence))
    _keys(qtbot, candidate, *SELECT_TWO, Qt.Key.Key_1)
    qtbot.waitUntil(lambda: bool(seen) and not window.jobs.busy)
    assert seen == [3] * len(seen) and window.controller.sentence == 3


def _select_and_mark(qtbot, desk, candidate, severity_key, category=True):
    _keys(qtbot, candidate, *SELECT_TWO)
    if category:
        _keys(qtbot, candidate, Qt.Key.Key_C)
        _keys(qtbot, desk.category, Qt.Key.Key_Down, Qt.Key.Key_Return)
    _keys(qtbot, candidate, severity_key)


def test_an_esa_review_after_an_mqm_one_keeps_its_mqm_and_a_resumed_review_is_no_change_on_disk(
        qtbot, window, tmp_path, held):
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    paths = _files(tmp_path)
    held.set()
    _open_without_reference(window, qtbot, paths)
    window.activateWindow()
    mqm_path, esa_path, unwritten = tmp_path / "mqm.jsonl", tmp_path / "esa.jsonl", tmp_path / "never.jsonl"
    assert window.start_review(str(unwritten), "ana", "esa")  # started and left before any mark: nothing written
    qtbot.waitUntil(lambda: not window.jobs.busy)
    assert window.start_review(str(mqm_path), "ana", "mqm")
    desk, candidate = window.inspect.detail.review, window.inspect.detail.panes.candidate
    qtbot.waitUntil(lambda: candidate.hasFocus() and not window.jobs.busy)
    _select_and_mark(qtbot, desk, candidate, Qt.Key.Key_2)  # a Major error on segment 1: MQM -5
    _keys(qtbot, candidate, Qt.Key.Key_0)
    qtbot.waitUntil(lambda: not window.jobs.busy)
    mqm = window.controller.run.metric_index("MQM")
    assert window.controller.run.systems[0].results[mqm].sentences[0] == -5.0
    assert window.start_review(str(esa_path), "ana", "esa")  # the same rater, an ESA review now
    qtbot.waitUntil(lambda: candidate.hasFocus() and not window.jobs.busy)
    window.controller.set_sentence(0)  # back to segment 1 (the MQM review left it on 2)
    candidate.setFocus()
    _keys(qtbot, candidate, Qt.Key.Key_Plus, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not window.jobs.busy)
    run = window.controller.run
    assert run.systems[0].results[run.metric_index("MQM")].sentences[0] == -5.0  # the MQM review's error stays
    assert run.systems[0].results[run.metric_index("esa")].sentences[0] == 5.0
    annotations = window.controller.opened.request.annotations
    assert str(unwritten.absolute()) not in annotations and not unwritten.exists()
    # The run opened again with both files, the ESA review resumed: the desk's own write is no change on disk.
    window.run_actions.open_inputs(OpenChoice(InputRequest(systems=(str(paths["hyp"]),), source=str(paths["src"]),
                                                           annotations=(str(mqm_path), str(esa_path)))))
    qtbot.waitUntil(lambda: not window.jobs.busy)
    assert window.start_review(str(esa_path), "ana", "esa")
    qtbot.waitUntil(lambda: candidate.hasFocus() and not window.jobs.busy)
    assert window.controller.sentence == 1  # resumed at the first unscored segment
    _keys(qtbot, candidate, Qt.Key.Key_Plus, Qt.Key.Key_Plus, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not window.jobs.busy)
    QApplication.processEvents()
    assert not window.bars.ratings.isVisible()
    run = window.controller.run
    assert run.systems[0].results[run.metric_index("esa")].sentences[:2].tolist() == [5.0, 10.0]
    assert run.systems[0].results[run.metric_index("MQM")].sentences[0] == -5.0
