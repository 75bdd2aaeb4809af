"""What ``bleu-score`` does with the hand-off flags (:mod:`.scale_arguments`): the judge's batch outputs imported
into its cache before the run, its requests the cache cannot answer handed off after it."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import InputError

if TYPE_CHECKING:
    from ..core.inputs.run_inputs import Inputs
    from ..core.metrics.family import MetricConfig
    from ..core.run import Run
    from .scale_arguments import Scale


class HandedOff(Exception):
    """The run's work was written for an engine elsewhere (``--comet-batch-out``): nothing more is done here."""


def _judge(metrics: Sequence[MetricConfig], flag: str) -> MetricConfig:
    found = next((m for m in metrics if m.key == "llm"), None)
    if found is None:
        raise InputError(f"{flag} is the LLM judge's: add llm to the metrics (-m … llm)")
    return found


def check_scale(scale: Scale, metrics: Sequence[MetricConfig]) -> tuple[MetricConfig, ...]:
    """The metrics as the hand-off asks (the judge told to hand off what its cache cannot answer); a flag without
    its metric or its companion is refused."""
    if scale.llm_batch_shard is not None and not scale.llm_batch_out:
        raise InputError("--llm-batch-shard sizes the shards of --llm-batch-out; here it would be ignored")
    if scale.llm_batch_in:
        _judge(metrics, "--llm-batch-in")
    if scale.comet_batch_shard is not None and not scale.comet_batch_out:
        raise InputError("--comet-batch-shard sizes the shards of --comet-batch-out; here it would be ignored")
    for flag, given in (("--comet-batch-in", scale.comet_batch_in), ("--comet-batch-out", scale.comet_batch_out)):
        if given and not any(m.key == "comet" for m in metrics):
            raise InputError(f"{flag} is COMET's: add comet to the metrics (-m … comet)")
    if not scale.llm_batch_out:
        return tuple(metrics)
    _judge(metrics, "--llm-batch-out")
    return tuple(_handing_off(m) if m.key == "llm" else m for m in metrics)


def _handing_off(config: Any) -> MetricConfig:
    """The judge's settings (an LlmConfig: a frozen dataclass) told to hand off what its cache cannot answer."""
    handing: MetricConfig = dataclasses.replace(config, hand_off=True)
    return handing


def import_batches(scale: Scale, metrics: Sequence[MetricConfig], say: Callable[[str], None]) -> None:
    """Import ``--llm-batch-in``'s output files into the judge's cache (each kind of line left out said), and
    ``--comet-batch-in``'s shards into COMET's."""
    if scale.comet_batch_in:
        from ..core.metrics.comet.batch import import_comet_batch_into
        from ..core.metrics.comet.cache import cache_path as comet_cache_path

        comet = next(m for m in metrics if m.key == "comet")
        for line in import_comet_batch_into(comet_cache_path(getattr(comet, "cache", "")), scale.comet_batch_in):
            say(line)
    if scale.llm_batch_in:
        from ..core.metrics.llm.batch import import_batch_into
        from ..core.metrics.llm.cache import cache_path

        judge = _judge(metrics, "--llm-batch-in")
        for line in import_batch_into(cache_path(getattr(judge, "cache", "")), scale.llm_batch_in):
            say(line)


def hand_off(scale: Scale, run: Run, say: Callable[[str], None]) -> None:
    """Write what the run's judge handed off into ``--llm-batch-out``'s folder (nothing, and said, when the cache
    answered every request)."""
    if not scale.llm_batch_out:
        return
    from ..core.output.llm_batch import SHARD_REQUESTS, hand_off_missing

    files = [s.file for s in run.systems]
    for judge in (m for m in run.metrics if m.key == "llm"):
        say(hand_off_missing(scale.llm_batch_out, judge, files, scale.llm_batch_shard or SHARD_REQUESTS))


def comet_hand_off(scale: Scale, run_inputs: Inputs, metrics: Sequence[MetricConfig], say: Callable[[str], None]) -> None:
    """Write the run's COMET items the cache holds no score for into ``--comet-batch-out``'s folder."""
    from ..core.metrics.registry import bind
    from ..core.output.comet_batch import SHARD_ITEMS, hand_off_missing

    assert scale.comet_batch_out
    config = next(m for m in metrics if m.key == "comet")
    context = run_inputs.context
    chosen, _ = config.for_target_language(context.languages, context.languages_from)
    source = context.source.lines if context.source is not None else None
    metric = bind(chosen, [r.lines for r in run_inputs.references], None, None, source)
    say(hand_off_missing(scale.comet_batch_out, metric, list(run_inputs.systems),
                         scale.comet_batch_shard or SHARD_ITEMS))
