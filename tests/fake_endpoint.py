"""An OpenAI-compatible endpoint on 127.0.0.1 whose every reply a test scripts: what a hostile or broken server does
(redirects, a drip-feed, JSON nested 1,000 deep, a number of 5,000 digits, requests held until the test lets them
go). It records each request it gets — method, path, headers — so a test can count what reached it."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def route(self) -> str:
        """The path without its query."""
        return self.path.split("?")[0]


def chat_reply(content: object, model: str = "fake", finish: str = "stop") -> bytes:
    """A chat completion whose message holds ``content`` (a string, or OpenAI's list of content parts)."""
    return json.dumps({"model": model, "choices": [{"message": {"role": "assistant", "content": content},
                                                     "finish_reason": finish}]}).encode()


MODELS = json.dumps({"data": [{"id": "fake"}]}).encode()


@dataclass
class Reply:
    """What the endpoint answers: a status, headers, a body — dripped ``drip`` bytes at a time every ``every``
    seconds when ``drip`` is set, or held until :attr:`FakeEndpoint.release` is set when ``hold``."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    drip: int = 0
    every: float = 0.0
    hold: bool = False


class FakeEndpoint(http.server.ThreadingHTTPServer):
    """The endpoint; ``answer(seen) -> Reply`` decides each reply (default: a valid empty MQM answer)."""

    daemon_threads = True

    def __init__(self, answer: Callable[[Seen], Reply] | None = None):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.answer = answer or (lambda seen: Reply(body=MODELS if seen.route.endswith("/models")
                                                    else chat_reply('{"errors": []}')))
        self.seen: list[Seen] = []
        self.release = threading.Event()  # held replies go once it is set
        self.stopping = threading.Event()  # a drip-feed paces itself on it: stopped, it sends the rest at once
        self.dripped = 0                  # bytes a drip-feed has sent
        self.held = 0                     # requests being held now
        self._lock = threading.Lock()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def start(self) -> FakeEndpoint:
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.release.set()
        self.stopping.set()
        self.shutdown()
        self.server_close()

    def chats(self) -> list[Seen]:
        return [s for s in self.seen if s.route.endswith("/chat/completions")]


class _Handler(http.server.BaseHTTPRequestHandler):
    server: FakeEndpoint
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        return None

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length", 0) or 0)
        seen = Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, self.rfile.read(length))
        with self.server._lock:
            self.server.seen.append(seen)
        reply = self.server.answer(seen)
        if reply.hold:
            with self.server._lock:
                self.server.held += 1
            self.server.release.wait()
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply.body)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            if not reply.drip:
                self.wfile.write(reply.body)
                return
            for start in range(0, len(reply.body), reply.drip):
                self.wfile.write(reply.body[start:start + reply.drip])
                self.wfile.flush()
                with self.server._lock:
                    self.server.dripped += reply.drip
                self.server.stopping.wait(reply.every)  # the server's own pace (the test waits on conditions)
        except OSError:
            pass  # the client gave up on the reply: what a drip-feed is for

    do_GET = do_POST = _serve
