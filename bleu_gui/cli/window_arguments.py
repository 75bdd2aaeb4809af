"""``bleu-gui``'s flags: bleu-score's input and scoring flags (defined once, in :mod:`.arguments`), the files or
the demo, the desktop entry and a screenshot; and the one reading of its Namespace (:func:`window_options`)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..core import InputError
from ..core.inputs.format_table import holds_its_source, whole_run
from ..core.metrics.registry import ALWAYS_IN_WINDOW, KEYS
from ..demo import LANGUAGES, demo_paths
from .arguments import (
    OneLineParser,
    ScoringChoice,
    VersionAction,
    add_input_arguments,
    add_scoring_arguments,
    input_request,
    scoring_choice,
)
from .screenshot_order import TABS, ScreenshotOrder, window_size

if TYPE_CHECKING:
    from ..core.inputs.run_inputs import InputRequest


def build_window_parser() -> argparse.ArgumentParser:
    """``bleu-gui``'s flags: files (or the demo), bleu-score's input and scoring flags, and a screenshot."""
    p = OneLineParser(prog="bleu-gui", description="See why a machine translation gets its BLEU score.")
    p.add_argument("-V", "--version", action=VersionAction)
    p.add_argument("systems", nargs="*", metavar="SYSTEM",
                   help="system output file(s): the first is the baseline, the others are compared with it; with -i, "
                        "the reference files or folders, as bleu-score takes them")
    p.add_argument("-r", "--references", nargs="+", default=[], metavar="REF", help="reference files or folders")
    p.add_argument("-i", "--input", nargs="+", default=[], metavar="HYP", dest="hypotheses",
                   help="system output file(s), as bleu-score takes them: the files before are then the references "
                        "(bleu-gui REF -i HYP ...)")
    p.add_argument("--demo", nargs="?", const="en", choices=LANGUAGES,
                   help="open the bundled demo data: en (default) or ko")
    p.add_argument("--labels", nargs="+", metavar="NAME", help="display names of the systems, one per SYSTEM")
    add_input_arguments(p)
    add_scoring_arguments(p, default_encoding="auto")
    desktop = p.add_argument_group("desktop (Linux: the menu entry, icon and \"Open with\" of this bleu-gui)")
    desktop.add_argument("--install-desktop", action="store_true",
                         help="install the desktop entry, icon and file types for this user (running this bleu-gui: a "
                              "wheel's or the bundle's), then exit")
    desktop.add_argument("--uninstall-desktop", action="store_true", help="remove what --install-desktop installed")
    shot = p.add_argument_group("screenshot (render the window after the first complete run, then exit)")
    shot.add_argument("--screenshot", metavar="OUT.png",
                      help="write OUT.png and OUT.json (the inputs, scores, signatures, tokenizer and versions behind "
                           "it) and exit 0; bad input: one line on stderr, exit 2. Needs no display")
    shot.add_argument("--size", type=window_size, metavar="WxH", help="window size (default 1400x860)")
    shot.add_argument("--tab", choices=TABS, help="the tab shown (default inspect)")
    shot.add_argument("--sentence", type=int, metavar="N", help="the sentence selected (1-based)")
    shot.add_argument("--show-metric", metavar="METRIC", help="the metric the window shows (default: the first, BLEU)")
    return p


@dataclass(frozen=True)
class WindowOptions:
    """What ``bleu-gui`` was asked: the files to open (None: none) and how, the display names and slice, the
    metrics and settings flags (``scoring``), the window's encoding, and a screenshot to take."""

    request: InputRequest | None
    labels: tuple[str, ...] | None
    where: tuple[str, ...]
    scoring: ScoringChoice
    encoding: str
    screenshot: ScreenshotOrder | None
    # System files given without their references (``bleu-gui FILE`` from a file manager): File ▸ Open, filled in.
    references_asked: InputRequest | None = None

    def imported_wanted(self) -> tuple[str, ...] | None:
        """The columns of the score files ``-m`` names (checked once they are read), or None: every column."""
        if self.scoring.metrics is None:
            return None
        # A family's name without its flags may be a column's (metric_configs: the column wins, as in bleu-score).
        return tuple(name for name in self.scoring.metrics if name not in KEYS or not self.scoring.given.get(name))


def _screenshot(args: argparse.Namespace) -> ScreenshotOrder | None:
    """The screenshot asked for (None without --screenshot); its options without it are refused."""
    if args.screenshot is None:
        given = [flag for flag, value in (("--size", args.size), ("--tab", args.tab), ("--sentence", args.sentence),
                                          ("--show-metric", args.show_metric)) if value is not None]
        if given:
            raise InputError(f"{', '.join(given)}: with --screenshot OUT.png only")
        return None
    if not (args.demo or args.references or args.systems or args.hypotheses):
        raise InputError("--screenshot needs something to show: files, or --demo")
    return ScreenshotOrder(Path(args.screenshot), args.size or (1400, 860), args.tab or "inspect", args.sentence,
                           args.show_metric)


def _command_form(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """The systems and references ``bleu-gui`` was given: ``SYSTEM... -r REF...``, or bleu-score's ``REF... -i
    HYP...`` (one form at a time)."""
    if not args.hypotheses:
        return list(args.systems), list(args.references)
    if args.references:
        raise InputError("give the references either before -i HYP (as bleu-score takes them) or with -r REF, not both")
    if not args.systems and args.source is None and not all(holds_its_source(h) for h in args.hypotheses):
        raise InputError("-i HYP needs the references before it (bleu-gui REF [REF ...] -i HYP [HYP ...]), or the "
                         "source for a run without references (--src FILE)")
    return list(args.hypotheses), list(args.systems)


def window_options(args: argparse.Namespace) -> WindowOptions:
    """``bleu-gui``'s parsed flags as typed options (the one reading of its Namespace)."""
    systems, references = whole_run(*_command_form(args))
    asked = None
    # With the source (given, or in a bilingual file: XLIFF, PO, TMX): a run without references; a system file alone
    # asks for its references.
    named = bool(args.test_set)  # a test set by name brings its source and references
    if systems and not references and not named and args.source is None and not all(
            holds_its_source(s) for s in systems):
        if args.screenshot is not None:
            raise InputError("give the references with -r REF [REF ...]")
        asked = input_request(args, systems, ())  # the window asks for them
    if args.demo:
        demo_systems, demo_references = demo_paths(args.demo)
        systems, references = [str(p) for p in demo_systems], [str(p) for p in demo_references]
    choice = scoring_choice(args)
    if choice.metrics is not None:
        # The window always computes some families (BLEU: its evidence, what-if edits and n-gram wins): first.
        missing = tuple(key for key in ALWAYS_IN_WINDOW if key not in choice.metrics)
        choice = replace(choice, metrics=(*missing, *choice.metrics))
    opened = bool(references) or named or (bool(systems) and asked is None)  # systems alone: with their source
    return WindowOptions(input_request(args, systems, references) if opened else None,
                         tuple(args.labels) if args.labels else None, tuple(args.where), choice, args.encoding,
                         _screenshot(args), asked)
