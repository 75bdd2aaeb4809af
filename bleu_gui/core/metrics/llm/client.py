"""OpenAI's chat-completions API as llama.cpp's llama-server, vLLM, Ollama, LM Studio and OpenAI itself speak it,
over the standard library's ``http.client``: the models offered (``GET …/models``) and one answer (``POST
…/chat/completions``) constrained to a JSON schema.

The answer's form is asked as ``response_format: {"type": "json_schema", ...}`` (OpenAI's structured outputs, and
llama-server's and vLLM's); a server that refuses it with a 400 naming ``response_format`` is asked again with
``{"type": "json_object", "schema": ...}`` (llama-server's older form, Ollama's JSON mode) and remembered.

One HTTP policy for every request (what ``requests`` and urllib3 do for credentials, made strict):

- **a deadline per answer**: ``timeout`` seconds from sending a request to the last byte of its reply; a server that
  drips a byte at a time is cut off at the deadline, not after ``timeout`` seconds *per read*;
- **credentials go only to their origin**: a redirect to another scheme, host or port, or one that would turn a POST
  into a GET (301/302/303), is not followed — said in one line; a redirect within the origin that keeps the method
  (307/308, or any for a GET) is followed, five at most;
- **a bounded reply** (:data:`MAX_REPLY` bytes) read through the one door for JSON (:mod:`...inputs.untrusted_json`:
  depth, digits, duplicate keys, NaN);
- a 429 or a 5xx is retried with exponential backoff, as its ``Retry-After`` asks where it says; a wait is cut short
  by a cancel, and a cancel (:meth:`Endpoint.abort`) ends the requests in flight at once;
- the endpoint's query (Azure's ``?api-version=…``) is kept after the path it is joined to;
- a proxy named by the environment (``https_proxy``, ``no_proxy``) is used as urllib would use it.

Every failure is an :class:`EndpointError` of one line that names the endpoint and never the key."""

from __future__ import annotations

import email.utils
import http.client
import socket
import ssl
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from ...errors import InputError
from ...inputs.untrusted_json import JsonRefused, Limits, parse
from ...json_text import strict_dumps

RETRIES = 4          # after the first try: 1 + 2 + 4 + 8 s of backoff at most, unless Retry-After asks for more
MAX_WAIT = 60.0      # the longest Retry-After honoured (seconds)
MAX_REPLY = 8 << 20  # bytes of one reply: a chat completion of 32k tokens is far below
MAX_REDIRECTS = 5
_REPLY_LIMITS = Limits(depth=32, chars=MAX_REPLY)


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


@dataclass(frozen=True)
class _Reply:
    status: int
    reason: str
    headers: http.client.HTTPMessage
    body: bytes


