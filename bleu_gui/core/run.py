"""The run model: which files were scored, with which metrics and settings, and everything computed from them.

A :class:`Run` is what the command line prints, what the window shows and what
every export writes. :func:`score_run` is the one place that orchestrates
scoring: read files and a :class:`RunConfig` go in, a run comes out, with
progress and cancel (the progress callback may raise
:class:`~bleu_gui.core.errors.Cancelled`). :func:`rescore` is the one way to
score a run again (more systems, another baseline, other settings), and
:func:`subset_run` scores a slice of it.

Every metric of the run is a :class:`~.metrics.base.Metric`; each system has
one :class:`MetricResult` per metric, in the run's order, and the comparison one
:class:`MetricComparison` per metric. Nothing here asks which metric it holds,
except for BLEU's n-gram wins, which only BLEU's reference index can give.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import numpy as np

from .analysis.compare import NgramComparison, NgramDifference, bucket_scores, leave_one_out, length_buckets
from .analysis.input_notes import input_notes
from .analysis.misalignment import Misalignment, MisalignmentCheck
from .analysis.pair_matrix import PairMatrix, pair_matrix, sign_test, win_tie_loss
from .analysis.qa import CHECKS as QA_CHECKS
from .analysis.qa import Glossary, QAFlag, run_checks
from .analysis.resampling import AR_TRIALS, BS_SAMPLES, DEFAULT_SEED
from .analysis.significance import Interval, SystemTest, confidence
from .analysis.slices import Slice
from .analysis.tokenizer_table import ScoredAlready
from .analysis.whatif import BleuLines
from .errors import ConfigError, InputError
from .inputs.corpus import Context, subset_file
from .inputs.markup import mismatched_tags
from .inputs.names import file_names
from .inputs.text_files import SegmentFile, check_same_length
from .metrics.base import Metric, Score
from .metrics.bleu.config import BleuConfig
from .metrics.bleu.details import SentenceDetails
from .metrics.bleu.metric import Bleu, find_bleu, scaled_progress
from .metrics.bleu.scores import bleu_score
from .metrics.family import Advice, MetricConfig
from .metrics.ngram_stats import MatchedRows
from .metrics.registry import bind, cost_stages, family_of

Progress = Callable[[float], None]
NGRAM_TOP = 200  # n-grams listed per order and direction


@dataclass(frozen=True)
class Significance:
    """Which paired tests a run computes (None: not that one) and with which seed."""

    bootstrap: int | None = BS_SAMPLES
    approximate: int | None = AR_TRIALS
    seed: int | None = DEFAULT_SEED


@dataclass(frozen=True)
class RunConfig:
    """Everything that decides a run's numbers: its metrics with their settings (the first is the one a
    window shows first), the paired tests, and what else to compute."""

    metrics: tuple[MetricConfig, ...] = (BleuConfig(),)
    significance: Significance | None = Significance()
    ngram_diffs: bool = True      # BLEU's n-gram wins and losses between systems (the window's Compare tab)
    check_alignment: bool = True  # look for a line shift between each system and the references

    def with_metric(self, config: MetricConfig) -> RunConfig:
        """The same run with ``config`` in place of the metric of its family (added last if there is none)."""
        keys = [m.key for m in self.metrics]
        if config.key in keys:
            metrics = tuple(config if m.key == config.key else m for m in self.metrics)
        else:
            metrics = (*self.metrics, config)
        return replace(self, metrics=metrics)

    def validated(self) -> RunConfig:
        if not self.metrics:
            raise ConfigError("choose at least one metric")
        keys = [m.key for m in self.metrics]
        if len(set(keys)) != len(keys):
            raise ConfigError(f"each metric once: {', '.join(keys)}")
        return replace(self, metrics=tuple(m.validated() for m in self.metrics))


@dataclass(frozen=True)
class MetricResult:
    """One system under one metric."""

    stats: np.ndarray      # per-segment sufficient statistics
    sentences: np.ndarray  # each segment's own score (NaN where the metric gives none)
    corpus: Score


@dataclass(frozen=True)
class ScoredSystem:
    """One system output scored against the run's references, once per metric of the run."""

    name: str            # display name, unique within the run
    file: SegmentFile
    results: tuple[MetricResult, ...]

    @property
    def lines(self) -> list[str]:
        return self.file.lines


