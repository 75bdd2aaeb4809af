"""The meta-evaluation (:mod:`..analysis.meta_eval`) as WMT's metrics-task tables lay it out: a row per metric
in rank order, the system-level statistics, then the segment-level ones, then the baselines — as text for the
terminal and as a booktabs table for a paper (``--meta-eval HUMAN --format latex``)."""

from __future__ import annotations

from ..analysis.meta_eval import (
    PCE_SEED,
    PERMUTATIONS,
    RANDOM_DRAWS,
    STATISTICS,
    Agreement,
    Apart,
    MetaEvaluation,
    in_words,
)
from ..text_tables import latex_escape

_LEGEND = ("rk: WMT's clusters by system pairwise accuracy (a metric opens a new rank when one of its rank beats it "
           f"at p ≤ 0.05, PERM-BOTH, {PERMUTATIONS:,} resamples). A metric marked − is one whose lower is better, "
           "negated first. System level: each system's human score is the mean of its segment scores, its metric "
           "score the metric's corpus score on those segments. Segment level: the metric's segment scores; acc*_eq "
           "per segment over its systems, with the tie threshold ε that maximises it. SPA: "
           f"{PERMUTATIONS:,} paired permutations (seed {PCE_SEED}). Random: {RANDOM_DRAWS} draws of uniform segment "
           "scores; 'below random' is under its mean less two spreads.")


def _cell(value: object, width: int = 8) -> str:
    return f"{value:>{width}.3f}" if isinstance(value, float) else f"{'–':>{width}}"


def _heading(found: MetaEvaluation) -> str:
    negated = ", lower is better: negated" if found.human_negated else ""
    return (f"Metrics against {found.human} (human{negated}): {len(found.systems)} systems, {found.segments:,} "
            "segments every system has a human score for"
            + (f" ({found.left_out:,} left out)" if found.left_out else "") + "; mt-metrics-eval's definitions")


def meta_eval_text(found: MetaEvaluation, apart: Apart | None = None) -> str:
    """The table for the terminal: a row per metric, the baselines, the pairs each metric orders against the
    humans (with ``apart``: each pair's segments that pull them apart most), and a legend."""
    name_w = max([len(m.metric) + (2 if m.lower_is_better else 0) for m in found.metrics] + [18])
    lines = [_heading(found), "",
             f"   {'':{name_w}}  {'system level':^28}  {'segment level':^47}",
             f"rk {'metric':{name_w}}  {'pair acc':>8} {'Pearson':>8} {'SPA':>8}  {'acc*_eq':>8} {'ε':>10} "
             f"{'Pearson':>8} {'Kendall':>8} {'PDP':>8}"]
    for m in found.metrics:
        flagged = found.below_random(m)
        lines.append(f"{m.rank or '':>2} {m.metric + (' −' if m.lower_is_better else ''):{name_w}}  "
                     f"{_cell(m.system_pairwise_accuracy)} {_cell(m.system_pearson)} {_cell(m.spa)}  "
                     f"{_cell(m.segment_acc_eq)} {m.segment_epsilon:>10.4g} {_cell(m.segment_pearson)} "
                     f"{_cell(m.segment_kendall)} {_cell(m.segment_pdp)}"
                     + (f"   below random: {', '.join(flagged)}" if flagged else ""))
    for label, values, epsilon in _baseline_rows(found):
        lines.append(f"   {label:{name_w}}  " + " ".join(_cell(values.get(s)) for s in STATISTICS[:3]) + "  "
                     + _cell(values.get("segment_acc_eq")) + f" {epsilon:>10} "
                     + " ".join(_cell(values.get(s)) for s in STATISTICS[4:]))
    for m in found.metrics:
        lines += _parted_lines(m, apart)
    return "\n".join(lines + _ceiling_lines(found) + ["", in_words(found), "", _LEGEND])


