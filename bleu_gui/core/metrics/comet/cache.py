"""COMET scores already computed, in one SQLite file: each (checkpoint's sha256, COMET's version, precision, source,
hypothesis, reference) is scored once. A row keeps the score, xCOMET's error spans, the encoder's token count and the
signature it was computed under, so that a score read back says how it was made (sacreCOMET, Zouhar et al. 2024).

The batch size and torch's version are not in the key (they move a score by about 1e-7): scores made on a GPU machine
and copied here are read at once. They are in each row's signature, and one run never mixes two signatures
(:mod:`.scoring`)."""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ...inputs.untrusted_json import JsonRefused, Limits, parse
from ..sqlite_cache import SqliteCache, user_cache_folder

CACHE_NAME = "comet-scores.sqlite"


def cache_path(named: str = "") -> Path:
    """The file of COMET's scores: the one the settings name, else comet-scores.sqlite in the user's cache."""
    return Path(named).expanduser() if named else user_cache_folder() / CACHE_NAME


@dataclass(frozen=True)
class Cached:
    """A score as the cache keeps it."""

    score: float
    spans: tuple[dict[str, object], ...] | None  # xCOMET's error spans (None: the model marks none)
    tokens: int                                  # the encoder's tokens of the longest input built of the item
    signature: str


def item_key(model_id: tuple[str, str, str], src: str, mt: str, ref: str | None) -> bytes:
    """The key of one scored item: ``model_id`` is (checkpoint sha256, COMET version, precision)."""
    text = json.dumps([*model_id, src, mt, ref], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).digest()


class ScoreCache(SqliteCache):
    """The cache file (see the module); opened on first use, created with its folder where missing.

    A cache that cannot be used — damaged past its header, in a read-only place, locked, on a full disk — is left
    alone: scoring goes on without it (every score computed, none kept), and :attr:`problem` says once why."""

    def __init__(self, path: Path):
        super().__init__(path, ["scores (key BLOB PRIMARY KEY, score REAL NOT NULL, spans TEXT, "
                                "tokens INTEGER NOT NULL, signature TEXT NOT NULL)",
                                "checkpoints (path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, "
                                "sha256 TEXT NOT NULL)"],
                         "COMET", "scores are computed and not kept")
        self.damaged = 0  # rows read that were not as this module writes them (see get)

    def get(self, keys: Sequence[bytes]) -> dict[bytes, Cached]:
        """The cached scores among ``keys`` (none from a cache that cannot be used). A row that does not read as
        this module writes rows — a score that is no finite number, spans that are not a list of objects, a token
        count that is no whole number — is left out (its item is scored again and the row written anew) and
        counted in :attr:`damaged`."""
        rows = self.rows("SELECT key, score, spans, tokens, signature FROM scores WHERE key IN ({marks})", keys)
        out = {}
        for key, score, spans, tokens, signature in rows:
            cached = _cached(score, spans, tokens, signature)
            if cached is None:
                self.damaged += 1
                continue
            out[bytes(key)] = cached
        return out

    @property
    def damage(self) -> str | None:
        """What :meth:`get` left out, said once per run (None when every row read)."""
        if not self.damaged:
            return None
        return (f"COMET: {self.damaged:,} rows of the cache {self.path} could not be read (damaged, or written by "
                "another program): their items were scored again and written anew")

    def put(self, rows: Iterable[tuple[bytes, Cached]]) -> None:
        """Keep ``rows`` (written at once: an interrupted run keeps every batch it finished)."""
        self.write("INSERT OR REPLACE INTO scores VALUES (?, ?, ?, ?, ?)",
                   [(k, c.score, None if c.spans is None else json.dumps(c.spans, ensure_ascii=False), c.tokens,
                     c.signature) for k, c in rows])

    def checkpoint_sha256(self, checkpoint: Path) -> str:
        """The checkpoint file's sha256, hashed once per file as it is: the memo is keyed by what a file replaced in
        place cannot keep (its inode and its change time, which no tool sets back), not only its size and
        modification time (a copy with ``cp -p`` or ``touch -r`` keeps those)."""
        stat = checkpoint.stat()
        memo = f"{checkpoint}\0{stat.st_dev}:{stat.st_ino}:{stat.st_ctime_ns}"
        with self.lock:
            db = self.connection()
            try:
                row = None if db is None else db.execute("SELECT size, mtime_ns, sha256 FROM checkpoints WHERE "
                                                         "path = ?", (memo,)).fetchone()
            except (sqlite3.Error, OSError) as exc:
                self.failed(exc)
                row = None
        if row is not None and row[0] == stat.st_size and row[1] == stat.st_mtime_ns:
            return str(row[2])
        digest = hashlib.sha256()
        with open(checkpoint, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        with self.lock:
            db = self.connection()
            try:
                if db is not None:
                    prefix = f"{checkpoint}\0"  # the memos of the file's older selves
                    db.execute("DELETE FROM checkpoints WHERE substr(path, 1, ?) = ?", (len(prefix), prefix))
                    db.execute("INSERT OR REPLACE INTO checkpoints VALUES (?, ?, ?, ?)",
                               (memo, stat.st_size, stat.st_mtime_ns, digest.hexdigest()))
                    db.commit()
            except (sqlite3.Error, OSError) as exc:
                self.failed(exc)
        return digest.hexdigest()


_SPAN_LIMITS = Limits(depth=4, digits=12)  # a list of flat objects: xCOMET's spans


def _cached(score: object, spans: object, tokens: object, signature: object) -> Cached | None:
    """One row as :meth:`ScoreCache.put` writes it, or None where it is not (see :meth:`ScoreCache.get`)."""
    if not isinstance(score, float) or not math.isfinite(score):
        return None
    if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 0 or not isinstance(signature, str):
        return None
    if spans is None:
        return Cached(score, None, tokens, signature)
    if not isinstance(spans, str):
        return None
    try:
        read = parse(spans, "a cached row", limits=_SPAN_LIMITS)
    except JsonRefused:
        return None
    if not isinstance(read, list) or not all(isinstance(span, dict) for span in read):
        return None
    return Cached(score, tuple(read), tokens, signature)


def cache_size(path: Path) -> tuple[int, int]:
    """(scores kept, bytes on disk) of the cache file ``path`` ((0, 0) where there is none)."""
    if not path.is_file():
        return 0, 0
    try:
        with sqlite3.connect(path) as db:
            count = db.execute("SELECT COUNT(*) FROM scores").fetchone()[0]
    except sqlite3.DatabaseError:
        count = 0
    return int(count), path.stat().st_size


def clear_cache(path: Path) -> None:
    """Remove the cache file ``path`` (the next run scores everything again)."""
    path.unlink(missing_ok=True)
