"""Error spans drawn on a segment's text, whoever marked them (human raters' MQM, xCOMET): each run of characters
in the colour of its most severe error, the errors named on hover."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
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
    out = []
    for i, j in runs(cover):
        part = escape(text[i:j])
        if cover[i]:
            worst = min(cover[i], key=lambda e: SEVERITY_ORDER.index(e.severity) if e.severity in SEVERITY_ORDER else 9)
            tip = "; ".join(f"{e.severity} {e.category} ({e.rater}){f': {e.comment}' if e.comment else ''}"
                            for e in cover[i])
            colour = SEVERITY_COLOURS.get(worst.severity, palette.MQM_NEUTRAL)
            part = (f'<a href="tip:{escape(tip, quote=True)}" style="color:{palette.INK}; text-decoration:none">'
                    f'<span style="background-color:{colour}">{part}</span></a>')
        out.append(part)
    return "".join(out)


def runs(keys: Sequence[object]) -> Iterator[tuple[int, int]]:
    """The maximal runs ``(start, end)`` of equal neighbouring keys (a character's marks, its kind)."""
    i = 0
    while i < len(keys):
        j = i + 1
        while j < len(keys) and keys[j] == keys[i]:
            j += 1
        yield i, j
        i = j


def severity_legend() -> list[tuple[str, str, str]]:
    """The legend of the severities' colours: (label, inline style, tooltip)."""
    return [(s, f"background-color:{c}", f"{s} errors (hover a span: its category, rater and comment)")
            for s, c in SEVERITY_COLOURS.items()]


SPAN_PARTS = (("hit", palette.SPAN_HIT, "marked by both"), ("missed", palette.SPAN_MISS, "the humans' only: missed"),
              ("false alarm", palette.SPAN_FALSE_ALARM, "the detector's only: a false alarm"))


def agreement_html(text: str, detected: Sequence[ErrorSpan], gold: Sequence[ErrorSpan]) -> tuple[str, dict[str, int]]:
    """``text`` with each character coloured by who marked it (target-side spans with a place): both (a hit), the
    humans only (missed), the detector only (a false alarm); and the characters of each kind, omissions counted
    apart (``omission hit``, ``omission missed``, ``omission false alarm``: an error marked without a place)."""
    def cover(errors: Sequence[ErrorSpan]) -> list[bool]:
        marked = [False] * len(text)
        for e in errors:
            if e.side == "target" and e.start is not None and e.end is not None and e.severity != "Neutral":
                for i in range(max(e.start, 0), min(e.end, len(text))):
                    marked[i] = True
        return marked

    mine, theirs = cover(detected), cover(gold)
    kinds = [("hit" if a and b else "false alarm" if a else "missed" if b else "") for a, b in zip(mine, theirs)]
    colours = {name: colour for name, colour, _ in SPAN_PARTS}
    out, counts = [], {name: 0 for name, _, _ in SPAN_PARTS}
    for i, j in runs(kinds):
        part = escape(text[i:j])
        if kinds[i]:
            counts[kinds[i]] += j - i
            part = f'<span style="background-color:{colours[kinds[i]]}">{part}</span>'
        out.append(part)

    def omitted(errors: Sequence[ErrorSpan]) -> bool:
        return any(e.start is None and e.severity != "Neutral" for e in errors)

    a, b = omitted(detected), omitted(gold)
    if a or b:
        kind = "hit" if a and b else "false alarm" if a else "missed"
        counts[f"omission {kind}"] = 1
        out.append(f' <span style="background-color:{colours[kind]}">[omission]</span>')
    return "".join(out), counts
