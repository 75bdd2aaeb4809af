"""Why this COMET: neural scores explained through the model itself (never reimplemented) — a candidate edited (F2)
scored again by the worker as the user types, every word's worth to the score by erasure, in one segment and across
a slice — each number equal to unbabel-comet's own ``predict`` of the texts it scores (conftest.py: ``built``)."""

import json
import os
import re
import signal

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest

from bleu_gui.core.analysis.erasure import erase, erasure_texts
from tests import comet_setup
from tests.comet_setup import (
    TYPED,
    WHATIF,
    ZH_ERASED,
    comet,
    comet_panel,
    erasure_cases,
    requests_sent,
    whatif_texts,
    write_en_ja,
    zh_en_lines,
)
from tests.conftest import cli

pytestmark = pytest.mark.xdist_group("comet")  # the worker's environment and tiny models: once per test process
en_ja = comet_setup.en_ja
fresh_user_cache = comet_setup.fresh_user_cache


def _open_with_comet(qtbot, window, tiny_comet, comet_python, en_ja, tmp_path, systems=("sys1",)):
    write_en_ja(en_ja, tmp_path)
    comet_panel(window, tiny_comet["regression"], comet_python, tmp_path / "cache.sqlite")
    window.run_actions.open_files([tmp_path / f"{s}.txt" for s in systems], [tmp_path / "ref1.txt"],
                                  source=tmp_path / "src.txt")
    qtbot.waitUntil(lambda: window.controller.run is not None and any(
        m.key == "comet" for m in window.controller.run.metrics) and not window.jobs.busy, timeout=120_000)
    run = window.controller.run
    return run, next(i for i, m in enumerate(run.metrics) if m.key == "comet")


def type_keys(widget, text):
    """``text`` typed key by key (QTest's keyClicks takes ASCII only): one key press and release per character."""
    for ch in text:
        QTest.sendKeyEvent(QTest.KeyAction.Click, widget, Qt.Key.Key_unknown, ch, Qt.KeyboardModifier.NoModifier)


def _edit_at_the_end(qtbot, window, sentence):
    """Sentence ``sentence`` on screen, F2, the cursor at the end of the candidate: its pane."""
    window.inspect.sentences.select_sentence(sentence)
    qtbot.keyClick(window.inspect, Qt.Key.Key_F2)
    return _cursor_at_the_end(window.inspect.detail.panes.candidate)


def _cursor_at_the_end(pane):
    pane.setFocus()
    cursor = pane.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.End)
    pane.setTextCursor(cursor)
    return pane


