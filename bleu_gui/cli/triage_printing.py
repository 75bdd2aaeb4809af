"""``bleu-score --triage RULE``: the segments a metric says need a human, per system, the worst first, with the
metric's spans and the QA flags; ``--triage-out FILE`` writes one system's for post-editing."""

from __future__ import annotations

import math

from ..core import InputError, Run
from ..core.analysis.qa import CHECKS, runnable_checks
from ..core.output import score_text
from ..core.output.qa_decisions import QaDecisions
from ..core.run.triage import Triage, TriageRule, triage
from .arguments import Options


def _metric_index(o: Options, run: Run, rule: TriageRule) -> int:
    named = o.views.triage_metric or rule.metric
    if o.views.triage_metric and rule.metric and o.views.triage_metric != rule.metric:
        raise InputError(f"--triage {o.views.triage} names {rule.metric}, --triage-metric {o.views.triage_metric}: "
                         "name one")
    if named is None:
        return 0
    for k, metric in enumerate(run.metrics):
        if named in (metric.key, metric.name):
            return k
    raise InputError(f"--triage-metric {named}: not a metric of the run (it has "
                     f"{', '.join(m.name for m in run.metrics)})")


def _triages(o: Options, run: Run) -> list[Triage]:
    assert o.views.triage is not None
    rule = TriageRule.parse(o.views.triage)
    k = _metric_index(o, run, rule)
    if rule.calibrated is not None:
        from ..core.inputs.calibration import calibrated_threshold

        assert o.views.triage_calibration is not None  # check_views
        metric = run.metrics[k]
        rule = rule.with_calibration(calibrated_threshold(o.views.triage_calibration, metric.name,
                                                          metric.signature(True), rule.calibrated))
    checks = runnable_checks(list(CHECKS), run.context.source is not None, False, run.target_lines)
    flags = [run.qa_flags(i, checks) for i in range(len(run.systems))]
    if o.views.qa_decisions:  # a flag marked a false positive sends no segment to post-editing
        decisions = QaDecisions.open(o.views.qa_decisions)
        flags = [decisions.standing(found, run.line_number, run.systems[i].lines) for i, found in enumerate(flags)]
    return [triage(run, i, k, rule, flags[i]) for i in range(len(run.systems))]


def print_triage(o: Options, run: Run) -> None:
    """Print the triage of every system (JSON with ``-f json``) and write ``--triage-out``."""
    found = _triages(o, run)
    if o.views.triage_out is not None:
        _write(o, run, found)
    if o.output.format == "json":
        print(score_text.dumps({"triage": [{
            "system": t.system, "metric": t.metric, "signature": t.signature, "rule": t.rule,
            "segments": [{"segment": run.line_number(r.segment), "decision": r.decision,
                          "score": None if math.isnan(r.score) else r.score, "spans": [list(s) for s in r.spans],
                          "qa": list(r.qa)} for r in t.worst_first()]} for t in found]}))
        return
    for t, scored in zip(found, run.systems):
        chosen, total = t.counts
        print(f"{t.system}: {chosen:,} of {total:,} segments need a human — {t.rule} by {t.metric} "
              f"({t.signature})")
        for row in t.worst_first()[:o.views.top or 20]:
            score = "no score" if math.isnan(row.score) else f"{row.score:.4f}"
            text = scored.lines[row.segment]
            spans = "; ".join(f"“{text[a:b]}”" for a, b in row.spans if b > a)
            print(f"  {run.line_number(row.segment):>6}  {score:>10}  {text[:70]}{'…' if len(text) > 70 else ''}")
            for said in ([f"spans: {spans}"] if spans else []) + [f"qa {q}" for q in row.qa]:
                print(f"          {said}")
        if chosen > (o.views.top or 20):
            print(f"  … and {chosen - (o.views.top or 20):,} more (-f json or --triage-out lists them all)")


def _write(o: Options, run: Run, found: list[Triage]) -> None:
    from ..core.output.exports import write_atomic
    from ..core.output.triage_files import triage_file

    out = o.views.triage_out
    assert out is not None
    if len(run.systems) != 1:
        raise InputError(f"--triage-out {out}: writes one system's triage; the run has {len(run.systems)} (pick one "
                         "with --systems or -i)")
    source = run.context.source.lines if run.context.source is not None else None
    data = triage_file(out, found[0], run.systems[0].file, source,
                       [run.line_number(i) for i in range(run.n_sentences)])
    write_atomic(out, data, run.input_paths())
