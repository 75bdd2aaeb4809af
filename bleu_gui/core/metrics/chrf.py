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

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ConfigError
from .base import Metric, Score, resampled_float
from .sacrebleu_parts import sacrebleu_version

if TYPE_CHECKING:
    from .chrf_evidence import ChrfEvidence

Progress = Callable[[float], None]
# sacreBLEU's chrF punctuation: string.punctuation, split off a word's first or last character.
_PUNCTS = frozenset('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')
_EPS = 1e-16
_CHECK_EVERY = 2000  # segments between progress reports (and cancel checks)


@dataclass(frozen=True)
class ChrfConfig:
    """chrF's settings, named as sacreBLEU's ``--chrf-*`` flags name them (word_order 2 is chrF++)."""

    char_order: int = 6
    word_order: int = 0
    beta: int = 2
    whitespace: bool = False
    lowercase: bool = False
    eps_smoothing: bool = False

    key = "chrf"

    @property
    def name(self) -> str:
        """sacreBLEU's name for the metric: ``chrF2``, ``chrF2++``."""
        return f"chrF{self.beta}" + "+" * self.word_order

    def validated(self) -> ChrfConfig:
        if not 0 <= self.char_order <= 20 or not 0 <= self.word_order <= 20:
            raise ConfigError("chrF orders must be 0..20 (character and word n-grams)")
        if self.char_order + self.word_order == 0:
            raise ConfigError("chrF needs at least one character or word order")
        if self.beta < 0:
            raise ConfigError(f"chrF beta must be 0 or more, got {self.beta}")
        return self

    def bind(self, references: Sequence[Sequence[str]], progress: Progress | None = None,
             like: Metric | None = None) -> Chrf:
        return Chrf(references, self, progress)

    def signature(self, nrefs: int | str, resampling: dict[str, object] | None = None) -> str:
        """sacreBLEU's chrF signature, e.g. ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0``."""
        extra = [f"{k}:{v}" for k, v in (resampling or {}).items()]
        return "|".join([f"nrefs:{nrefs}", *extra, f"case:{'lc' if self.lowercase else 'mixed'}",
                         f"eff:{'no' if self.eps_smoothing else 'yes'}", f"nc:{self.char_order}",
                         f"nw:{self.word_order}", f"space:{'yes' if self.whitespace else 'no'}",
                         f"version:{sacrebleu_version()}"])


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


def segment_ngrams(line: str, cfg: ChrfConfig) -> list[Counter[str]]:
    """Character n-grams of orders 1..char_order, then word n-grams of orders 1..word_order (already cased)."""
    chars = char_text(line, cfg.whitespace)
    out = [Counter([chars[i:i + n] for i in range(len(chars) - n + 1)]) for n in range(1, cfg.char_order + 1)]
    if cfg.word_order:
        words = remove_punctuation(line)
        out += [Counter([" ".join(words[i:i + n]) for i in range(len(words) - n + 1)])
                for n in range(1, cfg.word_order + 1)]
    return out


@dataclass(frozen=True)
class _Reference:
    """One reference segment's n-grams per order and their totals."""

    ngrams: list[Counter[str]]
    totals: list[int]


def _match_statistics(hyp: list[Counter[str]], hyp_totals: list[int], ref: _Reference) -> list[int]:
    row: list[int] = []
    for h, total, r, r_total in zip(hyp, hyp_totals, ref.ngrams, ref.totals):
        matched = sum((h & r).values()) if r else 0  # clipped: each n-gram at most as often as the reference has it
        row += [total if r else 0, r_total, matched]
    return row


