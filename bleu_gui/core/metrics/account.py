"""What a segment's number is made of, in words and in pictures, as every metric family gives it.

A metric explains a segment (:class:`Explanation`, the same account in ``--explain N``, the window and the report),
gives its evidence as JSON (:class:`Account`), and says how to show it (:class:`Shown`: panes of marked-up text, a
legend and a chart, in plain HTML with inline styles). The window draws any :class:`Shown` with one view: a new
metric brings no window code. Advice that would change a number is
:class:`~.family.Advice`.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, made plural unless ``n`` is 1 (``1 shift``, ``2 shifts``, ``1,024 segments``)."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class Section:
    """A titled group of plain-language lines."""

    title: str
    lines: list[str]


@dataclass(frozen=True)
class Explanation:
    """The account of one sentence's score: a headline and sections."""

    headline: str
    sections: list[Section]

    def text(self) -> str:
        """Plain text, as ``bleu-score --explain`` prints it."""
        out = [self.headline]
        for section in self.sections:
            out += ["", section.title + ":", *(f"  - {line}" for line in section.lines)]
        return "\n".join(out)

    def html(self) -> str:
        """The same account as simple HTML (the window's rich-text views)."""
        parts = [f"<p><b>{html.escape(self.headline)}</b></p>"]
        for section in self.sections:
            items = "".join(f"<li>{html.escape(line)}</li>" for line in section.lines)
            parts.append(f"<p><b>{html.escape(section.title)}</b></p><ul>{items}</ul>")
        return "".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {"headline": self.headline, "sections": [{"title": s.title, "lines": s.lines} for s in self.sections]}


@dataclass(frozen=True)
class Account:
    """A segment's number explained (``explanation``) and the evidence it is drawn from as JSON (``evidence``,
    what ``--explain N -f json`` writes under the metric's key); ``score``: the segment's score (None: none)."""

    explanation: Explanation
    evidence: dict[str, Any]
    score: float | None


def span(text: str, style: str) -> str:
    """``text`` escaped, in a span of inline ``style`` (none without one): the mark-up of :class:`Pane` text."""
    return f'<span style="{style}">{html.escape(text)}</span>' if style else html.escape(text)


@dataclass(frozen=True)
class Pane:
    """A titled text pane: ``html`` is the text marked up with inline styles."""

    title: str
    html: str


@dataclass(frozen=True)
class Chart:
    """Grouped bars: one group per category, one bar per series (``values[series][category]``)."""

    title: str
    categories: list[str]
    series: list[str]
    values: list[list[float]]
    unit: str
    top: float | None = None


@dataclass(frozen=True)
class Shown:
    """How a segment's evidence is shown: the panes (candidate first), the legend's entries (label, CSS style,
    tooltip), a chart, and a line that says what the evidence is (``summary``)."""

    summary: str
    panes: list[Pane]
    legend: list[tuple[str, str, str]] = field(default_factory=list)
    chart: Chart | None = None
