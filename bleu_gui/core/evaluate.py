"""The scoring entry point: references processed once, any number of systems scored against them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import sacrebleu

from .. import __version__
from . import variant_d2l, variant_nltk, variant_sacrebleu
from .config import BleuConfig
from .details import SentenceDetails, sentence_details
from .errors import InputError
from .ngrams import ReferenceIndex
from .scores import BleuScore, RowScores
from .tokenizers import Tokenization


def scaled_progress(progress: Callable[[float], None] | None, start: float, span: float):
    """A progress callback reporting into ``[start, start + span]`` of ``progress`` (None stays None)."""
    if progress is None:
        return None
    return lambda fraction: progress(start + span * fraction)


def reference_presence(references: Sequence[Sequence[str]]) -> np.ndarray:
    """(n_refs × n_sentences) mask of the references that exist for each sentence.

    An empty (or whitespace-only) reference line means "this reference is
    missing here" — as passing ``None`` to sacreBLEU's API — as long as another
    reference of the sentence has text. If every reference of a sentence is
    empty they all count, as empty references (sacreBLEU's command line keeps
    empty lines as zero-length references).
    """
    filled = np.array([[bool(line.strip()) for line in ref] for ref in references], dtype=bool)
    if filled.size == 0:
        return filled
    none_filled = ~filled.any(axis=0)
    return filled | none_filled[None, :]


@dataclass(frozen=True)
class SystemResult:
    """One system's statistics and scores against the evaluator's references."""

    name: str
    stats: np.ndarray
    corpus: BleuScore
    sentences: RowScores


class Evaluator:
    """Score systems against one set of references with one :class:`BleuConfig`.

    References are tokenized and indexed once, in the constructor; every call to
    :meth:`score` reuses them.
    """

    def __init__(self, references: Sequence[Sequence[str]], config: BleuConfig | None = None,
                 progress: Callable[[float], None] | None = None):
        """``progress(fraction)`` is called while the references are processed; it may raise to stop."""
        cfg = (config or BleuConfig()).validated()
        if not references:
            raise InputError("no references given")
        lengths = {len(r) for r in references}
        if len(lengths) != 1:
            raise InputError(f"references differ in line count: {sorted(lengths)}")
        self.config = cfg
        self.n_refs_given = len(references)
        used = list(references[:1]) if cfg.variant == "d2l" else list(references)
        self.reference_lines = used
        self.tokenization = Tokenization(cfg.tokenizer_name, cfg.lowercase)
        self.present = reference_presence(used)
        steps = len(used) + 1
        corpora = [self.tokenization.encode(ref, scaled_progress(progress, i / steps, 1 / steps))
                   for i, ref in enumerate(used)]
        self.index = ReferenceIndex(corpora, self.present, cfg.stats_order, len(self.tokenization.vocab),
                                    scaled_progress(progress, (steps - 1) / steps, 1 / steps))
        per_sentence = set(self.present.sum(axis=0).tolist())
        self.nrefs: int | str = per_sentence.pop() if len(per_sentence) == 1 else "var"

    @property
    def n_lines(self) -> int:
        return self.index.n_lines

    @property
    def notes(self) -> tuple[str, ...]:
        if self.config.variant != "d2l":
            return ()
        notes = [variant_d2l.CORPUS_NOTE]
        if self.n_refs_given > 1:
            notes.append(variant_d2l.MULTI_REF_NOTE)
        return tuple(notes)

    def signature(self, sentence_level: bool = False, resampling: dict[str, object] | None = None) -> str:
        """The settings string shown next to every score of this evaluator.

        ``resampling``: sacreBLEU's ``bs``, ``ar`` and ``seed`` fields of a test or interval.
        """
        cfg, tok = self.config, self.tokenization.signature
        if cfg.variant == "sacrebleu":
            return variant_sacrebleu.signature(cfg, self.nrefs, tok, sentence_level, sacrebleu.__version__, resampling)
        if cfg.variant == "nltk":
            return variant_nltk.signature(cfg, self.nrefs, tok, __version__)
        return variant_d2l.signature(cfg, self.nrefs, tok, __version__)

    def statistics(self, lines: Sequence[str], progress: Callable[[float], None] | None = None,
                   with_rows: bool = False):
        """Per-sentence sufficient statistics of a system's lines (see :mod:`bleu_gui.core.ngrams`).

        ``progress(fraction)`` is called along the way; it may raise to stop.
        ``with_rows=True`` also returns the matched reference n-grams from the
        same pass (see :meth:`ReferenceIndex.statistics`).
        """
        if len(lines) != self.n_lines:
            raise InputError(f"system has {len(lines)} lines, references have {self.n_lines}")
        corpus = self.tokenization.encode(lines, scaled_progress(progress, 0.0, 0.6))
        return self.index.statistics(corpus, progress=scaled_progress(progress, 0.6, 0.4), with_rows=with_rows)

    def sentence_scores(self, stats: np.ndarray) -> RowScores:
        """Sentence-level scores for every row (sacreBLEU with effective order, as its ``-sl``)."""
        cfg = self.config
        if cfg.variant == "sacrebleu":
            return variant_sacrebleu.score_rows(stats, cfg, effective_order=True)
        if cfg.variant == "nltk":
            rows = variant_nltk.nltk_statistics(stats)
            return variant_nltk.score_rows(rows, cfg, last_p5=self._p5(rows), last_hyp_len=rows[:, 0])
        return variant_d2l.score_rows(stats, cfg)

    def corpus_score(self, stats: np.ndarray) -> BleuScore:
        """Corpus BLEU from the column sums of ``stats`` (d2l: the mean of sentence scores)."""
        cfg = self.config
        if cfg.variant == "sacrebleu":
            rows = variant_sacrebleu.score_rows(stats.sum(axis=0, keepdims=True), cfg, effective_order=False)
        elif cfg.variant == "nltk":
            per_sentence = variant_nltk.nltk_statistics(stats)
            last = per_sentence[-1:]
            rows = variant_nltk.score_rows(per_sentence.sum(axis=0, keepdims=True), cfg,
                                           last_p5=self._p5(last), last_hyp_len=last[:, 0])
        else:
            rows = variant_d2l.score_rows(stats.sum(axis=0, keepdims=True), cfg)
            mean = variant_d2l.corpus_score(variant_d2l.score_rows(stats, cfg).score)
            rows = RowScores(score=np.array([mean]), precisions=rows.precisions, bp=rows.bp, counts=rows.counts,
                             totals=rows.totals, sys_len=rows.sys_len, ref_len=rows.ref_len, valid=rows.valid)
        return BleuScore.from_rows(rows, 0, cfg.variant, self.signature(False), self.notes)

    def _p5(self, rows: np.ndarray) -> np.ndarray:
        width = (rows.shape[1] - 2) // 2
        if width < 5:
            return np.zeros(len(rows))
        return rows[:, 2 + 4] / rows[:, 2 + width + 4]

    def score(self, lines: Sequence[str], name: str = "") -> SystemResult:
        """Statistics, corpus score and sentence scores of one system."""
        stats = self.statistics(lines)
        return SystemResult(name, stats, self.corpus_score(stats), self.sentence_scores(stats))

    def details(self, index: int, hypothesis: str) -> SentenceDetails:
        """Match details of sentence ``index`` of a system whose line is ``hypothesis``."""
        refs = [ref[index] for ref in self.reference_lines]
        return sentence_details(hypothesis, refs, self.tokenization, self.config.max_order,
                                present=self.present[:, index].tolist())
