"""The metric families on offer, in one place: the command line, the window, sessions, reports and explanations
read this registry and never ask which metric they hold.

A family is added here with one line (its module's ``FAMILY``); see docs/architecture.md, "How to add a metric".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError, InputError, term
from .bleu.config import FAMILY as BLEU
from .bleu.variants import variant_modules
from .chrf.config import FAMILY as CHRF
from .comet.config import FAMILY as COMET
from .edit.config import FAMILY as EDIT
from .family import Family, MetricConfig
from .imported.config import FAMILY as IMPORTED
from .llm.config import FAMILY as LLM
from .mqm.config import FAMILY as MQM
from .ter.config import FAMILY as TER
from .unscored.config import FAMILY as UNSCORED
from .unscored.config import UnscoredConfig

if TYPE_CHECKING:
    from .base import Metric

# The families chosen by name (-m bleu chrf ter edit), in the order the window lists them; imported scores are metrics
# by their columns' names.
FAMILIES: tuple[Family, ...] = (BLEU, CHRF, TER, EDIT, MQM, COMET, LLM)
KEYS = tuple(f.key for f in FAMILIES)
# What is scored when no metric is named (sacreBLEU's default, BLEU), and what the window always scores.
DEFAULT_KEYS = ("bleu",)
ALWAYS_IN_WINDOW = tuple(f.key for f in FAMILIES if f.always_in_window)
_BY_KEY = {f.key: f for f in FAMILIES}
_BY_SETTINGS = {f.config: f for f in (*FAMILIES, IMPORTED, UNSCORED)}

Progress = Callable[[float], None]


def modules_by_name() -> list[str]:
    """Every module imported by its name when first used (each family's metric, each BLEU variant's arithmetic):
    what a bundle must ship although no import statement names it (``scripts/bundle.py``)."""
    return [f"{__package__}.{f.module}" for f in (*FAMILIES, IMPORTED, UNSCORED)] + variant_modules()


def family(key: str) -> Family:
    """The family named ``key`` (``bleu``, ``chrf``, ``ter``): :class:`KeyError` for another name."""
    return _BY_KEY[key]


def family_of(config: MetricConfig) -> Family:
    """The family whose settings ``config`` is."""
    return _BY_SETTINGS[type(config)]


def cost_stages(metrics: Sequence[MetricConfig]) -> list[tuple[MetricConfig, ...]]:
    """The metrics of ``metrics`` as they are scored in stages (``run.score_in_stages``), cheapest first: each stage
    adds the metrics of the next cost (BLEU and read scores, then chrF, then TER, then COMET) to those before, every stage in
    ``metrics``' order; the last stage is all of them."""
    costs = sorted({family_of(m).cost for m in metrics})
    return [tuple(m for m in metrics if family_of(m).cost <= cost) for cost in costs]


def bind(config: MetricConfig, references: Sequence[Sequence[str]], progress: Progress | None = None,
         like: Metric | None = None, source: Sequence[str] | None = None) -> Metric:
    """The metric with the settings ``config`` against ``references`` (processed now); ``like``: a metric of the
    same family whose work on words may be continued (never changed); ``source``: the source segments (read by a
    family that needs them: COMET)."""
    return family_of(config).bind(config, references, progress, like, source)


def config_from_dict(data: object) -> MetricConfig:
    """A family's settings from their JSON form (``MetricSettings.to_dict``); :class:`ConfigError` says what is
    wrong."""
    if not isinstance(data, dict) or data.get("metric") not in _BY_KEY:
        raise ConfigError(f"a metric's settings need \"metric\": one of {', '.join(KEYS)}, got {str(data)[:80]}")
    found: MetricConfig = _BY_KEY[data["metric"]].config.from_dict(data)
    return found


def metrics_from_list(values: object) -> tuple[MetricConfig, ...]:
    """Metrics' settings from a list of their JSON forms: each family once."""
    if not isinstance(values, list):
        raise ConfigError(f"the metrics must be a list of metric settings, got {str(values)[:80]}")
    metrics = tuple(config_from_dict(m) for m in values)
    keys = [m.key for m in metrics]
    if len(set(keys)) != len(keys):
        raise ConfigError(f"each metric once, got {', '.join(keys)}")
    return metrics


def metrics_to_list(metrics: Sequence[MetricConfig]) -> list[dict[str, Any]]:
    """The JSON forms of the families' settings among ``metrics`` (imported scores come with their files)."""
    return [m.to_dict() for m in own_metrics(metrics)]


def own_metrics(metrics: Sequence[MetricConfig]) -> tuple[MetricConfig, ...]:
    """The families' settings among ``metrics``: what a session keeps and the window's settings edit (imported
    scores have no settings: they come with their files)."""
    return tuple(m for m in metrics if family_of(m) not in (IMPORTED, UNSCORED))


def in_window(metrics: Sequence[MetricConfig], referenced: bool = True) -> tuple[MetricConfig, ...]:
    """``metrics`` with the defaults of every family the window always scores put first where missing (BLEU: its
    n-gram evidence and what-if edits are the window's); in a run without references (not ``referenced``), none
    that needs one."""
    keys = {m.key for m in metrics}
    missing = tuple(f.config() for f in FAMILIES if f.always_in_window and f.key not in keys
                    and (referenced or not f.needs_reference))
    return (*missing, *metrics)


def default_keys(referenced: bool) -> tuple[str, ...]:
    """The families scored when no metric is named: sacreBLEU's BLEU, and none in a run without references (its
    metrics are those the user names or brings: COMET's reference-free checkpoints, read QE scores, MQM)."""
    return DEFAULT_KEYS if referenced else tuple(k for k in DEFAULT_KEYS if not family(k).needs_reference)


def unscored() -> tuple[MetricConfig, ...]:
    """The metrics of a run that nothing scores yet: the stand-in alone (:mod:`.unscored.config`)."""
    return (UnscoredConfig(),)


def is_unscored(metrics: Sequence[MetricConfig]) -> bool:
    """Whether ``metrics`` score nothing (the stand-in of a run of source and translation alone)."""
    return all(family_of(m) is UNSCORED for m in metrics)


def scoring(metrics: Sequence[MetricConfig]) -> tuple[MetricConfig, ...]:
    """``metrics`` without the stand-in: what scores a run once a metric is chosen."""
    return tuple(m for m in metrics if family_of(m) is not UNSCORED)


def reference_free(metrics: Sequence[MetricConfig]) -> tuple[tuple[MetricConfig, ...], tuple[str, ...]]:
    """The metrics of ``metrics`` a run without references can score, and the titles of those it cannot (the
    window's settings carried into such a run leave them out, saying so)."""
    kept = tuple(m for m in metrics if not family_of(m).needs_reference)
    return kept, tuple(family_of(m).title for m in metrics if family_of(m).needs_reference)


def check_references(metrics: Sequence[MetricConfig], referenced: bool) -> None:
    """Refuse, in one line naming it, a metric that compares with a reference in a run without references (never a
    score over empty references)."""
    if referenced:
        return
    needing = [family_of(m).title for m in metrics if family_of(m).needs_reference]
    if needing:
        which = ", ".join(needing)
        raise InputError(f"{which} compare{'s' if len(needing) == 1 else ''} the translation with a reference, and the "
                         f"run has none: give a reference file ({term('references')}), or leave {which} out of "
                         f"{term('metrics')} (without a reference: COMET with a reference-free checkpoint, an LLM "
                         "judge, read QE scores, MQM)")
