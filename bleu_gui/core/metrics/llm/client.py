"""OpenAI's chat-completions API as llama.cpp's llama-server, vLLM, Ollama, LM Studio and OpenAI itself speak it,
with the standard library's HTTP: the models offered (``GET …/models``) and one answer (``POST …/chat/completions``)
constrained to a JSON schema.

The answer's form is asked as ``response_format: {"type": "json_schema", ...}`` (OpenAI's structured outputs, and
llama-server's and vLLM's); a server that refuses it with a 400 naming ``response_format`` is asked again with
``{"type": "json_object", "schema": ...}`` (llama-server's older form, Ollama's JSON mode) and remembered. A 429 or a
5xx is retried with exponential backoff, as its ``Retry-After`` asks where it says; a wait is cut short by a cancel.
Every failure is an :class:`EndpointError` of one line that names the endpoint and never the key."""

from __future__ import annotations

import email.utils
import http.client
import json
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from ...errors import InputError

RETRIES = 4          # after the first try: 1 + 2 + 4 + 8 s of backoff at most, unless Retry-After asks for more
MAX_WAIT = 60.0      # the longest Retry-After honoured (seconds)


class EndpointError(InputError):
    """The endpoint failed: it does not answer, refuses, or answers what is not the API's JSON (see the module)."""


class Stopped(Exception):
    """The request was given up because the run was cancelled."""


@dataclass(frozen=True)
class Answer:
    """One answer: its text, why it ended (``stop``; ``length`` when cut by ``max_tokens``) and the model that
    answered, as the endpoint names it."""

    content: str
    finish: str
    model: str


