"""Every input the command line opens, the window opens: File ▸ Open's fields, bleu-gui's flags, sessions; and
the window's messages name the field that fixes a problem, never a flag."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bleu_gui.cli.arguments import build_parser, words
from bleu_gui.cli.window_arguments import build_window_parser
from bleu_gui.core.inputs.format_table import ReadOptions
from bleu_gui.core.inputs.run_inputs import InputRequest
from bleu_gui.core.metrics.registry import FAMILIES
from bleu_gui.gui.shell.open_dialog import OpenDialog
from bleu_gui.gui.state import OpenChoice
from bleu_gui.gui.window_words import FIELDS, in_window_words, window_word

from .conftest import data_set

# A flag of the command line, or a field no one worded: never in a message the window shows.
LEFT_OVER = re.compile(r"(?<![\w-])(?<!sacrebleu )--?[a-z][\w-]*|⟦")

TMX_3 = "tmx-lisa-compliance-kit/ImportTest1L.tmx"  # en-us, fr and en-gb
MQM = "tsv-mqm-wmt/mqm_ted_ende.head588lines.tsv"


def open_choice(qtbot, window, choice: OpenChoice):
    """Open and wait for the run shown, or for the error it gives (returned as text)."""
    seen: list[object] = []
    window.run_changed.connect(seen.append)
    window.error_shown.connect(seen.append)
    try:
        window.run_actions.open_inputs(choice)
        qtbot.waitUntil(lambda: bool(seen))
    finally:
        window.run_changed.disconnect(seen.append)
        window.error_shown.disconnect(seen.append)
    return seen[0]


def test_a_tmx_with_three_languages_asks_for_them_by_field_then_opens(qtbot, window):
    path = str(data_set("formats") / TMX_3)
    message = open_choice(qtbot, window, OpenChoice(InputRequest(systems=(path,), references=(path,), allow_identical=True)))
    assert isinstance(message, str)
    assert "Languages (File ▸ Open)" in message and not LEFT_OVER.search(message), message
    request = InputRequest(systems=(path,), references=(path,), options=ReadOptions(langs=("en-us", "fr")), allow_identical=True)
    run = open_choice(qtbot, window, OpenChoice(request))
    assert not isinstance(run, str), run
    assert run.n_sentences == 1 and run.references[0].field == "target (fr)"
    assert "languages: en-us as source, fr as target" in " ".join(run.context.notes)


def test_an_mqm_table_opens_with_its_ref_system_as_the_reference(qtbot, window):
    path = str(data_set("formats") / MQM)
    message = open_choice(qtbot, window, OpenChoice(InputRequest(systems=(), references=(path,))))
    assert isinstance(message, str)
    assert "References to use (File ▸ Open)" in message and "it has ref," in message
    assert not LEFT_OVER.search(message), message
    run = open_choice(qtbot, window, OpenChoice(InputRequest(systems=(), references=(path,), refs_wanted=("ref",),
                                                             systems_wanted=("Nemo", "UEdin"))))
    assert [s.name for s in run.systems] == ["Nemo", "UEdin"]
    assert run.references[0].field == "ref"


def test_labels_and_a_slice_open_with_the_files(qtbot, window):
    path = str(data_set("formats") / "wmt-xml-wmt22-liv-en" / "wmttest2022.liv-en.all.xml")
    request = InputRequest(references=(path,), systems_wanted=("TartuNLP", "NiuTrans"))
    run = open_choice(qtbot, window, OpenChoice(request, labels=("tartu", "niu"), where=("doc=349",)))
    assert not isinstance(run, str), run
    assert [s.name for s in run.systems] == ["tartu", "niu"]
    assert run.slice is not None and "349" in run.slice.description
    assert window.controller.whole_run.n_sentences == 420 and run.n_sentences == 1


def test_the_dialog_makes_the_request_the_fields_say(qtbot):
    dialog = OpenDialog()
    qtbot.addWidget(dialog)
    dialog.systems.setText("a.txt; b.txt")
    dialog.references.setText("table.tsv")
    dialog.encoding.setCurrentText("cp949")
    dialog.format.setCurrentText("tsv")
    dialog.source_lang.setText("en")
    dialog.target_lang.setText("ko")
    dialog.refs_wanted.setText("ref")
    dialog.systems_wanted.setText("x;y")
    dialog.columns.setText("candidate=hyp; reference=gold")
    dialog.keep_tags.setChecked(True)
    dialog.allow_identical.setChecked(True)
    dialog.docs.setText("ids.txt")
    dialog.labels.setText("A;B")
    dialog.where.setText("doc=d1; origlang=en")
    choice = dialog.choice()
    assert choice == OpenChoice(
        InputRequest(systems=("a.txt", "b.txt"), references=("table.tsv",), encoding="cp949", source=None,
                     docs="ids.txt", options=ReadOptions("tsv", True, ("en", "ko"),
                                                         {"candidate": "hyp", "reference": "gold"}),
                     refs_wanted=("ref",), systems_wanted=("x", "y"), allow_identical=True),
        ("A", "B"), ("doc=d1", "origlang=en"))
    again = OpenDialog(choice=choice)
    qtbot.addWidget(again)
    assert again.choice() == choice  # a dialog filled from the run shown opens the same


@pytest.mark.parametrize(("field", "text", "named"), [
    ("columns", "hyp", "Columns"), ("target_lang", "ja", "Languages"), ("references", "", "References")])
def test_a_bad_field_is_named_and_the_dialog_stays_open(qtbot, field, text, named):
    dialog = OpenDialog()
    qtbot.addWidget(dialog)
    dialog.references.setText("ref.txt")
    getattr(dialog, field).setText(text)
    dialog.on_accept()
    assert dialog.result() == 0 and dialog.problem.text().startswith(named)


def core_fields() -> set[str]:
    """Every field the core's messages name (``term("langs")``), and every family's settings."""
    core = Path(__file__).resolve().parents[1] / "bleu_gui" / "core"
    named = {m.group(1) for p in core.rglob("*.py")
             for m in re.finditer(r"term\(['\"]([a-z_.]+)['\"]", p.read_text(encoding="utf-8"))}
    return named | {f"{fam.key}.{f.name}" for fam in FAMILIES for f in fam.config.fields() if f.setting.cli}


def test_every_field_the_core_names_has_a_word_in_the_window_and_a_flag_on_the_command_line():
    fields = core_fields()
    assert {"langs", "encoding", "where", "bleu.tokenizer", "ter.asian_support", "chrf.word_order"} <= fields
    command, window = words(build_parser()), words(build_window_parser())
    for name in fields:
        said = window_word(name, "x")
        assert said != f"{name} x" and not LEFT_OVER.search(said), (name, said)
        if name not in ("glossary", "labels"):
            assert command(name, None).startswith(("-", "REF")), (name, command(name, None))
    for name in FIELDS:
        if name not in ("systems", "references", "where", "labels"):
            assert window(name, None).startswith("-"), name  # bleu-gui takes the same input flags


def test_no_flag_is_left_in_a_window_message():
    message = ("x.tmx: choose the source and target languages with ⟦langs=SRC TGT⟧ (the file has en-us, fr); "
               "tokenizer zh, as sacrebleu -l en-zh chooses it; ⟦bleu.tokenizer⟧ overrides")
    said = in_window_words(message)
    assert said == ("x.tmx: choose the source and target languages with Languages (File ▸ Open) (the file has en-us, "
                    "fr); tokenizer zh, as sacrebleu -l en-zh chooses it; Tokenizer (BLEU, Scoring settings) overrides")


def test_bleu_gui_takes_every_input_flag_of_bleu_score():
    from bleu_gui.cli.arguments import build_parser as score_parser
    from bleu_gui.cli.arguments import input_request
    from bleu_gui.cli.window_arguments import build_window_parser as gui_parser

    def input_flags(parser):
        return {s for a in parser._actions for s in a.option_strings
                if a.container.title and a.container.title.startswith("input formats")}

    assert input_flags(score_parser()) <= input_flags(gui_parser())
    args = gui_parser().parse_args(["t.tmx", "-r", "t.tmx", "--langs", "en-us", "fr", "--allow-identical-refs",
                                    "--column", "candidate=hyp", "--docs", "ids.txt", "-e", "latin-1"])
    request = input_request(args, args.systems, args.references)
    assert request == InputRequest(systems=("t.tmx",), references=("t.tmx",), encoding="latin-1", docs="ids.txt",
                                   options=ReadOptions(None, False, ("en-us", "fr"), {"candidate": "hyp"}),
                                   allow_identical=True)


def test_a_session_keeps_how_its_files_were_read(tmp_path):
    from bleu_gui.core.output.sessions import Session, load_session, save_session, session_from_dict

    options = ReadOptions("tmx", True, ("en-us", "fr"), {})
    session = Session([str(tmp_path / "a.tmx")], [str(tmp_path / "a.tmx")], docs=str(tmp_path / "ids.txt"),
                      options=options, allow_identical=True, encoding="latin-1")
    again = load_session(save_session(tmp_path / "s.json", session))
    assert again == session
    request = again.opening()
    assert (request.options, request.allow_identical, request.docs, request.encoding) == (
        options, True, str(tmp_path / "ids.txt"), "latin-1")
    with pytest.raises(Exception, match="langs must be two language codes"):
        session_from_dict({**session.to_dict(), "options": {"langs": ["en"]}})


def test_new_system_outputs_start_a_new_test_set_from_their_own_files(qtbot, monkeypatch, tmp_path):
    from bleu_gui.gui.shell import open_dialog

    earlier = OpenChoice(InputRequest(systems=("old/a.txt", "old/b.txt"), references=("old/ref.txt",),
                                      source="old/src.txt", docs="old/docs.txt", scores=("old/comet.tsv",),
                                      options=ReadOptions(None, False, ("en", "de"), {})),
                         ("A", "B"), ("doc=d1",))
    dialog = OpenDialog(choice=earlier)
    qtbot.addWidget(dialog)
    dialog.encoding.setCurrentText("cp1252")  # how to read files: not the test set's
    dialog.docs.setText("mine/docs.txt")      # typed since: kept
    monkeypatch.setattr(open_dialog, "ask_open_many", lambda *a, **k: [str(tmp_path / "wmt24.en-ja.xml")])
    dialog.on_browse_systems()
    assert dialog.systems.text() == str(tmp_path / "wmt24.en-ja.xml")
    assert dialog.references.text() == dialog.source.text() == dialog.scores.text() == ""
    assert dialog.source_lang.text() == dialog.target_lang.text() == dialog.labels.text() == dialog.where.text() == ""
    assert dialog.docs.text() == "mine/docs.txt" and dialog.encoding.currentText() == "cp1252"
    said = dialog.cleared.text()
    assert dialog.cleared.isVisibleTo(dialog) and "references" in said and "source" in said and "docs" not in said
    choice = dialog.choice()  # a WMT XML alone in System outputs: its own references
    assert choice.request.references == () and choice.request.source is None


def test_adding_a_system_to_the_same_test_set_keeps_its_references(qtbot):
    earlier = OpenChoice(InputRequest(systems=("a.txt",), references=("ref.txt",)), None, ())
    dialog = OpenDialog(choice=earlier)
    qtbot.addWidget(dialog)
    dialog.systems.setText("a.txt;b.txt")
    dialog.systems.editingFinished.emit()
    assert dialog.references.text() == "ref.txt" and not dialog.cleared.isVisibleTo(dialog)


def test_a_long_problem_scrolls_in_its_box_and_the_fields_keep_their_rows(qtbot):
    dialog = OpenDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    rows = [dialog.systems, dialog.references, dialog.source, dialog.docs, dialog.encoding, dialog.labels]
    listing = ", ".join(f"newstest2024.system-{k}.en-ja.txt has {1000 + k}" for k in range(40))
    dialog.show_problem(f"line counts differ: {listing}")
    qtbot.waitUntil(lambda: dialog.problem_box.isVisible())
    dialog.adjustSize()
    assert dialog.problem_box.height() <= dialog.fontMetrics().lineSpacing() * 7 + 8
    assert all(w.height() >= w.minimumSizeHint().height() for w in rows)  # no row squeezed into its neighbour
    tops = [w.mapTo(dialog, w.rect().topLeft()).y() for w in rows[:4]]
    assert all(b - a >= rows[0].height() for a, b in zip(tops, tops[1:]))
    assert dialog.problem.toolTip().startswith("line counts differ")
