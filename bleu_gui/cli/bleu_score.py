"""``bleu-score``: BLEU from the command line, with sacreBLEU's flags. Uses only the core."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Sequence

from ..core import BleuConfig, InputError
from ..core.analysis.significance import seed_from_env
from ..core.errors import ExportError
from ..core.inputs.names import file_names
from ..core.inputs.run_inputs import read_request
from ..core.metrics.imported.imported import attach_imported
from ..core.output.exports import check_targets
from ..core.output.score_text import score_text
from ..core.run import Run, RunConfig, Significance, check_labels, confidences, score_run, subset_run
from ..core.where import check_where, where_rows
from .arguments import PROG, build_parser, input_request, metric_configs
from .checks import check_exports, check_output, check_tests, check_views
from .printing import emit, print_paired, print_tables, print_view


def _significance(args: argparse.Namespace, n_systems: int) -> Significance | None:
    """The paired tests this command needs: the one asked for, and both when a report compares systems."""
    report = bool(args.report) and n_systems >= 2
    both = report or args.all_pairs
    bootstrap = args.paired_bs_n if args.paired_bs or both else None
    approximate = args.paired_ar_n if args.paired_ar or both else None
    if bootstrap is None and approximate is None:
        return None
    return Significance(bootstrap, approximate, seed_from_env())


def _targets(args: argparse.Namespace) -> list[str]:
    return [t for t in (args.export_sentences, args.report) if t]


def _exports(args: argparse.Namespace, run: Run) -> None:
    """Write the requested report and sentence table (before printing anything)."""
    from ..core.output.exports import sentences_text, write_atomic

    protected = run.input_paths()
    if args.export_sentences:
        write_atomic(args.export_sentences, sentences_text(run, args.export_sentences), protected)
    if args.report:
        from ..core.output.report import build_report

        write_atomic(args.report, build_report(run, top=args.report_top), protected)


def run(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        check_output(args)
        check_views(args)
        check_exports(args)
        if not args.scores:  # bad metric flags are refused before any file is read (-m may name a column)
            metric_configs(args, BleuConfig())
        request = input_request(args, args.input, args.refs)
        inputs = read_request(request, stdin_system=not sys.stdin.isatty())
        hyps, refs = inputs.systems, inputs.references
        names = check_labels(args.labels, len(hyps)) if args.labels else None
        hyps, context, imported = attach_imported(request, hyps, names or file_names(hyps), inputs.context)
        metrics = metric_configs(args, BleuConfig(), imported)
        check_where(args.where)
        check_tests(args, metrics, len(hyps))
        protected = [f.path for f in [*hyps, *refs]] + [p for p in (args.src, args.docs, args.freq_file, args.glossary,
                                                                     *args.scores)
                                                        if p]
        check_targets(_targets(args), protected)
        significance = _significance(args, len(hyps))
        config = RunConfig(metrics=metrics, significance=None if args.where else significance, ngram_diffs=False)
        scored = score_run(hyps, refs, config, names=names, context=context)
        if args.where:  # the whole corpus is scored without tests, then the slice with them
            rows, said = where_rows(scored, args.where)
            scored = subset_run(scored, rows, said, significance=significance or Significance(None, None))
        for note in scored.notes:
            print(f"{PROG}: note: {note}", file=sys.stderr)
        if scored.slice is not None:
            named = len(scored.metrics) > 1
            whole = "; ".join(f"{m.name} " * named + ", ".join(f"{s.name} {score_text(w, args.width)}"
                                                               for s, w in zip(scored.systems, ws))
                              for m, ws in zip(scored.metrics, scored.slice.whole))
            print(f"{PROG}: note: {scored.slice.summary}; the whole corpus scored {whole}", file=sys.stderr)
        for advice in scored.advice:
            print(f"{PROG}: advice: {advice.text}", file=sys.stderr)
        for i, misalignment in scored.misaligned:
            print(f"{PROG}: warning: {misalignment.describe(scored.systems[i].name)}", file=sys.stderr)
        _exports(args, scored)
        if args.explain is not None or args.tokenizer_table or args.disagree or args.word_accuracy or args.qa is not None:
            print_view(args, scored)
            return 0
        if args.all_pairs or args.format == "latex":
            print_tables(args, scored)
            return 0
        if args.paired_bs or args.paired_ar:
            print_paired(args, scored)
            return 0
        corpus = [[s.results[k].corpus for k in range(len(scored.metrics))] for s in scored.systems]
        cis = None
        if args.confidence:
            seed = seed_from_env()
            cis = [confidences(scored, k, n=args.confidence_n, seed=seed) for k in range(len(scored.metrics))]
            sigs = [m.signature(resampling={"bs": args.confidence_n, "seed": str(seed).lower()})
                    for m in scored.metrics]
            corpus = [[dataclasses.replace(c, signature=sig) for c, sig in zip(row, sigs)] for row in corpus]
    except (InputError, ExportError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    emit(args, scored, corpus, cis)
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
