"""A run without references (quality estimation: the source and the candidates only), on the command line: what it
refuses in one line, what it scores (read QE scores, human ratings, MQM), and that WMT's own ESA system scores come
out of WMT24's release without its reference. COMET's reference-free scoring is in test_comet.py (its models are
built once per test process)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from bleu_gui.core.inputs.run_inputs import read_run_inputs

from .conftest import cli, data_set


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def qe_run(tmp_path):
    """Two engines' outputs of a three-segment German source, no reference, and a QE score file (higher better)."""
    src = write(tmp_path / "src.txt", ["Guten Morgen.", "Wie geht es dir?", "Das kostet 3,50 €."])
    a = write(tmp_path / "A.txt", ["Good morning.", "How are you?", "That costs 3.50 €."])
    b = write(tmp_path / "B.txt", ["Good morning.", "How goes it you?", "That costs 5 €."])
    qe = write(tmp_path / "qe.csv", ["system,segment,kiwi", "A.txt,1,0.9", "A.txt,2,0.8", "A.txt,3,0.7",
                                     "B.txt,1,0.9", "B.txt,2,0.4", "B.txt,3,0.2"])
    return {"src": src, "A": a, "B": b, "qe": qe}


def test_neither_reference_nor_source_is_refused_in_one_line(capsys, qe_run):
    code, out, err = cli(capsys, "-i", qe_run["A"])
    assert code == 2 and not out and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "no reference and no source" in err and "--src" in err


@pytest.mark.parametrize(("metrics", "named"), [(["bleu"], "BLEU compares"), (["chrf", "ter"], "chrF, TER compare"),
                                                (["edit", "kiwi"], "Edit distance compares")])
def test_a_metric_that_needs_a_reference_is_refused_by_name(capsys, qe_run, metrics, named):
    code, out, err = cli(capsys, "-i", qe_run["A"], "--src", qe_run["src"], "--scores", qe_run["qe"], "--scores-partial",
                         "-m", *metrics)
    assert code == 2 and not out and "Traceback" not in err
    assert named in err and "the run has none: give a reference file (REF)" in err


def test_without_references_no_metric_is_chosen_by_default_but_read_qe_scores_are(capsys, qe_run):
    code, _out, err = cli(capsys, "-i", qe_run["A"], "--src", qe_run["src"])
    assert code == 2 and "a run without references has no default metric" in err and "--comet-model" in err
    code, out, err = cli(capsys, "-i", qe_run["A"], qe_run["B"], "--src", qe_run["src"], "--scores", qe_run["qe"],
                         "-f", "json")
    assert code == 0, err
    got = {e["system"]: e["score"] for e in json.loads(out)}
    assert got == pytest.approx({"A.txt": (0.9 + 0.8 + 0.7) / 3, "B.txt": (0.9 + 0.4 + 0.2) / 3})


def test_two_engines_without_a_reference_are_tested_on_their_qe_scores(capsys, qe_run):
    # Paired approximate randomization over three segments, by hand: A − B is 0, 0.4, 0.5 (observed |Δ| 0.3). Of
    # the four sign assignments of the two that differ, keeping or swapping both gives |Δ| = 0.3 (sacreBLEU counts
    # a trial only when it exceeds the observed Δ, so neither counts) and the other two 0.1/3: no trial counts,
    # p = (0 + 1) / (10,000 + 1) — and the run says why so few segments can never be significant.
    code, out, err = cli(capsys, "-i", qe_run["A"], qe_run["B"], "--src", qe_run["src"], "--scores", qe_run["qe"],
                         "--paired-ar", "-f", "json")
    assert code == 0, err
    b = next(e for e in json.loads(out) if e["system"] == "B.txt")
    assert b["score"] == pytest.approx(0.5) and b["tested_on"] == 3
    assert b["p_value"] == pytest.approx(1 / 10001, rel=1e-12)
    assert "differ in 2 segments: no paired test of so few can be significant" in b["why_not_significant"]


def test_the_report_and_the_sentence_table_say_there_is_no_reference(capsys, qe_run, tmp_path):
    report, table = tmp_path / "r.html", tmp_path / "s.csv"
    code, _out, err = cli(capsys, "-i", qe_run["A"], qe_run["B"], "--src", qe_run["src"], "--scores", qe_run["qe"],
                          "--report", report, "--export-sentences", table)
    assert code == 0, err
    assert "no reference (source and candidates only)" in report.read_text("utf-8")
    header = table.read_text("utf-8").splitlines()[0].split(",")
    assert "source" in header and not any(h.startswith("ref") for h in header)