@dataclass(frozen=True)
class PairDelta:
    """The baseline (A) against one other system (B) under one metric."""

    loo: np.ndarray                              # leave-one-out contribution of each sentence to Δ
    sentences: tuple[int, int, int] = (0, 0, 0)  # sentences where B scores higher, the same, lower than A
    sign_p: float = 1.0                          # two-sided sign test of those (ties left out)


@dataclass(frozen=True)
class MetricComparison:
    """Everything that compares the systems of a run with its baseline under one metric."""

    pairwise: list[PairDelta]          # for systems[1:]
    bucket_scores: np.ndarray          # systems × length buckets
    matrix: PairMatrix | None = None   # both tests for every pair of systems; None when not computed

    @cached_property
    def bootstrap(self) -> list[SystemTest] | None:
        """``--paired-bs``: the baseline first, then each system against it (None when not computed)."""
        return self.matrix.baseline_tests("bs") if self.matrix is not None else None

    @cached_property
    def approximate(self) -> list[SystemTest] | None:
        """``--paired-ar``, laid out as :attr:`bootstrap`."""
        return self.matrix.baseline_tests("ar") if self.matrix is not None else None


@dataclass(frozen=True)
class NgramWins:
    """BLEU's n-grams that B matches more often than the baseline, and the reverse (one per pair)."""

    ngrams: NgramComparison
    wins: dict[int, tuple[list[NgramDifference], list[NgramDifference]]]  # order -> (B's wins, A's wins)


@dataclass(frozen=True)
class Comparison:
    """The systems of a run compared with its baseline: per metric, and BLEU's n-gram wins."""

    by_metric: tuple[MetricComparison, ...]
    bucket_labels: list[str]
    bucket_counts: np.ndarray
    significance: Significance | None
    ngram_wins: list[NgramWins] = field(default_factory=list)  # per pair (systems[1:]); empty when not computed
    note: str = ""
    identical: list[bool] = field(default_factory=list)  # per system: the baseline's very lines
    # Why the run has no paired tests when none were asked for ("" when they were): a staged open says they are
    # being computed, a run scored without them says so.
    untested: str = "No significance tests in this run: bootstrap and approximate randomization are both off."  # read
    # only when the comparison has no tests (see why_untested)

    def why_untested(self, metric: Metric) -> str:
        """Why ``metric`` has no paired tests in this comparison ("" when it has them or cannot)."""
        if not metric.significance:
            return "Significance tests follow sacreBLEU: switch the variant to sacrebleu to run them."
        return self.untested if self.significance is None else ""


