"""``bleu-score --ask-humans FILE.json``: the flags that choose the segments and systems to ask the humans about,
and how the Pearmut campaign is laid out (its one reading of the Namespace)."""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

from ..core.errors import InputError
from ..core.inputs.campaign_ids import PROTOCOLS, WORDS_PER_HOUR


def positive_int(value: str) -> int:
    """A flag's whole number of at least 1 (argparse says what was given otherwise)."""
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"a whole number of at least 1, got {value!r}")
    return n


def _rate(value: str) -> float:
    try:
        x = float(value)
    except ValueError:
        x = 0.0
    if not (x > 0 and math.isfinite(x)):
        raise argparse.ArgumentTypeError(f"words an hour, a number more than 0, got {value!r}")
    return x


def add_campaign_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("ask the humans (a Pearmut campaign of the run's segments; --where chooses them too)")
    g.add_argument("--ask-humans", metavar="FILE.json",
                   help="write the segments (the run's, or --where's) as a Pearmut campaign (pearmut add FILE.json), "
                        "with FILE.bleu-gui.json beside it: which file and line each item is, for reading the ratings "
                        "back with --annotations")
    g.add_argument("--protocol", choices=tuple(PROTOCOLS), default="esa",
                   help="what the raters do: esa (a score and error spans; default), mqm (spans with MQM's core "
                        "typology), da (a score)")
    g.add_argument("--ask-systems", nargs="+", metavar="NAME", help="the systems to rate (default: all of the run)")
    g.add_argument("--sample", type=positive_int, metavar="N", help="ask about N segments of the chosen ones (seeded)")
    g.add_argument("--sample-by", default="random", metavar="HOW",
                   help="with --sample: random (default), document (whole documents until N segments), or a metric "
                        "of the run (equal shares of its five quantile bins of the systems' mean score)")
    g.add_argument("--documents", action="store_true",
                   help="keep documents whole: every segment of a chosen segment's document, in order")
    g.add_argument("--raters", type=positive_int, default=1, metavar="N",
                   help="how many raters rate each segment (default 1; 2 or more measures their agreement)")
    g.add_argument("--items-per-rater", type=positive_int, metavar="K",
                   help="documents (or segments) one rater's task holds (default: all of them)")
    g.add_argument("--seed", type=int, default=0, metavar="S",
                   help="the seed of --sample and of Pearmut's order of the systems in an item (default 0)")
    g.add_argument("--words-per-hour", type=_rate, default=WORDS_PER_HOUR, metavar="W",
                   help=f"source words a rater reads an hour, for the estimate (default {WORDS_PER_HOUR:,}: the median "
                        "of WMT24's ESA raters, en-zh and en-hi)")
    g.add_argument("--overwrite", action="store_true", help="replace an existing campaign file and its mapping file")


@dataclass(frozen=True)
class AskHumans:
    """What ``--ask-humans`` asks (see :func:`add_campaign_arguments`)."""

    out: str
    protocol: str
    systems: tuple[str, ...]
    sample: int | None
    sample_by: str
    documents: bool
    raters: int
    per_rater: int | None
    seed: int
    words_per_hour: float
    overwrite: bool


def ask_humans(args: argparse.Namespace) -> AskHumans | None:
    """The campaign asked for; None without ``--ask-humans`` (a campaign flag without it is refused)."""
    if args.ask_humans is None:
        given = [flag for flag, on in (("--ask-systems", args.ask_systems), ("--sample", args.sample is not None),
                                       ("--documents", args.documents), ("--items-per-rater", args.items_per_rater),
                                       ("--overwrite", args.overwrite)) if on]
        if given:
            raise InputError(f"{', '.join(given)} belong{'s' if len(given) == 1 else ''} to --ask-humans; here "
                             f"{'it' if len(given) == 1 else 'they'} would be ignored")
        return None
    return AskHumans(args.ask_humans, args.protocol, tuple(args.ask_systems or ()), args.sample, args.sample_by,
                     args.documents, args.raters, args.items_per_rater, args.seed, args.words_per_hour,
                     args.overwrite)
