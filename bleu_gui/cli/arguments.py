"""The flags of ``bleu-score`` and ``bleu-gui``, defined once, and the one place that reads them.

A metric's flags come from its settings' fields (the registry's families): ``--chrf-word-order`` is chrF's
``word_order``; BLEU's are sacreBLEU's own names (``-tok/--tokenize``, ``--max-ngram-order``), given in
:data:`SACREBLEU_NAMES` where they differ from the field's. The parsed Namespace is read here only: it becomes
typed options (:class:`Options`), and the rest of the command works on those. Messages of the core name fields
(``langs``, ``bleu.tokenizer``); :func:`words` says them as this command's flags.

The parser is built from names alone (the families' settings, the formats, the checks): ``--help`` loads neither
numpy nor a metric nor a file reader.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NoReturn

from ..core import InputError, MetricConfig
from ..core.analysis.qa import CHECKS as QA_CHECKS
from ..core.analysis.resampling import (
    AR_TRIALS,
    BS_SAMPLES,
    CORRECTIONS,
    MAX_AR_TRIALS,
    MAX_BS_SAMPLES,
    check_resamples,
)
from ..core.errors import term, worded
from ..core.inputs.columns import ROLES, parse_columns
from ..core.inputs.format_table import FORMATS, ReadOptions
from ..core.metrics.family import Family
from ..core.metrics.imported.config import ImportedConfig, choose_imported
from ..core.metrics.registry import FAMILIES, KEYS, check_references, default_keys, family, unscored
from ..core.metrics.settings import SettingField
from .campaign_arguments import AskHumans, add_campaign_arguments, ask_humans
from .scale_arguments import Scale, add_scale_arguments, scale_options

if TYPE_CHECKING:
    from ..core.inputs.run_inputs import InputRequest

PROG = "bleu-score"

# sacreBLEU's names for BLEU's and chrF's settings, where they are not the family's key and the field's name.
SACREBLEU_NAMES: dict[str, tuple[str, ...]] = {
    "bleu.tokenizer": ("-tok", "--tokenize"), "bleu.lowercase": ("-lc", "--lowercase"),
    "bleu.smooth_method": ("-s", "--smooth-method"), "bleu.smooth_value": ("-sv", "--smooth-value"),
    "bleu.max_order": ("--max-ngram-order",), "chrf.char_order": ("-cc", "--chrf-char-order"),
    "chrf.word_order": ("-cw", "--chrf-word-order")}


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr, ``PROG: error: …`` and exit status 2, as every other
    error of the commands (argparse prints its whole usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (--help lists the options)\n")


class VersionAction(argparse.Action):
    """``-V/--version``: the program's version and the sacreBLEU it matches, as ``sacrebleu -V`` prints its own;
    exit 0 (nothing is imported to say it)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the version (and sacreBLEU's) and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        from importlib.metadata import version

        from .. import __version__

        print(f"{parser.prog} {__version__} (sacreBLEU {version('sacrebleu')})")
        parser.exit(0)


# -- the flags ----------------------------------------------------------------------------------------------

def setting_flags(fam: Family, f: SettingField) -> tuple[str, ...]:
    """The flags of a family's setting: sacreBLEU's own, or ``--KEY-FIELD`` (``--ter-no-punct``)."""
    name = f"{fam.key}.{f.name}"
    if name in SACREBLEU_NAMES:
        return SACREBLEU_NAMES[name]
    return ("--" + (f"{fam.key}-" if fam.prefixed else "") + f.name.replace("_", "-"),)


def _dest(fam: Family, f: SettingField) -> str:
    return f"{fam.key}__{f.name}"


def add_scoring_arguments(p: argparse.ArgumentParser, default_encoding: str) -> None:
    """The flags that change a number, shared by ``bleu-score`` and ``bleu-gui``; not given means None."""
    p.add_argument("-m", "--metrics", nargs="+", default=None, metavar="METRIC",
                   help=f"metrics to compute, in this order: {', '.join(KEYS)}, or a column of --scores (default: "
                        "bleu, and every column of --scores)")
    p.add_argument("-e", "--encoding", default=default_encoding, metavar="NAME",
                   help="input encoding, or 'auto' to detect one legacy encoding for all files "
                        f"(default {default_encoding})")
    for fam in FAMILIES:
        group = p.add_argument_group(f"{fam.title} (with -m {fam.key}; sacreBLEU's flags and defaults)")
        for f in fam.config.fields():
            if not f.setting.cli:
                continue
            kwargs: dict[str, Any] = {"dest": _dest(fam, f), "default": None, "help": f.setting.help}
            if f.kind is bool:
                kwargs["action"] = "store_true"
            else:
                kwargs["type"] = {int: int, float: float, tuple: float}.get(f.kind, str)
                kwargs["metavar"] = f.setting.metavar
                if f.kind is tuple:
                    kwargs["nargs"] = "+"
                if f.setting.choices is not None:
                    kwargs["choices"] = f.setting.choices
            group.add_argument(*setting_flags(fam, f), **kwargs)


def add_input_arguments(p: argparse.ArgumentParser) -> None:
    """How input files are read: formats, source, documents, which fields are systems and references."""
    g = p.add_argument_group("input formats (picked by extension and content; nothing is taken silently)")
    g.add_argument("--input-format", choices=FORMATS, help="read every input in this format (default: sniffed)")
    g.add_argument("--src", metavar="FILE", dest="source",
                   help="source segments: a text file, or the source side of a structured file (default: the "
                        "source inside a structured input, said in a note)")
    g.add_argument("--docs", metavar="FILE",
                   help="document id of each segment, one per line (or domain<TAB>document, as WMT writes them)")
    g.add_argument("--refs", nargs="+", metavar="NAME", dest="refs_wanted",
                   help="references to use by translator or field (A, ref:A), or a system of a long table "
                        "(Human-A.0) taken as the reference (default: every reference)")
    g.add_argument("--systems", nargs="+", metavar="NAME", dest="systems_wanted",
                   help="systems to score, in this order (default: all)")
    g.add_argument("--langs", nargs=2, metavar=("SRC", "TGT"),
                   help="the source and target languages: a TMX file's two to read, and the target language "
                        "that picks BLEU's tokenizer as sacrebleu -l does (zh, ja-mecab, ko-mecab)")
    g.add_argument("-l", "--language-pair", type=_language_pair, metavar="SRC-TGT",
                   help="the languages as sacreBLEU's -l takes them (en-ja): the same as --langs SRC TGT")
    g.add_argument("-t", "--test-set", metavar="NAME",
                   help="a test set by name from sacreBLEU's registry (wmt24, wmt14/full; with -l): its source, "
                        "references, documents and fields, from sacreBLEU's cache or its download")
    g.add_argument("--column", action="append", default=[], metavar="ROLE=NAME", dest="columns",
                   help=f"TSV/JSONL/workbooks: the column of a role ({', '.join(ROLES)}); repeat for several")
    g.add_argument("--sheet", metavar="NAME",
                   help="a workbook's sheet to read (.xlsx, .ods, .xls; default: the first)")
    g.add_argument("--keep-tags", action="store_true",
                   help="XLIFF/TMX: score inline tags as tokens (default: tags are not words and are taken out)")
    g.add_argument("--allow-identical-refs", action="store_true", dest="allow_identical",
                   help="score even when a reference equals a system line for line (refused by default)")
    g.add_argument("--scores", action="append", default=[], metavar="FILE",
                   help="segment scores from outside (COMET, MetricX, MQM): a TSV, CSV or JSONL with a system column, "
                        "seg_id or segment (1-based line), and a numeric column per metric; repeatable")
    g.add_argument("--lower-better", action="append", default=[], metavar="NAME",
                   help="an imported metric whose lower scores are better (MetricX); repeatable")
    g.add_argument("--scores-partial", action="store_true",
                   help="read a scores or annotations file that lacks a system or segment of the run (those scores "
                        "are missing)")
    g.add_argument("--annotations", action="append", default=[], metavar="FILE",
                   help="human error annotations (MQM): Google's or Marot's TSV, or JSONL spans {system, seg_id or "
                        "segment, start, end, severity, category, rater}, matched by system and segment as --scores; "
                        "-m mqm scores them; repeatable")
    g.add_argument("--where", action="append", default=[], metavar="EXPR",
                   help="score only the segments where EXPR holds, as a corpus of their own: doc=ID, origlang=en, "
                        "or comparisons joined by and/or/not over metadata, ref_words, src_words, hyp_words[NAME], "
                        "bleu[NAME], chrf[NAME], ter[NAME], an imported COMET[NAME], delta_bleu, COMET[NAME] is "
                        "missing; repeat to narrow")


def add_view_arguments(p: argparse.ArgumentParser) -> None:
    views = p.add_argument_group("explanations (instead of the score lines)")
    views.add_argument("--explain", type=int, metavar="N",
                       help="why sentence N (1-based) scores what it scores, for every system")
    views.add_argument("--disagree", nargs=2, metavar=("M1", "M2"),
                       help="the segments whose places differ most between two metrics of the run (each system), "
                            "with Spearman's rho; e.g. --disagree bleu COMET")
    views.add_argument("--top", type=int, metavar="N", help="segments listed by --disagree (default 10), and per system "
                       "pair by --meta-eval: the segments that pull the metric and the humans apart (default 3; JSON 10)")
    views.add_argument("--word-accuracy", action="store_true",
                       help="word accuracy by frequency bucket, as compare-mt's: matched, reference and output words, "
                            "recall, precision and F-measure per bucket and system (tokens of BLEU's tokenizer; -lc)")
    views.add_argument("--freq-file", metavar="FILE",
                       help="with --word-accuracy: count word frequencies in this corpus (default: the reference)")
    views.add_argument("--qa", nargs="*", choices=QA_CHECKS, metavar="CHECK",
                       help=f"translator QA checks per segment and system ({', '.join(QA_CHECKS)}; default all), with "
                            "what each system fixes and introduces against the baseline")
    views.add_argument("--glossary", metavar="FILE",
                       help="with --qa: a TSV of source term and target term(s) for the glossary check")
    views.add_argument("--qa-decisions", metavar="FILE",
                       help="with --qa or --triage: the flags a reviewer marked false positives (the window's Tools ▸ "
                            "QA checks writes them beside the review, REVIEW.qa.jsonl): left out and counted by --qa; "
                            "sending no segment to post-editing by --triage")
    views.add_argument("--error-recall", action="store_true",
                       help="which human-marked errors (MQM annotations) each metric of the run saw: per system and "
                            "metric the share of Major and Minor errors whose span its evidence touches, per "
                            "category, and the share of its flagged text in no error span (noise)")
    views.add_argument("--rater-agreement", action="store_true",
                       help="how often the raters of the annotations agree on an error and its severity, per "
                            "segment with several raters and overall")
    views.add_argument("--span-eval", nargs="?", const="", metavar="RATER",
                       help="which error detector finds the humans' error spans: every metric that marks spans "
                            "(xCOMET, an LLM judge) and every rater against RATER's spans (default: each segment's "
                            "first rater) — precision, recall and F1 by exact match, partial overlap, partial credit "
                            "(the headline), with severity, WMT25's and TowerEval's scorers; micro and macro, per "
                            "system, with 95%% intervals, a paired test and the raters' own agreement")
    views.add_argument("--error-free", action="store_true",
                       help="which score tells an error-free segment (WMT26): every metric of the run against the "
                            "human label (ESA ≥ 85 with no error span; MQM: no error): average precision, best F1, "
                            "and the threshold reaching --error-free-precision")
    views.add_argument("--error-free-threshold", type=float, metavar="SCORE",
                       help="with --error-free: the human ESA/DA score from which a segment without error spans is "
                            "error-free (default 85, WMT26's)")
    views.add_argument("--error-free-precision", type=float, metavar="P",
                       help="with --error-free: the precision the calibrated threshold reaches (default 0.95)")
    views.add_argument("--error-free-out", metavar="FILE",
                       help="with --error-free: write each metric's curve, signed with the human files, for "
                            "--triage calibrated:P --triage-calibration FILE on new text")
    views.add_argument("--scorecard", action="store_true",
                       help="a reviewer's scorecard of the annotations: errors by category and severity, penalty "
                            "points per 1,000 source words, quality and pass/fail, per system, document and rater "
                            "(MQM's scoring model)")
    views.add_argument("--scorecard-weights", metavar="SEVERITY=W,...",
                       help="with --scorecard: the penalty of each severity (default Neutral=0,Minor=1,Major=5,"
                            "Critical=25)")
    views.add_argument("--scorecard-threshold", type=float, metavar="Q",
                       help="with --scorecard: the quality (100 × (1 − penalty / words)) a text passes at (default 99: "
                            "at most 10 penalty points per 1,000 words)")
    views.add_argument("--scorecard-out", metavar="FILE", help="with --scorecard: also write it (.xlsx or .html)")
    views.add_argument("--meta-eval", metavar="HUMAN",
                       help="how well each metric of the run agrees with the human scores HUMAN (mqm, or an imported "
                            "column): mt-metrics-eval's system pairwise accuracy, Pearson and SPA, segment acc*_eq "
                            "with tie calibration, Pearson and Kendall, beside a constant and a random baseline")
    views.add_argument("--meta-eval-metrics", nargs="+", metavar="METRIC",
                       help="with --meta-eval: the metrics evaluated (default: every other metric of the run)")
    views.add_argument("--meta-eval-human-is-metric", action="store_true",
                       help="with --meta-eval: take a metric computed from the text (BLEU, COMET) as the humans "
                            "(refused otherwise: the humans are MQM or an imported column)")
    views.add_argument("--triage", metavar="RULE",
                       help="which segments need a human: the worst share a metric scores (20%%) or those past a "
                            "threshold (0.6; below it, or above for a lower-better metric), with the metric's spans "
                            "and the QA flags; the way to sort a run without references by a QE metric; "
                            "calibrated:0.95 (or kiwi>=calibrated:0.95): the threshold that a --triage-calibration "
                            "file says is error-free that often")
    views.add_argument("--triage-calibration", metavar="FILE",
                       help="with --triage calibrated:P: the calibration --error-free --error-free-out wrote on "
                            "human-rated segments (the metric's signature must be this run's)")
    views.add_argument("--triage-metric", metavar="METRIC",
                       help="with --triage: the metric that decides (default: the run's first)")
    views.add_argument("--triage-out", metavar="FILE",
                       help="with --triage: write it for post-editing: FILE.xlf/.xliff (the system's XLIFF with each "
                            "segment's decision and score added; the input is never changed), .tsv, .csv or .xlsx")
    views.add_argument("--tokenizer-table", action="store_true",
                       help="the corpus BLEU of every system under each tokenizer, cased and lowercased, with "
                            "each cell's signature (--format json: a list of objects; latex: a booktabs table)")


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog=PROG,
        description="BLEU exactly as sacreBLEU (default), NLTK or the d2l textbook compute it.",
        epilog="Exit status: 0 on success, 2 on bad input or bad options.")
    p.add_argument("-V", "--version", action=VersionAction)
    p.add_argument("refs", nargs="*", metavar="REF",
                   help="reference files or folders; or one file that holds systems and references (WMT XML, "
                        "a TSV/JSONL with a system column), scored without -i; none: a run without references "
                        "(quality estimation: -i and the source, --src or inside the inputs)")
    p.add_argument("-i", "--input", nargs="+", metavar="HYP", default=[], dest="systems",
                   help="system output file(s): text, or the target side of XLIFF/TMX/SGML/TSV/JSONL; - is standard "
                        "input (default: standard input when REF holds no system, as sacrebleu reads it)")
    add_input_arguments(p)
    add_scoring_arguments(p, default_encoding="utf-8")
    p.add_argument("-sl", "--sentence-level", action="store_true", help="one score per sentence")
    p.add_argument("--labels", nargs="+", metavar="NAME",
                   help="display names of the systems, one per -i file (default: the shortest path suffix "
                        "that tells the files apart)")
    p.add_argument("-b", "--score-only", action="store_true", help="print the score only")
    p.add_argument("-w", "--width", type=int, default=2, help="decimals in text output (default 2)")
    p.add_argument("--format", "-f", choices=("text", "json", "multi-bleu", "latex"), default="text",
                   help="latex: the systems table (booktabs), with --all-pairs also the p-value matrix")
    add_campaign_arguments(p)
    add_scale_arguments(p)
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
    sig.add_argument("--paired-bs-n", "-pbsn", type=int, metavar="N", help=f"resamples (default {BS_SAMPLES})")
    sig.add_argument("--paired-ar-n", "-parn", type=int, metavar="N", help=f"trials (default {AR_TRIALS})")
    sig.add_argument("--confidence", "-ci", action="store_true", help="95%% confidence interval by bootstrap")
    sig.add_argument("--confidence-n", "-cin", type=int, metavar="N", help=f"resamples (default {BS_SAMPLES})")
    add_view_arguments(p)
    out = p.add_argument_group("exports (written atomically; input files are never overwritten)")
    out.add_argument("--report", metavar="OUT.html|OUT.xlsx",
                     help="a self-contained HTML report; .xlsx: every metric's systems table and pairs as a workbook")
    out.add_argument("--report-top", type=int, default=100, metavar="N",
                     help="over 3,000 sentences the report shows the N worst, best and most changed (default 100)")
    out.add_argument("--export-sentences", metavar="OUT.csv|OUT.json|OUT.xlsx", help="per-sentence statistics")
    out.add_argument("--export-mtme", metavar="DIR",
                     help="the run in mt-metrics-eval's file layout under DIR/bleu-gui (sources, references, system "
                          "outputs, the human scores — MQM or the first scores column — and every other metric's "
                          "segment and system scores), to check it with MTME itself")
    return p


