"""Segment scores as neural metrics write them, read by ``--scores`` as they come:

- ``comet-score --to_json FILE``: one JSON object, each system's file name → its segments in order, each an object
  with ``src``, ``mt``, ``ref`` and the score under ``COMET`` (and xCOMET's ``errors``); the system is the run's whose
  file has that name, the segment its position;
- MetricX's predictions (``metricx23/predict.py``, ``metricx24``): JSON Lines of one system's segments in order, each
  its input (``hypothesis``, ``source``, ``reference``) and the ``prediction``, an error score (0 best, 25 worst:
  lower is better); the file names no system, so the system is the run's whose lines are its hypotheses. Without
  a reference in any line (MetricX-24's QE mode), the column is ``MetricX-QE``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath

from ..errors import InputError
from .text_files import SegmentFile
from .untrusted_json import JsonRefused, lines_of, parse


@dataclass(frozen=True)
class NeuralScores:
    """A neural metric's output as rows: (line, system, 1-based segment, {column: value}), the columns, the
    hypotheses scored when the file names no system, and the columns whose lower scores are better."""

    rows: list[tuple[int, str, str, dict[str, str]]]
    columns: list[str]
    hypotheses: tuple[str, ...] | None = None
    lower_better: tuple[str, ...] = ()


def _value(value: object) -> str:
    return "" if value is None else str(value)


def _comet_json(path: Path, data: object) -> NeuralScores | None:
    if not (isinstance(data, dict) and data and all(
            isinstance(v, list) and v and all(isinstance(s, dict) and "mt" in s and "COMET" in s for s in v)
            for v in data.values())):
        return None
    rows = [(0, PurePath(str(name)).name, str(i + 1), {"COMET": _value(s["COMET"])})
            for name, segments in data.items() for i, s in enumerate(segments)]
    return NeuralScores(rows, ["COMET"])


def _metricx_jsonl(path: Path, text: str) -> NeuralScores | None:
    lines = [(n, line) for n, line in enumerate(lines_of(text), 1) if line.strip()]
    try:
        first = parse(lines[0][1], str(path), line=lines[0][0]) if lines else None
    except JsonRefused:
        return None
    if not (isinstance(first, dict) and "prediction" in first and "hypothesis" in first and "system" not in first):
        return None
    objects, hypotheses = [], []
    for n, line in lines:
        obj = parse(line, str(path), line=n, nan_as_null=True)
        if not isinstance(obj, dict) or "prediction" not in obj or "hypothesis" not in obj:
            raise InputError(f"{path}: line {n}: a MetricX prediction needs \"hypothesis\" and \"prediction\"")
        hypotheses.append(str(obj["hypothesis"]))
        objects.append((n, obj))
    # MetricX-24's QE mode reads no reference (its input has none, or an empty one): another metric, named so.
    name = "MetricX" if any(str(obj.get("reference") or "").strip() for _, obj in objects) else "MetricX-QE"
    rows = [(n, "", str(k + 1), {name: _value(obj["prediction"])}) for k, (n, obj) in enumerate(objects)]
    return NeuralScores(rows, [name], tuple(hypotheses), (name,))


def neural_scores(path: Path, text: str) -> NeuralScores | None:
    """The file's scores when it is a neural metric's own output (see the module), else None."""
    stripped = text.lstrip()
    if stripped.startswith("{") and path.suffix.lower() == ".json":
        try:
            found = _comet_json(path, parse(text, str(path), nan_as_null=True))
        except JsonRefused as exc:
            # A COMET output whose JSON the door refuses is said so; any other JSON file is another format.
            if '"COMET"' in text[:4096] and '"mt"' in text[:4096]:
                raise InputError(exc.raw) from None
            found = None
        if found is not None:
            return found
    return _metricx_jsonl(path, text) if stripped.startswith("{") else None


def system_of_hypotheses(path: Path, hypotheses: Sequence[str], systems: Sequence[SegmentFile],
                         names: Sequence[str]) -> int:
    """The system of the run whose lines are ``hypotheses`` (a file of one system's scores that names none)."""
    same = [i for i, s in enumerate(systems) if list(s.lines) == list(hypotheses)]
    if len(same) == 1:
        return same[0]
    if same:
        raise InputError(f"{path}: its hypotheses are the lines of {' and of '.join(names[i] for i in same)}: which "
                         "system it scored cannot be told")
    closest = max(range(len(systems)), key=lambda i: sum(a == b for a, b in zip(systems[i].lines, hypotheses)))
    differ = next((k for k, (a, b) in enumerate(zip(systems[closest].lines, hypotheses)) if a != b),
                  min(len(hypotheses), len(systems[closest].lines)))
    raise InputError(f"{path}: its {len(hypotheses):,} hypotheses are not the lines of any system of the run (the "
                     f"closest, {names[closest]}, differs at line {differ + 1})")
