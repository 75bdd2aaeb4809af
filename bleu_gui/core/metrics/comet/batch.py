"""COMET scores made elsewhere by unbabel-comet's own ``comet-score``, on the shards :mod:`...output.comet_batch`
wrote, read back by shard and position into the cache, as if the worker had scored them.

Each shard is checked before a score is kept: its files as the manifest signed them (sha256), ``out.json`` through
the one JSON door, one entry per line in order, each carrying the very texts of its line (comet-score echoes them),
a finite score; ``versions.json`` naming the unbabel-comet and checkpoint the manifest names (the cache keys scores by
them). A shard that fails any check is said in one line and left out; the rest is kept. Token counts are not in
comet-score's output: truncation at the encoder's limit is not flagged for these scores (said)."""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...inputs.text_files import SegmentFile
from ...inputs.untrusted_json import JsonRefused, Limits, parse
from ..base import Metric
from .cache import Cached, ScoreCache, item_key
from .metric import Comet
from .scoring import Item, ModelFacts

MANIFEST = "manifest.json"
FORMAT = "bleu-gui comet batch"
OUT_LIMITS = Limits(depth=8, digits=40, chars=2_000_000_000)
SMALL = Limits(depth=8, digits=80, chars=10_000_000)


@dataclass
class CometImported:
    """What an import did: the scores kept and each shard left out, with why."""

    kept: int = 0
    shards: int = 0
    left: list[str] = field(default_factory=list)

    def said(self) -> list[str]:
        out = [f"COMET batch: {self.kept:,} scores imported from {self.shards - len(self.left)} of {self.shards} "
               "shards (comet-score gives no token counts: truncation at the encoder's limit is not flagged for them)"]
        return out + [f"COMET batch: left out: {why}" for why in self.left]


def _json(path: Path, limits: Limits) -> Any:
    try:
        return parse(path.read_text("utf-8-sig"), str(path), limits=limits)  # a BOM read as every reader does
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    except JsonRefused as exc:
        raise InputError(exc.raw) from None


def _lines(path: Path) -> list[str]:
    return path.read_bytes().decode("utf-8").split("\n")[:-1]


def _shard_rows(folder: Path, shard: dict[str, Any], manifest: dict[str, Any]) -> list[tuple[bytes, Cached]]:
    """The cache rows of one shard, or :class:`InputError` saying why none can be kept."""
    where = folder / str(shard.get("dir"))
    if not isinstance(shard.get("dir"), str) or "/" in shard["dir"] or not isinstance(shard.get("sha256"), dict):
        raise InputError(f"{folder / MANIFEST}: a shard entry that is not bleu-gui's")
    texts = {}
    for name, digest in shard["sha256"].items():
        try:
            data = (where / name).read_bytes()
        except OSError:
            raise InputError(f"{where / name} is gone") from None
        if hashlib.sha256(data).hexdigest() != digest:
            raise InputError(f"{where / name} was changed after the export (its sha256 differs)")
        texts[name] = _lines(where / name)
    versions = _json(where / "versions.json", SMALL) if (where / "versions.json").is_file() else None
    if not isinstance(versions, dict):
        raise InputError(f"{where}: no versions.json — which unbabel-comet and checkpoint scored it cannot be told")
    if versions.get("checkpoint_sha256") != manifest["checkpoint_sha256"]:
        raise InputError(f"{where}: scored with another checkpoint (sha256 {str(versions.get('checkpoint_sha256'))[:12]}, "
                         f"the run's {manifest['checkpoint_sha256'][:12]})")
    if versions.get("comet") != manifest["comet"]:
        raise InputError(f"{where}: scored by unbabel-comet {versions.get('comet')}, the run's worker has "
                         f"{manifest['comet']} (the cache keys scores by it): score it with {manifest['comet']}")
    if not (where / "out.json").is_file():
        raise InputError(f"{where}: no out.json (the task has not run, or failed)")
    scored = _json(where / "out.json", OUT_LIMITS)
    entries = scored.get("mt.txt") if isinstance(scored, dict) else None
    if not isinstance(entries, list) and isinstance(scored, dict) and len(scored) == 1:
        entries = next(iter(scored.values()))  # keyed by the path comet-score was given
    src, mt = texts.get("src.txt", []), texts.get("mt.txt", [])
    ref: list[str | None] = list(texts["ref.txt"]) if "ref.txt" in texts else [None] * len(mt)
    if not isinstance(entries, list) or len(entries) != len(mt):
        raise InputError(f"{where / 'out.json'}: {len(entries) if isinstance(entries, list) else 'no'} entries for "
                         f"{len(mt)} lines")
    signature = (f"model:{manifest['model']}|ckpt:{manifest['checkpoint_sha256'][:12]}|comet:{manifest['comet']}|"
                 f"torch:{versions.get('torch')}|{manifest['precision']}|batch:{manifest['batch_size']}|"
                 "via:comet-score")
    model_id = (manifest["checkpoint_sha256"], manifest["comet"], manifest["precision"])
    rows = []
    for n, (entry, s, m, r) in enumerate(zip(entries, src, mt, ref), 1):
        if not isinstance(entry, dict) or entry.get("src") != s or entry.get("mt") != m or \
                (r is not None and entry.get("ref") != r):
            raise InputError(f"{where / 'out.json'}: entry {n} carries other texts than line {n} of the shard")
        score = entry.get("COMET")
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
            raise InputError(f"{where / 'out.json'}: entry {n} has no finite COMET score")
        errors = entry.get("errors")
        spans = tuple(e for e in errors if isinstance(e, dict)) if isinstance(errors, list) else \
            (() if manifest.get("spans") else None)
        rows.append((item_key(model_id, s, m, r), Cached(float(score), spans, 0, signature)))
    return rows


def import_comet_batch_into(cache_file: Path, folder: str | Path) -> list[str]:
    """Import the scored shards of the batch in ``folder`` into COMET's cache file; what was kept and left out."""
    with ScoreCache(cache_file) as cache:
        return import_comet_batch(cache, folder).said()


def import_comet_batch(cache: ScoreCache, folder: str | Path) -> CometImported:
    """Import every shard of the batch in ``folder`` that passes its checks into ``cache`` (see the module)."""
    out = Path(folder).expanduser()
    manifest = _json(out / MANIFEST, SMALL)
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT or not isinstance(manifest.get("shards"), list):
        raise InputError(f"{out / MANIFEST}: not a bleu-gui COMET batch manifest")
    done = CometImported(shards=len(manifest["shards"]))
    for shard in manifest["shards"]:
        try:
            rows = _shard_rows(out, shard if isinstance(shard, dict) else {}, manifest)
        except InputError as exc:
            done.left.append(exc.raw)
            continue
        cache.put(rows)
        done.kept += len(rows)
    if cache.problem:
        raise InputError(f"COMET batch: nothing imported: {cache.problem}")
    return done


@dataclass(frozen=True)
class HandOff:
    """What a COMET batch would score: the model's facts, the items its cache lacks, and the precision and batch
    size the run scores with."""

    facts: ModelFacts
    items: list[Item]
    precision: str
    batch_size: int


def items_to_hand_off(metric: Metric, systems: list[SegmentFile]) -> HandOff:
    """The items of ``systems`` a COMET ``metric``'s cache holds no score for, with what decides their scores."""
    if not isinstance(metric, Comet):
        raise InputError("a COMET batch is COMET's: the metric given is another")
    facts, items = metric.items_missing(systems)
    return HandOff(facts, items, metric.config.precision, metric.config.batch_size)
