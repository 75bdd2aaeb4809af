"""What a drop of files on the window means (kept apart from Qt's drag events so the rule can be read)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...core import Run
from ...core.inputs.format_table import sniff_file
from ...core.inputs.reference_folders import is_source_name

# Formats whose one file holds systems and references: dropped alone, it is a whole run.
_SELF_CONTAINED = ("wmt-xml", "tsv", "jsonl", "xlsx")


@dataclass(frozen=True)
class DropAction:
    """``kind``: "add" (systems to compare with the shown run), "open" (systems, references) or "error"."""

    kind: str
    systems: list[str]
    references: list[str]
    message: str = ""
    source: str | None = None


def read_drop(paths: list[str], run: Run | None) -> DropAction:
    """The first dropped file is the system output, the rest (or a folder) the references; a file named
    ``src*``/``source*`` is the source. One WMT XML (or TSV/JSONL, or a workbook) file alone is a whole run.

    While a run is shown, dropped files are added as systems to compare with
    its baseline, unless one is a folder, a source, a file that holds a whole
    run, or has the name of a shown reference file (then the drop starts afresh).
    """
    sources = [p for p in paths if Path(p).is_file() and is_source_name(Path(p).name)]
    source = sources[0] if len(sources) == 1 else None
    rest = [p for p in paths if p != source]
    if len(rest) == 1 and Path(rest[0]).is_file() and sniff_file(Path(rest[0])) in _SELF_CONTAINED:
        return DropAction("open", [], rest, source=source)
    ref_names = {r.path.name for r in run.references} if run is not None else set()
    if run is not None and source is None and paths and all(Path(p).is_file() and Path(p).name not in ref_names
                                                             for p in paths):
        return DropAction("add", list(paths), [])
    if len(rest) >= 2:
        return DropAction("open", rest[:1], rest[1:], source=source)
    return DropAction("error", [], [], "Drop a system output together with its reference files (or a reference folder).")