class Endpoint:
    """An OpenAI-compatible API at ``base`` (``http://host:port/v1``), with the key ``key`` ('' for none)."""

    def __init__(self, base: str, key: str, timeout: float, shown: str):
        self.base = base.rstrip("/")
        self._key = key
        self.timeout = timeout
        self.shown = shown  # the endpoint as messages say it (no credentials)
        self._format = "json_schema"
        self._lock = threading.Lock()

    # -- the API -------------------------------------------------------------------------------------------------
    def models(self) -> list[str] | None:
        """The models the endpoint offers (None: it does not list them — not every server has ``/models``)."""
        try:
            said = self._request("GET", "/models", None, threading.Event())
        except EndpointError as exc:
            if "(404" in str(exc):
                return None
            raise
        data = said.get("data") if isinstance(said, dict) else None
        if not isinstance(data, list):
            raise EndpointError(f"LLM judge: {self.shown}/models answered JSON without a list of models: is it an "
                                "OpenAI-compatible API?")
        return [str(m.get("id")) for m in data if isinstance(m, dict) and m.get("id")]

    def chat(self, model: str, messages: list[dict[str, str]], schema: dict[str, object], temperature: float,
             seed: int, max_tokens: int, cancelled: threading.Event) -> Answer:
        """One answer to ``messages`` as ``schema`` constrains it (see the module); :class:`Stopped` when
        ``cancelled`` is set while it waits."""
        body: dict[str, Any] = {"model": model, "messages": messages, "temperature": temperature, "seed": seed,
                                "max_tokens": max_tokens, "stream": False}
        with self._lock:
            form = self._format
        try:
            said = self._request("POST", "/chat/completions", {**body, **_response_format(form, schema)}, cancelled)
        except EndpointError as exc:
            if form != "json_schema" or "(400" not in str(exc) or "response_format" not in str(exc):
                raise
            with self._lock:
                self._format = "json_object"
            said = self._request("POST", "/chat/completions", {**body, **_response_format("json_object", schema)},
                                 cancelled)
        return self._answer(said)

    def _answer(self, said: object) -> Answer:
        try:
            assert isinstance(said, dict)
            choice = said["choices"][0]
            content = choice["message"].get("content") or ""
            return Answer(str(content), str(choice.get("finish_reason") or ""), str(said.get("model") or ""))
        except (AssertionError, KeyError, IndexError, TypeError, AttributeError):
            raise EndpointError(f"LLM judge: {self.shown}/chat/completions answered JSON that is not a chat "
                                f"completion ({str(said)[:120]})") from None

    # -- HTTP ----------------------------------------------------------------------------------------------------
    def _request(self, method: str, path: str, body: dict[str, Any] | None, cancelled: threading.Event) -> object:
        url = self.base + path
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        for attempt in range(RETRIES + 1):
            if cancelled.is_set():
                raise Stopped
            request = urllib.request.Request(url, data=data, headers=headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    raw = response.read()
                    kind = response.headers.get("Content-Type", "")
                return self._json(raw, kind, path)
            except urllib.error.HTTPError as exc:
                detail = _detail(exc)
                if exc.code == 429 or exc.code >= 500:
                    if attempt < RETRIES:
                        _wait(_retry_after(exc.headers.get("Retry-After"), attempt), cancelled)
                        continue
                raise EndpointError(self._refused(exc.code, exc.reason, detail, path)) from None
            except TimeoutError:
                raise EndpointError(self._timed_out()) from None
            except urllib.error.URLError as exc:
                reason = exc.reason
                if isinstance(reason, TimeoutError):  # a timeout while connecting
                    raise EndpointError(self._timed_out()) from None
                why = getattr(reason, "strerror", None) or str(reason)
                raise EndpointError(f"LLM judge: {self.shown} does not answer ({why}): is the server running?") \
                    from None
            except (ConnectionError, http.client.HTTPException) as exc:
                if attempt < RETRIES:  # a connection dropped mid-answer: as a 5xx
                    _wait(_retry_after(None, attempt), cancelled)
                    continue
                raise EndpointError(f"LLM judge: {self.shown} dropped the connection ({exc.__class__.__name__}): "
                                    "was the server stopped?") from None
        raise EndpointError(f"LLM judge: {self.shown} kept failing")  # the loop returns or raises before

    def _timed_out(self) -> str:
        return f"LLM judge: {self.shown} gave no answer within {self.timeout:g} s (the timeout): a slow or overloaded server"

    def _json(self, raw: bytes, kind: str, path: str) -> object:
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            start = raw[:60].decode("utf-8", "replace").replace("\n", " ")
            raise EndpointError(f"LLM judge: {self.shown}{path} answered something that is not JSON "
                                f"({kind or 'no type'}: {start!r}): is {self.shown} an OpenAI-compatible API's "
                                "base URL (…/v1)?") from None

    def _refused(self, code: int, reason: str, detail: str, path: str) -> str:
        said = f" — {detail}" if detail else ""
        if code in (401, 403):
            return (f"LLM judge: {self.shown} refused the request ({code} {reason}{said}): it needs an API key, "
                    "or the key given is not accepted")
        if code == 404 and path == "/chat/completions":
            return (f"LLM judge: {self.shown} has no /chat/completions ({code}{said}): is it an OpenAI-compatible "
                    "API's base URL (…/v1)?")
        return f"LLM judge: {self.shown}{path} refused the request ({code} {reason}{said})"


def _response_format(form: str, schema: dict[str, object]) -> dict[str, object]:
    if form == "json_schema":
        return {"response_format": {"type": "json_schema",
                                    "json_schema": {"name": "judgement", "strict": True, "schema": schema}}}
    return {"response_format": {"type": "json_object", "schema": schema}}


def _detail(exc: urllib.error.HTTPError) -> str:
    """What an error reply says of itself (OpenAI's ``{"error": {"message": ...}}``), one line, short."""
    try:
        said = json.loads(exc.read().decode("utf-8", "replace"))
        message = said.get("error", {}).get("message") if isinstance(said.get("error"), dict) else said.get("error")
        text = str(message or "")
    except (ValueError, AttributeError, OSError):
        text = ""
    return " ".join(text.split())[:200]


def _retry_after(value: str | None, attempt: int) -> float:
    """How long to wait before retrying: the reply's ``Retry-After`` (seconds, or an HTTP date), else 2^attempt
    seconds."""
    if value:
        try:
            return min(MAX_WAIT, max(0.0, float(value)))
        except ValueError:
            pass
        try:
            when = email.utils.parsedate_to_datetime(value)
            return min(MAX_WAIT, max(0.0, when.timestamp() - time.time()))
        except (TypeError, ValueError):  # neither seconds nor a date: the backoff's own wait
            pass
    return float(2 ** attempt)


def _wait(seconds: float, cancelled: threading.Event) -> None:
    if cancelled.wait(seconds):
        raise Stopped
