"""The app's side of the COMET worker (``bleu_gui/comet_worker.py``, whose module says the protocol): starts it in
the Python the settings name, sends requests, reads replies while the caller's progress callback may cancel, and
turns every way it can fail into one :class:`~...errors.InputError` naming what is missing."""

from __future__ import annotations

import atexit
import importlib.resources
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from ...errors import InputError, term
from ...inputs.untrusted_json import JsonRefused, Limits, parse

_REPLY_LIMITS = Limits(depth=16)  # a reply: a batch of (index, score, spans, tokens) rows
_POLL = 0.2  # seconds between checks of a cancel while the worker computes (a cancel ends it within a second)
_GREETING = 60.0  # seconds a starting worker has to greet (it imports nothing heavy before it does)


def worker_script() -> Path:
    """The worker's file, run by path in whatever Python scores (it is shipped with the package and the bundle)."""
    return Path(str(importlib.resources.files("bleu_gui").joinpath("comet_worker.py")))


def worker_python(named: str) -> str:
    """The Python the worker runs in: ``named`` (the settings'), else this environment's own."""
    if named:
        path = Path(os.path.expanduser(named))
        if not path.is_file():
            raise InputError(f"{term('comet.python', named)}: no Python there")
        return str(path)
    if getattr(sys, "frozen", False):
        raise InputError(f"this bleu-gui has no Python of its own to run COMET in: name one that has unbabel-comet "
                         f"({term('comet.python', 'PATH')})")
    return sys.executable


_HAS = ("import importlib.util as u; "
        "print(*(u.find_spec(m) is not None for m in ('comet', 'torch')))")


def setup_problem(python: str, model: str) -> str:
    """What stops COMET from scoring with these settings before any worker starts ('' when nothing is seen): a worker
    Python that is not there or lacks unbabel-comet or torch (asked in a second, without importing them), a model
    folder that is not there or holds no checkpoint. A Hugging Face name is left to the worker to fetch."""
    try:
        exe = worker_python(python)
    except InputError as exc:
        return str(exc)
    try:
        done = subprocess.run([exe, "-c", _HAS], capture_output=True, text=True, timeout=60,
                              env=dict(os.environ, PYTHONIOENCODING="utf-8"))
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{exe} could not be run: {getattr(exc, 'strerror', None) or exc}"
    found = done.stdout.split()
    if done.returncode != 0 or len(found) != 2:
        return f"{exe} is not a Python that can run the worker (it said: {done.stderr.strip()[-200:] or 'nothing'})"
    missing = [name for name, there in zip(("unbabel-comet", "torch"), found) if there != "True"]
    if missing:
        return (f"{exe} has no {' and no '.join(missing)}: pip install 'bleu-gui[comet]' in this environment, or name a "
                f"Python that has COMET ({term('comet.python', 'PATH')})")
    where = Path(os.path.expanduser(model))
    if not (where.is_absolute() or model.startswith((".", "~")) or where.exists()):
        return ""  # a Hugging Face name
    if where.is_file():
        return "" if where.suffix == ".ckpt" else f"{term('comet.model', model)}: not a checkpoint (.ckpt) file"
    if not where.is_dir():
        return f"{term('comet.model', model)}: nothing there (a COMET model is a Hugging Face name or a folder)"
    if not (where / "checkpoints" / "model.ckpt").is_file():
        return f"the model folder {model} has no checkpoints/model.ckpt: not a COMET model"
    return ""


