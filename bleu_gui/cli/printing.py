"""What ``bleu-score`` prints: score lines, paired tests, tables, and the views that replace them."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable

import numpy as np

from ..core import InputError, Run, Score
from ..core.analysis.pair_matrix import DEFAULT_ALPHA, PairMatrix
from ..core.analysis.significance import Interval
from ..core.errors import worded
from ..core.inputs.text_files import SegmentFile
from ..core.json_text import strict_dumps
from ..core.output import score_text
from ..core.run import ScoredSystem, scored_already
from .arguments import PROG, Options


def _sentence_scores(run: Run, system: ScoredSystem, metric: int = 0) -> list[Score]:
    stats = system.results[metric].stats
    return [run.metrics[metric].sentence_score(stats, i) for i in range(len(stats))]


def _segment_key(run: Run, j: int) -> dict[str, object]:
    """A sentence entry's line in the input (a slice keeps the whole corpus's), and its segment id and document
    where the input has them."""
    ids, docs = run.context.segment_ids, run.context.docs
    return {"line": run.line_number(j), **({"seg_id": ids[j]} if ids is not None else {}),
            **({"doc": docs[j]} if docs is not None else {})}


def emit(o: Options, run: Run, corpus: list[list[Score]],
         confidences: list[list[Interval]] | None = None) -> None:
    """The score lines: ``corpus[system][metric]``; ``confidences[metric][system]`` with ``--confidence``."""
    out = sys.stdout
    names = [s.name for s in run.systems]
    metrics = range(len(run.metrics))
    sentences = ([[_sentence_scores(run, s, k) for k in metrics] for s in run.systems] if o.output.sentence_level
                 else None)
    if o.output.format == "json":
        objs = []
        for i, name in enumerate(names):
            for k in metrics:
                obj = score_text.score_dict(corpus[i][k], name)
                obj.update(run.metrics[k].system_details(run.systems[i].file))
                if confidences is not None:
                    interval = confidences[k][i]
                    obj["mean"], obj["ci"] = interval.mean, interval.half_width
                    if interval.why_none is not None:
                        obj["why_no_interval"] = interval.why_none
                if sentences is not None:
                    obj["sentences"] = [score_text.score_dict(s) | _segment_key(run, j)
                                        for j, s in enumerate(sentences[i][k])]
                objs.append(obj)
        print(score_text.dumps(objs[0] if len(objs) == 1 else objs), file=out)
        return
    for i, name in enumerate(names):
        lines = []
        for k in metrics:
            scores = sentences[i][k] if sentences is not None else [corpus[i][k]]
            if o.output.score_only:
                lines += [score_text.score_only(s, o.output.width) for s in scores]
            elif confidences is not None and o.output.format == "text":
                interval = confidences[k][i]
                lines.append(score_text.text_line(scores[0], o.output.width, interval.pair)
                             + (f" (no interval: {interval.why_none})" if interval.why_none else ""))
            else:
                lines += score_text.render(scores, o.output.format, o.output.width)
        if sentences is None and not o.output.score_only and o.output.format == "text":
            lines = score_text.aligned(lines)
        prefix = f"{name}: " if len(names) > 1 and not o.output.score_only else ""
        for line in lines:
            print(prefix + line, file=out)


def print_paired(o: Options, run: Run) -> None:
    key = "bs" if o.tests.paired_bs else "ar"
    comparison = run.comparison
    assert comparison is not None and comparison.significance is not None  # checked before scoring (check_tests)
    significance = comparison.significance
    tests = [by.bootstrap if o.tests.paired_bs else by.approximate for by in comparison.by_metric]
    n = significance.bootstrap if o.tests.paired_bs else significance.approximate
    signatures = [m.signature(resampling={key: n, "seed": str(significance.seed).lower()}) for m in run.metrics]
    if o.output.format == "json":
        objs: list[dict[str, object]] = []
        for i, system in enumerate(run.systems):
            for k, results in enumerate(tests):
                assert results is not None
                r = results[i]
                obj = score_text.score_dict(system.results[k].corpus, system.name)
                obj.update({"signature": signatures[k], "p_value": r.p_value, "mean": r.mean, "ci": r.ci})
                matrix = comparison.by_metric[k].matrix
                obj.update(_gaps(matrix, i, key))
                if matrix is not None and key == "bs" and matrix.no_interval(i) is not None:
                    obj["why_no_interval"] = matrix.no_interval(i)
                if comparison.identical[i]:
                    obj["identical_to_baseline"] = True
                objs.append(obj)
        print(score_text.dumps(objs))
        return
    names = [m.name for m in run.metrics]
    cells = []
    for i in range(len(run.systems)):
        row = []
        for k, results in enumerate(tests):
            assert results is not None
            r, matrix = results[i], comparison.by_metric[k].matrix
            may_star = matrix is not None and i > 0 and matrix.can_be_significant(0, i)
            row.append((r.score, r.p_value, r.mean, r.ci, may_star))
        cells.append(row)
    rows = [(("Baseline: " if i == 0 else "") + s.name, cells[i], comparison.identical[i])
            for i, s in enumerate(run.systems)]
    print(score_text.paired_table(names, rows, [max(o.output.width, m.decimals) for m in run.metrics],
                                  bootstrap=o.tests.paired_bs))
    _paired_notes(run, key, n)
    print()
    print("-----------------")
    print("Metric signatures")
    print("-----------------")
    for name, signature in zip(names, signatures):
        print(f" - {name:<10} {signature}")


def _paired_notes(run: Run, key: str, n: int | None) -> None:
    """What the paired table shows, in sacreBLEU's words, and what missing scores and identical outputs did."""
    comparison = run.comparison
    assert comparison is not None
    bootstrap = key == "bs"
    title = f"Paired bootstrap resampling, {n} resamples" if bootstrap else f"Paired approximate randomization, {n} trials"
    print()
    print("-" * len(title))
    print(title)
    print("-" * len(title))
    print(f" - Every system is compared with the baseline, {run.baseline.name}.")
    if bootstrap:
        print("   Shown: the system's score, then the bootstrap mean ± half-width of the 95% interval.")
    print(" - p is the chance of an absolute score difference at least this large if both outputs")
    print("   came from the same system; * marks p <= 0.05. A small p says the difference is")
    print("   replicable, not which system is better.")
    for system, identical in zip(run.systems, comparison.identical):
        if identical:
            print(f" - {system.name}: {score_text.IDENTICAL_NOTE}.")
    for k, metric in enumerate(run.metrics):
        matrix = comparison.by_metric[k].matrix
        for i, system in enumerate(run.systems):
            gaps = _gaps(matrix, i, key)
            named = f"{metric.name}, " * (len(run.metrics) > 1) + system.name
            if matrix is not None and not matrix.scored(i):
                print(f" - {named}: no scores: no interval, no p-value, no rank.")
                continue
            no_interval = matrix.no_interval(i) if matrix is not None and bootstrap else None
            if no_interval is not None:
                print(f" - {named}: no interval: {no_interval}.")
            if "why_not_significant" in gaps:
                print(f" - {named}: not starred: {gaps['why_not_significant']}.")
            if "why_no_p_value" in gaps:
                print(f" - {named}: no p-value: {gaps['why_no_p_value']}.")
            elif "tested_on" in gaps:
                print(f" - {named}: tested on the {gaps['tested_on']:,} segments both it and the baseline scored "
                      "(segments without a score make no claim).")


