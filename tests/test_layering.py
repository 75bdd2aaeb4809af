"""The core and the command line never load Qt or pyqtgraph (import circles and the other measures of the house are
in test_house.py)."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import bleu_gui.core

PACKAGE = Path(bleu_gui.core.__file__).parent.parent


def core_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages(bleu_gui.core.__path__, "bleu_gui.core."))


def test_every_core_module_and_the_cli_import_no_gui_toolkit():
    modules = core_modules()
    assert len(modules) >= 20 and "bleu_gui.core.run" in modules and "bleu_gui.core.metrics.bleu.variant" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {modules + ['bleu_gui.cli.bleu_score', 'bleu_gui.demo']!r}:\n"
        "    importlib.import_module(name)\n"
        "from bleu_gui.core import BleuConfig, RunConfig, SegmentFile, score_run\n"
        "from pathlib import Path\n"
        "f = [SegmentFile(Path(n), ['a b c'], 'utf-8') for n in ('h', 'h2', 'r')]\n"
        "score_run(f[:2], f[2:], RunConfig((BleuConfig(),)))\n"
        "import bleu_gui.cli.arguments\n"
        "bleu_gui.cli.arguments.build_parser()\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'PyQt5', 'PyQt6'))\n"
        "print(','.join(bad))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == ""
