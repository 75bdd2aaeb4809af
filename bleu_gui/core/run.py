"""The run model: which files were scored, how, and everything computed from them.

A :class:`Run` is what the command line prints, what the window shows and what
every export writes. :func:`score_run` is the one place that orchestrates
scoring: read files go in, a run comes out, with progress and cancel (the
progress callback may raise :class:`~bleu_gui.core.errors.Cancelled`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .analysis.advice import tokenizer_advice
from .analysis.compare import NgramComparison, NgramDifference, leave_one_out, length_buckets
from .analysis.input_notes import input_notes
from .analysis.misalignment import Misalignment, MisalignmentCheck
from .analysis.orders import SentenceOrders, sentence_orders
from .analysis.pair_matrix import PairMatrix, pair_matrix, sign_test, win_tie_loss
from .analysis.significance import AR_TRIALS, BS_SAMPLES, DEFAULT_SEED, SystemTest, confidence
from .errors import InputError
from .inputs.corpus import Context
from .inputs.markup import mismatched_tags
from .inputs.names import file_names
from .inputs.text_files import SegmentFile, check_same_length
from .metrics.bleu_config import BleuConfig
from .metrics.bleu_details import SentenceDetails
from .metrics.bleu_evaluator import Evaluator, scaled_progress
from .metrics.scores import BleuScore, RowScores

if TYPE_CHECKING:
    from .analysis.documents import DocumentScores
    from .analysis.slices import Slice

Progress = Callable[[float], None]
NGRAM_TOP = 200  # n-grams listed per order and direction


@dataclass(frozen=True)
class ScoredSystem:
    """One system output scored against the run's references."""

    name: str            # display name, unique within the run
    file: SegmentFile
    stats: np.ndarray    # per-sentence sufficient statistics
    sentences: RowScores
    corpus: BleuScore

    @property
    def lines(self) -> list[str]:
        return self.file.lines

    @cached_property
    def orders(self) -> SentenceOrders:
        """The sentence list's sort orders (text, BLEU, length ratio); the window's workers compute them."""
        return sentence_orders(self.lines, self.sentences.score, self.stats[:, 0], self.stats[:, 1])


@dataclass(frozen=True)
class Significance:
    """Which paired tests a run computes (None: not that one) and with which seed."""

    bootstrap: int | None = BS_SAMPLES
    approximate: int | None = AR_TRIALS
    seed: int | None = DEFAULT_SEED


@dataclass(frozen=True)
class Pairwise:
    """The baseline (A) against one other system (B)."""

    loo: np.ndarray                  # leave-one-out contribution of each sentence to ΔBLEU
    ngrams: NgramComparison | None   # None unless n-gram differences were asked for
    wins: dict[int, tuple[list[NgramDifference], list[NgramDifference]]]  # order -> (B's wins, A's wins)
    sentences: tuple[int, int, int] = (0, 0, 0)  # sentences where B scores higher, the same, lower than A
    sign_p: float = 1.0                          # two-sided sign test of those (ties left out)


@dataclass(frozen=True)
class Comparison:
    """Everything that compares the systems of a run with its baseline."""

    pairwise: list[Pairwise]                # for systems[1:]
    bucket_labels: list[str]
    bucket_scores: np.ndarray               # systems × buckets
    bucket_counts: np.ndarray
    significance: Significance | None
    note: str = ""
    identical: list[bool] = field(default_factory=list)  # per system: the baseline's very lines
    matrix: PairMatrix | None = None        # both tests for every pair of systems; None when not computed

    @cached_property
    def bootstrap(self) -> list[SystemTest] | None:
        """``--paired-bs``: the baseline first, then each system against it (None when not computed)."""
        return self.matrix.baseline_tests("bs") if self.matrix is not None else None

    @cached_property
    def approximate(self) -> list[SystemTest] | None:
        """``--paired-ar``, laid out as :attr:`bootstrap`."""
        return self.matrix.baseline_tests("ar") if self.matrix is not None else None