# -- the one reading of the Namespace ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ScoringChoice:
    """Which metrics ``-m`` names (None: the default) and each family's settings given on the command line."""

    metrics: tuple[str, ...] | None = None
    given: dict[str, dict[str, Any]] = field(default_factory=dict)  # family key -> {field: value}

    @property
    def any_given(self) -> bool:
        """Whether any flag chooses metrics or sets one's settings."""
        return self.metrics is not None or any(self.given.values())


@dataclass(frozen=True)
class Output:
    """How the scores are written: format, decimals, one score per sentence or a bare score, display names."""

    format: str = "text"
    width: int = 2
    score_only: bool = False
    sentence_level: bool = False
    labels: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Tests:
    """The paired tests and intervals asked for, with their resample counts (the defaults filled in)."""

    paired_bs: bool = False
    paired_ar: bool = False
    all_pairs: bool = False
    confidence: bool = False
    paired_bs_n: int = BS_SAMPLES
    paired_ar_n: int = AR_TRIALS
    confidence_n: int = BS_SAMPLES
    alpha: float | None = None
    correction: str | None = None

    @property
    def paired(self) -> bool:
        return self.paired_bs or self.paired_ar or self.all_pairs


@dataclass(frozen=True)
class Views:
    """The view that replaces the score lines (at most one) and what it reads."""

    explain: int | None = None
    disagree: tuple[str, str] | None = None
    top: int | None = None
    word_accuracy: bool = False
    freq_file: str | None = None
    qa: tuple[str, ...] | None = None
    glossary: str | None = None
    qa_decisions: str | None = None
    tokenizer_table: bool = False
    error_recall: bool = False
    rater_agreement: bool = False
    meta_eval: str | None = None
    meta_eval_metrics: tuple[str, ...] | None = None
    scorecard: bool = False
    scorecard_weights: str | None = None
    scorecard_threshold: float | None = None
    scorecard_out: str | None = None
    meta_eval_human_is_metric: bool = False
    triage: str | None = None
    triage_metric: str | None = None
    triage_out: str | None = None
    span_eval: str | None = None  # "": each segment's first rater
    error_free: bool = False
    error_free_threshold: float | None = None
    error_free_precision: float | None = None
    error_free_out: str | None = None
    triage_calibration: str | None = None

    def need_no_score(self) -> bool:
        """Whether the views asked read no metric (QA, the scorecard, triage by QA): a run of source and
        translation alone that nothing scores still shows them."""
        return self.qa is not None or self.scorecard or self.triage is not None

    def asked(self) -> list[str]:
        """The views asked for, as their flags."""
        return [flag for flag, on in (("--explain", self.explain is not None), ("--tokenizer-table", self.tokenizer_table),
                                      ("--disagree", self.disagree is not None), ("--word-accuracy", self.word_accuracy),
                                      ("--qa", self.qa is not None), ("--error-recall", self.error_recall),
                                      ("--rater-agreement", self.rater_agreement),
                                      ("--meta-eval", self.meta_eval is not None),
                                      ("--scorecard", self.scorecard), ("--triage", self.triage is not None),
                                      ("--span-eval", self.span_eval is not None),
                                      ("--error-free", self.error_free)) if on]


