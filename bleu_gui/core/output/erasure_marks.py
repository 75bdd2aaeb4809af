"""Erasure drawn on a segment's text: each word shaded by what leaving it out does to the model's score — red where
the score rises (what the model holds against the text), blue where it falls — in proportion to the segment's
largest move, its delta in the metric's decimals on hover, and the words others marked (xCOMET, a judge, a rater)
underlined and named."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from .. import palette
from ..analysis.erasure import Erasure, Word
from ..inputs.ratings import ErrorSpan

_LIGHTEST = 0.12  # the faintest shade a word that moves the score gets, so that a small move still shows


def _shade(delta: float, largest: float) -> str:
    if largest <= 0 or delta == 0:
        return ""
    strength = _LIGHTEST + (1 - _LIGHTEST) * min(abs(delta) / largest, 1.0)
    r, g, b = palette.ERASURE_RAISES if delta > 0 else palette.ERASURE_LOWERS
    mix = [round(255 + (c - 255) * strength * 0.7) for c in (r, g, b)]  # at most 70%: the word stays readable
    return "#{:02x}{:02x}{:02x}".format(*mix)


def _marked_by(word: Word, witnesses: Sequence[tuple[str, Sequence[ErrorSpan]]]) -> list[str]:
    return [f"{name}: {e.severity} {e.category}".rstrip() for name, spans in witnesses for e in spans
            if e.start is not None and e.end is not None and e.start < word.end and word.start < e.end]


def erasure_html(erasure: Erasure, decimals: int, witnesses: Sequence[tuple[str, Sequence[ErrorSpan]]] = ()) -> str:
    """The erasure's text with each word shaded (see the module); hovering a word says its delta and who else
    marked it (a link the window shows as a tooltip)."""
    if not erasure.words:
        return escape(erasure.text)
    largest = max(abs(w.delta) for w in erasure.words)
    whole = erasure.text
    out, at = [], 0
    for word in erasure.words:
        out.append(escape(whole[at:word.start]))
        marked = _marked_by(word, witnesses) if erasure.side == "target" else []
        tip = f"left out: {word.delta:+.{decimals}f}" + "".join(f"; {m}" for m in marked)
        style = f"color:{palette.INK}; text-decoration:{'underline' if marked else 'none'}"
        shade = _shade(word.delta, largest)
        body = f'<span style="background-color:{shade}">{escape(word.text)}</span>' if shade else escape(word.text)
        out.append(f'<a href="tip:{escape(tip, quote=True)}" style="{style}">{body}</a>')
        at = word.end
    out.append(escape(whole[at:]))
    return "".join(out)


def legend_html(decimals: int) -> str:
    """What the shades mean, in one line."""
    raise_, lower = _shade(1.0, 1.0), _shade(-1.0, 1.0)
    # The samples in the words' own ink: a caption's grey on the strongest shade could hardly be read.
    sample = f"color:{palette.INK};background-color:"
    return (f'<span style="{sample}{raise_}">&nbsp;left out, the score rises&nbsp;</span> '
            f'(the model holds the word against the text) · <span style="{sample}{lower}">&nbsp;left out, '
            f'it falls&nbsp;</span> · hover a word for its delta ({decimals} decimals) · underlined: marked by '
            "another (xCOMET, a judge, a rater)")
