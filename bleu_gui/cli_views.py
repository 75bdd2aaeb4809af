"""``--explain N`` and ``--tokenizer-table``: two views of a scored run that replace the score lines."""

from __future__ import annotations

import argparse
import json

from .core import Run
from .core.errors import InputError


def add_view_arguments(p: argparse.ArgumentParser) -> None:
    views = p.add_argument_group("explanations (instead of the score lines)")
    views.add_argument("--explain", type=int, metavar="N",
                       help="why sentence N (1-based) scores what it scores, for every system")
    views.add_argument("--tokenizer-table", action="store_true",
                       help="the corpus BLEU of every system under each tokenizer, cased and lowercased, with "
                            "each cell's signature (--format json: a list of objects; latex: a booktabs table)")


def check_views(args: argparse.Namespace) -> None:
    """Refuse combinations whose other output would be silently dropped."""
    if args.explain is None and not args.tokenizer_table:
        return
    flag = "--explain" if args.explain is not None else "--tokenizer-table"
    if args.explain is not None and args.tokenizer_table:
        raise InputError("give --explain or --tokenizer-table, not both")
    others = [name for name, on in (("-b", args.score_only), ("-sl", args.sentence_level),
                                    ("--confidence", args.confidence), ("--paired-bs", args.paired_bs),
                                    ("--paired-ar", args.paired_ar), ("--all-pairs", args.all_pairs),
                                    ("--where", bool(args.where))) if on]
    if others:
        raise InputError(f"{flag} prints its own view: not with {', '.join(others)}")
    if args.format == "multi-bleu" or (args.format == "latex" and args.explain is not None):
        raise InputError(f"{flag} has no {args.format} form")
    if args.explain is not None and args.explain < 1:
        raise InputError(f"--explain takes a sentence number from 1, got {args.explain}")


def print_view(args: argparse.Namespace, run: Run) -> None:
    """Print the view ``args`` asked for (after :func:`check_views`)."""
    if args.tokenizer_table:
        from .core.tokenizer_table import tokenizer_table

        table = tokenizer_table(run)
        text = {"json": table.to_json, "latex": table.to_latex}.get(args.format)
        print(text() if text is not None else table.to_text(args.width), end="" if text is None else "\n")
        return
    from .core.whatif import scored_line  # only here: the usual scoring command does not pay its import

    n = args.explain
    if n > run.n_sentences:
        raise InputError(f"--explain {n}: the files have {run.n_sentences:,} sentences")
    accounts = [(s.name, scored_line(run, i, n - 1).explanation) for i, s in enumerate(run.systems)]
    if args.format == "json":
        print(json.dumps([{"system": name, "sentence": n, "headline": e.headline,
                           "sections": [{"title": s.title, "lines": s.lines} for s in e.sections]}
                          for name, e in accounts], ensure_ascii=False, indent=2))
        return
    for k, (name, e) in enumerate(accounts):
        print(("\n" if k else "") + f"Sentence {n} — {name}\n{e.text()}")
