"""``bleu-score``: BLEU from the command line, with sacreBLEU's flags. Uses only the core."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Sequence

from .cli_views import add_view_arguments, check_views, print_view
from .core import BleuConfig, BleuScore, InputError, formats
from .core.config import EMPTY_REF_RULES, NLTK_METHODS, SMOOTH_METHODS, VARIANTS
from .core.errors import ExportError
from .core.exports import check_sentences_target, check_targets
from .core.input_formats import FORMATS, ReadOptions
from .core.inputs import read_run_inputs
from .core.pair_matrix import CORRECTIONS, DEFAULT_ALPHA
from .core.read_table import ROLES
from .core.run import Run, ScoredSystem, Significance, check_labels, confidences, score_run
from .core.significance import MAX_AR_TRIALS, MAX_BS_SAMPLES, check_resamples, seed_from_env
from .core.slices import describe, parse_conditions, select, sliced
from .core.tokenizers import TOKENIZER_NAMES
from .core.variants import get_variant

PROG = "bleu-score"


def add_scoring_arguments(p: argparse.ArgumentParser, default_encoding: str) -> None:
    """The flags that change a number, shared by ``bleu-score`` and ``bleu-gui``; not given means None."""
    p.add_argument("-tok", "--tokenize", choices=TOKENIZER_NAMES, default=None,
                   help="sacreBLEU tokenizer (default: 13a for sacrebleu, none = whitespace for nltk and d2l)")
    p.add_argument("-lc", "--lowercase", action="store_true", default=None, help="lowercase before tokenizing")
    p.add_argument("-s", "--smooth-method", choices=SMOOTH_METHODS, default=None,
                   help="sacreBLEU smoothing (default: exp)")
    p.add_argument("-sv", "--smooth-value", type=float, default=None,
                   help="value for floor (default 0.1) and add-k (default 1)")
    p.add_argument("--max-ngram-order", type=int, default=None, metavar="N",
                   help="highest n-gram order, 1..9 (default 4)")
    p.add_argument("--weights", type=float, nargs="+", metavar="W", help="n-gram weights (nltk variant)")
    p.add_argument("--variant", choices=VARIANTS, default=None, help="whose BLEU to compute (default sacrebleu)")
    p.add_argument("--nltk-smoothing", type=int, choices=NLTK_METHODS, default=None, metavar="0..7",
                   help="NLTK SmoothingFunction().methodK (default 0)")
    p.add_argument("--auto-reweigh", action="store_true", default=None, help="NLTK's auto_reweigh")
    p.add_argument("--empty-refs", choices=EMPTY_REF_RULES, default=None,
                   help="an empty reference line is an empty reference (default, as sacreBLEU's command line) "
                        "or a reference missing for that sentence")
    p.add_argument("-e", "--encoding", default=default_encoding,
                   help="input encoding, or 'auto' to detect one legacy encoding for all files "
                        f"(default {default_encoding})")


def add_input_arguments(p: argparse.ArgumentParser) -> None:
    """How input files are read: formats, source, documents, which fields are systems and references."""
    g = p.add_argument_group("input formats (picked by extension and content; nothing is taken silently)")
    g.add_argument("--input-format", choices=FORMATS, help="read every input in this format (default: sniffed)")
    g.add_argument("--src", metavar="FILE",
                   help="source segments: a text file, or the source side of a structured file (default: the "
                        "source inside a structured input, said in a note)")
    g.add_argument("--docs", metavar="FILE", help="document id of each segment, one per line")
    g.add_argument("--refs", nargs="+", metavar="NAME", dest="refs_wanted",
                   help="references to use by translator or field (A, ref:A), or a system of a long table "
                        "(Human-A.0) taken as the reference (default: every reference)")
    g.add_argument("--systems", nargs="+", metavar="NAME", help="systems to score, in this order (default: all)")
    g.add_argument("--langs", nargs=2, metavar=("SRC", "TGT"), help="TMX: the source and target languages")
    g.add_argument("--column", action="append", default=[], metavar="ROLE=NAME",
                   help=f"TSV/JSONL: the column of a role ({', '.join(ROLES)}); repeat for several")
    g.add_argument("--keep-tags", action="store_true",
                   help="XLIFF/TMX: score inline tags as tokens (default: tags are not words and are taken out)")
    g.add_argument("--where", action="append", default=[], metavar="KEY=VALUE",
                   help="score only the segments with this document (doc=ID) or metadata value (origlang=en); "
                        "repeat to narrow")


def read_options(args: argparse.Namespace) -> ReadOptions:
    """The :class:`ReadOptions` of the input flags."""
    columns = {}
    for text in args.column:
        role, sep, name = text.partition("=")
        if not sep or role.strip() not in ROLES:
            raise InputError(f"--column {text!r}: give ROLE=NAME with ROLE one of {', '.join(ROLES)}")
        columns[role.strip()] = name.strip()
    return ReadOptions(args.input_format, args.keep_tags, tuple(args.langs) if args.langs else None, columns)


_FIELDS = {"variant": "variant", "tokenize": "tokenizer", "lowercase": "lowercase", "smooth_method": "smooth_method",
           "smooth_value": "smooth_value", "max_ngram_order": "max_order", "weights": "weights",
           "nltk_smoothing": "nltk_smoothing", "auto_reweigh": "auto_reweigh", "empty_refs": "empty_refs"}


def scoring_flags_given(args: argparse.Namespace) -> dict[str, object]:
    """The :class:`BleuConfig` fields that scoring flags set on the command line (flags not given are absent)."""
    return {field: getattr(args, dest) for dest, field in _FIELDS.items() if getattr(args, dest) is not None}


def config_from_args(args: argparse.Namespace, base: BleuConfig) -> BleuConfig:
    """``base`` with every scoring flag that was given; a flag the variant does not read is refused."""
    given = scoring_flags_given(args)
    if "weights" in given:
        given["weights"] = tuple(given["weights"])
    variant_name = given.get("variant", base.variant)
    variant = get_variant(variant_name)
    for field, flag in _VARIANT_FLAGS.items():
        if field in given and field not in variant.settings:
            owners = [name for name in VARIANTS if field in get_variant(name).settings]
            raise InputError(f"{flag} applies to the {' and '.join(owners)} variant only, not {variant_name}")
    return dataclasses.replace(base, **given).validated()


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG,
        description="BLEU exactly as sacreBLEU (default), NLTK or the d2l textbook compute it.",
        epilog="Exit status: 0 on success, 2 on bad input or bad options.")
    p.add_argument("refs", nargs="+", metavar="REF",
                   help="reference files or folders; or one file that holds systems and references (WMT XML, "
                        "a TSV/JSONL with a system column), scored without -i")
    p.add_argument("-i", "--input", nargs="+", metavar="HYP", default=[],
                   help="system output file(s): text, or the target side of XLIFF/TMX/SGML/TSV/JSONL")
    add_input_arguments(p)
    add_scoring_arguments(p, default_encoding="utf-8")
    p.add_argument("-sl", "--sentence-level", action="store_true", help="one score per sentence")
    p.add_argument("--labels", nargs="+", metavar="NAME",
                   help="display names of the systems, one per -i file (default: the shortest path suffix "
                        "that tells the files apart)")
    p.add_argument("--allow-identical-refs", action="store_true",
                   help="score even when a reference equals a system line for line (refused by default)")
    p.add_argument("-b", "--score-only", action="store_true", help="print the score only")
    p.add_argument("-w", "--width", type=int, default=2, help="decimals in text output (default 2)")
    p.add_argument("--format", "-f", choices=("text", "json", "multi-bleu", "latex"), default="text",
                   help="latex: the systems table (booktabs), with --all-pairs also the p-value matrix")
    sig = p.add_argument_group("significance (sacrebleu variant; seed 12345 or $SACREBLEU_SEED, as sacreBLEU)")
    paired = sig.add_mutually_exclusive_group()
    paired.add_argument("--paired-bs", "-pbs", action="store_true",
                        help="paired bootstrap resampling against the first system (Koehn 2004)")
    paired.add_argument("--paired-ar", "-par", action="store_true",
                        help="paired approximate randomization against the first system")
    paired.add_argument("--all-pairs", action="store_true",
                        help="both paired tests for every pair of systems, and significance ranks")
    sig.add_argument("--alpha", type=float, metavar="A",
                     help="significance level for ranks and marks (default 0.05; with --all-pairs or --format latex)")
    sig.add_argument("--correction", choices=CORRECTIONS,
                     help="multiple-comparison correction of the pair p-values (default none; with --all-pairs "
                          "or --format latex)")
    sig.add_argument("--paired-bs-n", "-pbsn", type=int, default=1000, metavar="N", help="resamples (default 1000)")
    sig.add_argument("--paired-ar-n", "-parn", type=int, default=10000, metavar="N", help="trials (default 10000)")
    sig.add_argument("--confidence", "-ci", action="store_true", help="95%% confidence interval by bootstrap")
    sig.add_argument("--confidence-n", "-cin", type=int, default=1000, metavar="N", help="resamples (default 1000)")
    add_view_arguments(p)
    out = p.add_argument_group("exports (written atomically; input files are never overwritten)")
    out.add_argument("--report", metavar="OUT.html", help="a self-contained HTML report")
    out.add_argument("--report-top", type=int, default=100, metavar="N",
                     help="over 3,000 sentences the report shows the N worst, best and most changed (default 100)")
    out.add_argument("--export-sentences", metavar="OUT.csv|OUT.json", help="per-sentence statistics")
    return p


# Settings that only some variants read: giving one to another variant is refused, never ignored.
_VARIANT_FLAGS = {"smooth_method": "-s/--smooth-method", "smooth_value": "-sv/--smooth-value",
                  "nltk_smoothing": "--nltk-smoothing", "weights": "--weights", "auto_reweigh": "--auto-reweigh"}


def _check_output(args) -> None:
    """Output flags that would be silently ignored in this combination are refused."""
    if not 0 <= args.width <= 16:
        raise InputError(f"-w/--width must be 0..16 decimals, got {args.width}")
    if args.score_only and (args.paired_bs or args.paired_ar):
        raise InputError("-b/--score-only does not apply to --paired-bs/--paired-ar (they print a table)")
    if args.confidence and (args.score_only or args.format == "multi-bleu"):
        raise InputError("--confidence has no place in -b or --format multi-bleu output")
    if args.confidence and (args.paired_bs or args.paired_ar):
        raise InputError("--confidence is shown by --paired-bs itself (μ ± 95% CI); give one of them")
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


def _sentence_scores(run: Run, system: ScoredSystem) -> list[BleuScore]:
    rows, variant = system.sentences, run.config.variant
    sig = run.evaluator.signature(sentence_level=True)
    return [BleuScore.from_rows(rows, i, variant, sig) for i in range(len(system.stats))]


def _emit(args, run: Run, corpus: list[BleuScore], confidences: list[tuple[float, float]] | None = None) -> None:
    out = sys.stdout
    names = [s.name for s in run.systems]
    sentences = [_sentence_scores(run, s) for s in run.systems] if args.sentence_level else None
    if args.format == "json":
        objs = []
        for i, name in enumerate(names):
            obj = formats.score_dict(corpus[i], name)
            if confidences is not None:
                obj["mean"], obj["ci"] = confidences[i]
            if sentences is not None:
                obj["sentences"] = [formats.score_dict(s) for s in sentences[i]]
            objs.append(obj)
        print(formats.dumps(objs[0] if len(objs) == 1 else objs), file=out)
        return
    for i, name in enumerate(names):
        scores = sentences[i] if sentences is not None else [corpus[i]]
        if args.score_only:
            lines = [formats.score_only(s, args.width) for s in scores]
        elif confidences is not None and args.format == "text":
            lines = [formats.text_line(scores[0], args.width, confidences[i])]
        else:
            lines = formats.render(scores, args.format, args.width)
        prefix = f"{name}: " if len(names) > 1 and not args.score_only else ""
        for line in lines:
            print(prefix + line, file=out)


def _check_tests(args, cfg: BleuConfig, n_systems: int) -> None:
    if (args.paired_bs or args.paired_ar or args.all_pairs or args.confidence) and not cfg.scorer.significance:
        raise InputError(f"significance tests and confidence intervals follow sacreBLEU and need the sacrebleu "
                         f"variant (not {cfg.variant})")
    if (args.paired_bs or args.paired_ar or args.all_pairs) and n_systems < 2:
        raise InputError("paired tests need a baseline and at least one more system (-i BASELINE SYSTEM ...)")
    if (args.paired_bs or args.paired_ar or args.all_pairs or args.confidence) and args.sentence_level:
        raise InputError("significance tests and confidence intervals are for corpus scores, not with -sl")
    for flag, n, ceiling in (("--paired-bs-n", args.paired_bs_n, MAX_BS_SAMPLES),
                             ("--paired-ar-n", args.paired_ar_n, MAX_AR_TRIALS),
                             ("--confidence-n", args.confidence_n, MAX_BS_SAMPLES)):
        check_resamples(flag, n, ceiling, n_systems)


def _significance(args, n_systems: int) -> Significance | None:
    """The paired tests this command needs: the one asked for, and both when a report compares systems."""
    report = bool(args.report) and n_systems >= 2
    both = report or args.all_pairs
    bootstrap = args.paired_bs_n if args.paired_bs or both else None
    approximate = args.paired_ar_n if args.paired_ar or both else None
    if bootstrap is None and approximate is None:
        return None
    return Significance(bootstrap, approximate, seed_from_env())


def _paired(args, run: Run) -> None:
    key = "bs" if args.paired_bs else "ar"
    comparison, significance = run.comparison, run.comparison.significance
    results = comparison.bootstrap if args.paired_bs else comparison.approximate
    n = significance.bootstrap if args.paired_bs else significance.approximate
    signature = run.evaluator.signature(resampling={key: n, "seed": str(significance.seed).lower()})
    if args.format == "json":
        objs = []
        for system, r in zip(run.systems, results):
            obj = formats.score_dict(system.corpus, system.name)
            obj.update({"signature": signature, "p_value": r.p_value, "mean": r.mean, "ci": r.ci})
            if comparison.identical[len(objs)]:
                obj["identical_to_baseline"] = True
            objs.append(obj)
        print(formats.dumps(objs))
        return
    rows = [(("Baseline: " if i == 0 else "") + r.name, r.score, r.p_value, r.mean, r.ci, comparison.identical[i])
            for i, r in enumerate(results)]
    print(formats.paired_table(rows, args.width, bootstrap=args.paired_bs))
    title = (f"Paired bootstrap resampling, {n} resamples" if args.paired_bs
             else f"Paired approximate randomization, {n} trials")
    print()
    print("-" * len(title))
    print(title)
    print("-" * len(title))
    print(f" - Every system is compared with the baseline, {run.baseline.name}.")
    if args.paired_bs:
        print("   Shown: the system's BLEU, then the bootstrap mean ± half-width of the 95% interval.")
    print(" - p is the chance of an absolute BLEU difference at least this large if both outputs")
    print("   came from the same system; * marks p <= 0.05. A small p says the difference is")
    print("   replicable, not which system is better.")
    for system, identical in zip(run.systems, comparison.identical):
        if identical:
            print(f" - {system.name}: {formats.IDENTICAL_NOTE}.")
    print()
    print("-----------------")
    print("Metric signatures")
    print("-----------------")
    print(f" - BLEU       {signature}")


def _tables(args, run: Run) -> None:
    """``--all-pairs`` (text, JSON or LaTeX) and ``--format latex`` (the systems table)."""
    from .core import rankings

    ranking = rankings.Ranking(args.alpha if args.alpha is not None else DEFAULT_ALPHA, args.correction or "none")
    if args.format == "latex":
        print(rankings.matrix_latex(run, ranking) if args.all_pairs else rankings.systems_latex(run, ranking,
                                                                                             args.width))
    elif args.format == "json":
        print(rankings.matrix_json(run, ranking))
    else:
        print(rankings.matrix_text(run, ranking, args.width))


def _targets(args) -> list[str]:
    return [t for t in (args.export_sentences, args.report) if t]


def _check_exports(args) -> None:
    if args.export_sentences:
        check_sentences_target(args.export_sentences)
    if args.report_top < 1:
        raise InputError(f"--report-top must be at least 1, got {args.report_top}")


def _exports(args, run: Run) -> None:
    """Write the requested report and sentence table (before printing anything)."""
    from .core.exports import sentences_text, write_atomic

    protected = run.input_paths()
    if args.export_sentences:
        write_atomic(args.export_sentences, sentences_text(run, args.export_sentences), protected)
    if args.report:
        from .core.report import build_report

        write_atomic(args.report, build_report(run, top=args.report_top), protected)


def run(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        cfg = config_from_args(args, BleuConfig())
        _check_output(args)
        check_views(args)
        _check_exports(args)
        inputs = read_run_inputs(args.input, args.refs, args.encoding, source=args.src, docs=args.docs,
                                 options=read_options(args), refs_wanted=args.refs_wanted,
                                 systems_wanted=args.systems, allow_identical=args.allow_identical_refs)
        hyps, refs = inputs.systems, inputs.references
        where = parse_conditions(args.where)
        _check_tests(args, cfg, len(hyps))
        protected = [f.path for f in [*hyps, *refs]] + [p for p in (args.src, args.docs) if p]
        check_targets(_targets(args), protected)
        names = check_labels(args.labels, len(hyps)) if args.labels else None
        significance = _significance(args, len(hyps))
        scored = score_run(hyps, refs, cfg, names=names, significance=None if where else significance,
                           ngram_diffs=False, context=inputs.context)
        if where:  # the whole corpus is scored without tests, then the slice with them
            scored = sliced(scored, select(scored, where), describe(where), significance=significance)
        for note in scored.notes:
            print(f"{PROG}: note: {note}", file=sys.stderr)
        if scored.slice is not None:
            whole = ", ".join(f"{s.name} {w:.{args.width}f}" for s, w in zip(scored.systems, scored.slice.whole))
            print(f"{PROG}: note: {scored.slice.summary}; the whole corpus scored {whole}", file=sys.stderr)
        if scored.advice is not None:
            print(f"{PROG}: advice: {scored.advice[1]}", file=sys.stderr)
        for i, where in scored.misaligned:
            print(f"{PROG}: warning: {where.describe(scored.systems[i].name)}", file=sys.stderr)
        _exports(args, scored)
        if args.explain is not None or args.tokenizer_table:
            print_view(args, scored)
            return 0
        if args.all_pairs or args.format == "latex":
            _tables(args, scored)
            return 0
        if args.paired_bs or args.paired_ar:
            _paired(args, scored)
            return 0
        corpus = [s.corpus for s in scored.systems]
        cis = None
        if args.confidence:
            seed = seed_from_env()
            cis = confidences(scored, n=args.confidence_n, seed=seed)
            sig = scored.evaluator.signature(resampling={"bs": args.confidence_n, "seed": str(seed).lower()})
            corpus = [dataclasses.replace(c, signature=sig) for c in corpus]
    except (InputError, ExportError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    _emit(args, scored, corpus, cis)
    return 0


def main() -> None:
    # An ASCII-only terminal (PYTHONIOENCODING=ascii) gets escapes for μ and ±, not a traceback.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        code = run()
        sys.stdout.flush()
    except OSError as exc:  # `| head` closed the pipe, or the output device is full
        # Nothing more can reach stdout; point it at /dev/null so the exit flush is quiet too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        reason = "the reader closed the pipe" if isinstance(exc, BrokenPipeError) else (exc.strerror or str(exc))
        print(f"{PROG}: error: cannot write the output: {reason}", file=sys.stderr)
        code = 2
    sys.exit(code)


if __name__ == "__main__":
    main()