def _gaps(matrix: PairMatrix | None, i: int, test: str) -> dict[str, object]:
    """What missing scores did to system ``i``'s test against the baseline: why there is no p-value, or how many
    segments it was tested on (nothing where every segment counted)."""
    if matrix is None or i == 0:
        return {}
    why = matrix.reason(0, i, test)
    if why is not None:
        return {"why_no_p_value": why}
    tested_on = matrix.tested_on(0, i)
    few = matrix.too_few_differ(0, i)
    return ({} if tested_on is None else {"tested_on": tested_on}) | ({} if few is None else {"why_not_significant": few})


def print_tables(o: Options, run: Run) -> None:
    """``--all-pairs`` (text, JSON or LaTeX) and ``--format latex`` (the systems table)."""
    from ..core.output import rankings

    ranking = rankings.Ranking(o.tests.alpha if o.tests.alpha is not None else DEFAULT_ALPHA, o.tests.correction or "none")
    metrics = range(len(run.metrics))
    if o.output.format == "latex":
        print("\n\n".join(rankings.matrix_latex(run, ranking, k) if o.tests.all_pairs
                          else rankings.systems_latex(run, ranking, o.output.width, k) for k in metrics))
    elif o.output.format == "json":
        tables = [json.loads(rankings.matrix_json(run, ranking, k)) for k in metrics]
        print(score_text.dumps(tables[0] if len(tables) == 1 else tables))
    else:
        print("\n\n".join(rankings.matrix_text(run, ranking, o.output.width, k) for k in metrics))


