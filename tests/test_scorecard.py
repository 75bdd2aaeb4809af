"""The reviewer's scorecard (--scorecard, Tools ▸ Scorecard): MQM's scoring model worked out by hand on a review,
per document and per rater; words counted as CAT tools count them (CJK characters one word each); the workbook and
the page carry the same numbers; bad weights refused."""

from __future__ import annotations

import json

import pytest

from bleu_gui.core.analysis.scorecard import scorecard, word_count
from bleu_gui.core.inputs.ratings import ErrorSpan, Ratings
from bleu_gui.core.output.review_file import Mark, Review

from .conftest import cli

SOURCE = ["The cat sat on the mat.", "Today it is cold.", "We go home."]  # 6, 4 and 3 words
REF = ["Die Katze saß auf der Matte.", "Heute ist es kalt.", "Wir gehen nach Hause."]
HYP = ["Der Hund saß auf der Matte.", "Heute es ist kalt.", "Wir gehen Hause."]


def files(tmp_path):
    paths = {}
    for name, lines in (("src", SOURCE), ("ref", REF), ("hyp", HYP)):
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    review = Review.open(tmp_path / "review.jsonl", "ana", "mqm-core")
    review.add(Mark("hyp.txt", 1, "Major", "Accuracy/Mistranslation", 4, 8))
    review.add(Mark("hyp.txt", 2, "Minor", "Fluency/Grammar", 6, 12))
    review.add(Mark("hyp.txt", 3, "Major", "Accuracy/Omission"))
    paths["review"] = review.path
    return paths


def test_the_scorecard_by_hand(tmp_path, capsys):
    paths = files(tmp_path)
    # 13 source words rated; penalty 5 + 1 + 5 = 11; 11 / 13 × 1,000 = 846.15 per 1,000 words; quality
    # 100 × (1 − 11/13) = 15.38: a fail at 99.
    code, out, err = cli(capsys, paths["ref"], "-i", paths["hyp"], "--src", paths["src"], "--annotations",
                         paths["review"], "--scorecard", "-f", "json")
    assert code == 0, err
    (card,) = json.loads(out)["scorecard"]["cards"]
    assert (card["words"], card["segments"], card["penalty"]) == (13, 3, 11.0)
    assert card["per_1000_words"] == pytest.approx(11 / 13 * 1000)
    assert card["quality"] == pytest.approx(100 * (1 - 11 / 13)) and card["passed"] is False
    assert card["errors"] == {"Minor": 1, "Major": 2}
    # Weights of one's own: Major 2 gives 2 + 1 + 2 = 5; threshold 60 passes 100 × (1 − 5/13) = 61.5.
    code, out, err = cli(capsys, paths["ref"], "-i", paths["hyp"], "--src", paths["src"], "--annotations",
                         paths["review"], "--scorecard", "--scorecard-weights", "major=2", "--scorecard-threshold", "60",
                         "-f", "json")
    assert code == 0, err
    (card,) = json.loads(out)["scorecard"]["cards"]
    assert card["penalty"] == 5.0 and card["quality"] == pytest.approx(100 * (1 - 5 / 13)) and card["passed"]


def test_several_raters_and_documents_each_get_a_card():
    def rated(*raters_errors):
        return Ratings(tuple(r for r, _ in raters_errors),
                       tuple(ErrorSpan(r, "Accuracy/Mistranslation", s) for r, s in raters_errors if s))

    # Segment 1 (doc a, 2 words) rated by ana (a Major) and by ben (none); segment 2 (doc b, 3 words) by ana (a Minor).
    annotations = [rated(("ana", "Major"), ("ben", "")), rated(("ana", "Minor"))]
    card = scorecard([("sys", annotations)], ["two words", "three more words"], ["a", "b"])
    whole = {c.rater: c for c in card.cards if c.scope == "all"}
    # All raters: 6 + 1 = 6 points over 2 × 2 + 3 = 7 words (each rater's evaluation of a segment counts its words).
    assert (whole["all raters"].penalty, whole["all raters"].words) == (6.0, 7)
    assert (whole["ana"].penalty, whole["ana"].words) == (6.0, 5) and (whole["ben"].penalty, whole["ben"].words) == (0, 2)
    docs = {(c.rater, c.scope): c.words for c in card.cards if c.scope != "all"}
    assert docs == {("all raters", "a"): 4, ("all raters", "b"): 3, ("ana", "a"): 2, ("ana", "b"): 3, ("ben", "a"): 2}


