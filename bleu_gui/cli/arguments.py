"""The flags of ``bleu-score`` and ``bleu-gui``, defined once: what they read, how they score, what they show."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence
from typing import Any, NoReturn

from ..core import BleuConfig, InputError, MetricConfig
from ..core.analysis.pair_matrix import CORRECTIONS
from ..core.analysis.qa import CHECKS as QA_CHECKS
from ..core.analysis.significance import AR_TRIALS, BS_SAMPLES
from ..core.inputs.format_table import FORMATS, ReadOptions
from ..core.inputs.run_inputs import InputRequest
from ..core.inputs.tables import ROLES
from ..core.metrics.bleu.config import EMPTY_REF_RULES, NLTK_METHODS, SMOOTH_METHODS
from ..core.metrics.bleu.variant import VARIANTS, get_variant
from ..core.metrics.catalog import KEYS
from ..core.metrics.chrf.chrf import ChrfConfig
from ..core.metrics.imported.imported import ImportedConfig, choose_imported
from ..core.metrics.ter.ter import TerConfig
from ..core.metrics.tokenizers import TOKENIZER_NAMES

PROG = "bleu-score"


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




def add_scoring_arguments(p: argparse.ArgumentParser, default_encoding: str) -> None:
    """The flags that change a number, shared by ``bleu-score`` and ``bleu-gui``; not given means None."""
    p.add_argument("-m", "--metrics", nargs="+", default=None, metavar="METRIC",
                   help="metrics to compute, in this order: bleu, chrf, ter, or a column of --scores (default: bleu, "
                        "and every column of --scores)")
    p.add_argument("-tok", "--tokenize", choices=TOKENIZER_NAMES, default=None,
                   help="sacreBLEU tokenizer (default: 13a for sacrebleu, or zh, ja-mecab, ko-mecab when the input declares that "
                        "target language; none = whitespace for nltk and d2l)")
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
    chrf = p.add_argument_group("chrF (with -m chrf; sacreBLEU's flags and defaults)")
    chrf.add_argument("--chrf-char-order", "-cc", type=int, default=None, metavar="N",
                      help="character n-gram order (default 6)")
    chrf.add_argument("--chrf-word-order", "-cw", type=int, default=None, metavar="N",
                      help="word n-gram order (default 0; 2 gives chrF++)")
    chrf.add_argument("--chrf-beta", type=int, default=None, metavar="B",
                      help="recall is B times as important as precision (default 2)")
    chrf.add_argument("--chrf-whitespace", action="store_true", default=None,
                      help="keep whitespace in character n-grams")
    chrf.add_argument("--chrf-lowercase", action="store_true", default=None, help="lowercase before chrF")
    chrf.add_argument("--chrf-eps-smoothing", action="store_true", default=None,
                      help="average the orders' F-scores with epsilon smoothing (chrF++.py, NLTK and Moses)")
    ter = p.add_argument_group("TER (with -m ter; sacreBLEU's flags and defaults)")
    ter.add_argument("--ter-case-sensitive", action="store_true", default=None,
                     help="do not lowercase before TER")
    ter.add_argument("--ter-asian-support", action="store_true", default=None,
                     help="split Chinese and Japanese characters (with --ter-normalized) and drop their punctuation "
                          "(with --ter-no-punct)")
    ter.add_argument("--ter-no-punct", action="store_true", default=None, help="remove punctuation before TER")
    ter.add_argument("--ter-normalized", action="store_true", default=None,
                     help="Tercom's normalisation: XML entities, punctuation split off, hyphenation joined")



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
    g.add_argument("--systems", nargs="+", metavar="NAME", dest="systems_wanted",
                   help="systems to score, in this order (default: all)")
    g.add_argument("--langs", nargs=2, metavar=("SRC", "TGT"),
                   help="the source and target languages: a TMX file's two to read, and the target language "
                        "that picks BLEU's tokenizer as sacrebleu -l does (zh, ja-mecab, ko-mecab)")
    g.add_argument("--column", action="append", default=[], metavar="ROLE=NAME",
                   help=f"TSV/JSONL: the column of a role ({', '.join(ROLES)}); repeat for several")
    g.add_argument("--keep-tags", action="store_true",
                   help="XLIFF/TMX: score inline tags as tokens (default: tags are not words and are taken out)")
    g.add_argument("--allow-identical-refs", action="store_true",
                   help="score even when a reference equals a system line for line (refused by default)")
    g.add_argument("--scores", action="append", default=[], metavar="FILE",
                   help="segment scores from outside (COMET, MetricX, MQM): a TSV, CSV or JSONL with a system column, "
                        "seg_id or segment (1-based line), and a numeric column per metric; repeatable")
    g.add_argument("--lower-better", action="append", default=[], metavar="NAME",
                   help="an imported metric whose lower scores are better (MetricX); repeatable")
    g.add_argument("--scores-partial", action="store_true",
                   help="read a scores file that lacks a system or segment of the run (those scores are missing)")
    g.add_argument("--where", action="append", default=[], metavar="EXPR",
                   help="score only the segments where EXPR holds, as a corpus of their own: doc=ID, origlang=en, "
                        "or comparisons joined by and/or/not over metadata, ref_words, src_words, hyp_words[NAME], "
                        "bleu[NAME], chrf[NAME], ter[NAME], an imported COMET[NAME], delta_bleu; repeat to narrow")



def input_request(args: argparse.Namespace, systems: Sequence[str], references: Sequence[str]) -> InputRequest:
    """The files and the input flags as one :class:`InputRequest` (``bleu-score`` and ``bleu-gui`` alike)."""
    return InputRequest(tuple(systems), tuple(references), args.encoding, args.src, args.docs, read_options(args),
                        tuple(args.refs_wanted) if args.refs_wanted else None,
                        tuple(args.systems_wanted) if args.systems_wanted else None, args.allow_identical_refs,
                        tuple(args.scores), tuple(args.lower_better), args.scores_partial)


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


_CHRF_FIELDS = {"chrf_char_order": "char_order", "chrf_word_order": "word_order", "chrf_beta": "beta",
                "chrf_whitespace": "whitespace", "chrf_lowercase": "lowercase", "chrf_eps_smoothing": "eps_smoothing"}
_TER_FIELDS = {"ter_case_sensitive": "case_sensitive", "ter_asian_support": "asian_support",
               "ter_no_punct": "no_punct", "ter_normalized": "normalized"}


def metric_flags_given(args: argparse.Namespace) -> bool:
    """Whether any flag chooses metrics or sets one's settings."""
    return bool(args.metrics) or any(getattr(args, dest) is not None
                                     for fields in (_FIELDS, _CHRF_FIELDS, _TER_FIELDS) for dest in fields)