def print_disagree(o: Options, run: Run) -> None:
    """``--disagree M1 M2``: per system, Spearman's rho and the segments whose places differ most."""
    from ..core.analysis.disagree import disagreements, spearman

    found = []
    assert o.views.disagree is not None  # the view asked for
    for name in o.views.disagree:
        try:
            found.append(run.metric_index(name))
        except KeyError:
            have = ", ".join(m.key for m in run.metrics)
            raise InputError(f"--disagree {name}: not a metric of the run ({have}; add it with -m)") from None
    (i, first), (j, second) = ((k, run.metrics[k]) for k in found)
    if i == j:
        raise InputError("--disagree: give two different metrics")
    out = []
    for s in run.systems:
        a, b = s.results[i].sentences, s.results[j].sentences
        rho = spearman(a, b, first.higher_is_better, second.higher_is_better)
        rows = disagreements(a, b, first.higher_is_better, second.higher_is_better, o.views.top or 10)
        out.append((s.name, rho, rows))
    if o.output.format == "json":
        print(score_text.dumps({"disagree": {"metrics": [first.name, second.name], "systems": [
            {"system": name, "spearman": None if np.isnan(rho) else rho, "segments": [
                {"segment": run.line_number(d.segment), first.name: _number(d.first), second.name: _number(d.second),
                 f"place_{first.name}": d.place_first, f"place_{second.name}": d.place_second,
                 "difference": d.difference} for d in rows]} for name, rho, rows in out]}}))
        return
    w, n1, n2 = o.output.width, max(10, len(first.name)), max(10, len(second.name))
    for name, rho, rows in out:
        print(f"{name}: {first.name} against {second.name}: Spearman's rho {rho:.3f}; the segments whose places "
              "differ most (place: 0 worst, 1 best)")
        print(f"  {'line':>6}  {first.name:>{n1}}  {second.name:>{n2}}  {'place 1':>7}  {'place 2':>7}  {'gap':>5}")
        for d in rows:
            shown_a, shown_b = score_text.score_text(d.first, w), score_text.score_text(d.second, w)
            print(f"  {run.line_number(d.segment):>6}  {shown_a:>{n1}}  {shown_b:>{n2}}  {d.place_first:>7.3f}  "
                  f"{d.place_second:>7.3f}  {d.difference:>5.3f}")


def _number(value: float) -> float | None:
    return None if np.isnan(value) else value


