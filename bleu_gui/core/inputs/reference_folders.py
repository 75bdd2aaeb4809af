"""Which files of a reference folder are references.

A folder given as a reference gives its regular files sorted by name, except
dot-files, the files given as systems (compared by real path), source files
(``src*``, ``source*``), files whose names say they are system outputs
(``sys*``, ``system*``, ``hyp*``, ``output*``, ``mt*``) and documentation or
metadata (``README``, ``LICENSE``, ``*.md``, ``*.json`` such as a data set's
``manifest.json``). A folder that mixes reference-named files (``ref*``) with
files named neither way is ambiguous: the run stops and lists them, and
``--refs NAME ...`` (or naming the files) decides. Nothing is taken silently:
the notes list what each folder gave and what it left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError, term
from .raw_input import os_problem, real_path

_SOURCE_NAME = re.compile(r"^(src|source)", re.IGNORECASE)
_SYSTEM_NAME = re.compile(r"^(sys|system|hyp|hypothesis|hypotheses|output|mt)(?![a-z])", re.IGNORECASE)
_REFERENCE_NAME = re.compile(r"^(ref|reference|references|refs)(?![a-z])", re.IGNORECASE)
_DOCUMENTATION = re.compile(r"^(readme|license|licence|copying|notice|expected|significance|changelog)(?![a-z])",
                            re.IGNORECASE)
_NOT_SEGMENTS = {".md", ".json", ".yaml", ".yml", ".toml", ".py", ".sh", ".html", ".pdf", ".cfg", ".ini"}


def is_source_name(name: str) -> bool:
    """A file named as a source (``src*``, ``source*``): never taken as a reference or system from a folder
    or a drop."""
    return _SOURCE_NAME.match(name) is not None


def _left_out(path: Path, systems: set[Path]) -> str | None:
    """Why a folder does not give ``path`` as a reference (None: it does)."""
    if real_path(path) in systems:
        return "a system"
    if is_source_name(path.name):
        return "a source file"
    if _SYSTEM_NAME.match(path.name):
        return "named as a system output"
    if _DOCUMENTATION.match(path.name) or path.suffix.lower() in _NOT_SEGMENTS:
        return "documentation or metadata"
    return None


def _folder_files(path: Path) -> list[Path]:
    try:
        return sorted((p for p in path.iterdir() if p.is_file() and not p.name.startswith(".")), key=lambda p: p.name)
    except OSError as exc:
        raise os_problem(path, exc) from None


@dataclass(frozen=True)
class FolderGave:
    """What one reference folder gave, and what it left out with why."""

    folder: Path
    taken: tuple[Path, ...]
    left_out: tuple[str, ...]  # "name (why)"

    @property
    def note(self) -> str:
        """The note each reference from the folder carries."""
        return f"reference taken from the folder {self.folder}" + (
            f" (not taken: {', '.join(self.left_out)})" if self.left_out else "")

    @property
    def account(self) -> str:
        """What the folder gave, for an error about one of its files."""
        return f"the folder {self.folder} gave the references {', '.join(p.name for p in self.taken)}" + (
            f"; not taken: {', '.join(self.left_out)}" if self.left_out else "")


def _from_folder(path: Path, systems: set[Path], decided: bool) -> FolderGave:
    files = _folder_files(path)
    reasons = {p: _left_out(p, systems) for p in files}
    taken = [p for p in files if reasons[p] is None]
    skipped = [f"{p.name} ({reasons[p]})" for p in files if reasons[p] is not None]
    if not taken:
        raise InputError(f"{path}: folder has no reference files" + (f" (not taken: {', '.join(skipped)})"
                                                                     if skipped else ""))
    named = [p for p in taken if _REFERENCE_NAME.match(p.name)]
    others = [p for p in taken if not _REFERENCE_NAME.match(p.name)]
    if named and others and not decided:
        raise InputError(f"{path}: which files are references? The folder holds {', '.join(p.name for p in named)} "
                         f"and also {', '.join(p.name for p in others)}; name the references ({term('refs_wanted')} "
                         f"{' '.join(p.name for p in named)}, or give the files themselves)")
    return FolderGave(path, tuple(taken), tuple(skipped))


def expand_references(paths: Iterable[str | Path], systems: Sequence[str | Path] = (),
                      allow_identical: bool = False, decided: bool = False
                      ) -> tuple[list[Path], dict[Path, FolderGave]]:
    """Reference files from files and folders (see the module), and for each file a folder gave what that folder
    gave.

    A file given both as a system and as a reference is refused unless
    ``allow_identical``. ``decided``: the references are picked by name later
    (``--refs``), so a folder that mixes names is not ambiguous.
    """
    system_paths = {real_path(Path(p)) for p in systems}
    result: list[Path] = []
    notes: dict[Path, FolderGave] = {}
    for raw in paths:
        path = Path(raw)
        try:
            is_dir = path.is_dir()
        except OSError as exc:
            raise os_problem(path, exc) from None
        if not is_dir:
            if real_path(path) in system_paths and not allow_identical:
                raise InputError(f"{path}: given as a system and as a reference ({term('allow_identical')} scores it "
                                 "anyway)")
            result.append(path)
            continue
        gave = _from_folder(path, system_paths, decided)
        notes.update({p: gave for p in gave.taken})
        result.extend(gave.taken)
    return result, notes
