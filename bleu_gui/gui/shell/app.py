"""``bleu-gui``: open the window, optionally on files or the bundled demo data."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from ...cli.arguments import (
    OneLineParser,
    VersionAction,
    add_input_arguments,
    add_scoring_arguments,
    input_request,
    metric_configs,
    metric_flags_given,
)
from ...core import BleuConfig, InputError, MetricConfig
from ...core.metrics.catalog import KEYS
from ...core.where import check_where
from ...demo import LANGUAGES, demo_paths
from .screenshot_order import TABS, ScreenshotOrder, window_size
from .startup import startup_problem


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="bleu-gui", description="See why a machine translation gets its BLEU score.")
    p.add_argument("-V", "--version", action=VersionAction)
    p.add_argument("systems", nargs="*", metavar="SYSTEM",
                   help="system output file(s): the first is the baseline, the others are compared with it")
    p.add_argument("-r", "--references", nargs="+", default=[], metavar="REF", help="reference files or folders")
    p.add_argument("--demo", nargs="?", const="en", choices=LANGUAGES,
                   help="open the bundled demo data: en (default) or ko")
    p.add_argument("--labels", nargs="+", metavar="NAME", help="display names of the systems, one per SYSTEM")
    add_input_arguments(p)
    add_scoring_arguments(p, default_encoding="auto")
    shot = p.add_argument_group("screenshot (render the window after the first complete run, then exit)")
    shot.add_argument("--screenshot", metavar="OUT.png",
                      help="write OUT.png and OUT.json (the inputs, scores, signatures, tokenizer and versions behind "
                           "it) and exit 0; bad input: one line on stderr, exit 2. Needs no display")
    shot.add_argument("--size", type=window_size, metavar="WxH", help="window size (default 1400x860)")
    shot.add_argument("--tab", choices=TABS, help="the tab shown (default inspect)")
    shot.add_argument("--sentence", type=int, metavar="N", help="the sentence selected (1-based)")
    return p


def screenshot_order(args: argparse.Namespace) -> ScreenshotOrder | None:
    """The screenshot asked for (None without --screenshot); its options without it are refused."""
    if args.screenshot is None:
        given = [flag for flag, value in (("--size", args.size), ("--tab", args.tab), ("--sentence", args.sentence))
                 if value is not None]
        if given:
            raise InputError(f"{', '.join(given)}: with --screenshot OUT.png only")
        return None
    if not (args.demo or args.references):
        raise InputError("--screenshot needs something to show: files, or --demo")
    return ScreenshotOrder(Path(args.screenshot), args.size or (1400, 860), args.tab or "inspect", args.sentence)


def initial_config(args: argparse.Namespace, saved: BleuConfig) -> tuple[MetricConfig, ...] | None:
    """The metrics and settings flags ask for, BLEU's on top of the saved ones (None when no flag was given).
    The window always computes BLEU (its evidence, what-if edits and n-gram wins are BLEU's): first, when -m
    leaves it out."""
    if not metric_flags_given(args):
        return None
    if args.metrics and "bleu" not in args.metrics:
        args.metrics = ["bleu", *args.metrics]
    return metric_configs(args, saved, columns_later=True)


def imported_wanted(args: argparse.Namespace) -> tuple[str, ...] | None:
    """The columns of the score files ``-m`` names (checked once they are read), or None: every column."""
    if not args.metrics:
        return None
    return tuple(name for name in args.metrics if name not in KEYS)


def holds_a_run(path: str) -> bool:
    """A file that holds systems and references together (WMT XML, a TSV/JSONL)."""
    from ...core.inputs.format_table import sniff_file

    return sniff_file(Path(path)) in ("wmt-xml", "tsv", "jsonl")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.systems and not args.references:
        if len(args.systems) == 1 and holds_a_run(args.systems[0]):
            args.systems, args.references = [], args.systems  # WMT XML, a TSV/JSONL with systems: a whole run
        else:
            parser.error("give the references with -r REF [REF ...]")
    try:
        order = screenshot_order(args)
    except InputError as exc:
        parser.error(str(exc))
    if order is not None and "QT_QPA_PLATFORM" not in os.environ:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a picture needs no screen, and no window pops up
    problem = startup_problem()
    if problem is not None:
        print(f"bleu-gui: {problem}", file=sys.stderr)
        return 2
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow
    from .run_actions import OpenChoice
    from .screenshot import Screenshot, quiet_offscreen_notes
    from .settings import Settings

    app = QApplication.instance() or QApplication(sys.argv[:1])
    if order is not None:
        quiet_offscreen_notes()  # before the window exists: building it already draws these notes
    app.setApplicationName("bleu-gui")
    app.setOrganizationName("bleu-gui")
    # A screenshot starts from a fresh settings file: nothing from an earlier session changes its numbers.
    settings = Settings() if order is None else Settings(QSettings(str(Path(tempfile.mkdtemp()) / "shot.ini"),
                                                                   QSettings.Format.IniFormat))
    try:
        config = initial_config(args, next(m for m in settings.metrics() if isinstance(m, BleuConfig)))
        request = input_request(args, args.systems, args.references)
        check_where(args.where)
    except InputError as exc:
        parser.error(str(exc))
    window = MainWindow(settings, encoding=args.encoding, config=config)
    if order is not None:
        Screenshot(window, order, app.exit)
        window.resize(*order.size)
    window.show()
    if args.demo:
        systems, references = demo_paths(args.demo)
        args.systems, args.references = [str(p) for p in systems], [str(p) for p in references]
        request = input_request(args, args.systems, args.references)
    if args.references:
        window.run_actions.open_inputs(OpenChoice(request, tuple(args.labels) if args.labels else None,
                                                  tuple(args.where), imported_wanted(args)), carry=True)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