def print_word_accuracy(o: Options, run: Run) -> None:
    """``--word-accuracy``: compare-mt's word accuracy by frequency bucket, per system."""
    from ..core.analysis.word_accuracy import word_accuracy_of_lines
    from ..core.inputs.text_files import read_segments

    if not run.references:
        raise InputError("--word-accuracy counts the reference's words each system matches: the run has no reference")
    bleu = run.bleu
    corpus = read_segments(o.views.freq_file, o.request.encoding).lines if o.views.freq_file else None
    result = word_accuracy_of_lines(run.references[0].lines, [s.lines for s in run.systems],
                                    bleu.config.tokenizer_name if bleu is not None else "13a",
                                    bool(bleu is not None and bleu.config.lowercase), corpus)
    matched, ref, out = result.totals()
    recall, precision, fmeas = result.measures()
    if o.output.format == "json":
        print(score_text.dumps({"word_accuracy": {"buckets": result.labels, "systems": [
            {"system": s.name, "matched": matched[i].tolist(), "ref": ref.tolist(), "out": out[i].tolist(),
             "recall": recall[i].tolist(), "precision": precision[i].tolist(), "fmeas": fmeas[i].tolist()}
            for i, s in enumerate(run.systems)]}}))
        return
    source = o.views.freq_file or f"the reference {run.references[0].name}"
    for i, s in enumerate(run.systems):
        print(f"{s.name}: word accuracy by frequency in {source} (compare-mt's buckets)")
        print(f"  {'bucket':>12} {'matched':>8} {'ref':>8} {'out':>8} {'recall':>7} {'prec':>7} {'F':>7}")
        for b, label in enumerate(result.labels):
            print(f"  {label:>12} {matched[i, b]:>8} {ref[b]:>8} {out[i, b]:>8} {recall[i, b]:>7.4f} "
                  f"{precision[i, b]:>7.4f} {fmeas[i, b]:>7.4f}")


def print_qa(o: Options, run: Run, say: Printer) -> None:
    """``--qa``: every flag of the checks asked for, per system, and what each system fixes and introduces
    against the baseline."""
    from ..core.analysis.qa import CHECKS, fixed_and_introduced, read_glossary, runnable_checks, skipped_checks
    from ..core.inputs.text_files import read_segments

    checks = o.views.qa or list(CHECKS)
    glossary = read_glossary(o.views.glossary, "\n".join(read_segments(o.views.glossary, o.request.encoding).lines)) \
        if o.views.glossary else None
    target = run.target_lines
    skipped = skipped_checks(checks, run.context.source is not None, glossary is not None, target)
    runnable = runnable_checks(checks, run.context.source is not None, glossary is not None, target)
    if not runnable:
        raise InputError(f"--qa {' '.join(checks)}: no check can run here: {'; '.join(skipped)}")
    flags = [run.qa_flags(i, runnable, glossary) for i in range(len(run.systems))]
    for note in skipped:
        say.note(f"qa: {note}")
    if o.views.qa_decisions:
        from ..core.output.qa_decisions import QaDecisions

        decisions = QaDecisions.open(o.views.qa_decisions)
        before = sum(map(len, flags))
        flags = [decisions.standing(found, run.line_number, run.systems[i].lines) for i, found in enumerate(flags)]
        say.note(f"qa: {before - sum(map(len, flags)):,} flags marked false positives in {o.views.qa_decisions} "
                 "left out")
    if o.output.format == "json":
        print(score_text.dumps({"qa": [{"system": f.system, "segment": run.line_number(f.segment), "check": f.check,
                                        "detail": f.detail} for per_system in flags for f in per_system]}))
        return
    for s, found in zip(run.systems, flags):
        counts = {c: sum(f.check == c for f in found) for c in runnable}
        listing = ", ".join(f"{c} {n}" for c, n in counts.items() if n) or "nothing flagged"
        print(f"{s.name}: {listing}")
        for f in found[:20]:
            print(f"  {run.line_number(f.segment):>6}  {f.check:<15} {f.detail}")
        if len(found) > 20:
            print(f"  … and {len(found) - 20:,} more (-f json lists them all)")
    for s, found in list(zip(run.systems, flags))[1:]:
        changes = fixed_and_introduced(flags[0], found)
        said = "; ".join(f"{c}: fixes {len(fx)}, introduces {len(intro)}" for c, (fx, intro) in changes.items())
        print(f"{s.name} against {run.baseline.name}: {said or 'the same flags'}")


def _share(value: float | None) -> str:
    return f"{value:.0%}" if value is not None else "–"