def f_scores(stats: np.ndarray, cfg: ChrfConfig, float32: bool = False) -> np.ndarray:
    """chrF (0-100) of every row of summed statistics, as sacreBLEU's ``_compute_f_score`` computes it.

    ``float32``: the statistics as sacreBLEU's bootstrap holds them (float32): every operation, and the scores,
    are float32 then (sacreBLEU's resampled chrF scores are numpy float32 numbers, and its p-values and intervals
    are computed from them in float32).
    """
    stats = np.atleast_2d(stats)
    ftype = resampled_float(float32)
    orders = cfg.char_order + cfg.word_order
    factor = ftype(cfg.beta ** 2)
    eps = ftype(_EPS)
    rows = len(stats)
    score = np.zeros(rows, ftype)
    avg_prec, avg_rec = np.zeros(rows, ftype), np.zeros(rows, ftype)
    effective = np.zeros(rows, np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(orders):  # added order by order, as sacreBLEU's loop adds them
            n_hyp, n_ref, n_match = (stats[:, 3 * i + k].astype(ftype) for k in range(3))
            prec = np.where(n_hyp > 0, n_match / n_hyp, eps)
            rec = np.where(n_ref > 0, n_match / n_ref, eps)
            denom = factor * prec + rec
            score = score + np.where(denom > 0, (1 + factor) * prec * rec / denom, eps)
            both = (n_hyp > 0) & (n_ref > 0)
            avg_prec = np.where(both, avg_prec + prec, avg_prec)
            avg_rec = np.where(both, avg_rec + rec, avg_rec)
            effective += both
        if cfg.eps_smoothing:
            return np.asarray(100 * score / ftype(orders), ftype)
        divisor = np.maximum(effective, 1).astype(ftype)
        avg_prec = np.where(effective > 0, avg_prec / divisor, ftype(0.0))
        avg_rec = np.where(effective > 0, avg_rec / divisor, ftype(0.0))
        total = avg_prec + avg_rec
        f = (1 + factor) * avg_prec * avg_rec / (factor * avg_prec + avg_rec)
    return np.asarray(np.where(total != 0, 100 * f, ftype(0.0)), ftype)


class Chrf(Metric):
    """chrF (chrF++ with word orders) against one set of references (see the module)."""

    key = "chrf"

    def __init__(self, references: Sequence[Sequence[str]], config: ChrfConfig = ChrfConfig(),
                 progress: Progress | None = None):
        self.config = config = config.validated()
        self.name = config.name
        self._n_lines = len(references[0]) if references else 0
        self.reference_lines = [list(r) for r in references]
        self._refs: list[list[_Reference]] = []
        for i, lines in enumerate(zip(*references)):
            if progress is not None and i % _CHECK_EVERY == 0:
                progress(i / max(self._n_lines, 1))
            refs = []
            for line in lines:
                ngrams = segment_ngrams(line.lower() if config.lowercase else line, config)
                refs.append(_Reference(ngrams, [sum(c.values()) for c in ngrams]))
            self._refs.append(refs)
        self.nrefs: int | str = len(references)

    @property
    def n_lines(self) -> int:
        return self._n_lines

    def signature(self, sentence_level: bool = False, resampling: dict[str, object] | None = None) -> str:
        return self.config.signature(self.nrefs, resampling)

    def segment_statistics(self, index: int, hypothesis: str) -> tuple[list[int], int]:
        """Segment ``index``'s statistics row for ``hypothesis`` and the reference it was taken against."""
        cfg = self.config
        hyp = segment_ngrams(hypothesis.lower() if cfg.lowercase else hypothesis, cfg)
        totals = [sum(c.values()) for c in hyp]
        best: list[int] = []
        best_f, best_ref = -1.0, 0
        for k, ref in enumerate(self._refs[index]):
            row = _match_statistics(hyp, totals, ref)
            f = float(f_scores(np.asarray([row]), cfg)[0])
            if f > best_f:  # the first of equally good references, as sacreBLEU keeps it
                best, best_f, best_ref = row, f, k
        return best, best_ref

    def statistics(self, lines: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        if len(lines) != self._n_lines:
            raise ValueError(f"system has {len(lines)} lines, references have {self._n_lines}")
        width = 3 * (self.config.char_order + self.config.word_order)
        out = np.zeros((len(lines), width), np.int64)
        for i, line in enumerate(lines):
            if progress is not None and i % _CHECK_EVERY == 0:
                progress(i / max(len(lines), 1))
            row, _ = self.segment_statistics(i, line)
            if row:
                out[i] = row
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
        from .chrf_evidence import chrf_evidence

        return chrf_evidence(self, index, hypothesis)

    def statistics_table(self, stats: np.ndarray) -> tuple[list[str], np.ndarray]:
        cfg = self.config
        orders = [f"char{n}" for n in range(1, cfg.char_order + 1)] + [f"word{n}" for n in range(1, cfg.word_order + 1)]
        names = [f"{o}_{part}" for o in orders for part in ("hyp", "ref", "match")]
        return names, stats


