"""The LLM judge end to end against the humans: an OpenAI-compatible endpoint that answers with the errors Google's
raters marked on WMT21 TED en→de (scripts/parrot_judge.py) must give, through the app's requests, schema, cache,
quote placement and MQM weights, each single-rater segment exactly the MQM score of its rater (MQM's own scores
equal Google's, tests/test_mqm.py), its spans on the raters' characters, the desk its errors as suggestions, and the
command line the same numbers from the cache with the endpoint gone."""

from __future__ import annotations

import numpy as np
import pytest

from bleu_gui.core import RunConfig, score_run
from bleu_gui.core.inputs.ratings import TARGET
from bleu_gui.core.inputs.run_inputs import InputRequest, read_request
from bleu_gui.core.metrics.llm.config import LlmConfig
from bleu_gui.core.metrics.mqm.config import MqmConfig

from .conftest import cli, data_set, script

parrot = script("parrot_judge")
SYSTEMS = ("Nemo", "Facebook-AI")


@pytest.fixture(scope="module")
def ted():
    return str(data_set("formats") / "scores-mqm-ted-ende" / "mqm_ted_ende.tsv")


@pytest.fixture
def judge(ted):
    served = parrot.ParrotJudge(parrot.answers_from(ted, SYSTEMS)).start()
    yield served
    served.shutdown()
    served.server_close()


def scored(ted: str, base: str, cache: str):
    inputs = read_request(InputRequest(systems=(ted,), systems_wanted=SYSTEMS))
    config = RunConfig((MqmConfig(), LlmConfig(endpoint=base, cache=cache)), significance=None)
    return score_run(inputs.systems, inputs.references, config, context=inputs.context)


def test_a_judge_that_answers_as_the_raters_scores_and_marks_as_they_did(ted, judge, tmp_path):
    run = scored(ted, judge.base, str(tmp_path / "cache.sqlite"))
    mqm, llm = run.metrics
    assert llm.name == "LLM-MQM" and judge.asked == 935  # each distinct translation of the two systems once
    compared = placed = 0
    texts = [line for system in run.systems for line in system.file.lines]
    for system in run.systems:
        human, machine = system.results[0].stats, system.results[1].stats
        judged = llm.judged(system.file.lines)
        for i, ratings in enumerate(system.file.annotations or ()):
            if ratings is None or len(ratings.raters) != 1 or len(ratings.errors) > 8:
                continue
            if texts.count(system.file.lines[i]) > 1:  # one text, one answer: another system's rater may differ
                continue
            if judged[i].refused:  # the raters' marks are not bound by the schema: a quote of over 200 characters
                assert "at most 200 characters" in judged[i].refused and machine[i, 1] == 0
                continue
            assert machine[i, 1] == 1 and machine[i, 0] == human[i, 0], (system.name, i + 1)  # bit for bit
            compared += 1
            line = system.file.lines[i]
            for error in judged[i].errors:
                if error.start is not None:
                    assert line[error.start:error.end] == error.text
            for e in ratings.errors:  # a span the rater marked once in the text is where the judge's lands
                quote = e.text.strip()  # (less the spaces a rater's mark took in: they are not the error)
                if e.side == TARGET and quote and line.count(quote) == 1 and e.severity != "Neutral":
                    start = line.index(quote)
                    assert (start, start + len(quote)) in [(j.start, j.end) for j in judged[i].errors], (
                        system.name, i + 1)
                    placed += 1
    assert compared > 800 and placed > 400  # 821 and 439 on 2026-11-30


def test_the_desk_offers_the_judges_errors_as_suggestions(ted, judge, tmp_path, qtbot, window):
    from PySide6.QtCore import Qt

    from bleu_gui.gui.state import OpenChoice

    window.controller.choose_scoring((MqmConfig(), LlmConfig(endpoint=judge.base, cache=str(tmp_path / "c.sqlite"))))
    request = InputRequest(systems=(ted,), systems_wanted=SYSTEMS)
    window.run_actions.open_inputs(OpenChoice(request))
    qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy, timeout=60_000)
    assert window.start_review(str(tmp_path / "review.jsonl"), "ana", "mqm")
    review, pane = window.inspect.detail.review, window.inspect.detail.panes.candidate
    run = window.controller.whole.run
    k = [m.name for m in run.metrics].index("LLM-MQM")
    assert review.suggesting_metrics() == [(k, "LLM-MQM")]
    judged = run.metrics[k].judged(run.systems[0].file.lines)
    assert review.suggestions_from_metric(k) == sum(
        len(j.errors) for s in run.systems for j in run.metrics[k].judged(s.file.lines))
    first = next(i for i, j in enumerate(judged) if j.errors and j.errors[0].start is not None)
    window.controller.set_sentence(first)
    pane.setFocus()
    assert [(m.start, m.end, m.severity, m.category, m.suggested_by) for m in review.pending()] == [
        (e.start, e.end, e.severity, e.category, "LLM-MQM") for e in judged[first].errors]
    qtbot.keyClick(pane, Qt.Key.Key_A)  # the first suggestion taken as the reviewer's own, its source kept
    taken = review.review.state.marks
    assert [(m.start, m.end, m.suggested_by) for m in taken] == [
        (judged[first].errors[0].start, judged[first].errors[0].end, "LLM-MQM")]