@dataclass(frozen=True)
class Run:
    """Scored systems (baseline first), the references, the metrics and config that produced them."""

    systems: list[ScoredSystem]
    references: list[SegmentFile]
    metrics: tuple[Metric, ...]
    config: RunConfig
    comparison: Comparison | None = None
    reference_names: list[str] = field(default_factory=list)
    advice: tuple[Advice, ...] = ()  # settings sacreBLEU recommends for these references (tokenizer, TER)
    misaligned: list[tuple[int, Misalignment]] = field(default_factory=list)  # (system index, where)
    notes: tuple[str, ...] = ()  # what reading the inputs changed, and the metrics' notes (see input_notes)
    context: Context = Context()  # source, documents and metadata of the segments (no score depends on them)
    slice: Slice | None = None    # set when the run holds a subset of the input's segments (see subset_run)

    @property
    def bleu_index(self) -> int | None:
        """Where BLEU is among the run's metrics (None without BLEU)."""
        found = find_bleu(self.metrics)
        return found[0] if found is not None else None

    @property
    def bleu(self) -> Bleu | None:
        """The run's BLEU (its reference index gives match details, n-gram wins and explanations)."""
        found = find_bleu(self.metrics)
        return found[1] if found is not None else None

    def metric_index(self, key: str) -> int:
        """The index of the metric named ``key`` (its family, ``bleu``, or its name, ``BLEU``)."""
        for k, m in enumerate(self.metrics):
            if key in (m.key, m.name):
                return k
        raise KeyError(key)

    def line_number(self, i: int) -> int:
        """The 1-based line (segment) number in the inputs of sentence ``i`` (a slice keeps the original's)."""
        return self.slice.rows[i] + 1 if self.slice is not None else i + 1

    @property
    def annotated(self) -> list[ScoredSystem]:
        """The systems whose files carry human error annotations (MQM), in the run's order."""
        return [s for s in self.systems if s.file.annotations is not None]

    @property
    def baseline(self) -> ScoredSystem:
        return self.systems[0]

    @property
    def n_sentences(self) -> int:
        return self.metrics[0].n_lines

    def details(self, system: int, sentence: int) -> SentenceDetails:
        """BLEU's match details of one sentence of one system (computed on demand, never stored)."""
        bleu = self.bleu
        if bleu is None:
            raise ValueError("the run has no BLEU")
        return bleu.details(sentence, self.systems[system].lines[sentence])

    def tag_mismatches(self, system: int) -> list[int]:
        """The segments whose candidate carries another number of inline tags than the source or a reference."""
        source = [self.context.source.tags] if self.context.source is not None else []
        return mismatched_tags(self.systems[system].file.tags, source + [r.tags for r in self.references])

    def qa_flags(self, system: int, checks: Sequence[str] = QA_CHECKS, glossary: Glossary | None = None) -> list[QAFlag]:
        """The translator QA checks' flags on a system's segments (with the source where there is one)."""
        s, source = self.systems[system], self.context.source
        return run_checks(s.name, s.lines, source.lines if source is not None else None, checks, glossary,
                          self.tag_mismatches(system))

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


def score_run(systems: Sequence[SegmentFile], references: Sequence[SegmentFile], config: RunConfig = RunConfig(),
              *, names: Sequence[str] | None = None, context: Context = Context(), previous: Run | None = None,
              metrics: Sequence[Metric] | None = None, progress: Progress | None = None) -> Run:
    """Score every system against the references with every metric of ``config``; with two or more systems,
    compare each with the first (the baseline).

    ``names``: display names (default: the shortest path suffixes that tell the files apart). ``context``: the
    source, documents and metadata, carried along unscored. ``previous``: a run of the same references whose
    metrics (references processed already), systems' statistics, comparisons with the baseline, misalignment
    checks and pair matrices still hold where nothing they depend on changed (the same metric object, the same
    file object). ``metrics``: metrics bound to these references already, one per metric of ``config`` (a
    slice's).
    """
    return _score_run(systems, references, config, names=names, context=context, previous=previous,
                      metrics=metrics, progress=progress)[0]


