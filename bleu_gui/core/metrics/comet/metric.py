"""COMET as a metric like the others: each segment's score is what unbabel-comet's model says of (source, candidate,
reference) — the mean over the segment's references when there are several (each is scored: COMET #20) — and the
corpus score is their mean, as ``comet-score`` reports its system score. The statistics are those of every mean of
segment scores (:mod:`..segment_means`), so paired tests, the pair matrix, slices and documents serve COMET unchanged.

The model runs in a worker process and its scores are cached (:mod:`.scoring`); all systems of a run are scored in
one request (:meth:`Comet.prepare`), so the batches mix systems as ``comet-compare`` does and one model load serves
the run. xCOMET's error spans are drawn on the candidate and count as the metric's evidence (``--error-recall``).
"""

from __future__ import annotations

import copy
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

import numpy as np

from ...errors import ConfigError, InputError, term
from ...inputs.ratings import ErrorSpan
from ...inputs.text_files import SegmentFile
from ..account import Account, Chart, Explanation, Pane, Section, Shown, plural
from ..base import Metric, Progress, Score, Variant
from ..segment_means import SegmentMeans
from ..span_marks import SEVERITY_ORDER, marked_html, severity_legend
from .cache import Cached
from .config import CometConfig
from .scoring import CometScorer, Item, ModelFacts, Scored, items_of


@dataclass(frozen=True, kw_only=True)
class CometScore(Score):
    """A system's COMET: the mean of its segment scores."""

    metric: str = "COMET"
    segments: int
    decimals: int = 4  # COMET's scores are near 0..1: four decimals, as comet-score prints them

    def fields(self) -> dict[str, object]:
        return {"segments": self.segments}

    def breakdown(self) -> str:
        return f"(mean of {plural(self.segments, 'segment score')})"

    def text(self, width: int = 2, confidence: tuple[float, float] | None = None) -> str:
        return super().text(width, confidence) + f" {self.breakdown()}"

    def columns(self) -> list[tuple[str, str]]:
        return [("segments", f"{self.segments:,}")]


@dataclass(frozen=True)
class SegmentDetail:
    """What the model said of one segment: a score per reference it was scored against (one for a reference-free
    model), xCOMET's spans against each (corrected to the candidate's characters) and the encoder's tokens of its
    longest input; ``references``: the indices of the run's references it was scored against."""

    scores: tuple[float, ...]
    spans_by_reference: tuple[tuple[ErrorSpan, ...], ...] | None
    tokens: int
    corrected: int  # spans whose offsets were moved off a leading space (COMET #179)
    references: tuple[int, ...] = ()

    @property
    def spans(self) -> tuple[ErrorSpan, ...] | None:
        """Every span the model marked, against any reference (None for a model that marks none)."""
        if self.spans_by_reference is None:
            return None
        return tuple(span for spans in self.spans_by_reference for span in spans)


def spans_in(text: str, spans: Sequence[dict[str, object]], against: str = "") -> tuple[tuple[ErrorSpan, ...], int]:
    """xCOMET's spans as error spans of ``text``: offsets checked against it (clipped to the text), a span that
    starts on whitespace moved to its first character (COMET's offsets may include the space before a word: #179);
    the span's ``text`` is COMET's re-decoding (``，`` comes back ``,``), so the offsets are what count; ``against``:
    the reference it was marked against, said in its comment when the segment has several."""
    out, corrected = [], 0
    for s in spans:
        start, end = max(0, min(int(str(s["start"])), len(text))), max(0, min(int(str(s["end"])), len(text)))
        while start < end and text[start].isspace():
            start += 1
            corrected += 1 if start == int(str(s["start"])) + 1 else 0
        if start >= end:
            continue
        severity = str(s.get("severity", "")).capitalize()
        confidence = float(str(s.get("confidence", "nan")))
        out.append(ErrorSpan("xCOMET", "", severity, start, end, text=text[start:end],
                             comment=f"confidence {confidence:.2f}{f'; against {against}' if against else ''}"))
    return tuple(out), corrected


