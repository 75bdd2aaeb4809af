"""chrF and chrF++ (Popović 2015, 2017) as sacreBLEU 2.x computes them (``sacrebleu/metrics/chrf.py``).

Each segment becomes, per order, [candidate n-grams, reference n-grams, matches]: character orders 1..N
(whitespace removed unless asked otherwise), then, for chrF++, word orders 1..M over words whose leading or
trailing punctuation mark is split off (sacreBLEU's ``_remove_punctuation``). With several references a
segment takes the statistics of the reference whose own F is highest (the first of equals). Details kept on
purpose, as sacreBLEU has them:

- an order the reference has no n-gram of counts 0 candidate n-grams (``hyp_count if ref_ngrams else 0``);
- the F-score of summed statistics averages precision and recall over the orders where both sides have
  n-grams ("effective order"), then takes F-beta once; ``eps_smoothing`` averages the per-order F instead;
- sums are taken order by order, as sacreBLEU's loop adds them, so every number is sacreBLEU's to the bit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..account import Account, Shown
from ..base import Metric, Score, Spans, flags_once
from ..parallel import in_order
from .config import ChrfConfig
from .counts import ReferenceNgrams, Units
from .fscore import f_scores

if TYPE_CHECKING:
    from .evidence import ChrfEvidence, ReferenceCharacters

Progress = Callable[[float], None]
# sacreBLEU's chrF punctuation: string.punctuation, split off a word's first or last character.
_PUNCTS = frozenset('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')
_BLOCK = 512  # segments whose n-grams are counted together (and between progress reports and cancel checks)
_KEEP_LINES = 60_000  # the references' counts are kept for corpora up to this many segments (~1 GB)


@dataclass(frozen=True, kw_only=True)
class ChrfScore(Score):
    """One chrF figure."""

    char_order: int
    word_order: int
    beta: int

    def fields(self) -> dict[str, object]:
        return {"char_order": self.char_order, "word_order": self.word_order, "beta": self.beta}


def remove_punctuation(line: str) -> list[str]:
    """chrF++'s words: a punctuation mark at the end (or else the start) of a longer word becomes a word."""
    words: list[str] = []
    for w in line.split():
        if len(w) == 1:
            words.append(w)
        elif w[-1] in _PUNCTS:
            words += [w[:-1], w[-1]]
        elif w[0] in _PUNCTS:
            words += [w[0], w[1:]]
        else:
            words.append(w)
    return words


def char_text(line: str, whitespace: bool) -> str:
    """The characters chrF takes n-grams of: without whitespace, unless it is kept."""
    return line if whitespace else "".join(line.split())


def _char_units(lines: Sequence[str]) -> Units:
    """Every character of the lines as its code point, the lines one after another."""
    codes = np.frombuffer("".join(lines).encode("utf-32-le"), np.uint32).astype(np.int64)
    return Units.of(codes, np.array([len(line) for line in lines], np.int64))


def _word_units(lines: Sequence[list[str]], vocabulary: dict[str, int], grow: bool) -> Units:
    """Every word of the lines as its id in ``vocabulary`` (new words added when ``grow``, else -1)."""
    if grow:
        ids = [vocabulary.setdefault(w, len(vocabulary)) for words in lines for w in words]
    else:
        ids = [vocabulary.get(w, -1) for words in lines for w in words]
    return Units.of(np.array(ids, np.int64), np.array([len(words) for words in lines], np.int64))