def _score_run(systems: Sequence[SegmentFile], references: Sequence[SegmentFile], config: RunConfig, *,
               names: Sequence[str] | None, context: Context, previous: Run | None, metrics: Sequence[Metric] | None,
               progress: Progress | None, rows_before: list[MatchedRows] | None = None, keep_rows: bool = False
               ) -> tuple[Run, list[MatchedRows] | None]:
    """:func:`score_run`, and BLEU's matched n-gram rows of every system where they were counted.

    A staged run (:func:`score_in_stages`) counts the n-gram wins last, with the paired tests, from the rows its
    first stage matched: ``keep_rows`` has BLEU's statistics counted with their rows (the same pass), which are
    returned; ``rows_before`` are such rows of these very systems, from an earlier stage."""
    if not systems:
        raise InputError("no system output given")
    check_same_length([*systems, *references])
    context.check_length(len(systems[0].lines))
    cfg = config.validated()
    names = list(names) if names is not None else file_names(systems)
    if len(set(names)) != len(names):
        raise InputError(f"two systems have the same name: {', '.join(names)}")
    chosen, language_notes = _chosen(cfg, context)
    bound = list(metrics) if metrics is not None else _bind(cfg, chosen, references, previous,
                                                           scaled_progress(progress, 0.0, 0.3))
    comparing = len(systems) > 1
    found = find_bleu(bound)
    with_rows = comparing and (cfg.ngram_diffs or keep_rows) and found is not None
    scoring_span = 0.6 if comparing else 0.7
    earlier = _earlier_results(previous, bound)
    wins = _reusable_wins(previous, systems, bound, earlier) if with_rows else None
    matched: list[MatchedRows] | None = rows_before if with_rows and wins is None else None
    counted: list[MatchedRows] = []
    scored = []
    for i, f in enumerate(systems):
        part = scaled_progress(progress, 0.3 + scoring_span * i / len(systems), scoring_span / len(systems))
        results = []
        for k, metric in enumerate(bound):
            step = scaled_progress(part, k / len(bound), 1 / len(bound))
            kept = earlier.get((id(f), k))
            rows_wanted = with_rows and wins is None and matched is None and found is not None and k == found[0]
            if kept is not None and not rows_wanted:
                results.append(kept)  # the same metric read the same file already: its statistics stand
                continue
            if rows_wanted and found is not None:
                stats, rows = found[1].matched_statistics(f.lines, step)
                counted.append(rows)
            else:
                stats = metric.system_statistics(f, step)
            results.append(MetricResult(stats, metric.sentence_scores(stats), metric.corpus_score(stats)))
        scored.append(ScoredSystem(names[i], f, tuple(results)))
    matched = matched if matched is not None else (counted or None)
    comparison = None
    if comparing:
        comparison = _compare(bound, cfg, scored, references,
                              matched if cfg.ngram_diffs and wins is None else None,
                              scaled_progress(progress, 0.9, 0.1), _reusable_matrices(previous, scored, bound, cfg),
                              _reusable_comparisons(previous, scored, references, bound))
        if wins is not None and cfg.ngram_diffs:
            comparison = replace(comparison, ngram_wins=wins)
    misaligned = _misaligned(systems, _references_used(bound, references), previous,
                             scaled_progress(progress, 1.0, 0.0)) if cfg.check_alignment else []  # cancel checks only
    if progress is not None:
        progress(1.0)
    advice = _advice(chosen, bound, references, context, previous)
    notes = language_notes + input_notes(systems, references, bound) + context.notes
    return Run(scored, list(references), tuple(bound), cfg, comparison, file_names(references), advice, misaligned,
               notes, context), matched if keep_rows else None


@dataclass(frozen=True)
class Stage:
    """One stage of :func:`score_in_stages`: the run scored so far and what is still to come (the titles of the
    metrics not scored yet, then "significance tests"); the last stage waits for nothing and is the whole run."""

    run: Run
    waiting: tuple[str, ...]


def score_in_stages(systems: Sequence[SegmentFile], references: Sequence[SegmentFile], config: RunConfig, *,
                    names: Sequence[str] | None = None, context: Context = Context(),
                    progress: Progress | None = None, starting: Callable[[str], None] | None = None
                    ) -> Generator[Stage, None, None]:
    """:func:`score_run`, one stage at a time, cheapest first: the metrics of the lowest cost (BLEU, the edit
    distance, read scores), then each dearer family (chrF, then TER), then the paired tests and BLEU's n-gram wins
    (counted from the rows BLEU's stage matched) — each stage a run of its own that keeps every statistic and
    comparison of the one before (``previous``). ``starting(text)`` is told what each stage
    computes ("Scoring TER", "Significance tests") before it starts; the progress bar's share of each stage follows
    what its new metrics usually cost."""
    stages = cost_stages(config.metrics)
    tests = len(systems) > 1 and config.significance is not None
    spans = _stage_spans(stages, tests)
    previous: Run | None = None
    rows: list[MatchedRows] | None = None
    for k, metrics in enumerate([*stages, *([config.metrics] if tests else [])]):
        last = k == len(spans) - 1
        new = [family_of(m).title for m in metrics if previous is None or m not in previous.config.metrics]
        if starting is not None:
            starting(f"Scoring {', '.join(new)}" if new else "Significance tests")
        # The n-gram wins, like the tests, are counted last: from the rows BLEU's stage matched.
        staged = config if last else replace(config, metrics=metrics, significance=None, ngram_diffs=False)
        run, rows = _score_run(systems, references, staged, names=names, context=context, previous=previous,
                               metrics=None, progress=scaled_progress(progress, *spans[k]), rows_before=rows,
                               keep_rows=config.ngram_diffs and not last)
        waiting = ([family_of(m).title for m in config.metrics if m not in metrics]
                   + ["BLEU's n-gram wins"] * (rows is not None and not last)
                   + ["significance tests"] * (tests and not last))
        yield Stage(run, tuple(waiting))
        previous = run


