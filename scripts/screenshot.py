"""Render the main window on the demo data, with a sentence that has matched and clipped n-grams, to a PNG.

    python scripts/screenshot.py OUT.png [--width 1400 --height 860]

Renders on Qt's offscreen platform with a screen that holds the window, whatever QT_QPA_PLATFORM or DISPLAY say:
the picture has the asked size (no display needed).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")


def wmt17_systems(n: int, tmp: str) -> tuple[list[str], list[str]]:
    """System files and the reference of WMT17 en-de: sys1..sysN, and past 12 mixes of two systems."""
    folder = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "sacrebleu-wmt17-en-de"
    systems = [str(folder / f"sys{i}.txt") for i in range(1, min(n, 12) + 1)]
    for k in range(n - 12):
        a, b = (folder / f"sys{k + 1}.txt").read_text("utf-8").splitlines(), \
            (folder / f"sys{k + 2}.txt").read_text("utf-8").splitlines()
        mixed = Path(tmp) / f"experiment-{k + 1:02d}-transformer-big-checkpoint-averaged-sys{k + 1}-sys{k + 2}.txt"
        mixed.write_text("\n".join(x if i % 3 else y for i, (x, y) in enumerate(zip(a, b))) + "\n", "utf-8")
        systems.append(str(mixed))
    return systems, [str(folder / "ref1.txt")]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--width", type=int, default=1400)
    p.add_argument("--height", type=int, default=860)
    p.add_argument("--sentence", type=int, default=4, help="1-based sentence to select (default 4: clipped repeats)")
    p.add_argument("--system", type=int, default=2, help="1-based demo system to inspect (default 2: system-b)")
    p.add_argument("--tab", choices=("inspect", "compare"), default="inspect")
    p.add_argument("--demo", choices=("en", "ko"), default="en")
    p.add_argument("--systems", type=int, metavar="N",
                   help="WMT17 en-de from ../shared/data with N systems (2-20; past 12, mixes of two systems with "
                        "long names), on the Compare tab")
    p.add_argument("--trust", action="store_true",
                   help="the demo's system A with a line dropped, lowercased: badges, notes and the misalignment bar")
    p.add_argument("--open", nargs="+", metavar="FILE",
                   help="reference files, or one WMT XML / TSV file with its systems (instead of the demo)")
    p.add_argument("-i", "--hyp", nargs="+", default=[], metavar="FILE", help="system files for --open")
    p.add_argument("--src", help="source file for --open")
    p.add_argument("--tokenize", help="tokenizer for --open (e.g. zh)")
    p.add_argument("--where", metavar="KEY=VALUE", help="show the slice of a document or metadata value")
    p.add_argument("--documents", action="store_true", help="show the Documents list")
    p.add_argument("--order", help="n-gram order shown in the panes: 1..N or 'all'")
    p.add_argument("--edit", metavar="TEXT", help="edit the selected candidate to TEXT (what-if), typed in place")
    p.add_argument("--metrics", nargs="+", default=[], metavar="KEY",
                   help="metric families scored beside BLEU (chrf ter edit), with their default settings")
    p.add_argument("--show", metavar="KEY", help="the metric the window shows (a family's key, e.g. edit)")
    p.add_argument("--dialog", choices=("table", "help"),
                   help="grab Tools ▸ Tokenizer × case table or Help ▸ How BLEU is computed instead of the window")
    args = p.parse_args()
    from bleu_gui.gui.shell.startup import picture_platform

    scratch = tempfile.TemporaryDirectory(prefix="screenshot-")  # its screen, settings and files; removed at exit
    tmp = scratch.name
    os.environ["QT_QPA_PLATFORM"] = picture_platform(args.width, args.height, Path(tmp))  # the asked size anywhere

    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from bleu_gui.gui.shell.main_window import MainWindow
    from bleu_gui.gui.shell.settings import Settings

    app = QApplication.instance() or QApplication(sys.argv[:1])
    settings = Settings(QSettings(os.path.join(tmp, "screenshot.ini"), QSettings.Format.IniFormat))
    if args.trust:
        from bleu_gui.core import BleuConfig

        settings.set_metrics((BleuConfig(lowercase=True),))  # as if carried over from an earlier session
    window = MainWindow(settings)
    if args.metrics:
        from bleu_gui.core.metrics.registry import family, in_window

        window.controller.set_scoring(in_window(tuple(family(k).config() for k in args.metrics)), "the picture's")
    window.resize(args.width, args.height)
    window.show()
    loop = QEventLoop()
    window.run_changed.connect(loop.quit)
    window.error_shown.connect(lambda m: (print(m, file=sys.stderr), loop.quit()))
    if args.trust:
        from bleu_gui.demo import demo_paths

        systems, refs = demo_paths(args.demo)
        lines = systems[0].read_text(encoding="utf-8").splitlines()
        dropped = Path(tmp) / "system-a-line-5-dropped.txt"
        dropped.write_text("\n".join(lines[:4] + lines[5:] + ["(the last line, added to keep the count)"]) + "\n",
                           encoding="utf-8")
        window.run_actions.open_files([dropped], refs)
    elif args.open:
        if args.tokenize:
            from dataclasses import replace

            metrics = window.controller.scoring.metrics
            window.controller.choose_scoring((replace(metrics[0], tokenizer=args.tokenize), *metrics[1:]))
        window.run_actions.open_files(args.hyp, args.open, source=args.src)
    elif args.systems:
        window.run_actions.open_files(*wmt17_systems(args.systems, tmp))
        args.tab, args.system = "compare", 2
    else:
        window.run_actions.open_demo(args.demo)
    QTimer.singleShot(120_000, loop.quit)
    loop.exec()
    if window.controller.run is None:
        print("the demo data did not load", file=sys.stderr)
        return 1
    if args.where:
        from bleu_gui.core.where import where_rows

        loop2 = QEventLoop()
        window.run_changed.connect(loop2.quit)
        window.run_actions.apply_slice(*where_rows(window.controller.run, [args.where]))
        QTimer.singleShot(60_000, loop2.quit)
        loop2.exec()
    if args.show:
        window.controller.set_metric(window.controller.run.metric_index(args.show))
    if args.documents:
        window.inspect.sentences.list_tabs.setCurrentIndex(1)
    if not args.trust:
        window.inspect.sentences.system_combo.setCurrentIndex(args.system - 1)
    window.inspect.sentences.select_sentence(args.sentence - 1)
    if args.order:
        combo = window.inspect.detail.order_combo
        combo.setCurrentIndex(combo.count() - 1 if args.order == "all" else int(args.order) - 1)
    if args.tab == "compare":
        window.tabs.setCurrentIndex(1)
        window.controller.set_sentence(args.sentence - 1)
    if args.edit is not None:
        from PySide6.QtGui import QTextCursor

        window.inspect.detail.editor.edit_button.setChecked(True)
        pane = window.inspect.detail.panes.candidate
        cursor = pane.textCursor()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(args.edit)  # as typing does: through the pane's document
        pause = QEventLoop()
        QTimer.singleShot(400, pause.quit)  # the charts follow once typing pauses
        pause.exec()
    for _ in range(5):
        app.processEvents()
    if args.dialog:
        dialog = window.tools.open_tokenizer_table() if args.dialog == "table" else window.tools.open_help()
        if args.dialog == "table":
            loop3 = QEventLoop()
            dialog.ready.connect(loop3.quit)
            dialog.failed.connect(loop3.quit)
            QTimer.singleShot(300_000, loop3.quit)
            loop3.exec()
        for _ in range(5):
            app.processEvents()
        dialog.grab().save(args.out)
        print(f"saved {args.out} ({dialog.width()}x{dialog.height()})")
        dialog.close()
        window.close()
        return 0
    if (window.width(), window.height()) != (args.width, args.height):
        sys.exit(f"screenshot.py: the window is {window.width()}×{window.height()}, not the {args.width}×{args.height} asked")
    window.grab().save(args.out)
    print(f"saved {args.out} ({window.width()}x{window.height()})")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
