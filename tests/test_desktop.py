"""A translator's install: the desktop entry and MIME types are valid and installed for the user, the icon ships in
the package, and a system file opened from a file manager asks for its references in File ▸ Open, filled in."""

from __future__ import annotations

import configparser
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib.resources import files
from pathlib import Path

from bleu_gui.cli.arguments import build_window_parser, window_options
from bleu_gui.demo import demo_paths

ROOT = Path(__file__).resolve().parents[1]


def test_the_desktop_entry_offers_every_format_we_read():
    entry = configparser.ConfigParser(interpolation=None)
    entry.read(ROOT / "resources" / "desktop" / "bleu-gui.desktop", encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["exec"] == "bleu-gui %F" and section["icon"] == "bleu-gui" and section["type"] == "Application"
    types = set(section["mimetype"].rstrip(";").split(";"))
    declared = {m.get("type") for m in ET.parse(ROOT / "resources" / "desktop" / "bleu-gui-mime.xml").getroot()}
    assert declared <= types
    assert {"text/x-gettext-translation", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "application/vnd.oasis.opendocument.spreadsheet"} <= types


def test_the_icon_ships_in_the_package():
    icon = files("bleu_gui") / "icons" / "bleu-gui.svg"
    assert ET.fromstring(icon.read_text(encoding="utf-8")).tag.endswith("svg")


def test_installing_for_the_user_writes_the_entry_icons_and_types(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "install_desktop.py"), "--prefix", str(tmp_path),
                           "--exec", "/opt/bleu-gui/bleu-gui"], capture_output=True, text=True,
                          env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    entry = (tmp_path / "applications" / "bleu-gui.desktop").read_text(encoding="utf-8")
    assert "Exec=/opt/bleu-gui/bleu-gui %F" in entry
    for size in (16, 48, 256):
        png = tmp_path / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "bleu-gui.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "mime" / "packages" / "bleu-gui.xml").is_file()
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "install_desktop.py"), "--prefix", str(tmp_path),
                           "--uninstall"], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0 and not (tmp_path / "applications" / "bleu-gui.desktop").exists()


def test_a_system_file_alone_asks_for_its_references(qtbot, window):
    from bleu_gui.gui.state import OpenChoice

    system = str(demo_paths()[0][0])
    options = window_options(build_window_parser().parse_args([system]))
    assert options.request is None and options.references_asked is not None
    dialog = window.file_open.ask(OpenChoice(options.references_asked))
    qtbot.addWidget(dialog)
    assert dialog.systems.text() == system and dialog.references.text() == ""
