"""The LLM judge's requests handed off as an OpenAI batch: shards of Batch API input lines — ``custom_id`` the
request's key in the judge's cache, ``body`` exactly what a live request sends — that vLLM's batch runner
(``python -m vllm.entrypoints.openai.run_batch``), OpenAI's or Azure's Batch API and Ray Data LLM run as they are,
and a manifest that names what decides the answers (model, judgement, prompt digest, schema version, temperature,
seed, answer tokens), the counts and each shard's sha256. The judge's cache records every request with its
manifest and shard, so that an import (:mod:`..metrics.llm.batch`) takes only answers to these requests, from
shards unchanged since."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import ExportError
from ..inputs.text_files import SegmentFile
from ..metrics.base import HandOff, Metric
from .exports import write_atomic

SHARD_REQUESTS = 50_000  # OpenAI's Batch API takes at most 50,000 requests a file
MANIFEST = "manifest.json"
FORMAT = "bleu-gui llm batch"
VERSION = 1
URL = "/v1/chat/completions"


@dataclass(frozen=True)
class BatchWritten:
    """What was written: the folder, the manifest, the shards' files and the number of requests."""

    folder: Path
    manifest: Path
    shards: tuple[Path, ...]
    requests: int

    def said(self) -> str:
        n = len(self.shards)
        return (f"{self.requests:,} requests of the LLM judge written to {self.folder} as an OpenAI batch ({n} "
                f"shard{'s' if n != 1 else ''}, manifest {self.manifest.name})")


def _line(custom_id: str, body: dict[str, object]) -> str:
    return json.dumps({"custom_id": custom_id, "method": "POST", "url": URL, "body": body}, ensure_ascii=False)


def write_batch(folder: str | Path, handed: HandOff, shard_requests: int = SHARD_REQUESTS) -> BatchWritten:
    """Write ``handed``'s requests into ``folder`` (new, or empty) in shards of ``shard_requests`` lines and the
    manifest, each file atomically, and record every request in the judge's cache with its shard."""
    out = Path(folder).expanduser()
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ExportError(f"{out}: a batch is written into a new or empty folder (this one holds files: a batch "
                          "there already?)")
    if shard_requests < 1:
        raise ExportError(f"a shard holds at least one request, not {shard_requests}")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"{out}: cannot make the folder ({exc.strerror or exc})") from None
    requests = handed.requests
    shards: list[Path] = []
    listed: list[dict[str, object]] = []
    for start in range(0, len(requests), shard_requests):
        part = requests[start:start + shard_requests]
        data = ("\n".join(_line(i, body) for i, body in part) + "\n").encode("utf-8")
        path = write_atomic(out / f"requests-{len(shards) + 1:05d}.jsonl", data)
        shards.append(path)
        listed.append({"file": path.name, "requests": len(part), "sha256": hashlib.sha256(data).hexdigest()})
    manifest = {"format": FORMAT, "version": VERSION, "url": URL, **handed.facts, "requests": len(requests),
                "shards": listed}
    written = write_atomic(out / MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")
    at = str(written.resolve())
    for start, shard in zip(range(0, len(requests), shard_requests), shards):
        handed.mark([i for i, _ in requests[start:start + shard_requests]], at, shard.name)
    return BatchWritten(out, written, tuple(shards), len(requests))


def hand_off_missing(folder: str | Path, metric: Metric, systems: list[SegmentFile],
                     shard_requests: int = SHARD_REQUESTS) -> str:
    """Write the requests ``metric`` (an LLM judge) would send for ``systems`` that its cache cannot answer into
    ``folder`` as an OpenAI batch; what was done, in one line (nothing is written when the cache answers them all)."""
    handed = metric.requests_missing(systems)
    if handed is None:
        return "LLM batch: nothing to hand off: the judge's cache answers every request of the run"
    return write_batch(folder, handed, shard_requests).said()
