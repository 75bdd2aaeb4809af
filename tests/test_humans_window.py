"""The window's Humans tab on WMT24's ESA release (en-zh, 13 systems): shown whenever the run holds human ratings;
Spans gives the command line's numbers for the same run, draws a segment's hits, misses and false alarms; Error-free
gives the command line's curve, clears when its label changes, and saves a calibration triage takes."""

from __future__ import annotations

import json

from .conftest import cli, data_set
from .test_span_agreement import detector_file

PAIR = "en-zh"


def open_esa(qtbot, window, root, detector):
    from bleu_gui.core.inputs.format_table import ReadOptions
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    systems = tuple(str(p) for p in sorted((root / PAIR / "systems").glob("*.txt")))
    request = InputRequest(systems=systems, references=(str(root / PAIR / "ref.txt"),),
                           source=str(root / PAIR / "src.txt"), options=ReadOptions(langs=("en", "zh")),
                           annotations=(str(root / "wmt24_esa.jsonl"), str(detector)))
    window.settings_panel.group("chrf").setChecked(True)
    refused = []
    window.run_actions.refused.connect(refused.append)
    window.run_actions.open_inputs(OpenChoice(request, None))
    qtbot.waitUntil(lambda: refused or (window.controller.run is not None and not window.jobs.busy
                                        and len(window.controller.run.systems) == len(systems)), timeout=300_000)
    assert not refused
    return systems


def test_spans_and_error_free_in_the_window_are_the_command_lines(qtbot, window, tmp_path, capsys):
    root = data_set("esa-wmt24-en-zh-en-hi")
    detector = detector_file(root, PAIR, tmp_path / "detector.jsonl")
    systems = open_esa(qtbot, window, root, detector)
    assert window.tabs.isTabEnabled(2) and window.tabs.tabText(2) == "Humans"
    window.tabs.setCurrentIndex(2)
    humans = window.humans
    spans = humans.spans
    humans.setCurrentWidget(spans)
    assert spans.button.isEnabled()
    spans.evaluate()
    qtbot.waitUntil(lambda: spans.found is not None, timeout=120_000)
    run = [root / PAIR / "ref.txt", "-i", *systems, "--src", root / PAIR / "src.txt", "--langs", "en", "zh",
           "--annotations", root / "wmt24_esa.jsonl", "--annotations", detector, "-m", "bleu", "chrf",
           "--span-eval", "-f", "json"]
    code, out, err = cli(capsys, *run)
    assert code == 0, err
    (expected,) = json.loads(out)["span_agreement"]["detectors"]
    (shown,) = spans.found.detectors
    assert shown.overall.to_dict() == expected["overall"]
    model = spans.table.model()
    assert model.index(0, 0).data() == "detector" and model.index(0, 2).data() == f"{expected['overall']['segments']:,}"
    assert model.index(0, 3).data().startswith(f"{expected['overall']['partial/micro']['f1']:.3f} [")
    assert spans.systems.model().rowCount() == len(systems)
    # The worst segment of the first system drawn: what both marked, what the detector missed or added.
    assert spans.segments.model().rowCount() > 0
    html = spans.drawn.toHtml()
    assert "detector against" in spans.drawn.toPlainText()
    assert any(colour in html for colour in ("#b7e4c7", "#ffd8a8", "#ffc9c9"))
    # Filled, the tab still fits a laptop's screen beside the settings (its legend once widened the window to 1485).
    assert window.minimumSizeHint().width() <= 1366
    spans.averaging.setCurrentText("macro")
    assert model.index(0, 3).data().startswith(f"{expected['overall']['partial/macro']['f1']:.3f} [")

    free = humans.error_free
    humans.setCurrentWidget(free)
    free.evaluate()
    qtbot.waitUntil(lambda: free.found is not None, timeout=120_000)
    code, out, err = cli(capsys, *run[:-3], "--error-free", "-f", "json")
    assert code == 0, err
    expected_free = {d["metric"]: d for d in json.loads(out)["error_free"]["detectors"]}
    for curve in free.found.curves:
        assert curve.to_dict() == expected_free[curve.metric]
    assert "error-free" in free.note.text() and free.save.isEnabled()
    # A changed label is a deliberate act that clears the numbers: none stays on screen computed otherwise.
    free.threshold.setValue(90.0)
    assert free.found is None and free.table.model().rowCount() == 0 and "Evaluate again" in free.note.text()


def test_the_humans_tab_is_there_whenever_the_run_holds_human_ratings(qtbot, window):
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    assert not window.tabs.isTabEnabled(2)  # nothing open: nothing human to compare with
    rated = data_set("formats/tsv-mqm-wmt") / "mqm_ted_ende.head588lines.tsv"
    window.run_actions.open_inputs(OpenChoice(InputRequest(references=(str(rated),), refs_wanted=("ref",)), None))
    qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy, timeout=300_000)
    # BLEU alone, MQM not ticked: the raters' spans are there, so is the tab; Scores waits for a human score column.
    assert [m.key for m in window.controller.run.metrics] == ["bleu"]
    humans = window.humans
    assert window.tabs.isTabEnabled(2)
    assert not humans.isTabEnabled(0) and humans.isTabEnabled(1) and humans.isTabEnabled(2)
    assert humans.currentWidget() is not humans.scores
