"""A value changes by a deliberate act: the wheel turns a field of the settings only when it has the focus (over an
unfocused one it scrolls the dock), and a change that costs an endpoint's requests or a model's minutes says what
it will do before doing it. Each failed before its fix (scrolling the dock turned the LLM judge's judgement and
COMET's GPUs, each re-scoring silently)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from bleu_gui.demo import demo_paths

from .fake_endpoint import FakeEndpoint


def _wheel(widget, steps: int = -1) -> None:
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(0, 0), QPoint(0, 120 * steps),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_the_wheel_over_an_unfocused_setting_scrolls_the_dock_and_changes_nothing(qtbot, window):
    systems, refs = demo_paths()
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files([systems[0]], refs)
    qtbot.waitUntil(lambda: not window.jobs.busy)
    bleu = window.settings_panel.group("bleu")
    order, variant = bleu.widget("max_order"), bleu.widget("variant")
    window.inspect.sentences.table.setFocus()
    before = (order.value(), variant.currentIndex(), window.controller.scoring.metrics)
    for field in (order, variant):
        _wheel(field, -1)
        _wheel(field, +1)
    assert (order.value(), variant.currentIndex(), window.controller.scoring.metrics) == before
    assert not window.jobs.busy
    order.setFocus()  # with the focus, the wheel is the field's: a deliberate act
    qtbot.waitUntil(order.hasFocus)
    _wheel(order, -1)
    assert order.value() == before[0] - 1


def test_a_change_that_asks_an_endpoint_again_says_so_first_and_no_keeps_the_numbers(
        qtbot, window, tmp_path, unsaved_edits_discarded, monkeypatch):
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.core.metrics.llm.config import LlmConfig
    from bleu_gui.gui.shell import questions
    from bleu_gui.gui.state import OpenChoice

    served = FakeEndpoint().start()
    try:
        (tmp_path / "src.txt").write_text("Hallo Welt.\nDanke.\nGuten Tag.\n", encoding="utf-8")
        (tmp_path / "mt.txt").write_text("Hello world.\nThanks.\nGood day.\n", encoding="utf-8")
        window.controller.choose_scoring((LlmConfig(endpoint=served.base, model="fake",
                                                    cache=str(tmp_path / "answers.sqlite")),))
        window.run_actions.open_inputs(OpenChoice(InputRequest(systems=(str(tmp_path / "mt.txt"),),
                                                               source=str(tmp_path / "src.txt"))))
        qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy)
        assert [m.name for m in window.controller.run.metrics] == ["LLM-MQM"] and len(served.chats()) == 3
        asked: list[str] = []
        monkeypatch.setattr(questions, "ask_costly_change", lambda _p, text: asked.append(text) or False)
        judge = window.settings_panel.group("llm").widget("judge")
        judge.setCurrentText("esa")
        assert len(asked) == 1 and "the endpoint is asked about up to 3 segments" in asked[0]
        assert judge.currentText() == "mqm" and not window.jobs.busy and len(served.chats()) == 3
        timeout = window.settings_panel.group("llm").widget("timeout")
        timeout.setValue(30)  # the time one answer may take: no number changes, nothing is asked
        qtbot.waitUntil(lambda: not window.jobs.busy)
        assert len(asked) == 1 and len(served.chats()) == 3
    finally:
        served.stop()


def test_a_failed_rescore_keeps_the_settings_typed_and_says_they_are_not_applied(qtbot, window, tmp_path):
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.core.metrics.llm.config import LlmConfig
    from bleu_gui.gui.state import OpenChoice

    from .fake_endpoint import Reply

    refusing = FakeEndpoint(lambda seen: Reply(401, b'{"error": {"message": "invalid api key"}}')).start()
    try:
        (tmp_path / "src.txt").write_text("Hallo Welt.\nDanke.\n", encoding="utf-8")
        (tmp_path / "mt.txt").write_text("Hello world.\nThanks.\n", encoding="utf-8")
        window.run_actions.open_inputs(OpenChoice(InputRequest(systems=(str(tmp_path / "mt.txt"),),
                                                               source=str(tmp_path / "src.txt"))))
        qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy)
        shown = window.controller.scoring.metrics
        typed = LlmConfig(endpoint=refusing.base, model="fake", cache=str(tmp_path / "answers.sqlite"))
        panel = window.settings_panel
        panel.set_metrics((*shown, typed))  # as the user fills the judge's fields and ticks it
        errors: list[str] = []
        window.on_error = errors.append
        with qtbot.waitSignal(window.jobs.failed):
            window.choice.on_changed(panel.metrics())
        qtbot.waitUntil(lambda: not window.jobs.busy)
        llm = panel.group("llm")
        assert window.controller.scoring.metrics == shown  # the numbers are still the stand-in's
        assert llm.isChecked() and llm.widget("endpoint").text() == refusing.base  # what was typed stays
        assert panel.unapplied.isVisible() and "not applied" in panel.unapplied.label.text()
        assert "401" in panel.unapplied.label.text() and "⟦" not in panel.unapplied.label.text()
        panel.unapplied.back.click()  # the settings of the numbers shown, asked for
        assert not llm.isChecked() and not panel.unapplied.isVisible()
    finally:
        refusing.stop()


def test_a_judge_only_run_shows_its_texts_at_once_and_a_cancel_keeps_them(qtbot, window, tmp_path):
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.core.metrics.llm.config import LlmConfig
    from bleu_gui.gui.state import OpenChoice

    from .fake_endpoint import MODELS, Reply, chat_reply

    held = FakeEndpoint(lambda seen: Reply(body=MODELS) if seen.route.endswith("/models")
                        else Reply(body=chat_reply('{"errors": []}'), hold=True)).start()
    try:
        (tmp_path / "src.txt").write_text("Hallo Welt.\nDanke.\nGuten Tag.\n", encoding="utf-8")
        (tmp_path / "mt.txt").write_text("Hello world.\nThanks.\nGood day.\n", encoding="utf-8")
        window.controller.choose_scoring((LlmConfig(endpoint=held.base, model="fake", concurrency=1,
                                                    cache=str(tmp_path / "answers.sqlite")),))
        window.run_actions.open_inputs(OpenChoice(InputRequest(systems=(str(tmp_path / "mt.txt"),),
                                                               source=str(tmp_path / "src.txt"))))
        # The texts are there while the judge's first answer is still held by the endpoint.
        qtbot.waitUntil(lambda: window.controller.run is not None and held.held == 1)
        run = window.controller.run
        assert window.jobs.busy and run.systems[0].lines == ["Hello world.", "Thanks.", "Good day."]
        assert any(n.startswith("LLM judge: being computed") for n in run.notes)
        with qtbot.waitSignal(window.jobs.cancelled):
            window.job_progress.cancel_button.click()
        qtbot.waitUntil(lambda: not window.jobs.busy)
        run = window.controller.run
        assert run is not None and run.systems[0].lines[1] == "Thanks."  # still there to read, check and review
        assert any(n.startswith("LLM judge: not computed (cancelled); what their worker or endpoint finished is in "
                                "their caches: Score again (Ctrl+R) goes on") for n in run.notes), run.notes
    finally:
        held.stop()