class CometWorker:
    """One worker process (starting one costs COMET's import, 5-12 s), kept idle between requests for the next
    (:func:`worker_for`, :func:`keep_idle`)."""

    def __init__(self, python: str, tick: Callable[[], None] | None = None):
        """Start the worker in ``python`` and wait for its greeting (``tick`` is called while waiting: it raises to
        cancel)."""
        self.python = python
        self.environment = worker_environment()  # what it was started with: Hugging Face's cache, the network switch
        self.model: tuple[str, ...] | None = None  # what it has loaded (set by whoever asks it to load)
        self.idle_since = 0.0
        self._log: IO[bytes] = tempfile.TemporaryFile()
        env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONUNBUFFERED="1", TOKENIZERS_PARALLELISM="false")
        try:
            # A process group of its own: what it starts (a local Ray cluster's processes) ends with it.
            self._process = subprocess.Popen([python, "-u", str(worker_script())], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=self._log, env=env,
                                             start_new_session=os.name == "posix")
        except OSError as exc:
            raise InputError(f"the COMET worker could not start with {python}: {exc.strerror or exc}") from None
        self._replies: queue.Queue[bytes] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        try:
            hello = self._next(tick, _GREETING)
        except BaseException:
            self.close()
            raise
        self.comet_version = str(hello.get("comet") or "")
        self.torch_version = str(hello.get("torch") or "")
        if not self.comet_version or not self.torch_version:
            missing = "unbabel-comet" if not self.comet_version else "torch"
            self.close()
            raise InputError(f"{python} has no {missing}: pip install 'bleu-gui[comet]' in this environment, or name a "
                             f"Python that has COMET ({term('comet.python', 'PATH')})")

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._replies.put(line)
        self._replies.put(b"")

    def _stderr_tail(self) -> str:
        self._log.seek(0)
        lines = [line.strip() for line in self._log.read().decode("utf-8", "replace").splitlines() if line.strip()]
        return lines[-1] if lines else ""

    def _next(self, tick: Callable[[], None] | None, patience: float | None = None) -> dict[str, Any]:
        """The next reply; ``tick`` is called while waiting (it raises to cancel); after ``patience`` seconds without
        one (None: no limit — a batch takes what it takes), the worker is said not to answer."""
        waited = 0.0
        while True:
            try:
                line = self._replies.get(timeout=_POLL)
            except queue.Empty:
                if tick is not None:
                    tick()
                waited += _POLL
                if patience is not None and waited >= patience:
                    raise InputError(f"the COMET worker did not answer within {patience:.0f} s: is {self.python} a "
                                     "Python?") from None
                continue
            if not line:
                code = self._process.wait()
                said = self._stderr_tail()
                why = "it was killed (out of memory?)" if code in (-9, 137) else f"exit code {code}"
                raise InputError(f"the COMET worker ({self.python}) stopped: {why}" + (f": {said}" if said else ""))
            try:
                reply: dict[str, Any] = parse(line.decode("utf-8"), "the COMET worker's reply", limits=_REPLY_LIMITS)
            except (UnicodeDecodeError, JsonRefused):
                said = line.decode("utf-8", "replace").strip()[:120]
                raise InputError(f"the COMET worker ({self.python}) does not speak its protocol: it wrote {said!r} "
                                 "(is it a Python?)") from None
            if not isinstance(reply, dict):
                raise InputError(f"the COMET worker ({self.python}) does not speak its protocol: it wrote {reply!r}")
            if "error" in reply:
                raise InputError(f"COMET: {reply['error']}")
            return reply

    def request(self, message: dict[str, Any], tick: Callable[[], None] | None = None,
                on_batch: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
        """Send ``message`` and return its reply; a score request's batches go to ``on_batch`` as they come. Whatever
        stops the wait other than the reply (a cancel from ``tick`` or ``on_batch``, a crash) ends the worker: it
        would go on computing what nobody reads."""
        if self._process.poll() is not None or self._process.stdin is None:
            raise InputError("the COMET worker has stopped")
        try:
            self._process.stdin.write(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")
            self._process.stdin.flush()
        except OSError:
            pass  # the worker ended: the reply loop says why
        try:
            while True:
                reply = self._next(tick)
                if "batch" in reply and on_batch is not None:
                    on_batch(reply)
                    continue
                return reply
        except InputError as exc:
            if not str(exc).startswith("COMET: "):  # a refusal leaves the worker as it was; anything else ends it
                self.close()
            raise
        except BaseException:
            self.close()
            raise

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def alive(self) -> bool:
        return self._process.poll() is None

    def close(self) -> None:
        """End the worker (at once: a cancel must not wait for a batch to finish)."""
        if os.name == "posix":
            try:
                os.killpg(self._process.pid, signal.SIGKILL)  # the worker and whatever it started
            except (ProcessLookupError, PermissionError):
                pass
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        self._reader.join()  # it reads to the end of the dead worker's output
        for pipe in (self._process.stdin, self._process.stdout):
            if pipe is not None:
                try:
                    pipe.close()
                except OSError:
                    pass  # a broken pipe to a killed worker
        self._log.close()


# A worker is kept idle between requests, for the next one: the window's next run with COMET (files opened again, a
# setting changed, scores the cache lacks) then starts no Python, imports no torch and, with the same model, loads
# nothing. One is kept (a real model holds gigabytes); the window ends it after ten idle minutes, the process at exit.
_idle: CometWorker | None = None
_IDLE_LOCK = threading.Lock()
IDLE_LIMIT = 600.0  # seconds an idle worker is kept by the window


# The environment variables a worker's libraries read (Hugging Face's and torch's caches and switches, threads, the
# Python and the loader): an idle worker serves a run only where these are as they were when it started. Others
# describe the caller, not the worker (a test runner names its current test in one).
_READ_BY_WORKER = ("HF_", "HUGGINGFACE_", "TRANSFORMERS_", "TOKENIZERS_", "TORCH", "PYTORCH_", "CUDA", "NVIDIA_",
                   "OMP_", "MKL_", "OPENBLAS_", "XDG_", "PYTHON", "LD_", "DYLD_", "HOME", "PATH", "TMP", "TEMP",
                   "LOCALAPPDATA", "APPDATA", "USERPROFILE", "LANG", "LC_", "COMET")


def worker_environment() -> dict[str, str]:
    """The variables of this process's environment that a worker started now would read."""
    return {k: v for k, v in os.environ.items() if k.upper().startswith(_READ_BY_WORKER)}


def worker_for(python: str, tick: Callable[[], None] | None = None) -> CometWorker:
    """The idle worker when it was started with ``python`` in this environment (as far as its libraries read it)
    and still runs, else a new one (the idle one stays for another caller)."""
    global _idle
    with _IDLE_LOCK:
        worker = _idle
        if worker is not None and worker.python == python and worker.environment == worker_environment():
            _idle = None
        else:
            worker = None
    if worker is not None and worker.alive:
        return worker
    if worker is not None:
        worker.close()
    return CometWorker(python, tick)


def keep_idle(worker: CometWorker) -> None:
    """Keep ``worker`` for the next request (it must be between requests); the one kept before it ends."""
    global _idle
    if not worker.alive:
        worker.close()
        return
    worker.idle_since = time.monotonic()
    with _IDLE_LOCK:
        ended, _idle = _idle, worker
    if ended is not None:
        ended.close()


def end_idle_workers(idle_for: float = 0.0) -> int:
    """End the idle worker when it has been idle for ``idle_for`` seconds or longer; how many were ended (0 or 1)."""
    global _idle
    with _IDLE_LOCK:
        ended = _idle if _idle is not None and time.monotonic() - _idle.idle_since >= idle_for else None
        if ended is not None:
            _idle = None
    if ended is None:
        return 0
    ended.close()
    return 1


atexit.register(end_idle_workers)
