"""A reviewer's own marks (Edit ▸ Mark errors…): the review file reads back through --annotations into the same
spans and the MQM worked out by hand; an ESA score round-trips as the human column; undo writes the file back as
it was; a process killed between two writes leaves a readable file; and in the window, spans selected with the
keyboard in Japanese, Chinese and German text (and an emoji, two UTF-16 units) give code-point offsets."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bleu_gui.core.errors import ExportError, InputError
from bleu_gui.core.inputs.annotations import attach_annotations
from bleu_gui.core.inputs.corpus import Context
from bleu_gui.core.inputs.review_rows import rows_in_force
from bleu_gui.core.inputs.text_files import SegmentFile
from bleu_gui.core.output.review_file import Mark, Review, ReviewState, Verdict, read_typology

from .conftest import cli, data_set

REF = ["Die Katze saß auf der Matte.", "Heute ist es kalt.", "Wir gehen nach Hause."]
HYP = ["Der Hund saß auf der Matte.", "Heute es ist kalt 😀.", "Wir gehen Hause."]


def plain(tmp_path):
    paths = {}
    for name, lines in (("ref", REF), ("hyp", HYP)):
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


def test_a_review_reads_back_into_the_same_spans_and_the_hand_worked_mqm(tmp_path, capsys):
    paths = plain(tmp_path)
    review = Review.open(tmp_path / "review.jsonl", "ana", "mqm-core")
    review.add(Mark("hyp.txt", 1, "Major", "Accuracy/Mistranslation", 4, 8, comment="dog, not cat"))  # "Hund"
    review.add(Mark("hyp.txt", 2, "Minor", "Fluency/Grammar", 6, 12))                               # "es ist"
    review.add(Mark("hyp.txt", 3, "Major", "Accuracy/Omission"))                                     # no span
    review.judge("hyp.txt", 1)
    review.judge("hyp.txt", 2)
    # By hand (Google's weights): segment 1 −5, segment 2 −1, segment 3 −5; the corpus the mean, −11/3.
    code, out, err = cli(capsys, paths["ref"], "-i", paths["hyp"], "--annotations", review.path, "-m", "mqm", "-sl",
                         "-f", "json")
    assert code == 0, err
    entry = json.loads(out)  # one system, one metric: one object
    assert [s["score"] for s in entry["sentences"]] == [-5.0, -1.0, -5.0]
    assert entry["score"] == pytest.approx(-11 / 3)
    attached, _notes = attach_annotations([review.path], [SegmentFile(paths["hyp"], list(HYP), "utf-8")], ["hyp"],
                                          Context())
    ratings = attached[0].annotations
    assert ratings is not None and ratings[0] is not None and ratings[1] is not None and ratings[2] is not None
    assert [(e.text, e.comment) for e in ratings[0].errors] == [("Hund", "dog, not cat")]
    assert [e.text for e in ratings[1].errors] == ["es ist"]
    assert [(e.start, e.category) for e in ratings[2].errors] == [(None, "Accuracy/Omission")]


def test_an_esa_score_round_trips_as_the_human_column(tmp_path, capsys):
    paths = plain(tmp_path)
    review = Review.open(tmp_path / "esa.jsonl", "ana", "mqm-core")
    review.add(Mark("hyp.txt", 1, "Major", "", 4, 8))
    review.judge("hyp.txt", 1, esa=35.0, seconds=12.5)
    review.judge("hyp.txt", 2, esa=80.0)
    again = Review.open(review.path, "ana", "mqm-core")
    assert again.state == review.state and again.state.verdict("hyp.txt", 1).seconds == 12.5
    code, out, err = cli(capsys, paths["ref"], "-i", paths["hyp"], "--annotations", review.path, "-m", "mqm", "esa",
                         "-sl", "-f", "json")
    assert code == 0, err
    esa = next(e for e in json.loads(out) if e["metric"] == "esa")
    assert [s["score"] for s in esa["sentences"]] == [35.0, 80.0, None]


def _in_force(path) -> list[dict]:
    rows = [(n, json.loads(line)) for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if line]
    return [row for _n, row in rows_in_force(rows)]


def test_undo_takes_the_change_back_in_the_file_and_other_raters_are_kept(tmp_path):
    path = tmp_path / "review.jsonl"
    other = json.dumps({"system": "hyp.txt", "segment": 2, "rater": "ben", "severity": "Minor", "start": 0,
                        "end": 5}, ensure_ascii=False)
    path.write_text(other + "\n", encoding="utf-8")
    review = Review.open(path, "ana", "mqm-core")
    review.add(Mark("hyp.txt", 1, "Minor", "Style/Awkward", 0, 3))
    before = _in_force(path)
    review.add(Mark("hyp.txt", 1, "Major", "Accuracy/Mistranslation", 4, 8))
    assert _in_force(path) != before
    written = path.read_bytes()
    assert review.undo() and _in_force(path) == before
    assert path.read_bytes().startswith(written)  # the file only grows: the undo is a row taken back
    assert Review.open(path, "ana", "x").state == review.state
    assert review.redo() and len(Review.open(path, "ana", "x").state.marks) == 2
    assert path.read_text(encoding="utf-8").splitlines()[0] == other  # ben's line, as it was
    assert len(Review.open(path, "ben", "x").state.marks) == 1


def test_a_bad_review_row_is_refused_naming_the_line(tmp_path):
    path = tmp_path / "review.jsonl"
    path.write_text('{"system": "hyp.txt", "segment": 1, "rater": "ana", "severity": "Major", "start": 5, '
                    '"end": 2}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"review.jsonl: line 1: start and end must be character offsets"):
        Review.open(path, "ana", "x")


def test_reviewed_segments_and_the_typology_are_read():
    state = ReviewState((Mark("s", 3, "Minor"),), (Verdict("s", 1), Verdict("s", 2), Verdict("t", 4)))
    assert state.reviewed("s") == {1, 2, 3}  # a mark counts
    assert read_typology("# mine\nAccuracy\n\nFluency # spelling too\n") == ("Accuracy", "Fluency")
    with pytest.raises(InputError, match="given twice"):
        read_typology("A\nA\n")


KILLED = """
import sys
from bleu_gui.core.output.review_file import Mark, Review
review = Review.open(sys.argv[1], "ana", "mqm-core")
for k in range(100000):
    review.add(Mark("hyp.txt", 1 + k % 3, "Minor", "Fluency/Grammar", 0, 1 + k % 5, comment="x" * (k % 200)))
    print("saved", k + 1, flush=True)
