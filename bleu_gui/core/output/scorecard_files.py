"""The reviewer's scorecard (:mod:`..analysis.scorecard`) as the LQA report to hand over, as memoQ's LQA and
Trados's TQA reports are: a workbook (a sheet of cards with pass or fail, a sheet of errors by category × severity,
the error list — each error's segment, source, target with its span marked, category, severity, weight, comment,
rater and time — and the weights, threshold and formula on *about*) and a standalone HTML page of the same."""

from __future__ import annotations

from html import escape

from .. import palette
from ..analysis.scorecard import PER_WORDS, SEVERITIES, Card, LqaError, Scorecard
from .workbook import workbook_bytes

HEADER = ["system", "scope", "rater", "segments", "source words", "Neutral", "Minor", "Major", "Critical", "penalty",
          f"per {PER_WORDS:,} words", "quality", "verdict"]
FORMULA = ("penalty = Σ errors × their severity's weight; per 1,000 words = penalty / words × 1,000; quality = 100 × "
           "(1 − penalty / words); pass: quality ≥ threshold (MQM's scoring model). Words: the source words of the "
           "rated segments, once per rater; Han, kana, Hangul and Thai characters one word each.")


def _verdict(c: Card) -> str:
    return "–" if c.passed is None else "pass" if c.passed else "FAIL"


def card_row(c: Card) -> list[object]:
    """One card as the table's cells."""
    return [c.system, c.scope, c.rater, c.segments, c.words, *(c.errors(s) for s in SEVERITIES), c.penalty,
            c.per_thousand, c.quality, _verdict(c)]


def _weights(card: Scorecard) -> str:
    return ", ".join(f"{s} {card.weights.get(s, 0.0):g}" for s in SEVERITIES)


ERROR_LIST = ["system", "document", "segment", "source", "target (error ⟦marked⟧)", "error", "category", "severity",
              "weight", "comment", "rater", "time"]


def error_rows(card: Scorecard) -> list[list[object]]:
    """The report's error list, a row per error (the span marked ⟦…⟧ in the target, or in the source for an
    omission)."""
    rows: list[list[object]] = []
    for e in card.errors:
        source, target = e.marked()
        text = (e.source if e.side == "source" else e.target)[e.start:e.end] if e.start is not None else ""
        rows.append([e.system, e.document, e.segment, source, target, text, e.category, e.severity, e.weight,
                     e.comment, e.rater, e.time])
    return rows


def scorecard_workbook(card: Scorecard) -> bytes:
    """The scorecard as an ``.xlsx`` workbook (see the module)."""
    errors = [[c.system, c.rater, category, severity, n] for c in card.cards if c.scope == "all"
              for (category, severity), n in sorted(c.counts.items())]
    return workbook_bytes([("scorecard", HEADER, [card_row(c) for c in card.cards]),
                           ("errors by category", ["system", "rater", "category", "severity", "errors"], errors),
                           ("error list", ERROR_LIST, error_rows(card))],
                          [("weights", _weights(card)), ("pass", f"quality ≥ {card.threshold:g}"),
                           ("formula", FORMULA)])


def scorecard_html(card: Scorecard, title: str = "Scorecard") -> str:
    """The scorecard as a standalone HTML page (no script, no outside resource)."""
    def cell(value: object) -> str:
        text = "–" if value is None else f"{value:.2f}" if isinstance(value, float) else f"{value:,}" \
            if isinstance(value, int) else str(value)
        colour = {"pass": palette.P_SIGNIFICANT, "FAIL": palette.BAR_UNMATCHED}.get(text)
        style = f' style="color:{colour};font-weight:bold"' if colour else ""
        return f"<td{style}>{escape(text)}</td>"

    rows = "\n".join("<tr>" + "".join(cell(v) for v in card_row(c)) + "</tr>" for c in card.cards)
    errors = "\n".join(
        f"<tr><td>{escape(c.system)}</td><td>{escape(c.rater)}</td><td>{escape(category)}</td>"
        f"<td>{escape(severity)}</td><td>{n:,}</td></tr>"
        for c in card.cards if c.scope == "all" for (category, severity), n in sorted(c.counts.items()))
    head = "".join(f"<th>{escape(h)}</th>" for h in HEADER)
    listed = "\n".join(_error_html(e) for e in card.errors)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>
<style>body{{font-family:sans-serif;color:{palette.TEXT};margin:2em}} table{{border-collapse:collapse;margin:1em 0}}
td,th{{border-bottom:1px solid {palette.RULE};padding:3px 8px;text-align:right}} td:nth-child(-n+3),th:nth-child(-n+3)
{{text-align:left}} th{{background:{palette.HEADER_BG}}} p{{color:{palette.NOTE};max-width:60em}}</style></head>
<body><h1>{escape(title)}</h1>
<p>Weights: {escape(_weights(card))}. Pass: quality ≥ {card.threshold:g}. {escape(FORMULA)}</p>
<table><tr>{head}</tr>
{rows}
</table>
<h2>Errors by category</h2>
<table><tr><th>system</th><th>rater</th><th>category</th><th>severity</th><th>errors</th></tr>
{errors}
</table>
<h2>Error list</h2>
<table class="list"><tr><th>system</th><th>document</th><th>segment</th><th>source</th><th>target</th><th>category</th>
<th>severity</th><th>weight</th><th>comment</th><th>rater</th><th>time</th></tr>
{listed}
</table></body></html>
"""


def _error_html(e: LqaError) -> str:
    """One error's row, its span marked in the target (or the source) in its severity's colour."""
    colour = {"Minor": palette.MARK_MINOR, "Major": palette.MARK_MAJOR, "Critical": palette.MARK_CRITICAL}.get(e.severity,
                                                                                                palette.NOTE)
    source, target = e.marked("\x00", "\x01")
    def shown(text: str) -> str:
        return escape(text).replace("\x00", f'<mark style="background:none;border-bottom:2px solid {colour}">') \
            .replace("\x01", "</mark>")
    cells = [escape(e.system), escape(e.document), f"{e.segment:,}", shown(source), shown(target), escape(e.category),
             escape(e.severity), f"{e.weight:g}", escape(e.comment), escape(e.rater), escape(e.time)]
    return "<tr>" + "".join(f'<td style="text-align:left">{c}</td>' for c in cells) + "</tr>"
