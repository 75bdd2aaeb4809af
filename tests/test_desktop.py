"""A translator's install: the desktop entry and MIME types are valid and installed for the user, the icon ships in
the package, and a system file opened from a file manager asks for its references in File ▸ Open, filled in."""

from __future__ import annotations

import configparser
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib.resources import files
from pathlib import Path

from bleu_gui.cli.window_arguments import build_window_parser, window_options
from bleu_gui.demo import demo_paths

ROOT = Path(__file__).resolve().parents[1]


def test_the_desktop_entry_offers_every_format_we_read():
    entry = configparser.ConfigParser(interpolation=None)
    entry.read(ROOT / "bleu_gui" / "desktop" / "bleu-gui.desktop", encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["exec"] == "bleu-gui %F" and section["icon"] == "bleu-gui" and section["type"] == "Application"
    types = set(section["mimetype"].rstrip(";").split(";"))
    declared = {m.get("type") for m in ET.parse(ROOT / "bleu_gui" / "desktop" / "bleu-gui-mime.xml").getroot()}
    assert declared <= types
    assert {"text/x-gettext-translation", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "application/vnd.oasis.opendocument.spreadsheet"} <= types


def test_the_icon_ships_in_the_package():
    icon = files("bleu_gui") / "icons" / "bleu-gui.svg"
    assert ET.fromstring(icon.read_text(encoding="utf-8")).tag.endswith("svg")


def _bleu_gui(*argv, home):
    """bleu-gui as a translator runs it from a terminal: a clean PATH, no display, their own XDG_DATA_HOME."""
    code = ("import sys; from bleu_gui.gui.shell.app import main; code = main(sys.argv[1:]); "
            "print('qt:' + ','.join(sorted(m for m in sys.modules if m.startswith('PySide6')))); sys.exit(code)")
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_DATA_HOME": str(home / "share")})


def test_bleu_gui_installs_its_own_entry_icons_and_types_without_qt_or_a_display(tmp_path):
    """The bundle has no Python to run a script with: bleu-gui installs its desktop entry itself, with the PNG
    icons that ship in the package, and loads no Qt for it (it ran into a traceback under the system Python)."""
    done = _bleu_gui("--install-desktop", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "qt:\n" in done.stdout or done.stdout.rstrip().endswith("qt:")
    prefix = tmp_path / "share"
    entry = (prefix / "applications" / "bleu-gui.desktop").read_text(encoding="utf-8")
    exec_line = next(line for line in entry.splitlines() if line.startswith("Exec="))
    assert exec_line.endswith(" %F") and "bleu-gui" in exec_line
    for size in (16, 48, 256):
        png = prefix / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "bleu-gui.png"
        assert png.read_bytes() == (files("bleu_gui") / "icons" / f"bleu-gui-{size}.png").read_bytes()
    assert (prefix / "mime" / "packages" / "bleu-gui.xml").is_file()
    done = _bleu_gui("--uninstall-desktop", home=tmp_path)
    assert done.returncode == 0 and not (prefix / "applications" / "bleu-gui.desktop").exists()


def test_a_frozen_bleu_gui_writes_its_own_executable_into_the_entry(tmp_path, monkeypatch):
    from bleu_gui.gui.shell import desktop_entry

    executable = tmp_path / "bleu gui" / "bleu-gui"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(executable))
    desktop_entry.install(tmp_path / "share", desktop_entry.this_command())
    entry = (tmp_path / "share" / "applications" / "bleu-gui.desktop").read_text(encoding="utf-8")
    assert f'Exec="{executable.resolve()}" %F' in entry


def test_the_open_dialog_from_a_file_manager_is_placed_on_the_screen(qtbot, window):
    from bleu_gui.gui.state import OpenChoice

    screen = window.screen().availableGeometry()
    window.resize(900, 700)
    window.move(screen.right() - 300, screen.bottom() - 200)  # most of the window past the screen's corner
    system = str(demo_paths()[0][0])
    options = window_options(build_window_parser().parse_args([system]))
    dialog = window.file_open.ask(OpenChoice(options.references_asked))
    qtbot.addWidget(dialog)
    assert screen.contains(dialog.frameGeometry()), (screen, dialog.frameGeometry())


def test_a_system_file_alone_asks_for_its_references(qtbot, window):
    from bleu_gui.gui.state import OpenChoice

    system = str(demo_paths()[0][0])
    options = window_options(build_window_parser().parse_args([system]))
    assert options.request is None and options.references_asked is not None
    dialog = window.file_open.ask(OpenChoice(options.references_asked))
    qtbot.addWidget(dialog)
    assert dialog.systems.text() == system and dialog.references.text() == ""


def test_the_window_that_grows_past_the_screen_is_brought_back_onto_it(qtbot, window):
    """At 1366×768 without a window manager the window grew from 736 to 761 px at y 32: its status bar, with the
    progress and Cancel, fell below the screen."""
    screen = window.screen().availableGeometry()
    window.show()
    qtbot.waitExposed(window)
    window.move(screen.left(), screen.top() + 40)
    window.resize(min(900, screen.width()), screen.height() - 20)  # as a layout's grown minimum does
    qtbot.waitUntil(lambda: screen.contains(window.frameGeometry()))
    assert window.statusBar().mapTo(window, window.statusBar().rect().bottomLeft()).y() < window.height()
