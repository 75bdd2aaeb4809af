"""Which human-marked errors each metric saw: for every error a rater marked in a system's translation (MQM), does
the metric's own evidence of that segment touch the error's span?

What a metric holds against a candidate is :meth:`Metric.flagged <bleu_gui.core.metrics.base.Metric.flagged>`
(BLEU: tokens in no matched n-gram; chrF: characters in no matched character n-gram; TER: words substituted,
deleted or shifted; edit distance: characters replaced or deleted, and the places where characters are inserted).
A flagged span *touches* an error span when they share a character; an empty span (an insertion, an error marked
between two characters) touches a span it lies within or at the edge of. docs/metrics.md says the same per metric.

Per system and metric: the share of Critical, Major and Minor errors seen, the same per category, and *noise*:
the share of the metric's flagged characters (whitespace aside) that lie in no rater's error span of the segment.
Only target-side errors with a span count (an omission marked in the source has no place in the translation);
only rated segments are read. Each figure keeps the segments behind it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..inputs.ratings import TARGET, ErrorSpan, Ratings
from ..inputs.text_files import SegmentFile
from ..metrics.base import Metric

SEVERITIES = ("Critical", "Major", "Minor")  # the severities that are errors (Neutral and No-error are not)
Span = tuple[int, int]


@dataclass
class Tally:
    """Errors of one kind: how many, how many the metric saw, and the segments (0-based) with one seen or missed."""

    errors: int = 0
    seen: int = 0
    seen_segments: list[int] = field(default_factory=list)
    missed_segments: list[int] = field(default_factory=list)

    @property
    def share(self) -> float | None:
        """The share of the errors seen (None: no error of the kind)."""
        return self.seen / self.errors if self.errors else None

    def add(self, segment: int, seen: bool) -> None:
        self.errors += 1
        self.seen += seen
        segments = self.seen_segments if seen else self.missed_segments
        if not segments or segments[-1] != segment:
            segments.append(segment)

    def to_dict(self) -> dict[str, object]:
        return {"errors": self.errors, "seen": self.seen, "share": self.share,
                "seen_segments": [s + 1 for s in self.seen_segments],
                "missed_segments": [s + 1 for s in self.missed_segments]}


@dataclass
class SystemRecall:
    """One system and one metric: errors seen by severity and by category, and the metric's noise."""

    system: str
    metric: str
    severities: dict[str, Tally] = field(default_factory=lambda: {s: Tally() for s in SEVERITIES})
    categories: dict[str, Tally] = field(default_factory=dict)
    flagged_chars: int = 0
    noise_chars: int = 0
    noise_segments: list[int] = field(default_factory=list)  # segments with flagged text outside every span

    @property
    def noise(self) -> float | None:
        """The share of the flagged characters in no human error span (None: nothing flagged)."""
        return self.noise_chars / self.flagged_chars if self.flagged_chars else None

    def to_dict(self) -> dict[str, object]:
        return {"system": self.system, "metric": self.metric,
                "severities": {s: t.to_dict() for s, t in self.severities.items() if t.errors},
                "categories": {c: t.to_dict() for c, t in sorted(self.categories.items())},
                "flagged_chars": self.flagged_chars, "noise_chars": self.noise_chars, "noise": self.noise,
                "noise_segments": [s + 1 for s in self.noise_segments]}


