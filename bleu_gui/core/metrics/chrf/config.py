"""chrF's settings, named as sacreBLEU's ``--chrf-*`` flags name them (the F-score they define is
:mod:`.fscore`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...errors import ConfigError
from ..family import Family
from ..sacrebleu_parts import sacrebleu_version
from ..settings import MetricSettings, setting, test_fields


@dataclass(frozen=True)
class ChrfConfig(MetricSettings):
    """chrF's settings, named as sacreBLEU's ``--chrf-*`` flags name them (word_order 2 is chrF++)."""

    char_order: int = setting(6, label="character order", low=0, high=20, metavar="N",
                              help="character n-gram orders 1..N (default 6)")
    word_order: int = setting(0, label="word order", low=0, high=20, metavar="N",
                              help="word n-gram orders 1..N (default 0; 2 gives chrF++)")
    beta: int = setting(2, label="β", low=0, high=10, metavar="B",
                        help="recall is B times as important as precision (default 2)")
    whitespace: bool = setting(False, label="whitespace kept", help="keep whitespace in character n-grams")
    lowercase: bool = setting(False, label="lowercased", help="lowercase before chrF")
    eps_smoothing: bool = setting(False, label="eps smoothing",
                                  help="average the orders' F-scores with epsilon smoothing (chrF++.py, NLTK and Moses)")

    # The test set the run was read from by name (sacreBLEU's -t NAME -l PAIR), as NAME|PAIR: set from the files
    # (for_test_set), never chosen; its signature names it as sacreBLEU's does.
    test: str = setting("", label="test set", cli=False, window=False, file_bound=True,
                        help="the test set the files were read from by name, as NAME|PAIR")

    key: ClassVar[str] = "chrf"
    badge: ClassVar[str] = "chrF"

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

    def signature(self, nrefs: int | str, resampling: dict[str, object] | None = None) -> str:
        """sacreBLEU's chrF signature, e.g. ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0``."""
        extra = [f"{k}:{v}" for k, v in (resampling or {}).items()]
        return "|".join([f"nrefs:{nrefs}", *extra, *test_fields(self.test), f"case:{'lc' if self.lowercase else 'mixed'}",
                         f"eff:{'no' if self.eps_smoothing else 'yes'}", f"nc:{self.char_order}",
                         f"nw:{self.word_order}", f"space:{'yes' if self.whitespace else 'no'}",
                         f"version:{sacrebleu_version()}"])


FAMILY = Family("chrf", "chrF", ChrfConfig, "chrf.chrf", cost=1,
                about="Character n-gram F-score (Popović 2015) as sacreBLEU computes it; word order 2 gives chrF++")
