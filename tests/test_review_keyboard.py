"""The review desk as a reviewer walks it, by key events only once the review has started (Edit ▸ Mark errors…), on
the first ten segments of WMT22's en-ja (source, reference, a system): the focus comes back to the pane after the
category list, an omission is marked on the source by keyboard alone, a mark without a span is asked first, undo
and redo work from two focus places, an ESA segment starts unscored (never the previous segment's score), the
seconds are the time spent on the segment, and a resumed review lands where it was left and is proposed again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bleu_gui.core.output.review_file import Review

from .conftest import data_set

N = 10


def _first_lines(tmp_path, name: str) -> dict[str, object]:
    data = data_set("wmt22-en-ja")
    paths = {}
    for role, file in (("src", "src.txt"), ("ref", "ref1.txt"), ("hyp", "sys1.txt")):
        lines = (data / file).read_text(encoding="utf-8").splitlines()[:N]
        paths[role] = tmp_path / f"{name}-{role}.txt"
        paths[role].write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths[role + "_lines"] = lines
    return paths


def _open(window, qtbot, paths, annotations=()):
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    window.run_actions.open_inputs(OpenChoice(InputRequest(
        systems=(str(paths["hyp"]),), references=(str(paths["ref"]),), source=str(paths["src"]),
        annotations=tuple(str(a) for a in annotations)), None))
    qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy)


def _idle(window, qtbot):
    qtbot.waitUntil(lambda: not window.jobs.busy)


def _rows(path) -> list[dict]:
    """The review file's rows in force (the file only grows: an undo is a row taken back)."""
    from bleu_gui.core.inputs.review_rows import rows_in_force

    rows = [(n, json.loads(line)) for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if line]
    return [row for _n, row in rows_in_force(rows)]


def _key(qtbot, widget, key, modifier=None):
    from PySide6.QtCore import Qt

    qtbot.keyClick(widget, key, modifier or Qt.KeyboardModifier.NoModifier)


