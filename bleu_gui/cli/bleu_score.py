"""``bleu-score``: BLEU from the command line, with sacreBLEU's flags. Uses only the core."""

from __future__ import annotations

import dataclasses
import errno
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..core.errors import ExportError, InputError
from ..core.metrics.status import status_to
from .arguments import PROG, Options, build_parser, options, worded_error, words

if TYPE_CHECKING:
    from ..core.run import Run, Significance
    from .printing import Printer


def _significance(o: Options, n_systems: int) -> Significance | None:
    """The paired tests this command needs: the one asked for, and both when a report compares systems."""
    from ..core.analysis.resampling import seed_from_env
    from ..core.run import Significance

    report = bool(o.exports.report) and n_systems >= 2
    both = report or o.tests.all_pairs
    bootstrap = o.tests.paired_bs_n if o.tests.paired_bs or both else None
    approximate = o.tests.paired_ar_n if o.tests.paired_ar or both else None
    if bootstrap is None and approximate is None:
        return None
    return Significance(bootstrap, approximate, seed_from_env())


def _exports(o: Options, run: Run) -> None:
    """Write the requested report and sentence table (before printing anything)."""
    from ..core.output.exports import sentences_file, write_atomic

    protected = run.input_paths()
    if o.exports.mtme:
        from ..core.output.mtme_layout import write_mtme
        from ..core.run.meta_eval_run import human_candidates, human_index

        named = o.views.meta_eval
        humans = [human_index(run, named, o.views.meta_eval_human_is_metric)] if named else human_candidates(run)
        if not humans:
            raise InputError("--export-mtme writes human scores beside the metrics': the run has none (-m mqm with "
                             "annotations, or a scores column)")
        write_mtme(run, o.exports.mtme, humans[0])
    if o.exports.sentences:
        write_atomic(o.exports.sentences, sentences_file(run, o.exports.sentences), protected)
    if o.exports.report:
        if o.exports.report.lower().endswith(".xlsx"):  # the systems tables and pairs as a workbook
            from ..core.output.rankings import systems_workbook

            write_atomic(o.exports.report, systems_workbook(run), protected)
            return
        from ..core.output.report import build_report

        write_atomic(o.exports.report, build_report(run, top=o.exports.report_top), protected)


def _scored(o: Options, ready: Callable[[Run, list[str]], None] | None = None) -> Run:
    """Read, check and score what ``o`` asks (the whole corpus, then the slice of ``--where`` with its tests).

    ``ready(run, waiting)``: with several metrics, they are scored cheapest first (BLEU, chrF, TER, as the window
    does) and each stage's run is handed over as soon as it is scored, with the titles of the metrics still to
    come."""
    from ..core.run import Significance, subset_run
    from ..core.where import where_rows

    scored = _scored_whole(o, ready)
    if o.where:  # the whole corpus is scored without tests, then the slice with them
        rows, said = where_rows(scored, o.where)
        scored = subset_run(scored, rows, said, significance=_significance(o, len(scored.systems)) or
                            Significance(None, None))
    return scored


def _scored_whole(o: Options, ready: Callable[[Run, list[str]], None] | None = None) -> Run:
    """The whole corpus read, checked and scored (with ``o``'s tests unless ``--where`` slices it)."""
    # Loaded here, not at the start: ``--help`` and a refused flag never load the scoring.
    from ..core.inputs.names import file_names
    from ..core.inputs.run_inputs import read_request
    from ..core.metrics.imported.imported import attach_imported
    from ..core.output.exports import check_targets
    from ..core.run import RunConfig, check_labels, score_in_stages, score_run
    from ..core.where import check_where
    from .arguments import metric_configs
    from .checks import check_exports, check_output, check_tests, check_views
    from .scale_run import HandedOff, check_scale, comet_hand_off, import_batches

    check_output(o)
    check_views(o)
    check_exports(o)
    # Bad metric flags are refused before any file is read, unless -m may name a column read from a file (ESA's
    # and Pearmut's ratings given as annotations bring their scores too).
    if not (o.request.scores or o.request.annotations):
        metric_configs(o.scoring)
    inputs = read_request(o.request, stdin_system=not sys.stdin.isatty())
    hyps, refs = inputs.systems, inputs.references
    names = check_labels(o.output.labels, len(hyps)) if o.output.labels else None
    hyps, context, imported = attach_imported(o.request, hyps, names or file_names(hyps), inputs.context)
    metrics = metric_configs(o.scoring, imported, referenced=bool(refs), unscored_ok=o.views.need_no_score())
    metrics = check_scale(o.scale, metrics)
    import_batches(o.scale, metrics, _note)
    if o.scale.comet_batch_out:  # handed off whole: nothing is scored here
        comet_hand_off(o.scale, inputs, metrics, _note)
        raise HandedOff()
    check_where(o.where)
    check_tests(o, metrics, len(hyps))
    check_targets(o.exports.targets, [f.path for f in [*hyps, *refs]] + [p for p in (
        o.request.source, o.request.docs, o.views.freq_file, o.views.glossary, *o.request.scores) if p])
    for notice in filter(None, (m.notice() for m in metrics)):  # before the first request leaves this machine
        print(f"{PROG}: note: {notice}", file=sys.stderr, flush=True)
    significance = _significance(o, len(hyps))
    config = RunConfig(metrics=metrics, significance=None if o.where else significance, ngram_diffs=False)
    if ready is None:
        scored = score_run(hyps, refs, config, names=names, context=context)
    else:
        for stage in score_in_stages(hyps, refs, config, names=names, context=context):
            if stage.waiting:
                ready(stage.run, list(stage.waiting))
            scored = stage.run
    return scored


