"""A metric's cache in one SQLite file (COMET's scores, the LLM judge's answers): opened on first use, created with
its folder where missing, shared by threads that take turns. A cache that cannot be used — damaged past its header,
in a read-only place, locked, on a full disk — is left alone: scoring goes on without it, and :attr:`problem` says
once why."""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

CHUNK = 500  # keys a SELECT asks for at once (SQLite's limit on bound parameters is 999 in old builds)


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
                db = sqlite3.connect(self.path, check_same_thread=False)
                for table in self._tables:
                    db.execute(f"CREATE TABLE IF NOT EXISTS {table}")
                db.commit()
            except (sqlite3.Error, OSError) as exc:
                self.failed(exc)
                return None
            self._db = db
        return self._db

    def failed(self, exc: Exception) -> None:
        """Leave the cache alone from now on, saying why."""
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
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
                    out += db.execute(select.format(marks=",".join("?" * len(chunk))), chunk).fetchall()
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
                db.executemany(statement, rows)
                db.commit()
            except (sqlite3.Error, OSError) as exc:
                self.failed(exc)

    def close(self) -> None:
        with self.lock:
            if self._db is not None:
                try:
                    self._db.close()
                except sqlite3.Error:
                    pass
                self._db = None