@dataclass(frozen=True)
class Run:
    """Scored systems (baseline first), the references, the evaluator and config that produced them."""

    systems: list[ScoredSystem]
    references: list[SegmentFile]
    evaluator: Evaluator
    comparison: Comparison | None = None
    reference_names: list[str] = field(default_factory=list)
    advice: tuple[str, str] | None = None  # (tokenizer, why) when sacreBLEU recommends another tokenizer
    misaligned: list[tuple[int, Misalignment]] = field(default_factory=list)  # (system index, where)
    notes: tuple[str, ...] = ()  # what reading the inputs changed, and the variant's notes (see input_notes)
    context: Context = Context()  # source, documents and metadata of the segments (no score depends on them)
    slice: Slice | None = None    # set when the run holds a subset of the input's segments (see slices.sliced)

    @cached_property
    def documents(self) -> DocumentScores | None:
        """Each document's BLEU for every system (None without document ids); workers compute it before
        handing the run to the window."""
        from .analysis.documents import document_scores

        return document_scores(self)

    @cached_property
    def tag_mismatches(self) -> list[list[int]]:
        """Per system, the sentences whose candidate has another number of inline tags than its source or a
        reference (XLIFF/TMX; empty lists for plain text); workers compute it with :attr:`documents`."""
        source = [self.context.source.tags] if self.context.source is not None else []
        others = source + [r.tags for r in self.references]
        return [mismatched_tags(s.file.tags, others) for s in self.systems]

    def line_number(self, i: int) -> int:
        """The 1-based line (segment) number in the inputs of sentence ``i`` (a slice keeps the original's)."""
        return self.slice.rows[i] + 1 if self.slice is not None else i + 1

    @property
    def config(self) -> BleuConfig:
        return self.evaluator.config

    @property
    def baseline(self) -> ScoredSystem:
        return self.systems[0]

    @property
    def n_sentences(self) -> int:
        return self.evaluator.n_lines

    def details(self, system: int, sentence: int) -> SentenceDetails:
        """Match details of one sentence of one system (computed on demand, never stored)."""
        return self.evaluator.details(sentence, self.systems[system].lines[sentence])

    def input_paths(self) -> list[Path]:
        """Every file this run read: exports must never overwrite one of them."""
        source = [self.context.source.path] if self.context.source is not None else []
        return [s.file.path for s in self.systems] + [r.path for r in self.references] + source

    @property
    def summary(self) -> str:
        """One line: the systems, the sentence count, the references and how they were decoded."""
        return (f"{', '.join(s.name for s in self.systems)}: {self.n_sentences:,} sentences · "
                f"{len(self.references)} reference(s): {', '.join(self.reference_names)} · encoding {self.encodings}")

    @property
    def encodings(self) -> str:
        """How the inputs were decoded, e.g. ``utf-8`` or ``cp949 (detected): a.txt; utf-8: ref.txt``."""
        seen: dict[str, list[str]] = {}
        for f in [*(s.file for s in self.systems), *self.references]:
            seen.setdefault(f.encoding + (" (detected)" if f.detected else ""), []).append(f.name)
        if len(seen) == 1:
            return next(iter(seen))
        return "; ".join(f"{enc}: {', '.join(names)}" for enc, names in seen.items())


def score_run(systems: Sequence[SegmentFile], references: Sequence[SegmentFile], config: BleuConfig, *,
              names: Sequence[str] | None = None, significance: Significance | None = Significance(),
              ngram_diffs: bool = True, evaluator: Evaluator | None = None, previous: Run | None = None,
              context: Context = Context(), check_alignment: bool = True, progress: Progress | None = None) -> Run:
    """Score every system against the references; with two or more, compare each with the first (the baseline).

    ``names``: display names (default: the shortest path suffixes that tell the
    files apart). ``significance``: the paired tests to run when the variant
    supports them. ``ngram_diffs``: also rank the n-grams each pair matches
    differently (the window's Compare tab). ``evaluator``: reuse references
    already processed with the same config. ``previous``: a run of the same
    references whose misalignment checks still hold for the files it had.
    ``context``: the source, documents and metadata, carried along unscored.
    ``check_alignment``: look for a line shift between each system and the references (a slice of a
    checked run does not look again).
    """
    if not systems:
        raise InputError("no system output given")
    check_same_length([*systems, *references])
    context.check_length(len(systems[0].lines))
    cfg = config.validated()
    names = list(names) if names is not None else file_names(systems)
    if len(set(names)) != len(names):
        raise InputError(f"two systems have the same name: {', '.join(names)}")
    comparing = len(systems) > 1
    with_rows = comparing and ngram_diffs
    if evaluator is None or evaluator.config != cfg:
        evaluator = Evaluator([r.lines for r in references], cfg, progress=scaled_progress(progress, 0.0, 0.3))
    scoring_span = 0.6 if comparing else 0.7
    scored, matched = [], []
    for i, f in enumerate(systems):
        part = scaled_progress(progress, 0.3 + scoring_span * i / len(systems), scoring_span / len(systems))
        if with_rows:
            stats, rows = evaluator.matched_statistics(f.lines, part)
            matched.append(rows)
        else:
            stats = evaluator.statistics(f.lines, part)
        scored.append(ScoredSystem(names[i], f, stats, evaluator.sentence_scores(stats), evaluator.corpus_score(stats)))
    comparison = None
    if comparing:
        comparison = _compare(evaluator, scored, matched if with_rows else None, significance,
                              scaled_progress(progress, 0.9, 0.1), _reusable_matrix(previous, scored, cfg, significance))
    misaligned = _misaligned(systems, cfg.scorer.references_used(references), previous,
                             scaled_progress(progress, 1.0, 0.0)) if check_alignment else []  # cancel checks only
    if progress is not None:
        progress(1.0)
    advice = tokenizer_advice([r.lines for r in references], cfg)
    notes = input_notes(systems, references, evaluator) + context.notes
    return Run(scored, list(references), evaluator, comparison, file_names(references), advice, misaligned, notes,
               context)


