"""The metrics on offer: their command-line keys, their settings classes, and the settings' JSON form (sessions
and the window's remembered settings)."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..errors import ConfigError
from .base import MetricConfig
from .bleu.config import BleuConfig
from .chrf.chrf import ChrfConfig
from .ter.ter import TerConfig

CONFIGS: dict[str, type] = {"bleu": BleuConfig, "chrf": ChrfConfig, "ter": TerConfig}
KEYS = tuple(CONFIGS)


def config_to_dict(config: MetricConfig) -> dict[str, Any]:
    """``{"metric": key, ...settings}``: every field of the settings, by name."""
    settings: Any = config  # every metric's settings are a dataclass
    return {"metric": config.key, **dataclasses.asdict(settings)}


def config_from_dict(data: object) -> MetricConfig:
    """The settings written by :func:`config_to_dict`, checked; :class:`ConfigError` says what is wrong."""
    if not isinstance(data, dict) or data.get("metric") not in CONFIGS:
        raise ConfigError(f"a metric's settings need \"metric\": one of {', '.join(KEYS)}, got {str(data)[:80]}")
    cls = CONFIGS[data["metric"]]
    fields = {f.name: f for f in dataclasses.fields(cls)}
    values = {k: v for k, v in data.items() if k != "metric"}
    unknown = sorted(set(values) - set(fields))
    if unknown:
        raise ConfigError(f"{data['metric']}: unknown setting(s) {', '.join(unknown)}")
    if isinstance(values.get("weights"), list):
        values["weights"] = tuple(values["weights"])
    for name, value in values.items():
        default = getattr(cls(), name)
        if isinstance(default, bool) and not isinstance(value, bool):
            raise ConfigError(f"{data['metric']}: {name} must be true or false, got {value!r}")
        if isinstance(default, int) and not isinstance(default, bool) and (
                isinstance(value, bool) or not isinstance(value, int)):
            raise ConfigError(f"{data['metric']}: {name} must be a whole number, got {value!r}")
    try:
        config: MetricConfig = cls(**values).validated()
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{data['metric']}: {exc}") from None
    return config


def other_metrics(values: object) -> tuple[MetricConfig, ...]:
    """The metrics beside BLEU (chrF, TER) from a list of their JSON forms: each once, BLEU not among them."""
    if not isinstance(values, list):
        raise ConfigError(f"the metrics beside BLEU must be a list of metric settings, got {str(values)[:80]}")
    metrics = tuple(config_from_dict(m) for m in values)
    keys = [m.key for m in metrics]
    if "bleu" in keys or len(set(keys)) != len(keys):
        raise ConfigError(f"the metrics beside BLEU, each once, got {', '.join(keys)}")
    return metrics


def metrics_from_list(values: object) -> tuple[MetricConfig, ...]:
    """Metrics' settings from a list of their JSON forms (:func:`config_to_dict`): each family once."""
    if not isinstance(values, list):
        raise ConfigError(f"the metrics must be a list of metric settings, got {str(values)[:80]}")
    metrics = tuple(config_from_dict(m) for m in values)
    keys = [m.key for m in metrics]
    if len(set(keys)) != len(keys):
        raise ConfigError(f"each metric once, got {', '.join(keys)}")
    return metrics
