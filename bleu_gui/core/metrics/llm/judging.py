"""Asking the judge about many segments: the cache read first, the rest asked up to ``concurrency`` at a time, each
answer kept as it arrives, the progress said ("LLM judge: 320 of 2,037 segments, 2.1/s, about 13 min left"). A
cancel stops sending at once; a failure of the endpoint stops the run with one line saying how many segments were
judged and kept. The key is read from its environment variable or the OS keyring just before the first request
and held only by the :class:`~.client.Endpoint`."""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...errors import Cancelled, ConfigError, InputError, term
from ..status import say_status
from .answers import SCHEMA_VERSION, Refused, read_answer, schema
from .cache import AnswerCache, cache_path, request_key
from .client import Answer, Endpoint, EndpointError, Stopped, chat_body
from .config import LlmConfig, looks_like_a_key
from .prompts import Prompt, load_prompt

Progress = Callable[[float], None]
_Done = queue.SimpleQueue[tuple[bytes, "Answer | BaseException"]]  # each answer asked, or what its request raised
KEYRING_SERVICE = "bleu-gui"  # the keyring entry of a key: this service, the variable's name as the user name


@dataclass
class Asked:
    """The answers to a request's segments, in its order (None: no answer kept — cut by ``max_tokens``, or handed
    off), whether each was handed off to a batch, and how many distinct requests the cache answered."""

    answers: list[str | None]
    from_cache: int = 0
    handed: list[bool] | None = None


def api_key(variable: str) -> str:
    """The key named by ``variable``: the environment's value, else the OS keyring's entry (service ``bleu-gui``,
    user ``variable``); '' when no variable is named. :class:`InputError` when it is named and holds nothing."""
    if not variable:
        return ""
    if looks_like_a_key(variable):  # never echoed (config.py)
        raise InputError(f"LLM judge: {term('llm.key_env')} names an environment variable; what was given looks like "
                         "a key itself, so it is not repeated here")
    value = os.environ.get(variable, "").strip()
    if value:
        return value
    try:
        import keyring
        import keyring.errors

        stored = keyring.get_password(KEYRING_SERVICE, variable)
    except ImportError:
        stored, where = None, "this bleu-gui reads no OS keyring (pip install 'bleu-gui[keyring]')"
    except Exception as exc:  # keyring's backends raise their own errors (no backend, a locked store)
        stored, where = None, f"no OS keyring can be read here ({exc.__class__.__name__})"
    else:
        where = f"the keyring has no entry {variable} for the service {KEYRING_SERVICE}"
    if stored:
        return str(stored)
    raise InputError(f"LLM judge: no API key: the environment variable {variable} is not set and {where} "
                     f"({term('llm.key_env')})")