def _misaligned(systems: Sequence[SegmentFile], references: list[SegmentFile], previous: Run | None,
                progress: Progress | None) -> list[tuple[int, Misalignment]]:
    """Misalignment of each system against the references used; a re-score of the same files reuses the
    previous run's findings (they depend on the lines only, not on the settings)."""
    known: dict[int, Misalignment | None] = {}
    before = previous.config.scorer.references_used(previous.references) if previous is not None else []
    if previous is not None and len(before) == len(references) and all(a is b for a, b in zip(before, references)):
        found = dict(previous.misaligned)
        known = {id(s.file): found.get(i) for i, s in enumerate(previous.systems)}
    check = MisalignmentCheck([r.lines for r in references])
    out = []
    for i, f in enumerate(systems):
        if f.field and all(r.field and r.path == f.path for r in references):
            continue  # one structured file (WMT XML, a table): its reader aligned the segments by their ids
        where = known[id(f)] if id(f) in known else check.find(f.lines, progress)
        if where is not None:
            out.append((i, where))
    return out


def _reusable_matrix(previous: Run | None, systems: list[ScoredSystem], config: BleuConfig,
                     significance: Significance | None) -> PairMatrix | None:
    """The previous run's pair matrix, reordered, when it tested the same files with the same config and tests
    (a new baseline changes no p-value: both tests are symmetric in the pair)."""
    if previous is None or previous.comparison is None or previous.comparison.matrix is None:
        return None
    if previous.comparison.significance != significance or len(previous.systems) != len(systems):
        return None
    if previous.config != config:
        return None
    where = {id(s.file): i for i, s in enumerate(previous.systems)}
    order = [where.get(id(s.file)) for s in systems]
    if any(i is None for i in order) or len(set(order)) != len(order):
        return None
    return previous.comparison.matrix.permuted([int(i) for i in order if i is not None]).renamed(
        [s.name for s in systems])


def _compare(evaluator: Evaluator, systems: list[ScoredSystem], matched: list | None,
             significance: Significance | None, progress: Progress | None,
             matrix: PairMatrix | None = None) -> Comparison:
    cfg = evaluator.config
    names = [s.name for s in systems]
    stats = [s.stats for s in systems]
    note = ""
    if significance is not None and not cfg.scorer.significance:
        note = "Significance tests follow sacreBLEU: switch the variant to sacrebleu to run them."
        significance = None
    if significance is not None and (significance.bootstrap or significance.approximate):
        if matrix is None:
            matrix = pair_matrix(stats, cfg, names, significance.bootstrap, significance.approximate,
                                 seed=significance.seed, progress=scaled_progress(progress, 0.0, 0.9))
    else:
        matrix = None
    pairwise = []
    pairs = len(systems) - 1
    for i, s in enumerate(systems[1:], start=1):
        def part(start: float, span: float, i: int = i) -> Progress | None:
            return scaled_progress(progress, 0.9 + 0.1 * ((i - 1) + start) / pairs, 0.1 * span / pairs)

        loo = leave_one_out(evaluator, stats[0], s.stats, systems[0].corpus.score, s.corpus.score)
        ngrams, wins = None, {}
        if matched is not None:
            ngrams = NgramComparison(evaluator, matched[0], matched[i], max_order=cfg.max_order,
                                     progress=part(0.0, 0.1))
            top = ngrams.max_order
            wins = {n: ngrams.differences(n, top=NGRAM_TOP, progress=part(0.1 + 0.9 * (n - 1) / top, 0.9 / top))
                    for n in range(1, top + 1)}
        sentences = win_tie_loss(systems[0].sentences.score, s.sentences.score)
        pairwise.append(Pairwise(loo, ngrams, wins, sentences, sign_test(sentences[0], sentences[2])))
    labels, scores, counts = length_buckets(stats, evaluator)
    identical = [i > 0 and s.lines == systems[0].lines for i, s in enumerate(systems)]
    return Comparison(pairwise, labels, scores, counts, significance, note, identical, matrix)


