"""Scoring a run: :func:`score_run` (read files and a :class:`RunConfig` in, a :class:`Run` out, reusing what an
earlier run of the same files computed), :func:`score_in_stages` (cheapest metrics first), :func:`rescore` and
:func:`subset_run`, and the small operations on a run the command and the window share."""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..analysis.input_notes import input_notes
from ..analysis.misalignment import Misalignment, MisalignmentCheck
from ..analysis.resampling import BS_SAMPLES, DEFAULT_SEED
from ..analysis.significance import Interval, confidence
from ..analysis.slices import Slice
from ..analysis.tokenizer_table import ScoredAlready
from ..analysis.whatif import BleuLines
from ..errors import InputError
from ..inputs.corpus import Context, subset_file
from ..inputs.names import file_names
from ..inputs.ratings import Ratings
from ..inputs.text_files import SegmentFile, check_same_length
from ..metrics.base import Metric
from ..metrics.bleu.metric import Bleu, find_bleu, scaled_progress
from ..metrics.bleu.scores import bleu_score
from ..metrics.family import Advice, MetricConfig
from ..metrics.ngram_stats import MatchedRows
from ..metrics.registry import bind, check_references, cost_stages, family_of, is_unscored, unscored
from .comparison import compare_with_baseline, reusable_comparisons, reusable_matrices, reusable_wins
from .results import MetricResult, Run, RunConfig, ScoredSystem, Significance

Progress = Callable[[float], None]


def score_run(systems: Sequence[SegmentFile], references: Sequence[SegmentFile], config: RunConfig = RunConfig(),
              *, names: Sequence[str] | None = None, context: Context = Context(), previous: Run | None = None,
              metrics: Sequence[Metric] | None = None, progress: Progress | None = None,
              annotated_from: Mapping[int, int] | None = None) -> Run:
    """Score every system against the references with every metric of ``config``; with two or more systems,
    compare each with the first (the baseline).

    ``names``: display names (default: the shortest path suffixes that tell the files apart). ``context``: the
    source, documents and metadata, carried along unscored. ``previous``: a run of the same references whose
    metrics (references processed already), systems' statistics, comparisons with the baseline, misalignment
    checks and pair matrices still hold where nothing they depend on changed (the same metric object, the same
    file object). ``metrics``: metrics bound to these references already, one per metric of ``config`` (a
    slice's). ``annotated_from``: files of ``previous`` given again with other attached data only (annotations,
    segment scores; the id of the new file object → the old one's): their results carry over, but for the metrics
    that read such data.
    """
    return _score_run(systems, references, config, names=names, context=context, previous=previous,
                      metrics=metrics, progress=progress, annotated_from=annotated_from)[0]


def _score_run(systems: Sequence[SegmentFile], references: Sequence[SegmentFile], config: RunConfig, *,
               names: Sequence[str] | None, context: Context, previous: Run | None, metrics: Sequence[Metric] | None,
               progress: Progress | None, rows_before: list[MatchedRows] | None = None, keep_rows: bool = False,
               annotated_from: Mapping[int, int] | None = None,
               given: Mapping[tuple[int, int], MetricResult] | None = None) -> tuple[Run, list[MatchedRows] | None]:
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
    binding = _binding_share(cfg, previous)
    bound = list(metrics) if metrics is not None else _bind(cfg, chosen, references, previous,
                                                           scaled_progress(progress, 0.0, binding), context.source)
    comparing = len(systems) > 1
    found = find_bleu(bound)
    with_rows = comparing and (cfg.ngram_diffs or keep_rows) and found is not None
    scoring_span = (0.9 if comparing else 1.0) - binding
    earlier = {**_earlier_results(previous, bound, annotated_from or {}), **(given or {})}
    same = dict(annotated_from or {})  # a file given again with other annotations: its lines are the old file's
    wins = reusable_wins(previous, systems, bound, earlier, same) if with_rows else None
    matched: list[MatchedRows] | None = rows_before if with_rows and wins is None else None
    counted: list[MatchedRows] = []
    scored = []
    for k, metric in enumerate(bound):  # a model that scores every system in one request (COMET) does so now
        metric.prepare([f for f in systems if (id(f), k) not in earlier],
                       scaled_progress(progress, binding, scoring_span))
    rows_of = found if with_rows and wins is None and matched is None else None
    for i, f in enumerate(systems):
        part = scaled_progress(progress, binding + scoring_span * i / len(systems), scoring_span / len(systems))
        scored.append(ScoredSystem(names[i], f, _scored(f, bound, earlier, rows_of, counted, part)))
    matched = matched if matched is not None else (counted or None)
    comparison = None
    if comparing:
        comparison = compare_with_baseline(bound, cfg, scored, references,
                                           matched if cfg.ngram_diffs and wins is None else None,
                                           scaled_progress(progress, 0.9, 0.1),
                                           reusable_matrices(previous, scored, bound, cfg, same),
                                           reusable_comparisons(previous, scored, references, bound),
                                           context.source)
        if wins is not None and cfg.ngram_diffs:
            comparison = replace(comparison, ngram_wins=wins)
    misaligned = _misaligned(systems, _references_used(bound, references), previous,
                             scaled_progress(progress, 1.0, 0.0), same) if cfg.check_alignment else []  # cancel checks only
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
    if stages and all(family_of(m).scored_elsewhere for m in stages[0]):
        # Only a worker's or an endpoint's metrics (a QE checkpoint, the LLM judge): the texts first, under the
        # stand-in, so that the run is there to read, check and review while they score — and stays on a cancel.
        stages = [unscored(), *stages]
    tests = len(systems) > 1 and config.significance is not None
    spans = _stage_spans(stages, tests)
    previous: Run | None = None
    rows: list[MatchedRows] | None = None
    for k, metrics in enumerate([*stages, *([config.metrics] if tests else [])]):
        last = k == len(spans) - 1
        new = [family_of(m).title for m in metrics if previous is None or m not in previous.config.metrics]
        if starting is not None:
            starting("Reading the texts" if is_unscored(metrics) else
                     f"Scoring {', '.join(new)}" if new else "Significance tests")
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