def test_texts_leave_this_machine_only_when_the_user_says_so(window):
    asked: list[str] = []
    window.run_actions.confirm = lambda notice: asked.append(notice) or False
    away = (LlmConfig(endpoint="https://judge.example.org/v1"),)
    said = window.run_actions.declined(away)
    assert asked == ["LLM judge: the source and translation texts are sent to judge.example.org, off this machine "
                     "(https://judge.example.org/v1)"] and said.endswith("you chose not to send them")
    assert window.run_actions.declined(away) == said and len(asked) == 1  # declined once: not asked at every edit
    window.run_actions.confirm = lambda notice: asked.append(notice) or True
    assert window.run_actions.declined(away, ask_again=True) == "" and window.run_actions.declined(away) == ""
    assert len(asked) == 2  # asked once a window once accepted
    assert window.run_actions.declined((LlmConfig(),)) == ""  # this machine's llama-server: nothing to ask


def test_a_declined_judge_is_asked_about_once_and_the_settings_say_so(qtbot, window, tmp_path):
    from bleu_gui.demo import demo_paths

    systems, refs = demo_paths()
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files([systems[0]], refs)
    qtbot.waitUntil(lambda: not window.jobs.busy)
    asked: list[str] = []
    boxes: list[str] = []
    window.run_actions.confirm = lambda notice: asked.append(notice) or False
    window.run_actions.refused.connect(boxes.append)
    shown = window.controller.scoring.metrics
    llm = window.settings_panel.group("llm")
    llm.widget("endpoint").setText("https://judge.example.org/v1")  # typed before it is ticked
    llm.setChecked(True)
    for name, text in (("endpoint", "https://judge.example.org/v1"), ("model", "big"), ("seed", None)):
        field = llm.widget(name)
        if text is None:
            field.setValue(7)
        else:
            field.setText(text)
            field.editingFinished.emit()
    assert len(asked) == 1 and boxes == []  # one question, no box: the panel says it
    note = window.settings_panel.unapplied
    assert note.isVisible() and "you chose not to send them" in note.label.text()
    assert llm.isChecked() and llm.widget("model").text() == "big"  # what was typed stays
    assert not window.jobs.busy and window.controller.scoring.metrics == shown
    note.again.click()  # a deliberate act: asked again
    assert len(asked) == 2 and not window.jobs.busy


def test_a_cached_run_gives_the_same_numbers_with_the_endpoint_gone(ted, judge, tmp_path, capsys):
    cache = str(tmp_path / "cache.sqlite")
    first = scored(ted, judge.base, cache)
    base = judge.base
    judge.shutdown()
    judge.server_close()
    args = [ted, "--systems", *SYSTEMS, "-m", "llm", "--llm-endpoint", base, "--llm-model",
            "parrot", "--llm-cache", cache, "-b"]
    code, out, err = cli(capsys, *args)
    assert code == 0, err
    means = [float(v) for v in out.split()]
    expected = [first.systems[k].results[1].corpus.score for k in range(2)]
    assert np.allclose(means, expected, atol=0.005)
    assert "935 of the run's answers read from the cache" in err
    # Its spans are the metric's evidence: which of the raters' errors it saw (rater 1's own, mostly).
    code, out, err = cli(capsys, *args[:-1], "--error-recall")
    assert code == 0, err
    rows = {line.split()[0]: line.split() for line in out.splitlines() if "LLM-MQM" in line.split()[1:2]}
    assert set(rows) == set(SYSTEMS)
    seen = [int(rows[s][2].rstrip("%")) for s in SYSTEMS]  # Major errors seen
    assert all(share >= 80 for share in seen), out