@pytest.mark.parametrize("text, words", [("The cat sat.", 3), ("迅速な配送料", 6), ("Hello 世界 foo", 4),
                                         ("Привет, мир.", 2), ("한국어 문장", 5), ("", 0),
                                         # punctuation, full-width or standing alone, is no word
                                         ("你好，世界！", 4), ("「東京」へ。", 3), ("Hello , world !", 2),
                                         ("Привет — мир …", 2), ("„Guten Tag“, sagte er.", 4), ("« Bonjour » !", 1),
                                         # half-width kana count as full-width; a voicing mark joins its kana
                                         ("ｶﾀｶﾅ", 4), ("カタカナ", 4), ("ｶﾞｷﾞ", 2), ("ガギ", 2),
                                         ("Preis: 12,50 € (netto)", 3), ("3 + 4 = 7", 3)])
def test_words_are_counted_as_cat_tools_count_them(text, words):
    assert word_count(text) == words


def test_the_workbook_and_the_page_carry_the_numbers(tmp_path, capsys):
    from python_calamine import CalamineWorkbook

    paths = files(tmp_path)
    for out in (tmp_path / "card.xlsx", tmp_path / "card.html"):
        code, _out, err = cli(capsys, paths["ref"], "-i", paths["hyp"], "--src", paths["src"], "--annotations",
                              paths["review"], "--scorecard", "--scorecard-out", out)
        assert code == 0, err
    rows = CalamineWorkbook.from_path(str(tmp_path / "card.xlsx")).get_sheet_by_name("scorecard").to_python()
    assert rows[1][:5] == ["hyp.txt", "all", "all raters", 3, 13] and rows[1][9] == 11 and rows[1][-1] == "FAIL"
    page = (tmp_path / "card.html").read_text(encoding="utf-8")
    assert "846.15" in page and "FAIL" in page and "Accuracy/Omission" in page


@pytest.mark.parametrize("argv, said", [
    (["--scorecard-weights", "fatal=3"], "--scorecard-weights 'fatal=3': write SEVERITY=W"),
    (["--scorecard-weights", "minor=-1"], "a weight of 0 or more"),
    (["--scorecard-out", "card.pdf"], "write .xlsx or .html"),
])
def test_bad_scorecard_settings_are_refused(tmp_path, capsys, argv, said):
    paths = files(tmp_path)
    code, _out, err = cli(capsys, paths["ref"], "-i", paths["hyp"], "--src", paths["src"], "--annotations",
                          paths["review"], "--scorecard", *argv)
    assert code != 0 and said in err and "Traceback" not in err


def test_a_scorecard_needs_the_source(tmp_path, capsys):
    paths = files(tmp_path)
    code, _out, err = cli(capsys, paths["ref"], "-i", paths["hyp"], "--annotations", paths["review"], "--scorecard")
    assert code != 0 and "per 1,000 source words: give the source" in err