@dataclass(frozen=True)
class Exports:
    report: str | None = None
    report_top: int = 100
    sentences: str | None = None
    mtme: str | None = None  # a folder: the run in mt-metrics-eval's layout

    @property
    def targets(self) -> list[str]:
        return [t for t in (self.sentences, self.report) if t]


@dataclass(frozen=True)
class Options:
    """Everything ``bleu-score`` was asked, typed: what to read, how to score, what to write and show."""

    request: InputRequest
    where: tuple[str, ...]
    scoring: ScoringChoice
    output: Output
    tests: Tests
    views: Views
    exports: Exports
    humans: AskHumans | None = None
    scale: Scale = Scale()


def scoring_choice(args: argparse.Namespace) -> ScoringChoice:
    """``-m`` and every family's settings flag that was given."""
    given: dict[str, dict[str, Any]] = {}
    for fam in FAMILIES:
        values = {f.name: getattr(args, _dest(fam, f)) for f in fam.config.fields()
                  if f.setting.cli and getattr(args, _dest(fam, f)) is not None}
        given[fam.key] = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
    return ScoringChoice(tuple(args.metrics) if args.metrics else None, given)


def _language_pair(value: str) -> tuple[str, str]:
    """sacreBLEU's ``-l SRC-TGT`` (``en-ja``; the target may carry a region or script: ``en-zh-Hant``)."""
    source, _, target = value.partition("-")
    if not source or not target:
        raise argparse.ArgumentTypeError(f"a language pair is SRC-TGT (en-ja, de-en), got {value!r}")
    return source, target


