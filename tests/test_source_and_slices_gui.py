"""The window with structured inputs: the source pane, tag chips, the Documents list and slices."""

from __future__ import annotations

from pathlib import Path

import pytest
import sacrebleu
from PySide6.QtCore import Qt

from bleu_gui.core.inputs.run_inputs import InputRequest, read_run_inputs
from bleu_gui.gui.shell.drops import read_drop
from bleu_gui.gui.widgets.context_pane import with_chips

from .conftest import data_set

LIV = "wmt-xml-wmt22-liv-en/wmttest2022.liv-en.all.xml"
RU_EN = "wmt-xml-wmt21-ru-en/newstest2021.ru-en.all.xml"


def open_request(qtbot, window, request):
    from bleu_gui.gui.state import OpenChoice

    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_inputs(OpenChoice(request))
    return window.controller.run


def open_and_wait(qtbot, window, *args, **kwargs):
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files(*args, **kwargs)
    return window.controller.run


def test_xml_file_alone_opens_every_system_with_its_source(qtbot, window):
    path = data_set("formats") / LIV
    run = open_and_wait(qtbot, window, [], [path])
    assert [s.name for s in run.systems] == ["Liv4ever", "TAL-SJTU", "TartuNLP", "NiuTrans", "HuaweiTSC"]
    assert run.systems[1].results[0].corpus.score == pytest.approx(30.406700431163458, abs=1e-9)  # EXPECTED.md
    window.inspect.sentences.select_sentence(3)
    pane = window.inspect.detail.context_pane
    assert pane.isVisible()
    assert run.context.source.lines[3] in pane.view.toPlainText()
    assert "line 4" in pane.title.text()
    assert window.tabs.isTabEnabled(1)  # five systems: Compare
    window.tabs.setCurrentIndex(1)
    window.controller.set_sentence(3)
    assert window.compare_view.panes.context_pane.isVisible()
    assert run.context.source.lines[3] in window.compare_view.panes.context_pane.view.toPlainText()


def test_document_click_slices_and_show_all_returns(qtbot, window):
    path = data_set("formats") / RU_EN
    whole = open_request(qtbot, window, InputRequest(systems=(), references=(str(path),), refs_wanted=("A",),
                                                     systems_wanted=("Online-B", "NiuTrans")))
    panel = window.inspect.sentences.slice_panel
    model = panel.model
    assert model.rowCount() == len(set(whole.context.docs)) == 107
    row = 1
    doc, rows = model.ids[row], model.rows[row]
    lines = [whole.systems[0].lines[i] for i in rows]
    refs = [[whole.references[0].lines[i] for i in rows]]
    oracle = sacrebleu.corpus_bleu(lines, refs).score
    assert float(model.scores[row]) == pytest.approx(oracle, abs=1e-9)
    shown = [model.index(row, c).data() for c in range(model.columnCount())]
    assert shown == [doc, str(len(rows)), f"{oracle:.2f}"]  # what the table shows, column by column
    with qtbot.waitSignal(window.run_changed):
        panel.documents.clicked.emit(model.index(row, 0))
    part = window.controller.run
    assert part.slice is not None and part.slice.description == f"doc = {doc}"
    assert part.systems[0].results[0].corpus.score == pytest.approx(sacrebleu.corpus_bleu(lines, refs).score, abs=1e-9)
    assert f"slice: doc = {doc}" in window.inspect.header.notes_label.text()
    assert window.inspect.sentences.model.index(0, 0).data() == str(int(rows[0]) + 1)  # the line in the file
    assert model.rowCount() == 107  # every document stays listed
    # A new setting re-scores the whole corpus, then the slice again: the slice never outlives its numbers.
    with qtbot.waitSignal(window.run_changed):
        window.settings_panel.group("bleu").widget("lowercase").setChecked(True)
    again = window.controller.run
    assert again.slice is not None and again.slice.rows == part.slice.rows
    lower = sacrebleu.corpus_bleu(lines, refs, lowercase=True).score
    assert again.systems[0].results[0].corpus.score == pytest.approx(lower, abs=1e-9)
    assert window.controller.whole_run.slice is None and window.controller.whole_run.bleu.config.lowercase
    panel.on_choice(0)  # "Whole corpus"
    assert window.controller.run is window.controller.whole_run


