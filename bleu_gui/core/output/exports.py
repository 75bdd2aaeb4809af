"""Writing exports safely: atomically, never over an input file, with a clear message when it fails.

Only regular files are replaced, and only by a rename in their own folder. A
symbolic link is followed: the file it points to is written (atomically, in
that file's folder) and the link stays a link. A character device
(``/dev/null``, a terminal) is written in place; a FIFO, a socket or a block
device is refused, and so is a read-only file, whoever runs the program (root
may write anything: the file's mode says what its owner meant).
"""

from __future__ import annotations

import math
import os
import stat
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from ..errors import ExportError
from ..json_text import strict_dumps
from ..run import Run
from ..text_tables import to_csv


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _same_file(a: Path, b: Path) -> bool:
    """The same file, also through a symbolic or hard link."""
    try:
        if a.resolve() == b.resolve():
            return True
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except (OSError, RuntimeError):  # RuntimeError: a symbolic link loop
        return False


def _target(path: Path) -> tuple[Path, int | None]:
    """The file an export to ``path`` writes (symbolic links followed) and its mode (None: it does not exist)."""
    try:
        final = Path(os.path.realpath(path, strict=False))
    except (OSError, RuntimeError) as exc:  # a symbolic link loop
        raise ExportError(f"{path}: cannot write ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        mode = final.stat().st_mode
    except FileNotFoundError:
        return final, None
    except OSError as exc:
        raise ExportError(f"{path}: cannot write ({exc.strerror or exc})") from None
    return final, mode


def check_target(path: str | Path, protected: Iterable[str | Path] = ()) -> Path:
    """Raise :class:`ExportError` unless ``path`` can be written without touching an input (``protected``) or
    anything that is not a regular file (see the module). Gives ``path``."""
    path = Path(path)
    for p in protected:
        if _same_file(path, Path(p)):
            raise ExportError(f"{path}: refusing to overwrite an input file ({p})")
    final, mode = _target(path)
    shown = f"{path} (a link to {final})" if final != path.absolute() else str(path)
    if mode is None:
        if not final.parent.is_dir():
            raise ExportError(f"{shown}: cannot write, no such folder {final.parent}")
        return path
    if stat.S_ISDIR(mode):
        raise ExportError(f"{shown}: is a folder")
    if stat.S_ISCHR(mode):
        return path  # written in place
    if not stat.S_ISREG(mode):
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a block device"
        raise ExportError(f"{shown}: is {kind}, not a regular file; exports replace regular files only")
    if not mode & 0o222:
        raise ExportError(f"{shown}: is read-only (mode {stat.filemode(mode)}); nothing was written")
    return path


def check_targets(targets: Sequence[str | Path], protected: Iterable[str | Path] = ()) -> None:
    """Check every export target before any is written; two exports to one file are refused too."""
    inputs = list(protected)
    for i, target in enumerate(targets):
        check_target(target, inputs)
        for other in targets[:i]:
            if _same_file(Path(target), Path(other)):
                raise ExportError(f"{target}: two exports would write the same file")


def write_atomic(path: str | Path, data: str | bytes, protected: Iterable[str | Path] = ()) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename.

    Refuses to overwrite any of the ``protected`` (input) files, also through a
    link. On failure the previous file at ``path``, if any, is untouched and
    :class:`ExportError` says why.
    """
    path = check_target(path, protected)
    final, existing = _target(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if existing is not None and stat.S_ISCHR(existing):
        _write_in_place(path, final, payload)
        return path
    try:
        fd, tmp = tempfile.mkstemp(dir=final.parent, prefix=f".{final.name}.", suffix=".tmp")
    except OSError as exc:
        raise ExportError(f"{path}: cannot write ({exc.strerror or exc})") from None
    try:
        # mkstemp makes the file private; give it the mode a plain open() would (or the old file's).
        mode = existing & 0o777 if existing is not None else 0o666 & ~_umask()
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, final)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise ExportError(f"{path}: cannot write ({exc.strerror or exc})") from None
    return path


def _write_in_place(path: Path, final: Path, payload: bytes) -> None:
    """A character device (``/dev/null``, a terminal): written as it is; a full device is an error."""
    try:
        with open(final, "wb") as fh:
            fh.write(payload)
    except OSError as exc:
        raise ExportError(f"{path}: cannot write ({exc.strerror or exc})") from None


def _num(x: object) -> object:
    if isinstance(x, (float, np.floating)):
        return None if math.isnan(x) else float(x)
    if isinstance(x, np.integer):
        return int(x)
    return x


def sentence_rows(run: Run, b: int = 1) -> tuple[list[str], list[list]]:
    """Per-sentence table of a run, keyed by display name: index (the line in the inputs), the document and
    the source when known, then per system and metric its sentence score (``SYSTEM:METRIC``) and statistics
    (``SYSTEM:METRIC:STATISTIC``); with two or more
    systems also, per metric, ``delta_KEY`` (B − baseline) and its leave-one-out contribution ``loo_KEY``;
    last, the text of each system and reference."""
    names = [s.name for s in run.systems]
    docs, source = run.context.docs, run.context.source
    header = ["index"] + (["doc"] if docs is not None else []) + (["source"] if source is not None else [])
    columns = []  # per system, per metric: (score column, statistics columns)
    for s in run.systems:
        for metric, result in zip(run.metrics, s.results):
            stat_names, table = metric.statistics_table(result.stats)
            # Every statistic named by its metric: TER and the edit distance both count "edits"
            header += [f"{s.name}:{metric.key}", *(f"{s.name}:{metric.key}:{c}" for c in stat_names)]
            columns.append((result.sentences, table))
    pairs = run.comparison.by_metric if run.comparison is not None else ()
    for metric in run.metrics if pairs else ():
        header += [f"delta_{metric.key}:{names[b]}-{names[0]}", f"loo_{metric.key}"]
    header += [f"{name}:text" for name in names] + [f"reference:{name}" for name in run.reference_names]
    rows = []
    for i in range(run.n_sentences):
        row: list = [run.line_number(i)]
        row += ([docs[i]] if docs is not None else []) + ([source.lines[i]] if source is not None else [])
        for scores, table in columns:
            row += [_num(scores[i]), *(_num(v) for v in table[i])]
        for k, by in enumerate(pairs):
            delta = run.systems[b].results[k].sentences[i] - run.systems[0].results[k].sentences[i]
            row += [_num(delta), _num(by.pairwise[b - 1].loo[i])]
        row += [s.lines[i] for s in run.systems] + [r.lines[i] for r in run.references]
        rows.append(row)
    return header, rows


def sentences_file(run: Run, target: str | Path, b: int = 1) -> str | bytes:
    """The per-sentence table as CSV, JSON or an Excel workbook, chosen by the target's extension (CSV to a
    character device such as /dev/stdout)."""
    header, rows = sentence_rows(run, b)
    name = str(target).lower()
    if name.endswith(".xlsx"):
        from .workbook import workbook_bytes

        about = [("metric", f"{m.name}: {m.signature()}") for m in run.metrics]
        about += [("system", s.name) for s in run.systems] + [("reference", r) for r in run.reference_names]
        about += [("slice", run.slice.summary)] if run.slice is not None else []
        return workbook_bytes([("sentences", header, rows)], about)
    if _is_device(target) and not name.endswith(".json"):
        name += ".csv"
    if name.endswith(".json"):
        meta: dict[str, object] = {"metrics": [{"metric": m.name, "signature": m.signature()} for m in run.metrics],
                                   "systems": [s.name for s in run.systems]}
        if run.slice is not None:
            meta["slice"] = run.slice.summary
        return to_json(header, rows, meta)
    if name.endswith(".csv"):
        if run.slice is not None:  # a CSV has no place for a title: every row says which slice it belongs to
            header, rows = header + ["slice"], [row + [run.slice.summary] for row in rows]
        return to_csv(header, rows)
    raise ExportError(f"{target}: {SENTENCES_SUFFIX_HINT}")


SENTENCES_SUFFIX_HINT = "give a .csv, .json or .xlsx file name (or a device such as /dev/stdout, written as CSV)"


def _is_device(target: str | Path) -> bool:
    try:
        return stat.S_ISCHR(os.stat(target).st_mode)
    except OSError:
        return False


def check_sentences_target(target: str | Path) -> None:
    if not str(target).lower().endswith((".csv", ".json", ".xlsx")) and not _is_device(target):
        raise ExportError(f"{target}: {SENTENCES_SUFFIX_HINT}")


def to_json(header: list[str], rows: list[list], meta: dict | None = None) -> str:
    return strict_dumps({**(meta or {}), "sentences": [dict(zip(header, row)) for row in rows]})