@dataclass(frozen=True)
class _Origin:
    scheme: str
    host: str
    port: int

    @classmethod
    def of(cls, parts: urllib.parse.SplitResult) -> _Origin:
        default = 443 if parts.scheme == "https" else 80
        return cls(parts.scheme.lower(), (parts.hostname or "").lower(), parts.port or default)

    def said(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"


class _Expired(Exception):
    """The deadline of one exchange passed, or a cancel ended it (its socket was shut)."""


class _Dropped(Exception):
    """The connection failed after it was made (the server closed it mid-answer): retried as a 5xx is."""


class Endpoint:
    """An OpenAI-compatible API at ``base`` (``http://host:port/v1``, a query allowed), with the key ``key`` ('' for
    none); ``timeout``: the deadline of one answer (see the module); ``shown``: the endpoint as messages say it."""

    def __init__(self, base: str, key: str, timeout: float, shown: str):
        self._base = urllib.parse.urlsplit(base.rstrip("/"))
        self._origin = _Origin.of(self._base)
        self._key = key
        self.timeout = timeout
        self.shown = shown  # the endpoint as messages say it (no credentials)
        self._format = "json_schema"
        self._lock = threading.Lock()
        self._live: set[http.client.HTTPConnection] = set()  # connections in flight: a cancel shuts them

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
        with self._lock:
            form = self._format
        try:
            said = self._request("POST", "/chat/completions",
                                 chat_body(model, messages, schema, temperature, seed, max_tokens, form), cancelled)
        except EndpointError as exc:
            if form != "json_schema" or "(400" not in str(exc) or "response_format" not in str(exc):
                raise
            with self._lock:
                self._format = "json_object"
            said = self._request("POST", "/chat/completions",
                                 chat_body(model, messages, schema, temperature, seed, max_tokens, "json_object"),
                                 cancelled)
        return answer_of(said, f"{self.shown}/chat/completions")

    def abort(self) -> None:
        """End every request in flight now: called after setting their ``cancelled`` event (a cancel), each raises
        :class:`Stopped` at once instead of waiting for its reply."""
        with self._lock:
            live = list(self._live)
        for connection in live:
            _shut(connection)

    # -- HTTP ----------------------------------------------------------------------------------------------------
    def _request(self, method: str, path: str, body: dict[str, Any] | None, cancelled: threading.Event) -> object:
        data = None if body is None else strict_dumps(body, indent=None).encode("utf-8")
        for attempt in range(RETRIES + 1):
            if cancelled.is_set():
                raise Stopped
            try:
                reply = self._exchange(method, path, data, cancelled)
            except _Expired:
                if cancelled.is_set():
                    raise Stopped from None
                raise EndpointError(self._timed_out()) from None
            except _Dropped as exc:
                if attempt < RETRIES:  # a connection dropped mid-answer: as a 5xx
                    _wait(_retry_after(None, attempt), cancelled)
                    continue
                raise EndpointError(f"LLM judge: {self.shown} dropped the connection ({exc}): was the server "
                                    "stopped?") from None
            if reply.status == 429 or reply.status >= 500:
                if attempt < RETRIES:
                    _wait(_retry_after(reply.headers.get("Retry-After"), attempt), cancelled)
                    continue
            if reply.status >= 400:
                raise EndpointError(self._refused(reply.status, reply.reason, _detail(reply.body), path))
            return self._json(reply, path)
        raise EndpointError(f"LLM judge: {self.shown} kept failing")  # the loop returns or raises before

    def _exchange(self, method: str, path: str, data: bytes | None, cancelled: threading.Event) -> _Reply:
        """One request and its reply, following the redirects the policy allows (see the module), within the
        deadline."""
        deadline = time.monotonic() + self.timeout
        target = self._url(path)
        for _hop in range(MAX_REDIRECTS + 1):
            reply = self._once(method, target, data, deadline, cancelled)
            if reply.status not in (301, 302, 303, 307, 308):
                return reply
            target = self._redirected(method, path, target, reply)
        raise EndpointError(f"LLM judge: {self.shown}{path} redirects more than {MAX_REDIRECTS} times")

    def _redirected(self, method: str, path: str, url: str, reply: _Reply) -> str:
        where = reply.headers.get("Location", "")
        if not where:
            raise EndpointError(f"LLM judge: {self.shown}{path} answered {reply.status} without saying where to")
        try:
            parts = urllib.parse.urlsplit(urllib.parse.urljoin(url, where))
            origin = _Origin.of(parts)
        except ValueError:
            raise EndpointError(f"LLM judge: {self.shown}{path} redirects to an address that is no URL") from None
        if origin != self._origin:
            raise EndpointError(f"LLM judge: {self.shown}{path} redirects to another origin, {origin.said()} ("
                                f"{reply.status}): not followed, so that the key and the texts go only to the "
                                "endpoint named; if that address is the API, name it as the endpoint")
        if method != "GET" and reply.status in (301, 302, 303):
            raise EndpointError(f"LLM judge: {self.shown}{path} redirects the {method} as a GET ({reply.status}): not "
                                "followed (the request would be lost); name the address it points to as the "
                                "endpoint")
        return urllib.parse.urlunsplit(parts)

    def _url(self, path: str) -> str:
        """The base's path with ``path`` joined to it, the base's query after both."""
        joined = self._base._replace(path=self._base.path.rstrip("/") + path)
        return urllib.parse.urlunsplit(joined)

    def _once(self, method: str, url: str, data: bytes | None, deadline: float,
              cancelled: threading.Event) -> _Reply:
        parts = urllib.parse.urlsplit(url)
        left = deadline - time.monotonic()
        if left <= 0:
            raise _Expired
        connection = self._connection(parts, left)
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        if isinstance(connection, _ThroughProxy):  # a plain-HTTP proxy is asked for the whole URL
            target = urllib.parse.urlunsplit(parts._replace(fragment=""))
        headers = {"Content-Type": "application/json", "Accept": "application/json", "Connection": "close"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        expired = threading.Event()

        def expire() -> None:
            expired.set()
            _shut(connection)

        timer = threading.Timer(left, expire)
        timer.daemon = True
        with self._lock:
            self._live.add(connection)
        timer.start()
        try:
            try:
                connection.connect()
            except OSError as exc:
                if expired.is_set() or cancelled.is_set() or isinstance(exc, TimeoutError):
                    raise _Expired from None
                raise EndpointError(self._unreachable(exc)) from None
            if cancelled.is_set():
                raise _Expired
            try:
                connection.request(method, target, body=data, headers=headers)
                response = connection.getresponse()
                body = response.read(MAX_REPLY + 1)
            except (OSError, http.client.HTTPException) as exc:
                if expired.is_set() or cancelled.is_set() or isinstance(exc, TimeoutError):
                    raise _Expired from None
                raise _Dropped(exc.__class__.__name__) from None
            if expired.is_set() or cancelled.is_set():  # a reply cut short by the deadline or a cancel
                raise _Expired
            return _Reply(response.status, response.reason, response.headers, body)
        finally:
            timer.cancel()
            with self._lock:
                self._live.discard(connection)
            connection.close()

    def _connection(self, parts: urllib.parse.SplitResult, left: float) -> http.client.HTTPConnection:
        host, port = parts.hostname or "", parts.port
        proxy = _proxy_for(parts)
        if proxy is None:
            if parts.scheme == "https":
                return http.client.HTTPSConnection(host, port, timeout=left, context=ssl.create_default_context())
            return http.client.HTTPConnection(host, port, timeout=left)
        proxy_host, proxy_port = proxy
        if parts.scheme == "https":
            connection: http.client.HTTPConnection = http.client.HTTPSConnection(
                proxy_host, proxy_port, timeout=left, context=ssl.create_default_context())
            connection.set_tunnel(host, port)
            return connection
        return _ThroughProxy(proxy_host, proxy_port, timeout=left)

    def _timed_out(self) -> str:
        return (f"LLM judge: {self.shown} gave no answer within {self.timeout:g} s (the timeout, for the whole "
                "answer): a slow or overloaded server")

    def _unreachable(self, exc: Exception) -> str:
        why = getattr(exc, "strerror", None) or str(exc) or exc.__class__.__name__
        return f"LLM judge: {self.shown} does not answer ({why}): is the server running?"

    def _json(self, reply: _Reply, path: str) -> object:
        kind = reply.headers.get("Content-Type", "")
        if len(reply.body) > MAX_REPLY:
            raise EndpointError(f"LLM judge: {self.shown}{path} answered more than {MAX_REPLY >> 20} MB: not an "
                                "answer the API gives")
        try:
            return parse(reply.body.decode("utf-8"), f"{self.shown}{path}", limits=_REPLY_LIMITS)
        except (UnicodeDecodeError, JsonRefused):
            start = reply.body[:60].decode("utf-8", "replace").replace("\n", " ")
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


class _ThroughProxy(http.client.HTTPConnection):
    """A plain-HTTP connection to a proxy, which is asked for whole URLs."""


def _shut(connection: http.client.HTTPConnection) -> None:
    """End a connection from another thread: a blocked read returns at once (closing alone may not wake it)."""
    sock = connection.sock
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _proxy_for(parts: urllib.parse.SplitResult) -> tuple[str, int] | None:
    """The proxy the environment names for this URL, as urllib reads it (None: connect directly)."""
    proxies = urllib.request.getproxies()
    proxy = proxies.get(parts.scheme)
    if not proxy or urllib.request.proxy_bypass(parts.netloc or ""):
        return None
    found = urllib.parse.urlsplit(proxy if "://" in proxy else f"http://{proxy}")
    try:
        return (found.hostname, found.port or 80) if found.hostname else None
    except ValueError:
        return None


def _text_of(content: object) -> str:
    """An answer's text: a string, or OpenAI's list of content parts (``{"type": "text", "text": …}``) joined."""
    if isinstance(content, list):
        return "".join(str(part.get("text") or "") for part in content
                       if isinstance(part, dict) and part.get("type") in ("text", "output_text"))
    return "" if content is None else str(content)


def chat_body(model: str, messages: list[dict[str, str]], schema: dict[str, object], temperature: float, seed: int,
              max_tokens: int, form: str = "json_schema") -> dict[str, Any]:
    """The body of one chat-completions request, as a live request sends it and an OpenAI batch line carries it
    (``form``: the answer constrained by ``json_schema``, or by ``json_object`` where a server has no schemas)."""
    return {"model": model, "messages": messages, "temperature": temperature, "seed": seed, "max_tokens": max_tokens,
            "stream": False, **_response_format(form, schema)}


def answer_of(said: object, where: str) -> Answer:
    """The answer a chat completion holds (its text, why it stopped, the model that says it answered);
    :class:`EndpointError` naming ``where`` when ``said`` is not a chat completion."""
    try:
        assert isinstance(said, dict)
        choice = said["choices"][0]
        content = _text_of(choice["message"].get("content"))
        return Answer(content, str(choice.get("finish_reason") or ""), str(said.get("model") or ""))
    except (AssertionError, KeyError, IndexError, TypeError, AttributeError):
        raise EndpointError(f"LLM judge: {where} answered JSON that is not a chat completion ({str(said)[:120]})") \
            from None


def _response_format(form: str, schema: dict[str, object]) -> dict[str, object]:
    if form == "json_schema":
        return {"response_format": {"type": "json_schema",
                                    "json_schema": {"name": "judgement", "strict": True, "schema": schema}}}
    return {"response_format": {"type": "json_object", "schema": schema}}


def _detail(body: bytes) -> str:
    """What an error reply says of itself (OpenAI's ``{"error": {"message": ...}}``), one line, short."""
    try:
        said = parse(body.decode("utf-8", "replace"), "the error reply", limits=_REPLY_LIMITS)
        error = said.get("error") if isinstance(said, dict) else None
        message = error.get("message") if isinstance(error, dict) else error
        text = str(message or "")
    except JsonRefused:
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
