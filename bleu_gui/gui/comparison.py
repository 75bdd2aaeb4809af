"""Comparing systems: everything the Compare tab shows, computed in the worker from the core."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..core import BleuConfig, BleuScore, RowScores, SegmentFile
from ..core.compare import NgramComparison, NgramDifference, leave_one_out, length_buckets
from ..core.evaluate import scaled_progress
from ..core.readers import check_same_length, read_segments
from ..core.significance import (
    AR_TRIALS,
    BS_SAMPLES,
    SystemTest,
    paired_approximate_randomization,
    paired_bootstrap,
    seed_from_env,
)
from .session import Session, score


@dataclass(frozen=True)
class SystemScores:
    file: SegmentFile
    stats: np.ndarray
    sentences: RowScores
    corpus: BleuScore

    @property
    def name(self) -> str:
        return self.file.name


NGRAM_TOP = 200  # n-grams listed per order and direction


@dataclass(frozen=True)
class Pairwise:
    """Baseline (A) against one other system (B)."""

    loo: np.ndarray
    ngrams: NgramComparison
    wins: dict[int, tuple[list[NgramDifference], list[NgramDifference]]]  # order -> (B's wins, A's wins)


@dataclass(frozen=True)
class Comparison:
    session: Session                 # the baseline's session (evaluator, references)
    systems: list[SystemScores]      # baseline first
    bootstrap: list[SystemTest] | None
    approximate: list[SystemTest] | None
    pairwise: list[Pairwise]         # for systems[1:]
    bucket_labels: list[str]
    bucket_scores: np.ndarray        # systems × buckets
    bucket_counts: np.ndarray
    seed: int | None
    note: str = field(default="")


def score_and_compare(candidate: SegmentFile, references: list[SegmentFile], config: BleuConfig,
                      extra: list[SegmentFile], progress: Callable[[float], None] | None = None):
    """Score the candidate; with ``extra`` systems also compare them with it.

    Returns a :class:`Session`, or ``(Session, Comparison)`` when there are extra systems.
    """
    session = score(candidate, references, config, scaled_progress(progress, 0.0, 0.5 if extra else 1.0))
    if not extra:
        return session
    return session, compare(session, extra, scaled_progress(progress, 0.5, 0.5))


def read_system(path: str, session: Session, encoding: str) -> SegmentFile:
    f = read_segments(path, encoding)
    check_same_length([session.candidate, f])
    return f


def compare(session: Session, extra: list[SegmentFile], progress: Callable[[float], None] | None = None,
            bs_samples: int = BS_SAMPLES, ar_trials: int = AR_TRIALS) -> Comparison:
    """Score the extra systems against the session's references and compare each with the baseline.

    ``extra`` come from :func:`read_system` (or an earlier comparison), so their line counts are checked.
    Each system is tokenized and matched once: the same pass gives its statistics
    and the reference n-grams it matched.
    """
    def part(start, span):
        return scaled_progress(progress, start, span)

    ev, cfg = session.evaluator, session.config
    order = min(4, cfg.max_order)
    # The session has the baseline's statistics but not its matched n-grams.
    _, base_rows = ev.statistics(session.candidate.lines, part(0.0, 0.05), with_rows=True)
    systems = [SystemScores(session.candidate, session.stats, session.sentences, session.corpus)]
    matched = []
    for i, f in enumerate(extra):
        stats, rows = ev.statistics(f.lines, part(0.05 + 0.25 * i / len(extra), 0.25 / len(extra)), with_rows=True)
        systems.append(SystemScores(f, stats, ev.sentence_scores(stats), ev.corpus_score(stats)))
        matched.append(rows)
    names = [s.name for s in systems]
    stats = [s.stats for s in systems]
    seed = seed_from_env()
    bootstrap = approximate = None
    note = ""
    if cfg.variant == "sacrebleu":
        bootstrap = paired_bootstrap(stats[0], stats[1:], cfg, names, n=bs_samples, seed=seed, progress=part(0.3, 0.3))
        approximate = paired_approximate_randomization(stats[0], stats[1:], cfg, names, n=ar_trials, seed=seed,
                                                       progress=part(0.6, 0.25))
    else:
        note = "Significance tests follow sacreBLEU: switch the variant to sacrebleu to run them."
    pairwise = []
    for s, rows in zip(systems[1:], matched):
        loo = leave_one_out(stats[0], s.stats, cfg, systems[0].corpus.score, s.corpus.score)
        ngrams = NgramComparison(ev, base_rows, rows, max_order=order)
        wins = {n: ngrams.differences(n, top=NGRAM_TOP) for n in range(1, ngrams.max_order + 1)}
        pairwise.append(Pairwise(loo, ngrams, wins))
    labels, scores, counts = length_buckets(stats, ev)
    if progress is not None:
        progress(1.0)
    return Comparison(session, systems, bootstrap, approximate, pairwise, labels, scores, counts, seed, note)
