"""The window and the two commands keep their word (issue 57): menus name what their dialogs offer, the slice box
says its own errors, the window takes the command's form, pictures have the asked size, and views at laptop
size show what they promise. Each test failed before its fix."""

from __future__ import annotations

import re

import pytest
from sacrebleu.metrics import BLEU

from bleu_gui.core.output.exports import check_sentences_target

# -- 10. an export item names every format its dialog offers ---------------------------------------------------

def test_each_export_item_names_exactly_the_formats_its_dialog_offers(window):
    from bleu_gui.gui.shell import export_actions as ex

    menu = window.file_menu
    for action, formats in ((menu.export_sentences, ex.SENTENCE_FORMATS), (menu.export_table, ex.TABLE_FORMATS),
                            (menu.export_report, ex.REPORT_FORMATS)):
        said = re.search(r"\((.*)\)", action.text().replace("&", "")).group(1)
        offered = re.findall(r"\((\*\.\w+)\)", ex.file_filter(formats))
        assert said == ex.formats_said(formats) and len(offered) == len(formats)
        for name, pattern in formats:
            assert name in said and pattern in offered
    for _, pattern in ex.SENTENCE_FORMATS:
        check_sentences_target(f"out{pattern[1:]}")  # the core writes every format the dialog offers
    assert "Excel" in menu.export_sentences.text() and "Excel" in menu.export_table.text()


# -- 14. the slice box says its own errors, and combines with the menu's choice -------------------------------------

RU_EN = "wmt-xml-wmt21-ru-en/newstest2021.ru-en.all.xml"


def _open_ru_en(qtbot, window):
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    from .conftest import data_set

    request = InputRequest(systems=(), references=(str(data_set("formats") / RU_EN),), refs_wanted=("A",),
                           systems_wanted=("Online-B", "NiuTrans"))
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_inputs(OpenChoice(request))
    return window.controller.run


@pytest.mark.parametrize(("text", "said"), [
    ("ref_words >=", "at position 13: expected a value or a field"),  # refused before any job
    ("bleu[Online-B] > 1000", "no segment has bleu[Online-B] > 1000"),  # found out in the worker
    ("nonsense[X] > 3", "no field 'nonsense[X]'"),
])
def test_the_slice_box_says_its_own_error_under_itself_and_no_dialog_opens(qtbot, window, text, said):
    _open_ru_en(qtbot, window)
    panel = window.inspect.sentences.slice_panel
    dialogs: list[str] = []
    window.error_shown.connect(dialogs.append)
    panel.expression.setText(text)
    panel.expression.returnPressed.emit()
    qtbot.waitUntil(lambda: panel.problem.isVisible())
    assert said in panel.problem.text() and "File ▸ Open" not in panel.problem.text()
    assert not panel.problem.text().startswith("Slice")
    assert panel.expression.styleSheet()  # framed
    assert not dialogs and window.controller.run.slice is None
    panel.expression.setText(text + " ")
    assert not panel.problem.isVisible() and not panel.expression.styleSheet()  # an edit takes it back


def test_an_expression_typed_while_a_document_is_chosen_combines_with_it_and_says_so(qtbot, window):
    run = _open_ru_en(qtbot, window)
    panel = window.inspect.sentences.slice_panel
    doc = panel.model.ids[1]
    with qtbot.waitSignal(window.run_changed):
        panel.documents.clicked.emit(panel.model.index(1, 0))
    in_doc = set(window.controller.run.slice.rows)
    with qtbot.waitSignal(window.run_changed):
        panel.expression.setText("ref_words >= 15")
        panel.expression.returnPressed.emit()
    part = window.controller.run
    tokenize = BLEU().tokenizer  # ref_words: the first reference's words under BLEU's tokenizer
    expected = {i for i in in_doc if len(tokenize(run.references[0].lines[i]).split()) >= 15}
    assert expected and expected < in_doc and set(part.slice.rows) == expected
    assert part.slice.description.startswith(f"doc = {doc} and ") and "ref_words >= 15" in part.slice.description
    assert panel.combo.currentText() == part.slice.description  # the menu says what the slice is
    with qtbot.waitSignal(window.run_changed):
        panel.expression.clear()  # the box emptied: the document alone again
    assert set(window.controller.run.slice.rows) == in_doc