def test_typing_rescores_comet_in_the_worker_only_for_the_last_text_and_a_text_typed_back_is_read(
        qtbot, window, tiny_comet, comet_python, en_ja, comets_own, tmp_path, monkeypatch):
    run, k = _open_with_comet(qtbot, window, tiny_comet, comet_python, en_ja, tmp_path, ("sys1", "sys2"))
    line = window.inspect.detail.model_whatif
    asked, answered = [], []
    line.requested.connect(lambda sentence, text: asked.append((sentence, text)))
    line.answered.connect(lambda sentence, text: answered.append((sentence, text)))
    pane = _edit_at_the_end(qtbot, window, WHATIF)
    texts = whatif_texts(en_ja["sys1"])
    busy = run.metrics[k].scorer._lock  # held here: the worker is busy (as while the run's own scoring holds it)
    busy.acquire()
    try:
        with qtbot.waitSignal(line.requested, timeout=30_000):
            type_keys(pane, TYPED[0])
        type_keys(pane, TYPED[1:])  # nine more keys while the first text is with the model
        qtbot.waitUntil(lambda: not line._timer.isActive())  # the pause came: the newest text waits its turn
        assert "COMET scoring the edit…" in line.label.text()
    finally:
        busy.release()
    qtbot.waitUntil(lambda: not line.busy, timeout=60_000)
    # Ten keys, two requests: the text of the first key (with the model when the others came) and the last one.
    assert asked == [(WHATIF, texts["one key"]), (WHATIF, texts["all keys"])] == answered
    theirs = comets_own["what-if: all keys"]["scores"][0]
    (_, made), = line.whatifs()
    assert made.segment_after == pytest.approx(theirs, abs=1e-6)
    whole = list(comets_own["regression"]["scores"])
    assert made.segment_before == pytest.approx(whole[WHATIF], abs=1e-6)
    whole[WHATIF] = theirs
    assert made.corpus_after == pytest.approx(float(np.mean(whole)), abs=1e-6)
    shown = line.label.text()
    # The label prints the numbers just checked against the oracle (formatting the oracle's own could tip a rounding).
    after, before = made.segment_after, made.segment_before
    assert f"COMET {before:.4f} → <b>{after:.4f}</b> ({after - before:+.4f})" in shown
    assert f"corpus {made.corpus_before:.4f} → {made.corpus_after:.4f}" in shown
    assert f"|edited:{WHATIF + 1}" in shown and "ckpt:" in shown  # the signature says the segment was edited
    # The text of the first key typed back: the model's answer is read, nothing is scored again — neither from what
    # the line holds nor, after another system and back (nothing carries over), from the metric's cache.
    sent = requests_sent(monkeypatch)
    for _ in TYPED[1:]:
        qtbot.keyClick(pane, Qt.Key.Key_Backspace)
    qtbot.waitUntil(lambda: not line.busy)
    assert asked[2:] == [] and _bold_score(line.label.text()) == _four_decimals_of(comets_own["what-if: one key"])
    window.controller.set_system(1)
    assert not line.label.isVisible()  # sys2 has no edit: the line says nothing of sys1's
    window.controller.set_system(0)
    qtbot.waitUntil(lambda: len(asked) == 3 and not line.busy, timeout=30_000)
    assert asked[2] == (WHATIF, texts["one key"]) and [op for op, _ in sent] == []


def test_a_request_cancelled_or_cut_by_the_workers_death_is_never_shown_and_typing_goes_on(
        qtbot, window, tiny_comet, comet_python, en_ja, comets_own, tmp_path, monkeypatch):
    run, k = _open_with_comet(qtbot, window, tiny_comet, comet_python, en_ja, tmp_path, ("sys1", "sys2"))
    line = window.inspect.detail.model_whatif
    answered = []
    line.answered.connect(lambda sentence, text: answered.append(text))
    pane = _edit_at_the_end(qtbot, window, WHATIF)
    scorer = run.metrics[k].scorer
    # Another system shown while the model scores the edit: the request is dropped, its answer never shown.
    scorer._lock.acquire()
    try:
        with qtbot.waitSignal(line.requested, timeout=30_000):
            type_keys(pane, TYPED[0])
        window.controller.set_system(1)
    finally:
        scorer._lock.release()
    qtbot.waitUntil(lambda: not line.jobs.busy and not line.busy, timeout=60_000)
    assert answered == [] and not line.label.isVisible()
    # The worker killed while it scores: one line says so, nothing else changes, and the next key is scored by a
    # new worker.
    window.controller.set_system(0)
    qtbot.waitUntil(lambda: bool(answered), timeout=60_000)  # the edit kept for sys1, scored again on its return
    from bleu_gui.core.metrics.comet import worker

    request, killed = worker.CometWorker.request, []

    def killed_as_it_scores(self, message, *args, **kwargs):
        if message["op"] == "score" and not killed:  # once: the worker dies with the edit's request in it
            killed.append(self.pid)
            os.kill(self.pid, signal.SIGKILL)
        return request(self, message, *args, **kwargs)

    monkeypatch.setattr(worker.CometWorker, "request", killed_as_it_scores)
    assert window.inspect.detail.panes.editing  # still editing, on sys1's edit as it was left
    type_keys(_cursor_at_the_end(pane), TYPED[1])
    qtbot.waitUntil(lambda: not line.busy, timeout=60_000)
    assert re.search(r"the model could not score the edit: the COMET worker \(.*\) stopped", line.label.text())
    assert "\n" not in line.label.text()
    type_keys(pane, TYPED[2:])  # the rest of the keys: a text no cache holds, scored by a new worker
    qtbot.waitUntil(lambda: not line.busy and "could not" not in line.label.text(), timeout=120_000)
    assert _bold_score(line.label.text()) == _four_decimals_of(comets_own["what-if: all keys"])