def _stage_spans(stages: Sequence[Sequence[MetricConfig]], tests: bool) -> list[tuple[float, float]]:
    """Each stage's (start, share) of the progress: a stage weighs what its new metrics usually cost (TER's shift
    search the most), the paired tests a share of their own."""
    weights, seen = [], set[MetricConfig]()
    for metrics in stages:
        weights.append(sum(1 + 3 * family_of(m).cost for m in metrics if m not in seen))
        seen |= set(metrics)
    weights += [2] * tests
    total, start, out = sum(weights) or 1, 0.0, []
    for w in weights:
        out.append((start, w / total))
        start += w / total
    return out


def _chosen(config: RunConfig, context: Context) -> tuple[list[MetricConfig], tuple[str, ...]]:
    """Each metric's settings as the declared target language completes them (BLEU's tokenizer: sacreBLEU's zh,
    ja-mecab, ko-mecab, as ``sacrebleu -l`` chooses), and notes saying what it chose (never silent)."""
    chosen, notes = [], []
    for m in config.metrics:
        c, note = m.for_target_language(context.languages, context.languages_from)
        chosen.append(c)
        notes += [note] if note else []
    return chosen, tuple(notes)


def _bind(config: RunConfig, chosen: list[MetricConfig], references: Sequence[SegmentFile], previous: Run | None,
          progress: Progress | None) -> list[Metric]:
    """Each metric of ``config`` (its settings as ``chosen`` completes them) bound to ``references``; a metric of
    ``previous`` with the same settings and the same reference files is reused as it is."""
    lines = [r.lines for r in references]
    same_references = previous is not None and len(previous.references) == len(references) and all(
        a is b for a, b in zip(previous.references, references))
    reusable = {m.key: (c, m) for c, m in zip(previous.config.metrics, previous.metrics)} if (
        previous is not None and same_references) else {}
    out = []
    for k, (metric_config, settings) in enumerate(zip(config.metrics, chosen)):
        part = scaled_progress(progress, k / len(config.metrics), 1 / len(config.metrics))
        earlier = reusable.get(metric_config.key)
        if earlier is not None and earlier[0] == metric_config:
            out.append(earlier[1])
        else:
            out.append(bind(settings, lines, part, earlier[1] if earlier is not None else None))
    return out


def _advice(chosen: Sequence[MetricConfig], metrics: Sequence[Metric], references: Sequence[SegmentFile],
            context: Context, previous: Run | None) -> tuple[Advice, ...]:
    """What sacreBLEU recommends instead of each metric's settings (``chosen``) for these references; a metric the
    previous run scored (the same object: the same settings and references) for the same target language keeps
    the previous run's advice (a staged run asks once, not at every stage)."""
    lines = [r.lines for r in references]
    kept = {id(m) for m in previous.metrics} if (
        previous is not None and previous.context.target_language == context.target_language) else set()
    before = {a.config.key: a for a in previous.advice} if previous is not None else {}
    out = []
    for c, metric in zip(chosen, metrics):
        found = before.get(c.key) if id(metric) in kept else c.advice(lines, context.target_language)
        out += [found] if found is not None else []
    return tuple(out)


def _references_used(metrics: Sequence[Metric], references: Sequence[SegmentFile]) -> list[SegmentFile]:
    """The references a misalignment is looked for against: BLEU's own (d2l reads the first only), or all."""
    found = find_bleu(metrics)
    return found[1].variant.references_used(references) if found is not None else list(references)


def _misaligned(systems: Sequence[SegmentFile], references: list[SegmentFile], previous: Run | None,
                progress: Progress | None) -> list[tuple[int, Misalignment]]:
    """Misalignment of each system against the references used; a re-score of the same files reuses the
    previous run's findings (they depend on the lines only, not on the settings)."""
    known: dict[int, Misalignment | None] = {}
    before = _references_used(previous.metrics, previous.references) if previous is not None else []
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


