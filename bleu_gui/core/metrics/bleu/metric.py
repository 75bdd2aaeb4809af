"""BLEU as a :class:`~.base.Metric`: references tokenized and indexed once, any number of systems scored.

Which BLEU (sacreBLEU's, NLTK's, the d2l textbook's) is the config's variant object; this class binds it to
the references and never compares variant names.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Generator, Sequence

import numpy as np

from ...errors import InputError
from ...runtime import release_free_memory
from ..account import Account
from ..base import Metric, Spans, flags_once
from ..ngram_stats import MatchedRows, ReferenceIndex
from ..tokenizers import CorpusPieces, Tokenization, TokenizedCorpus
from .config import BleuConfig
from .details import SentenceDetails, sentence_details, unmatched_token_spans
from .explain import explain_sentence
from .scores import BleuScore, RowScores


def scaled_progress(progress: Callable[[float], None] | None, start: float,
                    span: float) -> Callable[[float], None] | None:
    """A progress callback reporting into ``[start, start + span]`` of ``progress`` (None stays None)."""
    if progress is None:
        return None
    return lambda fraction: progress(start + span * fraction)


def reference_presence(references: Sequence[Sequence[str]], rule: str = "empty") -> np.ndarray:
    """(n_refs × n_sentences) mask of the references that exist for each sentence.

    ``rule="empty"`` (sacreBLEU's command line and WMT XML reading): every line
    is a reference, an empty one a zero-length reference. ``rule="missing"``:
    an empty (or whitespace-only) line means "this reference is missing here",
    as ``None`` in sacreBLEU's API, as long as another reference of the
    sentence has text; if every reference of a sentence is empty they all count.
    """
    if rule == "empty":
        return np.ones((len(references), len(references[0]) if references else 0), dtype=bool)
    filled = np.array([[bool(line.strip()) for line in ref] for ref in references], dtype=bool)
    if filled.size == 0:
        return filled
    none_filled = np.logical_not(np.asarray(filled.any(axis=0), bool))
    return filled | none_filled[None, :]


class Bleu(Metric):
    """BLEU with one :class:`BleuConfig` against one set of references.

    References are tokenized and indexed once, in the constructor; every system scored reuses them.
    """

    name = "BLEU"
    key = "bleu"
    approximates = True  # NumPy's exp and log for approximate randomization's trials (see the variant's scores)

    def __init__(self, references: Sequence[Sequence[str]], config: BleuConfig | None = None,
                 progress: Callable[[float], None] | None = None, tokenization: Tokenization | None = None):
        """``progress(fraction)`` is called while the references are processed; it may raise to stop.
        ``tokenization``: an evaluator's tokenization with the same tokenizer and case whose words need not be
        tokenized again (it is copied, never changed)."""
        cfg = (config or BleuConfig()).validated()
        if not references:
            raise InputError("no references given")
        lengths = {len(r) for r in references}
        if len(lengths) != 1:
            raise InputError(f"references differ in line count: {sorted(lengths)}")
        self.config = cfg
        self.variant = cfg.scorer
        self.significance = self.variant.significance
        self.n_refs_given = len(references)
        used = self.variant.references_used(references)
        self.reference_lines = used
        wanted = (cfg.tokenizer_name, cfg.lowercase, self.variant.token_split)
        if tokenization is not None and (tokenization.name, tokenization.lowercase, tokenization.split) != wanted:
            raise ValueError("a tokenization can only be continued with its own tokenizer, case and split")
        self.tokenization = tokenization.copy() if tokenization is not None else Tokenization(*wanted)
        self.present = reference_presence(used, cfg.empty_refs)
        self._flag_refs: dict[int, list[list[str]]] = {}  # segment → its references' tokens, once flagged
        self._flags: dict[tuple[int, str], Spans] = {}  # (segment, candidate line) → its flags (see flags_once)
        self._flag_tokenization: Tokenization | None = None  # made by the first flags asked
        steps = len(used) + 1
        corpora = []
        for i, ref in enumerate(used):
            with contextlib.closing(self.tokenization.encode_chunks(ref, scaled_progress(progress, i / steps,
                                                                                         1 / steps))) as pieces:
                corpora.append(CorpusPieces(pieces))
        self.index = ReferenceIndex(corpora, self.present, cfg.stats_order, len(self.tokenization.strings),
                                    scaled_progress(progress, (steps - 1) / steps, 1 / steps))
        per_sentence = set(self.present.sum(axis=0).tolist())
        self.nrefs: int | str = per_sentence.pop() if len(per_sentence) == 1 else "var"
        release_free_memory(self.index.n_lines)  # the blocks of the index, freed on worker threads

    @property
    def n_lines(self) -> int:
        return self.index.n_lines

    @property
    def corpus_from_sums(self) -> bool:
        return self.variant.corpus_is_sum

    @property
    def notes(self) -> tuple[str, ...]:
        return self.variant.notes(self.n_refs_given)

    def signature(self, sentence_level: bool = False, resampling: dict[str, object] | None = None) -> str:
        """The settings string shown next to every score of this evaluator.

        ``resampling``: sacreBLEU's ``bs``, ``ar`` and ``seed`` fields of a test or interval.
        """
        return self.variant.signature(self.config, self.nrefs, self.tokenization.signature, sentence_level,
                                      resampling)

    def statistics(self, lines: Sequence[str], progress: Callable[[float], None] | None = None) -> np.ndarray:
        """Per-sentence sufficient statistics of a system's lines (see :mod:`bleu_gui.core.metrics.ngram_stats`).

        ``progress(fraction)`` is called along the way; it may raise to stop.
        """
        with contextlib.closing(self._encode(lines, progress)) as pieces:
            stats = self.index.statistics(pieces, progress=progress)
        release_free_memory(len(lines))  # the system's blocks of words and matches: the next starts from less
        return stats

    def matched_statistics(self, lines: Sequence[str],
                           progress: Callable[[float], None] | None = None) -> tuple[np.ndarray, MatchedRows]:
        """:meth:`statistics` and the matched reference n-grams from the same pass
        (see :meth:`ReferenceIndex.matched_statistics`)."""
        with contextlib.closing(self._encode(lines, progress)) as pieces:
            found = self.index.matched_statistics(pieces, progress=progress)
        release_free_memory(len(lines))
        return found

    def _encode(self, lines: Sequence[str], progress: Callable[[float], None] | None
                ) -> Generator[tuple[int, TokenizedCorpus], None, None]:
        # Tokenized a chunk at a time and matched while the next chunk is tokenized: no array of the whole
        # system's ids (85 MB at a million lines), and the matching runs beside the tokenizer.
        if len(lines) != self.n_lines:
            raise InputError(f"system has {len(lines)} lines, references have {self.n_lines}")
        return self.tokenization.encode_chunks(lines, progress)

    def sentence_rows(self, stats: np.ndarray) -> RowScores:
        """Sentence-level scores with their precisions, counts and brevity penalties, one per row (sacreBLEU
        with effective order, as its ``-sl``)."""
        return self.variant.sentence_scores(stats, self.config)

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return self.sentence_rows(stats).score

    def sentence_score(self, stats: np.ndarray, index: int) -> BleuScore:
        rows = self.sentence_rows(stats[index:index + 1])
        return BleuScore.from_rows(rows, 0, self.config.variant, self.signature(True), self.notes)

    def corpus_score(self, stats: np.ndarray) -> BleuScore:
        """Corpus BLEU of the rows of ``stats`` (summed statistics; d2l: the mean of sentence scores)."""
        rows = self.variant.corpus_scores(stats, self.config)
        return BleuScore.from_rows(rows, 0, self.config.variant, self.signature(False), self.notes)

    def scores_of_sums(self, sums: np.ndarray, float32: bool = False) -> np.ndarray:
        return self.variant.scores_of_sums(sums, self.config, float32)

    def approximate_scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        return self.variant.scores_of_sums(sums, self.config, exact=False)

    def value(self, stats: np.ndarray) -> float:
        return float(self.variant.corpus_scores(stats, self.config).score[0])

    def without_each(self, stats: np.ndarray) -> np.ndarray:
        """Corpus score (0-100) with each sentence left out in turn."""
        return self.variant.without_each(stats, self.config)

    def statistics_table(self, stats: np.ndarray) -> tuple[list[str], np.ndarray]:
        """Lengths, then matches and n-grams per order up to the config's (NLTK's extra 5-gram columns, which
        only its smoothing reads, are left out)."""
        n, width = self.config.max_order, (stats.shape[1] - 2) // 2
        names = ["hyp_len", "ref_len", *(f"correct_{k}" for k in range(1, n + 1)),
                 *(f"total_{k}" for k in range(1, n + 1))]
        columns = [0, 1, *range(2, 2 + n), *range(2 + width, 2 + width + n)]
        return names, stats[:, columns]

    def account(self, index: int, hypothesis: str, row: np.ndarray, reference_names: Sequence[str]) -> Account:
        """The sentence's precisions, brevity penalty, clipping and matched n-grams in words (its statistics ``row``
        scored as ``-sl`` scores it); BLEU's evidence in the window is its own n-gram panes."""
        details = self.details(index, hypothesis)
        stats = np.asarray(row).reshape(1, -1)
        scores = self.sentence_rows(stats)
        explanation = explain_sentence(details, stats[0].tolist(), scores, self.config, reference_names)
        score = float(scores.score[0])
        return Account(explanation, explanation.to_dict(), None if np.isnan(score) else score)

    def flagged(self, rows: Sequence[int], hypotheses: Sequence[str]) -> list[list[tuple[int, int]]]:
        """The candidate's tokens in no matched n-gram (see :func:`.details.unmatched_token_spans`); the references'
        tokens are kept for the next system's lines (error recall asks for every system's)."""
        return flags_once(self._flags, rows, hypotheses, self._new_flags)

    def _new_flags(self, rows: list[int], hypotheses: list[str]) -> list[Spans]:
        if self._flag_tokenization is None:
            # One of its own, sharing nothing with the one scoring reads and grows (a window may score while error
            # recall runs).
            t = self.tokenization
            self._flag_tokenization = Tokenization(t.name, t.lowercase, t.split)
        out = []
        # Tokenized in bulk (each distinct word once), not line by line: the tokenizer called per line was a third
        # of BLEU's flags' time.
        for i, h, tokens in zip(rows, hypotheses, self._flag_tokenization.lines_tokens(hypotheses)):
            refs = self._flag_refs.get(i)
            if refs is None:
                refs = self._flag_refs[i] = [self.tokenization.tokens(ref[i]) if ok else []
                                             for ref, ok in zip(self.reference_lines, self.present[:, i].tolist())]
            out.append(unmatched_token_spans(h, tokens, refs, self.tokenization, self.config.max_order))
        return out

    def details(self, index: int, hypothesis: str, max_order: int | None = None) -> SentenceDetails:
        """Match details of sentence ``index`` of a system whose line is ``hypothesis`` (orders 1..``max_order``,
        by default the config's)."""
        refs = [ref[index] for ref in self.reference_lines]
        return sentence_details(hypothesis, refs, self.tokenization, max_order or self.config.max_order,
                                present=self.present[:, index].tolist())


def bind(config: BleuConfig, references: Sequence[Sequence[str]], progress: Callable[[float], None] | None,
          like: Metric | None) -> Bleu:
    """BLEU with these settings against ``references``; ``like``: a BLEU whose tokenized words are reused when it
    tokenizes alike (a slice of its corpus)."""
    tokenization = None
    if isinstance(like, Bleu):
        same = (like.config.tokenizer_name, like.config.lowercase, like.variant.token_split)
        if same == (config.tokenizer_name, config.lowercase, config.scorer.token_split):
            tokenization = like.tokenization
    return Bleu(references, config, progress, tokenization=tokenization)


def find_bleu(metrics: Sequence[Metric]) -> tuple[int, Bleu] | None:
    """Where BLEU is among ``metrics``, and it (None without BLEU): what BLEU alone has — its n-gram match
    details, what-if edits, n-gram wins, the tokenizer table — is reached through it."""
    return next(((k, m) for k, m in enumerate(metrics) if isinstance(m, Bleu)), None)