def test_tools_scorecard_follows_the_weights_and_saves(qtbot, window, tmp_path):
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    paths = files(tmp_path)
    request = InputRequest(systems=(str(paths["hyp"]),), references=(str(paths["ref"]),), source=str(paths["src"]),
                           annotations=(str(paths["review"]),))
    window.run_actions.open_inputs(OpenChoice(request, None))
    qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy)
    dialog = window.tools.open_scorecard()
    assert dialog is not None
    qtbot.addWidget(dialog)
    header = [dialog.table.horizontalHeaderItem(k).text() for k in range(dialog.table.columnCount())]
    penalty = header.index("penalty")
    assert dialog.table.rowCount() == 1 and dialog.table.item(0, penalty).text() == "11.00"
    dialog.weights["Major"].setValue(2.0)  # 2 + 1 + 2
    assert dialog.table.item(0, penalty).text() == "5.00" and dialog.table.item(0, header.index("verdict")).text() == "FAIL"
    cats = {dialog.categories.item(r, 0).text(): dialog.categories.item(r, dialog.categories.columnCount() - 1).text()
            for r in range(dialog.categories.rowCount())}
    assert cats == {"Accuracy/Mistranslation": "2", "Fluency/Grammar": "1", "Accuracy/Omission": "2"}
    with qtbot.waitSignal(dialog.saved):
        dialog.save(str(tmp_path / "card.html"))
    assert "Major 2" in (tmp_path / "card.html").read_text(encoding="utf-8")


def test_the_lqa_report_lists_every_error_with_its_span_marked_its_weight_rater_and_time(tmp_path, capsys):
    """memoQ's LQA and Trados's TQA reports list each error: segment, source, target with the span marked,
    category, severity, comment, rater, time — worked here from the review's own marks."""
    from python_calamine import CalamineWorkbook

    paths = files(tmp_path)
    review = Review.open(paths["review"], "ana", "mqm-core")
    review.add(Mark("hyp.txt", 2, "Major", "Style/Awkward", 0, 5, comment="word order", time="2026-12-01T10:00:00+00:00"))
    out = tmp_path / "lqa.xlsx"
    code, _out, err = cli(capsys, paths["ref"], "-i", paths["hyp"], "--src", paths["src"], "--annotations",
                          paths["review"], "--scorecard", "--scorecard-out", out)
    assert code == 0, err
    book = CalamineWorkbook.from_path(str(out))
    listed = book.get_sheet_by_name("error list").to_python()
    assert listed[0][:5] == ["system", "document", "segment", "source", "target (error ⟦marked⟧)"]
    rows = {(r[2], r[7]): r for r in listed[1:]}
    # "Der Hund saß auf der Matte.": characters 4-8 ("Hund"), a Major of weight 5.
    hund = rows[(1, "Major")]
    assert hund[4] == "Der ⟦Hund⟧ saß auf der Matte." and hund[5] == "Hund" and hund[8] == 5 and hund[10] == "ana"
    awkward = rows[(2, "Major")]
    assert awkward[4] == "⟦Heute⟧ es ist kalt." and awkward[9] == "word order" and awkward[11] == "2026-12-01T10:00:00+00:00"
    assert rows[(3, "Major")][4] == "Wir gehen Hause." and rows[(3, "Major")][6] == "Accuracy/Omission"  # no span
    assert len(listed) == 1 + 4
    totals = book.get_sheet_by_name("errors by category").to_python()
    assert sorted(tuple(r[2:5]) for r in totals[1:]) == [("Accuracy/Mistranslation", "Major", 1),
                                                         ("Accuracy/Omission", "Major", 1),
                                                         ("Fluency/Grammar", "Minor", 1), ("Style/Awkward", "Major", 1)]
    scorecard_sheet = book.get_sheet_by_name("scorecard").to_python()
    assert scorecard_sheet[1][9] == 16 and scorecard_sheet[1][-1] == "FAIL"  # 5 + 1 + 5 + 5
    about = dict(tuple(r[:2]) for r in book.get_sheet_by_name("about").to_python())
    assert about["pass"] == "quality ≥ 99" and "Major 5" in about["weights"]
    code, _out, err = cli(capsys, paths["ref"], "-i", paths["hyp"], "--src", paths["src"], "--annotations",
                          paths["review"], "--scorecard", "--scorecard-out", tmp_path / "lqa.html")
    page = (tmp_path / "lqa.html").read_text(encoding="utf-8")
    assert "<h2>Error list</h2>" in page and "Der <mark" in page and ">Hund</mark>" in page and "word order" in page
