"""Answers to the LLM judge's requests run elsewhere as an OpenAI batch (vLLM's batch runner, OpenAI's or Azure's
Batch API, Ray Data LLM; written by :mod:`...output.llm_batch`), imported into the judge's cache by ``custom_id``.

Each output line passes the one door for JSON and is checked before its answer is kept: its status (vLLM's runner
exits 0 even when every line is an error), that its ``custom_id`` is a request this cache handed off, that the shard
which carried the request is the one the manifest signed (sha256: a shard edited after export asked something else),
and that the answer reads as a live answer would (the same reader; cut by the token limit, not kept). Whatever is
refused is counted and said in one line a kind; the rest is kept, and the next run asks only for what is missing."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...inputs.untrusted_json import JsonRefused, Limits, parse
from .answers import Refused, read_answer
from .cache import AnswerCache
from .client import Answer, EndpointError, answer_of

LINE_LIMITS = Limits(depth=32, digits=40, chars=8_000_000)  # a chat completion nests ~7 deep; 8 MB as a live reply
MANIFEST_LIMITS = Limits(depth=8, digits=40, chars=1_000_000)
FORMAT = "bleu-gui llm batch"


@dataclass
class _Kind:
    """One kind of line left out: how many, and the first one's place and reason."""

    count: int = 0
    first: str = ""

    def add(self, where: str) -> None:
        self.count += 1
        if not self.first:
            self.first = where


@dataclass
class Imported:
    """What an import did: the answers kept, those the cache had, and every kind of line left out."""

    lines: int = 0
    kept: int = 0
    had: int = 0
    unread: _Kind = field(default_factory=_Kind)      # not a batch output line (not JSON, cut, no custom_id)
    failed: _Kind = field(default_factory=_Kind)      # the engine's error for the request (a status other than 200)
    unknown: _Kind = field(default_factory=_Kind)     # a custom_id this cache never handed off
    edited: _Kind = field(default_factory=_Kind)      # its request's shard changed since the export, or is gone
    cut: _Kind = field(default_factory=_Kind)         # cut at the answer-token limit
    refused: _Kind = field(default_factory=_Kind)     # an answer the door refuses (nested too deep, a key twice)
    twice: _Kind = field(default_factory=_Kind)       # a custom_id answered twice: the first kept

    def said(self) -> list[str]:
        """One line for what was kept, one for each kind left out."""
        out = [f"LLM batch: {self.kept:,} answers imported into the judge's cache from {self.lines:,} output lines"
               + (f" ({self.had:,} were in the cache already)" if self.had else "")]
        for kind, what in ((self.failed, "the engine answered with an error, left out (asked again next run)"),
                           (self.unread, "not a batch output line, left out"),
                           (self.unknown, "answer no request this cache handed off (another run's batch?), refused"),
                           (self.edited, "answer requests of a shard changed or gone since the export, refused"),
                           (self.cut, "were cut at the answer-token limit, not kept"),
                           (self.refused, "hold JSON the reader refuses, not kept"),
                           (self.twice, "answer a request answered before, left out (the first is kept)")):
            if kind.count:
                out.append(f"LLM batch: {kind.count:,} line{'s' if kind.count != 1 else ''} {what}; the first: "
                           f"{kind.first}")
        return out


@dataclass(frozen=True)
class _Line:
    where: str
    key: bytes
    answer: Answer