def input_request(args: argparse.Namespace, systems: Sequence[str], references: Sequence[str]) -> InputRequest:
    """The files and the input flags as one :class:`InputRequest` (``bleu-score`` and ``bleu-gui`` alike)."""
    from ..core.inputs.run_inputs import InputRequest  # what reads the files: not loaded to print --help

    langs = args.langs or args.language_pair  # --langs SRC TGT, or sacreBLEU's -l SRC-TGT
    options = ReadOptions(args.input_format, args.keep_tags, tuple(langs) if langs else None,
                          parse_columns(args.columns), args.sheet)
    return InputRequest(systems=tuple(systems), references=tuple(references), encoding=args.encoding,
                        source=args.source, docs=args.docs, options=options,
                        refs_wanted=tuple(args.refs_wanted) if args.refs_wanted else None,
                        systems_wanted=tuple(args.systems_wanted) if args.systems_wanted else None,
                        allow_identical=args.allow_identical, scores=tuple(args.scores),
                        lower_better=tuple(args.lower_better), scores_partial=args.scores_partial,
                        annotations=tuple(args.annotations), test_set=args.test_set)


def _tests(args: argparse.Namespace) -> Tests:
    """The tests asked for; a resample count nothing would use is refused, the defaults fill those not given."""
    report = bool(args.report) and (len(args.systems) > 1 or not args.systems)  # a report comparing systems
    used = (("--paired-bs-n", args.paired_bs_n, args.paired_bs or args.all_pairs or report,
             "--paired-bs and --all-pairs (and a report comparing systems)", MAX_BS_SAMPLES),
            ("--paired-ar-n", args.paired_ar_n, args.paired_ar or args.all_pairs or report,
             "--paired-ar and --all-pairs (and a report comparing systems)", MAX_AR_TRIALS),
            ("--confidence-n", args.confidence_n, args.confidence, "--confidence", MAX_BS_SAMPLES))
    for flag, n, wanted, owners, ceiling in used:
        if n is not None and not wanted:
            raise InputError(f"{flag} applies to {owners} only; here it would be ignored")
        if n is not None:
            check_resamples(flag, n, ceiling)
    return Tests(args.paired_bs, args.paired_ar, args.all_pairs, args.confidence,
                 BS_SAMPLES if args.paired_bs_n is None else args.paired_bs_n,
                 AR_TRIALS if args.paired_ar_n is None else args.paired_ar_n,
                 BS_SAMPLES if args.confidence_n is None else args.confidence_n, args.alpha, args.correction)


