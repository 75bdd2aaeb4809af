"""Sessions come back whole: files, labels, B, encoding and settings, from a session file or Open Recent."""

import shutil

import pytest
from PySide6.QtCore import QSettings

from bleu_gui.core import BleuConfig, InputError
from bleu_gui.core.errors import ExportError
from bleu_gui.core.output.sessions import Session, load_session, save_session
from bleu_gui.demo import demo_paths
from bleu_gui.gui.shell.main_window import MainWindow
from bleu_gui.gui.shell.settings import Settings


def make_window(qtbot, settings_file):
    window = MainWindow(Settings(QSettings(str(settings_file), QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    window.show()
    return window


def test_a_session_file_round_trips_and_bad_files_say_why(tmp_path):
    systems, refs = demo_paths()
    session = Session([str(p) for p in systems], [str(p) for p in refs], ["A", "B"], 1, "utf-8",
                      metrics=(BleuConfig(tokenizer="intl", lowercase=True, max_order=3),))
    path = save_session(tmp_path / "s.json", session)
    assert load_session(path) == session
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "bleu-gui session 1",\n "systems": [}', encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.json: line 2, column 14: not JSON"):
        load_session(bad)
    bad.write_text('{"systems": []}', encoding="utf-8")
    with pytest.raises(InputError, match="not a bleu-gui session file"):
        load_session(bad)
    with pytest.raises(ExportError, match="refusing to overwrite an input file"):
        save_session(systems[0], session)


def test_save_and_open_a_session_in_a_new_window(qtbot, tmp_path):
    systems, refs = demo_paths()
    first = make_window(qtbot, tmp_path / "one.ini")
    first.controller.choose_scoring((BleuConfig(lowercase=True),))
    with qtbot.waitSignal(first.run_changed):
        first.run_actions.open_files([*systems, systems[1]], refs, labels=["base", "b", "b again"], b=2)
    saved = save_session(tmp_path / "run.json", first.current_session())
    scores = [s.results[0].corpus.score for s in first.controller.run.systems]
    first.jobs.shutdown()
    second = make_window(qtbot, tmp_path / "two.ini")
    with qtbot.waitSignal(second.run_changed):
        second.open_session(load_session(saved))
    run = second.controller.run
    assert [s.name for s in run.systems] == ["base", "b", "b again"] and run.bleu.config == BleuConfig(lowercase=True)
    assert [s.results[0].corpus.score for s in run.systems] == scores
    assert second.controller.b == 2 and second.compare_view.b_combo.currentText() == "b again"
    assert second.settings_panel.group("bleu").config() == BleuConfig(lowercase=True)
    second.jobs.shutdown()


def test_open_recent_keeps_the_whole_run_and_offers_to_drop_a_missing_one(qtbot, tmp_path, monkeypatch):
    systems, refs = demo_paths()
    copy = tmp_path / "system-b-copy.txt"
    shutil.copy(systems[1], copy)
    window = make_window(qtbot, tmp_path / "s.ini")
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files([systems[0], copy], refs, labels=["base", "copy"])
    entry = window.settings.recent()[0]
    assert entry.labels == ["base", "copy"] and entry.b == 1 and entry.metrics == (BleuConfig(),)
    menu = window.file_menu.recent
    assert menu.actions()[0].toolTip().splitlines() == [str(systems[0]), str(copy), *map(str, refs)]
    copy.unlink()
    asked = []
    monkeypatch.setattr(menu, "ask_remove", lambda missing: asked.append(missing) or True)
    menu.actions()[0].trigger()
    assert asked == [[str(copy)]] and window.settings.recent() == []
    window.jobs.shutdown()


def test_an_unreadable_recent_entry_never_stops_the_app(qtbot, tmp_path):
    ini = tmp_path / "s.ini"
    ini.write_text('[recent]\n1\\session="{not json"\nsize=1\n', encoding="utf-8")
    window = make_window(qtbot, ini)
    assert window.settings.recent() == [] and not window.file_menu.recent.isEnabled()
