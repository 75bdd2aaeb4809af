"""A session: everything needed to open a run again exactly as it was (a small JSON file, or a recent entry).

Absolute paths of every system (the baseline first) and reference, the labels,
the chosen B, the encoding and every scoring setting. Reading one checks that
its files still exist and says which do not.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..inputs.format_table import FORMATS, ReadOptions
from ..inputs.run_inputs import InputRequest
from ..inputs.text_files import SegmentFile
from ..inputs.untrusted_json import parse
from ..json_text import strict_dumps
from ..metrics.bleu.config import BleuConfig
from ..metrics.family import MetricConfig
from ..metrics.registry import metrics_from_list, metrics_to_list, own_metrics
from ..run import Run
from .exports import write_atomic

FORMAT = "bleu-gui session 1"


@dataclass(frozen=True)
class Session:
    systems: list[str]                 # absolute paths, the baseline first
    references: list[str]
    labels: list[str] | None = None    # display names, one per system (None: from the paths)
    b: int = 1                         # the system compared with the baseline
    encoding: str = "auto"
    # Structured files (WMT XML, XLIFF, ...): which field of its file each system and reference is.
    system_fields: list[str] | None = None
    reference_fields: list[str] | None = None
    source: str | None = None          # a source file given apart from the systems and references
    # The metrics scored, with every setting (imported ones come with their score files); BLEU alone by default.
    metrics: tuple[MetricConfig, ...] = (BleuConfig(),)
    docs: str | None = None            # a file of document ids given apart
    options: ReadOptions = ReadOptions()  # how structured files were read (format, tags, languages, columns)
    allow_identical: bool = False      # a reference equal to a system was allowed
    scores: list[str] = field(default_factory=list)        # files of segment scores from outside
    lower_better: list[str] = field(default_factory=list)  # imported metrics whose lower scores are better
    scores_partial: bool = False
    annotations: list[str] = field(default_factory=list)   # files of human error annotations (MQM)
    # Campaigns for the humans written from the run (Pearmut files): read back with their results.
    campaigns: list[str] = field(default_factory=list)

    def missing(self) -> list[str]:
        """The session's files that no longer exist."""
        return [p for p in [*self.systems, *self.references, *(f for f in (self.source, self.docs) if f),
                            *self.scores, *self.annotations] if not Path(p).exists()]

    def opening(self) -> InputRequest:
        """What opens the session again: a file holding both systems and references (WMT XML) is given once, as
        a reference file, and its fields are picked by name."""
        if self.system_fields is None and self.reference_fields is None:
            systems, refs = list(self.systems), list(self.references)  # plain files, each given as it was
        else:
            refs = list(dict.fromkeys(self.references))
            systems = [p for p in dict.fromkeys(self.systems) if p not in refs]
        return InputRequest(systems=tuple(systems), references=tuple(refs), encoding=self.encoding,
                            source=self.source, docs=self.docs, options=self.options,
                            refs_wanted=_tuple(self.reference_fields), systems_wanted=_tuple(self.system_fields),
                            allow_identical=self.allow_identical, scores=tuple(self.scores),
                            lower_better=tuple(self.lower_better), scores_partial=self.scores_partial,
                            annotations=tuple(self.annotations))

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "systems": self.systems, "references": self.references, "labels": self.labels,
                "b": self.b, "encoding": self.encoding,
                "system_fields": self.system_fields, "reference_fields": self.reference_fields,
                "source": self.source, "metrics": metrics_to_list(self.metrics), "docs": self.docs,
                "options": _options_to_dict(self.options), "allow_identical": self.allow_identical,
                "scores": self.scores, "lower_better": self.lower_better, "scores_partial": self.scores_partial,
                "annotations": self.annotations, "campaigns": self.campaigns}


def _tuple(names: list[str] | None) -> tuple[str, ...] | None:
    return tuple(names) if names is not None else None


def _options_to_dict(options: ReadOptions) -> dict[str, Any]:
    return {"input_format": options.input_format, "keep_tags": options.keep_tags,
            "langs": list(options.langs) if options.langs else None, "columns": dict(options.columns),
            "sheet": options.sheet}


def _options(value: Any, where: str) -> ReadOptions:
    """How the session's files were read (a session written before it was kept reads them as sniffed)."""
    if value is None:
        return ReadOptions()
    if not isinstance(value, dict):
        raise InputError(f"{where}: options must be an object, got {json.dumps(value)[:80]}")
    fmt, langs, columns = value.get("input_format"), value.get("langs"), value.get("columns") or {}
    if fmt is not None and fmt not in FORMATS:
        raise InputError(f"{where}: input_format must be one of {', '.join(FORMATS)}, got {json.dumps(fmt)}")
    if langs is not None and not (isinstance(langs, list) and len(langs) == 2 and all(isinstance(x, str) for x in langs)):
        raise InputError(f"{where}: langs must be two language codes, got {json.dumps(langs)[:80]}")
    if not (isinstance(columns, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in columns.items())):
        raise InputError(f"{where}: columns must map roles to column names, got {json.dumps(columns)[:80]}")
    sheet = value.get("sheet")
    if sheet is not None and not isinstance(sheet, str):
        raise InputError(f"{where}: sheet must be a sheet's name, got {json.dumps(sheet)[:80]}")
    return ReadOptions(fmt, bool(value.get("keep_tags")), (langs[0], langs[1]) if langs else None, dict(columns),
                       sheet)


