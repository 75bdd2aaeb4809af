"""A metric's cache in one SQLite file (COMET's scores, the LLM judge's answers): opened on first use, created with
its folder where missing, shared by threads that take turns and by processes that run at once (several runs of the
command on one ``--llm-cache``, the window beside a script).

Several writers: the file is in SQLite's write-ahead-log mode (readers never wait for a writer) and a writer that
finds it locked waits for its turn (SQLite's busy timeout, :data:`BUSY_SECONDS`) and tries again (:data:`TRIES`
times): a cache that is merely busy is waited for, never given up. A cache that cannot be used — damaged past its
header, in a read-only place, on a full disk, or still locked after every try — is left alone: scoring goes on
without it, and :attr:`problem` says once why (for a lock: how long it was waited for)."""

from __future__ import annotations

import functools
import os
import sqlite3
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Self, TypeVar

T = TypeVar("T")

CHUNK = 500  # keys a SELECT asks for at once (SQLite's limit on bound parameters is 999 in old builds)
BUSY_SECONDS = 30.0  # how long one statement waits for another process's lock (SQLite's busy timeout)
TRIES = 4            # statements tried again after a wait runs out: two minutes in all before the cache is given up


def user_cache_folder() -> Path:
    """bleu-gui's folder in the user's cache (XDG_CACHE_HOME, ~/Library/Caches, %LOCALAPPDATA%)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "bleu-gui"


class SqliteCache:
    """The file at ``path`` with ``tables`` (their ``CREATE TABLE IF NOT EXISTS`` bodies); ``who`` names the metric
    and ``without`` what happens without the cache, in :attr:`problem`."""

    def __init__(self, path: Path, tables: Sequence[str], who: str, without: str):
        self.path = path
        self._tables, self._who, self._without = tuple(tables), who, without
        self._db: sqlite3.Connection | None = None
        self.lock = threading.RLock()  # the window's threads and a metric's own take turns; close from any
        self.problem: str | None = None  # why the cache is not used, once it failed

    def connection(self) -> sqlite3.Connection | None:
        """The open file (None once it failed); call it with :attr:`lock` held."""
        if self.problem is not None:
            return None
        if self._db is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, check_same_thread=False)
                self._db = db
                self.patiently(lambda: self._create(db))
            except (sqlite3.Error, OSError) as exc:
                self.failed(exc)
                return None
        return self._db

    def _create(self, db: sqlite3.Connection) -> None:
        # WAL: readers and one writer at once; a file on a system without shared memory keeps its journal.
        db.execute("PRAGMA journal_mode=WAL")
        for table in self._tables:
            db.execute(f"CREATE TABLE IF NOT EXISTS {table}")
        db.commit()

    def patiently(self, work: Callable[[], T]) -> T:
        """``work()``, tried again while another process holds the file's lock (see the module); the last
        error raised when it is still locked after every try."""
        for attempt in range(TRIES + 1):
            try:
                return work()
            except sqlite3.OperationalError as exc:
                if not _busy(exc) or attempt == TRIES:
                    raise
                if self._db is not None:
                    self._db.rollback()
        raise AssertionError("unreachable")

    def failed(self, exc: Exception) -> None:
        """Leave the cache alone from now on, saying why."""
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        if isinstance(exc, sqlite3.OperationalError) and _busy(exc):
            reason += f": another process kept it locked for {BUSY_SECONDS * (TRIES + 1):g} s"
        self.problem = f"{self._who}: the cache {self.path} cannot be used ({reason}): {self._without}"
        self.close()

    def rows(self, select: str, keys: Sequence[bytes]) -> list[tuple[Any, ...]]:
        """The rows ``select`` (``SELECT … FROM … WHERE key IN ({marks})``) finds for ``keys``, asked in chunks;
        none from a cache that cannot be used."""
        out: list[tuple[Any, ...]] = []
        with self.lock:
            db = self.connection()
            if db is None:
                return out
            try:
                for start in range(0, len(keys), CHUNK):
                    chunk = list(keys[start:start + CHUNK])
                    query = select.format(marks=",".join("?" * len(chunk)))
                    out += self.patiently(functools.partial(_fetch, db, query, chunk))
            except (sqlite3.Error, OSError) as exc:
                self.failed(exc)
                return []
        return out

    def write(self, statement: str, rows: Sequence[tuple[object, ...]]) -> None:
        """Run ``statement`` on each of ``rows`` and commit at once (an interrupted run keeps what it wrote)."""
        with self.lock:
            db = self.connection()
            if db is None:
                return
            try:
                self.patiently(lambda: _execute_many(db, statement, rows))
            except (sqlite3.Error, OSError) as exc:
                self.failed(exc)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self.lock:
            if self._db is not None:
                try:
                    self._db.close()
                except sqlite3.Error:
                    pass
                self._db = None


def _fetch(db: sqlite3.Connection, query: str, values: list[bytes]) -> list[tuple[Any, ...]]:
    return db.execute(query, values).fetchall()


def _execute_many(db: sqlite3.Connection, statement: str, rows: Sequence[tuple[object, ...]]) -> None:
    db.executemany(statement, rows)
    db.commit()


def _busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite said another connection holds the lock (a wait may end it), not that the file is unusable."""
    said = str(exc).lower()
    return "locked" in said or "busy" in said
