"""chrF's and TER's evidence for one segment as HTML: the candidate's and the reference's characters shaded by
how many of their character n-grams matched (chrF); the shifts, then the edits against the reference (TER).

Shared by the window's evidence panes and anything else that shows a segment's evidence."""

from __future__ import annotations

import unicodedata
from html import escape

from ..metrics.chrf.evidence import CharHits
from ..metrics.ter.evidence import TerEvidence
from . import palette

# A character's share of matched n-grams: none, half, all (mixed in between).
_STOPS = [(0.0, palette.UNMATCHED), (0.5, palette.ADVICE), (1.0, palette.MATCHED)]


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


def _span(text: str, style: str) -> str:
    return f'<span style="{style}">{escape(text)}</span>' if style else escape(text)


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
    return "".join(_span(text, style) for text, style in runs)


SHIFT_STYLE = f"background-color:{palette.SELECTED}; border-bottom:2px solid {palette.ACCENT}"
OP_STYLES = {"=": f"background-color:{palette.MATCHED}",
             "S": f"background-color:{palette.CLIPPED}",
             "D": f"background-color:{palette.UNMATCHED}; text-decoration:line-through",
             "I": f"color:{palette.BAR_UNMATCHED}; text-decoration:underline"}


def _marker(text: str) -> str:
    return f'<sup style="color:{palette.ACCENT}">{escape(text)}</sup>'


def ter_hypothesis_html(e: TerEvidence) -> str:
    """The candidate's words before any shift; each shifted block marked, with the shift's number and where it
    lands (``1→5``: shift 1 moves it to start at word 5)."""
    words = list(e.hypothesis)
    # The first shift's block is found in the original words; later blocks may only exist after earlier moves,
    # so only blocks still intact in the original order are marked here (the edit line shows every shift).
    marks: dict[int, tuple[int, int, int]] = {}
    position = list(range(len(words)))  # original index of each word of the current order
    for k, shift in enumerate(e.shifts, start=1):
        block = position[shift.start:shift.start + len(shift.words)]
        if block == list(range(block[0], block[0] + len(block))) and not any(i in marks for i in block):
            marks[block[0]] = (k, len(block), shift.landing)
        rest = position[:shift.start] + position[shift.start + len(shift.words):]
        position = rest[:shift.landing] + block + rest[shift.landing:]
    out, i = [], 0
    while i < len(words):
        if i in marks:
            k, length, landing = marks[i]
            out.append(_span(" ".join(words[i:i + length]), SHIFT_STYLE) + _marker(f"{k}→{landing + 1}"))
            i += length
        else:
            out.append(escape(words[i]))
            i += 1
    return " ".join(out)


def ter_edits_html(e: TerEvidence) -> str:
    """The shifted candidate against the reference, step by step: a match, a substitution (``cat→dog``), a
    candidate word the reference lacks (struck out), a reference word the candidate lacks (underlined, ``+``)."""
    out = []
    for a in e.alignment:
        if a.op == "=" and a.hyp is not None:
            out.append(_span(e.shifted[a.hyp], OP_STYLES["="]))
        elif a.op == "S" and a.hyp is not None and a.ref is not None:
            out.append(_span(e.shifted[a.hyp], OP_STYLES["S"]) + _marker("→" + e.reference_words[a.ref]))
        elif a.op == "D" and a.hyp is not None:
            out.append(_span(e.shifted[a.hyp], OP_STYLES["D"]))
        elif a.op == "I" and a.ref is not None:
            out.append(_span("+" + e.reference_words[a.ref], OP_STYLES["I"]))
    return " ".join(out)


def ter_reference_html(e: TerEvidence) -> str:
    """The reference's words: matched, substituted, or missing from the candidate."""
    status = {a.ref: a.op for a in e.alignment if a.ref is not None}
    styles = {"=": OP_STYLES["="], "S": OP_STYLES["S"], "I": f"background-color:{palette.UNMATCHED}"}
    return " ".join(_span(w, styles.get(status.get(j, ""), "")) for j, w in enumerate(e.reference_words))