# -- 17. bleu-gui takes bleu-score's form -------------------------------------------------------------------------

def test_bleu_gui_reads_ref_dash_i_hyp_as_bleu_score_does():
    from bleu_gui.cli.window_arguments import build_window_parser, window_options
    from bleu_gui.core.errors import InputError

    parser = build_window_parser()
    given = window_options(parser.parse_args(["ref1.txt", "ref2.txt", "-i", "a.txt", "b.txt", "-m", "chrf"]))
    assert given.request is not None
    assert given.request.systems == ("a.txt", "b.txt") and given.request.references == ("ref1.txt", "ref2.txt")
    same = window_options(parser.parse_args(["a.txt", "b.txt", "-r", "ref1.txt", "ref2.txt", "-m", "chrf"]))
    assert same.request == given.request
    for argv, said in ((["ref.txt", "-i", "a.txt", "-r", "r2.txt"], "not both"), (["-i", "a.txt"], "references before")):
        with pytest.raises(InputError, match=said):
            window_options(parser.parse_args(argv))


# -- 20. at a laptop's 1366 × 768 -------------------------------------------------------------------------------

def _laptop_demo(qtbot, window):
    from bleu_gui.demo import demo_paths

    window.resize(1366, 768)
    systems, refs = demo_paths("en")
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files(systems, refs)
    window.controller.set_sentence(3)
    return window


def _in_sight(pane) -> bool:
    """Whether a pane shows at least two lines and is wholly inside its scroll area's view."""
    from PySide6.QtWidgets import QScrollArea

    area = pane.parent()
    while area is not None and not isinstance(area, QScrollArea):
        area = area.parent()
    top_left = pane.mapTo(area.viewport(), pane.rect().topLeft())
    inside = area.viewport().rect().contains(top_left) and top_left.y() + pane.height() <= area.viewport().height()
    return pane.isVisible() and inside and pane.height() >= 2 * pane.fontMetrics().lineSpacing()


def test_both_references_are_in_sight_in_inspect_and_compare(qtbot, window):
    w = _laptop_demo(qtbot, window)
    panes = w.inspect.detail.panes.ref_panes
    qtbot.waitUntil(lambda: all(p.toPlainText() for p in panes))
    assert len(panes) == 2 and all(_in_sight(p) for p in panes)
    w.tabs.setCurrentIndex(1)
    ab = w.compare_view.panes.ref_panes
    qtbot.waitUntil(lambda: all(p.isVisible() for p in ab))
    assert len(ab) == 2 and all(_in_sight(p) for p in ab)


def test_matrix_column_names_fit_their_columns():
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QApplication

    from bleu_gui.gui.compare.matrix_view import column_labels

    metrics = QFontMetrics(QApplication.font())
    names = ["HuaweiTSC", "Lan-Bridge", "LanguageX", "JDExploreAcademy", "Online-B", "AISP-SJTU"]
    labels = column_labels(names, lambda text: metrics.horizontalAdvance(text) <= 50)
    assert all(metrics.horizontalAdvance(label) <= 50 for label in labels)
    assert all(label == name or "…" in label for label, name in zip(labels, names))
    assert labels[4] == "Online-B" or "…" in labels[4]


def test_the_slice_line_is_never_cut(qtbot, window):
    from PySide6.QtCore import QRect
    from PySide6.QtCore import Qt as QtCore

    w = _laptop_demo(qtbot, window)
    panel = w.inspect.sentences.slice_panel
    with qtbot.waitSignal(w.run_changed):
        w.run_actions.apply_slice(list(range(7)), "doc = d1")
    status = panel.status
    assert status.isVisible() and "7 of 12 segments" in status.text() and "whole corpus" in status.text()
    needed = status.fontMetrics().boundingRect(QRect(0, 0, status.width(), 10_000), QtCore.TextFlag.TextWordWrap,
                                               status.text()).height()
    assert needed <= status.height()