def with_systems(run: Run, extra: Sequence[SegmentFile], progress: Progress | None = None) -> Run:
    """The run with more systems compared against its baseline (references are not processed again)."""
    files = [s.file for s in run.systems] + list(extra)
    # Names the user gave stay; new systems get path suffixes (all of them, if that is what tells them apart).
    names = [s.name for s in run.systems] + file_names(files)[len(run.systems):]
    if len(set(names)) != len(names):
        names = file_names(files)
    significance = run.comparison.significance if run.comparison is not None else Significance()
    ngram_diffs = run.comparison is None or any(p.ngrams is not None for p in run.comparison.pairwise)
    return score_run(files, run.references, run.config, names=names, significance=significance,
                     ngram_diffs=ngram_diffs, evaluator=run.evaluator, previous=run, context=run.context,
                     progress=progress)


def with_baseline(run: Run, index: int, progress: Progress | None = None) -> Run:
    """The run with system ``index`` as the baseline (the others keep their order after it).

    The pair matrix is reused, reordered: neither test depends on which system of a pair is the baseline.
    """
    order = [index] + [i for i in range(len(run.systems)) if i != index]
    significance = run.comparison.significance if run.comparison is not None else Significance()
    ngram_diffs = run.comparison is None or any(p.ngrams is not None for p in run.comparison.pairwise)
    return score_run([run.systems[i].file for i in order], run.references, run.config,
                     names=[run.systems[i].name for i in order], significance=significance,
                     ngram_diffs=ngram_diffs, evaluator=run.evaluator, previous=run, context=run.context,
                     progress=progress)


def check_labels(labels: Sequence[str], n_systems: int) -> list[str]:
    """Display names given by the user: one per system, none empty, no two alike."""
    labels = [label.strip() for label in labels]
    if len(labels) != n_systems:
        raise InputError(f"give one label per system: {len(labels)} labels for {n_systems} systems")
    if any(not label for label in labels):
        raise InputError("a label cannot be empty")
    if len(set(labels)) != len(labels):
        raise InputError(f"two systems would have the same label: {', '.join(labels)}")
    return labels


def renamed(run: Run, names: Sequence[str]) -> Run:
    """The same run with other display names (nothing is scored again)."""
    names = check_labels(names, len(run.systems))
    systems = [replace(s, name=name) for s, name in zip(run.systems, names)]
    comparison = run.comparison
    if comparison is not None and comparison.matrix is not None:
        comparison = replace(comparison, matrix=comparison.matrix.renamed(names))
    out = replace(run, systems=systems, comparison=comparison)
    # Names change no number: what a worker already computed carries over (renaming runs on the GUI thread).
    for key in ("documents", "tag_mismatches"):
        if key in run.__dict__:
            out.__dict__[key] = run.__dict__[key]
    return out


def rescored(run: Run, config: BleuConfig, progress: Progress | None = None) -> Run:
    """The same files scored again with another config (names are kept)."""
    significance = run.comparison.significance if run.comparison is not None else Significance()
    return score_run([s.file for s in run.systems], run.references, config, names=[s.name for s in run.systems],
                     significance=significance or Significance(), previous=run, context=run.context,
                     progress=progress)


def confidences(run: Run, n: int = BS_SAMPLES, seed: int | None = DEFAULT_SEED) -> list[tuple[float, float]]:
    """``sacrebleu --confidence`` for every system: (bootstrap mean, 95% half-width)."""
    return [confidence(s.stats, run.config, n=n, seed=seed) for s in run.systems]