def test_qa_in_a_run_without_references_reads_source_and_candidate(capsys, qe_run):
    code, out, err = cli(capsys, "-i", qe_run["A"], qe_run["B"], "--src", qe_run["src"], "--scores", qe_run["qe"],
                         "--qa", "number")
    assert code == 0, err
    assert "B.txt: number 1" in out and "A.txt: nothing flagged" in out  # 3,50 → 5: B changed the source's number


@pytest.mark.parametrize(("flag", "said"), [("--tokenizer-table", "--tokenizer-table scores BLEU"),
                                             ("--word-accuracy", "--word-accuracy counts the reference's words"),
                                             ("--format=multi-bleu", "--format multi-bleu is Moses' BLEU line")])
def test_a_view_that_needs_a_reference_is_refused_in_one_line(capsys, qe_run, flag, said):
    code, _out, err = cli(capsys, "-i", qe_run["A"], qe_run["B"], "--src", qe_run["src"], "--scores", qe_run["qe"], flag)
    assert code == 2 and "Traceback" not in err and err.strip().splitlines()[-1].endswith("the run has no reference")
    assert said in err


def test_reference_words_in_a_slice_need_a_reference(capsys, qe_run):
    code, _out, err = cli(capsys, "-i", qe_run["A"], "--src", qe_run["src"], "--scores", qe_run["qe"],
                          "--where", "ref_words > 2")
    assert code == 2 and "ref_words needs a reference, and the run has none" in err
    code, out, err = cli(capsys, "-i", qe_run["A"], "--src", qe_run["src"], "--scores", qe_run["qe"],
                         "--where", "src_words > 3", "-f", "json")  # 13a: 3, 5 and 5 words
    assert code == 0, err
    assert json.loads(out)["score"] == pytest.approx((0.8 + 0.7) / 2)


def test_a_bilingual_xliff_opens_without_a_reference_its_source_inside():
    xliff = data_set("formats/xliff12-matecat-okapi") / "calibre.docx.xliff"
    inputs = read_run_inputs([xliff], [])
    assert inputs.references == [] and len(inputs.systems) == 1
    source = inputs.context.source
    assert source is not None and len(source.lines) == len(inputs.systems[0].lines) > 10
    assert any("source: " in note for note in inputs.context.notes)


@pytest.mark.parametrize("pair", ["en-zh", "en-hi"])
def test_wmt24_esa_without_its_reference_gives_wmts_own_system_scores(capsys, pair):
    root = data_set("esa-wmt24-en-zh-en-hi")
    oracle = json.loads((root / "wmt-system-esa.json").read_text("utf-8"))[pair]
    systems = sorted((root / pair / "systems").glob("*.txt"))
    code, out, err = cli(capsys, "-i", *systems, "--src", root / pair / "src.txt", "--langs", *pair.split("-"),
                         "--scores", root / "wmt24_esa.jsonl", "--scores-partial", "-m", "esa", "-sl", "-f", "json")
    assert code == 0, err
    got = {Path(str(e["system"])).stem: (e["score"], e["segments"]) for e in json.loads(out)}
    assert got == {name: (v["esa_mean"], v["rated_segments"]) for name, v in oracle.items()}


def test_an_mqm_table_alone_points_at_its_reference_unless_its_systems_are_named(capsys):
    rated = data_set("formats/scores-mqm-ted-ende") / "mqm_ted_ende.tsv"
    code, _out, err = cli(capsys, rated, "-m", "mqm")
    assert code == 2 and "take one of the table's systems as the reference with --refs (it has ref," in err
    assert "name the systems to score with --systems" in err
    runs = []
    for extra in ((), ("--refs", "ref")):  # MQM reads the raters' marks, never the reference
        code, out, err = cli(capsys, rated, *extra, "--systems", "Nemo", "UEdin", "-m", "mqm", "-sl", "-f", "json")
        assert code == 0, err
        runs.append([[s["score"] for s in e["sentences"]] for e in json.loads(out)])
    assert runs[0] == runs[1] and len(runs[0][0]) == 529


