"""A run written as mt-metrics-eval's file layout (``--export-mtme DIR``), so that any run can be checked with MTME
itself (``data.EvalSet(NAME, LP, path=DIR)``): under ``DIR/NAME`` the documents, source, references and system
outputs, the human scores and every other metric's scores, segment and system level, one ``SYSTEM<TAB>SCORE`` line
per segment in order (``None`` where missing), as MTME reads them (``data.ReadScoreFile``).

MTME splits its lines at whitespace, so a name with a space is written with underscores (the mapping is in
``DIR/NAME/names.tsv``)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path

from ..errors import ExportError
from ..run import Run
from .exports import write_atomic

NAME = "bleu-gui"


def _token(name: str) -> str:
    """A name as one whitespace-free token; MTME's reference names may hold no ``-`` or ``.`` either."""
    return re.sub(r"\s+", "_", name.strip()) or "_"


def _ref_token(name: str) -> str:
    return re.sub(r"[\s.\-]+", "_", Path(name).stem if "." in name else name).strip("_") or "ref"


def _score(value: float) -> str:
    return "None" if value is None or math.isnan(value) else repr(float(value))


def _text(lines: Sequence[str]) -> str:
    """One segment per line (a segment's own line breaks become spaces: MTME reads a file line by line)."""
    return "".join(line.replace("\r", " ").replace("\n", " ") + "\n" for line in lines)


def _lines(names: Sequence[str], per_system: Sequence[Sequence[float]]) -> str:
    return "".join(f"{name}\t{_score(v)}\n" for name, values in zip(names, per_system) for v in values)


def mtme_files(run: Run, human: int) -> dict[str, str]:
    """The layout's files (path under ``DIR`` → text) for a run whose metric ``human`` is the human scores."""
    source, target = run.context.languages or ("", "")
    lp = f"{_token(source or 'src')}-{_token(target or 'tgt')}"  # MTME's SRC-TGT (--langs declares them)
    systems = [_token(s.name) for s in run.systems]
    refs = [_ref_token(n) for n in run.reference_names]
    root = f"{NAME}/"
    n = run.n_sentences
    docs = run.context.docs or tuple("doc" for _ in range(n))
    files = {root + f"documents/{lp}.docs": "".join(f"{run.context.meta.get('domain', ('all',) * n)[i]} "
                                                      f"{_token(d)}\n" for i, d in enumerate(docs)),
             root + f"sources/{lp}.txt": _text(run.context.source.lines if run.context.source is not None
                                               else [""] * n)}
    for ref, r in zip(refs, run.references):
        files[root + f"references/{lp}.{ref}.txt"] = _text(r.lines)
    for name, s in zip(systems, run.systems):
        files[root + f"system-outputs/{lp}/{name}.txt"] = _text(s.file.lines)
    ref_used = refs[0] if len(refs) == 1 else "all"
    for k, metric in enumerate(run.metrics):
        seg = [[float(v) for v in s.results[k].sentences] for s in run.systems]
        sys = [[s.results[k].corpus.score] for s in run.systems]
        if k == human:
            stem = root + f"human-scores/{lp}.{_token(metric.key)}"
        else:
            stem = root + f"metric-scores/{lp}/{_token(metric.name).replace('-', '_')}-{ref_used}"
        files[stem + ".seg.score"] = _lines(systems, seg)
        files[stem + ".sys.score"] = _lines(systems, sys)
    files[root + "names.tsv"] = "".join(f"{token}\t{s.name}\n" for token, s in zip(systems, run.systems))
    return files


def write_mtme(run: Run, folder: str | Path, human: int) -> list[Path]:
    """Write :func:`mtme_files` under ``folder`` (each file atomically; the inputs are never written over)."""
    out = []
    base = Path(folder)
    if base.exists() and not base.is_dir():
        raise ExportError(f"{base}: not a folder")
    for relative, text in mtme_files(run, human).items():
        path = base / relative
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ExportError(f"{path.parent}: {exc.strerror or exc}") from None
        out.append(write_atomic(path, text, run.input_paths()))
    return out
