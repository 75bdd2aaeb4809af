"""Start llama.cpp's llama-server on 127.0.0.1 with a model, for the LLM judge's tests and benchmark, and stop it.

    with serving(binary, "tiny.gguf", alias="tiny") as server:
        server.base     # http://127.0.0.1:PORT/v1

The server is started with ChatML as its chat template and without Jinja (a tiny model has no template of its own),
one slot per request sent at once (``--parallel``), and is ready when it says it listens (its log is read, nothing
is polled)."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field


def free_port() -> int:
    """A port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A running llama-server: its process, base URL and the lines it logged."""

    process: subprocess.Popen[str]
    port: int
    log: list[str] = field(default_factory=list)
    reader: threading.Thread | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> None:
        """End the server (as a crash would: at once)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        if self.reader is not None:
            self.reader.join()  # at the end of the log: the pipe is drained
        if self.process.stdout is not None:
            self.process.stdout.close()


def start(binary: str, model: str, alias: str = "tiny", parallel: int = 4, context: int = 32768,
          extra: Sequence[str] = ()) -> Server:
    """llama-server serving ``model`` as ``alias``, ready (see the module); RuntimeError with its log when it
    ends instead."""
    port = free_port()
    process = subprocess.Popen(
        [binary, "-m", model, "--alias", alias, "--host", "127.0.0.1", "--port", str(port), "--no-jinja",
         "--chat-template", "chatml", "--parallel", str(parallel), "-c", str(context), "--threads", "1",
         "--no-webui", *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    server = Server(process, port)
    assert process.stdout is not None
    for line in process.stdout:
        server.log.append(line)
        if "listening on http" in line:  # said after "model loaded": requests are served from here
            break
    else:
        process.wait()
        process.stdout.close()
        raise RuntimeError("llama-server ended before it listened:\n" + "".join(server.log[-30:]))
    # Keep reading its log, or a full pipe would stop the server.
    server.reader = threading.Thread(target=lambda: server.log.extend(process.stdout or ()), daemon=True)
    server.reader.start()
    return server


@contextlib.contextmanager
def serving(binary: str, model: str, alias: str = "tiny", parallel: int = 4, context: int = 32768,
            extra: Sequence[str] = ()) -> Iterator[Server]:
    """:func:`start` as a context: the server is stopped on leaving."""
    server = start(binary, model, alias, parallel, context, extra)
    try:
        yield server
    finally:
        server.stop()
