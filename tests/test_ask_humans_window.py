"""File ▸ Ask the humans… and File ▸ Read the humans' ratings…: the window writes the campaign the command writes,
remembers it with the run and its session, places the ratings a real Pearmut wrote (tests/data/pearmut-campaign:
scripts/make_campaign_results.py) and offers to read them again when the file grows."""

import json
import shutil

from PySide6.QtCore import Qt

from bleu_gui.core.inputs.run_inputs import InputRequest
from bleu_gui.gui.state import OpenChoice, Selection
from bleu_gui.gui.tools.ask_humans_view import AskHumansDialog
from tests.conftest import ROOT
from tests.test_window_inputs import open_choice

RUN = ROOT / "tests" / "data" / "pearmut"
KEPT = ROOT / "tests" / "data" / "pearmut-campaign"


def _open(qtbot, window, **more):
    request = InputRequest(systems=(str(RUN / "A.txt"), str(RUN / "B.txt")), references=(str(RUN / "ref.txt"),),
                           source=str(RUN / "src.txt"), **more)
    run = open_choice(qtbot, window, OpenChoice(request))
    assert not isinstance(run, str), run
    return run


def _dialog(window) -> AskHumansDialog:
    window.file_menu.ask_humans.trigger()
    dialog = window.tools.ask_dialog
    assert isinstance(dialog, AskHumansDialog) and dialog.isVisible()
    return dialog


def test_the_window_writes_the_campaign_the_command_writes_and_remembers_it(qtbot, window, tmp_path, capsys):
    _open(qtbot, window)
    dialog = _dialog(window)
    dialog.raters.setValue(2)
    assert "5 segments" in dialog.estimate.text() and "20 ratings" in dialog.estimate.text()
    preview = dialog.preview.toPlainText()
    assert "It is sunny today 🌞, so let's go to the sea." in preview and "今日は晴れ🌞🌊、山に行こう。" in preview
    qtbot.waitUntil(lambda: "A.txt vs B.txt" in dialog.needed.text())
    dialog.write(str(tmp_path / "emoji.json"))
    ours = json.loads((tmp_path / "emoji.json").read_text(encoding="utf-8"))
    # What bleu-score --ask-humans wrote of the same run (the file a real Pearmut took: make_campaign_results.py).
    assert ours == json.loads((KEPT / "emoji.json").read_text(encoding="utf-8"))
    assert window.controller.opened.campaigns == (str(tmp_path / "emoji.json"),)
    assert window.current_session().campaigns == [str(tmp_path / "emoji.json")]
    # Never replaced unasked: writing again says so, in the window's words.
    failed: list[str] = []
    boxes: list[str] = []
    dialog.failed.connect(failed.append)
    window.error_shown.connect(boxes.append)
    dialog.write(str(tmp_path / "emoji.json"))
    assert failed and "exists; a campaign file is never replaced unasked" in failed[0]
    # Said in the dialog, not in a box over the window (that gave the keyboard back to the window).
    assert "Not written:" in dialog.done_label.text() and boxes == []
    # Fewer systems and a sample: the estimate follows, one system asks no pair.
    dialog.systems.item(1).setCheckState(Qt.CheckState.Unchecked)
    assert "× 1 system ×" in dialog.estimate.text() and dialog.needed.text() == ""
    for k in range(dialog.systems.count()):
        dialog.systems.item(k).setCheckState(Qt.CheckState.Unchecked)
    assert "Nothing to ask" in dialog.estimate.text() and not dialog.write_button.isEnabled()
    dialog.close()  # its estimate, if one is still computing, stops with it


def test_a_list_handed_over_is_what_the_campaign_asks(qtbot, window, tmp_path):
    run = _open(qtbot, window)
    dialog = window.tools.open_ask_humans(Selection((1, 3), "two lines a view listed"))
    assert dialog is not None and dialog.selection.currentText() == "two lines a view listed (2)"
    dialog.write(str(tmp_path / "two.json"))
    asked = [item["item_id"] for task in json.loads((tmp_path / "two.json").read_text(encoding="utf-8"))["data"]
             for doc in task for item in doc]
    assert [int(i.rsplit(":", 1)[1]) for i in asked] == [2, 4]  # the lines, 1-based
    assert run.n_sentences == 5
    dialog.close()