def _given(args: argparse.Namespace, fields: dict[str, str]) -> dict[str, Any]:
    return {field: getattr(args, dest) for dest, field in fields.items() if getattr(args, dest) is not None}


def _flag(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def metric_configs(args: argparse.Namespace, base: BleuConfig, imported: Sequence[ImportedConfig] = (),
                   columns_later: bool = False) -> tuple[MetricConfig, ...]:
    """The metrics ``-m`` asks for (BLEU and every ``imported`` metric by default), each with the flags given
    for it; a metric's flag without that metric is refused, never ignored. ``columns_later``: the score files are
    read later (the window reads them in its worker): names that are not built in are left to
    :func:`~..core.metrics.imported.choose_imported` then, and only the built-in metrics are returned."""
    by_name = {m.name: m for m in imported}
    names = list(args.metrics or ["bleu", *by_name])
    if len(set(names)) != len(names):
        raise InputError(f"-m/--metrics: each metric once, got {' '.join(names)}")
    if columns_later and args.scores:
        names = [n for n in names if n in KEYS]
    else:
        choose_imported(imported, [n for n in names if n not in KEYS], KEYS)
    for key, fields in (("bleu", _FIELDS), ("chrf", _CHRF_FIELDS), ("ter", _TER_FIELDS)):
        unused = [_BLEU_FLAG_NAMES.get(dest, _flag(dest)) for dest in fields if getattr(args, dest) is not None]
        if unused and key not in names:
            metric = {"bleu": "BLEU", "chrf": "chrF", "ter": "TER"}[key]
            raise InputError(f"{', '.join(unused)}: {'a ' if len(unused) == 1 else ''}{metric} setting"
                             f"{'s' if len(unused) > 1 else ''}, and {metric} is not among the metrics "
                             f"(-m {' '.join(names)}); add {key} to -m or leave the flag out")
    made: dict[str, MetricConfig] = {}
    if "bleu" in names:
        made["bleu"] = config_from_args(args, base)
    if "chrf" in names:
        made["chrf"] = dataclasses.replace(ChrfConfig(), **_given(args, _CHRF_FIELDS)).validated()
    if "ter" in names:
        made["ter"] = dataclasses.replace(TerConfig(), **_given(args, _TER_FIELDS)).validated()
    made.update({name: by_name[name] for name in names if name in by_name})
    return tuple(made[name] for name in names)


def config_from_args(args: argparse.Namespace, base: BleuConfig) -> BleuConfig:
    """``base`` with every scoring flag that was given; a flag the variant does not read is refused."""
    given = _given(args, _FIELDS)
    if "weights" in given:
        given["weights"] = tuple(given["weights"])
        if "max_order" in given and given["max_order"] != len(given["weights"]):
            raise InputError(f"--max-ngram-order {given['max_order']} with {len(given['weights'])} weights: give one "
                             "weight per order (the weights set the order)")
    variant_name = str(given.get("variant", base.variant))
    variant = get_variant(variant_name)
    for field, flag in _VARIANT_FLAGS.items():
        if field in given and field not in variant.settings:
            owners = [name for name in VARIANTS if field in get_variant(name).settings]
            raise InputError(f"{flag} applies to the {' and '.join(owners)} variant only, not {variant_name}")
    return dataclasses.replace(base, **given).validated()


def add_view_arguments(p: argparse.ArgumentParser) -> None:
    views = p.add_argument_group("explanations (instead of the score lines)")
    views.add_argument("--explain", type=int, metavar="N",
                       help="why sentence N (1-based) scores what it scores, for every system")
    views.add_argument("--disagree", nargs=2, metavar=("M1", "M2"),
                       help="the segments whose places differ most between two metrics of the run (each system), "
                            "with Spearman's rho; e.g. --disagree bleu COMET")
    views.add_argument("--top", type=int, metavar="N", help="segments listed by --disagree (default 10)")
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
    views.add_argument("--tokenizer-table", action="store_true",
                       help="the corpus BLEU of every system under each tokenizer, cased and lowercased, with "
                            "each cell's signature (--format json: a list of objects; latex: a booktabs table)")


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog=PROG,
        description="BLEU exactly as sacreBLEU (default), NLTK or the d2l textbook compute it.",
        epilog="Exit status: 0 on success, 2 on bad input or bad options.")
    p.add_argument("-V", "--version", action=VersionAction)
    p.add_argument("refs", nargs="+", metavar="REF",
                   help="reference files or folders; or one file that holds systems and references (WMT XML, "
                        "a TSV/JSONL with a system column), scored without -i")
    p.add_argument("-i", "--input", nargs="+", metavar="HYP", default=[],
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
    out.add_argument("--report", metavar="OUT.html", help="a self-contained HTML report")
    out.add_argument("--report-top", type=int, default=100, metavar="N",
                     help="over 3,000 sentences the report shows the N worst, best and most changed (default 100)")
    out.add_argument("--export-sentences", metavar="OUT.csv|OUT.json", help="per-sentence statistics")
    return p



# How the BLEU flags are named on the command line (for messages).
_BLEU_FLAG_NAMES = {"tokenize": "-tok/--tokenize", "lowercase": "-lc/--lowercase", "smooth_method": "-s/--smooth-method",
                    "smooth_value": "-sv/--smooth-value", "max_ngram_order": "--max-ngram-order",
                    "weights": "--weights", "variant": "--variant", "nltk_smoothing": "--nltk-smoothing",
                    "auto_reweigh": "--auto-reweigh", "empty_refs": "--empty-refs"}

# Settings that only some variants read (their flags set the field of the same name): giving one to another
# variant is refused, never ignored.
_VARIANT_FLAGS = {field: _BLEU_FLAG_NAMES[field]
                  for field in ("smooth_method", "smooth_value", "nltk_smoothing", "weights", "auto_reweigh")}
