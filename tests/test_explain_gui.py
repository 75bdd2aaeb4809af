"""The window's why-this-score panel, what-if editor, all-orders bars, token edges, tokenizer table and help."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from sacrebleu.metrics import BLEU

from bleu_gui.core import BleuConfig
from bleu_gui.core.metrics.bleu.details import ALL_ORDERS, token_statuses
from bleu_gui.demo import demo_paths
from bleu_gui.gui.widgets.text_pane import STATUS_PROPERTY

from .oracles import sacre_corpus, sacre_sentences
from .test_gui import lines, open_and_wait


def open_demo_b(qtbot, window):
    systems, refs = demo_paths()
    open_and_wait(qtbot, window, systems[1], refs)
    window.inspect.sentences.select_sentence(3)  # "The the the the the museum museum will reopen."
    return systems[1], refs


def show_demo_b(qtbot, views):
    """The demo's system B alone, on views over a controller (no window), at sentence 4."""
    systems, refs = demo_paths()
    views.show_run(qtbot, [systems[1]], refs)
    views.inspect.sentences.select_sentence(3)  # "The the the the the museum museum will reopen."
    return systems[1], refs


def type_over(qtbot, pane, text):
    """Select the pane's text and type ``text`` key by key, as a user would."""
    pane.setFocus()
    cursor = pane.textCursor()
    cursor.select(QTextCursor.SelectionType.Document)
    pane.setTextCursor(cursor)
    qtbot.keyClick(pane, Qt.Key.Key_Delete)
    qtbot.keyClicks(pane, text)


def test_explanation_panel_shows_the_scorers_account(qtbot, views):
    show_demo_b(qtbot, views)
    panel = views.inspect.detail.explain_panel
    text = panel.view.toPlainText()
    theirs = BLEU(effective_order=True).sentence_score(
        lines(demo_paths()[0][1])[3], [lines(r)[3] for r in demo_paths()[1]])
    assert f"Sentence BLEU {theirs.score:.2f}" in text
    assert f"p4 = 0/{theirs.totals[3]}" in text and f"BP = exp(1 − {theirs.ref_len}/{theirs.sys_len})" in text
    assert "'the' ×4 but at most 1 in one reference (ref1.txt): 3 clipped" in text


