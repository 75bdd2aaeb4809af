"""MQM's settings (Google's weights, each changeable) and the arithmetic of a segment's score: what the command
line, the window and the explanation read without loading the metric (see :mod:`.mqm`)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from ...errors import ConfigError, term
from ...inputs.ratings import ErrorSpan, Ratings
from ..family import Family
from ..settings import MetricSettings, setting


@dataclass(frozen=True)
class MqmConfig(MetricSettings):
    """MQM's weights (see the module)."""

    major: float = setting(5.0, label="Major", low=0, high=100, metavar="W", help="the weight of a Major error")
    minor: float = setting(1.0, label="Minor", low=0, high=100, metavar="W", help="the weight of a Minor error")
    critical: float = setting(25.0, label="Critical", low=0, high=100, metavar="W",
                              help="the weight of a Critical error (in files that have the severity)")
    non_translation: float = setting(25.0, label="Major Non-translation", low=0, high=100, metavar="W",
                                     help="the weight of a Major error of category Non-translation")
    minor_punctuation: float = setting(0.1, label="Minor Fluency/Punctuation", low=0, high=100, metavar="W",
                                       help="the weight of a Minor error of category Fluency/Punctuation")

    key: ClassVar[str] = "mqm"
    badge: ClassVar[str] = "MQM"

    def validated(self) -> MqmConfig:
        for f in self.fields():
            if not 0 <= getattr(self, f.name) <= 100:
                raise ConfigError(f"{term(f'mqm.{f.name}')}: a weight is 0 to 100, got {getattr(self, f.name):g}")
        return self

    def weight(self, error: ErrorSpan) -> float:
        """What an error costs (Google's scheme, with these weights)."""
        category = error.category.lower()
        if error.severity == "Major":
            return self.non_translation if category.startswith("non-translation") else self.major
        if error.severity == "Minor":
            return self.minor_punctuation if category == "fluency/punctuation" else self.minor
        if error.severity == "Critical":
            return self.critical
        return 0.0

    def signature(self, resampling: dict[str, object] | None = None) -> str:
        """What defines the number: the weights, the mean over raters, unrated segments left out."""
        extra = [f"{k}:{v}" for k, v in (resampling or {}).items()]
        weights = (f"major:{self.major:g}|minor:{self.minor:g}|critical:{self.critical:g}|"
                   f"nontrans:{self.non_translation:g}|punct:{self.minor_punctuation:g}")
        return "|".join([weights, "raters:mean", "unrated:missing", *extra])


@functools.lru_cache(maxsize=64)
def _exact(weight: float) -> Fraction:
    """A weight as the decimal it is written as (0.1 is a tenth, not the double nearest to it)."""
    return Fraction(repr(weight))


def _rater_sums(ratings: Ratings, config: MqmConfig) -> dict[str, Fraction]:
    sums = dict.fromkeys(ratings.raters, Fraction(0))
    for error in ratings.errors:
        sums[error.rater] = sums.get(error.rater, Fraction(0)) - _exact(config.weight(error))
    return sums


def rater_scores(ratings: Ratings, config: MqmConfig) -> dict[str, float]:
    """Each rater's score of a segment: the negated sum of the weights of the errors the rater marked (summed
    exactly, rounded once: −1.2, never −1.2000000000000002 from 0.1 + 0.1 + 1)."""
    return {rater: float(total) for rater, total in _rater_sums(ratings, config).items()}


def segment_score(ratings: Ratings | None, config: MqmConfig) -> float:
    """A segment's MQM: the mean of its raters' scores (NaN: unrated), in exact arithmetic rounded once, so that it
    equals Google's own scores bit for bit."""
    if ratings is None or not ratings.raters:
        return float("nan")
    sums = _rater_sums(ratings, config)
    return float(sum(sums.values(), Fraction(0)) / len(sums))


FAMILY = Family("mqm", "MQM", MqmConfig, "mqm.mqm", needs_reference=False,
                about="Human error annotations (MQM): each segment the mean of its raters' negated error weights, "
                      "higher is better, 0 = no error")
