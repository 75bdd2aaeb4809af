"""chrF and TER in the window: chosen in the settings, scored beside BLEU, shown by the metric chooser, each
sentence with its evidence; remembered in sessions and settings. Numbers against sacreBLEU."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QSettings, Qt
from sacrebleu.metrics import CHRF, TER

from bleu_gui.core import BleuConfig, RunConfig
from bleu_gui.core.metrics.chrf.chrf import ChrfConfig
from bleu_gui.core.metrics.ter.ter import TerConfig
from bleu_gui.core.output.sessions import session_from_dict
from bleu_gui.demo import demo_paths
from bleu_gui.gui.shell.main_window import MainWindow
from bleu_gui.gui.shell.settings import Settings

from .test_explain_gui import type_over
from .test_gui import lines


def open_demo(qtbot, window):
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_demo()
    systems, refs = demo_paths()
    return [lines(s) for s in systems], [lines(r) for r in refs]


def show_demo(qtbot, views):
    """The demo scored with BLEU, chrF++ and TER, shown by views on a controller (no window)."""
    views.show_demo(qtbot, config=RunConfig((BleuConfig(), ChrfConfig(word_order=2), TerConfig())))
    systems, refs = demo_paths()
    return [lines(s) for s in systems], [lines(r) for r in refs]


def test_the_chooser_lists_the_metrics_and_everything_follows_it(qtbot, views):
    systems, refs = show_demo(qtbot, views)
    chooser = views.metric_chooser
    assert [chooser.combo.itemText(i) for i in range(chooser.combo.count())] == [
        "BLEU", "chrF2++", "TER (lower is better)"]
    assert chooser.isEnabled()
    with qtbot.waitSignal(views.controller.metric_changed):
        chooser.combo.activated.emit(2)
    header = views.inspect.header
    theirs = TER().corpus_score(systems[0], refs).score
    assert header.corpus_label.text() == f"TER {theirs:.2f}"
    assert "tok:tercom" in header.signature_label.text()
    model = views.inspect.sentences.model
    assert model.headerData(1, Qt.Orientation.Horizontal) == "TER"
    assert views.inspect.top_stack.currentWidget() is views.inspect.evidence


def test_each_sentence_shows_its_ter_evidence(qtbot, views):
    systems, refs = show_demo(qtbot, views)
    views.controller.set_metric(2)
    views.controller.set_system(1)
    views.controller.set_sentence(3)
    evidence = views.inspect.evidence
    expected = TER().sentence_score(systems[1][3], [r[3] for r in refs])
    assert sum(evidence.shown.chart.values[0]) == expected.num_edits  # shifts, substitutions, insertions, deletions
    assert f"sentence TER {expected.score:.2f}" in evidence.sentence_label.text()
    text = evidence.panes[1].text.toPlainText()
    shifted = views.controller.run.metrics[2].evidence(3, systems[1][3]).shifted
    assert all(w in text for w in shifted)  # every word of the shifted candidate is on screen
    assert evidence.panes[1].isVisibleTo(views)
    assert evidence.explain_panel.explanation.headline.startswith(f"TER = {expected.num_edits} edits")


def test_each_sentence_shows_its_chrf_evidence_and_an_edit_follows(qtbot, views):
    systems, refs = show_demo(qtbot, views)
    view = views.inspect
    views.controller.set_sentence(3)
    view.detail.editor.set_editing(True)
    type_over(qtbot, view.detail.panes.candidate, "She said the museum will reopen.")
    views.controller.set_metric(1)
    evidence = view.evidence
    theirs = CHRF(word_order=2).sentence_score("She said the museum will reopen.", [r[3] for r in refs]).score
    assert f"sentence chrF2++ {theirs:.2f} (edited)" in evidence.sentence_label.text()
    assert evidence.panes[0].text.toPlainText() == "She said the museum will reopen."
    assert not evidence.panes[2].isVisibleTo(views)
    categories, names, _values = evidence.chart.values
    assert categories == ["c1", "c2", "c3", "c4", "c5", "c6", "w1", "w2"] and names == ["precision", "recall"]


def test_checking_ter_in_the_settings_scores_it_and_is_remembered(qtbot, tmp_path):
    settings_file = tmp_path / "fresh.ini"
    window = MainWindow(Settings(QSettings(str(settings_file), QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    window.show()
    try:
        systems, refs = open_demo(qtbot, window)
        assert [m.key for m in window.controller.run.metrics] == ["bleu"]  # a newcomer: BLEU alone
        assert not window.metric_chooser.isEnabled()
        with qtbot.waitSignal(window.run_changed):
            window.settings_panel.group("ter").setChecked(True)
        run = window.controller.run
        assert [m.key for m in run.metrics] == ["bleu", "ter"]
        assert run.systems[1].results[1].corpus.score == pytest.approx(TER().corpus_score(systems[1], refs).score,
                                                                       abs=1e-9)
        session = window.current_session()
        assert [m.key for m in session_from_dict(json.loads(json.dumps(session.to_dict()))).metrics] == ["bleu", "ter"]
    finally:
        window.jobs.shutdown()
    again = Settings(QSettings(str(settings_file), QSettings.Format.IniFormat))
    assert again.metrics()[1:] == (TerConfig(),) and not again.problems


def test_a_bad_stored_metric_is_reported_and_dropped(tmp_path):
    path = tmp_path / "bad.ini"
    raw = QSettings(str(path), QSettings.Format.IniFormat)
    raw.setValue("scoring/other_metrics", json.dumps([{"metric": "chrf", "beta": "two"}]))
    raw.sync()
    settings = Settings(QSettings(str(path), QSettings.Format.IniFormat))
    assert settings.metrics() == (BleuConfig(),)
    assert any("beside BLEU" in p and "beta" in p for p in settings.problems)