def _earlier_results(previous: Run | None, metrics: Sequence[Metric]) -> dict[tuple[int, int], MetricResult]:
    """The previous run's results that hold for ``metrics``: keyed by (the file object's id, the metric's index in
    ``metrics``) where ``metrics`` holds the very metric object the previous run scored with (same settings, same
    references: see :func:`_bind`)."""
    if previous is None:
        return {}
    out: dict[tuple[int, int], MetricResult] = {}
    for k, metric in enumerate(metrics):
        for j, before in enumerate(previous.metrics):
            if before is metric:
                out.update({(id(s.file), k): s.results[j] for s in previous.systems})
    return out


def _reusable_wins(previous: Run | None, systems: Sequence[SegmentFile], metrics: Sequence[Metric],
                   earlier: dict[tuple[int, int], MetricResult]) -> list[NgramWins] | None:
    """The previous run's n-gram wins when BLEU's statistics of every system stand and the systems are the same
    files in the same order (the wins are per pair with the baseline); None: count them again."""
    found = find_bleu(metrics)
    if (previous is None or previous.comparison is None or not previous.comparison.ngram_wins or found is None
            or [id(s.file) for s in previous.systems] != [id(f) for f in systems]
            or any((id(f), found[0]) not in earlier for f in systems)):
        return None
    return previous.comparison.ngram_wins


def _reusable_matrices(previous: Run | None, systems: list[ScoredSystem], metrics: Sequence[Metric],
                       config: RunConfig) -> list[PairMatrix | None]:
    """Per metric, the previous run's pair matrix, reordered, when it tested the same files with the same metric
    and tests (a new baseline changes no p-value: both tests are symmetric in the pair)."""
    none: list[PairMatrix | None] = [None] * len(metrics)
    if previous is None or previous.comparison is None or len(previous.systems) != len(systems):
        return none
    if previous.comparison.significance != config.significance:
        return none
    where = {id(s.file): i for i, s in enumerate(previous.systems)}
    order = [where.get(id(s.file)) for s in systems]
    if any(i is None for i in order) or len(set(order)) != len(order):
        return none
    kept = [int(i) for i in order if i is not None]
    out = list(none)
    for k, metric in enumerate(metrics):
        for j, before in enumerate(previous.metrics):
            matrix = previous.comparison.by_metric[j].matrix
            if before is metric and matrix is not None:
                out[k] = matrix.permuted(kept).renamed([s.name for s in systems])
    return out


def _reusable_comparisons(previous: Run | None, systems: list[ScoredSystem], references: Sequence[SegmentFile],
                          metrics: Sequence[Metric]) -> list[MetricComparison | None]:
    """Per metric, the previous run's comparison with the baseline (leave-one-out, wins/ties/losses, length
    buckets) when it compared the very statistics of these systems in this order with the same metric object, and
    its length buckets came from the same BLEU (or from the references' words in both); its pair matrix is not
    read (see :func:`_reusable_matrices`)."""
    none: list[MetricComparison | None] = [None] * len(metrics)
    if (previous is None or previous.comparison is None or len(previous.systems) != len(systems)
            or [id(r) for r in previous.references] != [id(r) for r in references]):
        return none
    bleu_before, bleu_now = find_bleu(previous.metrics), find_bleu(metrics)
    if (bleu_before is None) != (bleu_now is None) or (
            bleu_before is not None and bleu_now is not None and bleu_before[1] is not bleu_now[1]):
        return none
    out = list(none)
    for k, metric in enumerate(metrics):
        for j, before in enumerate(previous.metrics):
            if before is metric and all(a.results[j].stats is b.results[k].stats
                                        for a, b in zip(previous.systems, systems)):
                out[k] = previous.comparison.by_metric[j]
    return out


def _reference_lengths(metrics: Sequence[Metric], systems: list[ScoredSystem], references: Sequence[SegmentFile]
                       ) -> np.ndarray:
    """Each sentence's reference length for compare-mt's length buckets: BLEU's effective reference length of
    the baseline where BLEU is a metric of the run, else the first reference's words."""
    found = find_bleu(metrics)
    if found is not None:
        return systems[0].results[found[0]].stats[:, 1]
    return np.array([len(line.split()) for line in references[0].lines], np.int64)


