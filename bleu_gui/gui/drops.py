"""What a drop of files on the window means (kept apart from Qt's drag events so the rule can be read)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core import Run


@dataclass(frozen=True)
class DropAction:
    """``kind``: "add" (systems to compare with the shown run), "open" (systems, references) or "error"."""

    kind: str
    systems: list[str]
    references: list[str]
    message: str = ""


def read_drop(paths: list[str], run: Run | None) -> DropAction:
    """The first dropped file is the system output, the rest (or a folder) the references.

    While a run is shown, dropped files are added as systems to compare with
    its baseline, unless one is a folder or has the name of a shown reference
    file (then the drop starts afresh).
    """
    ref_names = {r.path.name for r in run.references} if run is not None else set()
    if run is not None and paths and all(Path(p).is_file() and Path(p).name not in ref_names for p in paths):
        return DropAction("add", list(paths), [])
    if len(paths) >= 2:
        return DropAction("open", paths[:1], paths[1:])
    return DropAction("error", [], [], "Drop a system output together with its reference files (or a reference folder).")