def annotated_systems(run: Run, flag: str) -> tuple[list[SegmentFile], list[str]]:
    """The run's systems that carry annotations and their names; :class:`InputError` when none does."""
    found = run.annotated
    if not found:
        raise InputError(f"{flag}: no system has human error annotations (open an MQM table or give "
                         "--annotations FILE)")
    return [s.file for s in found], [s.name for s in found]


def print_error_recall(o: Options, run: Run, say: Printer) -> None:
    """``--error-recall``: which human-marked errors each metric of the run saw (see core.analysis.error_recall)."""
    from ..core.analysis.error_recall import SEVERITIES, error_recall

    systems, names = annotated_systems(run, "--error-recall")
    recall = error_recall(run.metrics, systems, names=names)
    if not recall.rows:
        raise InputError("--error-recall: no metric of the run has evidence in the text (add -m bleu chrf ter edit)")
    for note in recall.notes():
        say.note(f"error recall: {note}")
    if o.output.format == "json":
        print(score_text.dumps({"error_recall": recall.to_dict()}))
        return
    print(f"Errors each metric saw (its evidence touches the error's span), {recall.rated_segments:,} rated segments; "
          "noise: its flagged text in no error span")
    width = max(len(r.system) for r in recall.rows)
    severities = [s for s in SEVERITIES if any(r.severities[s].errors for r in recall.rows)]
    wide = max(len(r.metric) for r in recall.rows)
    print(f"  {'system':<{width}}  {'metric':<{wide}} " + " ".join(f"{s + ' seen':>12}" for s in severities)
          + f" {'noise':>6}")
    for r in recall.rows:
        cells = " ".join(f"{_share(r.severities[s].share):>5} of {r.severities[s].errors:<4}" if r.severities[s].errors
                         else f"{'–':>12}" for s in severities)
        print(f"  {r.system:<{width}}  {r.metric:<{wide}} {cells} {_share(r.noise):>6}")
    names = list(dict.fromkeys(r.metric for r in recall.rows))
    pooled = recall.by_category()
    print("\nBy category, all systems (errors; share seen by each metric)")
    width = max(len(c) for c in pooled) if pooled else 8
    print(f"  {'category':<{width}} {'errors':>6} " + " ".join(f"{n:>8}" for n in names))
    for category, tallies in pooled.items():
        print(f"  {category:<{width}} {tallies[names[0]].errors:>6} "
              + " ".join(f"{_share(tallies[n].share):>8}" for n in names))


def print_meta_eval(o: Options, run: Run) -> None:
    """``--meta-eval HUMAN``: every other metric of the run against the human scores (see core.analysis.meta_eval)."""
    from ..core.output.meta_eval_tables import meta_eval_latex, meta_eval_text
    from ..core.run.meta_eval_run import meta_eval_dict, meta_evaluate_run, segments_apart

    found = meta_evaluate_run(run, o.views.meta_eval or "", o.views.meta_eval_metrics,
                              metric_is_human=o.views.meta_eval_human_is_metric)
    if o.output.format == "json":
        print(score_text.dumps({"meta_evaluation": meta_eval_dict(run, found, o.views.top or 10)}))
        return

    def apart(metric: str, a: str, b: str) -> list[dict[str, object]]:
        return [{"segment": run.line_number(d.segment)}
                for d in segments_apart(run, found.human, metric, a, b, o.views.top or 3)]

    print(meta_eval_latex(found) if o.output.format == "latex" else meta_eval_text(found, apart))


def print_rater_agreement(o: Options, run: Run) -> None:
    """``--rater-agreement``: how often the raters agree on an error and its severity."""
    from ..core.analysis.rater_agreement import rater_agreement

    systems, names = annotated_systems(run, "--rater-agreement")
    agreement = rater_agreement(systems, names=names)
    if o.output.format == "json":
        print(score_text.dumps({"rater_agreement": agreement.to_dict()}))
        return
    print(agreement.summary())
    split = [a for a in agreement.segments if not a.presence_agrees]
    if split:
        print("Segments where one rater marks an error and another none:")
        for a in split[:20]:
            print(f"  {a.system}  {run.line_number(a.segment):>6}  "
                  + ", ".join(f"{rater}: {worst}" for rater, worst in a.worst))
        if len(split) > 20:
            print(f"  … and {len(split) - 20:,} more (-f json lists them all)")