class Chrf(Metric):
    """chrF (chrF++ with word orders) against one set of references (see the module)."""

    key = "chrf"
    evidence_shown = True

    def __init__(self, references: Sequence[Sequence[str]], config: ChrfConfig = ChrfConfig(),
                 progress: Progress | None = None):
        self.config = config = config.validated()
        self.name = config.name
        self._n_lines = len(references[0]) if references else 0
        self.reference_lines = [list(r) for r in references]
        self.nrefs: int | str = len(references)
        self._words: dict[str, int] = {}
        # (reference, segment) → its characters as the flags read them, kept for the next system (error recall asks
        # for every system's)
        self._flag_refs: dict[tuple[int, int], ReferenceCharacters] = {}
        self._flags: dict[tuple[int, str], Spans] = {}  # (segment, candidate line) → its flags (see flags_once)
        # The references' n-grams a block of segments at a time, kept while they take little memory (a block is
        # built again for each system past that).
        self._blocks: dict[int, tuple[ReferenceNgrams | None, ReferenceNgrams | None]] = {}
        self._keep_blocks = self._n_lines <= _KEEP_LINES
        if self._keep_blocks:
            # Every reference word gets its id first: the blocks then only read the vocabulary, on two threads.
            if config.word_order:
                for ref in self.reference_lines:
                    _word_units([remove_punctuation(line) for line in self._prepared(ref)], self._words, grow=True)
            count = (self._n_lines + _BLOCK - 1) // _BLOCK
            for b, block in in_order(self._reference_block, range(count), workers=2):
                self._blocks[b] = block
                if progress is not None:
                    progress((b + 1) / count)

    @property
    def n_lines(self) -> int:
        return self._n_lines

    def signature(self, sentence_level: bool = False, resampling: dict[str, object] | None = None) -> str:
        return self.config.signature(self.nrefs, resampling)

    def _prepared(self, lines: Sequence[str]) -> list[str]:
        return [line.lower() for line in lines] if self.config.lowercase else list(lines)

    def _units(self, lines: Sequence[str], grow: bool) -> tuple[Units, Units]:
        cfg, prepared = self.config, self._prepared(lines)
        chars = _char_units([char_text(line, cfg.whitespace) for line in prepared])
        words = _word_units([remove_punctuation(line) for line in prepared] if cfg.word_order else [[]] * len(lines),
                            self._words, grow)
        return chars, words

    def _reference_block(self, b: int) -> tuple[ReferenceNgrams | None, ReferenceNgrams | None]:
        cfg, lo = self.config, b * _BLOCK
        hi = min(lo + _BLOCK, self._n_lines)
        units = [self._units(ref[lo:hi], grow=True) for ref in self.reference_lines]
        chars = ReferenceNgrams([u[0] for u in units], cfg.char_order) if cfg.char_order else None
        words = ReferenceNgrams([u[1] for u in units], cfg.word_order) if cfg.word_order else None
        return chars, words

    def _block(self, b: int) -> tuple[ReferenceNgrams | None, ReferenceNgrams | None]:
        if b not in self._blocks:
            if not self._keep_blocks:
                self._blocks.clear()  # one block at a time past the memory bound
            self._blocks[b] = self._reference_block(b)
        return self._blocks[b]

    def _rows(self, b: int, segments: np.ndarray, lines: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Statistics of ``lines``, the candidates of block ``b``'s segments ``segments`` (block-local, in
        order), against the reference whose own F is highest (the first of equals), and that reference."""
        chars_ref, words_ref = self._block(b)
        chars, words = self._units(lines, grow=False)
        per_reference = [np.zeros((len(lines), 0), np.int64)] * len(self.reference_lines)
        for ngrams, units in ((chars_ref, chars), (words_ref, words)):
            if ngrams is not None:
                per_reference = [np.concatenate([a, r], axis=1)
                                 for a, r in zip(per_reference, ngrams.rows(units, segments))]
        if len(per_reference) == 1:
            return per_reference[0], np.zeros(len(lines), np.int64)
        f = np.stack([f_scores(rows, self.config) for rows in per_reference])
        best = np.argmax(f, axis=0)  # the first of equally good references, as sacreBLEU keeps it
        stacked = np.stack(per_reference)
        return stacked[best, np.arange(len(lines))], best

    def best_references(self, rows: Sequence[int], hypotheses: Sequence[str]) -> list[int]:
        """For each segment of ``rows`` with its candidate, the reference its statistics are taken against
        (:meth:`segment_statistics`'s, counted a block at a time; with one reference, it)."""
        if len(self.reference_lines) == 1:
            return [0] * len(rows)
        out = [0] * len(rows)
        by_block: dict[int, list[int]] = {}
        for j, i in enumerate(rows):
            by_block.setdefault(i // _BLOCK, []).append(j)
        for b, js in by_block.items():
            _stats, best = self._rows(b, np.array([rows[j] % _BLOCK for j in js]), [hypotheses[j] for j in js])
            for j, k in zip(js, best):
                out[j] = int(k)
        return out

    def segment_statistics(self, index: int, hypothesis: str) -> tuple[list[int], int]:
        """Segment ``index``'s statistics row for ``hypothesis`` and the reference it was taken against."""
        rows, best = self._rows(index // _BLOCK, np.array([index % _BLOCK]), [hypothesis])
        return rows[0].tolist(), int(best[0])

    def statistics(self, lines: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        if len(lines) != self._n_lines:
            raise ValueError(f"system has {len(lines)} lines, references have {self._n_lines}")
        width = 3 * (self.config.char_order + self.config.word_order)
        out = np.zeros((len(lines), width), np.int64)

        def block(b: int) -> np.ndarray:
            part = lines[b * _BLOCK:(b + 1) * _BLOCK]
            return self._rows(b, np.arange(len(part)), part)[0]

        # Blocks on two threads: their sorts and searches run without the interpreter lock.
        blocks = range((len(lines) + _BLOCK - 1) // _BLOCK)
        for b, rows in in_order(block, blocks, workers=2 if self._keep_blocks else 1):
            out[b * _BLOCK:b * _BLOCK + len(rows)] = rows
            if progress is not None:
                progress(min((b + 1) * _BLOCK, len(lines)) / max(len(lines), 1))
        return out

    def scores_of_sums(self, sums: np.ndarray, float32: bool = False) -> np.ndarray:
        return f_scores(sums, self.config, float32)

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return f_scores(stats, self.config)

    def _score(self, value: float, sentence_level: bool) -> ChrfScore:
        cfg = self.config
        return ChrfScore(metric=cfg.name, score=value, signature=self.signature(sentence_level),
                         char_order=cfg.char_order, word_order=cfg.word_order, beta=cfg.beta)

    def corpus_score(self, stats: np.ndarray) -> ChrfScore:
        return self._score(self.value(stats), False)

    def sentence_score(self, stats: np.ndarray, index: int) -> ChrfScore:
        return self._score(float(f_scores(stats[index:index + 1], self.config)[0]), True)

    def evidence(self, index: int, hypothesis: str) -> ChrfEvidence:
        """Segment ``index``'s statistics per order and its characters' matches (see :mod:`.evidence`)."""
        from .evidence import chrf_evidence  # loaded when a segment is explained, not at every start

        return chrf_evidence(self, index, hypothesis)

    def flagged(self, rows: Sequence[int], hypotheses: Sequence[str]) -> list[list[tuple[int, int]]]:
        """The candidate's characters in no matched character n-gram (see :func:`.evidence.unmatched_spans`)."""
        return flags_once(self._flags, rows, hypotheses, self._new_flags)

    def _new_flags(self, rows: list[int], hypotheses: list[str]) -> list[Spans]:
        from .evidence import ReferenceCharacters, unmatched_spans

        out = []
        for i, h, k in zip(rows, hypotheses, self.best_references(rows, hypotheses)):
            reference = self._flag_refs.get((k, i))
            if reference is None:
                reference = self._flag_refs[k, i] = ReferenceCharacters.of(self.reference_lines[k][i], self.config)
            out.append(unmatched_spans(h, reference, self.config))
        return out

    def account(self, index: int, hypothesis: str, row: np.ndarray, reference_names: Sequence[str]) -> Account:
        from .explain import explain_chrf

        evidence = self.evidence(index, hypothesis)
        name = _reference_name(reference_names, evidence.reference)
        return Account(explain_chrf(evidence, self.config, len(self.reference_lines), name), evidence.to_dict(),
                       evidence.score)

    def shown(self, index: int, hypothesis: str, system: str, reference_names: Sequence[str]) -> Shown:
        from .explain import chrf_shown

        evidence = self.evidence(index, hypothesis)
        return chrf_shown(evidence, self.name, system, _reference_name(reference_names, evidence.reference),
                          len(self.reference_lines) > 1)

    def statistics_table(self, stats: np.ndarray) -> tuple[list[str], np.ndarray]:
        cfg = self.config
        orders = [f"char{n}" for n in range(1, cfg.char_order + 1)] + [f"word{n}" for n in range(1, cfg.word_order + 1)]
        names = [f"{o}_{part}" for o in orders for part in ("hyp", "ref", "match")]
        return names, stats


def _reference_name(names: Sequence[str], k: int) -> str:
    return names[k] if k < len(names) else f"reference {k + 1}"


def bind(config: ChrfConfig, references: Sequence[Sequence[str]], progress: Progress | None,
          like: Metric | None) -> Chrf:
    return Chrf(references, config, progress)
