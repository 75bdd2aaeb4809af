"""Triage: the segments a QE metric scores worst, listed and written out for post-editing. The rule is checked by
hand on a three-segment run; the XLIFF written is read back by translate-toolkit's XLIFF reader (another tool's,
as a CAT tool would read it): every unit found, its text unchanged, the decision and the score where we put them."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from bleu_gui.core.run.triage import TriageRule, post_edit_mask

from .conftest import cli, data_set

XLIFF_12 = "xliff12-symfony-validators/validators.de.xlf"  # en → de, 116 trans-units
XLIFF_20 = "xliff20-matecat-realworld/apos.xliff.xliff"    # en-US → pt-BR, 21 segments


@pytest.mark.parametrize(("rule", "higher", "expected"), [
    ("50%", True, [False, True, True, False, True]),   # 2 of 4 scored (0.2 and 0.5), the unscored one too
    ("25%", False, [False, False, True, False, True]),  # lower is better: 0.9 is the worst
    ("0.5", True, [False, True, False, False, True]),    # below 0.5
    ("0.5", False, [True, False, True, False, True]),    # above 0.5
    ("100%", True, [True, True, True, True, True]),
])
def test_the_rule_takes_the_worst_share_or_those_past_the_threshold_by_hand(rule, higher, expected):
    scores = np.array([0.8, 0.2, 0.9 if not higher else 0.5, 0.5 if not higher else 0.9, math.nan])
    assert post_edit_mask(scores, TriageRule.parse(rule), higher).tolist() == expected


def test_ties_at_the_boundary_take_the_earlier_segments_so_the_share_is_exact():
    scores = np.array([0.5, 0.5, 0.5, 0.5])
    assert post_edit_mask(scores, TriageRule.parse("50%"), True).tolist() == [True, True, False, False]


@pytest.mark.parametrize("text", ["0%", "120%", "many", "nan"])
def test_a_bad_rule_is_one_line(capsys, tmp_path, text):
    (tmp_path / "a.txt").write_text("x\n", encoding="utf-8")
    code, _out, err = cli(capsys, "-i", tmp_path / "a.txt", "--src", tmp_path / "a.txt", "--triage", text)
    assert code == 2 and len(err.strip().splitlines()) == 1 and f"--triage {text}" in err


def qa_flagged(path: Path) -> set[int]:
    """The segments of the system read from ``path`` that a QA check flags (what triage sends to post-editing
    with the flag as its reason), computed apart from the triage: the run as the command reads it, every check
    that can run."""
    from bleu_gui.core.analysis.qa import CHECKS, runnable_checks
    from bleu_gui.core.inputs.run_inputs import read_run_inputs
    from bleu_gui.core.metrics.registry import unscored
    from bleu_gui.core.run import RunConfig, score_run

    inputs = read_run_inputs([path], [])
    run = score_run(inputs.systems, inputs.references, RunConfig(unscored(), significance=None), context=inputs.context)
    checks = runnable_checks(list(CHECKS), run.context.source is not None, False, run.target_lines)
    lines = run.systems[0].lines
    return {f.segment for f in run.qa_flags(0, checks)} - {i for i, line in enumerate(lines) if not line.strip()}


def qe_for(targets: list[str], path: Path) -> list[float]:
    """MetricX-24 QE predictions of ``targets`` (lower is better): a seeded value per segment, written as MetricX
    writes them (matched to the system by its lines)."""
    values = [round(float(v), 3) for v in np.random.default_rng(3).uniform(0, 25, len(targets))]
    path.write_text("".join(json.dumps({"source": "", "hypothesis": t, "prediction": v}, ensure_ascii=False) + "\n"
                            for t, v in zip(targets, values)), encoding="utf-8")
    return values


def test_the_triaged_xliff_12_is_read_by_translate_toolkit_with_every_unit_its_text_and_its_decision(
        capsys, tmp_path):
    from translate.storage import xliff

    from bleu_gui.core.inputs.run_inputs import read_run_inputs

    original = data_set("formats") / XLIFF_12
    before = original.read_bytes()
    targets = read_run_inputs([original], []).systems[0].lines
    values = qe_for(targets, tmp_path / "qe.jsonl")
    out = tmp_path / "triaged.xlf"
    code, printed, err = cli(capsys, "-i", original, "--scores", tmp_path / "qe.jsonl", "--triage", "25%",
                             "--triage-out", out, "-f", "json")
    assert code == 0, err
    assert original.read_bytes() == before  # the input is never modified
    worst = set(np.argsort(-np.array(values), kind="stable")[:29].tolist())  # ceil(25% of 116) = 29, highest first
    flagged = qa_flagged(original)  # a QA flag sends a segment to post-editing too, the flag its reason
    listed = json.loads(printed)["triage"][0]["segments"]
    assert {s["segment"] - 1 for s in listed} == worst | flagged and all(s["decision"] == "post-edit" for s in listed)
    worst |= flagged
    theirs = xliff.xlifffile.parsefile(str(out))
    ours = xliff.xlifffile.parsefile(str(original))
    units = [u for u in theirs.units if u.istranslatable()]
    assert len(units) == len([u for u in ours.units if u.istranslatable()]) == 116
    ns = "{urn:oasis:names:tc:xliff:document:1.2}"
    for i, (unit, was) in enumerate(zip(units, [u for u in ours.units if u.istranslatable()])):
        assert (unit.source, unit.target, unit.getid()) == (was.source, was.target, was.getid())
        state = unit.xmlelement.find(f"{ns}target").get("state")
        assert (state == "needs-review-translation") == (i in worst), i
        note = unit.getnotes("bleu-gui")
        assert f"MetricX-QE {values[i]:.4f}: {'post-edit' if i in worst else 'keep'}" in note
        assert "the worst 25% of the scored segments" in note
        assert ("(QA: " in note) == (i in flagged and i not in set(np.argsort(-np.array(values),
                                                                            kind="stable")[:29].tolist()))


def test_the_triaged_xliff_20_marks_segments_and_keeps_the_rest_byte_for_byte(capsys, tmp_path):
    import re

    from bleu_gui.core.inputs.run_inputs import read_run_inputs

    original = data_set("formats") / XLIFF_20
    targets = read_run_inputs([original], []).systems[0].lines
    values = qe_for(targets, tmp_path / "qe.jsonl")
    out = tmp_path / "triaged.xlf"
    code, _printed, err = cli(capsys, "-i", original, "--scores", tmp_path / "qe.jsonl", "--triage", "10",
                              "--triage-out", out)
    assert code == 0, err
    written = out.read_text("utf-8")
    # What we added, taken out again, leaves the file as it was.
    added = re.compile(r'<notes><note category="bleu-gui"[^<]*</note></notes>| subState="bleu-gui:post-edit"')
    restored = added.sub("", written)
    restored = re.sub(r'(<segment id="[^"]*") state="initial"', r'\1 state="translated"', restored)
    assert restored == original.read_text("utf-8")
    marked = re.findall(r'<segment id="[^"]*" state="initial" subState="bleu-gui:post-edit"', written)
    assert len(marked) == len({i for i, v in enumerate(values) if v > 10} | qa_flagged(original)) > 0
    read = read_run_inputs([out], [])  # our own reader reads it back: the same segments
    assert read.systems[0].lines == targets


def test_the_triage_table_lists_the_segments_to_post_edit_worst_first(capsys, tmp_path):
    from bleu_gui.core.inputs.run_inputs import read_run_inputs

    original = data_set("formats") / XLIFF_12
    targets = read_run_inputs([original], []).systems[0].lines
    values = qe_for(targets, tmp_path / "qe.jsonl")
    code, _printed, err = cli(capsys, "-i", original, "--scores", tmp_path / "qe.jsonl", "--triage", "5%",
                              "--triage-out", tmp_path / "t.tsv")
    assert code == 0, err
    rows = [line.split("\t") for line in (tmp_path / "t.tsv").read_text("utf-8").splitlines()]
    assert rows[0] == ["segment", "decision", "score", "source", "candidate", "spans", "qa"]
    expected = np.argsort(-np.array(values), kind="stable")[:6]  # ceil(5% of 116) = 6
    assert [int(r[0]) - 1 for r in rows[1:7]] == expected.tolist()  # the worst first; then those QA flags
    assert [float(r[2]) for r in rows[1:7]] == [values[i] for i in expected]
    assert {int(r[0]) - 1 for r in rows[7:]} == qa_flagged(original) - set(expected.tolist())
    assert rows[1][4] == targets[expected[0]]


def test_an_xliff_triage_of_a_plain_text_system_is_refused(capsys, tmp_path):
    (tmp_path / "src.txt").write_text("a\nb\n", encoding="utf-8")
    (tmp_path / "A.txt").write_text("x\ny\n", encoding="utf-8")
    (tmp_path / "qe.csv").write_text("system,segment,q\nA.txt,1,1\nA.txt,2,0\n", encoding="utf-8")
    code, _out, err = cli(capsys, "-i", tmp_path / "A.txt", "--src", tmp_path / "src.txt", "--scores",
                          tmp_path / "qe.csv", "--triage", "50%", "--triage-out", tmp_path / "o.xlf")
    assert code == 2 and "annotates the XLIFF the system was read from" in err
    assert not (tmp_path / "o.xlf").exists()


def test_tools_triage_lists_the_worst_opens_a_segment_and_writes_the_xliff(qtbot, window, tmp_path):
    from bleu_gui.core.inputs.run_inputs import InputRequest, read_run_inputs
    from bleu_gui.gui.state import OpenChoice

    from .test_window_inputs import open_choice

    original = data_set("formats") / XLIFF_12
    targets = read_run_inputs([original], []).systems[0].lines
    values = qe_for(targets, tmp_path / "qe.jsonl")
    run = open_choice(qtbot, window, OpenChoice(InputRequest(systems=(str(original),),
                                                             scores=(str(tmp_path / "qe.jsonl"),))))
    assert not isinstance(run, str), run
    dialog = window.tools.open_triage()
    qtbot.addWidget(dialog)
    worst = np.argsort(-np.array(values), kind="stable")[:24].tolist()  # ceil(20% of 116) = 24, highest first
    flagged = qa_flagged(original) - set(worst)  # to post-edit for a QA flag, listed after the worst
    assert dialog.summary.text().startswith(f"<b>{24 + len(flagged)} of 116 segments need a human</b> — the worst 20%")
    listed = [int(dialog.table.item(r, 0).text()) - 1 for r in range(dialog.table.rowCount())]
    assert listed[:24] == worst and set(listed[24:]) == flagged
    dialog.rule.setText("120%")
    dialog.rule.editingFinished.emit()
    assert dialog.summary.text() == "Needs a human 120%: a share is more than 0% and at most 100%"
    assert dialog.table.rowCount() == 0 and not dialog.save_button.isEnabled()
    dialog.rule.setText("20")  # MetricX-QE: lower is better, so above 20
    dialog.rule.editingFinished.emit()
    assert dialog.table.rowCount() == len({i for i, v in enumerate(values) if v > 20} | qa_flagged(original))
    with qtbot.waitSignal(window.controller.sentence_changed):
        dialog.table.cellClicked.emit(1, 0)
    assert window.controller.sentence == int(dialog.table.item(1, 0).text()) - 1
    out = tmp_path / "post-edit.xlf"
    with qtbot.waitSignal(dialog.saved):
        dialog.save(str(out))
    states = out.read_text("utf-8").count('state="needs-review-translation"')
    assert states == dialog.table.rowCount()
    with qtbot.waitSignal(dialog.failed) as failed:
        dialog.save(str(original))  # an input file is never overwritten
    assert "input" in failed.args[0].lower()


def test_a_triage_of_a_latin1_xliff_writes_what_latin1_lacks_as_character_references(capsys, tmp_path):
    from translate.storage import xliff

    real = (data_set("formats") / XLIFF_12).read_text(encoding="utf-8")
    latin1 = tmp_path / "validators.de.xlf"  # the real file as a tool that writes ISO-8859-1 would write it
    latin1.write_bytes(real.replace('encoding="utf-8"', 'encoding="ISO-8859-1"', 1).encode("iso-8859-1"))
    from bleu_gui.core.inputs.run_inputs import read_run_inputs

    system = read_run_inputs([latin1], []).systems[0]
    scores = tmp_path / "scores.jsonl"
    scores.write_text("".join(json.dumps({"system": "target (de)", "segment": k + 1,
                                          "qualität→": (k * 7) % 10}, ensure_ascii=False) + "\n"
                              for k in range(len(system.lines))), encoding="utf-8")
    out = tmp_path / "triaged.xlf"
    code, _printed, err = cli(capsys, "-i", latin1, "--scores", scores, "--triage", "25%", "--triage-out", out)
    assert code == 0, err
    written = out.read_bytes()
    assert written.startswith(b'<?xml version="1.0" encoding="ISO-8859-1"?>') and b"&#8594;" in written
    units = [u for u in xliff.xlifffile.parsefile(str(out)).units if u.istranslatable()]
    assert len(units) == 116 and any("qualität→" in u.getnotes("bleu-gui") for u in units)


PO = """msgid ""
msgstr ""
"Project-Id-Version: shop\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: de\\n"

