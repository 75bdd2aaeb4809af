"""Translator QA checks: each on hand-made segments (a flag where a translator would want one, none where the
translation is right), few false alarms on clean human references, and the checks joined to systems."""

from __future__ import annotations

import json

import pytest

from bleu_gui.cli.bleu_score import run
from bleu_gui.core.analysis.qa import (
    CHECKS,
    check_brackets,
    check_email,
    check_glossary,
    check_inconsistent,
    check_length,
    check_number,
    check_punctuation_end,
    check_repeated_word,
    check_untranslated,
    check_url,
    check_whitespace,
    fixed_and_introduced,
    read_glossary,
    run_checks,
)

from .conftest import cli, data_set


@pytest.mark.parametrize(("check", "source", "flagged", "fine"), [
    (check_number, "It costs 3.5 euros for 1,000 people in 2023.", "Es kostet 3,7 Euro für 1.000 Menschen 2023.",
     "Es kostet 3,5 Euro für 1 000 Menschen im Jahr 2023."),
    (check_number, "Price: ４９５０円", "Preis: 4905 Yen", "Preis: 4950 Yen"),
    (check_untranslated, "The committee approved the new budget on Tuesday.",
     "The committee approved the new budget on Tuesday.", "Der Ausschuss billigte am Dienstag den neuen Haushalt."),
    (check_repeated_word, "She read the book.", "Sie las das das Buch.", "Sie las das Buch."),
    (check_brackets, "He (the mayor) agreed.", "Er (der Bürgermeister stimmte zu.", "Er (der Bürgermeister) stimmte zu."),
    (check_brackets, "He said: “yes”.", "Er sagte: „ja.", "Er sagte: „ja“."),
    (check_url, "See https://example.org/a?b=1 now.", "Siehe https://example.org/a now.",
     "Siehe https://example.org/a?b=1 jetzt."),
    (check_email, "Write to info@example.org.", "Schreiben Sie an info@example.com.",
     "Schreiben Sie an info@example.org."),
    (check_punctuation_end, "Is it open?", "Ist es offen.", "Ist es geöffnet?"),
    (check_punctuation_end, "It is open.", "Es ist offen", "„Es ist offen.“"),
    (check_whitespace, "It is open.", "Es ist  offen.", "Es ist offen."),
])
def test_each_check_flags_the_fault_and_passes_the_fix(check, source, flagged, fine):
    assert check(source, flagged), (source, flagged)
    assert not check(source, fine), (source, fine)


def test_one_digit_numbers_and_numbers_in_names_are_not_checked():
    assert not check_number("3 people visited #Product2#.", "Drei Leute besuchten #Produkt#.")
    assert check_number("It was 1999.", "Es war 1998.") == ("source numbers missing or changed: 1999; numbers the source "
                                                            "does not have: 1998")


def test_corpus_checks_length_inconsistency_and_glossary():
    sources = [f"This is sentence number {i} of a rather long text." for i in range(30)]
    candidates = [f"Das ist Satz Nummer {i} eines recht langen Textes." for i in range(30)]
    candidates[7] = "Kurz."
    lengths = check_length(sources, candidates)
    assert lengths[7] and not any(lengths[:7] + lengths[8:])
    sources = ["Thank you for your patience today.", "Other.", "Thank you for your patience today."]
    said = check_inconsistent(sources, ["Danke für Ihre Geduld heute.", "Anderes.", "Vielen Dank für Ihre Geduld."])
    assert said[2] and not said[0] and "segment 1 has the usual one" in said[2]
    glossary = read_glossary("g.tsv", "budget\tHaushalt|Budget\n# a comment\ncommittee\tAusschuss\n")
    assert check_glossary("The committee passed the budget.", "Das Gremium verabschiedete den Haushalt.", glossary) \
        == "committee → Ausschuss"
    assert not check_glossary("The budget.", "Das Budget.", glossary)
    with pytest.raises(Exception, match="line 1: give a source term and its target term"):
        read_glossary("g.tsv", "budget\n")


def test_fixed_and_introduced_against_the_baseline():
    a = run_checks("A", ["Es kostet 3 Euro.", "Das das Haus."], ["It costs 30 euros.", "The house."])
    b = run_checks("B", ["Es kostet 30 Euro.", "Das Haus"], ["It costs 30 euros.", "The house."])
    changes = fixed_and_introduced(a, b)
    assert changes["number"] == ([0], []) and changes["repeated_word"] == ([1], [])
    assert changes["punctuation_end"] == ([], [1])


