"""Error spans drawn on a segment's text, whoever marked them (human raters' MQM, xCOMET): each run of characters
in the colour of its most severe error, the errors named on hover."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from .. import palette
from ..inputs.ratings import ErrorSpan

SEVERITY_COLOURS = {"Critical": palette.MQM_CRITICAL, "Major": palette.MQM_MAJOR, "Minor": palette.MQM_MINOR,
                    "Neutral": palette.MQM_NEUTRAL}
SEVERITY_ORDER = ("Critical", "Major", "Minor", "Neutral")


def marked_html(text: str, errors: Sequence[ErrorSpan]) -> str:
    """``text`` with each run of characters under the same errors in the colour of the most severe; hovering a
    run names its errors (a link the window shows as a tooltip)."""
    cover: list[list[ErrorSpan]] = [[] for _ in text]
    for error in errors:
        if error.start is not None and error.end is not None:
            for i in range(max(error.start, 0), min(error.end, len(text))):
                cover[i].append(error)
    out, i = [], 0
    while i < len(text):
        j = i + 1
        while j < len(text) and cover[j] == cover[i]:
            j += 1
        part = escape(text[i:j])
        if cover[i]:
            worst = min(cover[i], key=lambda e: SEVERITY_ORDER.index(e.severity) if e.severity in SEVERITY_ORDER else 9)
            tip = "; ".join(f"{e.severity} {e.category} ({e.rater}){f': {e.comment}' if e.comment else ''}"
                            for e in cover[i])
            colour = SEVERITY_COLOURS.get(worst.severity, palette.MQM_NEUTRAL)
            part = (f'<a href="tip:{escape(tip, quote=True)}" style="color:{palette.INK}; text-decoration:none">'
                    f'<span style="background-color:{colour}">{part}</span></a>')
        out.append(part)
        i = j
    return "".join(out)


def severity_legend() -> list[tuple[str, str, str]]:
    """The legend of the severities' colours: (label, inline style, tooltip)."""
    return [(s, f"background-color:{c}", f"{s} errors (hover a span: its category, rater and comment)")
            for s, c in SEVERITY_COLOURS.items()]
