"""A session: everything needed to open a run again exactly as it was (a small JSON file, or a recent entry).

Absolute paths of every system (the baseline first) and reference, the labels,
the chosen B, the encoding and every scoring setting. Reading one checks that
its files still exist and says which do not.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import BleuConfig
from .errors import InputError
from .exports import write_atomic
from .run import Run

FORMAT = "bleu-gui session 1"


@dataclass(frozen=True)
class Session:
    systems: list[str]                 # absolute paths, the baseline first
    references: list[str]
    labels: list[str] | None = None    # display names, one per system (None: from the paths)
    b: int = 1                         # the system compared with the baseline
    encoding: str = "auto"
    config: BleuConfig = field(default_factory=BleuConfig)

    def missing(self) -> list[str]:
        """The session's files that no longer exist."""
        return [p for p in [*self.systems, *self.references] if not Path(p).exists()]

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "systems": self.systems, "references": self.references, "labels": self.labels,
                "b": self.b, "encoding": self.encoding, "config": dataclasses.asdict(self.config)}


def session_of(run: Run, b: int, encoding: str) -> Session:
    """The session that opens ``run`` again as shown (its names, B and encoding)."""
    return Session([str(s.file.path.absolute()) for s in run.systems], [str(r.path.absolute()) for r in run.references],
                   [s.name for s in run.systems], b, encoding, run.config)


def session_from_dict(data: Any, where: str = "session") -> Session:
    """A session from its JSON form; :class:`InputError` says what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"{where}: not a bleu-gui session file (expected \"format\": \"{FORMAT}\")")
    try:
        config = dict(data.get("config") or {})
        if config.get("weights") is not None:
            config["weights"] = tuple(config["weights"])
        session = Session(systems=[str(Path(p).absolute()) for p in data["systems"]],
                          references=[str(Path(p).absolute()) for p in data["references"]],
                          labels=list(data["labels"]) if data.get("labels") else None, b=int(data.get("b", 1)),
                          encoding=str(data.get("encoding", "auto")), config=BleuConfig(**config).validated())
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{where}: a session needs systems, references and valid settings ({exc})") from None
    if not session.systems or not session.references:
        raise InputError(f"{where}: a session needs at least one system and one reference")
    return session


def load_session(path: str | Path) -> Session:
    """Read a session file; a missing file or bad JSON is an :class:`InputError` with the line and column."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the session ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: line {exc.lineno}, column {exc.colno}: not JSON ({exc.msg})") from None
    return session_from_dict(data, str(path))


def save_session(path: str | Path, session: Session, protected: Iterable[str | Path] = ()) -> Path:
    """Write a session file atomically, never over an input file."""
    inputs = [*session.systems, *session.references, *protected]
    return write_atomic(path, json.dumps(session.to_dict(), ensure_ascii=False, indent=1) + "\n", inputs)
