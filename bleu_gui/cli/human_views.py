"""``bleu-score --span-eval [RATER]`` and ``--error-free``: which error detector finds the humans' spans, and which
score tells an error-free segment (see core.analysis.span_agreement and core.analysis.error_free)."""

from __future__ import annotations

import math

from ..core import Run
from ..core.analysis.error_free import DEFAULT_PRECISION, ESA_THRESHOLD
from ..core.analysis.span_agreement import ALPHA, HEADLINE, SpanAgreement
from ..core.analysis.span_measures import MEASURES
from ..core.output import score_text
from ..core.run.error_free_run import human_files, run_error_free
from ..core.run.span_eval_run import run_span_agreement
from .arguments import Options


def span_table(found: SpanAgreement) -> list[str]:
    """The detectors as rows: segments, the headline F1 with its interval, P and R, then every measure's F1."""
    others = [m for m in MEASURES if m != HEADLINE]
    width = max([len(d.detector) for d in found.detectors] + [len("raters (ceiling)"), 8])
    head = (f"{'detector':<{width}}  {'kind':<6}  {'segments':>8}  {'partial F1 [95%]':>21}  {'P':>5}  {'R':>5}  "
            + "  ".join(f"{m:>16}" for m in others))
    lines = [head]
    rows = [(d.detector, d.kind, d.overall) for d in found.detectors]
    if found.ceiling is not None:
        rows.append(("raters (ceiling)", "human", found.ceiling))
    for name, kind, s in rows:
        p, r, f = s.values[f"{HEADLINE}/micro"]
        low, high = s.intervals[f"{HEADLINE}/micro"]
        lines.append(f"{name:<{width}}  {kind:<6}  {s.segments:>8,}  {f:>6.3f} [{low:.3f}, {high:.3f}]  {p:>5.3f}  "
                     f"{r:>5.3f}  " + "  ".join(f"{s.values[f'{m}/micro'][2]:>16.3f}" for m in others))
    return lines


def print_span_eval(o: Options, run: Run) -> None:
    found = run_span_agreement(run, o.views.span_eval or None)
    if o.output.format == "json":
        print(score_text.dumps({"span_agreement": found.to_dict()}))
        return
    print(f"Span agreement against {found.gold} ({found.gold_segments:,} rated segments); F1 micro-averaged over "
          "the segments, partial credit (Perrella et al. 2026) first; -f json has macro, per system, P and R of each")
    if found.detectors or found.ceiling is not None:
        for line in span_table(found):
            print(line)
    for t in found.paired:
        verdict = "tied" if t.p_value >= ALPHA else f"{t.ahead} ahead"
        print(f"paired: {t.ahead} − {t.behind} = {t.delta:+.3f} on {t.segments:,} common segments, p = "
              f"{t.p_value:.3f}: {verdict}")
    print(found.in_words())


def print_error_free(o: Options, run: Run) -> None:
    threshold = o.views.error_free_threshold if o.views.error_free_threshold is not None else ESA_THRESHOLD
    wanted = o.views.error_free_precision if o.views.error_free_precision is not None else DEFAULT_PRECISION
    found = run_error_free(run, threshold)
    if o.views.error_free_out is not None:
        from ..core.output.calibration_file import write_calibration

        signatures = {m.name: m.signature(True) for m in run.metrics}
        write_calibration(o.views.error_free_out, found.curves, signatures, found.definition, human_files(run))
    if o.output.format == "json":
        print(score_text.dumps({"error_free": found.to_dict(wanted)}))
        return
    print(f"Error-free detection on {found.labelled:,} labelled segments ({found.definition}); human columns, never "
          f"detectors: {', '.join(found.left_out) or 'none'}")
    width = max(len(c.metric) for c in found.curves)
    print(f"{'metric':<{width}}  {'segments':>8}  {'error-free':>10}  {'AP':>6}  {'best F1':>7}  {'at':>9}  "
          f"{f'≥ P {wanted:g}: threshold':>22}  {'recall':>6}")
    for c in found.curves:
        at = c.at_precision(wanted)
        calibrated = (f"{('≤ ' if c.negated else '≥ ') + format(c.shown(at[0]), '.4g'):>22}  {at[2]:>6.3f}"
                      if at is not None else f"{'none reaches it':>22}  {'':>6}")
        ap = f"{c.average_precision:.3f}" if math.isfinite(c.average_precision) else "n/a"
        print(f"{c.metric:<{width}}  {c.segments:>8,}  {c.base_rate:>10.1%}  {ap:>6}  {c.best_f1:>7.3f}  "
              f"{c.shown(c.best_threshold):>9.4g}  {calibrated}")
    print(f"A detector that knows nothing has an average precision of the share error-free "
          f"({found.curves[0].base_rate:.3f}).")
    print(found.curves[0].in_words(wanted))