def _compare(metrics: Sequence[Metric], cfg: RunConfig, systems: list[ScoredSystem],
             references: Sequence[SegmentFile], matched: list[MatchedRows] | None, progress: Progress | None,
             matrices: list[PairMatrix | None], earlier: list[MetricComparison | None]) -> Comparison:
    names = [s.name for s in systems]
    significance = cfg.significance
    note = ""
    if significance is not None and not all(m.significance for m in metrics):
        note = "Significance tests follow sacreBLEU: switch the variant to sacrebleu to run them."
    if significance is not None and not (significance.bootstrap or significance.approximate):
        significance = None
    labels, masks = length_buckets(_reference_lengths(metrics, systems, references))
    by_metric = []
    span = 0.9 / len(metrics)
    for k, metric in enumerate(metrics):
        stats = [s.results[k].stats for s in systems]
        tested = significance is not None and metric.significance
        matrix = matrices[k] if tested else None
        if matrix is None and tested and significance is not None:
            matrix = pair_matrix(stats, metric, names, significance.bootstrap, significance.approximate,
                                 seed=significance.seed, progress=scaled_progress(progress, k * span, span))
        before = earlier[k]
        if before is not None:  # an earlier stage compared these very statistics
            by_metric.append(replace(before, matrix=matrix))
            continue
        pairwise = []
        base = systems[0].results[k]
        done = scaled_progress(progress, (k + 1) * span, 0.0)  # a cancel check between systems
        base_without = metric.without_each(base.stats)  # the baseline's leave-one-out, once for every pair
        for s in systems[1:]:
            if done is not None:
                done(1.0)
            result = s.results[k]
            loo = leave_one_out(metric, base_without, result.stats, base.corpus.score, result.corpus.score)
            wtl = win_tie_loss(base.sentences, result.sentences, _both_scored(metric, base.stats, result.stats))
            if not metric.higher_is_better:  # "B better" means a lower score
                wtl = (wtl[2], wtl[1], wtl[0])
            pairwise.append(PairDelta(loo, wtl, sign_test(wtl[0], wtl[2])))
        if done is not None:
            done(1.0)
        by_metric.append(MetricComparison(pairwise, bucket_scores(stats, metric, masks), matrix))
    wins = _ngram_wins(metrics, matched, scaled_progress(progress, 0.9, 0.1)) if matched is not None else []
    identical = [i > 0 and s.lines == systems[0].lines for i, s in enumerate(systems)]
    return Comparison(tuple(by_metric), labels, np.array([int(m.sum()) for m in masks]), significance, wins, note,
                      identical)