def _ceiling_lines(found: MetaEvaluation) -> list[str]:
    """The raters against each other, and each metric's share of it, on the segments two raters rated."""
    c = found.ceiling
    if c is None:
        return []
    r = c.raters
    lines = ["", f"The raters' ceiling, on the {c.segments:,} segments every system has two raters for (the second "
                 f"rater against the first): pair acc {_cell(r.system_pairwise_accuracy, 0)}, acc*_eq "
                 f"{_cell(r.segment_acc_eq, 0)}, PDP {_cell(r.segment_pdp, 0)}; each metric against the first rater "
                 "there, and its share of the raters':"]
    for m in c.metrics:
        share = c.share(m.metric)
        lines.append(f"   {m.metric}: pair acc {_cell(m.system_pairwise_accuracy, 0)}"
                     + (f" ({share:.0%} of the raters')" if share is not None else "")
                     + f", acc*_eq {_cell(m.segment_acc_eq, 0)}")
    return lines


def _baseline_rows(found: MetaEvaluation) -> list[tuple[str, dict[str, object], str]]:
    constant, random = found.baselines.get("constant", {}), found.baselines.get("random", {})
    spread: dict[str, object] = {s: v for s in STATISTICS if (v := random.get(f"{s}_sd")) is not None}
    return [("constant metric", constant, "0"), ("random (mean)", random, ""), ("random (spread)", spread, "")]


def _parted_lines(m: Agreement, apart: Apart | None) -> list[str]:
    if not m.parted:
        return []
    lines = ["", f"{m.metric}: {len(m.parted)} system pair(s) ordered against the humans (better by the humans first; "
                 "Δ and the one-sided p that it is better" + ("; the segments that pull them apart most" if apart
                                                             else "") + "):"]
    for a, b, dh, dm, ph, pm in m.parted[:5]:
        lines.append(f"  {a} > {b}: human Δ {dh:+.3f} (p {ph:.3f}), {m.metric} Δ {dm:+.3f} (p {pm:.3f})")
        if apart is not None:
            lines[-1] += "; segments " + ", ".join(str(s["segment"]) for s in apart(m.metric, a, b))
    return lines + ([f"  … and {len(m.parted) - 5} more (the JSON output lists them)"] if len(m.parted) > 5 else [])


def _tex(value: object) -> str:
    return f"{value:.3f}".replace("-", "$-$") if isinstance(value, float) else "--"


def meta_eval_latex(found: MetaEvaluation) -> str:
    """The table for a paper (booktabs): rank, metric, the system-level then the segment-level statistics, a rule
    between clusters as WMT's metrics-task tables draw them, the baselines in italics beneath; a statistic below
    the random band is marked with a dagger."""
    head = ["Rank", "Metric", "Pair acc.", "Pearson", "SPA", r"acc$^*_{eq}$", r"Pearson", r"Kendall $\tau_b$", "PDP"]
    lines = [f"% {_heading(found)}", f"% systems: {', '.join(found.systems)}", r"\begin{tabular}{rlrrrrrrr}",
             r"\toprule", r" & & \multicolumn{3}{c}{System level} & \multicolumn{4}{c}{Segment level} \\",
             r"\cmidrule(lr){3-5} \cmidrule(lr){6-9}", " & ".join(head) + r" \\", r"\midrule"]
    previous = None
    for m in found.metrics:
        if previous is not None and m.rank != previous:
            lines.append(r"\midrule")
        previous = m.rank
        flagged = set(found.below_random(m))
        name = latex_escape(m.metric) + (r" ($-$)" if m.lower_is_better else "")
        cells = [_tex(getattr(m, s)) + (r"$^\dagger$" if s in flagged else "") for s in STATISTICS]
        lines.append(" & ".join([str(m.rank or ""), name, *cells]) + r" \\")
    lines.append(r"\midrule")
    for label, values, _epsilon in _baseline_rows(found):
        lines.append(" & ".join(["", rf"\textit{{{label}}}", *(_tex(values.get(s)) for s in STATISTICS)]) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}",
              "% " + _LEGEND.replace("≤", "<=").replace("ε", "epsilon").replace("−", "-")
              + r" A dagger marks a statistic below the random band."]
    return "\n".join(lines)