def test_score_the_list_slices_what_the_filter_shows(qtbot, window, tmp_path):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("the cat sat\na dog ran\nthe bird flew away\nno match here\n", encoding="utf-8")
    ref.write_text("the cat sat down\na dog ran off\nthe bird flew\nsomething else\n", encoding="utf-8")
    open_and_wait(qtbot, window, [hyp], [ref])
    window.inspect.sentences.filter_edit.setText("the")
    window.inspect.sentences.apply_filter()
    window.inspect.sentences.table.sortByColumn(1, Qt.SortOrder.DescendingOrder)  # the slice keeps the files' order
    with qtbot.waitSignal(window.run_changed):
        window.inspect.sentences.score_list.click()
    part = window.controller.run
    assert part.slice is not None and part.slice.rows == (0, 2)
    oracle = sacrebleu.corpus_bleu(["the cat sat", "the bird flew away"], [["the cat sat down", "the bird flew"]])
    assert part.systems[0].results[0].corpus.score == pytest.approx(oracle.score, abs=1e-9)
    assert "candidate contains 'the'" in part.slice.description


def test_tag_mismatches_are_flagged_and_filterable(qtbot, window, tmp_path):
    xlf = data_set("formats") / "xliff12-angular-linotp" / "messages.de.xlf"
    target = read_run_inputs([xlf], [xlf], allow_identical=True).systems[0]
    ref = tmp_path / "post-edit.de.txt"
    ref.write_text("\n".join(line.replace("Token", "Schlüssel") for line in target.lines) + "\n", encoding="utf-8")
    open_and_wait(qtbot, window, [xlf], [ref])
    inspect = window.inspect
    assert inspect.sentences.tags_only.isVisibleTo(window)
    inspect.sentences.tags_only.setChecked(True)
    shown = [inspect.sentences.model.sentence_at(r) for r in range(inspect.sentences.model.rowCount())]
    flagged = next(i for i, line in enumerate(target.lines) if "{{userPhonel}}" in line)
    assert flagged in shown and len(shown) == len(inspect.sentences._mismatches) >= 1
    inspect.sentences.select_sentence(flagged)
    html = inspect.detail.context_pane.view.toHtml()
    assert "xINTERPOLATION" in html and "2 tag(s), the source/reference has 3" in inspect.detail.context_pane.view.toPlainText()


def test_chips_sit_where_the_tags_stood():
    html = with_chips("Click here to go", ((6, "<g1>"), (10, "</g1>")))
    assert html.index("Click") < html.index("&lt;g1&gt;") < html.index("here") < html.index("&lt;/g1&gt;")


def test_drop_rules_for_source_and_self_contained_files(tmp_path):
    xml = data_set("formats") / LIV
    src = tmp_path / "source.en.txt"
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    for p in (src, hyp, ref):
        p.write_text("a\n", encoding="utf-8")
    assert read_drop([str(xml)], None).references == [str(xml)]
    action = read_drop([str(hyp), str(src), str(ref)], None)
    assert (action.kind, action.systems, action.references, action.source) == ("open", [str(hyp)], [str(ref)],
                                                                                  str(src))
    assert Path(action.source).name == "source.en.txt"


def test_session_of_an_xml_run_opens_the_same_fields(qtbot, window, tmp_path):
    from bleu_gui.core.output.sessions import load_session, save_session

    path = data_set("formats") / LIV
    run = open_request(qtbot, window, InputRequest(systems=(), references=(str(path),), systems_wanted=("TartuNLP", "NiuTrans")))
    saved = load_session(save_session(tmp_path / "s.json", window.current_session()))
    opening = saved.opening()
    assert (opening.systems, opening.references) == ((), (str(path.absolute()),))
    assert (opening.systems_wanted, opening.refs_wanted) == (("TartuNLP", "NiuTrans"), ("ref",))
    window.jobs.shutdown()
    assert [s.name for s in run.systems] == ["TartuNLP", "NiuTrans"]
    assert run.systems[0].results[0].corpus.score == pytest.approx(29.894010692923466, abs=1e-9)