def _bold_score(label: str) -> float:
    (shown,) = re.findall(r"<b>(-?\d+\.\d{4})</b>", label)
    return float(shown)


def _four_decimals_of(theirs: dict) -> object:
    # Shown in COMET's four decimals, within half their last digit of unbabel-comet's score (its batch may differ from
    # the worker's by 1e-6, which can tip a rounding at the fourth decimal).
    return pytest.approx(theirs["scores"][0], abs=0.5e-4 + 2e-6)


def test_erasure_deltas_are_comets_own_scores_of_the_erased_texts(tiny_comet, comet_python, comets_own, tmp_path):
    # Each word left out, the segment scored again through the worker and its cache: every delta equals
    # unbabel-comet's own predict of the erased text minus its predict of the whole one (the oracle, run alone).
    for name, (src_line, text, ref_line, tokenize) in erasure_cases().items():
        metric = comet(tiny_comet["regression"], comet_python, [[ref_line]], [src_line], tmp_path)
        found = erase("target", (0, src_line, text), metric.score_variants, tokenize)
        theirs = comets_own[f"erasure: {name}"]["scores"]
        assert len(found.words) == len(theirs) - 1 > 0, name
        assert found.score == pytest.approx(theirs[0], abs=1e-6)
        for word, score in zip(found.words, theirs[1:]):
            assert found.score + word.delta == pytest.approx(score, abs=1e-6), (name, word.text)
            assert text[word.start:word.end] == word.text
    # Words, not sub-word pieces: the emoji and the combining mark stay inside their words; a one-character word is
    # one; the one-word candidate erased is the empty text, scored as COMET scores it.
    spans, texts = erasure_texts("Guten Morgen 👋, Cafe\u0301 um acht.")
    assert [t for t in texts[1:] if "Cafe" not in t] == ["Guten Morgen 👋, um acht."]
    assert erasure_texts("Ja")[1] == ["Ja", ""]


def test_explain_says_which_words_move_comet_and_what_xcomet_marked_there(tiny_comet, comet_python, en_ja, tmp_path,
                                                                        capsys):
    # --explain 4 of an en-ja system under xCOMET: the candidate's words by the run's ja-mecab, each erased through
    # the worker (its cache: asking again scores nothing new), the words pulling the score down said with their
    # deltas in the metric's decimals, and how many of them lie in xCOMET's own spans.
    write_en_ja(en_ja, tmp_path)
    argv = [tmp_path / "ref1.txt", "-i", tmp_path / "sys1.txt", "--src", tmp_path / "src.txt", "--langs", "en", "ja",
            "-m", "bleu", "comet", "--comet-model", tiny_comet["xcomet"], "--comet-python", comet_python,
            "--comet-cache", tmp_path / "comet.sqlite", "--explain", "4"]
    code, out, err = cli(capsys, *argv, "-f", "json")
    assert code == 0, err
    (found,) = json.loads(out)
    comet_part = found["comet"]
    assert comet_part["word_splitting"] == "ja-mecab"
    target, source = comet_part["erasure"]
    candidate, words = en_ja["sys1"][3], target["words"]
    assert target["side"] == "target" and source["side"] == "source"
    assert [candidate[w["start"]:w["end"]] for w in words] == [w["text"] for w in words] and len(words) > 3
    assert target["score"] == pytest.approx(comet_part["score"], abs=1e-9)  # the whole text is the segment's score
    code, out, err = cli(capsys, *argv)
    assert code == 0, err
    assert "Which words move it (erasure):" in out and "words by ja-mecab" in out
    assert re.search(r"candidate words that pull it down most \(left out, the score rises\): “[^”]+” \+\d\.\d{4}", out) \
        or "no candidate word pulls it down" in out
    assert re.search(r"\d of the \d lie in COMET[^']*'s spans", out) or "no candidate word pulls it down" in out



