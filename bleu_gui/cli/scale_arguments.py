"""The flags that hand a run's neural work to engines elsewhere and read their answers back by key (the LLM judge's
requests as an OpenAI batch, COMET's items as comet-score shards), and their one reading of the Namespace."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from .campaign_arguments import positive_int


def add_scale_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("work handed to engines elsewhere (answers read back by key into the caches)")
    g.add_argument("--llm-batch-out", metavar="DIR",
                   help="with -m llm: write the judge's requests the cache cannot answer as OpenAI Batch input (vLLM's "
                        "run_batch, OpenAI's or Azure's Batch API, Ray Data LLM) into DIR, with a manifest; their "
                        "segments stay unscored until imported; nothing is sent")
    g.add_argument("--llm-batch-in", nargs="+", metavar="FILE", default=[],
                   help="with -m llm: import the answers of a batch's output files by custom_id into the judge's cache "
                        "first (each line checked); the run then asks only for what is still missing")
    g.add_argument("--comet-batch-out", metavar="DIR",
                   help="with -m comet: write the run's COMET items the cache holds no score for as shards that "
                        "unbabel-comet's comet-score reads (texts shared by systems once), a manifest and a Slurm array "
                        "script (run_array.sh) into DIR, and stop: nothing is scored here")
    g.add_argument("--comet-batch-in", metavar="DIR",
                   help="with -m comet: import comet-score's outputs of DIR's shards into COMET's cache first (each "
                        "shard checked against the texts it scored); the run then scores only what is still missing")
    g.add_argument("--comet-batch-shard", type=positive_int, metavar="N",
                   help="with --comet-batch-out: items a shard (default 5,000)")
    g.add_argument("--llm-batch-shard", type=positive_int, metavar="N",
                   help="with --llm-batch-out: requests a shard (default 50,000, the Batch API's limit a file)")


@dataclass(frozen=True)
class Scale:
    """The hand-off asked for: the folders to write the judge's and COMET's batches to, what to import first."""

    llm_batch_out: str | None = None
    llm_batch_in: tuple[str, ...] = ()
    llm_batch_shard: int | None = None
    comet_batch_out: str | None = None
    comet_batch_in: str | None = None
    comet_batch_shard: int | None = None


def scale_options(args: argparse.Namespace) -> Scale:
    return Scale(args.llm_batch_out, tuple(args.llm_batch_in), args.llm_batch_shard, args.comet_batch_out,
                 args.comet_batch_in, args.comet_batch_shard)
