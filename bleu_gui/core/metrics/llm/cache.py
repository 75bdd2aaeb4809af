"""The judge's answers already given, in one SQLite file (like COMET's scores): each request — the model as the
endpoint names it, the messages sent (so the prompt and the texts), the answer's schema, the temperature and the
seed — is asked once. A row keeps the answer's text as the endpoint sent it, so that a re-open reads it again (with
today's parsing) and sends no request. An answer cut by ``max_tokens`` is not kept: a larger limit asks again.

The endpoint's URL is not in the key (the same model behind another address answers the same), and no key, header
or URL is written here."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

from ..comet.cache import user_cache_folder

CACHE_NAME = "llm-judgements.sqlite"


def default_cache_path() -> Path:
    """Where the judge's answers are kept unless ``--llm-cache`` names another file."""
    return user_cache_folder() / CACHE_NAME


def request_key(model: str, messages: Sequence[dict[str, str]], schema: dict[str, object], temperature: float,
                seed: int) -> bytes:
    """The key of one request (see the module)."""
    text = json.dumps([model, list(messages), schema, temperature, seed], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).digest()


class AnswerCache:
    """The cache file (see the module), opened on first use. A cache that cannot be used (damaged, read-only,
    locked) is left alone: the judge is asked every time and :attr:`problem` says once why."""

    def __init__(self, path: Path):
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()  # the window's threads and the judge's take turns
        self.problem: str | None = None

    def _open(self) -> sqlite3.Connection | None:
        if self.problem is not None:
            return None
        if self._db is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, check_same_thread=False)
                db.execute("CREATE TABLE IF NOT EXISTS answers (key BLOB PRIMARY KEY, content TEXT NOT NULL, "
                           "model TEXT NOT NULL)")
                db.commit()
            except (sqlite3.Error, OSError) as exc:
                self._failed(exc)
                return None
            self._db = db
        return self._db

    def _failed(self, exc: Exception) -> None:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        self.problem = f"LLM judge: the cache {self.path} cannot be used ({reason}): answers are asked and not kept"
        self._close_now()  # called with the lock held

    def get(self, keys: Sequence[bytes]) -> dict[bytes, str]:
        """The answers kept among ``keys``."""
        found: dict[bytes, str] = {}
        with self._lock:
            db = self._open()
            if db is None:
                return found
            try:
                for start in range(0, len(keys), 500):
                    chunk = list(keys[start:start + 500])
                    marks = ",".join("?" * len(chunk))
                    for key, content in db.execute(f"SELECT key, content FROM answers WHERE key IN ({marks})", chunk):
                        found[bytes(key)] = str(content)
            except (sqlite3.Error, OSError) as exc:
                self._failed(exc)
                return {}
        return found

    def put(self, key: bytes, content: str, model: str) -> None:
        """Keep one answer (at once: a cancelled or failed run keeps every answer it had)."""
        with self._lock:
            db = self._open()
            if db is None:
                return
            try:
                db.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?)", (key, content, model))
                db.commit()
            except (sqlite3.Error, OSError) as exc:
                self._failed(exc)

    def close(self) -> None:
        with self._lock:
            self._close_now()

    def _close_now(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
            self._db = None
