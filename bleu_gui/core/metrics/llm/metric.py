"""The LLM judge as a metric like the others. Each segment (source, candidate — the judge reads no reference, as
GEMBA-MQM and GEMBA-ESA) is sent to the endpoint once and the answer cached (:mod:`.judging`); the errors it names
are placed on the candidate (:mod:`.placement`). A segment's score is, for the MQM judgement, the negated sum of its
errors' MQM weights (Google's weights as the run's MQM says them; GEMBA-MQM's are the same, capped at -25), and for
the ESA judgement the judge's 0-100 score; the corpus score is their mean, so paired tests, slices, documents and the
meta-evaluation serve it unchanged (:mod:`..segment_means`). An answer not of the schema, or cut by ``max_tokens``,
leaves its segment unscored, counted in the notes."""

from __future__ import annotations

import copy
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

import numpy as np

from ...errors import ConfigError, term
from ...inputs.ratings import ErrorSpan, Ratings
from ...inputs.text_files import SegmentFile
from ..account import Account, Chart, Explanation, Pane, Section, Shown, plural
from ..base import HandOff, Metric, Progress, Score
from ..mqm.config import MqmConfig, segment_score
from ..segment_means import SegmentMeans
from ..span_marks import SEVERITY_ORDER, marked_html, severity_legend
from .answers import Judgement, Refused, read_answer
from .config import LlmConfig
from .judging import Asked, Judge
from .placement import place_quote

RATER = "LLM judge"  # the rater the judge's errors carry (what the desk's suggestions and the spans' tips say)


@dataclass(frozen=True, kw_only=True)
class LlmScore(Score):
    """A system's LLM-judge score: the mean of its segments' scores."""

    metric: str = "LLM-MQM"
    segments: int
    unscored: int = 0
    decimals: int = 2

    def fields(self) -> dict[str, object]:
        return {"segments": self.segments, "unscored": self.unscored}

    def breakdown(self) -> str:
        left = f"; {self.unscored:,} unscored" if self.unscored else ""
        return f"(mean of {plural(self.segments, 'segment score')}{left})"

    def text(self, width: int = 2, confidence: tuple[float, float] | None = None) -> str:
        return super().text(width, confidence) + f" {self.breakdown()}"

    def columns(self) -> list[tuple[str, str]]:
        return [("segments", f"{self.segments:,}"), ("unscored", f"{self.unscored:,}")]


@dataclass(frozen=True)
class Judged:
    """What the judge said of one segment: its score (NaN: unscored), its errors placed on the candidate (a
    segment-level error has no span), the answer as it came, and why it was not read ('' when it was)."""

    score: float
    errors: tuple[ErrorSpan, ...]
    answer: str | None
    refused: str = ""
    unplaced: int = 0
    nearest: int = 0


HANDED_OFF = Judged(float("nan"), (), None, "handed off to a batch: unscored until its answer is imported")


def judged_segment(candidate: str, answer: str | None, judge: str, weights: MqmConfig) -> Judged:
    """One segment's :class:`Judged` from the judge's ``answer`` (None: cut by ``max_tokens``)."""
    if answer is None:
        return Judged(float("nan"), (), None, "cut at the answer-token limit")
    read = read_answer(answer, judge)
    if isinstance(read, Refused):
        return Judged(float("nan"), (), answer, read.why)
    errors: list[ErrorSpan] = []
    taken: list[tuple[int, int]] = []
    unplaced = nearest = 0
    for quoted in read.errors:
        placed = place_quote(quoted.span, candidate, taken)
        if placed is None:
            unplaced += 1
            errors.append(ErrorSpan(RATER, quoted.category, quoted.severity, text=quoted.span,
                                    comment="quoted text not found in the candidate: a segment-level error"))
            continue
        start, end, how = placed
        taken.append((start, end))
        nearest += how == "nearest"
        comment = f"quoted “{quoted.span}”, placed on the nearest passage" if how == "nearest" else ""
        errors.append(ErrorSpan(RATER, quoted.category, quoted.severity, start, end, text=candidate[start:end],
                                comment=comment))
    return Judged(_score(read, tuple(errors), judge, weights), tuple(errors), answer, "", unplaced, nearest)


def _score(read: Judgement, errors: tuple[ErrorSpan, ...], judge: str, weights: MqmConfig) -> float:
    if judge == "esa":
        return float(read.score if read.score is not None else float("nan"))
    return segment_score(Ratings((RATER,), errors), weights)