@pytest.mark.parametrize("kind", ["regression", "referenceless"])
def test_a_chinese_source_is_erased_word_by_word_whatever_the_targets_splitting(kind, tiny_comet, comet_python,
                                                                                comets_own, tmp_path, capsys):
    # zh-en, no language declared: the candidate (English) is split at spaces, the source by sacreBLEU's zh, found from
    # its script — it was split at its one space, into two "words". Each source word's delta equals unbabel-comet's own
    # predict of the source without it (the reference-free model: the translator's run of source and MT alone).
    from bleu_gui.core.metrics.sacre_tokenizers import load_tokenizer

    zh = zh_en_lines()
    i = ZH_ERASED if kind == "regression" else ZH_ERASED - 1
    for name, got in zh.items():
        (tmp_path / f"{name}.txt").write_text("\n".join(got) + "\n", encoding="utf-8")
    refs = [tmp_path / "ref1.txt"] if kind == "regression" else []
    argv = [*refs, "-i", tmp_path / "sys1.txt", "--src", tmp_path / "src.txt", "-m", "comet", "--comet-model",
            tiny_comet[kind], "--comet-python", comet_python, "--comet-cache", tmp_path / "comet.sqlite",
            "--explain", str(i + 1)]
    code, out, err = cli(capsys, *argv, "-f", "json")
    assert code == 0, err
    (found,) = json.loads(out)
    part = found["comet"]
    assert (part["word_splitting"], part["source_word_splitting"]) == ("whitespace", "zh")
    _target, source = part["erasure"]
    words = source["words"]
    assert [w["text"] for w in words] == load_tokenizer("zh")(zh["src"][i]).split()
    whole = comets_own[f"zh-en run by {kind}"]["scores"][i]
    theirs = comets_own[f"source erasure by {kind}: Chinese"]["scores"]
    assert source["score"] == pytest.approx(whole, abs=1e-6) and len(words) == len(theirs) > 10
    # Each erased text's score (the whole one's plus its delta) is unbabel-comet's.
    assert [source["score"] + w["delta"] for w in words] == pytest.approx(theirs, abs=1e-6)
    code, out, err = cli(capsys, *argv)
    assert code == 0, err
    assert "words by whitespace, the source's by zh" in out


def _tips(html: str) -> list[str]:
    from urllib.parse import unquote

    return [unquote(t) for t in re.findall(r'href="tip:([^"]*)"', html)]


def test_the_window_shades_each_word_by_what_leaving_it_out_does_to_comet_and_follows_only_the_segment_at_rest(
        qtbot, window, tiny_comet, comet_python, en_ja, comets_own, tmp_path):
    # A Japanese segment under the regression model, words by the run's ja-mecab: each word's delta on hover is
    # unbabel-comet's own predict of the text without it minus its predict of the whole (the oracle), in COMET's four
    # decimals; the source is erased too; the account in words follows.
    run, k = _open_with_comet(qtbot, window, tiny_comet, comet_python, en_ja, tmp_path)
    view = window.inspect.evidence.erasure
    asked = []
    view.requested.connect(lambda system, sentence: asked.append(sentence))
    window.controller.set_metric(k)
    with qtbot.waitSignal(view.answered, timeout=60_000):
        window.inspect.sentences.select_sentence(3)
    assert view.isVisible() and "words by ja-mecab" in view.title.text()
    theirs = comets_own["erasure: Japanese"]["scores"]
    html = view.view.toHtml()
    tips = _tips(html)
    candidate_tips = tips[:len(theirs) - 1]
    # Four decimals, each within half their last digit of the oracle's delta (a delta is a difference of two scores,
    # each within about 2e-6 of the oracle's: the worker batches what its cache lacks, padded otherwise; enough to tip a
    # rounding at the fourth decimal).
    assert all(re.fullmatch(r"left out: [+-]\d+\.\d{4}", t) for t in candidate_tips)
    shown = [float(t.removeprefix("left out: ")) for t in candidate_tips]
    assert shown == pytest.approx([s - theirs[0] for s in theirs[1:]], abs=0.5e-4 + 4e-6)
    assert len(tips) > len(theirs) - 1  # the source's words follow
    text = view.view.toPlainText()
    assert "Candidate (" in text and "Source (" in text
    assert "pull it down most" in text or "no candidate word pulls it down" in text
    # Arrow keys through the list: nothing is sent until they rest, and a segment erased before is not sent again.
    for sentence in (4, 5, 6, 3):
        window.inspect.sentences.select_sentence(sentence)
    qtbot.waitUntil(lambda: not view.busy)
    assert asked == [3] and _tips(view.view.toHtml()) == tips


