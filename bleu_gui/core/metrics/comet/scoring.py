"""Scoring items (source, hypothesis, reference) with one COMET model: what the cache holds is read, the rest is
scored by the worker in batches and kept as each batch finishes; every score of one run is under one signature.

The signature is sacreCOMET's proposal (Zouhar et al. 2024, "Pitfalls and outlooks in using COMET"): the model as
named, the checkpoint's sha256, COMET's and torch's versions, the precision, the references and the batch size —
``model:Unbabel/wmt22-comet-da|ckpt:4a1bc2e0f3d9|comet:2.2.7|torch:2.13.0|fp32|refs:1|batch:16``."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..status import say_status
from .cache import Cached, ScoreCache, cache_path, item_key
from .config import CometConfig
from .worker import CometWorker, keep_idle, worker_for, worker_python

Item = tuple[str, str, str | None]  # (source, hypothesis, reference: None for a reference-free model)
Progress = Callable[[float], None]


def short_name(model: str) -> str:
    """A model as a progress line names it: a folder's last part (``wmt22-comet-da``), a hub name as it is — the
    whole path fits no status bar at 1366 px."""
    return model if not model.startswith(("/", "~", ".")) and "\\" not in model else Path(model).name or model


@dataclass(frozen=True)
class ModelFacts:
    """What the worker found of the model before loading it: the checkpoint, its hash, the versions it runs with."""

    name: str
    checkpoint: str
    sha256: str
    comet: str
    torch: str
    kind: str
    reference_free: bool
    spans: bool
    max_tokens: int
    encoder: str = ""
    notes: tuple[str, ...] = ()

    def row_signature(self, precision: str, batch: int) -> str:
        """What made one cached score (one item: one reference at most): the run's signature less its references."""
        return f"model:{self.name}|ckpt:{self.sha256[:12]}|comet:{self.comet}|torch:{self.torch}|{precision}|batch:{batch}"


def run_signature(row_signature: str, refs: int) -> str:
    """A run's signature: its scores' common signature with the references this run scored against."""
    head, sep, batch = row_signature.rpartition("|batch:")
    return f"{head}|refs:{refs}|batch:{batch}" if sep else f"{row_signature}|refs:{refs}"


def _without_refs(signature: str) -> str:
    """A cached row's signature less the references (rows cached before 2026-11-29 said their run's)."""
    return re.sub(r"\|refs:\d+", "", signature)


@dataclass
class Scored:
    """The scores of a request's items (in its order), the one signature they share, and what was done."""

    values: list[Cached]
    signature: str
    from_cache: int = 0
    computed: int = 0
    rescored: int = 0
    notes: list[str] = field(default_factory=list)