def test_the_ratings_come_back_and_are_offered_again_when_the_log_grows(qtbot, window, tmp_path):
    _open(qtbot, window)
    campaign = tmp_path / "emoji.json"
    shutil.copy(KEPT / "emoji.json", campaign)
    window.run_actions.remember_campaign(str(campaign))
    log = tmp_path / "emoji.jsonl"
    lines = (KEPT / "emoji.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text("".join(lines[:2]), encoding="utf-8")  # the first two submissions are in
    window.run_actions.read_ratings([str(log)])

    def asked_note() -> str:
        run = window.controller.run
        found = [n for n in run.notes if "campaign emoji asked" in n] if run is not None and not window.jobs.busy else []
        return found[0] if found else ""

    qtbot.waitUntil(lambda: bool(asked_note()))
    notes = " ".join(window.controller.run.notes)
    assert "of the 20 ratings campaign emoji asked are in" in notes, notes
    assert window.controller.opened.request.annotations == (str(log), str(campaign))
    first = next(n for n in window.controller.run.notes if "campaign emoji asked" in n)
    assert "4 of the 20 ratings campaign emoji asked are in; 4 of its 10 segments" in first, first
    # The raters go on: Pearmut appends to its log; the window offers to read it again and changes nothing unasked.
    bar = window.bars.ratings
    with log.open("a", encoding="utf-8") as out:
        out.write("".join(lines[2:]))
    qtbot.waitUntil(bar.isVisible)
    assert "emoji.jsonl changed on disk" in bar.label.text()
    assert first in window.controller.run.notes
    bar.button.click()
    qtbot.waitUntil(lambda: asked_note().startswith("emoji.jsonl: 16 of"))
    assert not bar.isVisible()
    again = asked_note()
    assert "emoji.jsonl: 16 of the 20 ratings campaign emoji asked are in; 8 of its 10 segments" in again, again
    assert "esa" in [m.name for m in window.controller.run.metrics]  # the humans' scores, beside the metrics
    # Where BLEU and the raters part most, handed to a new campaign (more raters) from Metrics vs humans.
    meta = window.humans.scores
    meta.evaluate()
    qtbot.waitUntil(lambda: meta.found is not None)
    meta.pairs.clicked.emit(meta.pairs.model().index(0, 0))
    qtbot.waitUntil(meta.ask_button.isEnabled)
    listed = sorted(int(meta.apart.model().index(r, 0).data(Qt.ItemDataRole.DisplayRole)) - 1
                    for r in range(meta.apart.model().rowCount()))
    meta.ask_button.click()
    dialog = window.tools.ask_dialog
    assert dialog is not None and dialog.selection.currentText().startswith("where BLEU and the humans part most on")
    assert list(dialog.plan.rows) == listed
    dialog.close()
    # Another metric chosen: its pairs are not listed yet, so nothing (not the last list) can be handed over.
    meta.table.clicked.emit(meta.table.model().index(0, 0))
    assert not meta.ask_button.isEnabled() and meta.listed == ((), "")


def test_the_triage_hands_its_list_to_the_campaign(qtbot, window):
    run = _open(qtbot, window)
    triage = window.tools.open_triage()
    assert triage is not None and triage.ask_button.isEnabled()
    listed = sorted(row.segment for row in triage.found.worst_first())
    triage.ask_button.click()
    dialog = window.tools.ask_dialog
    assert dialog is not None and dialog.selection.currentText().startswith("the triage of A.txt: the worst 20%")
    assert list(dialog.plan.rows) == listed and 0 < len(listed) < run.n_sentences
    dialog.close()


def test_a_session_keeps_the_campaigns_and_one_without_them_reads_none(tmp_path):
    from bleu_gui.core.output.sessions import Session, session_from_dict

    campaign = str(tmp_path / "emoji.json")
    kept = Session([str(RUN / "A.txt")], [str(RUN / "ref.txt")], campaigns=[campaign]).to_dict()
    assert session_from_dict(json.loads(json.dumps(kept))).campaigns == [campaign]
    del kept["campaigns"]  # a session saved before campaigns were kept
    assert session_from_dict(kept).campaigns == []
