"""Option combinations ``bleu-score`` refuses: an option that would be silently ignored is an error, never a no-op.
Each check reads the typed options and raises; none changes them."""

from __future__ import annotations

import math

from ..core import InputError, MetricConfig
from ..core.metrics.registry import DEFAULT_KEYS
from ..core.output.exports import check_sentences_target
from .arguments import Options, Views


def check_output(o: Options) -> None:
    """Output options that would be silently ignored in this combination are refused."""
    out, tests, views = o.output, o.tests, o.views
    if not 0 <= out.width <= 16:
        raise InputError(f"-w/--width must be 0..16 decimals, got {out.width}")
    if out.score_only and (tests.paired_bs or tests.paired_ar):
        raise InputError("-b/--score-only does not apply to --paired-bs/--paired-ar (they print a table)")
    if tests.confidence and (out.score_only or out.format == "multi-bleu"):
        raise InputError("--confidence has no place in -b or --format multi-bleu output")
    if tests.confidence and (tests.paired_bs or tests.paired_ar):
        raise InputError("--confidence is shown by --paired-bs itself (μ ± 95% CI); give one of them")
    metrics = list(o.scoring.metrics or DEFAULT_KEYS)
    if out.format == "multi-bleu" and metrics != ["bleu"]:
        raise InputError("--format multi-bleu is Moses' BLEU line: give -m bleu alone")
    if views.tokenizer_table and "bleu" not in metrics:
        raise InputError("--tokenizer-table compares BLEU scores: add bleu to -m")
    if out.format == "multi-bleu" and (tests.paired_bs or tests.paired_ar):
        raise InputError("--paired-bs/--paired-ar print a table: not with --format multi-bleu")
    tables = tests.all_pairs or out.format == "latex"
    for flag, value in (("--alpha", tests.alpha), ("--correction", tests.correction)):
        if value is not None and not tables:
            raise InputError(f"{flag} applies to --all-pairs and --format latex only")
    if tests.alpha is not None and not 0 < tests.alpha < 1:
        raise InputError(f"--alpha must be between 0 and 1, got {tests.alpha}")
    if out.format == "latex" and (out.score_only or tests.confidence or out.sentence_level):
        raise InputError("--format latex prints the systems table: not with -b, --confidence or -sl")
    if tests.all_pairs and (out.score_only or out.format == "multi-bleu" or tests.confidence):
        raise InputError("--all-pairs prints the pair matrix: not with -b, --confidence or --format multi-bleu")


def check_tests(o: Options, metrics: tuple[MetricConfig, ...], n_systems: int) -> None:
    """Paired tests need two systems and corpus scores; every metric of the run must have them."""
    tests = o.tests
    if tests.paired or tests.confidence:
        refused = [m for m in metrics if not m.significance]
        if refused:
            raise InputError("significance tests and confidence intervals follow sacreBLEU and "
                             f"{refused[0].why_no_tests()}")
    if tests.paired and n_systems < 2:
        raise InputError("paired tests need a baseline and at least one more system (-i BASELINE SYSTEM ...)")
    if (tests.paired or tests.confidence) and o.output.sentence_level:
        raise InputError("significance tests and confidence intervals are for corpus scores, not with -sl")


def check_exports(o: Options) -> None:
    if o.exports.sentences:
        check_sentences_target(o.exports.sentences)
    if o.exports.report_top < 1:
        raise InputError(f"--report-top must be at least 1, got {o.exports.report_top}")


def _owned_flags(views: Views) -> None:
    """Refuse a flag given without the view it belongs to (it would be silently ignored)."""
    for given, said, owner in (
            (views.glossary, "--glossary applies to --qa", views.qa is not None),
            (views.qa_decisions, "--qa-decisions applies to --qa and --triage",
             views.qa is not None or views.triage is not None),
            (views.freq_file, "--freq-file applies to --word-accuracy", views.word_accuracy),
            (any(v is not None for v in (views.scorecard_weights, views.scorecard_threshold, views.scorecard_out)),
             "--scorecard-weights, --scorecard-threshold and --scorecard-out apply to --scorecard", views.scorecard),
            (views.triage_metric or views.triage_out, "--triage-metric and --triage-out apply to --triage",
             views.triage is not None),
            (views.meta_eval_metrics or views.meta_eval_human_is_metric,
             "--meta-eval-metrics and --meta-eval-human-is-metric apply to --meta-eval", views.meta_eval is not None),
            (views.error_free_threshold is not None or views.error_free_precision is not None
             or views.error_free_out is not None,
             "--error-free-threshold, --error-free-precision and --error-free-out apply to --error-free",
             views.error_free),
            (views.triage_calibration, "--triage-calibration applies to --triage calibrated:P",
             views.triage is not None and "calibrated" in views.triage.lower())):
        if given and not owner:
            raise InputError(said)


def check_views(o: Options) -> None:
    """Refuse combinations whose other output would be silently dropped."""
    views, out, tests = o.views, o.output, o.tests
    asked = views.asked()
    _owned_flags(views)
    if views.scorecard_out is not None and not views.scorecard_out.lower().endswith((".xlsx", ".html", ".htm")):
        raise InputError(f"--scorecard-out {views.scorecard_out}: write .xlsx or .html")
    if views.top is not None and not (views.disagree or views.meta_eval or views.triage):
        raise InputError("--top applies to --disagree, --meta-eval and --triage")
    if views.error_free_precision is not None and not 0 < views.error_free_precision <= 1:
        raise InputError(f"--error-free-precision {views.error_free_precision:g}: a precision is more than 0 and at "
                         "most 1 (0.95: 95%)")
    if views.error_free_threshold is not None and not math.isfinite(views.error_free_threshold):
        raise InputError("--error-free-threshold: give a finite score (85)")
    if views.triage is not None:
        from ..core.run.triage import TriageRule

        rule = TriageRule.parse(views.triage)
        if rule.calibrated is not None and views.triage_calibration is None:
            raise InputError(f"--triage {views.triage}: give the calibration with --triage-calibration FILE (written "
                             "by --error-free --error-free-out on human-rated segments)")
    if not asked:
        return
    if len(asked) > 1:
        raise InputError(f"give one of {', '.join(asked)}, not several")
    flag = asked[0]
    if views.top is not None and views.top < 1:
        raise InputError(f"--top {views.top}: list at least one segment")
    others = [name for name, on in (("-b", out.score_only), ("-sl", out.sentence_level),
                                    ("--confidence", tests.confidence), ("--paired-bs", tests.paired_bs),
                                    ("--paired-ar", tests.paired_ar), ("--all-pairs", tests.all_pairs),
                                    ("--where", bool(o.where) and flag not in ("--disagree", "--word-accuracy", "--qa",
                                                                             "--error-recall", "--rater-agreement",
                                                                             "--scorecard")))
              if on]
    if others:
        raise InputError(f"{flag} prints its own view: not with {', '.join(others)}")
    if out.format == "multi-bleu" or (out.format == "latex" and flag not in ("--tokenizer-table", "--meta-eval")):
        raise InputError(f"{flag} has no {out.format} form")
    if views.explain is not None and views.explain < 1:
        raise InputError(f"--explain takes a sentence number from 1, got {views.explain}")
