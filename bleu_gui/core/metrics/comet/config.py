"""COMET's settings (``--comet-*``): which checkpoint, how it runs, where its worker and its cache are. The model runs
in a worker process (:mod:`.worker`): bleu-gui never reimplements COMET, it feeds unbabel-comet, caches and signs
what it says (:mod:`.metric`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from ...errors import ConfigError, term
from ..family import Family
from ..settings import MetricSettings, setting

DEFAULT_MODEL = "Unbabel/wmt22-comet-da"
PRECISIONS = ("fp32", "fp16", "bf16")


@dataclass(frozen=True)
class CometConfig(MetricSettings):
    """COMET's settings (see the module). ``python`` and ``cache`` change where the work is done, never a number."""

    model: str = setting(DEFAULT_MODEL, label="model", metavar="NAME|DIR",
                         help=f"a COMET model: a Hugging Face name (default {DEFAULT_MODEL}; fetched by unbabel-comet "
                              "where the network allows) or a folder holding checkpoints/model.ckpt and hparams.yaml")
    batch_size: int = setting(16, label="batch size", low=1, high=4096, metavar="N",
                              help="segments per batch (16, as comet-score; moves scores by about 1e-7)")
    gpus: int = setting(1, label="GPUs", low=0, high=64, metavar="N",
                        help="0: the CPU; 1: the worker's GPU when it has one, else the CPU")
    precision: str = setting("fp32", label="precision", choices=PRECISIONS,
                             help="the model's floating point: fp32 (default, as COMET's Python API), fp16 (as "
                                  "comet-score since 2.2.5: about 1e-4 from fp32) or bf16")
    python: str = setting("", label="worker Python", metavar="PATH",
                          help="a Python that has unbabel-comet (a conda env, another machine's env); default: this "
                               "environment's, when pip install 'bleu-gui[comet]' put COMET in it")
    cache: str = setting("", label="cache file", metavar="FILE",
                         help="the SQLite file of COMET scores already computed (default: comet-scores.sqlite in the "
                              "user's cache folder); a copy from another machine is read as it is")
    ray: str = setting("", label="Ray cluster", metavar="ADDRESS|local",
                       help="score the items the cache lacks on a Ray cluster (its address, or local: one of this "
                            "machine) through a pool of actors holding the model; Ray is needed in the worker Python "
                            "only (pip install 'bleu-gui[ray]' there)")
    ray_actors: int = setting(1, label="Ray actors", low=1, high=1024, metavar="N", applies=lambda c: bool(c.ray),
                              help="with a Ray cluster: actors holding the model (GPUs each: GPUs)")

    key: ClassVar[str] = "comet"
    # A batch size or a worker's Python or GPUs move a score by about 1e-7, outside the cache's key (see cache.py).
    work_only: ClassVar[tuple[str, ...]] = ("batch_size", "gpus", "python", "cache", "ray", "ray_actors")
    badge: ClassVar[str] = "COMET"

    def why_unread(self, name: str) -> str:
        return "is read with a Ray cluster only" if name == "ray_actors" else super().why_unread(name)

    def validated(self) -> CometConfig:
        if not self.model.strip():
            raise ConfigError(f"{term('comet.model')}: name a COMET model or its folder")
        if self.precision not in PRECISIONS:
            raise ConfigError(f"{term('comet.precision')}: one of {', '.join(PRECISIONS)}, got {self.precision!r}")
        if not 1 <= self.batch_size <= 4096:
            raise ConfigError(f"{term('comet.batch_size')}: 1 to 4096, got {self.batch_size}")
        if not 0 <= self.gpus <= 64:
            raise ConfigError(f"{term('comet.gpus')}: 0 to 64, got {self.gpus}")
        if self.precision == "bf16" and self.gpus == 0:
            raise ConfigError(f"{term('comet.precision', 'bf16')} runs on a GPU only (on the CPU COMET's model fails "
                              f"with bf16): choose fp32 or fp16, or a GPU ({term('comet.gpus', '1')})")
        return dataclasses.replace(self, model=self.model.strip())

    def for_target_language(self, languages: tuple[str, str] | None, declared: str = "") -> tuple[CometConfig, str]:
        """No setting follows the language; a note when the source or target language is not one COMET's encoder
        was pretrained on."""
        from .languages import outside_xlmr

        outside = [f"{side} language {code}" for side, code in zip(("source", "target"), languages or ("", ""))
                   if outside_xlmr(code)]
        if not outside:
            return self, ""
        return self, (f"COMET: the {' and the '.join(outside)} ({declared or 'as declared'}) "
                      f"{'is' if len(outside) == 1 else 'are'} not among the 100 languages XLM-R, COMET's encoder, was "
                      "pretrained on: its scores there are unreliable (COMET #18)")

    def non_default(self) -> list[str]:
        # Where the worker runs and where the cache is change no number: no badge says them.
        return [label for label in super().non_default() if not label.startswith(("COMET worker", "COMET cache"))]


FAMILY = Family("comet", "COMET", CometConfig, "comet.metric", cost=3, reads_source=True, scored_elsewhere=True,
                needs_reference=False,
                about="A neural metric (Rei et al. 2020/2022) computed by unbabel-comet in a worker process: "
                      "segment scores, their mean for the corpus, cached and signed")