class Judge:
    """The judge as the settings name it: its prompt, schema, endpoint and cache (see the module). The endpoint is
    asked which models it offers only when something must be asked: a run the cache holds sends no request."""

    def __init__(self, config: LlmConfig):
        self.config = config
        self.prompt: Prompt = load_prompt(config.prompt, config.judge)
        self.schema = schema(config.judge)
        self.cache = AnswerCache(cache_path(config.cache))
        self._endpoint: Endpoint | None = None
        self._model = config.model
        self._lock = threading.RLock()  # one request of segments at a time (a slice shares its run's judge)
        self.unkept = 0  # answers the door for JSON refused: not cached (asked again next run)
        self.via: set[str] = set()  # how the answers read so far came: "openai-compatible", "openai-batch"
        self.handed: set[bytes] = set()  # the requests handed off (hand_off) instead of asked

    @property
    def model(self) -> str:
        """The model as the endpoint names it (the settings' name, or the endpoint's only model once asked)."""
        return self._model

    def signature(self) -> str:
        """What made the answers: model, how they were answered (the API, an OpenAI batch imported, or both), prompt
        digest, sampling, schema."""
        via = "+".join(v for v in ("openai-compatible", "openai-batch") if v in self.via) or "openai-compatible"
        return (f"model:{self._model or '?'}|via:{via}|prompt:{self.prompt.digest[:12]}|"
                f"temp:{self.config.temperature:g}|seed:{self.config.seed}|schema:{SCHEMA_VERSION}")

    def _note_via(self, keys: Sequence[bytes], asked_live: bool) -> None:
        batch = self.cache.from_batch(list(dict.fromkeys(keys)))
        if batch:
            self.via.add("openai-batch")
        if asked_live or len(batch) < len(set(keys)):
            self.via.add("openai-compatible")

    def facts(self) -> dict[str, object]:
        """What decides the answers, for a batch's manifest (the import reads each answer as this judge would)."""
        return {"model": self._model, "judge": self.config.judge, "prompt_digest": self.prompt.digest,
                "schema_version": SCHEMA_VERSION, "temperature": self.config.temperature, "seed": self.config.seed,
                "max_tokens": self.config.max_tokens}

    def _connected(self) -> Endpoint:
        if self._endpoint is None:
            endpoint = Endpoint(self.config.endpoint, api_key(self.config.key_env), self.config.timeout,
                                self.config.shown_endpoint())
            offered = endpoint.models()
            if offered is not None:
                if not self._model:
                    if len(offered) != 1:
                        listed = ", ".join(offered[:8]) or "none"
                        raise InputError(f"LLM judge: {self.config.shown_endpoint()} offers {len(offered)} models "
                                         f"({listed}): name one ({term('llm.model')})")
                    self._model = offered[0]
                elif self._model not in offered:
                    listed = ", ".join(offered[:8]) + (", …" if len(offered) > 8 else "")
                    raise InputError(f"LLM judge: {self.config.shown_endpoint()} offers no model {self._model} (it "
                                     f"offers {listed or 'none'}; {term('llm.model')})")
            elif not self._model:
                raise InputError(f"LLM judge: {self.config.shown_endpoint()} does not list its models: name one "
                                 f"({term('llm.model')})")
            self._endpoint = endpoint
        return self._endpoint

    def keys(self, segments: Sequence[tuple[str, str]], languages: tuple[str, str] | None) -> list[bytes]:
        """The cache's key of each (source, translation) under the model named in the settings."""
        return [self._key(self.prompt.messages(s, t, languages)) for s, t in segments]

    def _key(self, messages: list[dict[str, str]]) -> bytes:
        return request_key(self._model, messages, self.schema, self.config.temperature, self.config.seed)

    def ask(self, segments: Sequence[tuple[str, str]], languages: tuple[str, str] | None,
            progress: Progress | None = None) -> Asked:
        """The answer to each (source, translation) (see the module). ``progress`` may raise :class:`Cancelled`:
        the answers received are kept in the cache, and the cancel propagates."""
        with self._lock:
            named = bool(self._model)
            keys = self.keys(segments, languages) if named else []
            found = self.cache.get(list(dict.fromkeys(keys))) if named else {}
            if named and all(k in found for k in keys):
                self._note_via(keys, asked_live=False)
                return Asked([found[k] for k in keys], from_cache=len(found))
            if self.config.hand_off:
                return self._hand_off(segments, languages, keys, found)
            self._connected()  # may name the model: the keys are those of the model that answers
            if not named:
                keys = self.keys(segments, languages)
                found = self.cache.get(list(dict.fromkeys(keys)))
            missing = [k for k in dict.fromkeys(keys) if k not in found]
            wanted = {k: i for i, k in reversed(list(enumerate(keys)))}  # each key's first segment
            asked = self._ask_all([(k, segments[wanted[k]]) for k in missing], languages, progress)
            found.update({k: v for k, v in asked.items() if v is not None})
            self._note_via(keys, asked_live=bool(missing))
            return Asked([found.get(k) for k in keys], from_cache=len(set(keys)) - len(missing))

    def _hand_off(self, segments: Sequence[tuple[str, str]], languages: tuple[str, str] | None,
                  keys: list[bytes], found: dict[bytes, str]) -> Asked:
        """What the cache answers; every other request handed off (counted in :attr:`handed`), its segment
        unanswered: nothing is sent."""
        self._named_for_a_batch()
        self.handed.update(k for k in keys if k not in found)
        self._note_via([k for k in keys if k in found], asked_live=False)
        return Asked([found.get(k) for k in keys], from_cache=len({k for k in keys if k in found}),
                     handed=[k not in found for k in keys])

    def _named_for_a_batch(self) -> None:
        if not self._model:
            raise ConfigError(f"LLM judge: a batch runs elsewhere, so the model must be named ({term('llm.model')}): "
                              "the cache's keys are the model's")

    def missing(self, segments: Sequence[tuple[str, str]],
                languages: tuple[str, str] | None) -> dict[bytes, dict[str, object]]:
        """The body of each request for ``segments`` the cache cannot answer, by key (each request once), as a
        live request would send it: what a batch hands off."""
        self._named_for_a_batch()
        asked = [self.prompt.messages(s, t, languages) for s, t in segments]
        keys = [self._key(messages) for messages in asked]
        found = self.cache.get(list(dict.fromkeys(keys)))
        out: dict[bytes, dict[str, object]] = {}
        for k, messages in zip(keys, asked):
            if k not in found and k not in out:
                out[k] = chat_body(self._model, messages, self.schema, self.config.temperature, self.config.seed,
                                   self.config.max_tokens)
        return out

    def _ask_all(self, work: list[tuple[bytes, tuple[str, str]]], languages: tuple[str, str] | None,
                 progress: Progress | None) -> dict[bytes, str | None]:
        endpoint, cancelled = self._connected(), threading.Event()
        out: dict[bytes, str | None] = {}
        total, started = len(work), time.monotonic()
        no_more = threading.Event()  # an endpoint's failure: nothing more is sent, what is in flight still lands
        done, askers = self._start_askers(endpoint, work, languages, cancelled, no_more)
        received = 0
        try:
            while received < total:
                try:
                    key, answer = done.get(timeout=0.25)
                except queue.Empty:
                    key, answer = b"", None
                if answer is not None:
                    received += 1
                    if isinstance(answer, BaseException):
                        raise answer
                    self._keep(key, answer, out)
                    rate = len(out) / max(time.monotonic() - started, 1e-9)
                    left = (total - len(out)) / rate if rate > 0 else 0.0
                    say_status(f"LLM judge: {len(out):,} of {total:,} segments, {rate:.1f}/s, {_left(left)} left")
                if progress is not None:
                    progress(len(out) / max(total, 1))  # may raise Cancelled
        except (Cancelled, Stopped, KeyboardInterrupt) as exc:
            cancelled.set()
            endpoint.abort()  # the requests in flight end now, unheard
            if isinstance(exc, KeyboardInterrupt):
                raise
            raise Cancelled() from None
        except EndpointError as exc:
            no_more.set()
            for asker in askers:  # the requests in flight end (or fail) first, within their deadline ...
                asker.join()
            self._keep_finished(done, out)  # ... and what they brought is kept too (answers paid for)
            kept = f"{len(out):,} of {total:,} segments asked were judged and kept in the cache"
            raise EndpointError(f"{exc.raw} ({kept}; score again to go on)") from None
        finally:
            cancelled.set()
        return out

    def _start_askers(self, endpoint: Endpoint, work: list[tuple[bytes, tuple[str, str]]],
                      languages: tuple[str, str] | None, cancelled: threading.Event,
                      no_more: threading.Event) -> tuple[_Done, list[threading.Thread]]:
        """Up to ``concurrency`` threads asking ``work`` until it is done, ``cancelled`` or ``no_more`` is set, each
        answer (or the exception it raised) put on the queue returned. Daemon threads: a cancel or Ctrl+C ends the
        run at once; no request in flight holds the process open (the endpoint's :meth:`~.client.Endpoint.abort`
        ends them)."""
        todo: queue.SimpleQueue[tuple[bytes, list[dict[str, str]]] | None] = queue.SimpleQueue()
        done: _Done = queue.SimpleQueue()
        for key, (source, translation) in work:
            todo.put((key, self.prompt.messages(source, translation, languages)))

        def asker() -> None:
            while not (cancelled.is_set() or no_more.is_set()):
                item = todo.get()
                if item is None:
                    return
                key, messages = item
                try:
                    answer: Answer | BaseException = endpoint.chat(
                        self._model, messages, self.schema, self.config.temperature, self.config.seed,
                        self.config.max_tokens, cancelled)
                except BaseException as exc:  # handed to the thread that asked, which says it
                    answer = exc
                done.put((key, answer))

        askers = [threading.Thread(target=asker, name=f"llm-judge-{i}", daemon=True)
                  for i in range(min(self.config.concurrency, max(len(work), 1)))]
        for thread in askers:
            thread.start()
            todo.put(None)  # each asker ends when the work is done
        return done, askers

    def _keep_finished(self, done: _Done, out: dict[bytes, str | None]) -> None:
        while True:
            try:
                key, answer = done.get_nowait()
            except queue.Empty:
                return
            if isinstance(answer, Answer):
                self._keep(key, answer, out)

    def _keep(self, key: bytes, answer: Answer, out: dict[bytes, str | None]) -> None:
        """An answer received: read through the door for JSON first, then kept in the cache — unless the door
        refused what it holds (nested too deep, a number too long, a key twice: not kept, asked again next run; an
        answer merely not of the schema is kept, as the model would say it again); one cut by ``max_tokens`` is
        None (asked again next time)."""
        if answer.finish == "length":
            out[key] = None
            return
        out[key] = answer.content
        read = read_answer(answer.content, self.config.judge)
        if isinstance(read, Refused) and read.hostile:
            self.unkept += 1
            return
        self.cache.put(key, answer.content, self._model)

    def close(self) -> None:
        """Close the cache (a later request opens it again)."""
        self.cache.close()


def _left(seconds: float) -> str:
    if seconds < 60:
        return f"about {max(1, round(seconds))} s"
    return f"about {round(seconds / 60)} min"
