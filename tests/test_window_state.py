"""The window's state object, without Qt: settings chosen in the window are scored with at once and remembered only
once a run shows them; a cancelled or failed re-score leaves the settings of the numbers shown; imported scores
follow their files; a session is a snapshot of what was opened, B and the settings."""

from dataclasses import replace
from pathlib import Path

from bleu_gui.core import BleuConfig, RunConfig, SegmentFile, score_run
from bleu_gui.core.inputs.run_inputs import InputRequest
from bleu_gui.core.metrics.chrf.config import ChrfConfig
from bleu_gui.core.metrics.imported.config import ImportedConfig
from bleu_gui.core.metrics.ter.config import TerConfig
from bleu_gui.gui.state import CHOSEN, REMEMBERED, OpenChoice, Scoring, ViewState, WindowState


def run_with(*metrics):
    files = [SegmentFile(Path(n), ["the cat sat", "a dog"], "utf-8") for n in ("a.txt", "b.txt", "ref.txt")]
    return score_run(files[:2], files[2:], RunConfig(metrics))


def test_chosen_settings_are_remembered_once_a_run_shows_them():
    state = WindowState(Scoring((BleuConfig(),), REMEMBERED))
    chosen = (BleuConfig(lowercase=True), ChrfConfig())
    state.choose(chosen)
    assert state.run_config(None) == RunConfig(chosen) and state.scoring.origin == REMEMBERED
    assert state.shown(run_with(BleuConfig())) is None  # an older job's run: not what was chosen
    assert state.shown(run_with(*chosen)) == chosen
    assert state.scoring == Scoring(chosen, CHOSEN)
    assert state.shown(run_with(*chosen)) is None  # remembered once


def test_after_a_cancelled_rescore_the_settings_are_those_of_the_numbers_shown():
    state = WindowState(Scoring((BleuConfig(),), REMEMBERED))
    shown = run_with(BleuConfig(), TerConfig())
    state.choose((BleuConfig(lowercase=True),))
    state.settled(shown)
    assert state.scoring == Scoring((BleuConfig(), TerConfig()), REMEMBERED)
    state.choose((BleuConfig(max_order=2),))
    state.settled(None)  # nothing shown yet: the choice stands, but is no longer waiting for a run
    assert state.scoring == Scoring((BleuConfig(max_order=2),), REMEMBERED)


def test_imported_scores_follow_the_files_shown_and_never_enter_the_settings():
    state = WindowState(Scoring((BleuConfig(),), REMEMBERED))
    shown = run_with(BleuConfig())
    imported = ImportedConfig("COMET", source="scores.tsv")
    with_scores = replace(shown, config=RunConfig((BleuConfig(), imported)))  # as a run with a score file holds it
    state.choose((BleuConfig(), ChrfConfig()))
    assert state.run_config(with_scores).metrics == (BleuConfig(), ChrfConfig(), imported)
    state.settled(with_scores)
    assert state.scoring.metrics == (BleuConfig(),)


def test_a_session_is_a_snapshot_of_the_opened_files_b_and_the_settings():
    run = run_with(BleuConfig(lowercase=True), ChrfConfig())
    state = WindowState(Scoring((BleuConfig(),), REMEMBERED))
    request = InputRequest(systems=("a.txt", "b.txt"), references=("ref.txt",), encoding="latin-1")
    state.opened = OpenChoice(request, ("A", "B"))
    state.view = ViewState(b=1)
    session = state.session(run)
    assert session.metrics == (BleuConfig(lowercase=True), ChrfConfig())
    assert session.encoding == "latin-1" and session.b == 1
