"""The core and the command line never load Qt or pyqtgraph."""

import subprocess
import sys


def test_core_and_cli_import_no_gui_toolkit():
    code = (
        "import sys\n"
        "import bleu_gui.core, bleu_gui.cli\n"
        "from bleu_gui.core import Evaluator\n"
        "Evaluator([['a b c']]).score(['a b c'])\n"
        "bleu_gui.cli.build_parser()\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'PyQt5', 'PyQt6'))\n"
        "print(','.join(bad))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == ""