def _scored(f: SegmentFile, bound: Sequence[Metric], earlier: Mapping[tuple[int, int], MetricResult],
            rows_of: tuple[int, Bleu] | None, counted: list[MatchedRows],
            progress: Progress | None) -> tuple[MetricResult, ...]:
    """Every metric of ``bound`` on system ``f``: a result ``earlier`` holds stands; BLEU (``rows_of``: where it is
    among them, and it) counts its matched n-gram rows too, appended to ``counted``. The system's share of the bar
    goes to the metrics it scores now; one kept from an earlier stage takes none."""
    rows_at = rows_of[0] if rows_of is not None else None
    todo = [k for k in range(len(bound)) if (id(f), k) not in earlier or k == rows_at]
    results = []
    for k, metric in enumerate(bound):
        kept = earlier.get((id(f), k))
        if kept is not None and k != rows_at:
            results.append(kept)  # the same metric read the same file already: its statistics stand
            continue
        step = scaled_progress(progress, todo.index(k) / len(todo), 1 / len(todo))
        if rows_of is not None and k == rows_at:
            stats, rows = rows_of[1].matched_statistics(f.lines, step)
            counted.append(rows)
        else:
            stats = metric.system_statistics(f, step)
        results.append(MetricResult(stats, metric.sentence_scores(stats), metric.corpus_score(stats)))
    return tuple(results)


def _binding_share(config: RunConfig, previous: Run | None) -> float:
    """The share of a stage's progress that binding its new metrics takes: reading the references (BLEU's and
    chrF's n-grams, TER's words) is work; a metric scored elsewhere (COMET, the LLM judge) binds at once."""
    new = [m for m in config.metrics if previous is None or m not in previous.config.metrics]
    return 0.3 if any(not family_of(m).scored_elsewhere for m in new) else 0.0


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
        chosen.append(c.for_test_set(context.test_set))
        notes += [note] if note else []
    return [c.beside(chosen) for c in chosen], tuple(notes)


def _bind(config: RunConfig, chosen: list[MetricConfig], references: Sequence[SegmentFile], previous: Run | None,
          progress: Progress | None, source: SegmentFile | None) -> list[Metric]:
    """Each metric of ``config`` (its settings as ``chosen`` completes them) bound to ``references`` (and the
    ``source``, for a metric that reads it); a metric of ``previous`` with the same settings and the same reference
    files is reused as it is."""
    check_references(config.metrics, bool(references))
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
            out.append(bind(settings, lines, part, earlier[1] if earlier is not None else None,
                            source.lines if source is not None else None))
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
                progress: Progress | None, same: Mapping[int, int]) -> list[tuple[int, Misalignment]]:
    """Misalignment of each system against the references used; a re-score of the same files (or of files given
    again with other annotations: ``same``, new id → old) reuses the previous run's findings (they depend on the
    lines only, not on the settings)."""
    known: dict[int, Misalignment | None] = {}
    before = _references_used(previous.metrics, previous.references) if previous is not None else []
    if previous is not None and len(before) == len(references) and all(a is b for a, b in zip(before, references)):
        found = dict(previous.misaligned)
        known = {id(s.file): found.get(i) for i, s in enumerate(previous.systems)}
        known |= {new: known[old] for new, old in same.items() if old in known}
    check = MisalignmentCheck([r.lines for r in references])
    out = []
    for i, f in enumerate(systems):
        if f.field and all(r.field and r.path == f.path for r in references):
            continue  # one structured file (WMT XML, a table): its reader aligned the segments by their ids
        where = known[id(f)] if id(f) in known else check.find(f.lines, progress)
        if where is not None:
            out.append((i, where))
    return out


