"""``bleu-gui``: open the inspection window, optionally on files or the bundled demo data."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo"


def demo_paths(language: str = "en") -> tuple[Path, list[Path]]:
    """The demo candidate (system A) and its reference files."""
    folder = DEMO / language
    return folder / "system-a.txt", sorted(folder.glob("ref*.txt"))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bleu-gui", description="See why a machine translation gets its BLEU score.")
    p.add_argument("candidates", nargs="*", metavar="SYSTEM",
                   help="system output file(s): the first is the baseline, the others are compared with it")
    p.add_argument("-r", "--references", nargs="+", default=[], metavar="REF", help="reference files or folders")
    p.add_argument("--demo", nargs="?", const="en", choices=("en", "ko"),
                   help="open the bundled demo data: en (default) or ko")
    p.add_argument("-e", "--encoding", default="auto", help="input encoding (default: auto-detect)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.candidates and not args.references:
        build_parser().error("give the references with -r REF [REF ...]")
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("bleu-gui")
    app.setOrganizationName("bleu-gui")
    window = MainWindow(encoding=args.encoding)
    window.show()
    if args.demo:
        window.open_demo(args.demo)
    elif args.candidates:
        window.open_files(args.candidates[0], args.references, args.candidates[1:])
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
