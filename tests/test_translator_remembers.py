"""What a translator's run leaves for the next launch: a run without references in Open Recent (source and MT, a
bilingual XLIFF), the LLM judge's and COMET's settings chosen for it restored — said in the header as every setting
that is not the default — and nothing carried over from the run before unasked."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from bleu_gui.core.inputs.run_inputs import InputRequest
from bleu_gui.core.metrics.llm.config import LlmConfig
from bleu_gui.gui.shell.main_window import MainWindow
from bleu_gui.gui.shell.settings import Settings
from bleu_gui.gui.state import OpenChoice

from .conftest import data_set
from .fake_endpoint import FakeEndpoint


def _window(qtbot, ini: Path) -> MainWindow:
    window = MainWindow(Settings(QSettings(str(ini), QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    window.show()
    return window


def _files(tmp_path: Path) -> tuple[Path, Path]:
    data = data_set("wmt22-en-ja")
    for name in ("src.txt", "sys1.txt"):
        lines = (data / name).read_text(encoding="utf-8").splitlines()[:12]
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path / "sys1.txt", tmp_path / "src.txt"


def test_a_run_without_references_and_its_judge_are_there_at_the_next_launch(qtbot, tmp_path):
    served = FakeEndpoint().start()
    try:
        mt, src = _files(tmp_path)
        ini = tmp_path / "settings.ini"
        first = _window(qtbot, ini)
        judge = LlmConfig(endpoint=served.base, model="fake", cache=str(tmp_path / "answers.sqlite"))
        first.controller.choose_scoring((judge,))
        first.run_actions.open_inputs(OpenChoice(InputRequest(systems=(str(mt),), source=str(src))))
        qtbot.waitUntil(lambda: first.controller.run is not None and not first.jobs.busy)
        assert [m.name for m in first.controller.run.metrics] == ["LLM-MQM"]
        first.close()
        second = _window(qtbot, ini)
        entries = second.settings.recent()
        assert entries and entries[0].systems == [str(mt.absolute())] and entries[0].references == []
        assert entries[0].source == str(src.absolute())
        label = second.file_menu.recent.actions()[0].text()
        assert "sys1.txt" in label and "source src.txt" in label
        chats = len(served.chats())
        # A fresh open of other files: the judge costs requests — remembered and offered, never asked unasked.
        second.run_actions.open_inputs(OpenChoice(InputRequest(systems=(str(src),), source=str(mt))))
        qtbot.waitUntil(lambda: second.controller.run is not None and not second.jobs.busy)
        offer = second.bars.offered
        assert offer.isVisibleTo(second) and offer.label.text().startswith("LLM judge (fake) was on when bleu-gui")
        assert len(served.chats()) == chats and [m.name for m in second.controller.run.metrics] == ["Not scored yet"]
        # Open Recent: the run as it was, its judge and settings with it (a deliberate act), from the cache.
        second.file_menu.recent.refresh()
        recent = next(a for a in second.file_menu.recent.actions() if "source src.txt" in a.text())
        recent.trigger()
        qtbot.waitUntil(lambda: "LLM-MQM" in [m.name for m in second.controller.run.metrics] and not second.jobs.busy)
        restored = next(m for m in second.controller.scoring.metrics if m.key == "llm")
        assert (restored.endpoint, restored.model) == (served.base, "fake")
        assert second.settings_panel.group("llm").isChecked()
        assert len(served.chats()) == chats  # every answer from the cache: the same run, nothing asked again
    finally:
        served.stop()


def test_a_bilingual_xliff_alone_is_in_open_recent(qtbot, tmp_path):
    xliff = data_set("formats") / "xliff12-symfony-validators" / "validators.de.xlf"
    ini = tmp_path / "settings.ini"
    first = _window(qtbot, ini)
    first.run_actions.open_inputs(OpenChoice(InputRequest(systems=(str(xliff),))))
    qtbot.waitUntil(lambda: first.controller.run is not None and not first.jobs.busy)
    first.close()
    second = _window(qtbot, ini)
    entries = second.settings.recent()
    assert entries and entries[0].systems == [str(xliff.absolute())]
    second.file_menu.recent.actions()[0].trigger()
    qtbot.waitUntil(lambda: second.controller.run is not None and not second.jobs.busy)
    assert second.controller.run.n_sentences == 116