def options(args: argparse.Namespace) -> Options:
    """``bleu-score``'s parsed flags as typed options (the one reading of its Namespace)."""
    return Options(
        request=input_request(args, args.systems, args.refs), where=tuple(args.where), scoring=scoring_choice(args),
        output=Output(args.format, args.width, args.score_only, args.sentence_level,
                      tuple(args.labels) if args.labels else None),
        tests=_tests(args),
        views=Views(args.explain, tuple(args.disagree) if args.disagree else None, args.top, args.word_accuracy,
                    args.freq_file, tuple(args.qa) if args.qa is not None else None, args.glossary,
                    args.qa_decisions,
                    args.tokenizer_table, args.error_recall, args.rater_agreement, args.meta_eval,
                    tuple(args.meta_eval_metrics) if args.meta_eval_metrics else None, args.scorecard,
                    args.scorecard_weights, args.scorecard_threshold, args.scorecard_out,
                    args.meta_eval_human_is_metric, args.triage, args.triage_metric, args.triage_out,
                    args.span_eval, args.error_free, args.error_free_threshold, args.error_free_precision,
                    args.error_free_out, args.triage_calibration),
        exports=Exports(args.report, args.report_top, args.export_sentences, args.export_mtme),
        humans=ask_humans(args), scale=scale_options(args))