def _earlier_results(previous: Run | None, metrics: Sequence[Metric],
                     annotated_from: Mapping[int, int]) -> dict[tuple[int, int], MetricResult]:
    """The previous run's results that hold for ``metrics``: keyed by (the file object's id, the metric's index in
    ``metrics``) where ``metrics`` holds the very metric object the previous run scored with (same settings, same
    references: see :func:`_bind`); a file given again with other annotations only keeps the results of the
    metrics that do not read them."""
    if previous is None:
        return {}
    out: dict[tuple[int, int], MetricResult] = {}
    for k, metric in enumerate(metrics):
        for j, before in enumerate(previous.metrics):
            if before is metric:
                out.update({(id(s.file), k): s.results[j] for s in previous.systems})
                if not metric.reads_attached:
                    out.update({(new, k): out[old, k] for new, old in annotated_from.items() if (old, k) in out})
    return out


def rescore(run: Run, *, extra: Sequence[SegmentFile] = (), baseline: int = 0, config: RunConfig | None = None,
            progress: Progress | None = None, annotations: Mapping[int, tuple[Ratings | None, ...]] | None = None,
            scores: Mapping[int, Mapping[str, tuple[float, ...]]] | None = None) -> Run:
    """The run scored again: with ``extra`` systems added (their names the path suffixes that tell them apart),
    system ``baseline`` first (the others keep their order after it), and/or another ``config``, and/or other
    ``annotations`` or segment ``scores`` (columns added or replaced) for some systems (by index: a reviewer's
    marks and ESA scores; only the metrics that read them are scored again). Names the user gave stay; references
    processed already, misalignment checks and pair matrices that still hold are reused. A slice is rescored as a
    slice of its whole run only by :func:`subset_run`."""
    order = [baseline] + [i for i in range(len(run.systems)) if i != baseline]
    changed = set(annotations or {}) | set(scores or {})
    given = {i: replace(run.systems[i].file,
                        annotations=(annotations or {}).get(i, run.systems[i].file.annotations),
                        scores={**run.systems[i].file.scores, **(scores or {}).get(i, {})}) for i in changed}
    files = [given.get(i, run.systems[i].file) for i in order] + list(extra)
    names = [run.systems[i].name for i in order]
    if extra:
        suffixes = file_names(files)
        names = names + suffixes[len(names):]
        if len(set(names)) != len(names):
            names = suffixes
    return score_run(files, run.references, config if config is not None else run.config, names=names,
                     context=run.context, previous=run, progress=progress,
                     annotated_from={id(f): id(run.systems[i].file) for i, f in given.items()})


def subset_run(run: Run, rows: Sequence[int], description: str, *, significance: Significance | None = None,
               progress: Progress | None = None, ngram_wins: bool = True) -> Run:
    """The run restricted to the segments ``rows`` (indices of ``run``), scored again from their statistics as a
    corpus of its own, with the same systems, names and settings, and the run's paired tests (or
    ``significance``); BLEU's n-gram wins where the whole run has them, unless not ``ngram_wins`` (a first look
    that the tests and wins follow). ``run`` must be a whole run, not a slice."""
    if run.slice is not None:
        raise ValueError("slice the whole run, not a slice of it")
    keep = list(rows)
    if not keep:
        raise InputError("the slice is empty")
    config = run.config if significance is None else replace(run.config, significance=significance)
    # A slice needs no second look for line shifts, and n-gram wins only where the whole run has them.
    config = replace(config, check_alignment=False,
                     ngram_diffs=ngram_wins and run.comparison is not None and bool(run.comparison.ngram_wins))
    references = [subset_file(r, keep) for r in run.references]
    lines = [r.lines for r in references]
    # The whole run did every word of the slice already: each metric continues its work, never starts over. Its
    # settings are those the whole run was scored with (a tokenizer the target language chose included).
    chosen, _ = _chosen(run.config, run.context)
    context = run.context.subset(keep)
    source = context.source.lines if context.source is not None else None
    metrics = [bind(c, lines, scaled_progress(progress, 0.3 * k / len(run.metrics), 0.3 / len(run.metrics)), m, source)
               for k, (c, m) in enumerate(zip(chosen, run.metrics))]
    # Every metric's statistics are per segment and its corpus score a function of their sums (sacreBLEU's
    # design): the slice's are the whole run's rows, never the text scored again.
    files = [subset_file(s.file, keep) for s in run.systems]
    taken = np.asarray(keep)
    given = {(id(f), k): _rows_of(s.results[k], metric, taken)
             for f, s in zip(files, run.systems) for k, metric in enumerate(metrics)}
    part = _score_run(files, references, config, names=[s.name for s in run.systems], context=context,
                      previous=None, metrics=metrics, progress=scaled_progress(progress, 0.3, 0.7), given=given)[0]
    whole = tuple(tuple(s.results[k].corpus.score for s in run.systems) for k in range(len(run.metrics)))
    return replace(part, slice=Slice(description, tuple(keep), run.n_sentences, whole))


def _rows_of(result: MetricResult, metric: Metric, rows: np.ndarray) -> MetricResult:
    """A system's result on the segments ``rows``: their statistics and sentence scores, the corpus score of
    their sums."""
    stats = result.stats[rows]
    return MetricResult(stats, result.sentences[rows], metric.corpus_score(stats))


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

