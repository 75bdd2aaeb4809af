"""Asking the judge about many segments: the cache read first, the rest asked up to ``concurrency`` at a time, each
answer kept as it arrives, the progress said ("LLM judge: 320 of 2,037 segments, 2.1/s, about 13 min left"). A
cancel stops sending at once; a failure of the endpoint stops the run with one line saying how many segments were
judged and kept. The key is read from its environment variable or the OS keyring just before the first request
and held only by the :class:`~.client.Endpoint`."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from ...errors import Cancelled, InputError, term
from ..status import say_status
from .answers import SCHEMA_VERSION, schema
from .cache import AnswerCache, default_cache_path, request_key
from .client import Answer, Endpoint, EndpointError, Stopped
from .config import LlmConfig
from .prompts import Prompt, load_prompt

Progress = Callable[[float], None]
KEYRING_SERVICE = "bleu-gui"  # the keyring entry of a key: this service, the variable's name as the user name


@dataclass
class Asked:
    """The answers to a request's segments, in its order (None: no answer kept — cut by ``max_tokens``), and how
    many distinct requests the cache answered."""

    answers: list[str | None]
    from_cache: int = 0


def api_key(variable: str) -> str:
    """The key named by ``variable``: the environment's value, else the OS keyring's entry (service ``bleu-gui``,
    user ``variable``); '' when no variable is named. :class:`InputError` when it is named and holds nothing."""
    if not variable:
        return ""
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
        self.cache = AnswerCache(Path(config.cache).expanduser() if config.cache else default_cache_path())
        self._endpoint: Endpoint | None = None
        self._model = config.model
        self._lock = threading.RLock()  # one request of segments at a time (a slice shares its run's judge)

    @property
    def model(self) -> str:
        """The model as the endpoint names it (the settings' name, or the endpoint's only model once asked)."""
        return self._model

    def signature(self) -> str:
        """What made the answers: model, API, prompt digest, sampling, schema."""
        return (f"model:{self._model or '?'}|via:openai-compatible|prompt:{self.prompt.digest[:12]}|"
                f"temp:{self.config.temperature:g}|seed:{self.config.seed}|schema:{SCHEMA_VERSION}")

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
        return [request_key(self._model, self.prompt.messages(s, t, languages), self.schema,
                            self.config.temperature, self.config.seed) for s, t in segments]

    def ask(self, segments: Sequence[tuple[str, str]], languages: tuple[str, str] | None,
            progress: Progress | None = None) -> Asked:
        """The answer to each (source, translation) (see the module). ``progress`` may raise :class:`Cancelled`:
        the answers received are kept in the cache, and the cancel propagates."""
        with self._lock:
            named = bool(self._model)
            keys = self.keys(segments, languages) if named else []
            found = self.cache.get(list(dict.fromkeys(keys))) if named else {}
            if named and all(k in found for k in keys):
                return Asked([found[k] for k in keys], from_cache=len(found))
            self._connected()  # may name the model: the keys are those of the model that answers
            if not named:
                keys = self.keys(segments, languages)
                found = self.cache.get(list(dict.fromkeys(keys)))
            missing = [k for k in dict.fromkeys(keys) if k not in found]
            wanted = {k: i for i, k in reversed(list(enumerate(keys)))}  # each key's first segment
            asked = self._ask_all([(k, segments[wanted[k]]) for k in missing], languages, progress)
            found.update({k: v for k, v in asked.items() if v is not None})
            return Asked([found.get(k) for k in keys], from_cache=len(set(keys)) - len(missing))

    def _ask_all(self, work: list[tuple[bytes, tuple[str, str]]], languages: tuple[str, str] | None,
                 progress: Progress | None) -> dict[bytes, str | None]:
        endpoint, cancelled = self._connected(), threading.Event()
        out: dict[bytes, str | None] = {}
        total, started, queue = len(work), time.monotonic(), list(reversed(work))
        pool = ThreadPoolExecutor(max_workers=self.config.concurrency, thread_name_prefix="llm-judge")
        running: dict[Future[Answer], bytes] = {}
        try:
            while queue or running:
                while queue and len(running) < self.config.concurrency:
                    key, (source, translation) = queue.pop()
                    messages = self.prompt.messages(source, translation, languages)
                    running[pool.submit(endpoint.chat, self._model, messages, self.schema, self.config.temperature,
                                        self.config.seed, self.config.max_tokens, cancelled)] = key
                done, _ = wait(list(running), timeout=0.25, return_when=FIRST_COMPLETED)
                for future in done:
                    key = running.pop(future)
                    self._keep(key, future.result(), out)  # an EndpointError stops the run: what was kept stays
                if done:
                    rate = len(out) / max(time.monotonic() - started, 1e-9)
                    left = (total - len(out)) / rate if rate > 0 else 0.0
                    say_status(f"LLM judge: {len(out):,} of {total:,} segments, {rate:.1f}/s, {_left(left)} left")
                if progress is not None:
                    progress(len(out) / max(total, 1))  # may raise Cancelled
        except (Cancelled, Stopped):
            cancelled.set()
            # A cancel does not wait for the requests in flight: their threads end with their replies, unheard.
            pool.shutdown(wait=False, cancel_futures=True)
            raise Cancelled() from None
        except EndpointError as exc:
            cancelled.set()
            pool.shutdown(wait=True, cancel_futures=True)  # the requests in flight end (or fail) first ...
            for future, key in running.items():  # ... and what they brought is kept too
                if future.done() and not future.cancelled() and future.exception() is None:
                    self._keep(key, future.result(), out)
            kept = f"{len(out):,} of {total:,} segments asked were judged and kept in the cache"
            raise EndpointError(f"{exc.raw} ({kept}; score again to go on)") from None
        finally:
            cancelled.set()
            pool.shutdown(wait=not running, cancel_futures=True)  # nothing in flight: the idle threads end now
        return out

    def _keep(self, key: bytes, answer: Answer, out: dict[bytes, str | None]) -> None:
        """An answer received: kept in the cache, unless ``max_tokens`` cut it (None: asked again next time)."""
        if answer.finish == "length":
            out[key] = None
            return
        self.cache.put(key, answer.content, self._model)
        out[key] = answer.content

    def close(self) -> None:
        """Close the cache (a later request opens it again)."""
        self.cache.close()


def _left(seconds: float) -> str:
    if seconds < 60:
        return f"about {max(1, round(seconds))} s"
    return f"about {round(seconds / 60)} min"