msgid "Open the file"
msgstr "Datei öffnen"

msgid "Save 3 copies of the invoice"
msgstr "Speichern Sie 5 Kopien der Rechnung"

msgid "Delete the account"
msgstr ""

msgid "Print the receipt"
msgstr "Beleg drucken"
"""


def test_a_triage_by_qa_alone_translates_the_empty_post_edits_the_flagged_and_unapproves_what_it_sends(
        capsys, tmp_path):
    """A CAT tool's file as translate-toolkit's po2xliff writes it (the producer run here: its header unit, its
    approved="yes"), triaged with no metric: the empty target to translate, the number QA flags to post-edit with the
    flag as its reason, the rest kept — read back by translate-toolkit as a CAT tool reads it."""
    import subprocess
    import sys

    from translate.storage import xliff

    po = tmp_path / "shop.de.po"
    po.write_text(PO, encoding="utf-8")
    made = tmp_path / "shop.de.xlf"
    subprocess.run([sys.executable, "-m", "translate.convert.po2xliff", str(po), str(made)], check=True,
                   capture_output=True)
    text = made.read_text(encoding="utf-8")
    assert 'restype="x-gettext-domain-header"' in text
    made.write_text(text.replace('<trans-unit xml:space="preserve" id="4">',  # as a CAT tool approved it
                                 '<trans-unit xml:space="preserve" id="4" approved="yes">'), encoding="utf-8")
    out = tmp_path / "triaged.xlf"
    code, printed, err = cli(capsys, "-i", made, "--triage", "qa", "--triage-out", out, "-f", "json")
    assert code == 0, err
    decisions = {s["segment"]: s["decision"] for s in json.loads(printed)["triage"][0]["segments"]}
    assert decisions == {2: "post-edit", 3: "translate"}  # the header is no segment: "Open the file" is 1
    units = [u for u in xliff.xlifffile.parsefile(str(out)).units if u.source and not u.isheader()]
    by_source = {u.source: u for u in units}
    ns = "{urn:oasis:names:tc:xliff:document:1.1}"
    number = by_source["Save 3 copies of the invoice"]
    assert number.xmlelement.find(f"{ns}target").get("state") == "needs-review-translation"
    assert not number.isapproved() and "(QA: number:" in number.getnotes("bleu-gui")
    empty = by_source["Delete the account"]
    assert empty.xmlelement.find(f"{ns}target").get("state") == "needs-translation"
    kept = by_source["Open the file"]
    assert kept.isapproved() or kept.xmlelement.get("approved") is None
    assert kept.xmlelement.find(f"{ns}target").get("state") == "translated" and "keep" in kept.getnotes("bleu-gui")
