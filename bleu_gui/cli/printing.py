"""What ``bleu-score`` prints: score lines, paired tests, tables, and the views that replace them."""

from __future__ import annotations

import argparse
import json
import sys

from ..core import InputError, Run, Score
from ..core.analysis.pair_matrix import DEFAULT_ALPHA
from ..core.output import score_text
from ..core.run import ScoredSystem, bleu_lines, scored_already


def _sentence_scores(run: Run, system: ScoredSystem, metric: int = 0) -> list[Score]:
    stats = system.results[metric].stats
    return [run.metrics[metric].sentence_score(stats, i) for i in range(len(stats))]


def emit(args: argparse.Namespace, run: Run, corpus: list[Score], confidences: list[tuple[float, float]] | None = None) -> None:
    out = sys.stdout
    names = [s.name for s in run.systems]
    sentences = [_sentence_scores(run, s) for s in run.systems] if args.sentence_level else None
    if args.format == "json":
        objs = []
        for i, name in enumerate(names):
            obj = score_text.score_dict(corpus[i], name)
            if confidences is not None:
                obj["mean"], obj["ci"] = confidences[i]
            if sentences is not None:
                obj["sentences"] = [score_text.score_dict(s) for s in sentences[i]]
            objs.append(obj)
        print(score_text.dumps(objs[0] if len(objs) == 1 else objs), file=out)
        return
    for i, name in enumerate(names):
        scores = sentences[i] if sentences is not None else [corpus[i]]
        if args.score_only:
            lines = [score_text.score_only(s, args.width) for s in scores]
        elif confidences is not None and args.format == "text":
            lines = [score_text.text_line(scores[0], args.width, confidences[i])]
        else:
            lines = score_text.render(scores, args.format, args.width)
        prefix = f"{name}: " if len(names) > 1 and not args.score_only else ""
        for line in lines:
            print(prefix + line, file=out)


def print_paired(args: argparse.Namespace, run: Run) -> None:
    key = "bs" if args.paired_bs else "ar"
    comparison = run.comparison
    assert comparison is not None and comparison.significance is not None  # checked before scoring (check_tests)
    significance = comparison.significance
    by = comparison.by_metric[0]
    results = by.bootstrap if args.paired_bs else by.approximate
    assert results is not None
    n = significance.bootstrap if args.paired_bs else significance.approximate
    signature = run.metrics[0].signature(resampling={key: n, "seed": str(significance.seed).lower()})
    if args.format == "json":
        objs: list[dict[str, object]] = []
        for system, r in zip(run.systems, results):
            obj = score_text.score_dict(system.results[0].corpus, system.name)
            obj.update({"signature": signature, "p_value": r.p_value, "mean": r.mean, "ci": r.ci})
            if comparison.identical[len(objs)]:
                obj["identical_to_baseline"] = True
            objs.append(obj)
        print(score_text.dumps(objs))
        return
    rows = [(("Baseline: " if i == 0 else "") + r.name, r.score, r.p_value, r.mean, r.ci, comparison.identical[i])
            for i, r in enumerate(results)]
    print(score_text.paired_table(rows, args.width, bootstrap=args.paired_bs))
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
            print(f" - {system.name}: {score_text.IDENTICAL_NOTE}.")
    print()
    print("-----------------")
    print("Metric signatures")
    print("-----------------")
    print(f" - BLEU       {signature}")


def print_tables(args: argparse.Namespace, run: Run) -> None:
    """``--all-pairs`` (text, JSON or LaTeX) and ``--format latex`` (the systems table)."""
    from ..core.output import rankings

    ranking = rankings.Ranking(args.alpha if args.alpha is not None else DEFAULT_ALPHA, args.correction or "none")
    if args.format == "latex":
        print(rankings.matrix_latex(run, ranking) if args.all_pairs else rankings.systems_latex(run, ranking,
                                                                                             args.width))
    elif args.format == "json":
        print(rankings.matrix_json(run, ranking))
    else:
        print(rankings.matrix_text(run, ranking, args.width))


def print_view(args: argparse.Namespace, run: Run) -> None:
    """Print the view ``args`` asked for (after :func:`check_views`)."""
    if args.tokenizer_table:
        from ..core.analysis.tokenizer_table import tokenizer_table

        table = tokenizer_table(scored_already(run), [r.lines for r in run.references])
        text = {"json": table.to_json, "latex": table.to_latex}.get(args.format)
        print(text() if text is not None else table.to_text(args.width), end="" if text is None else "\n")
        return
    from ..core.analysis.whatif import scored_line  # only here: the usual scoring command does not pay its import

    n = args.explain
    if n > run.n_sentences:
        raise InputError(f"--explain {n}: the files have {run.n_sentences:,} sentences")
    accounts = [(s.name, scored_line(bleu_lines(run, i), n - 1).explanation) for i, s in enumerate(run.systems)]
    if args.format == "json":
        print(json.dumps([{"system": name, "sentence": n, "headline": e.headline,
                           "sections": [{"title": s.title, "lines": s.lines} for s in e.sections]}
                          for name, e in accounts], ensure_ascii=False, indent=2))
        return
    for k, (name, e) in enumerate(accounts):
        print(("\n" if k else "") + f"Sentence {n} — {name}\n{e.text()}")
