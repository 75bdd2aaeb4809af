"""The demo data that ships inside the package (read with importlib.resources, so a wheel install has it)."""

from __future__ import annotations

from pathlib import Path

LANGUAGES = ("en", "ko")


def demo_folder(language: str = "en") -> Path:
    """The folder of one demo set: ``system-a.txt``, ``system-b.txt`` and ``ref*.txt``."""
    if language not in LANGUAGES:
        raise ValueError(f"no demo data for {language!r}; choose one of {', '.join(LANGUAGES)}")
    from importlib import resources  # here: bleu-score reads the demo's names at every start, not its files

    # pip installs packages as plain folders, so the resource is a real path.
    return Path(str(resources.files("bleu_gui").joinpath("demo_data", language)))


def demo_paths(language: str = "en") -> tuple[list[Path], list[Path]]:
    """The demo systems (baseline first) and their reference files."""
    folder = demo_folder(language)
    return sorted(folder.glob("system-*.txt")), sorted(folder.glob("ref*.txt"))
