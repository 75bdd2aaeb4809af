"""Every input the command line opens, the window opens: File ▸ Open's fields, bleu-gui's flags, sessions; and
the window's messages name the field that fixes a problem, never a flag."""

from __future__ import annotations

import pytest

from bleu_gui.core.inputs.format_table import ReadOptions
from bleu_gui.core.inputs.run_inputs import InputRequest
from bleu_gui.gui.shell.open_dialog import OpenDialog
from bleu_gui.gui.shell.run_actions import OpenChoice
from bleu_gui.gui.window_terms import LEFT_OVER, in_window_terms

from .conftest import data_set

TMX_3 = "tmx-lisa-compliance-kit/ImportTest1L.tmx"  # en-us, fr and en-gb
MQM = "tsv-mqm-wmt/mqm_ted_ende.head588lines.tsv"


def open_choice(qtbot, window, choice: OpenChoice):
    """Open and wait for the run shown, or for the error it gives (returned as text)."""
    seen: list[object] = []
    window.run_changed.connect(seen.append)
    window.error_shown.connect(seen.append)
    try:
        window.run_actions.open_inputs(choice)
        qtbot.waitUntil(lambda: bool(seen), timeout=60_000)
    finally:
        window.run_changed.disconnect(seen.append)
        window.error_shown.disconnect(seen.append)
    return seen[0]


def test_a_tmx_with_three_languages_asks_for_them_by_field_then_opens(qtbot, window):
    path = str(data_set("formats") / TMX_3)
    message = open_choice(qtbot, window, OpenChoice(InputRequest((path,), (path,), allow_identical=True)))
    assert isinstance(message, str)
    assert "Languages (File ▸ Open)" in message and not LEFT_OVER.search(message), message
    request = InputRequest((path,), (path,), options=ReadOptions(langs=("en-us", "fr")), allow_identical=True)
    run = open_choice(qtbot, window, OpenChoice(request))
    assert not isinstance(run, str), run
    assert run.n_sentences == 1 and run.references[0].field == "target (fr)"
    assert "languages: en-us as source, fr as target" in " ".join(run.context.notes)


def test_an_mqm_table_opens_with_its_ref_system_as_the_reference(qtbot, window):
    path = str(data_set("formats") / MQM)
    message = open_choice(qtbot, window, OpenChoice(InputRequest((), (path,))))
    assert isinstance(message, str)
    assert "References to use (File ▸ Open)" in message and "it has ref," in message
    assert not LEFT_OVER.search(message), message
    run = open_choice(qtbot, window, OpenChoice(InputRequest((), (path,), refs_wanted=("ref",),
                                                             systems_wanted=("Nemo", "UEdin"))))
    assert [s.name for s in run.systems] == ["Nemo", "UEdin"]
    assert run.references[0].field == "ref"


def test_labels_and_a_slice_open_with_the_files(qtbot, window):
    path = str(data_set("formats") / "wmt-xml-wmt22-liv-en" / "wmttest2022.liv-en.all.xml")
    run = open_choice(qtbot, window, OpenChoice(InputRequest((), (path,), systems_wanted=("TartuNLP", "NiuTrans")),
                                                labels=("tartu", "niu"), where=("doc=349",)))
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
        InputRequest(("a.txt", "b.txt"), ("table.tsv",), "cp949", None, "ids.txt",
                     ReadOptions("tsv", True, ("en", "ko"), {"candidate": "hyp", "reference": "gold"}), ("ref",),
                     ("x", "y"), True), ("A", "B"), ("doc=d1", "origlang=en"))
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


@pytest.mark.parametrize("message", [
    "x.tmx: choose the source and target languages with --langs SRC TGT (the file has en-us, fr, en-gb)",
    "x.txt: given as a system and as a reference (--allow-identical-refs scores it anyway)",
    "a.txt: not valid utf-8 (choose the file's encoding with -e NAME, or -e auto to detect it)",
    "read it with -e utf-16-le or utf-16-be)",
    "name them with --column candidate=NAME)",
    "source: x.xml:source (inside the input; --src overrides)",
    "tokenizer zh for target language zh (declared in x.xml), as sacrebleu -l en-zh chooses it; -tok overrides",
    "2 read as a missing reference (--empty-refs missing)",
    "use -i FILE, pipe it to standard input",
    "name the references (--refs NAME ...)",
    "--keep-tags applies to XLIFF and TMX files",
])
def test_no_flag_is_left_in_a_window_message(message):
    said = in_window_terms(message)
    assert not LEFT_OVER.search(said), said
    assert "sacrebleu -l en-zh" in said or "sacrebleu" not in message


def test_bleu_gui_takes_every_input_flag_of_bleu_score():
    from bleu_gui.cli.arguments import build_parser as score_parser
    from bleu_gui.cli.arguments import input_request
    from bleu_gui.gui.shell.app import build_parser as gui_parser

    def input_flags(parser):
        return {s for a in parser._actions for s in a.option_strings
                if a.container.title and a.container.title.startswith("input formats")}

    assert input_flags(score_parser()) <= input_flags(gui_parser())
    args = gui_parser().parse_args(["t.tmx", "-r", "t.tmx", "--langs", "en-us", "fr", "--allow-identical-refs",
                                    "--column", "candidate=hyp", "--docs", "ids.txt", "-e", "latin-1"])
    request = input_request(args, args.systems, args.references)
    assert request == InputRequest(("t.tmx",), ("t.tmx",), "latin-1", None, "ids.txt",
                                   ReadOptions(None, False, ("en-us", "fr"), {"candidate": "hyp"}), None, None, True)


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