@dataclass(frozen=True)
class ErrorRecall:
    """Every system × metric, and what was left out: errors with no span in the target, metrics with no evidence
    in the text."""

    rows: list[SystemRecall]
    rated_segments: int
    without_by_system: dict[str, int]  # errors with no span in the translation, per system
    metrics_left_out: tuple[str, ...]

    @property
    def without_target_span(self) -> int:
        """Errors with no span in the translation, of every system."""
        return sum(self.without_by_system.values())

    def notes(self, system: str | None = None) -> list[str]:
        """What was left out, of every system or of ``system`` alone."""
        said = []
        n = self.without_target_span if system is None else self.without_by_system.get(system, 0)
        if n:
            whose = " (all systems together)" if system is None else f" of {system}"
            said.append(f"{n:,} {'error' if n == 1 else 'errors'}{whose} {'has' if n == 1 else 'have'} no span in the "
                        "translation (marked in the source or with no span) and not counted")
        if self.metrics_left_out:
            said.append(f"{', '.join(self.metrics_left_out)}: no evidence in the text to compare")
        return said

    def by_category(self) -> dict[str, dict[str, Tally]]:
        """Per category (most errors first) and metric name: the errors of every system together."""
        pooled: dict[str, dict[str, Tally]] = {}
        for row in self.rows:
            for category, tally in row.categories.items():
                into = pooled.setdefault(category, {}).setdefault(row.metric, Tally())
                into.errors += tally.errors
                into.seen += tally.seen
        return dict(sorted(pooled.items(), key=lambda kv: -max(t.errors for t in kv[1].values())))

    def to_dict(self) -> dict[str, object]:
        return {"rated_segments": self.rated_segments, "without_target_span": self.without_target_span,
                "without_target_span_by_system": dict(self.without_by_system),
                "metrics_left_out": list(self.metrics_left_out), "rows": [r.to_dict() for r in self.rows]}


def touches(flagged: Span, error: Span) -> bool:
    """Whether a flagged span touches an error span (see the module)."""
    (a, b), (s, e) = flagged, error
    if a == b:
        return s <= a <= e
    if s == e:
        return a <= s <= b
    return a < e and s < b


def counted(error: ErrorSpan) -> bool:
    """An error the recall counts: a target-side span of an error severity."""
    return error.side == TARGET and error.start is not None and error.end is not None and error.severity in SEVERITIES


@dataclass(frozen=True)
class _Rated:
    """One rated segment as every metric's tally reads it: its counted errors with their spans, and its characters
    as bit masks (bit i: character i), so that a metric's flagged characters are counted, and the errors they
    touch found, by a few integer operations (a set of characters per metric and segment took a quarter of the
    recall's time, :func:`touches` per flagged span and error a tenth)."""

    segment: int
    length: int
    errors: list[tuple[ErrorSpan, Span]]
    text_bits: int  # the characters that are not whitespace
    inside_bits: int  # of them, those inside an error span
    # Per error, what of a metric's flags touches it (see :func:`touches`): the characters a non-empty flagged span
    # must share — for an empty error at p, p-1 or p — and the places p an empty flagged span may be at, s <= p <= e.
    # None when an error's span reaches past the text (the readers leave such spans out): then :func:`touches`.
    reach: list[tuple[int, int]] | None

    @classmethod
    def of(cls, segment: int, text: str, ratings: Ratings) -> _Rated:
        errors = [(e, (e.start or 0, e.end or 0)) for e in ratings.errors if counted(e)]
        # re's \s is str.isspace's whitespace (both Py_UNICODE_ISSPACE; checked over every code point)
        n = len(text)
        text_bits = _bits([(0, n)], n) & ~_bits([m.span() for m in _WHITESPACE.finditer(text)], n)
        return cls(segment, n, errors, text_bits, text_bits & _bits((span for _, span in errors), n),
                   _reach([span for _, span in errors], n))

    def counts(self, flagged: Sequence[Span]) -> tuple[int, int]:
        """How many characters (whitespace aside) the ``flagged`` spans cover, and how many of them lie in no error
        span; overlapping spans count a character once, and nothing past the text's end counts."""
        return self._counts(_bits(flagged, self.length))

    def _counts(self, flagged_bits: int) -> tuple[int, int]:
        marked = flagged_bits & self.text_bits
        return marked.bit_count(), (marked & ~self.inside_bits).bit_count()

    def tally(self, row: SystemRecall, flagged: Sequence[Span]) -> None:
        """Adds to ``row`` the errors of this segment that ``flagged`` touches or misses, and its flagged and noise
        characters."""
        masks = _flag_masks(flagged, self.length) if self.reach is not None else None
        for k, (error, span) in enumerate(self.errors):
            if masks is None or self.reach is None:
                seen = any(touches(f, span) for f in flagged)
            else:
                characters, places = self.reach[k]
                seen = bool(masks[0] & characters or masks[1] & places)
            row.severities[error.severity].add(self.segment, seen)
            row.categories.setdefault(error.category or "(none)", Tally()).add(self.segment, seen)
        marked, outside = self._counts(masks[0]) if masks is not None else self.counts(flagged)
        row.flagged_chars += marked
        row.noise_chars += outside
        if outside:
            row.noise_segments.append(self.segment)


