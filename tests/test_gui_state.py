"""Nothing lost, nothing carried over: edits belong to their system, a settings change is never dropped by the
job after it, a bad stored value never stops the window, and a flag is that run's only. Each failed before."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QSettings

from bleu_gui.core import BleuConfig
from bleu_gui.demo import demo_paths
from bleu_gui.gui.shell.main_window import MainWindow
from bleu_gui.gui.shell.settings import Settings

from .oracles import sacre_corpus
from .test_explain_gui import type_over
from .test_gui import lines, make_window, open_and_wait
from .test_reader_corners import wmt_xml


@pytest.fixture
def settings_file(tmp_path):
    return tmp_path / "settings.ini"


@pytest.fixture
def window(qtbot, settings_file):
    w = make_window(qtbot, settings_file)
    yield w
    w.jobs.shutdown()


# -- 8. what-if edits belong to a system, not to a file ---------------------------------------------------------
def test_an_edit_of_one_system_in_a_shared_file_stays_with_it(qtbot, window, tmp_path):
    path = tmp_path / "two.xml"
    src = {1: "One two three.", 2: "Four five six."}
    path.write_text(wmt_xml([("d1", src, {"A": {1: "Eins zwei drei.", 2: "Vier fünf sechs."}},
                                       {"sysA": {1: "Eins zwei.", 2: "Vier fünf sechs."},
                                        "sysB": {1: "Eins, zwei, drei.", 2: "Vier und fünf."}})]), encoding="utf-8")
    original = path.read_bytes()
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files([], [path])
    view = window.inspect
    assert [s.name for s in window.controller.run.systems] == ["sysA", "sysB"]
    view.sentences.system_combo.setCurrentIndex(0)
    view.sentences.select_sentence(0)
    view.detail.editor.set_editing(True)
    type_over(qtbot, view.detail.panes.candidate, "Eins zwei drei.")
    assert view.detail.editor.whatif.texts == {0: "Eins zwei drei."}
    view.sentences.system_combo.setCurrentIndex(1)
    assert view.detail.editor.whatif.texts == {}  # B shows its own lines, not A's edit
    assert view.detail.panes.candidate.toPlainText() == "Eins, zwei, drei."
    target = tmp_path / "b.txt"
    with qtbot.waitSignal(view.detail.editor.failed):  # nothing of B is edited
        view.detail.editor.ask_save()
    view.detail.editor.save(str(target), window.controller.whole_run, 1)
    assert target.read_bytes() == "Eins, zwei, drei.\nVier und fünf.\n".encode()
    view.detail.editor.save(str(tmp_path / "a.txt"), window.controller.whole_run, 0)
    assert (tmp_path / "a.txt").read_bytes() == "Eins zwei drei.\nVier fünf sechs.\n".encode()
    assert path.read_bytes() == original


# -- 10. a settings change followed at once by another job -------------------------------------------------------
def test_a_slice_asked_for_right_after_a_settings_change_keeps_the_change(qtbot, window):
    systems, refs = demo_paths()
    open_and_wait(qtbot, window, systems[0], refs)
    with qtbot.waitSignal(window.run_changed):
        window.settings_panel.group("bleu").widget("lowercase").setChecked(True)  # a re-score starts...
        window.run_actions.apply_slice([0, 2, 4], "three sentences")  # ...and is replaced by the slice at once
    cfg = BleuConfig(lowercase=True)
    assert window.controller.run.bleu.config == cfg and window.controller.whole_run.bleu.config == cfg
    hyp = [lines(systems[0])[i] for i in (0, 2, 4)]
    ref = [[lines(r)[i] for i in (0, 2, 4)] for r in refs]
    assert window.controller.run.systems[0].results[0].corpus.score == pytest.approx(sacre_corpus(hyp, ref, cfg).score, abs=1e-9)
    assert window.settings_panel.group("bleu").config() == cfg


def test_a_system_added_right_after_a_settings_change_keeps_the_change(qtbot, window):
    systems, refs = demo_paths()
    open_and_wait(qtbot, window, systems[0], refs)
    with qtbot.waitSignal(window.run_changed):
        window.settings_panel.group("bleu").widget("lowercase").setChecked(True)
        window.run_actions.add_systems([systems[1]])
    cfg = BleuConfig(lowercase=True)
    assert len(window.controller.run.systems) == 2 and window.controller.run.bleu.config == cfg
    for system, path in zip(window.controller.run.systems, systems):
        expected = sacre_corpus(lines(path), [lines(r) for r in refs], cfg).score
        assert system.results[0].corpus.score == pytest.approx(expected, abs=1e-9)


# -- 11. a bad stored value ---------------------------------------------------------------------------------------
def test_a_recent_entry_with_a_label_that_is_not_text_never_stops_the_window(qtbot, settings_file):
    systems, refs = demo_paths()
    bad = {"format": "bleu-gui session 1", "systems": [str(systems[0])], "references": [str(refs[0])],
           "labels": [7], "b": 1}
    good = {"format": "bleu-gui session 1", "systems": [str(systems[1])], "references": [str(refs[0])]}
    qs = QSettings(str(settings_file), QSettings.Format.IniFormat)
    qs.beginWriteArray("recent", 2)
    for i, entry in enumerate((bad, good)):
        qs.setArrayIndex(i)
        qs.setValue("session", json.dumps(entry))
    qs.endArray()
    qs.setValue("scoring/lowercase", "maybe")
    qs.sync()
    w = make_window(qtbot, settings_file)
    assert [s.systems for s in w.settings.recent()] == [[str(systems[1])]]
    assert w.settings_panel.group("bleu").config() == BleuConfig()
    assert "could not be read" in w.statusBar().currentMessage()
    assert "recent run 1" in w.statusBar().currentMessage()
    w.close()
    again = make_window(qtbot, settings_file)  # said once: the bad entry is gone from the file
    assert "could not be read" not in again.statusBar().currentMessage()
    again.close()


def test_a_session_whose_b_is_the_baseline_is_refused():
    from bleu_gui.core import InputError
    from bleu_gui.core.output.sessions import session_from_dict

    systems, refs = demo_paths()
    with pytest.raises(InputError, match="b must be 1 or more"):
        session_from_dict({"format": "bleu-gui session 1", "systems": [str(s) for s in systems],
                           "references": [str(refs[0])], "b": 0})


# -- 18. a flag is that run's only --------------------------------------------------------------------------------
def test_a_tokenizer_flag_is_not_remembered_for_the_next_run(qtbot, settings_file):
    saved = Settings(QSettings(str(settings_file), QSettings.Format.IniFormat))
    first = MainWindow(saved, config=(BleuConfig(tokenizer="zh"),))
    qtbot.addWidget(first)
    assert first.settings_panel.group("bleu").config().tokenizer == "zh"
    first.close()
    second = make_window(qtbot, settings_file)
    assert second.settings_panel.group("bleu").config() == BleuConfig()
    second.close()


def test_a_setting_changed_in_the_window_is_remembered_and_said_in_the_advice_bar(qtbot, settings_file):
    systems, refs = demo_paths()
    first = make_window(qtbot, settings_file)
    open_and_wait(qtbot, first, systems[0], refs)
    assert not first.bars.settings.isVisible()
    with qtbot.waitSignal(first.run_changed):
        first.settings_panel.group("bleu").widget("lowercase").setChecked(True)
    assert first.bars.settings.isVisible() and "lowercased" in first.bars.settings.label.text()
    first.close()
    second = make_window(qtbot, settings_file)
    assert second.settings_panel.group("bleu").config() == BleuConfig(lowercase=True)
    open_and_wait(qtbot, second, systems[0], refs)
    text = second.bars.settings.label.text()
    assert "lowercased" in text and "remembered" in text
    with qtbot.waitSignal(second.run_changed):
        second.bars.settings.button.click()  # Reset to defaults
    assert second.controller.run.bleu.config == BleuConfig() and not second.bars.settings.isVisible()
    second.close()


def test_a_cjk_tokenizer_on_latin_text_gets_advice(qtbot, settings_file):
    systems, refs = demo_paths()  # English
    w = MainWindow(Settings(QSettings(str(settings_file), QSettings.Format.IniFormat)),
                   config=(BleuConfig(tokenizer="zh"),))
    qtbot.addWidget(w)
    w.show()
    open_and_wait(qtbot, w, systems[0], refs)
    assert w.bars.advice.isVisible() and "13a" in w.bars.advice.label.text()
    assert "from the command line" in w.bars.settings.label.text()
    w.close()