class LlmJudge(SegmentMeans):
    """The LLM judge of a system's segments (see the module)."""

    key = "llm"
    evidence_shown = True

    def __init__(self, config: LlmConfig, n_lines: int, source: Sequence[str] | None, judge: Judge | None = None):
        super().__init__(n_lines)
        self.config = config.validated()
        self.name = f"LLM-{self.config.judge.upper()}"
        self.decimals = 0 if self.config.judge == "esa" else 2
        self.source = list(source) if source is not None else None
        self.weights = MqmConfig(*self.config.mqm_weights) if self.config.mqm_weights else MqmConfig()
        self.judge = judge if judge is not None else Judge(self.config)
        if judge is None:  # the cache closes with the metric that opened it
            weakref.finalize(self, self.judge.close)
        self._judged: dict[tuple[str, ...], list[Judged]] = {}
        self._notes: list[str] = []
        self.system: SegmentFile | None = None

    # -- scoring -----------------------------------------------------------------------------------------------
    def prepare(self, systems: Sequence[SegmentFile], progress: Progress | None = None) -> None:
        """Ask the judge about every segment of ``systems`` in one request (the cache first)."""
        wanted = [s for s in systems if tuple(s.lines) not in self._judged]
        if not wanted:
            return
        if self.source is None:
            raise ConfigError(f"LLM judge: it reads the source: give it ({term('source', 'FILE')}), or read a file "
                              "that has it")
        segments = [(self.source[i], line) for s in wanted for i, line in enumerate(s.lines)]
        asked = self.judge.ask(segments, self.config.languages_pair(), progress)
        handed = asked.handed or [False] * len(segments)
        offset = 0
        for system in wanted:
            part = slice(offset, offset + len(system.lines))
            offset += len(system.lines)
            self._judged[tuple(system.lines)] = [
                HANDED_OFF if off else judged_segment(line, answer, self.config.judge, self.weights)
                for line, answer, off in zip(system.lines, asked.answers[part], handed[part])]
        self._note_systems(wanted)
        self._note_asked(asked)

    def _note_asked(self, asked: Asked) -> None:
        said = []
        if asked.from_cache:
            said.append(f"LLM judge: {asked.from_cache:,} of the run's answers read from the cache "
                        f"{self.judge.cache.path}")
        if self.judge.cache.problem:
            said.append(self.judge.cache.problem)
        if self.judge.unkept:
            said.append(f"LLM judge: {plural(self.judge.unkept, 'answer')} held JSON that the reader refuses "
                        "(nested too deep, a number too long, a key twice): unscored and not kept in the cache, so "
                        "that the next run asks again")
        self._notes += [n for n in said if n not in self._notes]

    def _note_systems(self, systems: Sequence[SegmentFile]) -> None:
        """What the judge's answers for ``systems`` left unscored or undrawn, said once for all of them (a note a
        system would not fit the window's header with 15 systems)."""
        judged = {s.name: self._judged[tuple(s.lines)] for s in systems}

        def where(rows: dict[str, list[int]]) -> str:
            named = [f"{name} {', '.join(str(i + 1) for i in r[:5])}{', …' if len(r) > 5 else ''}"
                     for name, r in rows.items() if r]
            return "; ".join(named[:3]) + ("; …" if len(named) > 3 else "")

        cut = {n: [i for i, j in enumerate(js) if j.answer is None and j is not HANDED_OFF] for n, js in judged.items()}
        handed = sum(j is HANDED_OFF for js in judged.values() for j in js)
        if handed:
            self._notes.append(f"LLM judge: {plural(handed, 'segment')} handed off as an OpenAI batch ("
                               f"{plural(len(self.judge.handed), 'request')} in all): unscored until their answers "
                               f"are imported ({term('llm_batch_in')})")
        refused = {n: [i for i, j in enumerate(js) if j.refused and j.answer is not None] for n, js in judged.items()}
        n_cut, n_refused = sum(map(len, cut.values())), sum(map(len, refused.values()))
        if n_cut:
            self._notes.append(f"LLM judge: {plural(n_cut, 'answer')} cut at {self.config.max_tokens:,} tokens "
                               f"({where(cut)}): unscored; allow longer answers (answer tokens) to ask again")
        if n_refused:
            first = next(js[r[0]].refused for n, js in judged.items() for r in [refused[n]] if r)
            self._notes.append(f"LLM judge: {plural(n_refused, 'answer')} not of the schema ({where(refused)}; the "
                               f"first: {first}): unscored")
        errors = sum(len(j.errors) for js in judged.values() for j in js)
        unplaced = sum(j.unplaced for js in judged.values() for j in js)
        nearest = sum(j.nearest for js in judged.values() for j in js)
        if unplaced or nearest:
            counted = "counted in the score, " if self.config.judge == "mqm" else ""
            self._notes.append(f"LLM judge: {unplaced:,} of the {errors:,} errors named quote text in no candidate "
                               f"({counted}not drawn); {nearest:,} placed on the nearest passage")

    def requests_missing(self, systems: Sequence[SegmentFile]) -> HandOff | None:
        if self.source is None:
            return None
        segments = [(self.source[i], line) for s in systems for i, line in enumerate(s.lines)]
        missing = self.judge.missing(segments, self.config.languages_pair())
        if not missing:
            return None

        def mark(ids: Sequence[str], manifest: str, shard: str) -> None:
            self.judge.cache.mark_handed_off([bytes.fromhex(i) for i in ids], manifest, shard)
        return HandOff(tuple((k.hex(), body) for k, body in missing.items()), self.judge.facts(), mark)

    def judged(self, lines: Sequence[str]) -> list[Judged]:
        """What the judge said of each of ``lines`` (prepared before)."""
        found = self._judged.get(tuple(lines))
        if found is None:
            raise ConfigError("LLM judge: these lines were not judged (prepare them first)")
        return found

    def statistics(self, lines: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        key = tuple(lines)
        if key not in self._judged:
            self.prepare([SegmentFile(_NO_PATH, list(lines), "utf-8")], progress)
        return self.rows(np.array([j.score for j in self._judged[key]], np.float64))

    def system_statistics(self, system: SegmentFile, progress: Progress | None = None) -> np.ndarray:
        self.prepare([system], progress)
        return self.statistics(system.lines)

    # -- scores ------------------------------------------------------------------------------------------------
    @property
    def notes(self) -> tuple[str, ...]:
        how = "its errors' MQM weights, negated" if self.config.judge == "mqm" else "its 0-100 score (ESA)"
        where = "in an OpenAI batch" if self.judge.via == {"openai-batch"} else f"at {self.config.host}"
        said = [f"{self.name}: the mean over segments of {how}, as {self.judge.model or 'the model'} {where} "
                "judged them (from the source and the candidate, no reference)"]
        notice = self.config.notice()
        return (*said, *([notice] if notice else []))

    @property
    def work_notes(self) -> tuple[str, ...]:
        """The answers read from the cache, cut, unread, and the quotes found in no candidate."""
        return tuple(self._notes)

    def signature(self, sentence_level: bool = False, resampling: dict[str, object] | None = None) -> str:
        parts = [f"judge:{self.config.judge}", self.judge.signature()]
        if self.config.judge == "mqm":  # the weights that score its errors: Google's, or the run's MQM's
            parts.append("weights:google" if self.weights == MqmConfig() else self.weights.signature().split("|raters:")[0])
        # The judge's own seed is ``seed:``; a paired test's is named apart, so that no field is said twice.
        parts += [f"{'resampling-seed' if k == 'seed' else k}:{v}" for k, v in (resampling or {}).items()]
        return "|".join(parts)

    def corpus_score(self, stats: np.ndarray) -> LlmScore:
        present = int(stats[:, 1].sum())
        return LlmScore(metric=self.name, score=float(self.scores_of_sums(stats.sum(axis=0))[0]),
                        signature=self.signature(), segments=present, unscored=len(stats) - present,
                        decimals=self.decimals)

    def sentence_score(self, stats: np.ndarray, index: int) -> LlmScore:
        present = int(stats[index, 1])
        return LlmScore(metric=self.name, score=float(stats[index, 0]) if present else float("nan"),
                        signature=self.signature(True), segments=present, unscored=1 - present,
                        decimals=self.decimals)

    # -- explaining ----------------------------------------------------------------------------------------------
    def of_system(self, system: SegmentFile, source: SegmentFile | None = None) -> LlmJudge:
        explains = copy.copy(self)
        explains.system = system
        return explains

    def _segment(self, index: int, hypothesis: str) -> Judged | None:
        lines = self.system.lines if self.system is not None else None
        if lines is None or tuple(lines) not in self._judged or lines[index] != hypothesis:
            return None
        return self._judged[tuple(lines)][index]

    def error_spans(self, lines: Sequence[str]) -> list[tuple[ErrorSpan, ...] | None] | None:
        """The judge's errors on each of ``lines`` (placed or segment-level; None for an answer not read), for the
        review desk's suggestions and span agreement; None when the lines were not judged."""
        found = self._judged.get(tuple(lines))
        return None if found is None else [None if j.refused else j.errors for j in found]

    def account(self, index: int, hypothesis: str, row: np.ndarray, reference_names: Sequence[str]) -> Account:
        judged = self._segment(index, hypothesis)
        score = float(row[0]) if row[1] > 0 else None
        if judged is None:
            return Account(Explanation(f"{self.name}: the judge's answer is of the candidate as it was judged (an "
                                       "edit is judged when the run is scored again)", []), {"score": score}, score)
        how = [f"model {self.judge.model} at {self.config.shown_endpoint()}; signature {self.signature()}"]
        if judged.refused:
            how.append(f"the answer was not read ({judged.refused}): the segment is unscored")
        elif self.config.judge == "mqm":
            how.append("score: minus the sum of the errors' weights (" +
                       ", ".join(f"{e.severity} {self.weights.weight(e):g}" for e in judged.errors) + ")"
                       if judged.errors else "no error named: 0")
        else:
            how.append(f"score: the judge's own, {score:g} of 100" if score is not None else "no score")
        sections = [Section("How the number is made", how)]
        sections.append(Section("Errors the judge named", [_said(e) for e in judged.errors] or ["none"]))
        if judged.answer is not None:
            sections.append(Section("The answer as it came", [judged.answer[:600]]))
        evidence = {"score": score, "signature": self.signature(), "refused": judged.refused or None,
                    "answer": judged.answer, "error_spans": [e.to_dict() for e in judged.errors]}
        head = f"{self.name} {score:g}" if score is not None else f"{self.name} unscored"
        return Account(Explanation(f"{head}: what {self.judge.model or 'the judge'} said of (source, candidate)",
                                   sections), evidence, score)

    def shown(self, index: int, hypothesis: str, system: str, reference_names: Sequence[str]) -> Shown | None:
        """The candidate with the judge's errors drawn (segment-level ones listed under it) and the source."""
        judged = self._segment(index, hypothesis)
        errors = judged.errors if judged is not None else ()
        candidate = marked_html(hypothesis, errors)
        loose = [e for e in errors if e.start is None]
        if loose:
            candidate += "<br><i>not found in the text:</i> " + "; ".join(
                escape(" ".join(filter(None, (e.severity, e.category, f"“{e.text}”")))) for e in loose)
        panes = [Pane(f"Candidate — {system} (the LLM judge's error spans)", candidate)]
        if self.source is not None and index < len(self.source):
            panes.append(Pane("Source", escape(self.source[index])))
        if judged is None:
            return Shown(f"{self.name}: not judged for this text (an edit is judged when the run is scored again)",
                         panes)
        counts = [[float(sum(e.severity == s for e in errors)) for s in SEVERITY_ORDER[:3]]]
        summary = (f"{self.name}: the answer was not read ({judged.refused})" if judged.refused
                   else f"{self.name}: the judge named {plural(len(errors), 'error')}")
        return Shown(summary, panes, severity_legend()[:3],
                     Chart("Errors by severity (LLM judge)", list(SEVERITY_ORDER[:3]), ["errors"], counts, "errors"))

    def flagged(self, rows: Sequence[int], hypotheses: Sequence[str]) -> list[list[tuple[int, int]]] | None:
        """The judge's placed error spans."""
        if self.system is None:
            return None
        out = []
        for index, hypothesis in zip(rows, hypotheses):
            judged = self._segment(index, hypothesis)
            errors = judged.errors if judged is not None else ()
            out.append([(e.start, e.end) for e in errors if e.start is not None and e.end is not None])
        return out


_NO_PATH = Path("(edited lines)")


def _said(error: ErrorSpan) -> str:
    where = (f"characters {error.start + 1}–{error.end}" if error.start is not None and error.end is not None
             else "not found in the candidate")
    category = f" {error.category}" if error.category else ""
    extra = f"; {error.comment}" if error.comment and error.start is not None else ""
    return f"{error.severity}{category} “{error.text}” ({where}{extra})"


def bind(config: LlmConfig, references: Sequence[Sequence[str]], progress: Progress | None, like: Metric | None,
         source: Sequence[str] | None = None) -> LlmJudge:
    """The judge with these settings; ``like`` (a slice's whole run): its judge and its answers serve this one."""
    n = len(references[0]) if references else (len(source) if source is not None else 0)
    shared = like.judge if isinstance(like, LlmJudge) and like.config == config.validated() else None
    return LlmJudge(config, n, source, shared)