def test_a_remembered_judge_is_offered_not_asked(ted, judge, tmp_path, qtbot):
    from PySide6.QtCore import QSettings

    from bleu_gui.gui.shell.main_window import MainWindow
    from bleu_gui.gui.shell.settings import Settings
    from bleu_gui.gui.state import OpenChoice

    settings = Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    settings.set_metrics((MqmConfig(), LlmConfig(endpoint=judge.base, model="parrot",
                                                 cache=str(tmp_path / "c.sqlite"))))  # an earlier session's
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    window.run_actions.open_inputs(OpenChoice(InputRequest(systems=(ted,), systems_wanted=SYSTEMS)))
    qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy, timeout=60_000)
    offer = window.bars.offered
    assert [m.key for m in window.controller.run.metrics] == ["mqm"] and judge.asked == 0
    assert offer.isVisibleTo(window) and offer.label.text().startswith("LLM judge (parrot) was on when bleu-gui last "
                                                                       "closed: not started for these 529 segments")
    offer.button.click()  # asked for: scored now
    qtbot.waitUntil(lambda: "LLM-MQM" in [m.name for m in window.controller.run.metrics] and not window.jobs.busy,
                    timeout=60_000)
    assert judge.asked == 935
    window.jobs.shutdown()
    window.close()


def test_a_screenshot_window_says_where_the_texts_go_and_goes_on(window, tmp_path, capsys):
    # bleu-gui --screenshot with an endpoint on another host: its flags named it, so the window says it as
    # bleu-score does (a note) and scores; it once said it as its one error and gave up.
    from bleu_gui.cli.screenshot_order import ScreenshotOrder
    from bleu_gui.gui.shell.screenshot import Screenshot

    ended: list[int] = []
    shot = Screenshot(window, ScreenshotOrder(tmp_path / "shot.png"), ended.append, lambda text: text)
    assert window.run_actions.declined((LlmConfig(endpoint="https://judge.example.org/v1"),)) == ""
    assert not shot.done and ended == []
    assert capsys.readouterr().err == ("bleu-gui: note: LLM judge: the source and translation texts are sent to "
                                       "judge.example.org, off this machine (https://judge.example.org/v1)\n")


def test_files_opened_after_a_declined_judge_open_without_it_and_say_so(qtbot, window, tmp_path):
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    (tmp_path / "src.txt").write_text("Hallo Welt.\nDanke.\n", encoding="utf-8")
    (tmp_path / "mt.txt").write_text("Hello world.\nThanks.\n", encoding="utf-8")
    asked: list[str] = []
    window.run_actions.confirm = lambda notice: asked.append(notice) or False
    window.controller.choose_scoring((LlmConfig(endpoint="https://judge.example.org/v1", model="big",
                                                cache=str(tmp_path / "answers.sqlite")),))
    window.run_actions.open_inputs(OpenChoice(InputRequest(systems=(str(tmp_path / "mt.txt"),),
                                                           source=str(tmp_path / "src.txt"))))
    qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy)
    run = window.controller.run
    assert len(asked) == 1 and all(m.key != "llm" for m in run.metrics)  # opened all the same, without the judge
    assert any(n.startswith("LLM judge not scored: ") and "you chose not to send them" in n for n in run.notes)


def test_the_judge_that_marks_as_the_raters_did_has_span_f1_one_against_them(ted, judge, tmp_path):
    from bleu_gui.core.analysis.span_agreement import marks_of
    from bleu_gui.core.analysis.span_measures import MEASURES, components, precision_recall_f1
    from bleu_gui.core.run.span_eval_run import run_span_agreement

    run = scored(ted, judge.base, str(tmp_path / "cache.sqlite"))
    llm = run.metrics[1]
    texts = [line for system in run.systems for line in system.file.lines]
    totals = {m: [0.0] * 4 for m in MEASURES}
    segments = 0
    for system in run.systems:
        answers = llm.error_spans(system.file.lines)
        for i, ratings in enumerate(system.file.annotations or ()):
            if ratings is None or len(ratings.raters) != 1 or len(ratings.errors) > 8 or answers[i] is None:
                continue
            line = system.file.lines[i]
            quotes = [line[e.start:e.end] for e in ratings.errors if e.start is not None]
            # Where the parrot can say exactly what the rater marked: one text per answer, each marked text once in
            # the line and without the spaces a mark may take in (the judge quotes text, not positions).
            if texts.count(line) > 1 or any(q != q.strip() or not q or line.count(q) != 1 for q in quotes):
                continue
            for m in MEASURES:
                c = components(m, marks_of(answers[i], len(line)), marks_of(ratings.errors, len(line)), len(line))
                totals[m] = [a + b for a, b in zip(totals[m], c)]
            segments += 1
    assert segments > 300
    for m in MEASURES:
        assert precision_recall_f1(tuple(totals[m])) == (1.0, 1.0, 1.0), m  # type: ignore[arg-type]
    # On every segment, spaces and repeated quotes included, the judge is the one detector and near its rater.
    found = run_span_agreement(run)
    assert [d.detector for d in found.detectors] == ["LLM-MQM"] and found.detectors[0].overall.f1() > 0.9
    assert "LLM-MQM agrees most" in found.in_words()
