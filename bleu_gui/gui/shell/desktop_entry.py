"""``bleu-gui --install-desktop``: bleu-gui's desktop integration for the current user (freedesktop.org conventions,
Linux), installed by the program itself — from a wheel or from the bundle, which has no Python of its own to run a
script with: the icon in the hicolor theme (the SVG and the PNGs that ship in the package), the desktop entry (menus
and docks list bleu-gui; a file manager offers "Open with bleu-gui" for .xlf/.xliff/.tmx/.sgm/.po/.xlsx/.ods) and the
MIME types not in every shared-mime-info release. ``--uninstall-desktop`` removes what it installed. Nothing here
loads Qt: it runs where no display is.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

SIZES = (16, 24, 32, 48, 64, 128, 256)  # the PNGs in bleu_gui/icons (scripts/render_icons.py draws them)


def default_prefix() -> Path:
    """Where a user's desktop files go: ``$XDG_DATA_HOME``, else ``~/.local/share``."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def this_command() -> str:
    """The command that runs this bleu-gui: the bundle's executable, else the ``bleu-gui`` script beside this
    Python (a virtual environment's), else the one on PATH."""
    if getattr(sys, "frozen", False):
        return str(Path(sys.executable).resolve())
    beside = Path(sys.executable).parent / "bleu-gui"
    found = str(beside) if beside.is_file() else shutil.which("bleu-gui")
    return str(Path(found).resolve()) if found else "bleu-gui"


def installed_paths(prefix: Path) -> list[Path]:
    icons = prefix / "icons" / "hicolor"
    return ([icons / f"{s}x{s}" / "apps" / "bleu-gui.png" for s in SIZES] + [icons / "scalable" / "apps" / "bleu-gui.svg",
            prefix / "applications" / "bleu-gui.desktop", prefix / "mime" / "packages" / "bleu-gui.xml"])


def _refresh(prefix: Path) -> None:
    """Tell the desktop about the files (each tool is optional: a minimal system lacks them)."""
    for command in (["update-mime-database", str(prefix / "mime")],
                    ["update-desktop-database", str(prefix / "applications")],
                    ["gtk-update-icon-cache", "-f", "-t", str(prefix / "icons" / "hicolor")]):
        if shutil.which(command[0]):
            subprocess.run(command, check=False, capture_output=True)


def install(prefix: Path, command: str) -> list[Path]:
    """Write the icons, the desktop entry (running ``command``) and the MIME types under ``prefix``."""
    package = files("bleu_gui")
    written = []
    for path, source in zip(installed_paths(prefix), [*(package / "icons" / f"bleu-gui-{s}.png" for s in SIZES),
                                                      package / "icons" / "bleu-gui.svg"]):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(source.read_bytes())
        written.append(path)
    entry = prefix / "applications" / "bleu-gui.desktop"
    entry.parent.mkdir(parents=True, exist_ok=True)
    quoted = f'"{command}"' if " " in command else command
    text = (package / "desktop" / "bleu-gui.desktop").read_text(encoding="utf-8")
    entry.write_text(text.replace("Exec=bleu-gui %F", f"Exec={quoted} %F"), encoding="utf-8")
    mime = prefix / "mime" / "packages" / "bleu-gui.xml"
    mime.parent.mkdir(parents=True, exist_ok=True)
    mime.write_bytes((package / "desktop" / "bleu-gui-mime.xml").read_bytes())
    _refresh(prefix)
    return [*written, entry, mime]


def uninstall(prefix: Path) -> None:
    """Remove what :func:`install` wrote."""
    for path in installed_paths(prefix):
        path.unlink(missing_ok=True)
    _refresh(prefix)
