"""``bleu-score``: BLEU from the command line, with sacreBLEU's flags. Uses only the core."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from .core import BleuConfig, BleuScore, Evaluator, InputError, read_inputs
from .core import formats
from .core.config import NLTK_METHODS, SMOOTH_METHODS, VARIANTS
from .core.tokenizers import TOKENIZER_NAMES

PROG = "bleu-score"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG,
        description="BLEU exactly as sacreBLEU (default), NLTK or the d2l textbook compute it.",
        epilog="Exit status: 0 on success, 2 on bad input or bad options.")
    p.add_argument("refs", nargs="+", metavar="REF", help="reference files, or folders of reference files")
    p.add_argument("-i", "--input", nargs="+", metavar="HYP", required=True, help="system output file(s)")
    p.add_argument("-tok", "--tokenize", choices=TOKENIZER_NAMES, default=None,
                   help="sacreBLEU tokenizer (default: 13a for sacrebleu, none = whitespace for nltk and d2l)")
    p.add_argument("-lc", "--lowercase", action="store_true", help="lowercase before tokenizing")
    p.add_argument("-s", "--smooth-method", choices=SMOOTH_METHODS, default="exp",
                   help="sacreBLEU smoothing (default: exp)")
    p.add_argument("-sv", "--smooth-value", type=float, default=None,
                   help="value for floor (default 0.1) and add-k (default 1)")
    p.add_argument("--max-ngram-order", type=int, default=4, metavar="N", help="highest n-gram order, 1..9 (default 4)")
    p.add_argument("--weights", type=float, nargs="+", metavar="W", help="n-gram weights (nltk variant)")
    p.add_argument("--variant", choices=VARIANTS, default="sacrebleu", help="whose BLEU to compute")
    p.add_argument("--nltk-smoothing", type=int, choices=NLTK_METHODS, default=0, metavar="0..7",
                   help="NLTK SmoothingFunction().methodK (default 0)")
    p.add_argument("--auto-reweigh", action="store_true", help="NLTK's auto_reweigh")
    p.add_argument("-sl", "--sentence-level", action="store_true", help="one score per sentence")
    p.add_argument("-e", "--encoding", default="utf-8",
                   help="input encoding, or 'auto' to detect legacy encodings (default utf-8)")
    p.add_argument("-b", "--score-only", action="store_true", help="print the score only")
    p.add_argument("-w", "--width", type=int, default=2, help="decimals in text output (default 2)")
    p.add_argument("--format", "-f", choices=("text", "json", "multi-bleu"), default="text")
    return p


def _config(args: argparse.Namespace) -> BleuConfig:
    return BleuConfig(
        variant=args.variant, tokenizer=args.tokenize, lowercase=args.lowercase,
        smooth_method=args.smooth_method, smooth_value=args.smooth_value,
        max_order=args.max_ngram_order, weights=tuple(args.weights) if args.weights else None,
        nltk_smoothing=args.nltk_smoothing, auto_reweigh=args.auto_reweigh,
    ).validated()


def _sentence_scores(evaluator: Evaluator, stats) -> list[BleuScore]:
    rows = evaluator.sentence_scores(stats)
    sig = evaluator.signature(sentence_level=True)
    return [BleuScore.from_rows(rows, i, evaluator.config.variant, sig) for i in range(len(stats))]


def _emit(args, names: list[str], corpus: list[BleuScore], sentences: list[list[BleuScore]] | None) -> None:
    out = sys.stdout
    if args.format == "json":
        objs = []
        for i, name in enumerate(names):
            obj = formats.score_dict(corpus[i], name)
            if sentences is not None:
                obj["sentences"] = [formats.score_dict(s) for s in sentences[i]]
            objs.append(obj)
        print(formats.dumps(objs[0] if len(objs) == 1 else objs), file=out)
        return
    for i, name in enumerate(names):
        scores = sentences[i] if sentences is not None else [corpus[i]]
        if args.score_only:
            lines = [formats.score_only(s, args.width) for s in scores]
        else:
            lines = formats.render(scores, args.format, args.width)
        prefix = f"{name}: " if len(names) > 1 and not args.score_only else ""
        for line in lines:
            print(prefix + line, file=out)


def run(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        cfg = _config(args)
        hyps, refs = read_inputs(args.input, args.refs, args.encoding)
        for f in [*refs, *hyps]:
            if f.detected:
                print(f"{PROG}: {f.path}: encoding {f.encoding} (detected)", file=sys.stderr)
        evaluator = Evaluator([r.lines for r in refs], cfg)
        names, corpus, sentences = [], [], []
        for h in hyps:
            stats = evaluator.statistics(h.lines)
            names.append(str(h.path))
            corpus.append(evaluator.corpus_score(stats))
            if args.sentence_level:
                sentences.append(_sentence_scores(evaluator, stats))
        for note in evaluator.notes:
            print(f"{PROG}: note: {note}", file=sys.stderr)
    except InputError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    _emit(args, names, corpus, sentences if args.sentence_level else None)
    return 0


def main() -> None:
    sys.exit(run())


if __name__ == "__main__":
    main()