def test_the_window_opens_a_run_without_references_on_qe_scores_and_refuses_one_with_nothing_to_score(
        qtbot, window, qe_run):
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    from .test_window_inputs import LEFT_OVER, open_choice

    files = tuple(str(qe_run[k]) for k in ("A", "B"))
    # Source and translations alone, nothing to score them: the run opens all the same (QA, the desk and the
    # scorecard need no score), saying nothing scores it yet and what could — every metric that reads no reference.
    alone = open_choice(qtbot, window, OpenChoice(InputRequest(systems=files, source=str(qe_run["src"]))))
    assert not isinstance(alone, str), alone
    assert [m.name for m in alone.metrics] == ["Not scored yet"] and alone.references == []
    assert window.inspect.header.corpus_label.text() == "Not scored yet"
    said = window.inspect.header.notes_label.text()
    assert "Nothing scores this run yet" in said and "an LLM judge (Endpoint (LLM judge, Scoring settings))" in said
    assert "Model (COMET, Scoring settings)" in said and "Segment scores (File ▸ Open)" in said
    assert not LEFT_OVER.search(said), said
    assert not window.inspect.sentences.histogram.isVisibleTo(window.inspect)  # nothing to draw
    run = open_choice(qtbot, window, OpenChoice(InputRequest(systems=files, source=str(qe_run["src"]),
                                                             scores=(str(qe_run["qe"]),))))
    assert not isinstance(run, str), run
    assert run.references == [] and [m.name for m in run.metrics] == ["kiwi"]
    assert "No reference: BLEU left out (they compare with a reference)" in run.notes
    assert window.inputs_label.text().startswith("3 sentences · no reference (source and candidates only)")
    panel, detail, inspect = window.settings_panel, window.inspect.detail, window.inspect
    assert panel.no_reference_note.isVisible() and panel.group("bleu").title() == "BLEU"
    assert "no reference: BLEU, chrF, TER, Edit distance not scored" in panel.no_reference_note.text()
    # Saying so makes the settings no wider than a run with a reference has them (it once cut them at the dock's edge).
    width_without = panel.minimumSizeHint().width()
    # BLEU's own parts of Inspect (n-gram order, tokens, match legend, precision and brevity charts) are not shown:
    # nothing fills them without a reference, and the room goes to the source and the candidate.
    bleu_parts = (detail.order_combo, detail.show_tokens, detail.status_legend, inspect.bottom_stack)
    assert not any(w.isVisible() for w in bleu_parts) and not detail.bars_legend.isVisible()
    assert detail.panes.candidate.width() > detail.panes.width() * 0.9  # and no empty column where references go
    # Compare's A and B, too: the candidates as they are, without BLEU's legend and n-gram order (they were empty).
    ab = window.compare_view.panes
    window.controller.set_sentence(2)
    qtbot.waitUntil(lambda: ab.pane_a.toPlainText() == "That costs 3.50 €.")
    assert ab.pane_b.toPlainText() == "That costs 5 €."
    assert not ab.bleu_legend.isVisibleTo(ab) and not ab.order.isVisibleTo(ab)
    assert "src_words" in window.inspect.sentences.slice_panel.expression.placeholderText()  # no ref_words example
    assert window.tabs.isTabEnabled(1) and run.comparison is not None and run.comparison.bucketed_by == "source length"
    # Settings changed in a run without references never bring BLEU back: the re-score keeps it out.
    window.settings_panel.group("chrf").setChecked(True)
    qtbot.waitUntil(lambda: not window.jobs.busy)
    assert [m.name for m in window.controller.run.metrics] == ["kiwi"]
    # ... and the next run, with a reference, scores what the settings say: BLEU and the chrF just chosen (the run
    # without references left them out of itself, never out of the settings; it once said "choose at least one
    # metric" here, found by walking File ▸ Open by keyboard).
    ref = write(qe_run["src"].with_name("ref.txt"), ["Good morning!", "How are you?", "That is 3.50 €."])
    run = open_choice(qtbot, window, OpenChoice(InputRequest(systems=files, references=(str(ref),))))
    assert not isinstance(run, str), run
    assert [m.name for m in run.metrics] == ["BLEU", "chrF2"]
    assert not panel.no_reference_note.isVisible() and panel.minimumSizeHint().width() == width_without
    qtbot.waitUntil(lambda: all(w.isVisible() for w in bleu_parts))


