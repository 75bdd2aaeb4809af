"""The window's why-this-score panel, what-if editor, all-orders bars, token edges, tokenizer table and help."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from sacrebleu.metrics import BLEU

from bleu_gui.core import BleuConfig
from bleu_gui.core.metrics.bleu_details import ALL_ORDERS, token_statuses
from bleu_gui.demo import demo_paths
from bleu_gui.gui.extra_menus import open_help, open_tokenizer_table
from bleu_gui.gui.text_pane import STATUS_PROPERTY

from .oracles import sacre_corpus, sacre_sentences
from .test_gui import lines, open_and_wait


def open_demo_b(qtbot, window):
    systems, refs = demo_paths()
    open_and_wait(qtbot, window, systems[1], refs)
    window.inspect.select_sentence(3)  # "The the the the the museum museum will reopen."
    return systems[1], refs


def type_over(qtbot, pane, text):
    """Select the pane's text and type ``text`` key by key, as a user would."""
    pane.setFocus()
    cursor = pane.textCursor()
    cursor.select(QTextCursor.SelectionType.Document)
    pane.setTextCursor(cursor)
    qtbot.keyClick(pane, Qt.Key.Key_Delete)
    qtbot.keyClicks(pane, text)


def test_explanation_panel_shows_the_scorers_account(qtbot, window):
    open_demo_b(qtbot, window)
    panel = window.inspect.explain_panel
    text = panel.view.toPlainText()
    theirs = BLEU(effective_order=True).sentence_score(
        lines(demo_paths()[0][1])[3], [lines(r)[3] for r in demo_paths()[1]])
    assert f"Sentence BLEU {theirs.score:.2f}" in text
    assert f"p4 = 0/{theirs.totals[3]}" in text and f"BP = exp(1 − {theirs.ref_len}/{theirs.sys_len})" in text
    assert "'the' ×4 but at most 1 in one reference (ref1.txt): 3 clipped" in text