def _fields(files: list[SegmentFile]) -> list[str] | None:
    return [f.field for f in files] if all(f.field for f in files) else None


def session_of(run: Run, b: int, request: InputRequest, campaigns: Sequence[str] = ()) -> Session:
    """The session that opens ``run`` again as shown (its names, B, the fields it took) and as it was read
    (``request``: encoding, documents, reading options), with the ``campaigns`` for the humans written from it."""
    systems, refs = [s.file for s in run.systems], run.references
    paths = {f.path.absolute() for f in [*systems, *refs]}
    source = run.context.source
    apart = str(source.path.absolute()) if source is not None and source.path.absolute() not in paths else None
    return Session([str(f.path.absolute()) for f in systems], [str(r.path.absolute()) for r in refs],
                   [s.name for s in run.systems], b, request.encoding,
                   _fields(systems), _fields(refs), apart, own_metrics(run.config.metrics),
                   str(Path(request.docs).absolute()) if request.docs else None, request.options,
                   request.allow_identical, [str(Path(p).absolute()) for p in request.scores],
                   list(request.lower_better), request.scores_partial,
                   [str(Path(p).absolute()) for p in request.annotations],
                   [str(Path(p).absolute()) for p in campaigns])


def session_from_dict(data: Any, where: str = "session") -> Session:
    """A session from its JSON form; :class:`InputError` says what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"{where}: not a bleu-gui session file (expected \"format\": \"{FORMAT}\")")
    try:
        labels = data.get("labels")
        if labels is not None and not (isinstance(labels, list) and all(isinstance(x, str) for x in labels)):
            raise InputError(f"{where}: the labels must be a list of names (text), got {json.dumps(labels)}")
        b = data.get("b", 1)
        if not isinstance(b, int) or isinstance(b, bool) or b < 1:
            raise InputError(f"{where}: b must be 1 or more (the system compared with the baseline; 0 is the "
                             f"baseline itself), got {json.dumps(b)}")
        session = Session(systems=_paths(data["systems"], where, "systems"),
                          references=_paths(data["references"], where, "references"),
                          labels=list(labels) if labels else None, b=b,
                          encoding=str(data.get("encoding", "auto")),
                          system_fields=_strings(data.get("system_fields")),
                          reference_fields=_strings(data.get("reference_fields")),
                          source=str(Path(data["source"]).absolute()) if data.get("source") else None,
                          metrics=_metrics(data, where),
                          docs=str(Path(data["docs"]).absolute()) if data.get("docs") else None,
                          options=_options(data.get("options"), where),
                          allow_identical=bool(data.get("allow_identical", False)),
                          scores=_paths(data.get("scores") or [], where, "scores"),
                          lower_better=_strings(data.get("lower_better")) or [],
                          scores_partial=bool(data.get("scores_partial", False)),
                          annotations=_paths(data.get("annotations") or [], where, "annotations"),
                          campaigns=_paths(data.get("campaigns") or [], where, "campaigns"))
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{where}: a session needs systems, their references (none for a run of source and "
                         f"translation) and valid settings ({exc})") from None
    if not session.systems:
        raise InputError(f"{where}: a session needs at least one system (with its references, or without: a run of "
                         "source and translation)")
    if len(session.systems) > 1 and session.b >= len(session.systems):
        raise InputError(f"{where}: b is {session.b}, but the session has {len(session.systems)} systems (b counts "
                         "from 0, the baseline)")
    return session


def _metrics(data: dict[str, Any], where: str) -> tuple[MetricConfig, ...]:
    """The metrics and their settings. A session written while BLEU was kept apart has its settings under "config"
    and the other metrics under "metrics"; one written before there were other metrics has BLEU alone."""
    values = list(data.get("metrics") or [])
    if "config" in data:
        values = [{"metric": "bleu", **(data["config"] or {})}, *values]
    try:
        return metrics_from_list(values) if values else (BleuConfig(),)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None


def _paths(value: Any, where: str, what: str) -> list[str]:
    if not (isinstance(value, list) and all(isinstance(p, str) and p for p in value)):
        raise InputError(f"{where}: {what} must be a list of file paths, got {json.dumps(value)[:80]}")
    return [str(Path(p).absolute()) for p in value]


def _strings(value: Any) -> list[str] | None:
    return [str(v) for v in value] if isinstance(value, list) else None


def load_session(path: str | Path) -> Session:
    """Read a session file; a missing file or bad JSON is an :class:`InputError` with the line and column."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the session ({getattr(exc, 'strerror', None) or exc})") from None
    return session_from_dict(parse(text, str(path)), str(path))


def save_session(path: str | Path, session: Session, protected: Iterable[str | Path] = ()) -> Path:
    """Write a session file atomically, never over an input file."""
    inputs = [*session.systems, *session.references, *protected]
    return write_atomic(path, strict_dumps(session.to_dict()) + "\n", inputs)
