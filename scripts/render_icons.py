"""Draw bleu-gui's icon as the PNG sizes the desktop entry installs (bleu_gui/icons/bleu-gui-N.png), from its SVG,
with Qt's SVG renderer (offscreen: no display needed). Run after changing the SVG; ``bleu-gui --install-desktop``
installs the PNGs as they ship.

    python scripts/render_icons.py [--out bleu_gui/icons]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bleu_gui.gui.shell.desktop_entry import SIZES

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "bleu_gui" / "icons" / "bleu-gui.svg"


def render(folder: Path) -> list[Path]:
    """The icon as PNGs of every size."""
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
            raise SystemExit(f"render_icons: could not write {path}")
        out.append(path)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=ROOT / "bleu_gui" / "icons")
    for path in render(p.parse_args().out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