def _notes(o: Options, run: Run, say: Printer) -> None:
    """Notes, advice and warnings on stderr, before any output."""
    from ..core.output.score_text import score_text

    for note in run.notes:
        say.note(note)
    if run.slice is not None:
        named = len(run.metrics) > 1
        whole = "; ".join(f"{m.name} " * named + ", ".join(f"{s.name} {score_text(w, o.output.width)}"
                                                           for s, w in zip(run.systems, ws))
                          for m, ws in zip(run.metrics, run.slice.whole))
        say.note(f"{run.slice.summary}; the whole corpus scored {whole}")
    for advice in run.advice:
        say.stderr(f"advice: {advice.text}")
    for i, misalignment in run.misaligned:
        say.stderr(f"warning: {misalignment.describe(run.systems[i].name)}")


def _note(text: str) -> None:
    print(f"{PROG}: note: {text}", file=sys.stderr, flush=True)


def _status_line(text: str) -> None:
    """``text`` on the terminal's last line, in place of what was there ('' clears it)."""
    print(f"\r{text}\x1b[K", end="" if text else "\r", file=sys.stderr, flush=True)


def run(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    word = words(parser)
    try:
        o = options(parser.parse_args(argv))
        from ..core.analysis.resampling import seed_from_env
        from ..core.run import confidences
        from .printing import Printer
        from .scale_run import HandedOff, hand_off

        say = Printer(o, word)
        # At a terminal, each metric's corpus scores are said as soon as they are ready (the output follows), and a
        # long computation (COMET) says how far it is on one line that it rewrites.
        if o.humans is not None:
            from .campaign_printing import ask_the_humans

            with status_to(_status_line if sys.stderr.isatty() else None):
                whole = _scored_whole(o)
            if sys.stderr.isatty():
                _status_line("")
            _notes(o, whole, say)
            ask_the_humans(o, whole)
            return 0
        with status_to(_status_line if sys.stderr.isatty() else None):
            try:
                scored = _scored(o, say.ready if sys.stderr.isatty() else None)
            except HandedOff:
                return 0
        if sys.stderr.isatty():
            _status_line("")
        if o.output.format == "multi-bleu" and scored.bleu is None:  # printed nothing, and exit 0
            raise InputError("--format multi-bleu is Moses' BLEU line: the run has no reference")
        _notes(o, scored, say)
        hand_off(o.scale, scored, _note)
        _exports(o, scored)
        if o.views.asked():
            say.view(scored)
            return 0
        if o.tests.all_pairs or o.output.format == "latex":
            say.tables(scored)
            return 0
        if o.tests.paired_bs or o.tests.paired_ar:
            say.paired(scored)
            return 0
        corpus = [[s.results[k].corpus for k in range(len(scored.metrics))] for s in scored.systems]
        cis = None
        if o.tests.confidence:
            seed = seed_from_env()
            cis = [confidences(scored, k, n=o.tests.confidence_n, seed=seed) for k in range(len(scored.metrics))]
            sigs = [m.signature(resampling={"bs": o.tests.confidence_n, "seed": str(seed).lower()})
                    for m in scored.metrics]
            corpus = [[dataclasses.replace(c, signature=sig) for c, sig in zip(row, sigs)] for row in corpus]
    except (InputError, ExportError) as exc:
        print(f"{PROG}: error: {worded_error(parser, exc)}", file=sys.stderr)
        return 2
    say.scores(scored, corpus, cis)
    return 0


# The output's own failures (a closed pipe, a full or failing device); any other OSError is not the output's.
_OUTPUT_ERRNOS = (errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF)


def main() -> None:
    # An ASCII-only terminal (PYTHONIOENCODING=ascii) gets escapes for μ and ±, not a traceback.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        code = run()
        sys.stdout.flush()
    except KeyboardInterrupt:
        # Ctrl+C: one line, at once (the LLM judge's requests in flight are left, unheard, to daemon threads).
        print(f"{PROG}: interrupted: nothing more is computed; what was cached so far (the LLM judge's answers, "
              "COMET's scores) is kept, and the next run asks only for the rest", file=sys.stderr)
        code = 130
    except OSError as exc:  # `| head` closed the pipe, or the output device is full
        if not isinstance(exc, BrokenPipeError) and exc.errno not in _OUTPUT_ERRNOS:
            raise  # not the output's: a bug to see, not to word as one
        # Nothing more can reach stdout; point it at /dev/null so the exit flush is quiet too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        reason = "the reader closed the pipe" if isinstance(exc, BrokenPipeError) else (exc.strerror or str(exc))
        print(f"{PROG}: error: cannot write the output: {reason}", file=sys.stderr)
        code = 2
    sys.exit(code)


if __name__ == "__main__":
    main()