# -- from the choice to the metrics -----------------------------------------------------------------------------

def metric_configs(choice: ScoringChoice, imported: Sequence[ImportedConfig] = (), columns_later: bool = False,
                   base: Sequence[MetricConfig] = (), referenced: bool = True,
                   unscored_ok: bool = False) -> tuple[MetricConfig, ...]:
    """The metrics ``-m`` asks for (the registry's default and every ``imported`` metric when it is not given),
    each with the settings given for it (on top of its family's settings in ``base``: the window's saved ones); a
    family's setting without that family among the metrics, or one its other settings do not read, is refused,
    never ignored. ``columns_later``: the score files are read later (the window reads them in its worker): only
    the families' metrics are returned. Not ``referenced``: the run has no reference, no family that needs one
    is a default, and one named is refused; ``unscored_ok``: a run that nothing scores is what is asked for (its
    views need no score): it gets the stand-in that says so (:mod:`..core.metrics.unscored`)."""
    by_name = {m.name: m for m in imported}
    names = list(choice.metrics or [*default_keys(referenced), *by_name])
    if not names and unscored_ok and not any(choice.given.values()):
        return unscored()
    if not names and not columns_later:
        raise InputError(f"a run without references has no default metric: name one with {term('metrics')} (comet with "
                         f"a reference-free checkpoint: {term('comet.model', 'Unbabel/wmt22-cometkiwi-da')}; an LLM "
                         f"judge: llm), read QE scores with {term('scores')}, or ask for what needs no score "
                         f"({term('qa')}, {term('scorecard')})")
    if len(set(names)) != len(names):
        raise InputError(f"{term('metrics')}: each metric once, got {' '.join(names)}")
    if not columns_later:
        choose_imported(imported, [n for n in names if n not in KEYS], KEYS)
    for key, values in choice.given.items():
        if values and key not in names:
            said = ", ".join(term(f"{key}.{name}") for name in values)
            title = family(key).title
            raise InputError(f"{said}: {'a ' if len(values) == 1 else ''}{title} setting{'s' if len(values) > 1 else ''}"
                             f", and {title} is not among the metrics ({term('metrics')} {' '.join(names)}); add {key} "
                             f"to {term('metrics')} or leave the flag out")
    made: dict[str, MetricConfig] = {}
    for name in names:
        # A scores file's column named as a family (a "comet" column, common in WMT's files) is the column, as it was
        # before COMET was computed here; the family's own flags ask for the family.
        if name in by_name and not choice.given.get(name):
            made[name] = by_name[name]
        elif name in KEYS:
            made[name] = _family_config(family(name), choice.given.get(name, {}), base)
    chosen = tuple(made[name] for name in names if name in made)
    check_references(chosen, referenced)
    return chosen


def _family_config(fam: Family, given: dict[str, Any], base: Sequence[MetricConfig]) -> MetricConfig:
    start: Any = next((m for m in base if m.key == fam.key), None) or fam.config()
    config = replace(start, **given)
    for name in given:
        if not config.applies(name):
            raise InputError(f"{term(f'{fam.key}.{name}')} {config.why_unread(name)}")
    config.check_given(given)
    validated: MetricConfig = config.validated()
    return validated


def words(parser: argparse.ArgumentParser) -> Any:
    """How this command says a field of a message: its flag (``-tok``, ``--langs``), with the value given."""
    flags: dict[str, list[str]] = {}
    for action in parser._actions:  # argparse keeps its actions here: the one table of what each flag sets
        if action.option_strings:
            flags[action.dest.replace("__", ".")] = list(action.option_strings)
    flags.setdefault("references", ["REF"])

    def word(name: str, value: str | None) -> str:
        spellings = flags.get(name, [name])
        return "/".join(spellings) if value is None else f"{spellings[0]} {value}"

    return word


def worded_error(parser: argparse.ArgumentParser, exc: Exception) -> str:
    """An error's message in this command's words."""
    raw = exc.raw if isinstance(exc, InputError) else str(exc)
    return worded(raw, words(parser))
