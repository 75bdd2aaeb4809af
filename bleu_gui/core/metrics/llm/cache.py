"""The judge's answers already given, in one SQLite file (like COMET's scores): each request — the model as the
endpoint names it, the messages sent (so the prompt and the texts), the answer's schema, the temperature and the
seed — is asked once. A row keeps the answer's text as the endpoint sent it, so that a re-open reads it again (with
today's parsing) and sends no request. An answer cut by ``max_tokens`` is not kept: a larger limit asks again.

The endpoint's URL is not in the key (the same model behind another address answers the same), and no key, header
or URL is written here.

Requests handed off as an OpenAI batch (:mod:`.batch`) are recorded by key with the manifest and shard that carry
them, so that an import takes only answers to requests this cache handed off; an answer imported from a batch is
marked so, and the signature says how the run's answers came (``via:openai-batch``)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from ..sqlite_cache import SqliteCache, user_cache_folder

CACHE_NAME = "llm-judgements.sqlite"


def cache_path(named: str = "") -> Path:
    """The file of the judge's answers: the one the settings name, else llm-judgements.sqlite in the user's cache."""
    return Path(named).expanduser() if named else user_cache_folder() / CACHE_NAME


def request_key(model: str, messages: Sequence[dict[str, str]], schema: dict[str, object], temperature: float,
                seed: int) -> bytes:
    """The key of one request (see the module)."""
    text = json.dumps([model, list(messages), schema, temperature, seed], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).digest()


class AnswerCache(SqliteCache):
    """The cache file (see the module), opened on first use. A cache that cannot be used (damaged, read-only,
    locked) is left alone: the judge is asked every time and :attr:`problem` says once why."""

    def __init__(self, path: Path):
        super().__init__(path, ["answers (key BLOB PRIMARY KEY, content TEXT NOT NULL, model TEXT NOT NULL)",
                                "handed_off (key BLOB PRIMARY KEY, manifest TEXT NOT NULL, shard TEXT NOT NULL)",
                                "from_batch (key BLOB PRIMARY KEY, manifest TEXT NOT NULL)"],
                         "LLM judge", "answers are asked and not kept")

    def get(self, keys: Sequence[bytes]) -> dict[bytes, str]:
        """The answers kept among ``keys`` (a row whose answer is not text is not an answer: asked again). Each is
        read as a live answer is, through the same door, when the run reads it."""
        rows = self.rows("SELECT key, content FROM answers WHERE key IN ({marks})", keys)
        return {bytes(key): content for key, content in rows if isinstance(content, str)}

    def put(self, key: bytes, content: str, model: str) -> None:
        """Keep one answer (at once: a cancelled or failed run keeps every answer it had)."""
        self.write("INSERT OR REPLACE INTO answers VALUES (?, ?, ?)", [(key, content, model)])

    def mark_handed_off(self, keys: Sequence[bytes], manifest: str, shard: str) -> None:
        """Record ``keys`` as handed off in ``shard`` of the batch whose manifest is ``manifest``."""
        self.write("INSERT OR REPLACE INTO handed_off VALUES (?, ?, ?)", [(k, manifest, shard) for k in keys])

    def handed_off(self, keys: Sequence[bytes]) -> dict[bytes, tuple[str, str]]:
        """The manifest and shard of each of ``keys`` that was handed off (others are absent)."""
        rows = self.rows("SELECT key, manifest, shard FROM handed_off WHERE key IN ({marks})", keys)
        return {bytes(k): (str(m), str(s)) for k, m, s in rows}

    def put_from_batch(self, rows: Sequence[tuple[bytes, str, str, str]]) -> None:
        """Keep answers imported from a batch: (key, content, model, manifest) each."""
        self.write("INSERT OR REPLACE INTO answers VALUES (?, ?, ?)", [(k, c, m) for k, c, m, _ in rows])
        self.write("INSERT OR REPLACE INTO from_batch VALUES (?, ?)", [(k, b) for k, _, _, b in rows])

    def from_batch(self, keys: Sequence[bytes]) -> set[bytes]:
        """Which of ``keys`` were answered by a batch imported."""
        return {bytes(k) for (k,) in self.rows("SELECT key FROM from_batch WHERE key IN ({marks})", keys)}