def _lines(path: Path) -> Iterator[tuple[int, str | None]]:
    """Each non-blank line of ``path`` with its number (None: not UTF-8)."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    with handle:
        for n, raw in enumerate(handle, 1):
            raw = raw.rstrip(b"\r\n").removeprefix(b"\xef\xbb\xbf" if n == 1 else b"")  # a BOM, as every reader
            if not raw.strip():
                continue
            try:
                yield n, raw.decode("utf-8")
            except UnicodeDecodeError:
                yield n, None


def _message(error: object) -> str:
    """An engine's error message: a string, ``{"message": …}``, or vLLM's ``{"error": {"message": …}}``."""
    for _ in range(3):
        if isinstance(error, dict):
            error = error.get("message", error.get("error"))
        else:
            break
    return str(error) if isinstance(error, (str, int, float)) else ""


def _read_line(text: str, where: str, n: int) -> tuple[bytes, Answer | str]:
    """The key and the answer of one output line, or why the engine gave none; :class:`InputError` when the line is
    not an output line."""
    line = parse(text, where, line=n, limits=LINE_LIMITS)
    custom_id = line.get("custom_id") if isinstance(line, dict) else None
    if not isinstance(custom_id, str) or len(custom_id) != 64 or custom_id.strip("0123456789abcdef"):
        raise InputError(f"{where}: line {n}: no custom_id of this cache's form (64 hex digits)")
    key = bytes.fromhex(custom_id)
    response, error = line.get("response"), line.get("error")
    status = response.get("status_code") if isinstance(response, dict) else None
    if error or status != 200:
        body = response.get("body") if isinstance(response, dict) else None
        said = _message(error) or _message(body.get("error") if isinstance(body, dict) else None)
        return key, f"status {status}" + (f": {said[:120]}" if said else "")
    assert isinstance(response, dict)
    try:
        return key, answer_of(response.get("body"), f"{where}: line {n}")
    except EndpointError as exc:
        raise InputError(exc.raw) from None


def _checked_shards(manifest: str) -> tuple[dict[str, Any] | None, set[str], str]:
    """The manifest's facts, the shards whose sha256 still matches, and why the others do not ('' when all do)."""
    path = Path(manifest)
    try:
        facts = parse(path.read_text("utf-8"), str(path), limits=MANIFEST_LIMITS)
    except (OSError, UnicodeDecodeError) as exc:
        return None, set(), f"the manifest {path} cannot be read ({getattr(exc, 'strerror', None) or exc})"
    except JsonRefused as exc:
        return None, set(), exc.raw
    if not isinstance(facts, dict) or facts.get("format") != FORMAT or not isinstance(facts.get("shards"), list):
        return None, set(), f"{path} is not a bleu-gui batch manifest"
    good, why = set(), ""
    for shard in facts["shards"]:
        name = shard.get("file") if isinstance(shard, dict) else None
        if not isinstance(name, str) or "/" in name or "\\" in name:
            continue
        try:
            digest = hashlib.sha256((path.parent / name).read_bytes()).hexdigest()
        except OSError:
            why = why or f"the shard {path.parent / name} is gone"
            continue
        if digest == shard.get("sha256"):
            good.add(name)
        else:
            why = why or f"the shard {path.parent / name} was changed after the export (its sha256 differs)"
    return facts, good, why


def import_batch_into(cache_file: Path, files: Sequence[str | Path]) -> list[str]:
    """Import the batch output ``files`` into the judge's cache file; what was kept and left out, one line a kind."""
    with AnswerCache(cache_file) as cache:
        return import_batch(cache, files).said()


def import_batch(cache: AnswerCache, files: Sequence[str | Path]) -> Imported:
    """Import the answers of the batch output ``files`` into ``cache`` (see the module)."""
    done = Imported()
    found: dict[bytes, _Line] = {}
    for file in files:
        path = Path(file).expanduser()
        for n, text in _lines(path):
            done.lines += 1
            where = f"{path}: line {n}"
            if text is None:
                done.unread.add(f"{where}: not UTF-8")
                continue
            try:
                key, answer = _read_line(text, str(path), n)
            except InputError as exc:
                done.unread.add(exc.raw)
                continue
            if isinstance(answer, str):
                done.failed.add(f"{where}: {answer}")
            elif key in found:
                done.twice.add(where)
            else:
                found[key] = _Line(where, key, answer)
    handed = cache.handed_off(list(found))
    checked = {m: _checked_shards(m) for m in {m for m, _ in handed.values()}}
    had = cache.get(list(found))
    kept: list[tuple[bytes, str, str, str]] = []
    for key, line in found.items():
        if key not in handed:
            done.unknown.add(line.where)
            continue
        manifest, shard = handed[key]
        facts, good, why = checked[manifest]
        if facts is None or shard not in good:
            done.edited.add(f"{line.where} ({why})")
            continue
        if key in had:
            done.had += 1
            continue
        if line.answer.finish == "length":
            done.cut.add(line.where)
            continue
        read = read_answer(line.answer.content, str(facts.get("judge") or "mqm"))
        if isinstance(read, Refused) and read.hostile:
            done.refused.add(f"{line.where}: {read.why}")
            continue
        kept.append((key, line.answer.content, str(facts.get("model") or ""), manifest))
    cache.put_from_batch(kept)
    if cache.problem:
        raise InputError(f"LLM batch: nothing imported: {cache.problem}")
    done.kept = len(kept)
    return done