def test_a_tools_dialog_is_no_taller_than_a_laptops_screen(qtbot, window, monkeypatch):
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QScreen

    from bleu_gui.gui.tools.word_accuracy_view import WordAccuracyDialog

    w = _laptop_demo(qtbot, window)
    monkeypatch.setattr(QScreen, "availableGeometry", lambda _screen: QRect(0, 0, 1366, 768))
    dialog = WordAccuracyDialog(w, w.controller.run)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.ready):
        dialog.show()
    assert dialog.height() + 32 <= 768 and dialog.width() <= 1366
    dialog.jobs.shutdown()


# -- 21. error recall in Compare: a progress bar, Cancel, and each system's own count ----------------------------

def test_error_recall_has_progress_and_cancel_and_says_each_systems_count(qtbot, window):
    from bleu_gui.core.analysis.error_recall import counted
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    from .conftest import data_set

    path = data_set("formats") / "scores-mqm-ted-ende" / "mqm_ted_ende.tsv"
    window.resize(1366, 768)
    with qtbot.waitSignal(window.run_changed, timeout=120_000):
        window.run_actions.open_inputs(OpenChoice(InputRequest(systems=(), references=(str(path),),
                                                               refs_wanted=("ref",))))
    window.tabs.setCurrentIndex(1)
    panel = window.compare_view.human
    panel.find_recall()
    assert panel.recall_progress.isVisibleTo(panel) and not panel.recall_button.isEnabled()
    panel.recall_progress.cancel_button.click()
    assert not panel.recall_progress.isVisibleTo(panel) and panel.recall_button.isEnabled()
    assert "Cancelled" in panel.recall_note.text()
    with qtbot.waitSignal(panel.jobs.finished, timeout=120_000):
        panel.find_recall()
    assert not panel.recall_progress.isVisibleTo(panel)
    run = window.controller.run
    for k in (0, 5):
        panel.system.setCurrentText(run.systems[k].name)
        ratings = [r for r in run.systems[k].file.annotations or () if r is not None]
        without = sum(1 for r in ratings for e in r.errors if e.severity in ("Critical", "Major", "Minor")
                      and not counted(e))
        note = panel.recall_note.text()
        if without:
            assert f"{without:,} error{'s' if without > 1 else ''} of {run.systems[k].name} " in note, note
        else:
            assert "no span" not in note, note
    assert panel.recall_note.wordWrap()
    window.close()  # the cancelled job's thread stops with the window


# -- 23. Compare's A and B show the metric's own marks ----------------------------------------------------------

def _backgrounds(pane) -> set[str]:
    from PySide6.QtCore import Qt

    """The background colours the pane's text is marked with."""
    found, block = set(), pane.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.background().style() != Qt.BrushStyle.NoBrush:
                found.add(fmt.background().color().name())
            it += 1
        block = block.next()
    return found


def test_compares_panes_show_the_raters_spans_under_mqm_and_bleus_ngrams_under_bleu(qtbot, window):
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.core.metrics.mqm.config import MqmConfig
    from bleu_gui.gui.state import OpenChoice
    from bleu_gui.gui.widgets import colors

    from .conftest import data_set

    path = data_set("formats") / "tsv-mqm-wmt" / "mqm_ted_ende.head588lines.tsv"
    window.controller.choose_scoring((*window.controller.scoring.metrics, MqmConfig()))
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_inputs(OpenChoice(InputRequest(systems=(), references=(str(path),),
                                                               refs_wanted=("ref",))))
    run = window.controller.run
    window.tabs.setCurrentIndex(1)
    ab = window.compare_view.panes
    window.controller.set_sentence(0)
    assert colors.MATCHED_BG.name() in _backgrounds(ab.pane_a) and ab.bleu_legend.isVisibleTo(ab)
    window.controller.set_metric([m.key for m in run.metrics].index("mqm"))
    errors = [e for e in run.systems[0].file.annotations[0].errors if e.start is not None and e.side == "target"]
    assert errors  # the baseline's first segment has a marked error
    marked = _backgrounds(ab.pane_a)
    assert marked and colors.MATCHED_BG.name() not in marked  # the raters' spans, not BLEU's n-grams
    assert ab.pane_a.toPlainText() == run.systems[0].lines[0]
    assert not ab.bleu_legend.isVisibleTo(ab) and ab.metric_legend.isVisibleTo(ab)
    assert not _backgrounds(ab.ref_panes[0])  # a reference has no rater's span