@pytest.mark.parametrize("folder", ["wmt21-en-de-3ref", "wmt22-en-ja", "wmt22-en-zh-2ref", "wmt22-ja-en",
                                    "wmt22-zh-en-2ref"])
def test_a_clean_human_reference_raises_few_false_alarms(folder):
    root = data_set(folder)
    source = (root / "src.txt").read_text(encoding="utf-8").splitlines()
    reference = (root / "ref1.txt").read_text(encoding="utf-8").splitlines()
    flags = run_checks("ref", reference, source)
    for check in CHECKS:
        share = len({f.segment for f in flags if f.check == check}) / len(reference)
        assert share <= 0.05, (folder, check, share)


def test_cli_json_and_the_slice_language(capsys, tmp_path):
    src = tmp_path / "src.txt"
    src.write_text("It costs 30 euros.\nSee www.example.org today.\nThe house is red.\n", encoding="utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("Es kostet 30 Euro.\nSiehe www.example.org heute.\nDas Haus ist rot.\n", encoding="utf-8")
    a = tmp_path / "a.txt"
    a.write_text("Es kostet 3 Euro.\nSiehe www.example.org heute.\nDas Haus ist rot.\n", encoding="utf-8")
    b = tmp_path / "b.txt"
    b.write_text("Es kostet 30 Euro.\nSiehe example.org heute.\nDas das Haus ist rot.\n", encoding="utf-8")
    code = run([str(ref), "-i", str(a), str(b), "--src", str(src), "--qa", "-f", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    found = {(f["system"], f["segment"], f["check"]) for f in json.loads(out)["qa"]}
    assert found == {("a.txt", 1, "number"), ("b.txt", 2, "url"), ("b.txt", 3, "repeated_word")}
    code = run([str(ref), "-i", str(a), str(b), "--src", str(src), "--qa"])
    out, err = capsys.readouterr()
    assert "b.txt against a.txt: number: fixes 1, introduces 0; repeated_word: fixes 0, introduces 1; url: fixes 0, " \
           "introduces 1" in out
    code = run([str(ref), "-i", str(a), str(b), "--src", str(src), "--labels", "A", "B", "--where",
                "'url' in qa[B] or 'number' in qa[A]", "-f", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "slice: 'url' in qa[B] or 'number' in qa[A] (2 of 3 segments)" in err
    assert run([str(ref), "-i", str(a), "--glossary", "g.tsv"]) == 2
    assert "--glossary applies to --qa" in capsys.readouterr().err


def test_the_window_lists_flags_counts_and_opens_a_segment(qtbot, window):
    from .test_window_inputs import LEFT_OVER


    root = data_set("wmt21-en-de-3ref")
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files([root / "sys1.txt", root / "sys2.txt"], [root / "ref1.txt"],
                                      source=root / "src.txt")
    dialog = window.tools.open_qa()
    with qtbot.waitSignal(dialog.ready):
        pass
    run = window.controller.run
    source = run.context.source.lines
    expected = [run_checks(s.name, s.lines, source) for s in run.systems]
    row = CHECKS.index("number")
    assert dialog.counts.item(row, 1).text() == str(len({f.segment for f in expected[0] if f.check == "number"}))
    fixed, introduced = fixed_and_introduced(expected[0], expected[1]).get("number", ([], []))
    assert dialog.counts.item(row, 2).text().endswith(f"(−{len(fixed)} +{len(introduced)})")
    assert not LEFT_OVER.search(dialog.note.text())  # "Glossary… (Tools ▸ QA checks)", not a flag
    dialog.check.setCurrentText("number")
    dialog.system.setCurrentIndex(1)
    dialog.which.setCurrentIndex(2)  # introduced by the second system against the baseline
    assert [int(dialog.list.item(r, 0).text()) for r in range(dialog.list.rowCount())] == \
        [run.line_number(i) for i in introduced]
    dialog.system.setCurrentIndex(0)
    dialog.which.setCurrentIndex(0)
    dialog.on_flag_clicked(0, 0)
    first = next(f for f in expected[0] if f.check == "number")
    assert (window.controller.system, window.controller.sentence) == (0, first.segment)
    # Each flag with its source and candidate beside it (cut to fit, whole in the tooltip).
    assert dialog.list.item(0, 3).toolTip() == source[first.segment]
    assert dialog.list.item(0, 4).toolTip() == run.systems[0].lines[first.segment]
    dialog.close()


def test_a_false_positive_is_kept_beside_the_review_and_read_again_and_a_check_switched_off_stays_off(
        qtbot, window, tmp_path, capsys):
    from PySide6.QtCore import Qt

    root = data_set("wmt22-en-ja")
    lines = {name: (root / name).read_text(encoding="utf-8").splitlines()[:300] for name in ("src.txt", "sys1.txt")}
    for name, text in lines.items():
        (tmp_path / name).write_text("\n".join(text) + "\n", encoding="utf-8")
    window.settings.set_rater("ana")
    window.controller.state.folders["review"] = str(tmp_path)
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files([tmp_path / "sys1.txt"], [], source=tmp_path / "src.txt")
    qtbot.waitUntil(lambda: not window.jobs.busy)
    dialog = window.tools.open_qa()
    with qtbot.waitSignal(dialog.ready):
        pass
    assert dialog.flags[0], "en-ja sys1's first 300 segments hold flags"
    check = dialog.flags[0][0].check
    flags = [f for f in dialog.flags[0] if f.check == check]
    first = flags[0]
    dialog.check.setCurrentText(check)
    dialog.list.setFocus()
    dialog.list.setCurrentCell(0, 0)
    qtbot.keyClick(dialog.list, Qt.Key.Key_F)  # a false positive
    path = window.qa_decisions_path()
    assert path is not None and path.parent == tmp_path and path.name.endswith(".qa.jsonl") and path.is_file()
    row = CHECKS.index(check)
    assert dialog.counts.item(row, 1).text() == str(len({f.segment for f in flags}) - 1)
    assert dialog.list.item(dialog.list.rowCount() - 1, 1).text() == f"{check} (false positive)"
    # "whitespace" switched off (its box in the counts table): its flags are out of the list and the counts.
    switch = dialog.counts.item(CHECKS.index("whitespace"), 0)
    switch.setCheckState(Qt.CheckState.Unchecked)
    assert dialog.counts.item(CHECKS.index("whitespace"), 1).text() == "off"
    dialog.close()
    again = window.tools.open_qa()  # read again: the mark and the switch are kept
    with qtbot.waitSignal(again.ready):
        pass
    assert again.counts.item(row, 1).text() == str(len({f.segment for f in flags}) - 1)
    assert again.counts.item(CHECKS.index("whitespace"), 0).checkState() == Qt.CheckState.Unchecked
    assert window.settings.qa_checks_off() == frozenset({"whitespace"})
    again.close()
    # The command reads the same file: the flag marked is left out, and said.
    code, out, err = cli(capsys, "-i", tmp_path / "sys1.txt", "--src", tmp_path / "src.txt", "--qa", check,
                         "--qa-decisions", path, "-f", "json")
    assert code == 0, err
    listed = [(f["segment"], f["check"]) for f in json.loads(out)["qa"]]
    assert (first.segment + 1, check) not in listed and len(listed) == len(flags) - 1
    assert "1 flags marked false positives" in err


def test_a_cancelled_qa_computation_stops_between_systems(qtbot, views, monkeypatch):
    """Choosing a glossary while the checks run starts them again: the first computation is cancelled, and it stops
    at the next system instead of checking every system beside the new one."""
    from bleu_gui.core import Cancelled
    from bleu_gui.gui.tools.qa_view import compute

    run = views.show_demo(qtbot)
    checked = []
    real = type(run).qa_flags

    def counted(self, i, *args):
        checked.append(i)
        return real(self, i, *args)

    monkeypatch.setattr(type(run), "qa_flags", counted)
    calls = []

    def progress(fraction):
        calls.append(fraction)
        if len(calls) > 1:
            raise Cancelled()

    with pytest.raises(Cancelled):
        compute(run, None, progress)
    assert checked == [0] and len(run.systems) > 1


def test_the_sentence_list_filters_by_a_qa_check(qtbot, views):
    views.show_demo(qtbot)
    sentences = views.inspect.sentences
    run = views.controller.run
    flagged = sorted({f.segment for f in run_checks(run.systems[0].name, run.systems[0].lines, None)
                      if f.check == "repeated_word"})
    assert flagged  # the demo's "Please read the the the instructions"
    sentences.qa.setCurrentIndex(sentences.qa.findData("repeated_word"))
    qtbot.waitUntil(lambda: sentences.model.rowCount() == len(flagged))
    assert [sentences.model.sentence_at(r) for r in range(sentences.model.rowCount())] == flagged
    assert "QA repeated_word" in ", ".join(sentences.model.rules())
    sentences.qa.setCurrentIndex(0)
    qtbot.waitUntil(lambda: sentences.model.rowCount() == run.n_sentences)