def test_an_mqm_review_of_ten_segments_by_keys_alone(qtbot, window, tmp_path):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    paths = _first_lines(tmp_path, "mqm")
    _open(window, qtbot, paths)
    review_path = tmp_path / "review.jsonl"
    assert window.start_review(str(review_path), "ana", "mqm")
    desk = window.inspect.detail.review
    candidate = window.inspect.detail.panes.candidate
    qtbot.waitUntil(lambda: candidate.hasFocus() and window.controller.sentence == 0)
    hyp, src = paths["hyp_lines"], paths["src_lines"]

    def focused():
        return QApplication.focusWidget()

    # Segment 1: two characters by Shift+Right, a category by C, Down, Enter — the focus comes back, the span kept.
    _key(qtbot, candidate, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    for _ in range(2):
        _key(qtbot, candidate, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    _key(qtbot, candidate, Qt.Key.Key_C)
    assert focused() is desk.category
    first_category = desk.category.currentText()
    _key(qtbot, desk.category, Qt.Key.Key_Down)
    chosen = desk.category.currentText()
    assert chosen != first_category
    _key(qtbot, desk.category, Qt.Key.Key_Return)
    assert focused() is candidate
    _key(qtbot, candidate, Qt.Key.Key_2)
    (mark,) = desk.review.state.marks
    assert (mark.segment, mark.start, mark.end, mark.severity, mark.category) == (1, 0, 2, "Major", chosen)
    _key(qtbot, candidate, Qt.Key.Key_0)
    assert window.controller.sentence == 1
    _idle(window, qtbot)
    # The review file is now the run's annotations: the raters' strip steps aside (the desk draws the marks; it
    # said "this segment was not rated" over the segment being rated).
    assert not window.inspect.human_errors.isVisibleTo(window.inspect)

    _omission_by_keys(qtbot, window, src)
    _no_span_asked_then_undo_and_redo(qtbot, window)

    # Segment 3 with its error, and the other seven with none: reviewed.
    for _ in range(2, N):
        _key(qtbot, candidate, Qt.Key.Key_0)
        _idle(window, qtbot)
    rows = _rows(review_path)
    verdicts = sorted(r["segment"] for r in rows if r.get("reviewed"))
    assert verdicts == list(range(1, N + 1))
    errors = [r for r in rows if "severity" in r]
    assert [(r["segment"], r.get("side", "target"), r.get("start"), r.get("end")) for r in errors] == \
        [(1, "target", 0, 2), (2, "source", 0, 4), (3, "target", None, None)]
    assert hyp[0][0:2] and all(r["typology"] == "mqm-core" for r in rows)


def _omission_by_keys(qtbot, window, src):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    desk = window.inspect.detail.review
    candidate, source = window.inspect.detail.panes.candidate, window.inspect.detail.context_pane.view
    focused = QApplication.focusWidget
    # Segment 2: an omission on the source — S moves there, Shift+arrows select, the category chosen in between
    # (for this segment: none is carried over from the last) keeps the selection, the severity key marks it.
    _key(qtbot, focused(), Qt.Key.Key_S)
    assert focused() is source
    for _ in range(4):
        _key(qtbot, source, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    _key(qtbot, source, Qt.Key.Key_C)
    assert desk.category.currentIndex() == 0  # "Category…": none chosen yet for segment 2
    _key(qtbot, desk.category, Qt.Key.Key_Down)
    _key(qtbot, desk.category, Qt.Key.Key_Escape)
    assert focused() is source
    _key(qtbot, source, Qt.Key.Key_3)
    omission = desk.review.state.marks[-1]
    assert (omission.segment, omission.side, omission.start, omission.end, omission.severity) == \
        (2, "source", 0, 4, "Critical")
    assert src[1][0:4] == src[1][omission.start:omission.end]
    _key(qtbot, source, Qt.Key.Key_S)  # back to the candidate
    assert focused() is candidate
    _key(qtbot, candidate, Qt.Key.Key_0)
    _idle(window, qtbot)



def _no_span_asked_then_undo_and_redo(qtbot, window):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    desk, candidate = window.inspect.detail.review, window.inspect.detail.panes.candidate
    focused = QApplication.focusWidget
    # Segment 3: a category chosen; nothing selected — the first key only asks; the second marks an error without a
    # span.
    assert window.controller.sentence == 2
    _key(qtbot, candidate, Qt.Key.Key_C)
    _key(qtbot, desk.category, Qt.Key.Key_Down)
    _key(qtbot, desk.category, Qt.Key.Key_Return)
    assert focused() is candidate
    with qtbot.waitSignal(desk.told) as told:
        _key(qtbot, candidate, Qt.Key.Key_1)
    assert "press 1 again" in told.args[0] and len(desk.review.state.marks) == 2
    _key(qtbot, candidate, Qt.Key.Key_1)
    assert len(desk.review.state.marks) == 3 and desk.review.state.marks[-1].start is None
    # Undo from the candidate, redo from the category list: the window's Edit ▸ Undo/Redo, wherever the focus is.
    _key(qtbot, candidate, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(desk.review.state.marks) == 2
    _key(qtbot, candidate, Qt.Key.Key_C)
    _key(qtbot, desk.category, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert len(desk.review.state.marks) == 3
    _key(qtbot, desk.category, Qt.Key.Key_Escape)
    assert focused() is candidate
    edit_menu = window.tools.menus[0]
    assert {"&Undo review change", "Re&do review change"} <= {a.text() for a in edit_menu.actions()}


def test_an_esa_review_of_ten_segments_starts_each_unscored(qtbot, window, tmp_path):
    from PySide6.QtCore import Qt

    paths = _first_lines(tmp_path, "esa")
    _open(window, qtbot, paths)
    review_path = tmp_path / "esa.jsonl"
    assert window.start_review(str(review_path), "ana", "esa")
    desk, candidate = window.inspect.detail.review, window.inspect.detail.panes.candidate
    qtbot.waitUntil(lambda: candidate.hasFocus() and window.controller.sentence == 0)
    for k in range(N):
        assert window.controller.sentence == k
        assert desk.score_box.text() == "unscored"
        if k == 4:  # 0 on an unscored segment records nothing, and says so
            with qtbot.waitSignal(desk.told) as told:
                _key(qtbot, candidate, Qt.Key.Key_0)
            assert "no ESA score" in told.args[0] and window.controller.sentence == k
        for _ in range(k + 1):
            _key(qtbot, candidate, Qt.Key.Key_Plus)
        _key(qtbot, candidate, Qt.Key.Key_Minus)
        _key(qtbot, candidate, Qt.Key.Key_Plus)
        if k == 2:  # a mark after the score: the run is scored again, and the score given stays
            _key(qtbot, candidate, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
            _key(qtbot, candidate, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
            _key(qtbot, candidate, Qt.Key.Key_1)
            _idle(window, qtbot)
            assert desk.review.state.marks and desk.score_box.value() == 15
        _key(qtbot, candidate, Qt.Key.Key_0)
        _idle(window, qtbot)
    rows = _rows(review_path)
    assert sorted((r["segment"], r["esa"]) for r in rows if r.get("reviewed")) == \
        [(k + 1, 5.0 * (k + 1)) for k in range(N)]
    assert all(r["typology"] == "esa" for r in rows)


def test_the_seconds_are_the_time_spent_on_the_segment_over_its_visits(qtbot, window, tmp_path):
    from PySide6.QtCore import Qt

    paths = _first_lines(tmp_path, "clock")
    _open(window, qtbot, paths)
    review_path = tmp_path / "review.jsonl"
    now = [1000.0]
    desk, candidate = window.inspect.detail.review, window.inspect.detail.panes.candidate
    desk.clock.now = lambda: now[0]
    assert window.start_review(str(review_path), "ana", "mqm")
    qtbot.waitUntil(lambda: candidate.hasFocus() and window.controller.sentence == 0)
    now[0] += 3.0
    _key(qtbot, candidate, Qt.Key.Key_N)  # away to segment 2 for 100 s, unreviewed
    assert window.controller.sentence == 1
    now[0] += 100.0
    window.controller.set_sentence(0)  # back to segment 1 for 4 s more
    now[0] += 4.0
    candidate.setFocus()
    _key(qtbot, candidate, Qt.Key.Key_0)
    now[0] += 2.5
    _key(qtbot, candidate, Qt.Key.Key_0)  # segment 2: 100 s before, 2.5 s now
    _idle(window, qtbot)
    seconds = {r["segment"]: r["seconds"] for r in _rows(review_path)}
    assert seconds == {1: 7.0, 2: 102.5}


def test_a_resumed_review_is_proposed_again_and_lands_on_the_first_unreviewed(qtbot, window, tmp_path):
    from bleu_gui.gui.inspect.review_dialog import proposed_review_path

    paths = _first_lines(tmp_path, "resume")
    review_path = tmp_path / "review-ana.jsonl"
    review = Review.open(review_path, "ana", "mqm-core")
    for segment in (1, 2, 3, 5):
        review.judge("resume-hyp.txt", segment, seconds=1.0)
    _open(window, qtbot, paths, annotations=[review_path])
    state = window.controller.state
    proposed = proposed_review_path("ana", paths["hyp"], state.opened.request.annotations, None, "")
    assert proposed == str(review_path.absolute())
    assert window.start_review(proposed, "ana", "mqm")
    qtbot.waitUntil(lambda: window.controller.sentence == 3 and not window.jobs.busy)
    # Unasked, a new review goes to the folder last used for reviews, else the documents — never beside the inputs.
    fresh = proposed_review_path("bo", paths["hyp"], (), None, "")
    assert not fresh.startswith(str(tmp_path)) and fresh.endswith("review-bo-resume-hyp.jsonl")
    (tmp_path / "reviews").mkdir()
    assert proposed_review_path("bo", paths["hyp"], (), None, str(tmp_path / "reviews")) == \
        str(tmp_path / "reviews" / "review-bo-resume-hyp.jsonl")
    # A remembered folder since removed is not proposed (the first mark could not be written there).
    assert not proposed_review_path("bo", paths["hyp"], (), None, str(tmp_path / "gone")).startswith(str(tmp_path))


@pytest.fixture(autouse=True)
def _active_window(window):
    """The desk's keys act in the active window (its clock counts the seconds spent there)."""
    window.activateWindow()
    yield


def test_a_run_after_a_review_opens_other_files_and_open_recent_keeps_the_review(qtbot, window, tmp_path):
    from PySide6.QtCore import Qt

    first, other = _first_lines(tmp_path, "first"), _first_lines(tmp_path, "other")
    _open(window, qtbot, first)
    review_path = tmp_path / "review.jsonl"
    assert window.start_review(str(review_path), "ana", "mqm")
    candidate = window.inspect.detail.panes.candidate
    qtbot.waitUntil(lambda: candidate.hasFocus())
    _key(qtbot, candidate, Qt.Key.Key_1)
    _key(qtbot, candidate, Qt.Key.Key_1)  # a Minor error without a span
    _key(qtbot, candidate, Qt.Key.Key_0)
    _idle(window, qtbot)
    _key(qtbot, candidate, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)  # Edit ▸ Mark errors off
    assert window.inspect.detail.review.review is None
    # Open Recent (the session of the run shown) reopens it with the review's marks.
    assert str(review_path.absolute()) in window.current_session().annotations
    errors = []
    window.error_shown.connect(errors.append)
    _open(window, qtbot, other)
    run = window.controller.run
    assert errors == [] and run.systems[0].file.path.name == "other-hyp.txt"
    assert "mqm" not in [m.key for m in run.metrics]
    assert any(n.startswith("MQM: left out") for n in run.notes)
    assert not any(m.key == "mqm" for m in window.controller.scoring.metrics)


def test_a_remembered_comet_is_offered_not_started(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from bleu_gui.core import BleuConfig
    from bleu_gui.core.metrics.comet.config import CometConfig
    from bleu_gui.gui.shell.main_window import MainWindow
    from bleu_gui.gui.shell.settings import Settings

    settings = Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    settings.set_metrics((BleuConfig(), CometConfig(model=str(tmp_path / "no-model"))))  # an earlier session's
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    paths = _first_lines(tmp_path, "offer")
    _open(window, qtbot, paths)
    run = window.controller.run
    assert [m.key for m in run.metrics] == ["bleu"]
    offer = window.bars.offered
    assert offer.isVisibleTo(window) and "was on when bleu-gui last closed: not started" in offer.label.text()
    assert any(isinstance(m, CometConfig) for m in settings.metrics())  # still remembered, still offered next time
    # Taken: its set-up is checked first (here the model folder is not there): said beside COMET's fields.
    offer.button.click()
    group, setup = window.settings_panel.group("comet"), window.comet_setup
    assert group.isChecked() and setup.problem.isVisibleTo(group) and not window.jobs.busy
    window.close()


def test_the_mark_errors_dialog_asks_the_name_first_and_never_closes_without_one(qtbot, tmp_path, monkeypatch):
    # Seen in a real X window: the dialog opened with the focus in the file's path, so a newcomer's name was typed
    # onto its end ("review-me-sys1.jsonlana"), and OK with no name closed it with nothing said and no review.
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QDialogButtonBox

    from bleu_gui.gui.inspect.review_dialog import ReviewDialog, proposed_review_path

    # A fresh account has no Documents folder (Qt names it all the same): the proposal is a folder that exists.
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    proposed = Path(proposed_review_path("ana", Path("sys1.txt"), (), None, ""))
    assert proposed.parent.is_dir() and proposed.name == "review-ana-sys1.jsonl"

    folder = tmp_path / "reviews"
    dialog = ReviewDialog(None, "", lambda rater: str(folder / f"review-{rater or 'me'}-sys1.jsonl"))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.rater.hasFocus())
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    QTest.mouseClick(ok, Qt.MouseButton.LeftButton)  # no name yet: said, and the dialog stays
    assert dialog.isVisible() and "name" in dialog.problem.text() and dialog.rater.hasFocus()
    QTest.keyClicks(dialog.rater, "ana")
    assert dialog.path.text() == str(folder / "review-ana-sys1.jsonl")  # the proposal follows the name
    QTest.keyClick(dialog.rater, Qt.Key.Key_Return)  # a folder that does not exist: said before any mark
    assert dialog.isVisible() and f"No folder {folder}" in dialog.problem.text() and dialog.path.hasFocus()
    dialog.path.setText(str(tmp_path / "mine.jsonl"))
    QTest.keyClicks(dialog.rater, "s")
    assert dialog.path.text() == str(tmp_path / "mine.jsonl")  # a path of the user's own is kept
    QTest.keyClick(dialog.rater, Qt.Key.Key_Return)
    assert dialog.result() == dialog.DialogCode.Accepted and dialog.choice()[:2] == (str(tmp_path / "mine.jsonl"),
                                                                                       "anas")