def scorecard_weights(text: str | None) -> dict[str, float]:
    """``--scorecard-weights Minor=1,Major=5``: the defaults with those changed; :class:`InputError` otherwise."""
    from ..core.analysis.scorecard import DEFAULT_WEIGHTS, SEVERITIES

    weights = dict(DEFAULT_WEIGHTS)
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, _, value = part.partition("=")
        severity = next((s for s in SEVERITIES if s.lower() == name.strip().lower()), None)
        try:
            number = float(value)
        except ValueError:
            number = -1.0
        if severity is None or not 0 <= number < float("inf"):
            raise InputError(f"--scorecard-weights {part.strip()!r}: write SEVERITY=W, a severity of "
                             f"{', '.join(SEVERITIES)} and a weight of 0 or more (Minor=1,Major=5)")
        weights[severity] = number
    return weights


def print_scorecard(o: Options, run: Run) -> None:
    """``--scorecard``: the reviewer's scorecard of the annotations (see core.analysis.scorecard)."""
    from ..core.analysis.scorecard import DEFAULT_THRESHOLD, scorecard, scorecard_text

    _files, _names = annotated_systems(run, "--scorecard")
    source = run.context.source
    if source is None:
        raise InputError("--scorecard counts penalty points per 1,000 source words: give the source (--src FILE)")
    card = scorecard([(s.name, s.file.annotations or ()) for s in run.annotated], source.lines, run.context.docs,
                     scorecard_weights(o.views.scorecard_weights),
                     o.views.scorecard_threshold if o.views.scorecard_threshold is not None else DEFAULT_THRESHOLD,
                     targets=[s.lines for s in run.annotated])
    out = o.views.scorecard_out
    if out is not None:
        from ..core.output.exports import write_atomic
        from ..core.output.scorecard_files import scorecard_html, scorecard_workbook

        data = scorecard_workbook(card) if out.lower().endswith(".xlsx") else scorecard_html(card)
        write_atomic(out, data, run.input_paths())
    if o.output.format == "json":
        print(score_text.dumps({"scorecard": card.to_dict()}))
        return
    print(scorecard_text(card))


def print_tokenizer_table(o: Options, run: Run) -> None:
    """``--tokenizer-table``: the run's BLEU under every tokenizer × case."""
    from ..core.analysis.tokenizer_table import tokenizer_table

    if not run.references:
        raise InputError("--tokenizer-table scores BLEU under each tokenizer: the run has no reference")
    table = tokenizer_table(scored_already(run), [r.lines for r in run.references])
    text = {"json": table.to_json, "latex": table.to_latex}.get(o.output.format)
    print(text() if text is not None else table.to_text(o.output.width), end="" if text is None else "\n")


def print_view(o: Options, run: Run, say: Printer) -> None:
    """Print the view ``o`` asks for (after :func:`check_views`)."""
    from .human_views import print_error_free, print_span_eval
    from .triage_printing import print_triage

    views = o.views
    shows: tuple[tuple[bool, Callable[[], None]], ...] = (
        (views.qa is not None, lambda: print_qa(o, run, say)),
        (views.word_accuracy, lambda: print_word_accuracy(o, run)),
        (bool(views.disagree), lambda: print_disagree(o, run)),
        (views.error_recall, lambda: print_error_recall(o, run, say)),
        (views.rater_agreement, lambda: print_rater_agreement(o, run)),
        (views.meta_eval is not None, lambda: print_meta_eval(o, run)),
        (views.span_eval is not None, lambda: print_span_eval(o, run)),
        (views.error_free, lambda: print_error_free(o, run)),
        (views.scorecard, lambda: print_scorecard(o, run)),
        (views.triage is not None, lambda: print_triage(o, run)),
        (views.tokenizer_table, lambda: print_tokenizer_table(o, run)))
    for asked, show in shows:
        if asked:
            show()
            return
    print_explain(o, run)