_WHITESPACE = re.compile(r"\s+")


def _bits(spans: Iterable[Span], length: int) -> int:
    """The characters of ``spans`` before ``length`` as a bit mask (empty spans hold none; an end past the text is
    cut there, not turned into a mask as long as the number)."""
    mask = 0
    for a, b in spans:
        b = min(b, length)
        if b > a:
            mask |= ((1 << (b - a)) - 1) << a
    return mask


def _reach(errors: Sequence[Span], length: int) -> list[tuple[int, int]] | None:
    """Per error span, the flagged characters and places that touch it (see :attr:`_Rated.reach`); None when a span
    is not within the text."""
    if any(not 0 <= s <= e <= length for s, e in errors):
        return None
    return [(_bits([(s, e)], length) if s < e else _bits([(max(s - 1, 0), s + 1)], length),
             ((1 << (e - s + 1)) - 1) << s) for s, e in errors]


def _flag_masks(flagged: Sequence[Span], length: int) -> tuple[int, int] | None:
    """A metric's flags of a segment as bit masks: the characters of its non-empty spans and the places of its empty
    ones; None when a span is not within the text (then :func:`touches` decides)."""
    characters = places = 0
    for a, b in flagged:
        if not 0 <= a <= b <= length:
            return None
        if a < b:
            characters |= ((1 << (b - a)) - 1) << a
        else:
            places |= 1 << a
    return characters, places


def error_recall(metrics: Sequence[Metric], systems: Sequence[SegmentFile], rows: Sequence[int] | None = None,
                 progress: Callable[[float], None] | None = None, names: Sequence[str] | None = None) -> ErrorRecall:
    """Which errors of each system's annotations each metric saw, over segments ``rows`` (all); the metrics are
    bound to the run's references, the systems carry their annotations (see the module); ``names``: the systems'
    names as shown (their files' by default). ``progress`` is called after each system and metric."""
    chosen = list(rows) if rows is not None else list(range(len(systems[0].lines) if systems else 0))
    out: list[SystemRecall] = []
    rated: set[int] = set()
    left_out: dict[str, None] = {}
    without_by_system: dict[str, int] = {}
    shown = list(names) if names is not None else [s.name for s in systems]
    for s, system in enumerate(systems):
        annotations = system.annotations or ()
        rated_here = [(i, r) for i in chosen if i < len(annotations) and (r := annotations[i]) is not None]
        segments = [i for i, _ in rated_here]
        rated.update(segments)
        without_by_system[shown[s]] = sum(1 for _, r in rated_here for e in r.errors
                                          if e.severity in SEVERITIES and not counted(e))
        lines = [system.lines[i] for i in segments]
        read = [_Rated.of(i, line, ratings) for (i, ratings), line in zip(rated_here, lines)]
        for m, metric in enumerate(metrics):
            flagged = metric.of_system(system).flagged(segments, lines)
            if flagged is None:
                left_out[metric.name] = None
                continue
            row = SystemRecall(shown[s], metric.name)
            for segment, spans in zip(read, flagged):
                segment.tally(row, spans)
            out.append(row)
            if progress is not None:
                progress((s * len(metrics) + m + 1) / (len(systems) * len(metrics)))
    return ErrorRecall(out, len(rated), without_by_system, tuple(left_out))