class CometScorer:
    """One COMET model as the settings name it, and its cache. For each request it takes the idle worker (or starts
    one) and leaves it idle after (:func:`~.worker.keep_idle`), so one warm worker serves every run of the window,
    an old run's scorer and a new one's alike. Nothing is loaded until a score is missing: a run the cache holds
    loads no model."""

    def __init__(self, config: CometConfig):
        self.config = config
        self.cache = ScoreCache(cache_path(config.cache))
        self._worker: CometWorker | None = None
        self._facts: ModelFacts | None = None
        self._used_model = False
        self._fraction = 0.0  # of the items being scored: what a cancel check while waiting reports
        # One request at a time: a slice's metric shares its run's scorer, and the window scores in worker threads.
        self._lock = threading.RLock()

    @property
    def loaded(self) -> bool:
        """Whether this scorer's scores needed a model (loaded for them, or found loaded in the worker it took): a run
        the cache holds needs none."""
        return self._used_model

    @property
    def worker(self) -> CometWorker | None:
        """The worker while this scorer's request runs in it."""
        return self._worker if self._worker is not None and self._worker.alive else None

    def _release(self) -> None:
        """Leave the worker idle for the next request, this scorer's or another's (a dead one is ended)."""
        if self._worker is not None:
            keep_idle(self._worker)
            self._worker = None

    def _started(self, tick: Callable[[], None] | None = None) -> CometWorker:
        if self._worker is None or not self._worker.alive:
            self._worker = worker_for(worker_python(self.config.python), tick)
        return self._worker

    def facts(self, tick: Callable[[], None] | None = None) -> ModelFacts:
        """The model's facts (asks the worker once: it resolves the name and reads hparams.yaml, loads nothing)."""
        with self._lock:
            try:
                return self._facts_now(tick)
            finally:
                self._release()

    def _facts_now(self, tick: Callable[[], None] | None) -> ModelFacts:
        if self._facts is None:
            worker = self._started(tick)
            said = worker.request({"op": "resolve", "model": self.config.model}, tick)
            checkpoint = Path(said["checkpoint"])
            self._facts = ModelFacts(self.config.model, str(checkpoint), self.cache.checkpoint_sha256(checkpoint),
                                     worker.comet_version, worker.torch_version, str(said["class"]),
                                     bool(said["reference_free"]), bool(said["spans"]), int(said["max_tokens"]),
                                     str(said["encoder"]), tuple(said["notes"]))
        return self._facts

    def missing(self, items: Sequence[Item]) -> tuple[ModelFacts, list[Item]]:
        """The model's facts and the items (each once) its cache holds no score for: what a batch run elsewhere
        would score."""
        with self._lock:
            try:
                facts = self._facts_now(None)
            finally:
                self._release()
        model_id = (facts.sha256, facts.comet, self.config.precision)
        keys = {item_key(model_id, *item): item for item in items}
        found = self.cache.get(list(keys))
        return facts, [item for key, item in keys.items() if key not in found]

    def _load(self, facts: ModelFacts, tick: Callable[[], None] | None) -> None:
        worker = self._started(tick)
        # Known by the checkpoint's hash, not its path: a file replaced since an earlier run's load is loaded again.
        wanted = (facts.checkpoint, facts.sha256, facts.encoder, self.config.precision, str(self.config.gpus))
        if worker.model != wanted:
            say_status(f"Loading COMET model {short_name(facts.name)}")
            worker.model = None
            worker.request(self._load_request(facts), tick)
            worker.model = wanted
        self._used_model = True

    def score(self, items: Sequence[Item], refs: int, progress: Progress | None = None) -> Scored:
        """Each item's score, spans and tokens (see the module); ``refs``: the references of the run (for the
        signature). ``progress`` may raise to cancel: the worker is ended, the finished batches stay cached."""
        with self._lock:
            try:
                return self._score(items, refs, progress)
            finally:
                self._release()

    def _score(self, items: Sequence[Item], refs: int, progress: Progress | None) -> Scored:
        tick = (lambda: progress(self._fraction)) if progress is not None else None
        self._fraction = 0.0
        facts = self._facts_now(tick)
        model_id = (facts.sha256, facts.comet, self.config.precision)
        keys = [item_key(model_id, *item) for item in items]
        unique = list(dict.fromkeys(keys))
        # Each row is one item, scored against one reference at most: its signature holds no count of references, so
        # a run with more or fewer references reads the rows it shares, and signs what it did itself.
        found = {k: replace(c, signature=_without_refs(c.signature)) for k, c in self.cache.get(unique).items()}
        signatures = {c.signature for c in found.values()}
        if len(found) == len(unique) and len(signatures) <= 1:
            row = signatures.pop() if signatures else self._row(facts)
            return self._said(Scored([found[k] for k in keys], run_signature(row, refs), from_cache=len(unique)))
        row = self._row(facts)
        stale = [k for k in unique if k in found and found[k].signature != row]
        wanted = [k for k in unique if k not in found or found[k].signature != row]
        by_key = {k: item for k, item in zip(keys, items)}
        computed = self._compute(facts, [by_key[k] for k in wanted], wanted, row, progress, tick)
        found.update(computed)
        scored = Scored([found[k] for k in keys], run_signature(row, refs), from_cache=len(unique) - len(wanted),
                        computed=len(wanted) - len(stale), rescored=len(stale))
        if stale:
            scored.notes.append(f"COMET: {len(stale):,} cached scores were made under another signature and were "
                                "scored again, so that every score of the run shares one")
        return self._said(scored)

    def _row(self, facts: ModelFacts) -> str:
        """What makes this scorer's scores: the model's facts, and where they are scored when not in the worker."""
        via = "|via:ray" if self.config.ray else ""
        return facts.row_signature(self.config.precision, self.config.batch_size) + via

    def _said(self, scored: Scored) -> Scored:
        """``scored`` with the cache's trouble said, where it had any."""
        for said in (self.cache.problem, self.cache.damage):
            if said is not None and said not in scored.notes:
                scored.notes.append(said)
        return scored

    def _compute(self, facts: ModelFacts, items: list[Item], keys: list[bytes], signature: str,
                 progress: Progress | None, tick: Callable[[], None] | None) -> dict[bytes, Cached]:
        if not self.config.ray:  # on Ray, each actor loads the model
            self._load(facts, tick)
        out: dict[bytes, Cached] = {}
        started = time.monotonic()

        def on_batch(reply: dict[str, Any]) -> None:
            rows = [(keys[i], Cached(float(score), None if spans is None else tuple(spans), int(tokens), signature))
                    for i, score, spans, tokens in reply["batch"]]
            self.cache.put(rows)
            out.update(rows)
            done, total = int(reply["done"]), int(reply["total"])
            self._fraction = done / total
            rate = done / max(time.monotonic() - started, 1e-9)
            say_status(f"COMET: {done:,} of {total:,} segments, {rate:.1f}/s, {_left((total - done) / rate)} left")
            if progress is not None:
                progress(self._fraction)

        items_json = [{"src": s, "mt": m, **({"ref": r} if r is not None else {})} for s, m, r in items]
        if items_json:
            asked: dict[str, Any] = {"op": "score", "items": items_json, "batch_size": self.config.batch_size}
            if self.config.ray:  # the worker drives a pool of Ray actors, each loading the model
                asked["ray"] = {"address": self.config.ray, "actors": self.config.ray_actors, "cpus": 0.5,
                                "gpus": self.config.gpus, "load": self._load_request(facts)}
            self._started().request(asked, tick, on_batch)
        return out

    def _load_request(self, facts: ModelFacts) -> dict[str, Any]:
        return {"op": "load", "checkpoint": facts.checkpoint, "encoder": facts.encoder,
                "precision": self.config.precision, "gpus": self.config.gpus}

    def close(self) -> None:
        """Close the cache (a later request opens it again)."""
        with self._lock:
            self._release()
            self.cache.close()


def _left(seconds: float) -> str:
    if seconds < 60:
        return f"about {max(1, round(seconds))} s"
    return f"about {round(seconds / 60)} min"


def items_of(source: Sequence[str], hypotheses: Sequence[str], references: Sequence[Sequence[str]],
             reference_free: bool) -> tuple[list[Item], list[list[int]]]:
    """The items to score for a system (each segment against each of its references; once, with no reference,
    for a reference-free model) and, per segment, the indices of its items."""
    items: list[Item] = []
    per_segment: list[list[int]] = []
    for i, hypothesis in enumerate(hypotheses):
        if reference_free:
            per_segment.append([len(items)])
            items.append((source[i], hypothesis, None))
            continue
        refs = [r[i] for r in references if r[i].strip()] or [r[i] for r in references[:1]]
        per_segment.append(list(range(len(items), len(items) + len(refs))))
        items += [(source[i], hypothesis, ref) for ref in refs]
    return items, per_segment