def test_typing_an_edit_rescores_sentence_and_corpus_as_sacrebleu(qtbot, views, tmp_path):
    system, refs = show_demo_b(qtbot, views)
    view = views.inspect
    qtbot.keyClick(view, Qt.Key.Key_F2)
    assert view.detail.panes.editing and view.detail.editor.edit_button.isChecked()
    new = "The museum will reopen to visitors in early spring."
    type_over(qtbot, view.detail.panes.candidate, new)
    ref_lines = [lines(r) for r in refs]
    edited = lines(system)
    edited[3] = new
    sentence = sacre_sentences([new], [[r[3]] for r in ref_lines], BleuConfig())[0]
    corpus = sacre_corpus(edited, ref_lines, BleuConfig())
    assert view.detail.editor.whatif.corpus().score == pytest.approx(corpus.score, abs=1e-9)
    assert f"sentence BLEU {sentence.score:.2f} (edited)" in view.detail.sentence_label.text()
    assert f"→ <b>{corpus.score:.2f}</b>" in view.detail.editor.summary.text()
    assert f"Sentence BLEU {sentence.score:.2f}" in view.detail.explain_panel.view.toPlainText()
    # Colours follow the typed text, and never enter the undo history.
    assert view.detail.panes.candidate.toPlainText() == new
    marked = [s.format.property(STATUS_PROPERTY) for s in view.detail.panes.candidate.extraSelections()]
    assert marked and "unmatched" in marked and "clipped" not in marked
    row = view.sentences.model.row_of(3)
    assert view.sentences.model.index(row, 0).data().startswith("✎")
    # Undo takes back the typing (Qt merges a run of keystrokes), then the deletion: the file's text, no edit.
    qtbot.keyClick(view.detail.panes.candidate, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert view.detail.panes.candidate.toPlainText() == ""
    qtbot.keyClick(view.detail.panes.candidate, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert view.detail.panes.candidate.toPlainText() == lines(system)[3]
    assert not view.sentences.model.index(row, 0).data().startswith("✎") and not view.detail.editor.whatif.texts
    type_over(qtbot, view.detail.panes.candidate, new[:-1])
    # Another sentence and back: the edit stays, scored again.
    view.sentences.select_sentence(0)
    view.sentences.select_sentence(3)
    assert view.detail.panes.candidate.toPlainText() == new[:-1]
    # Save edited candidate as…: a new file with the edit; an input is refused.
    target = tmp_path / "edited.txt"
    with qtbot.waitSignal(view.detail.editor.saved):
        view.detail.editor.save(str(target), views.controller.whole_run, 0)
    assert target.read_text(encoding="utf-8").splitlines()[3] == new[:-1]
    assert lines(system)[3] != new[:-1]  # the input is untouched
    with qtbot.waitSignal(view.detail.editor.failed):
        view.detail.editor.save(str(system), views.controller.whole_run, 0)
    # Revert all: the file's numbers again.
    view.detail.editor.revert_all()
    assert view.detail.editor.whatif.corpus() == views.controller.run.systems[0].results[0].corpus
    assert not view.sentences.model.index(row, 0).data().startswith("✎")
    assert view.detail.panes.candidate.toPlainText() == lines(system)[3]


def test_edits_follow_a_settings_change(qtbot, window):
    system, refs = open_demo_b(qtbot, window)
    view = window.inspect
    view.detail.editor.set_editing(True)
    type_over(qtbot, view.detail.panes.candidate, "the museum will reopen")
    cfg = BleuConfig(lowercase=True)
    with qtbot.waitSignal(window.run_changed):
        window.choice.on_changed((cfg,))
    edited = lines(system)
    edited[3] = "the museum will reopen"
    expected = sacre_corpus(edited, [lines(r) for r in refs], cfg).score
    assert view.detail.editor.whatif.corpus().score == pytest.approx(expected, abs=1e-9)


def test_all_orders_bars_and_token_edges(qtbot, views):
    show_demo_b(qtbot, views)
    view = views.inspect
    combo = view.detail.order_combo
    combo.setCurrentIndex(combo.findData(ALL_ORDERS))
    assert view.detail.bars_legend.isVisibleTo(view) and not view.detail.status_legend.isVisibleTo(view)
    pane = view.detail.panes.candidate
    details = views.controller.run.details(0, 3)
    per_order = [token_statuses(details, n) for n in range(1, 5)]
    assert [b.statuses for b in pane.bars] == [[o[t][0] for o in per_order] for t in range(len(details.hyp_tokens))]
    assert pane.bars[0].statuses == ["unmatched"] * 4  # "The": no reference has it
    # 13a splits "reopen." into two tokens that touch: an edge between them.
    text = pane.toPlainText()
    assert text.index("reopen") + len("reopen") in pane.edges
    fragment = pane.document().begin().begin().fragment()
    assert fragment.charFormat().property(STATUS_PROPERTY) == "unmatched"
    assert fragment.charFormat().background().style() == Qt.BrushStyle.NoBrush  # the bars say it, not a wash
    for chip in view.detail.bars_legend.findChildren(type(view.detail.sentence_label)):
        assert chip.toolTip()
    combo.setCurrentIndex(0)
    assert view.detail.status_legend.isVisibleTo(view) and not pane.bars


def test_tokenizer_table_dialog_equals_sacrebleu(qtbot, window, tmp_path):
    systems, refs = demo_paths()
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_demo()
    dialog = window.tools.open_tokenizer_table()
    with qtbot.waitSignal(dialog.ready, timeout=120_000):
        pass
    table = dialog.table
    ref_lines = [lines(r) for r in refs]
    for (tok, lc), row in table.scores.items():
        for i, score in enumerate(row):
            assert score == pytest.approx(BLEU(tokenize=tok, lowercase=lc).corpus_score(lines(systems[i]),
                                                                                      ref_lines).score, abs=1e-9)
    assert dialog.grid.rowCount() == len(table.settings)
    assert dialog.grid.item(0, 0).font().bold()  # the current setting
    target = tmp_path / "table.tex"
    with qtbot.waitSignal(dialog.saved):
        dialog.export(str(target), "LaTeX")
    assert target.read_text(encoding="utf-8").startswith("\\begin{tabular}")
    dialog.close()


def test_help_page_walks_through_the_selected_sentence(qtbot, window):
    open_demo_b(qtbot, window)
    dialog = window.tools.open_help()
    text = dialog.findChild(type(window.inspect.detail.explain_panel.view)).toPlainText()
    assert "Count_clip = min(Count, Max_Ref_Count)" in text
    assert window.inspect.detail.explain_panel.explanation.headline in text
    dialog.close()


def test_charts_and_legend_chips_have_tooltips(qtbot, views):
    view = views.inspect
    for chart in (view.detail.precision_chart, view.detail.bp_chart, view.sentences.histogram):
        assert len(chart.toolTip()) > 40
    for chip in view.detail.status_legend.findChildren(type(view.detail.sentence_label)):
        assert chip.toolTip()


def test_an_edit_in_a_slice_belongs_to_the_whole_file(qtbot, window):
    system, refs = demo_paths()[0][1], demo_paths()[1]
    open_and_wait(qtbot, window, system, refs)
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.apply_slice([1, 3, 5], "three sentences")
    view = window.inspect
    view.sentences.select_sentence(1)  # the slice's second sentence: line 4 of the file
    view.detail.editor.set_editing(True)
    new = "The museum will reopen in spring."
    type_over(qtbot, view.detail.panes.candidate, new)
    ref_lines = [lines(r) for r in refs]
    file_lines = lines(system)
    sliced = [file_lines[i] for i in (1, 3, 5)]
    sliced[1] = new
    expected = sacre_corpus(sliced, [[r[i] for i in (1, 3, 5)] for r in ref_lines], BleuConfig()).score
    assert view.detail.editor.whatif.corpus().score == pytest.approx(expected, abs=1e-9)
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.clear_slice()
    whole = list(file_lines)
    whole[3] = new
    assert view.detail.editor.whatif.texts == {3: new}
    assert view.detail.editor.whatif.corpus().score == pytest.approx(sacre_corpus(whole, ref_lines, BleuConfig()).score,
                                                              abs=1e-9)
    # Opening the files afresh starts without edits (nothing carried over unseen).
    open_and_wait(qtbot, window, system, refs)
    assert view.detail.editor.whatif.texts == {} and view.detail.editor.summary.text() == ""


def test_the_lists_length_ratio_follows_an_edit_and_revert_all_ends_editing(qtbot, window):
    """While a candidate is edited its row shows the edited text's length ratio (sacreBLEU's sys_len / ref_len
    against the closest reference), and Revert all drops the edits and the panes' "editing" note."""
    from sacrebleu.metrics import BLEU

    system, refs = open_demo_b(qtbot, window)
    view = window.inspect
    editor, model = view.detail.editor, view.sentences.model
    editor.set_editing(True)
    type_over(qtbot, view.detail.panes.candidate, "the museum will reopen next week after a long renovation")
    row = model.row_of(3)
    oracle = BLEU(effective_order=True).sentence_score("the museum will reopen next week after a long renovation",
                                                        [lines(r)[3] for r in refs])
    assert model.index(row, 2).data() == f"{oracle.sys_len / oracle.ref_len:.2f}"
    assert "editing" in view.detail.panes.candidate_label.text()
    editor.revert_all_button.click()
    assert "editing" not in view.detail.panes.candidate_label.text() and not editor.edit_button.isChecked()
    assert not editor.whatif.texts
    file_ratio = float(model.index(row, 2).data())
    original = BLEU(effective_order=True).sentence_score(lines(system)[3], [lines(r)[3] for r in refs])
    assert file_ratio == pytest.approx(original.sys_len / original.ref_len, abs=0.005)


def test_quitting_with_an_unsaved_edit_asks_and_cancel_keeps_the_window(qtbot, window, tmp_path, monkeypatch):
    from bleu_gui.gui.shell import questions

    system, _refs = open_demo_b(qtbot, window)
    view = window.inspect
    qtbot.keyClick(view, Qt.Key.Key_F2)
    type_over(qtbot, view.detail.panes.candidate, "the museum will reopen")
    answers, asked = ["cancel", "save"], []

    def answer(_parent, text):
        asked.append(text)
        return answers.pop(0)

    monkeypatch.setattr(questions, "ask_unsaved_edits", answer)
    target = tmp_path / "edited.txt"
    monkeypatch.setattr("bleu_gui.gui.inspect.candidate_editor.ask_save", lambda *args: str(target))
    window.activateWindow()
    qtbot.keyClick(window.focusWidget(), Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)  # File ▸ Quit
    assert window.isVisible() and len(asked) == 1 and "system-b.txt: 1 sentence" in asked[0]
    qtbot.keyClick(window.focusWidget(), Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)  # now: Save as…
    assert not window.isVisible() and len(asked) == 2
    edited = lines(system)
    edited[3] = "the museum will reopen"
    assert target.read_text(encoding="utf-8").splitlines() == edited
