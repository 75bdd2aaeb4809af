"""Help ▸ Getting started, Keyboard shortcuts, About; the small things a newcomer meets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QAction, QKeySequence

from bleu_gui.cli.bleu_score import run as bleu_score
from bleu_gui.core.metrics.sacre_tokenizers import install_hint
from bleu_gui.gui.shell.help_pages import SHORTCUTS, docs_folder

from .conftest import script

ROOT = Path(__file__).resolve().parents[1]

README = Path(__file__).resolve().parents[1] / "README.md"


def test_getting_started_opens_the_demo_from_its_link(qtbot, window):
    page = window.tools.open_page("getting-started")
    text = page.browser.toPlainText()
    assert "Open the demo" in text and "WMT XML" in text and "Five things to try" in text
    with qtbot.waitSignal(window.run_changed):
        page.browser.anchorClicked.emit(QUrl("open-demo"))
    assert window.controller.run is not None and window.controller.run.n_sentences == 12


def test_help_and_readme_give_the_same_install_hints(window, monkeypatch):
    from bleu_gui.gui.shell import help_pages

    monkeypatch.setattr(help_pages, "extra_installed", lambda _name: False)
    text = window.tools.open_page("getting-started").browser.toPlainText()
    readme = README.read_text(encoding="utf-8")
    for tokenizer, extra in (("ja-mecab", "ja"), ("ko-mecab", "ko")):
        assert install_hint(tokenizer) in text
        assert f"pip install 'bleu-gui[{extra}]'" in readme and f"pip install -e '.[{extra}]'" in readme
    monkeypatch.setattr(help_pages, "extra_installed", lambda _name: True)
    text = window.tools.open_page("getting-started").browser.toPlainText()
    assert "Japanese (ja-mecab) is installed" in text and "pip" not in text.split("Japanese and Korean")[1]


def test_every_shortcut_of_the_window_is_listed(window):
    listed = {keys for keys, _ in SHORTCUTS}
    bound = {a.shortcut().toString(QKeySequence.SequenceFormat.PortableText)
             for a in window.findChildren(QAction) if not a.shortcut().isEmpty()}
    assert bound and bound <= listed, bound - listed
    shortcuts_text = window.tools.open_page("shortcuts").browser.toPlainText()
    assert all(keys in shortcuts_text for keys in listed)


def test_about_names_the_versions_and_the_docs(window):
    import sacrebleu
    from PySide6.QtCore import qVersion

    text = window.tools.open_page("about").browser.toPlainText()
    cells = [line.strip() for line in text.splitlines()]  # the versions table: a name, then its version
    assert cells[cells.index("sacreBLEU") + 1] == sacrebleu.__version__
    assert qVersion() in text and "MIT" in text
    folder = docs_folder()
    assert folder is not None and (folder / "window.md").is_file()  # a source checkout has docs/


def test_a_system_with_every_segment_empty_is_scored_as_sacrebleu_scores_it(capsys, tmp_path, qtbot, window):
    import sacrebleu

    ref, hyp = tmp_path / "ref.txt", tmp_path / "untranslated.txt"
    references = ["a b c", "d e"]
    ref.write_text("\n".join(references) + "\n", encoding="utf-8")
    hyp.write_text("\n \n", encoding="utf-8")
    assert bleu_score([str(ref), "-i", str(hyp), "-m", "bleu", "chrf", "ter", "-f", "json"]) == 0
    out, err = capsys.readouterr()
    got = {e["metric"].split("|")[0].split()[0]: e["score"] for e in json.loads(out)}
    candidates = ["", " "]
    assert got["BLEU"] == sacrebleu.corpus_bleu(candidates, [references]).score == 0.0
    assert got["chrF2"] == sacrebleu.corpus_chrf(candidates, [references]).score
    assert got["TER"] == sacrebleu.corpus_ter(candidates, [references]).score == 100.0
    assert "every segment of the system output untranslated.txt is empty (a file never translated?)" in err
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files([hyp], [ref])
    run = window.controller.run
    assert run is not None and any("untranslated.txt is empty" in note for note in run.context.notes)
    (tmp_path / "blank_ref.txt").write_text("\n\n", encoding="utf-8")
    assert bleu_score([str(tmp_path / "blank_ref.txt"), "-i", str(ref)]) == 2
    assert "nothing to score: every segment of the reference blank_ref.txt is empty" in capsys.readouterr().err


@pytest.mark.parametrize("with_slice", [False, True])
def test_the_tokenizer_table_says_which_slice_it_scores(qtbot, window, with_slice):

    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_demo()
    if with_slice:
        with qtbot.waitSignal(window.run_changed):
            window.run_actions.apply_slice([0, 1, 2], "the first three")
    dialog = window.tools.open_tokenizer_table()
    with qtbot.waitSignal(dialog.ready):
        pass
    if with_slice:
        assert "slice the first three" in dialog.windowTitle()
        assert "the slice the first three (3 of 12 sentences)" in dialog.note.text()
    else:
        assert dialog.windowTitle().endswith("whole corpus") and "whole corpus (12 sentences)" in dialog.note.text()
    dialog.close()


# -- issue 57: Help works everywhere, the bundle keeps the README's promises ----------------------------------

def test_help_documentation_opens_each_page_in_a_window_of_the_app(qtbot, window):
    from PySide6.QtCore import QUrl

    from bleu_gui.gui.shell.help_pages import DOC_PAGES, DocPage

    docs = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help").actions()
    menu = next(a.menu() for a in docs if a.menu() is not None and "Documentation" in a.text())
    actions = menu.actions()
    assert [a.text() for a in actions] == [f"&{n} {title}" for n, (_, title) in enumerate(DOC_PAGES, 1)]
    assert all(a.isEnabled() for a in actions)
    actions[0].trigger()
    page = window.tools.help_dialog
    qtbot.addWidget(page)
    assert isinstance(page, DocPage) and page.isVisible()
    assert "The window" in page.browser.toPlainText()[:200]
    assert page.browser.verticalScrollBar().value() == 0 and page.browser.textCursor().position() == 0  # its top
    for name, _title in DOC_PAGES:  # the user's pages speak of the app, not of the project's tests and data
        page.show_page(name)
        text = page.browser.toPlainText()
        assert not any(word in text for word in ("../shared/data", "tests/", "pytest")), name
    page.on_link(QUrl("formats.md#input-rules"))  # a page's link to another: opened here
    assert page.page == "formats.md" and "Input formats and rules" in page.browser.toPlainText()[:200]


def test_the_bundle_ships_what_the_readme_says_and_never_advises_pip_inside(monkeypatch):
    import sys

    bundle = script("bundle")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Without Python")[1].split("##")[0]
    assert "Japanese and Korean" in section and "documentation" in section and "--install-desktop" in section
    monkeypatch.setattr(sys, "argv", ["bundle.py"])
    parser_defaults = {a.dest: a.default for a in bundle.build_parser()._actions}
    assert parser_defaults["tokenizers"] == ["ja", "ko"]  # what the README promises, by default
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    for name in ("ja-mecab", "ko-mecab"):
        assert "pip" not in install_hint(name) and "bundle" in install_hint(name)


def test_a_page_without_its_pictures_shows_their_captions(qtbot, tmp_path):
    """The bundle and a wheel carry the pages but not the screenshots they show: a caption, not a broken image."""
    import shutil

    from bleu_gui.gui.shell.help_pages import DocPage

    shutil.copy(ROOT / "docs" / "window.md", tmp_path)
    page = DocPage(None, tmp_path, "window.md")
    qtbot.addWidget(page)
    text = page.browser.toPlainText()
    assert "A WMT21 ru-en document as a slice" in text
    checkout = DocPage(None, ROOT / "docs", "window.md")  # in a checkout the pictures are there: shown
    qtbot.addWidget(checkout)
    assert "A WMT21 ru-en document as a slice" not in checkout.browser.toPlainText()


def test_the_bundles_spec_runs_as_pyinstaller_runs_it(tmp_path, monkeypatch):
    """The generated spec is Python that PyInstaller executes with its own names (Analysis, EXE, PYZ, COLLECT) and
    nothing of the script's: every path in it is a value, COMET's worker among the data shipped (since COMET was
    added the spec named the script's ROOT and stopped with a NameError)."""
    import sys
    import types

    bundle = script("bundle")
    collected: dict[str, list[object]] = {}
    hooks = types.ModuleType("PyInstaller.utils.hooks")
    hooks.collect_data_files = lambda name, include_py_files=False: []  # type: ignore[attr-defined]
    hooks.copy_metadata = lambda name: []  # type: ignore[attr-defined]
    for name in ("PyInstaller", "PyInstaller.utils"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "PyInstaller.utils.hooks", hooks)

    class Analysis:
        def __init__(self, scripts, pathex, datas, hiddenimports, excludes):
            collected.setdefault("datas", []).extend(datas)
            self.binaries, self.datas, self.pure, self.scripts = [], [], [], scripts

    spec = bundle.spec_text(tmp_path, ("ja",), False)
    exec(compile(spec, "bleu-gui.spec", "exec"), {"Analysis": Analysis, "EXE": lambda *a, **k: None,  # noqa: S102
                                                  "PYZ": lambda *a, **k: None, "COLLECT": lambda *a, **k: None})
    shipped = {Path(str(source)).name: target for source, target in collected["datas"]}  # type: ignore[misc]
    assert shipped["comet_worker.py"] == "bleu_gui"
    assert (ROOT / "bleu_gui" / "comet_worker.py").is_file()


def _mnemonic(text: str) -> str | None:
    """The letter after a single ``&`` (``&&`` is a literal ampersand)."""
    plain = text.replace("&&", "")
    at = plain.find("&")
    return plain[at + 1].casefold() if 0 <= at < len(plain) - 1 else None


def test_every_menu_entry_has_a_letter_of_its_own(window):
    # Keyboard only: Alt and a menu's letter open it, then each entry's own letter chooses it — none without one,
    # none sharing one (Qt would only cycle between two entries of one letter, choosing neither).
    def walk(menu, where):
        letters: dict[str, str] = {}
        for action in menu.actions():
            if action.isSeparator():
                continue
            letter = _mnemonic(action.text())
            assert letter is not None, f"{where} ▸ {action.text()} has no letter"
            assert letter not in letters, f"{where}: {action.text()!r} and {letters[letter]!r} share “{letter}”"
            letters[letter] = action.text()
            if action.menu() is not None:
                walk(action.menu(), f"{where} ▸ {action.text()}")

    walk(window.menuBar(), "the menu bar")


def test_the_comet_batch_is_reached_by_keys_alone(qtbot, window, monkeypatch):
    # Alt+F, then C: File ▸ Export COMET batch… asks for its folder (the dialog answered "cancel" here).
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from bleu_gui.gui.shell import batch_actions

    asked = []
    monkeypatch.setattr(batch_actions, "ask_folder", lambda *args: asked.append(args[-1]) or "")
    window.run_actions.open_demo()
    qtbot.waitUntil(lambda: window.controller.run is not None and not window.jobs.busy)
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: window.file_menu.isVisible())
    qtbot.keyClick(QApplication.activePopupWidget() or window.file_menu, Qt.Key.Key_C)
    qtbot.waitUntil(lambda: bool(asked))
    assert asked == ["A new or empty folder for COMET's shards"]


def test_open_recent_numbers_its_entries_and_shows_an_ampersand_in_a_file_name(qtbot):
    from bleu_gui.core.output.sessions import Session
    from bleu_gui.gui.shell.recent_menu import RecentMenu

    class Remembered:
        def recent(self):
            return [Session(["/data/R&D/mt&x.txt"], ["/data/ref.txt"]), Session(["/data/b.txt"], [])]

    menu = RecentMenu(Remembered())
    qtbot.addWidget(menu)
    texts = [a.text() for a in menu.actions()]
    assert texts == ["&1 mt&&x.txt  ⟵  ref.txt", "&2 b.txt  ⟵  no reference"]  # the file's “&” shown, not a letter
    assert [_mnemonic(t) for t in texts] == ["1", "2"]
