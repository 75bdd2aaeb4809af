"""COMET's items handed to a cluster as shards that unbabel-comet's own ``comet-score`` reads: one ``src.txt``,
``mt.txt`` (and ``ref.txt``) per shard, the run's unique (source, candidate, reference) items that the cache holds
no score for (texts shared by systems scored once), a manifest naming what decides the scores (the model, the
checkpoint's sha256, COMET's version, the precision, each file's sha256) and a Slurm array script — one task per
shard, writing ``out.json`` (``comet-score --to_json``) and ``versions.json`` (the unbabel-comet, torch and checkpoint
that scored it). :mod:`..metrics.comet.batch` reads them back by shard and position.

``comet-score`` reads each file with ``readlines()`` and strips every line: an item whose text has a line break
inside or whitespace at either end would be scored as another text, so it is left to the worker here (counted). It
always scores in half precision (``model.half()``): only a run scored in fp16 hands off, its scores keyed as fp16.
Its embedding cache, which keys a batch by the printed form of its tensors (false hits, its own comment says), is
turned off (``--disable_cache``)."""

from __future__ import annotations

import hashlib
import importlib.resources
import json
import shlex
from dataclasses import dataclass
from pathlib import Path

from ..errors import ExportError, term
from ..inputs.text_files import SegmentFile
from ..metrics.base import Metric
from ..metrics.comet.batch import items_to_hand_off
from ..metrics.comet.scoring import Item, ModelFacts
from .exports import write_atomic

SHARD_ITEMS = 5_000
COMET_SCORE_PRECISION = "fp16"  # comet-score (unbabel-comet 2.2.7) always calls model.half()
MANIFEST = "manifest.json"
SCRIPT = "run_array.sh"
FORMAT = "bleu-gui comet batch"

# What each task writes beside its scores: the versions and the checkpoint that scored them (comet-score's JSON
# holds neither), for the import to check against the manifest.
_VERSIONS = r"""import hashlib, json, sys
import comet, torch
from comet import download_model
model = sys.argv[1]
checkpoint = model if model.endswith(".ckpt") else download_model(model)
digest = hashlib.sha256()
with open(checkpoint, "rb") as f:
    for block in iter(lambda: f.read(1 << 20), b""):
        digest.update(block)
print(json.dumps({"comet": getattr(comet, "__version__", ""), "torch": torch.__version__,
                  "checkpoint_sha256": digest.hexdigest()}))"""


@dataclass(frozen=True)
class CometBatchWritten:
    folder: Path
    shards: int
    items: int
    left: int  # items comet-score would read otherwise: left to the worker

    def said(self) -> str:
        left = (f"; {self.left:,} items whose text comet-score would change (a line break inside, whitespace at an "
                "end) are left to the worker here") if self.left else ""
        return (f"{self.items:,} COMET items written to {self.folder} as {self.shards} comet-score shard"
                f"{'s' if self.shards != 1 else ''} with {SCRIPT} (a Slurm array; one task per shard){left}")


def _as_read(text: str | None) -> bool:
    """Whether comet-score reads ``text`` back as it is (one line, nothing to strip)."""
    return text is None or ("\n" not in text and "\r" not in text and text == text.strip())


def _script(model: str, shards: int, batch_size: int, referenced: bool) -> str:
    """The Slurm array script: the template shipped in the package (``hand_off/comet_array.sh``), filled in."""
    template = importlib.resources.files("bleu_gui").joinpath("hand_off/comet_array.sh").read_text("utf-8")
    return (template.replace("@SHARDS@", str(shards)).replace("@MODEL@", shlex.quote(model))
            .replace("@VERSIONS@", shlex.quote(_VERSIONS)).replace("@BATCH@", str(batch_size))
            .replace("@REF@", ' -r "$SHARD/ref.txt"' if referenced else ""))


def write_comet_batch(folder: str | Path, facts: ModelFacts, items: list[Item], precision: str, batch_size: int,
                      shard_items: int = SHARD_ITEMS) -> CometBatchWritten:
    """Write ``items`` into ``folder`` (new, or empty) as comet-score shards, the manifest and the script."""
    out = Path(folder).expanduser()
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ExportError(f"{out}: a batch is written into a new or empty folder (this one holds files)")
    if precision != COMET_SCORE_PRECISION:
        raise ExportError(f"comet-score scores in fp16 only (unbabel-comet's comet-score calls model.half()), and this "
                          f"run's COMET is {precision}: the cache keys the two apart, so its scores would never be read "
                          f"here; hand off a run scored in fp16 ({term('comet.precision', 'fp16')})")
    readable = [item for item in items if all(_as_read(t) for t in item)]
    referenced = not facts.reference_free
    listed = []
    for n, start in enumerate(range(0, len(readable), shard_items), 1):
        part = readable[start:start + shard_items]
        shard = out / f"shard-{n:05d}"
        try:
            shard.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ExportError(f"{shard}: cannot make the folder ({exc.strerror or exc})") from None
        files = {"src.txt": [s for s, _, _ in part], "mt.txt": [m for _, m, _ in part]}
        if referenced:
            files["ref.txt"] = [r or "" for _, _, r in part]
        sums = {}
        for name, lines in files.items():
            data = ("\n".join(lines) + "\n").encode("utf-8")
            write_atomic(shard / name, data)
            sums[name] = hashlib.sha256(data).hexdigest()
        listed.append({"dir": shard.name, "items": len(part), "sha256": sums})
    manifest = {"format": FORMAT, "version": 1, "model": facts.name, "checkpoint": facts.checkpoint,
                "checkpoint_sha256": facts.sha256, "comet": facts.comet, "precision": precision,
                "batch_size": batch_size, "reference_free": facts.reference_free, "spans": facts.spans,
                "items": len(readable),
                "shards": listed}
    write_atomic(out / MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")
    # A model folder by its checkpoint's path; a hub name as it is (comet-score downloads it there).
    model = facts.checkpoint if Path(facts.name).expanduser().exists() else facts.name
    write_atomic(out / SCRIPT, _script(model, len(listed), batch_size, referenced))
    (out / SCRIPT).chmod(0o755)
    return CometBatchWritten(out, len(listed), len(readable), len(items) - len(readable))


def hand_off_missing(folder: str | Path, metric: Metric, systems: list[SegmentFile],
                     shard_items: int = SHARD_ITEMS) -> str:
    """Write the items of ``systems`` that a COMET ``metric``'s cache holds no score for into ``folder`` as a batch;
    what was done, in one line (nothing is written when the cache holds them all)."""
    wanted = items_to_hand_off(metric, systems)
    if not wanted.items:
        return "COMET batch: nothing to hand off: the cache holds a score for every item of the run"
    return write_comet_batch(folder, wanted.facts, wanted.items, wanted.precision, wanted.batch_size,
                             shard_items).said()