def test_compare_says_what_comet_holds_against_b_from_comets_own_scores_and_a_cancel_keeps_what_was_scored(
        qtbot, window, tiny_comet, comet_python, en_ja, comets_own, tmp_path):
    from bleu_gui.core.analysis.erasure import erasure_of, held_against
    from bleu_gui.core.metrics.sacre_tokenizers import load_tokenizer

    run, k = _open_with_comet(qtbot, window, tiny_comet, comet_python, en_ja, tmp_path, ("sys1", "sys2"))
    holds = window.compare_view.holds
    assert holds.button.isEnabled() and "24 segments of the whole corpus" in holds.note.text()
    # Cancelled at its first step: said, the button back; the cache keeps the batches finished.
    steps = []

    def cancel_once(_fraction):
        if not steps:
            steps.append(_fraction)
            holds.jobs.cancel()

    holds.jobs.progress.connect(cancel_once)
    holds.button.click()
    qtbot.waitUntil(lambda: not holds.jobs.busy and holds.button.isEnabled(), timeout=60_000)
    assert holds.note.text() == "Cancelled." and holds.found is None
    holds.jobs.progress.disconnect(cancel_once)
    holds.button.click()
    qtbot.waitUntil(lambda: holds.found is not None, timeout=120_000)
    # The oracle: unbabel-comet's predict of every erased text of sys2, tallied as the panel tallies its own.
    ja = load_tokenizer("ja-mecab")
    theirs, at, erasures = comets_own["corpus erasure: sys2"]["scores"], 0, []
    for i, line in enumerate(en_ja["sys2"]):
        spans, texts = erasure_texts(line, ja)
        erasures.append((i, erasure_of("target", line, spans, theirs[at:at + len(texts)])))
        at += len(texts)
    expected = held_against(erasures, 30)
    _k, _b, shown = holds.found
    assert f"{at:,} texts scored; words by ja-mecab" in holds.note.text()  # every erased text, and the whole ones
    assert [(h.word, h.raised, h.occurrences, h.segments) for h in shown] == \
        [(h.word, h.raised, h.occurrences, h.segments) for h in expected]
    # The means to 1e-5: the panel's texts went to the model in one request (and partly before the cancel), batched
    # otherwise than the oracle's, and padding moves this random model's large scores by up to ~5e-6 (test_comet.py).
    for mine, oracle in zip(shown, expected):
        assert mine.mean_delta == pytest.approx(oracle.mean_delta, abs=1e-5)
    # A word clicked: the pair list shows the segments where leaving it out raised COMET.
    from bleu_gui.gui.widgets.item_tables import model_of

    table = model_of(holds.table)
    assert [table.item(r, 1).text() for r in range(table.rowCount())] == [h.word for h in shown]
    holds._word_chosen(table.index(0, 0))
    assert window.compare_view.pairs.model.rowCount() == len(shown[0].segments)
    assert f"“{shown[0].word}”" in window.compare_view.pairs.filter_label.text()
    # Ordered by share instead (a header's click): the rows follow the share, and a click on a row that moved lists
    # the segments of the word it shows now, not of the word that stood there before the sort.
    from PySide6.QtCore import Qt

    holds.table.sortByColumn(4, Qt.SortOrder.DescendingOrder)
    by_word = {h.word: h for h in shown}
    now = [by_word[table.item(r, 1).text()] for r in range(table.rowCount())]
    assert [h.raised / h.occurrences for h in now] == sorted((h.raised / h.occurrences for h in shown), reverse=True)
    moved = next(r for r, h in enumerate(now) if h is not shown[r])  # a row that holds another word than before
    chosen = now[moved]
    holds._word_chosen(table.index(moved, 3))
    assert f"“{chosen.word}”" in window.compare_view.pairs.filter_label.text()
    assert window.compare_view.pairs.model.rowCount() == len(chosen.segments)