"""


def test_a_process_killed_between_writes_leaves_a_readable_file(tmp_path):
    path = tmp_path / "review.jsonl"
    saved = 0
    with subprocess.Popen([sys.executable, "-c", KILLED, str(path)], stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None
        for line in child.stdout:  # the condition: 40 changes written, then a kill mid-way through the next ones
            saved = int(line.split()[1])
            if saved >= 40:
                break
        child.kill()
        child.wait()
    marks = Review.open(path, "ana", "mqm-core").state.marks
    assert len(marks) >= saved  # every line of the file reads: the last change written whole, or not at all
    assert all(json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line)


# -- trust round 5: several writers, the files people really have ---------------------------------------------------
def _mark(k: int) -> Mark:
    return Mark("hyp.txt", 1 + k % 3, "Minor", "Fluency/Grammar", 0, 1 + k % 5, comment=f"mark {k}")


def _comments(path, rater: str) -> set[str]:
    return {row["comment"] for row in _in_force(path) if row["rater"] == rater and "comment" in row}


def test_two_writers_keep_each_others_rows(tmp_path):
    path = tmp_path / "review.jsonl"
    ana, ben = Review.open(path, "ana", "mqm-core"), Review.open(path, "ben", "mqm-core")
    ana.add(_mark(1))
    ben.add(_mark(2))
    ana.add(_mark(3))  # ana's write must keep ben's row, written after ana opened the file
    with path.open("a", encoding="utf-8") as outside:  # another program appends a row between two writes
        outside.write(json.dumps({"system": "hyp.txt", "segment": 3, "rater": "carl", "severity": "Major",
                                  "category": "Accuracy", "comment": "appended"}) + "\n")
    ben.add(_mark(4))
    assert _comments(path, "ana") == {"mark 1", "mark 3"} and _comments(path, "ben") == {"mark 2", "mark 4"}
    assert _comments(path, "carl") == {"appended"}
    assert ben.undo() and _comments(path, "ben") == {"mark 2"} and _comments(path, "ana") == {"mark 1", "mark 3"}


def test_one_rater_in_two_windows_loses_neither_windows_marks(tmp_path):
    path = tmp_path / "review.jsonl"
    first, second = Review.open(path, "ana", "mqm-core"), Review.open(path, "ana", "mqm-core")
    first.add(_mark(1))
    second.add(_mark(2))
    first.add(_mark(3))
    assert _comments(path, "ana") == {"mark 1", "mark 2", "mark 3"}
    assert {m.comment for m in Review.open(path, "ana", "mqm-core").state.marks} == {"mark 1", "mark 2", "mark 3"}


WRITER = """
import sys
from bleu_gui.core.output.review_file import Mark, Review
review = Review.open(sys.argv[1], sys.argv[2], "mqm-core")
for k in range(40):
    review.add(Mark("hyp.txt", 1 + k % 3, "Minor", "Fluency/Grammar", 0, 1, comment=f"{sys.argv[2]} {k}"))
