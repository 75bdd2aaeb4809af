"""What a run holds: its settings (:class:`RunConfig`), each system's results per metric, the comparison of every
system with the baseline, and the :class:`Run` itself with what is read off it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import numpy as np

from ..analysis.compare import NgramComparison, NgramDifference
from ..analysis.misalignment import Misalignment
from ..analysis.pair_matrix import PairMatrix
from ..analysis.qa import CHECKS as QA_CHECKS
from ..analysis.qa import Glossary, QAFlag, run_checks
from ..analysis.resampling import AR_TRIALS, BS_SAMPLES, DEFAULT_SEED
from ..analysis.significance import SystemTest
from ..analysis.slices import Slice
from ..errors import ConfigError
from ..inputs.corpus import Context
from ..inputs.markup import mismatched_tags
from ..inputs.text_files import SegmentFile
from ..metrics.account import plural
from ..metrics.base import Metric, Score
from ..metrics.bleu.config import BleuConfig
from ..metrics.bleu.details import SentenceDetails
from ..metrics.bleu.metric import Bleu, find_bleu
from ..metrics.family import Advice, MetricConfig


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
    bucketed_by: str = "reference length"  # what the length buckets count ("source length" without references)
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
        return len(self.systems[0].lines)

    @property
    def target_lines(self) -> list[str]:
        """Text in the target language (what a language's checks read): the first reference, or in a run without
        references the baseline's candidate."""
        return self.references[0].lines if self.references else self.systems[0].lines

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
        languages = self.context.languages
        return run_checks(s.name, s.lines, source.lines if source is not None else None, checks, glossary,
                          self.tag_mismatches(system), languages[1] if languages else "")

    def input_paths(self) -> list[Path]:
        """Every file this run read: exports must never overwrite one of them."""
        source = [self.context.source.path] if self.context.source is not None else []
        return [s.file.path for s in self.systems] + [r.path for r in self.references] + source

    @property
    def summary(self) -> str:
        """One line: the sentence count, the references, how the files were decoded and the systems (last: with
        many systems a narrow status bar cuts their list, not the rest)."""
        systems = plural(len(self.systems), "system")
        return (f"{self.n_sentences:,} sentences · {self.references_said} · encoding "
                f"{self.encodings} · {systems}: {', '.join(s.name for s in self.systems)}")

    @property
    def references_said(self) -> str:
        """The references in words: ``2 references: ref1.txt, ref2.txt``, or that the run has none."""
        if not self.references:
            return "no reference (source and candidates only)"
        return f"{plural(len(self.references), 'reference')}: {', '.join(self.reference_names)}"

    @property
    def encodings(self) -> str:
        """How the inputs were decoded, e.g. ``utf-8`` or ``cp949 (detected): a.txt; utf-8: ref.txt``."""
        seen: dict[str, list[str]] = {}
        for f in [*(s.file for s in self.systems), *self.references]:
            seen.setdefault(f.encoding + (" (detected)" if f.detected else ""), []).append(f.name)
        if len(seen) == 1:
            return next(iter(seen))
        return "; ".join(f"{enc}: {', '.join(names)}" for enc, names in seen.items())


