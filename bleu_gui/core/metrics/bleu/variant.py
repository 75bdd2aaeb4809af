"""Whose BLEU: one small interface, one registry, one implementation per variant.

Everything that differs between sacreBLEU's, NLTK's and the d2l textbook's BLEU
is answered by the variant object; no other module compares variant names.
The implementations live beside their arithmetic in ``variant_sacrebleu``,
``variant_nltk`` and ``variant_d2l``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol, TypeVar

import numpy as np

from .scores import RowScores

T = TypeVar("T")


class BleuSettings(Protocol):
    """The BLEU settings a variant reads (``BleuConfig`` has them all; this protocol keeps the variants below it)."""

    @property
    def variant(self) -> str: ...
    @property
    def lowercase(self) -> bool: ...
    @property
    def smooth_method(self) -> str: ...
    @property
    def smooth_value(self) -> float | None: ...
    @property
    def smoothing_value(self) -> float | None: ...
    @property
    def max_order(self) -> int: ...
    @property
    def weights(self) -> tuple[float, ...] | None: ...
    @property
    def nltk_weights(self) -> tuple[float, ...]: ...
    @property
    def nltk_smoothing(self) -> int: ...
    @property
    def auto_reweigh(self) -> bool: ...
    @property
    def nltk_epsilon(self) -> float: ...
    @property
    def nltk_alpha(self) -> float: ...
    @property
    def nltk_k(self) -> float: ...
    @property
    def empty_refs(self) -> str: ...
    @property
    def test(self) -> str: ...


@dataclass(frozen=True)
class SentenceRow:
    """One sentence's statistics row split into its parts, with the variant's scores of it (what an explanation
    of the sentence reads)."""

    hyp_len: int
    ref_len: int
    counts: list[int]
    totals: list[int]
    precisions: list[float]  # after smoothing, 0-100, as the scorer returned them
    bp: float
    score: float


class Variant(ABC):
    """One way of computing BLEU from per-sentence statistics rows.

    ``settings`` names the ``BleuConfig`` fields the variant reads beyond
    tokenizer, lowercase and order, so a settings panel knows what to enable.
    """

    name: str = ""
    default_tokenizer: str = "13a"
    # The tokenizer by the target language when none is given (sacreBLEU's BLEU with trg_lang, ``sacrebleu -l``).
    language_tokenizers: Mapping[str, str] = MappingProxyType({})
    hint: str = ""
    significance: bool = False
    # True when the corpus score is a function of the summed statistics alone (one summed row scores the same
    # as all rows): then an edit can keep a running sum instead of summing every row again.
    corpus_is_sum: bool = False
    settings: frozenset[str] = frozenset()
    # How the tokenizer's output is split into tokens (see tokenizers.Tokenization): sacreBLEU and NLTK's users
    # split on whitespace runs; the d2l textbook on each single space.
    token_split: str = "whitespace"
    # Whether sacreBLEU's warning about system output that looks tokenized already applies (sacreBLEU's BLEU
    # only: NLTK and the d2l textbook score the tokens they are given).
    warns_tokenized: bool = False

    def stats_order(self, cfg: BleuSettings) -> int:
        """Highest n-gram order the statistics rows must hold."""
        return cfg.max_order

    def references_used(self, references: Sequence[T]) -> list[T]:
        """The references this variant scores against (all of them unless it says otherwise)."""
        return list(references)

    def notes(self, n_refs_given: int) -> tuple[str, ...]:
        """Plain-language notes shown beside every score of this variant."""
        return ()

    def validate(self, cfg: BleuSettings) -> None:  # noqa: B027 - most variants accept every setting
        """Raise :class:`ConfigError` for settings this variant cannot honour."""

    @abstractmethod
    def sentence_scores(self, stats: np.ndarray, cfg: BleuSettings) -> RowScores:
        """Sentence-level scores, one per statistics row."""

    @abstractmethod
    def corpus_scores(self, stats: np.ndarray, cfg: BleuSettings) -> RowScores:
        """The corpus score of all rows of ``stats``, as a one-row :class:`RowScores`."""

    def scores_of_sums(self, sums: np.ndarray, cfg: BleuSettings, float32: bool = False,
                       exact: bool = True) -> np.ndarray:
        """The corpus score of each row of summed statistics; only variants whose corpus score is a function of
        the sums (:attr:`corpus_is_sum`) have one. ``exact=False``: within ``base.APPROXIMATE`` of it, sooner."""
        raise NotImplementedError(f"{self.name}'s corpus BLEU is not a function of summed statistics")

    @abstractmethod
    def without_each(self, stats: np.ndarray, cfg: BleuSettings) -> np.ndarray:
        """Corpus score (0-100) with each sentence left out in turn (leave-one-out)."""

    @abstractmethod
    def signature(self, cfg: BleuSettings, nrefs: int | str, tokenizer_signature: str, sentence_level: bool,
                  resampling: dict[str, object] | None = None) -> str:
        """The settings string shown next to every score of this variant."""

    # -- what an explanation of a sentence says about this variant ---------------------------------------
    def explained_orders(self, cfg: BleuSettings) -> int:
        """How many n-gram orders a sentence's explanation goes through."""
        return cfg.max_order

    @abstractmethod
    def sentence_weights(self, cfg: BleuSettings, row: SentenceRow) -> list[float]:
        """The weight each order has in this sentence's geometric mean (0: left out)."""

    @abstractmethod
    def explain_lines(self, cfg: BleuSettings, row: SentenceRow, weights: list[float]) -> list[str]:
        """What this variant does with the sentence, in plain language."""

    def no_match_line(self, cfg: BleuSettings, row: SentenceRow, n: int, weights: list[float]) -> str | None:
        """The precision line of order ``n`` when it has n-grams but no match, where the variant treats that
        specially (None: the plain fraction says it)."""
        return None

    def zero_reason(self, cfg: BleuSettings, row: SentenceRow, n: int | None) -> str | None:
        """Why the sentence scores 0 where the variant has its own reason; ``n``: the first counted order
        without a match (None if every counted order matched)."""
        return None

    def bp_formula(self, ref_len: int, hyp_len: int) -> str:
        """The brevity penalty's formula with the sentence's lengths in it."""
        return f"exp(1 − {ref_len}/{hyp_len})"


def reference_fields(cfg: BleuSettings, nrefs: int | str) -> list[str]:
    """The signature's reference fields: ``nrefs:N``, and ``emptyrefs:missing`` when empty reference lines
    are not read as sacreBLEU's command line reads them."""
    fields = [f"nrefs:{nrefs}"]
    if cfg.empty_refs != "empty":
        fields.append(f"emptyrefs:{cfg.empty_refs}")
    return fields