"""


def test_two_writer_processes_at_once_keep_every_row(tmp_path):
    path = tmp_path / "review.jsonl"
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), rater]) for rater in ("ana", "ben")]
    assert [w.wait() for w in writers] == [0, 0]
    for rater in ("ana", "ben"):
        assert _comments(path, rater) == {f"{rater} {k}" for k in range(40)}


def test_a_review_file_not_in_utf8_is_named_and_a_bom_is_read(tmp_path):
    path = tmp_path / "review.jsonl"
    row = {"system": "hyp.txt", "segment": 1, "rater": "ana", "severity": "Minor", "category": "Style"}
    path.write_bytes(json.dumps(row).encode() + b"\n" + json.dumps(dict(row, comment="caf\u00e9")).encode("ascii")
                     .replace(b"\\u00e9", b"\xe9") + b"\n")
    with pytest.raises(InputError, match=r"review.jsonl: line 2: not UTF-8 \(byte 0xe9\)"):
        Review.open(path, "ana", "mqm-core")
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(row).encode() + b"\n")
    review = Review.open(path, "ana", "mqm-core")
    assert len(review.state.marks) == 1
    review.add(_mark(1))
    assert len(Review.open(path, "ana", "mqm-core").state.marks) == 2


def test_a_last_line_another_program_left_unfinished_is_named_and_nothing_is_written_after_it(tmp_path):
    path = tmp_path / "review.jsonl"
    review = Review.open(path, "ana", "mqm-core")
    review.add(_mark(1))
    with path.open("a", encoding="utf-8") as outside:  # a whole row without its line end: read, then ended
        outside.write(json.dumps({"system": "hyp.txt", "segment": 2, "rater": "carl", "severity": "Minor"}))
    review.add(_mark(2))
    assert _comments(path, "ana") == {"mark 1", "mark 2"} and len(_in_force(path)) == 3
    with path.open("a", encoding="utf-8") as outside:  # half a row: an unfinished write
        outside.write('{"system": "hyp.txt", "seg')
    size = path.stat().st_size
    with pytest.raises(ExportError, match=r"review.jsonl: line 4 is cut short"):
        review.add(_mark(3))
    assert path.stat().st_size == size and review.state.marks == (_mark(1), _mark(2))


# -- the window, keyboard only ---------------------------------------------------------------------------------------

def _open(window, qtbot, hyp, ref):
    window.run_actions.open_files([hyp], [ref])
    qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy)


def _category(qtbot, review, pane):
    """C, the first category of the list, Enter: a category is chosen for each segment (none is carried over)."""
    from PySide6.QtCore import Qt

    qtbot.keyClick(pane, Qt.Key.Key_C)
    qtbot.keyClick(review.category, Qt.Key.Key_Down)
    qtbot.keyClick(review.category, Qt.Key.Key_Return)


def _select(qtbot, pane, start, length):
    from PySide6.QtCore import Qt

    pane.setFocus()
    qtbot.keyClick(pane, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    for _ in range(start):
        qtbot.keyClick(pane, Qt.Key.Key_Right)
    for _ in range(length):
        qtbot.keyClick(pane, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)


def test_keyboard_marks_give_code_point_offsets_and_scored_at_once(qtbot, window, tmp_path):
    from PySide6.QtCore import Qt

    paths = plain(tmp_path)
    _open(window, qtbot, paths["hyp"], paths["ref"])
    assert window.start_review(str(tmp_path / "review.jsonl"), "ana", "mqm")
    detail = window.inspect.detail
    review, pane = detail.review, detail.panes.candidate
    window.controller.set_sentence(1)  # "Heute es ist kalt 😀." — the emoji is two UTF-16 units
    qtbot.waitUntil(lambda: pane.toPlainText() == HYP[1])
    _select(qtbot, pane, 18, 2)  # "😀." is four units: the cursor steps over the emoji in one move
    _category(qtbot, review, pane)
    qtbot.keyClick(pane, Qt.Key.Key_2)
    (mark,) = review.review.state.marks
    assert (mark.start, mark.end, mark.severity) == (18, 20, "Major") and HYP[1][18:20] == "😀."
    qtbot.keyClick(pane, Qt.Key.Key_0)  # reviewed: on to the next unreviewed
    assert window.controller.sentence == 2

    def scored() -> bool:
        run = window.controller.run
        keys = [m.key for m in run.metrics]
        return not window.jobs.busy and "mqm" in keys and run.systems[0].results[keys.index("mqm")].sentences[1] == -5
    qtbot.waitUntil(scored)
    assert window.inspect.sentences.model.reviewed == {1}
    qtbot.keyClick(pane, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the verdict undone
    assert review.review.state.verdicts == ()


@pytest.mark.parametrize("folder, suffix", [("wmt22-en-ja", "ja"), ("wmt22-en-zh-2ref", "zh"),
                                            ("sacrebleu-wmt17-en-de", "de")])
def test_marks_in_japanese_chinese_and_german_read_back_as_the_text_marked(qtbot, window, tmp_path, capsys, folder,
                                                                            suffix):
    from PySide6.QtCore import Qt

    data = data_set(folder)
    refs = sorted(p for p in data.iterdir() if "ref" in p.name and p.is_file())
    systems = sorted(p for p in data.iterdir() if p.is_file() and p not in refs and p.suffix == ".txt"
                     and not p.name.startswith(("src", "source")))
    if not refs or not systems:
        pytest.skip(f"{data} has no plain reference and system files")
    hyp = tmp_path / f"hyp.{suffix}"
    hyp.write_text("".join(line + "\n" for line in systems[0].read_text(encoding="utf-8").splitlines()[:5]),
                   encoding="utf-8")
    ref = tmp_path / f"ref.{suffix}"
    ref.write_text("".join(line + "\n" for line in refs[0].read_text(encoding="utf-8").splitlines()[:5]),
                   encoding="utf-8")
    _open(window, qtbot, hyp, ref)
    assert window.start_review(str(tmp_path / "review.jsonl"), "ana", "mqm")
    detail = window.inspect.detail
    pane = detail.panes.candidate
    window.controller.set_sentence(0)
    text = hyp.read_text(encoding="utf-8").splitlines()[0]
    qtbot.waitUntil(lambda: pane.toPlainText() == text)
    _select(qtbot, pane, 3, 4)
    _category(qtbot, detail.review, pane)
    qtbot.keyClick(pane, Qt.Key.Key_1)
    (mark,) = detail.review.review.state.marks
    assert (mark.start, mark.end) == (3, 7)
    attached, _ = attach_annotations([tmp_path / "review.jsonl"], [SegmentFile(hyp, [text], "utf-8")],
                                     [hyp.name], Context())
    ratings = attached[0].annotations
    assert ratings is not None and ratings[0] is not None
    assert [e.text for e in ratings[0].errors] == [text[3:7]]


def test_suggestions_are_accepted_or_rejected_with_one_key_and_recorded(qtbot, window, tmp_path, capsys):
    from PySide6.QtCore import Qt

    paths = plain(tmp_path)
    suggested = tmp_path / "xcomet.jsonl"  # spans as xCOMET writes them (end exclusive)
    suggested.write_text("".join(json.dumps(r) + "\n" for r in [
        {"system": "hyp.txt", "segment": 1, "start": 4, "end": 8, "severity": "major", "category": "Mistranslation"},
        {"system": "hyp.txt", "segment": 1, "start": 0, "end": 3, "severity": "minor"}]), encoding="utf-8")
    _open(window, qtbot, paths["hyp"], paths["ref"])
    assert window.start_review(str(tmp_path / "review.jsonl"), "ana", "mqm")
    review, pane = window.inspect.detail.review, window.inspect.detail.panes.candidate
    assert review.load_suggestions(suggested) == 2
    window.controller.set_sentence(0)
    pane.setFocus()
    assert [(m.start, m.end) for m in review.pending()] == [(4, 8), (0, 3)]
    qtbot.keyClick(pane, Qt.Key.Key_A)  # "Hund": accepted, its source kept
    qtbot.keyClick(pane, Qt.Key.Key_R)  # "Der": rejected
    assert review.pending() == []
    state = review.review.state
    assert [(m.start, m.end, m.suggested_by) for m in state.marks] == [(4, 8, "xcomet.jsonl")]
    assert [(m.start, m.end) for m in state.rejected] == [(0, 3)]
    rows = [json.loads(line) for line in (tmp_path / "review.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r.get("rejected", False) for r in rows] == [False, True]
    code, out, err = cli(capsys, paths["ref"], "-i", paths["hyp"], "--annotations", tmp_path / "review.jsonl", "-m",
                         "mqm", "-sl", "-f", "json")
    assert code == 0, err
    assert [s["score"] for s in json.loads(out)["sentences"]][0] == -5.0  # the rejected Minor is no error


def test_each_suggestion_is_said_in_words_and_one_without_a_category_waits_for_one(qtbot, window, tmp_path):
    """A segment-level suggestion was taken by A though nothing showed it; xCOMET's (no category) became an MQM
    error of no category."""
    from PySide6.QtCore import Qt

    paths = plain(tmp_path)
    suggested = tmp_path / "judge.jsonl"
    suggested.write_text("".join(json.dumps(r) + "\n" for r in [
        {"system": "hyp.txt", "segment": 1, "severity": "major", "category": "Accuracy/Omission"},
        {"system": "hyp.txt", "segment": 1, "start": 4, "end": 8, "severity": "minor"}]), encoding="utf-8")
    _open(window, qtbot, paths["hyp"], paths["ref"])
    assert window.start_review(str(tmp_path / "review.jsonl"), "ana", "mqm")
    review, pane = window.inspect.detail.review, window.inspect.detail.panes.candidate
    told: list[str] = []
    review.told.connect(told.append)
    assert review.load_suggestions(suggested) == 2
    window.controller.set_sentence(0)
    pane.setFocus()
    line = review.bar.suggestion
    qtbot.waitUntil(lambda: line.isVisibleTo(review.bar))
    assert "the whole segment (no span)" in line.text() and "Accuracy/Omission · Major" in line.text()
    qtbot.keyClick(pane, Qt.Key.Key_A)
    assert "“Hund” — no category · Minor" in line.text() and "1 of 1" in line.text()
    qtbot.keyClick(pane, Qt.Key.Key_A)  # no category chosen: it waits, said
    assert len(review.pending()) == 1 and told and "names no category" in told[-1]
    _category(qtbot, review, pane)
    qtbot.keyClick(pane, Qt.Key.Key_A)
    marks = review.review.state.marks
    assert [(m.start, m.end, m.category != "") for m in marks] == [(None, None, True), (4, 8, True)]
    assert not line.isVisibleTo(review.bar)


def test_an_omission_is_marked_on_the_source(qtbot, window, tmp_path):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QTextCursor

    paths = plain(tmp_path)
    source = ["The cat sat on the mat.", "It is cold today.", "We are going home."]
    paths["src"] = tmp_path / "src.txt"
    paths["src"].write_text("\n".join(source) + "\n", encoding="utf-8")
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    window.run_actions.open_inputs(OpenChoice(InputRequest(systems=(str(paths["hyp"]),),
                                                           references=(str(paths["ref"]),),
                                                           source=str(paths["src"])), None))
    qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy)
    assert window.start_review(str(tmp_path / "review.jsonl"), "ana", "mqm")
    detail = window.inspect.detail
    window.controller.set_sentence(2)  # "Wir gehen Hause." leaves out "are going" … the source pane has line 2 above
    view = detail.context_pane.view
    qtbot.waitUntil(lambda: detail.context_pane.source_at == (len(source[1]) + 1, source[2]))
    start = view.toPlainText().index("going")
    cursor = view.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(start + len("going home"), QTextCursor.MoveMode.KeepAnchor)
    view.setTextCursor(cursor)
    view.setFocus()
    detail.review.category.setCurrentText("Accuracy/Omission")
    qtbot.keyClick(view, Qt.Key.Key_2)
    (mark,) = detail.review.review.state.marks
    assert (mark.side, mark.start, mark.end, mark.category) == ("source", 7, 17, "Accuracy/Omission")
    assert source[2][7:17] == "going home"


def test_marots_tsv_marks_each_error_where_it_was_marked(tmp_path):
    from bleu_gui.core.inputs.annotations import read_annotation_file
    from bleu_gui.core.output.review_file import marot_tsv

    review = Review.open(tmp_path / "review.jsonl", "ana", "mqm-core")
    review.add(Mark("hyp.txt", 1, "Major", "Accuracy/Mistranslation", 4, 8, comment="dog"))
    review.add(Mark("hyp.txt", 3, "Minor", "Accuracy/Omission", 7, 11, side="source"))
    review.judge("hyp.txt", 2)
    source = ["The cat sat on the mat.", "Today it is cold.", "We are going home."]
    path = tmp_path / "review.tsv"
    path.write_text(marot_tsv(review.state, "ana", {"hyp.txt": HYP}, source, None), encoding="utf-8")
    _table, rows, _note = read_annotation_file(path)
    read = [(r.key.segment, r.rating.severity, r.rating.category, r.rating.target_spans, r.rating.comment)
            for r in rows]
    assert read == [("1", "Major", "Accuracy/Mistranslation", [(4, 8)], "dog"), ("2", "No-error", "No-error", [], ""),
                    ("3", "Minor", "Accuracy/Omission", [], "")]
    assert [r.rating.source_spans for r in rows][2] == [(7, 11)] and rows[2].source == source[2]



def test_a_reviewers_marks_rescore_mqm_alone_and_equal_a_fresh_run(tmp_path):
    # rescore(annotations=…) carries over what does not read annotations (BLEU's results and pair matrix, the
    # misalignment check) and scores MQM again; every number equals scoring the annotated files from scratch.
    from dataclasses import replace as replaced

    import numpy as np

    from bleu_gui.core import RunConfig, score_run
    from bleu_gui.core.metrics.registry import family
    from bleu_gui.core.output.review_file import ratings_with
    from bleu_gui.core.run.scoring import rescore

    refs = [SegmentFile(tmp_path / "ref.txt", list(REF) * 4, "utf-8")]
    systems = [SegmentFile(tmp_path / f"{n}.txt", [line + extra for line in HYP * 4], "utf-8", annotations=(None,) * 12)
               for n, extra in (("a", ""), ("b", " ja"), ("c", " nein"))]
    config = RunConfig((family("bleu").config(), family("mqm").config()))
    run = score_run(systems, refs, config, names=["a", "b", "c"])
    review = Review.open(tmp_path / "r.jsonl", "ana", "x")
    review.add(Mark("b", 2, "Major", "Accuracy/Mistranslation", 0, 5))
    review.judge("b", 3)
    ratings = ratings_with(None, review.state, "b", "ana", systems[1].lines, None)
    again = rescore(run, annotations={1: ratings})
    fresh = score_run([systems[0], replaced(systems[1], annotations=ratings), systems[2]], refs, config,
                      names=["a", "b", "c"])
    bleu, mqm = 0, 1
    assert again.systems[1].results[bleu] is run.systems[1].results[bleu]  # carried over, not scored again
    assert again.comparison.by_metric[bleu].matrix is not None
    for s_again, s_fresh in zip(again.systems, fresh.systems):
        for k in (bleu, mqm):
            np.testing.assert_array_equal(s_again.results[k].sentences, s_fresh.results[k].sentences)
    assert again.systems[1].results[mqm].sentences[1] == -5 and again.systems[1].results[mqm].sentences[2] == 0
    for k in (bleu, mqm):
        a, f = again.comparison.by_metric[k].matrix, fresh.comparison.by_metric[k].matrix
        np.testing.assert_array_equal(a.p_bs, f.p_bs)
        np.testing.assert_array_equal(a.p_ar, f.p_ar)


def test_an_esa_score_is_the_human_column_at_once(qtbot, window, tmp_path):
    from PySide6.QtCore import Qt

    paths = plain(tmp_path)
    _open(window, qtbot, paths["hyp"], paths["ref"])
    assert window.start_review(str(tmp_path / "esa.jsonl"), "ana", "esa")
    review, pane = window.inspect.detail.review, window.inspect.detail.panes.candidate
    assert not review.category.isVisibleTo(review.bar) and not review.severity_buttons["Critical"].isVisibleTo(review.bar)
    window.controller.set_sentence(1)
    qtbot.waitUntil(lambda: pane.toPlainText() == HYP[1])
    _select(qtbot, pane, 6, 6)
    qtbot.keyClick(pane, Qt.Key.Key_1)  # Minor: "es ist"
    review.score_box.setValue(60)
    qtbot.keyClick(pane, Qt.Key.Key_Minus)  # 55
    qtbot.keyClick(pane, Qt.Key.Key_Return)

    def scored() -> bool:
        run = window.controller.run
        keys = [m.key for m in run.metrics]
        return (not window.jobs.busy and "esa" in keys and "mqm" in keys
                and run.systems[0].results[keys.index("esa")].sentences[1] == 55)
    qtbot.waitUntil(scored)
    run = window.controller.run
    keys = [m.key for m in run.metrics]
    assert run.systems[0].results[keys.index("mqm")].sentences[1] == -1
    assert Review.open(tmp_path / "esa.jsonl", "ana", "x").state.verdict("hyp.txt", 2).esa == 55


def test_next_unreviewed_wraps_round_within_a_slice_and_stays_when_all_are_done(qtbot, window, tmp_path):
    from PySide6.QtCore import Qt

    paths = plain(tmp_path)
    _open(window, qtbot, paths["hyp"], paths["ref"])
    window.run_actions.apply_slice([0, 2], "lines 1 and 3")
    qtbot.waitUntil(lambda: window.controller.run.slice is not None and not window.jobs.busy)
    assert window.start_review(str(tmp_path / "review.jsonl"), "ana", "mqm")
    pane = window.inspect.detail.panes.candidate
    qtbot.waitUntil(lambda: not window.jobs.busy and window.controller.sentence is not None)
    window.controller.set_sentence(1)  # line 3
    pane.setFocus()
    qtbot.keyClick(pane, Qt.Key.Key_0)  # line 3 reviewed: on to line 1, round the end of the slice
    assert window.controller.sentence == 0
    qtbot.waitUntil(lambda: not window.jobs.busy and window.controller.sentence == 0)
    pane.setFocus()
    qtbot.keyClick(pane, Qt.Key.Key_0)  # every line of the slice reviewed (line 2, outside it, is not): it stays
    qtbot.waitUntil(lambda: not window.jobs.busy and window.controller.sentence is not None)
    assert window.controller.sentence == 0
    state = window.inspect.detail.review.review.state
    assert state.reviewed("hyp.txt") == {1, 3}


def test_the_window_names_a_review_file_that_is_not_utf8(qtbot, window, tmp_path):
    paths = plain(tmp_path)
    _open(window, qtbot, paths["hyp"], paths["ref"])
    bad = tmp_path / "review.jsonl"
    bad.write_bytes(b'{"system": "hyp.txt", "segment": 1, "rater": "ana", "severity": "Minor", "comment": "caf\xe9"}\n')
    with qtbot.waitSignal(window.error_shown) as shown:
        assert not window.start_review(str(bad), "ana", "MQM")
    assert "review.jsonl: line 1: not UTF-8 (byte 0xe9)" in shown.args[0]
