"""A run written as mt-metrics-eval's file layout (``--export-mtme DIR``), so that any run can be checked with MTME
itself (``data.EvalSet(NAME, LP, path=DIR)``): under ``DIR/NAME`` the documents, source, references and system
outputs, the human scores and every other metric's scores, segment and system level, one ``SYSTEM<TAB>SCORE`` line
per segment in order (``None`` where missing), as MTME reads them (``data.ReadScoreFile``).

MTME splits its lines at whitespace, so a name with a space is written with underscores, and names that would then
be one (``A B`` and ``A_B``) are told apart by a number (the mapping is in ``DIR/NAME/names.tsv``). MTME takes every
score as higher-is-better: a metric or human score whose lower is better (TER, edit distance, MetricX, a penalty)
is written negated. ``DIR/NAME/README.txt`` says both."""

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


def unique_tokens(tokens: Sequence[str]) -> list[str]:
    """``tokens`` with each repeat told apart by a number (``A_B``, ``A_B_2``): two names that became one token
    would share one file, and one of them would be lost."""
    taken = set(tokens)
    seen: set[str] = set()
    out = []
    for token in tokens:
        if token in seen:
            k = 2
            while f"{token}_{k}" in taken:
                k += 1
            token = f"{token}_{k}"
            taken.add(token)
        seen.add(token)
        out.append(token)
    return out


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
    systems = unique_tokens([_token(s.name) for s in run.systems])
    refs = unique_tokens([_ref_token(n) for n in run.reference_names])
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
    metrics = unique_tokens([_token(m.key if k == human else m.name).replace("-", "_")
                             for k, m in enumerate(run.metrics)])
    for k, (metric, token) in enumerate(zip(run.metrics, metrics)):
        sign = 1.0 if metric.higher_is_better else -1.0  # MTME assumes higher is better
        seg = [[sign * float(v) for v in s.results[k].sentences] for s in run.systems]
        sys = [[sign * s.results[k].corpus.score] for s in run.systems]
        stem = (root + f"human-scores/{lp}.{token}" if k == human
                else root + f"metric-scores/{lp}/{token}-{ref_used}")
        files[stem + ".seg.score"] = _lines(systems, seg)
        files[stem + ".sys.score"] = _lines(systems, sys)
    files[root + "names.tsv"] = "".join(f"{token}\t{s.name}\n" for token, s in zip(systems, run.systems))
    files[root + "README.txt"] = _readme(run, human, systems, metrics)
    return files


def _readme(run: Run, human: int, systems: Sequence[str], metrics: Sequence[str]) -> str:
    negated = [f"  {token} ({m.name})" for token, m in zip(metrics, run.metrics) if not m.higher_is_better]
    renamed = [f"  {token}\t{s.name}" for token, s in zip(systems, run.systems) if token != s.name]
    lines = ["Written by bleu-gui in mt-metrics-eval's layout: data.EvalSet('bleu-gui', LP, "
             "path=THIS_FOLDER's parent).",
             f"Human scores: {metrics[human]} ({run.metrics[human].name}).",
             "",
             "mt-metrics-eval takes every score as higher-is-better. These scores were written negated (their "
             "lower is better):" if negated else "Every score here is higher-is-better, as mt-metrics-eval takes "
             "them; none was negated.",
             *negated,
             "",
             "System names as written (a name's spaces became underscores; names that became one are told apart by a "
             "number), and the run's own names:" if renamed else "Every system is written under its own name.",
             *renamed,
             "names.tsv maps every written system name to the run's."]
    return "\n".join(lines) + "\n"


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