def test_typing_an_edit_rescores_sentence_and_corpus_as_sacrebleu(qtbot, window, tmp_path):
    system, refs = open_demo_b(qtbot, window)
    view = window.inspect
    qtbot.keyClick(view, Qt.Key.Key_F2)
    assert view.panes.editing and view.editor.edit_button.isChecked()
    new = "The museum will reopen to visitors in early spring."
    type_over(qtbot, view.panes.candidate, new)
    ref_lines = [lines(r) for r in refs]
    edited = lines(system)
    edited[3] = new
    sentence = sacre_sentences([new], [[r[3]] for r in ref_lines], BleuConfig())[0]
    corpus = sacre_corpus(edited, ref_lines, BleuConfig())
    assert view.editor.whatif.corpus().score == pytest.approx(corpus.score, abs=1e-9)
    assert f"sentence BLEU {sentence.score:.2f} (edited)" in view.sentence_label.text()
    assert f"→ <b>{corpus.score:.2f}</b>" in view.editor.summary.text()
    assert f"Sentence BLEU {sentence.score:.2f}" in view.explain_panel.view.toPlainText()
    # Colours follow the typed text, and never enter the undo history.
    assert view.panes.candidate.toPlainText() == new
    marked = [s.format.property(STATUS_PROPERTY) for s in view.panes.candidate.extraSelections()]
    assert marked and "unmatched" in marked and "clipped" not in marked
    row = view.model.row_of(3)
    assert view.model.index(row, 0).data().startswith("✎")
    # Undo takes back the typing (Qt merges a run of keystrokes), then the deletion: the file's text, no edit.
    qtbot.keyClick(view.panes.candidate, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert view.panes.candidate.toPlainText() == ""
    qtbot.keyClick(view.panes.candidate, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert view.panes.candidate.toPlainText() == lines(system)[3]
    assert not view.model.index(row, 0).data().startswith("✎") and not view.editor.whatif.texts
    type_over(qtbot, view.panes.candidate, new[:-1])
    # Another sentence and back: the edit stays, scored again.
    view.select_sentence(0)
    view.select_sentence(3)
    assert view.panes.candidate.toPlainText() == new[:-1]
    # Save edited candidate as…: a new file with the edit; an input is refused.
    target = tmp_path / "edited.txt"
    with qtbot.waitSignal(view.editor.saved):
        view.editor.save(str(target), window.whole, 0)
    assert target.read_text(encoding="utf-8").splitlines()[3] == new[:-1]
    assert lines(system)[3] != new[:-1]  # the input is untouched
    with qtbot.waitSignal(view.editor.failed):
        view.editor.save(str(system), window.whole, 0)
    # Revert all: the file's numbers again.
    view.editor.revert_all()
    assert view.editor.whatif.corpus() == window.run.systems[0].corpus
    assert not view.model.index(row, 0).data().startswith("✎")
    assert view.panes.candidate.toPlainText() == lines(system)[3]


def test_edits_follow_a_settings_change(qtbot, window):
    system, refs = open_demo_b(qtbot, window)
    view = window.inspect
    view.editor.set_editing(True)
    type_over(qtbot, view.panes.candidate, "the museum will reopen")
    cfg = BleuConfig(lowercase=True)
    with qtbot.waitSignal(window.run_changed, timeout=20_000):
        window.settings_panel.set_config(cfg)
        window.on_settings_changed(cfg)
    edited = lines(system)
    edited[3] = "the museum will reopen"
    expected = sacre_corpus(edited, [lines(r) for r in refs], cfg).score
    assert view.editor.whatif.corpus().score == pytest.approx(expected, abs=1e-9)


def test_all_orders_bars_and_token_edges(qtbot, window):
    open_demo_b(qtbot, window)
    view = window.inspect
    combo = view.order_combo
    combo.setCurrentIndex(combo.findData(ALL_ORDERS))
    assert view.bars_legend.isVisibleTo(view) and not view.status_legend.isVisibleTo(view)
    pane = view.panes.candidate
    details = window.run.details(0, 3)
    per_order = [token_statuses(details, n) for n in range(1, 5)]
    assert [b.statuses for b in pane.bars] == [[o[t][0] for o in per_order] for t in range(len(details.hyp_tokens))]
    assert pane.bars[0].statuses == ["unmatched"] * 4  # "The": no reference has it
    # 13a splits "reopen." into two tokens that touch: an edge between them.
    text = pane.toPlainText()
    assert text.index("reopen") + len("reopen") in pane.edges
    fragment = pane.document().begin().begin().fragment()
    assert fragment.charFormat().property(STATUS_PROPERTY) == "unmatched"
    assert fragment.charFormat().background().style() == Qt.BrushStyle.NoBrush  # the bars say it, not a wash
    for chip in view.bars_legend.findChildren(type(view.sentence_label)):
        assert chip.toolTip()
    combo.setCurrentIndex(0)
    assert view.status_legend.isVisibleTo(view) and not pane.bars


def test_tokenizer_table_dialog_equals_sacrebleu(qtbot, window, tmp_path):
    systems, refs = demo_paths()
    with qtbot.waitSignal(window.run_changed, timeout=20_000):
        window.open_demo()
    dialog = open_tokenizer_table(window)
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
    dialog = open_help(window)
    text = dialog.findChild(type(window.inspect.explain_panel.view)).toPlainText()
    assert "Count_clip = min(Count, Max_Ref_Count)" in text
    assert window.inspect.explain_panel.explanation.headline in text
    dialog.close()


def test_charts_and_legend_chips_have_tooltips(qtbot, window):
    view = window.inspect
    for chart in (view.precision_chart, view.bp_chart, view.histogram):
        assert len(chart.toolTip()) > 40
    for chip in view.status_legend.findChildren(type(view.sentence_label)):
        assert chip.toolTip()


def test_an_edit_in_a_slice_belongs_to_the_whole_file(qtbot, window):
    system, refs = demo_paths()[0][1], demo_paths()[1]
    open_and_wait(qtbot, window, system, refs)
    with qtbot.waitSignal(window.run_changed, timeout=20_000):
        window.apply_slice([1, 3, 5], "three sentences")
    view = window.inspect
    view.select_sentence(1)  # the slice's second sentence: line 4 of the file
    view.editor.set_editing(True)
    new = "The museum will reopen in spring."
    type_over(qtbot, view.panes.candidate, new)
    ref_lines = [lines(r) for r in refs]
    file_lines = lines(system)
    sliced = [file_lines[i] for i in (1, 3, 5)]
    sliced[1] = new
    expected = sacre_corpus(sliced, [[r[i] for i in (1, 3, 5)] for r in ref_lines], BleuConfig()).score
    assert view.editor.whatif.corpus().score == pytest.approx(expected, abs=1e-9)
    with qtbot.waitSignal(window.run_changed, timeout=20_000):
        window.clear_slice()
    whole = list(file_lines)
    whole[3] = new
    assert view.editor.whatif.texts == {3: new}
    assert view.editor.whatif.corpus().score == pytest.approx(sacre_corpus(whole, ref_lines, BleuConfig()).score,
                                                              abs=1e-9)
    # Opening the files afresh starts without edits (nothing carried over unseen).
    open_and_wait(qtbot, window, system, refs)
    assert view.editor.whatif.texts == {} and view.editor.summary.text() == ""
