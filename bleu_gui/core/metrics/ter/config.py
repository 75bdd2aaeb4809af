"""TER's settings, named as sacreBLEU's ``--ter-*`` flags name them, and the advice on Chinese and Japanese text
(the rate itself, edits over the mean reference length, is :func:`..rates.edits_per_length`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from ...errors import term
from ..family import Advice, Family
from ..sacrebleu_parts import sacrebleu_module, sacrebleu_version
from ..scripts import cjk_script
from ..settings import MetricSettings, setting, test_fields

_ASIAN = {"zh": "Chinese", "ja": "Japanese"}


@dataclass(frozen=True)
class TerConfig(MetricSettings):
    """TER's settings, named as sacreBLEU's ``--ter-*`` flags name them."""

    case_sensitive: bool = setting(False, label="case-sensitive", help="do not lowercase before TER")
    asian_support: bool = setting(
        False, label="Asian support", file_bound=True,
        help="split Chinese and Japanese characters into words — only together with normalized (alone it changes "
             "nothing) — and drop their punctuation with no punctuation; TER splits words at spaces, so without it a "
             "Chinese or Japanese sentence is one word")
    no_punct: bool = setting(False, label="no punctuation", help="remove punctuation before TER")
    normalized: bool = setting(False, label="normalized",
                               help="Tercom's normalisation: XML entities, punctuation split off, hyphenation joined")

    # The test set the run was read from by name (sacreBLEU's -t NAME -l PAIR), as NAME|PAIR: set from the files
    # (for_test_set), never chosen; its signature names it as sacreBLEU's does.
    test: str = setting("", label="test set", cli=False, window=False, file_bound=True,
                        help="the test set the files were read from by name, as NAME|PAIR")

    key: ClassVar[str] = "ter"
    badge: ClassVar[str] = "TER"
    name: ClassVar[str] = "TER"

    def validated(self) -> TerConfig:
        return self

    def advice(self, references: Sequence[Sequence[str]], language: str) -> Advice | None:
        """TER's words are split at spaces: a Chinese or Japanese sentence is one word, so each scores 0 or 100
        (the WMT22 en-ja corpus: 109.48). sacreBLEU's Asian support splits their characters, and only within
        normalization (alone it changes nothing). Korean is written with spaces (and Hangul is not split). On
        other text Asian support finds nothing to split: it is said, since the signature then differs from the
        default's."""
        primary = language.replace("_", "-").split("-")[0].lower()
        found = cjk_script(references) if references else None
        if primary in _ASIAN:
            named, said = _ASIAN[primary], f"the target language is {_ASIAN[primary]}"
        elif found is not None and found[0] in _ASIAN.values():
            named, said = found[0], f"{100 * found[2]:.0f}% of the references' letters are {found[0]} script"
        else:
            named, said = None, ""
        if named is not None and not (self.asian_support and self.normalized):
            return Advice(f"{said}: TER splits words at spaces, so a {named} sentence is one word and scores 0 or "
                          f"100; sacreBLEU's {term('ter.asian_support')} with {term('ter.normalized')} splits its "
                          "characters (Asian support alone changes nothing)", "Use Asian support and normalization",
                          replace(self, asian_support=True, normalized=True))
        if named is None and self.asian_support:
            return Advice("TER's Asian support is on, but the references are not Chinese or Japanese: it changes no "
                          "number here, and the signature differs from sacreBLEU's default "
                          f"({term('ter.asian_support')} off)", "Turn Asian support off",
                          replace(self, asian_support=False))
        return None

    def signature(self, nrefs: int | str, resampling: dict[str, object] | None = None) -> str:
        """sacreBLEU's TER signature, e.g. ``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0``."""
        extra = [f"{k}:{v}" for k, v in (resampling or {}).items()]
        yes = {True: "yes", False: "no"}
        return "|".join([f"nrefs:{nrefs}", *extra, *test_fields(self.test), f"case:{'mixed' if self.case_sensitive else 'lc'}",
                         "tok:tercom", f"norm:{yes[self.normalized]}", f"punct:{yes[not self.no_punct]}",
                         f"asian:{yes[self.asian_support]}", f"version:{sacrebleu_version()}"])

    def tokenizer(self) -> Callable[[str], str]:
        """sacreBLEU's Tercom tokenizer with these settings."""
        module = sacrebleu_module("tokenizers.tokenizer_ter")
        tok: Callable[[str], str] = module.TercomTokenizer(normalized=self.normalized, no_punct=self.no_punct,
                                                           asian_support=self.asian_support,
                                                           case_sensitive=self.case_sensitive)
        return tok


FAMILY = Family("ter", "TER", TerConfig, "ter.ter", cost=2,
                about="Translation edit rate with sacreBLEU's Tercom shifts (lower is better)")