class Comet(SegmentMeans):
    """COMET of a system's segments (see the module)."""

    key = "comet"
    name = "COMET"
    evidence_shown = True
    decimals = 4
    scores_variants = True

    def __init__(self, config: CometConfig, references: Sequence[Sequence[str]], source: Sequence[str] | None,
                 scorer: CometScorer | None = None):
        super().__init__(len(references[0]) if references else (len(source) if source is not None else 0))
        self.config = config.validated()
        self.references = [list(r) for r in references]
        self.source = list(source) if source is not None else None
        self.scorer = scorer if scorer is not None else CometScorer(self.config)
        if scorer is None:  # the cache closes with the metric that opened it (a new run binds a new one)
            weakref.finalize(self, self.scorer.close)
        self._signature = ""
        self._notes: list[str] = []
        self._work_notes: list[str] = []
        self._details: dict[tuple[str, ...], list[SegmentDetail]] = {}  # by the candidate lines scored
        self.system: SegmentFile | None = None

    # -- scoring -----------------------------------------------------------------------------------------------
    def prepare(self, systems: Sequence[SegmentFile], progress: Progress | None = None) -> None:
        """Score every system of ``systems`` in one request (one model load; batches across systems)."""
        wanted = [s for s in systems if tuple(s.lines) not in self._details]
        if not wanted:
            return
        if self.source is None:
            raise InputError(f"COMET reads the source: give it ({term('source', 'FILE')}), or read a file that has it")
        facts = self.scorer.facts()
        alone = self.without_reference()
        items: list[Item] = []
        layout: list[tuple[SegmentFile, int, list[list[int]]]] = []
        for system in wanted:
            found, per_segment = items_of(self.source, system.lines, self.references, alone)
            layout.append((system, len(items), per_segment))
            items += found
        scored = self.scorer.score(items, 0 if alone else len(self.references), progress)
        self._take(scored, facts.notes)
        for system, offset, per_segment in layout:
            self._details[tuple(system.lines)] = [
                _detail(system.lines[i], [scored.values[offset + j] for j in rows], self._used_references(i))
                for i, rows in enumerate(per_segment)]
            self._note_truncated(system)
        self._note_empty_references(alone)

    def items_missing(self, systems: Sequence[SegmentFile]) -> tuple[ModelFacts, list[Item]]:
        """The model's facts and the items of ``systems`` (each segment against each of its references, each item
        once across systems) that the cache holds no score for: what a batch run elsewhere would score."""
        if self.source is None:
            raise InputError(f"COMET reads the source: give it ({term('source', 'FILE')}), or read a file that has it")
        alone = self.without_reference()
        items = [item for system in systems
                 for item in items_of(self.source, system.lines, self.references, alone)[0]]
        return self.scorer.missing(items)

    def score_variants(self, variants: Sequence[Variant], progress: Progress | None = None) -> list[float]:
        """The model's score of each (segment, source, candidate) as that segment would be scored — against its
        references, the mean over them — in one request through the cache (a text typed back is not scored twice):
        what a what-if edit or an erasure asks of the model."""
        alone = self.without_reference()
        items: list[Item] = []
        counts = []
        for index, source, candidate in variants:
            refs: list[str | None] = [None] if alone else [self.references[k][index]
                                                          for k in self._used_references(index)]
            items += [(source, candidate, r) for r in refs]
            counts.append(len(refs))
        scored = self.scorer.score(items, 0 if alone else len(self.references), progress)
        found, at = [], 0
        for n in counts:
            found.append(float(np.mean([v.score for v in scored.values[at:at + n]])))
            at += n
        return found

    def without_reference(self) -> bool:
        """Whether the model reads the source and the candidate only: a reference-free checkpoint (CometKiwi), or
        xCOMET in a run without references (unbabel-comet's unified models score items without ``ref``). A
        checkpoint that needs a reference, in a run without one, is refused before anything is scored."""
        facts = self.scorer.facts()
        if facts.reference_free or self.references:
            return facts.reference_free
        if facts.kind in _SCORES_WITHOUT_REFERENCE:
            return True
        raise InputError(f"COMET: the checkpoint {facts.name} ({facts.kind}) compares the translation with a reference, "
                         f"and the run has none: give a reference file ({term('references')}), or a reference-free "
                         "checkpoint (CometKiwi: Unbabel/wmt22-cometkiwi-da) or xCOMET")

    def _used_references(self, segment: int) -> tuple[int, ...]:
        """The references segment ``segment`` is scored against (:func:`.scoring.items_of`'s rule)."""
        if self.without_reference():
            return ()
        return tuple(k for k, r in enumerate(self.references) if r[segment].strip()) or (0,)

    def _note_empty_references(self, reference_free: bool) -> None:
        """Say where a reference is empty: COMET scored those segments against the other references only."""
        if reference_free or len(self.references) < 2:
            return
        for k, reference in enumerate(self.references):
            empty = [i for i, line in enumerate(reference) if not line.strip()
                     and any(r[i].strip() for r in self.references)]
            if empty:
                listed = ", ".join(str(i + 1) for i in empty[:10]) + (", …" if len(empty) > 10 else "")
                note = (f"COMET: reference {k + 1} is empty at {plural(len(empty), 'segment')} ({listed}): COMET scored "
                        "them against the other references only")
                if note not in self._notes:
                    self._notes.append(note)

    def _note_truncated(self, system: SegmentFile) -> None:
        limit = self.scorer.facts().max_tokens
        long = [i for i, d in enumerate(self._details[tuple(system.lines)]) if d.tokens > limit]
        if long:
            listed = ", ".join(str(i + 1) for i in long[:10]) + (", …" if len(long) > 10 else "")
            self._notes.append(f"COMET: {plural(len(long), 'segment')} of {system.name} are longer than the {limit} "
                               f"tokens the model keeps and were truncated by COMET (segments {listed})")

    def _take(self, scored: Scored, facts_notes: Sequence[str]) -> None:
        if self._signature and scored.signature != self._signature:
            raise InputError(f"COMET: these scores were made under {scored.signature}, the run's under "
                             f"{self._signature}: one run never mixes two (clear the cache or score again)")
        self._signature = scored.signature
        self._notes += [n for n in facts_notes if n not in self._notes]
        # How the scoring went (the cache read, its trouble, stale scores made again): the run's notes, not the
        # score's — the numbers are the same either way.
        went = list(scored.notes)
        if scored.from_cache:
            went.append(f"COMET: {scored.from_cache:,} of the run's scores read from the cache {self.scorer.cache.path}")
        self._work_notes += [n for n in went if n not in self._work_notes]

    def details(self, lines: Sequence[str]) -> list[SegmentDetail]:
        found = self._details.get(tuple(lines))
        if found is None:
            raise ConfigError("COMET: these lines were not scored (prepare them first)")
        return found

    def statistics(self, lines: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        key = tuple(lines)
        if key not in self._details:
            self.prepare([SegmentFile(_NO_PATH, list(lines), "utf-8")], progress)
        return self.rows(np.array([float(np.mean(d.scores)) for d in self._details[key]], np.float64))

    def system_statistics(self, system: SegmentFile, progress: Progress | None = None) -> np.ndarray:
        self.prepare([system], progress)
        return self.statistics(system.lines)

    def scored(self, stats: np.ndarray) -> np.ndarray | None:
        return None  # the model scores every segment

    # -- scores ------------------------------------------------------------------------------------------------
    @property
    def notes(self) -> tuple[str, ...]:
        return ("COMET: segment scores of a neural model, computed by unbabel-comet in a worker process and cached; "
                "the corpus score is their mean", *self._notes)

    @property
    def work_notes(self) -> tuple[str, ...]:
        """The scores read from the cache, the cache's trouble, and stale cached scores made again."""
        return tuple(self._work_notes)

    def signature(self, sentence_level: bool = False, resampling: dict[str, object] | None = None) -> str:
        parts = [self._signature or f"model:{self.config.model}|{self.config.precision}|batch:{self.config.batch_size}"]
        parts += [f"{k}:{v}" for k, v in (resampling or {}).items()]
        return "|".join(parts)

    def corpus_score(self, stats: np.ndarray) -> CometScore:
        return CometScore(score=float(self.scores_of_sums(stats.sum(axis=0))[0]), signature=self.signature(),
                          segments=int(stats[:, 1].sum()))

    def sentence_score(self, stats: np.ndarray, index: int) -> CometScore:
        return CometScore(score=float(stats[index, 0]), signature=self.signature(True), segments=1)

    def truncated_segments(self, lines: Sequence[str]) -> list[int]:
        """The segments of ``lines`` longer than the encoder holds (COMET truncated them silently)."""
        limit = self.scorer.facts().max_tokens
        return [i for i, d in enumerate(self.details(lines)) if d.tokens > limit]

    def caveats(self, system: SegmentFile) -> dict[int, str]:
        """Each segment COMET truncated (its input longer than the encoder holds)."""
        if tuple(system.lines) not in self._details:
            return {}
        limit, details = self.scorer.facts().max_tokens, self._details[tuple(system.lines)]
        return {i: f"{details[i].tokens} tokens: longer than the {limit} the model keeps, so COMET truncated the input "
                   "and scored only its beginning" for i in self.truncated_segments(system.lines)}

    # -- explaining ----------------------------------------------------------------------------------------------
    def of_system(self, system: SegmentFile, source: SegmentFile | None = None) -> Comet:
        explains = copy.copy(self)
        explains.system = system
        return explains

    def _detail(self, index: int, hypothesis: str) -> SegmentDetail | None:
        lines = self.system.lines if self.system is not None else None
        if lines is None or tuple(lines) not in self._details or lines[index] != hypothesis:
            return None
        return self._details[tuple(lines)][index]

    def account(self, index: int, hypothesis: str, row: np.ndarray, reference_names: Sequence[str]) -> Account:
        detail = self._detail(index, hypothesis)
        score = float(row[0]) if row[1] > 0 else None
        if detail is None:
            return Account(Explanation(f"COMET {score if score is not None else 'missing'}: the model's score of the "
                                       "candidate as it was scored (an edit is scored when the run is scored again)",
                                       []), {"score": score}, score)
        sections = [self._how(detail, reference_names)]
        names = [_name(reference_names, k) for k in detail.references]
        for k, spans in enumerate(detail.spans_by_reference or ()):
            lines = [f"{e.severity} “{e.text}” (characters {(e.start or 0) + 1}–{e.end}; {e.comment})"
                     for e in spans] or ["no error span"]
            against = f", against {names[k]}" if len(detail.spans_by_reference or ()) > 1 and k < len(names) else ""
            sections.append(Section(f"Error spans the model marked (xCOMET{against})", lines))
        evidence = {"score": score, "per_reference": list(detail.scores), "references": names,
                    "tokens": detail.tokens,
                    "truncated": detail.tokens > self.scorer.facts().max_tokens, "signature": self.signature(),
                    "error_spans": None if detail.spans is None else [e.to_dict() for e in detail.spans]}
        return Account(Explanation(f"COMET {score:.4f}: the model's score of (source, candidate"
                                   f"{'' if self.without_reference() else ', reference'})", sections),
                       evidence, score)

    def _how(self, detail: SegmentDetail, reference_names: Sequence[str]) -> Section:
        facts = self.scorer.facts()
        lines = [f"model {facts.name} ({facts.kind}), {self.config.precision}; signature {self.signature()}"]
        if facts.reference_free:
            lines.append("reference-free: the model reads the source and the candidate only")
        elif not self.references:
            lines.append("without a reference (the run has none): the model read the source and the candidate only")
        else:
            names = [_name(reference_names, k) for k in detail.references]
            if len(detail.scores) > 1:
                lines += [f"against {name}: {s:.4f}" for name, s in zip(names, detail.scores)]
                lines.append(f"the segment's score is the mean over its {len(detail.scores)} references")
            skipped = [_name(reference_names, k) for k in range(len(self.references)) if k not in detail.references]
            if skipped:
                lines.append(f"{', '.join(skipped)} {'is' if len(skipped) == 1 else 'are'} empty here: scored against "
                             f"{', '.join(names)} only")
        if detail.tokens > facts.max_tokens:
            lines.append(f"{detail.tokens} tokens: longer than the {facts.max_tokens} the model keeps, so COMET "
                         "truncated the input and scored only its beginning")
        if detail.corrected:
            lines.append(f"{detail.corrected} span offset(s) moved off a leading space (COMET #179)")
        return Section("How the number is made", lines)

    def shown(self, index: int, hypothesis: str, system: str, reference_names: Sequence[str]) -> Shown | None:
        """What the model read — the candidate (xCOMET's error spans marked on it), the source, the references it
        was scored against — and, with several references, its score against each."""
        detail = self._detail(index, hypothesis)
        spans = detail.spans if detail is not None else None
        candidate = marked_html(hypothesis, spans) if spans is not None else escape(hypothesis)
        panes = [Pane(f"Candidate — {system}" + (" (xCOMET's error spans)" if spans is not None else ""), candidate)]
        if self.source is not None and index < len(self.source):
            panes.append(Pane("Source", escape(self.source[index])))
        facts = self.scorer.facts()
        used = detail.references if detail is not None else tuple(range(len(self.references)))
        if not self.without_reference():
            texts = [(_name(reference_names, k), self.references[k][index]) for k in used]
            if len(texts) <= 2:
                panes += [Pane(f"Reference — {name}", escape(text)) for name, text in texts]
            else:  # the view has room for four panes: several references share one
                panes.append(Pane(f"References ({len(texts)})", "<br>".join(
                    f"<b>{escape(name)}</b>: {escape(text)}" for name, text in texts)))
        if detail is None:
            return Shown("COMET: not scored for this text (an edit is scored when the run is scored again)", panes)
        if spans is not None:
            counts = [[float(sum(e.severity == s for e in spans)) for s in SEVERITY_ORDER[:3]]]
            return Shown(f"xCOMET marked {plural(len(spans), 'error span')}", panes, severity_legend()[:3],
                         Chart("Error spans by severity (xCOMET)", list(SEVERITY_ORDER[:3]), ["spans"], counts,
                               "spans"))
        score = sum(detail.scores) / len(detail.scores)
        chart = (Chart("COMET against each reference", [_name(reference_names, k) for k in used], ["COMET"],
                       [list(detail.scores)], "score") if len(detail.scores) > 1 else None)
        return Shown(f"COMET {score:.4f} · model {facts.name}" + (
            " · truncated" if detail.tokens > facts.max_tokens else ""), panes, [], chart)

    def error_spans(self, lines: Sequence[str]) -> list[tuple[ErrorSpan, ...] | None] | None:
        """xCOMET's spans on each of ``lines`` — a severity and a span, no category (the desk asks the reviewer for
        one) — for the review desk's suggestions; None for a model that marks none, or lines not scored."""
        found = self._details.get(tuple(lines))
        if found is None or not self.scorer.facts().spans:
            return None
        return [d.spans or () for d in found]

    def flagged(self, rows: Sequence[int], hypotheses: Sequence[str]) -> list[list[tuple[int, int]]] | None:
        """xCOMET's error spans (None for a model that marks none)."""
        if self.system is None or not self.scorer.facts().spans:
            return None
        out = []
        for index, hypothesis in zip(rows, hypotheses):
            detail = self._detail(index, hypothesis)
            spans = detail.spans if detail is not None and detail.spans is not None else ()
            out.append([(e.start, e.end) for e in spans if e.start is not None and e.end is not None])
        return out


# COMET's unified models (xCOMET) take items without ``ref`` (their source + candidate input): a run without
# references scores them so.
_SCORES_WITHOUT_REFERENCE = ("unified_metric", "xcomet_metric")
_NO_PATH = Path("(edited lines)")  # lines scored without a file of their own


def _name(reference_names: Sequence[str], k: int) -> str:
    return reference_names[k] if k < len(reference_names) else f"reference {k + 1}"


def _detail(hypothesis: str, values: Sequence[Cached], references: tuple[int, ...]) -> SegmentDetail:
    """A segment's detail from its items' scores, one per reference in ``references`` (xCOMET's spans of each
    kept, each span saying its reference when there are several)."""
    if values[0].spans is None:
        return SegmentDetail(tuple(v.score for v in values), None, max(v.tokens for v in values), 0, references)
    marked, corrected = [], 0
    for k, value in enumerate(values):
        against = f"reference {references[k] + 1}" if len(values) > 1 and k < len(references) else ""
        spans, moved = spans_in(hypothesis, value.spans or (), against)
        marked.append(spans)
        corrected += moved
    return SegmentDetail(tuple(v.score for v in values), tuple(marked), max(v.tokens for v in values), corrected,
                         references)


def bind(config: CometConfig, references: Sequence[Sequence[str]], progress: Progress | None,
         like: Metric | None, source: Sequence[str] | None = None) -> Comet:
    """COMET with these settings; ``like`` (a slice's whole run): its model facts and cache serve this one, so a
    slice reads the run's scores back and scores nothing anew."""
    shared = like.scorer if isinstance(like, Comet) and like.config == config.validated() else None
    return Comet(config, references, source, shared)
