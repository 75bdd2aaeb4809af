"""``bleu-gui``: open the window, optionally on files or the bundled demo data."""

from __future__ import annotations

import argparse
import os
import sys

from ...cli.arguments import add_scoring_arguments, metric_configs, metric_flags_given
from ...core import BleuConfig, InputError, MetricConfig
from ...demo import LANGUAGES
from .startup import startup_problem


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bleu-gui", description="See why a machine translation gets its BLEU score.")
    p.add_argument("systems", nargs="*", metavar="SYSTEM",
                   help="system output file(s): the first is the baseline, the others are compared with it")
    p.add_argument("-r", "--references", nargs="+", default=[], metavar="REF", help="reference files or folders")
    p.add_argument("--demo", nargs="?", const="en", choices=LANGUAGES,
                   help="open the bundled demo data: en (default) or ko")
    p.add_argument("--labels", nargs="+", metavar="NAME", help="display names of the systems, one per SYSTEM")
    p.add_argument("--src", metavar="FILE", help="source file (text, or the source side of XLIFF/TMX/SGML/TSV)")
    add_scoring_arguments(p, default_encoding="auto")
    return p


def initial_config(args: argparse.Namespace, saved: BleuConfig) -> tuple[MetricConfig, ...] | None:
    """The metrics and settings flags ask for, BLEU's on top of the saved ones (None when no flag was given).
    The window always computes BLEU (its evidence, what-if edits and n-gram wins are BLEU's): first, when -m
    leaves it out."""
    if not metric_flags_given(args):
        return None
    if args.metrics and "bleu" not in args.metrics:
        args.metrics = ["bleu", *args.metrics]
    return metric_configs(args, saved)


def holds_a_run(path: str) -> bool:
    """A file that holds systems and references together (WMT XML, a TSV/JSONL)."""
    from pathlib import Path

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
    problem = startup_problem()
    if problem is not None:
        print(f"bleu-gui: {problem}", file=sys.stderr)
        return 2
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow
    from .settings import Settings

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("bleu-gui")
    app.setOrganizationName("bleu-gui")
    settings = Settings()
    try:
        config = initial_config(args, settings.config())
    except InputError as exc:
        parser.error(str(exc))
    window = MainWindow(settings, encoding=args.encoding, config=config)
    window.show()
    if args.demo:
        window.run_actions.open_demo(args.demo)
    elif args.references:
        window.run_actions.open_files(args.systems, args.references, args.labels, source=args.src)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