@pytest.mark.slow
def test_meta_evaluation_against_wmt24_esa_without_the_reference_gives_mt_metrics_evals_numbers(capsys, tmp_path):
    # The metric: MQM of the raters' own ESA spans (no reference read), asked for by name (a human column is never
    # ranked among the metrics unasked); the humans: their ESA scores. The oracle:
    # mt-metrics-eval's functions on the run written with --export-mtme (scripts/mtme_oracle.py --mtme CHECKOUT
    # DIR/bleu-gui en-zh esa MQM printed these).
    root = data_set("esa-wmt24-en-zh-en-hi")
    systems = sorted((root / "en-zh" / "systems").glob("*.txt"))
    code, out, err = cli(capsys, "-i", *systems, "--src", root / "en-zh" / "src.txt", "--langs", "en", "zh",
                         "--annotations", root / "wmt24_esa.jsonl", "--scores-partial", "-m", "esa", "mqm",
                         "--meta-eval", "esa", "--meta-eval-metrics", "MQM", "--export-mtme", tmp_path / "mtme",
                         "-f", "json")
    assert code == 0, err
    found = json.loads(out)["meta_evaluation"]
    assert found["human"] == "esa" and len(found["systems"]) == 12 and found["segments"] == 634
    mqm = next(m for m in found["metrics"] if m["metric"] == "MQM")
    assert mqm["system_pairwise_accuracy"] == pytest.approx(52 / 66, abs=1e-12)
    assert mqm["system_pearson"] == pytest.approx(0.9495722163050577, abs=1e-12)
    assert mqm["segment_acc_eq"] == pytest.approx(0.3267613038906416, abs=1e-12)
    assert mqm["segment_epsilon"] == 0.0
    assert mqm["segment_pearson"] == pytest.approx(0.534346395146368, abs=1e-12)
    assert mqm["segment_kendall"] == pytest.approx(0.4287300532860258, abs=1e-12)
    assert not (tmp_path / "mtme" / "bleu-gui" / "references").exists()  # nothing written for a reference it lacks


def test_the_review_desk_marks_a_run_without_references_and_mqm_joins_its_qe_score(qtbot, window, qe_run, tmp_path):
    from PySide6.QtCore import Qt

    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    from .test_review import _category, _select
    from .test_window_inputs import open_choice

    run = open_choice(qtbot, window, OpenChoice(InputRequest(systems=(str(qe_run["B"]),), source=str(qe_run["src"]),
                                                             scores=(str(qe_run["qe"]),), scores_partial=True)))
    assert not isinstance(run, str), run
    assert window.start_review(str(tmp_path / "review.jsonl"), "ana", "mqm")
    detail = window.inspect.detail
    review, pane = detail.review, detail.panes.candidate
    window.controller.set_sentence(2)  # "That costs 5 €." for "Das kostet 3,50 €."
    qtbot.waitUntil(lambda: pane.toPlainText() == "That costs 5 €.")
    assert not detail.panes.references.isVisibleTo(detail)  # no empty reference pane beside the one being marked
    _select(qtbot, pane, 11, 1)  # "5": a Major mistranslation of the number
    _category(qtbot, review, pane)
    qtbot.keyClick(pane, Qt.Key.Key_2)
    (mark,) = review.review.state.marks
    assert (mark.start, mark.end, mark.severity) == (11, 12, "Major")

    def scored() -> bool:
        now = window.controller.run
        keys = [m.key for m in now.metrics]
        return not window.jobs.busy and "mqm" in keys and now.systems[0].results[keys.index("mqm")].sentences[2] == -5
    qtbot.waitUntil(scored)
    now = window.controller.run
    assert now.references == [] and sorted(m.key for m in now.metrics) == ["kiwi", "mqm"]


