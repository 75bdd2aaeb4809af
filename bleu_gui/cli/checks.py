"""Flag combinations ``bleu-score`` refuses: a flag that would be silently ignored is an error, never a no-op."""

from __future__ import annotations

import argparse

from ..core import BleuConfig, InputError, MetricConfig
from ..core.analysis.significance import AR_TRIALS, BS_SAMPLES, MAX_AR_TRIALS, MAX_BS_SAMPLES, check_resamples
from ..core.output.exports import check_sentences_target


def check_output(args: argparse.Namespace) -> None:
    """Output flags that would be silently ignored in this combination are refused."""
    if not 0 <= args.width <= 16:
        raise InputError(f"-w/--width must be 0..16 decimals, got {args.width}")
    if args.score_only and (args.paired_bs or args.paired_ar):
        raise InputError("-b/--score-only does not apply to --paired-bs/--paired-ar (they print a table)")
    if args.confidence and (args.score_only or args.format == "multi-bleu"):
        raise InputError("--confidence has no place in -b or --format multi-bleu output")
    if args.confidence and (args.paired_bs or args.paired_ar):
        raise InputError("--confidence is shown by --paired-bs itself (μ ± 95% CI); give one of them")
    metrics = args.metrics or ["bleu"]
    if args.format == "multi-bleu" and metrics != ["bleu"]:
        raise InputError("--format multi-bleu is Moses' BLEU line: give -m bleu alone")
    if args.tokenizer_table and "bleu" not in metrics:
        raise InputError("--tokenizer-table compares BLEU scores: add bleu to -m")
    if args.format == "multi-bleu" and (args.paired_bs or args.paired_ar):
        raise InputError("--paired-bs/--paired-ar print a table: not with --format multi-bleu")
    tables = args.all_pairs or args.format == "latex"
    for flag, value in (("--alpha", args.alpha), ("--correction", args.correction)):
        if value is not None and not tables:
            raise InputError(f"{flag} applies to --all-pairs and --format latex only")
    if args.alpha is not None and not 0 < args.alpha < 1:
        raise InputError(f"--alpha must be between 0 and 1, got {args.alpha}")
    if args.format == "latex" and (args.score_only or args.confidence or args.sentence_level):
        raise InputError("--format latex prints the systems table: not with -b, --confidence or -sl")
    if args.all_pairs and (args.score_only or args.format == "multi-bleu" or args.confidence):
        raise InputError("--all-pairs prints the pair matrix: not with -b, --confidence or --format multi-bleu")


def check_tests(args: argparse.Namespace, metrics: tuple[MetricConfig, ...], n_systems: int) -> None:
    bleu = next((m for m in metrics if isinstance(m, BleuConfig)), None)
    tests = args.paired_bs or args.paired_ar or args.all_pairs or args.confidence
    if tests and bleu is not None and not bleu.scorer.significance:
        raise InputError(f"significance tests and confidence intervals follow sacreBLEU and need the sacrebleu "
                         f"variant (not {bleu.variant})")
    if (args.paired_bs or args.paired_ar or args.all_pairs) and n_systems < 2:
        raise InputError("paired tests need a baseline and at least one more system (-i BASELINE SYSTEM ...)")
    if (args.paired_bs or args.paired_ar or args.all_pairs or args.confidence) and args.sentence_level:
        raise InputError("significance tests and confidence intervals are for corpus scores, not with -sl")
    _check_counts_used(args, n_systems)
    for flag, n, ceiling in (("--paired-bs-n", args.paired_bs_n, MAX_BS_SAMPLES),
                             ("--paired-ar-n", args.paired_ar_n, MAX_AR_TRIALS),
                             ("--confidence-n", args.confidence_n, MAX_BS_SAMPLES)):
        check_resamples(flag, n, ceiling)


def _check_counts_used(args: argparse.Namespace, n_systems: int) -> None:
    """A resample count is refused when nothing would use it; then the defaults fill those not given."""
    report = bool(args.report) and n_systems >= 2  # a report comparing systems runs both tests
    used = (("--paired-bs-n", args.paired_bs_n, args.paired_bs or args.all_pairs or report,
             "--paired-bs and --all-pairs (and a report comparing systems)"),
            ("--paired-ar-n", args.paired_ar_n, args.paired_ar or args.all_pairs or report,
             "--paired-ar and --all-pairs (and a report comparing systems)"),
            ("--confidence-n", args.confidence_n, args.confidence, "--confidence"))
    for flag, n, wanted, owners in used:
        if n is not None and not wanted:
            raise InputError(f"{flag} applies to {owners} only; here it would be ignored")
    args.paired_bs_n = BS_SAMPLES if args.paired_bs_n is None else args.paired_bs_n
    args.paired_ar_n = AR_TRIALS if args.paired_ar_n is None else args.paired_ar_n
    args.confidence_n = BS_SAMPLES if args.confidence_n is None else args.confidence_n


def check_exports(args: argparse.Namespace) -> None:
    if args.export_sentences:
        check_sentences_target(args.export_sentences)
    if args.report_top < 1:
        raise InputError(f"--report-top must be at least 1, got {args.report_top}")


def check_views(args: argparse.Namespace) -> None:
    """Refuse combinations whose other output would be silently dropped."""
    views = [flag for flag, on in (("--explain", args.explain is not None), ("--tokenizer-table", args.tokenizer_table),
                                   ("--disagree", args.disagree is not None),
                                   ("--word-accuracy", args.word_accuracy), ("--qa", args.qa is not None)) if on]
    if args.glossary and args.qa is None:
        raise InputError("--glossary applies to --qa")
    if args.freq_file and not args.word_accuracy:
        raise InputError("--freq-file applies to --word-accuracy")
    if args.top is not None and not args.disagree:
        raise InputError("--top applies to --disagree")
    if not views:
        return
    if len(views) > 1:
        raise InputError(f"give one of {', '.join(views)}, not several")
    flag = views[0]
    if args.disagree is not None and args.top is not None and args.top < 1:
        raise InputError(f"--top {args.top}: list at least one segment")
    others = [name for name, on in (("-b", args.score_only), ("-sl", args.sentence_level),
                                    ("--confidence", args.confidence), ("--paired-bs", args.paired_bs),
                                    ("--paired-ar", args.paired_ar), ("--all-pairs", args.all_pairs),
                                    ("--where", bool(args.where) and flag not in ("--disagree", "--word-accuracy", "--qa")))
              if on]
    if others:
        raise InputError(f"{flag} prints its own view: not with {', '.join(others)}")
    if args.format == "multi-bleu" or (args.format == "latex" and flag != "--tokenizer-table"):
        raise InputError(f"{flag} has no {args.format} form")
    if args.explain is not None and args.explain < 1:
        raise InputError(f"--explain takes a sentence number from 1, got {args.explain}")
