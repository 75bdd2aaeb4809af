"""The settings of the paired tests and confidence intervals, as sacreBLEU names them: how many resamples and
trials (its defaults, and the ceilings beyond which p-values stop changing while memory keeps growing), the seed
(``SACREBLEU_SEED``) and the corrections for many comparisons. Plain Python: the command line's parser reads them
without loading the tests (:mod:`.significance`, :mod:`.pair_matrix`)."""

from __future__ import annotations

import os

from ..errors import ConfigError

CORRECTIONS = ("none", "holm")  # for the p-values of every pair (pair_matrix)
DEFAULT_SEED = 12345
BS_SAMPLES, AR_TRIALS = 1000, 10000

# Resamples and trials kept in memory per system are bounded: beyond these, a run holds gigabytes of
# resampled scores and takes hours, for p-values that stopped changing long before.
MAX_BS_SAMPLES, MAX_AR_TRIALS = 100_000, 1_000_000


def seed_from_env() -> int | None:
    """sacreBLEU's seed: ``SACREBLEU_SEED`` (``none`` for an unseeded generator), else 12345."""
    raw = os.environ.get("SACREBLEU_SEED", str(DEFAULT_SEED))
    if raw.lower() == "none":
        return None
    try:
        seed = int(raw)
    except ValueError:
        seed = -1
    if seed < 0:
        raise ConfigError(f"SACREBLEU_SEED={raw!r} is not a seed: give a whole number 0 or larger, or 'none'")
    return seed


def check_resamples(flag: str, n: int, ceiling: int) -> None:
    """Raise :class:`ConfigError` for a resample count below 1 or above ``ceiling``."""
    if n < 1:
        raise ConfigError(f"{flag} must be at least 1, got {n}")
    if n > ceiling:
        raise ConfigError(f"{flag} {n:,} is above the ceiling of {ceiling:,}: p-values and intervals stop changing "
                          f"long before, while time and memory keep growing; use at most {ceiling:,}")