def _both_scored(metric: Metric, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """The segments both systems have a score for (None: every segment)."""
    scored_a, scored_b = metric.scored(a), metric.scored(b)
    if scored_a is None and scored_b is None:
        return None
    every = np.ones(len(a), bool)
    return (scored_a if scored_a is not None else every) & (scored_b if scored_b is not None else every)


def _ngram_wins(metrics: Sequence[Metric], matched: list[MatchedRows], progress: Progress | None) -> list[NgramWins]:
    found = find_bleu(metrics)
    assert found is not None  # matched rows are BLEU's
    bleu = found[1]
    pairs = len(matched) - 1
    out = []
    for i in range(1, len(matched)):
        def part(start: float, span: float, i: int = i) -> Progress | None:
            return scaled_progress(progress, ((i - 1) + start) / pairs, span / pairs)

        ngrams = NgramComparison(bleu, matched[0], matched[i], max_order=bleu.config.max_order,
                                 progress=part(0.0, 0.1))
        top = ngrams.max_order
        wins = {n: ngrams.differences(n, top=NGRAM_TOP, progress=part(0.1 + 0.9 * (n - 1) / top, 0.9 / top))
                for n in range(1, top + 1)}
        out.append(NgramWins(ngrams, wins))
    return out


def rescore(run: Run, *, extra: Sequence[SegmentFile] = (), baseline: int = 0, config: RunConfig | None = None,
            progress: Progress | None = None) -> Run:
    """The run scored again: with ``extra`` systems added (their names the path suffixes that tell them apart),
    system ``baseline`` first (the others keep their order after it), and/or another ``config``. Names the user
    gave stay; references processed already, misalignment checks and pair matrices that still hold are reused.
    A slice is rescored as a slice of its whole run only by :func:`subset_run`."""
    order = [baseline] + [i for i in range(len(run.systems)) if i != baseline]
    files = [run.systems[i].file for i in order] + list(extra)
    names = [run.systems[i].name for i in order]
    if extra:
        suffixes = file_names(files)
        names = names + suffixes[len(names):]
        if len(set(names)) != len(names):
            names = suffixes
    return score_run(files, run.references, config if config is not None else run.config, names=names,
                     context=run.context, previous=run, progress=progress)


def subset_run(run: Run, rows: Sequence[int], description: str, *, significance: Significance | None = None,
               progress: Progress | None = None) -> Run:
    """The run restricted to the segments ``rows`` (indices of ``run``), scored again from their statistics as a
    corpus of its own, with the same systems, names and settings, and the run's paired tests (or
    ``significance``). ``run`` must be a whole run, not a slice."""
    if run.slice is not None:
        raise ValueError("slice the whole run, not a slice of it")
    keep = list(rows)
    if not keep:
        raise InputError("the slice is empty")
    config = run.config if significance is None else replace(run.config, significance=significance)
    # A slice needs no second look for line shifts, and n-gram wins only where the whole run has them.
    config = replace(config, check_alignment=False,
                     ngram_diffs=run.comparison is not None and bool(run.comparison.ngram_wins))
    references = [subset_file(r, keep) for r in run.references]
    lines = [r.lines for r in references]
    # The whole run did every word of the slice already: each metric continues its work, never starts over. Its
    # settings are those the whole run was scored with (a tokenizer the target language chose included).
    chosen, _ = _chosen(run.config, run.context)
    metrics = [bind(c, lines, scaled_progress(progress, 0.3 * k / len(run.metrics), 0.3 / len(run.metrics)), m)
               for k, (c, m) in enumerate(zip(chosen, run.metrics))]
    part = score_run([subset_file(s.file, keep) for s in run.systems], references, config,
                     names=[s.name for s in run.systems], context=run.context.subset(keep), metrics=metrics,
                     progress=scaled_progress(progress, 0.3, 0.7))
    whole = tuple(tuple(s.results[k].corpus.score for s in run.systems) for k in range(len(run.metrics)))
    return replace(part, slice=Slice(description, tuple(keep), run.n_sentences, whole))


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
    if comparison is not None:
        by_metric = tuple(replace(c, matrix=c.matrix.renamed(names)) if c.matrix is not None else c
                          for c in comparison.by_metric)
        comparison = replace(comparison, by_metric=by_metric)
    return replace(run, systems=systems, comparison=comparison)


def confidences(run: Run, metric: int = 0, n: int = BS_SAMPLES,
                seed: int | None = DEFAULT_SEED) -> list[Interval]:
    """``sacrebleu --confidence`` for every system under the run's ``metric``-th metric: bootstrap mean and 95%
    half-width, or why there is none."""
    return [confidence(s.results[metric].stats, run.metrics[metric], n=n, seed=seed) for s in run.systems]


def bleu_lines(run: Run, system: int) -> BleuLines:
    """System ``system`` as the run's BLEU scored it (what explanations and what-if edits read)."""
    k, bleu = run.bleu_index, run.bleu
    if k is None or bleu is None:
        raise ValueError("the run has no BLEU")
    s = run.systems[system]
    return BleuLines(bleu, s.lines, s.results[k].stats, bleu_score(s.results[k].corpus), run.reference_names)


def scored_already(run: Run) -> ScoredAlready:
    """The run's systems as its BLEU scored them, for the tokenizer × case table."""
    k, bleu = run.bleu_index, run.bleu
    if k is None or bleu is None:
        raise ValueError("the tokenizer table compares BLEU scores: the run has no BLEU")
    return ScoredAlready([s.name for s in run.systems], [s.lines for s in run.systems],
                         [s.results[k].corpus.score for s in run.systems], bleu.signature(), bleu.config)