def print_explain(o: Options, run: Run) -> None:
    """``--explain N``: every metric's account of sentence N of every system."""
    n = o.views.explain
    assert n is not None  # the one view left (check_views)
    if n > run.n_sentences:
        raise InputError(f"--explain {n}: the files have {run.n_sentences:,} sentences")
    source = run.context.source
    accounts = [(s.name, [(metric.key, metric.of_system(s.file, source).account(
        n - 1, s.lines[n - 1], s.results[k].stats[n - 1], run.reference_names)) for k, metric in enumerate(run.metrics)])
                for s in run.systems]
    from ..core.run.erasure_run import explains_by_erasure, in_words, segment_erasure, splitting_fields

    # A neural metric's words, each left out and the segment scored again by its model (COMET's worker, cached).
    erasures = {(s, k): segment_erasure(run, k, s, n - 1) for s in range(len(run.systems))
                for k in range(len(run.metrics)) if explains_by_erasure(run, k)}
    if o.output.format == "json":
        out = []
        for s, (name, parts) in enumerate(accounts):
            # The first metric's account also stands at the top, as BLEU's did before there were other metrics.
            first = parts[0][1].explanation
            obj: dict[str, object] = {"system": name, "sentence": n, **first.to_dict()}
            for k, (key, account) in enumerate(parts):
                extra: dict[str, object] = ({"erasure": [e.to_dict() for e in erasures[s, k]], **splitting_fields(run)}
                                            if (s, k) in erasures else {})
                obj[key] = {**account.evidence, **account.explanation.to_dict(), **extra}
            out.append(obj)
        print(strict_dumps(out, indent=2))
        return
    for s, (name, parts) in enumerate(accounts):
        texts = []
        for k, (_key, account) in enumerate(parts):
            text = account.explanation.text()
            if (s, k) in erasures:
                said = in_words(run, k, s, n - 1, erasures[s, k], run.metrics[k].decimals)
                text += "\n  Which words move it (erasure):\n" + "\n".join(f"    {line}" for line in said)
            texts.append(text)
        print(("\n" if s else "") + f"Sentence {n} — {name}\n" + "\n\n".join(texts))


class Printer:
    """What ``bleu-score`` writes, in its own words: ``word`` says a field a core message names as its flag."""

    def __init__(self, o: Options, word: Callable[[str, str | None], str]):
        self.o, self.word = o, word
        self._started, self._said = time.perf_counter(), set[str]()

    def ready(self, run: Run, waiting: list[str]) -> None:
        """A stage of the scoring is done: its new metrics' corpus scores on stderr, and what is still to come."""
        for k, metric in enumerate(run.metrics):
            if metric.name in self._said:
                continue
            self._said.add(metric.name)
            scores = " · ".join(f"{s.name} {score_text.score_only(s.results[k].corpus, self.o.output.width)}"
                                for s in run.systems)
            print(f"{PROG}: {metric.name} ready after {time.perf_counter() - self._started:.1f} s: {scores}"
                  f"; {', '.join(waiting)} to come", file=sys.stderr, flush=True)

    def note(self, text: str) -> None:
        print(f"{PROG}: note: {worded(text, self.word)}", file=sys.stderr)

    def stderr(self, text: str) -> None:
        print(f"{PROG}: {worded(text, self.word)}", file=sys.stderr)

    def scores(self, run: Run, corpus: list[list[Score]], confidences: list[list[Interval]] | None) -> None:
        emit(self.o, run, corpus, confidences)

    def paired(self, run: Run) -> None:
        print_paired(self.o, run)

    def tables(self, run: Run) -> None:
        print_tables(self.o, run)

    def view(self, run: Run) -> None:
        print_view(self.o, run, self)
