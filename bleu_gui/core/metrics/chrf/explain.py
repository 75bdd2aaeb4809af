"""Why a segment gets its chrF: per order the candidate's and the reference's n-grams and the matches, the
orders averaged, and F-beta (Popović 2015) — every number one sacreBLEU's statistics give."""

from __future__ import annotations

from ..bleu.explain import Explanation, Section
from .chrf import ChrfConfig
from .evidence import ChrfEvidence, OrderCounts


def _ratio(part: int, whole: int) -> str:
    return f"{part}/{whole} = {100 * part / whole:.1f}%" if whole else f"{part}/0"


def _order_line(o: OrderCounts) -> str:
    name = f"{o.kind} {o.n}-grams"
    if not o.ref_total:
        return f"{name}: the reference has none, so the order is left out (sacreBLEU counts 0 candidate n-grams)"
    if not o.hyp_total:
        return f"{name}: the candidate has none, so the order is left out"
    return f"{name}: precision {_ratio(o.matched, o.hyp_total)}, recall {_ratio(o.matched, o.ref_total)}"


def _averages(evidence: ChrfEvidence) -> tuple[float, float, int]:
    used = [o for o in evidence.orders if o.hyp_total and o.ref_total]
    if not used:
        return 0.0, 0.0, 0
    return (sum(o.matched / o.hyp_total for o in used) / len(used),
            sum(o.matched / o.ref_total for o in used) / len(used), len(used))


def explain_chrf(evidence: ChrfEvidence, config: ChrfConfig, n_refs: int, reference_name: str) -> Explanation:
    """The account of one segment's chrF (``evidence`` of the metric with ``config``)."""
    precision, recall, used = _averages(evidence)
    beta = config.beta
    headline = f"{config.name} = {evidence.score:.2f}"
    if config.eps_smoothing:
        formula = (f"each order's F{beta} averaged over all {len(evidence.orders)} orders (eps smoothing: an order "
                   "without matches counts a tiny epsilon)")
    elif not used:
        formula = "no order has n-grams on both sides: chrF is 0"
    elif beta == 0:
        formula = f"precision {100 * precision:.1f}% averaged over the {used} order(s) with n-grams on both sides (β = 0)"
    else:
        formula = (f"precision {100 * precision:.1f}% and recall {100 * recall:.1f}%, each averaged over the {used} "
                   f"order(s) with n-grams on both sides, then F{beta} = (1+{beta}²)·P·R / ({beta}²·P + R): recall "
                   f"weighs {beta} times as much as precision")
    text = ("characters without whitespace" if not config.whitespace else "characters, whitespace included")
    lines = [formula, f"character n-grams are taken over the {text}"
             + (", lowercased" if config.lowercase else "")
             + ("; word n-grams split a leading or trailing punctuation mark off a word" if config.word_order else "")]
    if n_refs > 1:
        lines.append(f"of {n_refs} references the statistics are those against {reference_name}, the one whose own "
                     "F is highest (the first of equals)")
    return Explanation(headline, [Section("How the number is made", lines),
                                  Section("Per order", [_order_line(o) for o in evidence.orders])])
