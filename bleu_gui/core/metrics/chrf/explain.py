"""Why a segment gets its chrF, said and shown: per order the candidate's and the reference's n-grams and the
matches, the orders averaged, and F-beta (Popović 2015) — every number one sacreBLEU's statistics give; and the
characters of both sides shaded by how many of their character n-grams matched."""

from __future__ import annotations

import unicodedata

from ... import palette
from ..account import Chart, Explanation, Pane, Section, Shown, span
from .config import ChrfConfig
from .evidence import CharHits, ChrfEvidence, OrderCounts

# A character's share of matched n-grams: none, half, all (mixed in between).
_STOPS = [(0.0, palette.UNMATCHED), (0.5, palette.ADVICE), (1.0, palette.MATCHED)]


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


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def share_colour(share: float) -> str:
    """The background of a character whose n-grams matched in this share (0..1)."""
    for (a, ca), (b, cb) in zip(_STOPS, _STOPS[1:]):
        if share <= b:
            t = (share - a) / (b - a)
            mixed = [round(x + (y - x) * t) for x, y in zip(_rgb(ca), _rgb(cb))]
            return "#{:02x}{:02x}{:02x}".format(*mixed)
    return _STOPS[-1][1]


def chrf_html(hits: CharHits) -> str:
    """The text with each character shaded by the share of the character n-grams through it that matched; a
    character chrF does not read (whitespace) is left plain. A combining mark takes its base's shade."""
    runs: list[tuple[str, str]] = []
    for i, ch in enumerate(hits.text):
        covered = hits.covered[i]
        style = f"background-color:{share_colour(hits.matched[i] / covered)}" if covered else ""
        if runs and (style == runs[-1][1] or unicodedata.combining(ch)):
            runs[-1] = (runs[-1][0] + ch, runs[-1][1])
        else:
            runs.append((ch, style))
    return "".join(span(text, style) for text, style in runs)


def chrf_shown(e: ChrfEvidence, name: str, system: str, reference: str, several: bool) -> Shown:
    """The panes of a segment's chrF: the candidate's and the reference's characters shaded, and per order
    precision and recall."""
    shown = e.orders
    chart = Chart("Precision and recall per order", [f"{'c' if o.kind == 'char' else 'w'}{o.n}" for o in shown],
                  ["precision", "recall"],
                  [[100 * (o.precision or 0.0) for o in shown], [100 * (o.recall or 0.0) for o in shown]], "%", top=100)
    legend = [("share of a character's n-grams matched:", f"color:{palette.TEXT}",
               "Of the character n-grams chrF takes through a character (every order), how many matched the other "
               "side (the leftmost occurrences match first)"),
              ("none", f"background:{share_colour(0.0)}", ""), ("half", f"background:{share_colour(0.5)}", ""),
              ("all", f"background:{share_colour(1.0)}", ""), ("not read (whitespace)", f"color:{palette.MUTED}", "")]
    return Shown(f"sentence {name} {e.score:.2f}", [
        Pane(f"Candidate — {system}", chrf_html(e.hypothesis)),
        Pane(reference + (" (the reference with the best F)" if several else ""), chrf_html(e.reference_text))],
        legend, chart)
