"""Install bleu-gui's desktop integration for the current user (freedesktop.org conventions, Linux): the icon in
the hicolor theme (the SVG and PNGs rendered from it), the desktop entry (so menus and docks list bleu-gui and a
file manager offers "Open with bleu-gui" for .xlf/.xliff/.tmx/.sgm/.po/.xlsx/.ods) and the MIME types that are not
in every shared-mime-info release. ``--uninstall`` removes what it installed. Needs ``bleu-gui`` on PATH (a wheel
install, or the bundle's folder; ``--exec PATH`` names another command).

    python scripts/install_desktop.py [--exec /path/to/bleu-gui] [--prefix ~/.local/share] [--uninstall]

``--render-only DIR`` writes the PNG sizes into DIR (how resources/icons/ was made).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "bleu_gui" / "icons" / "bleu-gui.svg"
DESKTOP = ROOT / "resources" / "desktop" / "bleu-gui.desktop"
MIME = ROOT / "resources" / "desktop" / "bleu-gui-mime.xml"
SIZES = (16, 24, 32, 48, 64, 128, 256)


def render(folder: Path) -> list[Path]:
    """The icon as PNGs of every size, drawn by Qt's SVG renderer (offscreen: no display needed)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([])
    renderer = QSvgRenderer(str(SVG))
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        renderer.render(painter)
        painter.end()
        path = folder / f"bleu-gui-{size}.png"
        if not image.save(str(path)):
            raise SystemExit(f"install_desktop: could not write {path}")
        out.append(path)
    return out


def installed_paths(prefix: Path) -> list[Path]:
    icons = prefix / "icons" / "hicolor"
    return ([icons / f"{s}x{s}" / "apps" / "bleu-gui.png" for s in SIZES] + [icons / "scalable" / "apps" / "bleu-gui.svg",
            prefix / "applications" / "bleu-gui.desktop", prefix / "mime" / "packages" / "bleu-gui.xml"])


def refresh(prefix: Path) -> None:
    """Tell the desktop about the new files (each tool is optional: a minimal system lacks them)."""
    for command in (["update-mime-database", str(prefix / "mime")],
                    ["update-desktop-database", str(prefix / "applications")],
                    ["gtk-update-icon-cache", "-f", "-t", str(prefix / "icons" / "hicolor")]):
        if shutil.which(command[0]):
            subprocess.run(command, check=False, capture_output=True)


def install(prefix: Path, command: str) -> None:
    pngs = render(prefix / ".bleu-gui-icons")
    for png, size in zip(pngs, SIZES):
        target = prefix / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "bleu-gui.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(png), target)
    (prefix / ".bleu-gui-icons").rmdir()
    scalable = prefix / "icons" / "hicolor" / "scalable" / "apps" / "bleu-gui.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SVG, scalable)
    entry = prefix / "applications" / "bleu-gui.desktop"
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text(DESKTOP.read_text(encoding="utf-8").replace("Exec=bleu-gui %F", f"Exec={command} %F"),
                     encoding="utf-8")
    mime = prefix / "mime" / "packages" / "bleu-gui.xml"
    mime.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(MIME, mime)
    refresh(prefix)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--prefix", type=Path, default=Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local/share")))
    p.add_argument("--exec", dest="command", default=None, help="the bleu-gui command (default: the one on PATH)")
    p.add_argument("--uninstall", action="store_true")
    p.add_argument("--render-only", type=Path, metavar="DIR")
    args = p.parse_args()
    if args.render_only:
        for path in render(args.render_only):
            print(path)
        return 0
    if args.uninstall:
        for path in installed_paths(args.prefix):
            path.unlink(missing_ok=True)
        refresh(args.prefix)
        print(f"removed bleu-gui's desktop entry, icons and MIME types from {args.prefix}")
        return 0
    command = args.command or shutil.which("bleu-gui")
    if command is None:
        print("install_desktop: no bleu-gui on PATH: install it first (see the README), or give --exec PATH",
              file=sys.stderr)
        return 2
    install(args.prefix, str(Path(command).absolute()))
    print(f"installed bleu-gui's desktop entry, icons and MIME types in {args.prefix} (runs {command})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