def test_an_esa_review_joins_the_esa_scores_read_from_another_file_as_one_more_rater(qtbot, window, qe_run,
                                                                                      tmp_path):
    """The desk's ESA scores were the run's esa column: over WMT's ESA they replaced the raters' scores, under the
    signature of WMT's file (found reviewing WMT24's ESA release). Now the reviewer is one more rater: each segment
    the mean over the raters, signed with both files, and the next run opened with both gives the same numbers."""
    from PySide6.QtCore import Qt

    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    from .test_window_inputs import open_choice

    rows = [{"system": "B.txt", "segment": k, "rater": "wmt", "reviewed": True, "esa": v, "seconds": 1}
            for k, v in ((1, 90), (2, 40))]
    theirs = write(tmp_path / "theirs.jsonl", [json.dumps(r) for r in rows])
    request = InputRequest(systems=(str(qe_run["B"]),), source=str(qe_run["src"]), annotations=(str(theirs),))
    run = open_choice(qtbot, window, OpenChoice(request))
    assert not isinstance(run, str), run
    mine = tmp_path / "mine.jsonl"
    assert window.start_review(str(mine), "ana", "esa")
    review, pane = window.inspect.detail.review, window.inspect.detail.panes.candidate
    for sentence, score in ((1, 100), (2, 70)):  # "How goes it you?" with wmt's 40; "That costs 5 €." unrated
        window.controller.set_sentence(sentence)
        qtbot.waitUntil(lambda s=sentence: pane.toPlainText() == qe_run["B"].read_text("utf-8").splitlines()[s])
        review.score_box.setValue(score)
        qtbot.keyClick(pane, Qt.Key.Key_Return)

    def esa_now() -> list[float] | None:
        now = window.controller.run
        names = [m.name for m in now.metrics]
        return None if window.jobs.busy or "esa" not in names else list(now.systems[0].results[names.index("esa")].sentences)
    # By hand: segment 1 wmt's 90 alone, segment 2 (40 + 100) / 2, segment 3 ana's 70.
    qtbot.waitUntil(lambda: esa_now() == [90.0, 70.0, 70.0])
    metric = next(m for m in window.controller.run.metrics if m.name == "esa")
    assert metric.read_from() == "theirs.jsonl + mine.jsonl" and "file:theirs.jsonl + mine.jsonl" in metric.signature()
    window.inspect.detail.review.stop()
    # The next run, opened with both files, reads the same numbers (and signs them alike).
    both = open_choice(qtbot, window, OpenChoice(replace(request, annotations=(str(theirs), str(mine)))))
    assert not isinstance(both, str), both
    esa = [m.name for m in both.metrics].index("esa")
    assert list(both.systems[0].results[esa].sentences) == [90.0, 70.0, 70.0]
    assert both.metrics[esa].read_from() == "theirs.jsonl + mine.jsonl"
    # Resumed on that run, the reviewer's own rows come from the desk, never counted twice.
    assert window.start_review(str(mine), "ana", "esa")
    qtbot.waitUntil(lambda: esa_now() == [90.0, 70.0, 70.0])
    assert next(m for m in window.controller.run.metrics if m.name == "esa").read_from() == "theirs.jsonl + mine.jsonl"


def test_the_settings_taller_than_the_window_scroll_and_are_never_cut_at_the_side(qtbot, window, qe_run):
    """With MQM's group open and the note of a run without references the settings are taller than a short window:
    they scroll up and down, and the scroll bar takes its width beside the fields, not from them (it once did, the
    fields cut at the dock's edge)."""
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    from .test_window_inputs import open_choice

    run = open_choice(qtbot, window, OpenChoice(InputRequest(systems=(str(qe_run["B"]),), source=str(qe_run["src"]),
                                                             scores=(str(qe_run["qe"]),), scores_partial=True)))
    assert not isinstance(run, str), run
    panel, scroll = window.settings_panel, window.settings_dock.widget()
    panel.group("mqm").setChecked(True)
    qtbot.waitUntil(lambda: not window.jobs.busy)
    window.resize(1366, 600)
    qtbot.waitUntil(lambda: scroll.verticalScrollBar().isVisible())
    qtbot.waitUntil(lambda: scroll.viewport().width() >= panel.minimumSizeHint().width(), timeout=3000)


def test_the_tools_that_need_a_reference_say_so_in_a_run_without_one(qtbot, window, qe_run):
    """Tools ▸ Word accuracy ran and failed with "IndexError: list index out of range"; the tokenizer table asked to
    "score BLEU first" and Where metrics disagree to "add chrF or TER", which a run without references cannot."""
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    from .test_window_inputs import open_choice

    run = open_choice(qtbot, window, OpenChoice(InputRequest(systems=(str(qe_run["A"]), str(qe_run["B"])),
                                                             source=str(qe_run["src"]), scores=(str(qe_run["qe"]),))))
    assert not isinstance(run, str), run
    said: list[str] = []
    window.tools.message.connect(lambda text, _ms: said.append(text))
    errors: list[str] = []
    window.error_shown.connect(errors.append)
    assert window.tools.open_word_accuracy() is None
    assert window.tools.open_tokenizer_table() is None
    assert window.tools.open_disagree() is None
    assert len(said) == 3 and all("no reference" in text for text in said), said
    assert "chrF or TER" not in said[2] and "COMET" in said[2], said
    assert not errors and window.tools.tool_dialog is None, errors
