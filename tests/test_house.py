"""The measures of the house (issue 46), kept at their targets: no code outside core/metrics asks which metric class
it holds, the command's Namespace is read where it is parsed, the core's messages name fields and never flags, no
import circle (counting imports under TYPE_CHECKING and inside functions), no ``type: ignore``; the window's state
object loads no Qt. Each measure is first shown to find what it looks for in a planted package."""

import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import script

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "bleu_gui"


@pytest.fixture(scope="module")
def house():
    return script("house_numbers")


@pytest.fixture
def planted(tmp_path):
    """A package with one of each thing the measures look for."""
    root = tmp_path / "bleu_gui"
    for folder in ("core/metrics", "cli", "gui"):
        (root / folder).mkdir(parents=True)
        (root / folder / "__init__.py").write_text("")
    (root / "__init__.py").write_text("")
    (root / "gui" / "view.py").write_text("from ..core.metrics import chrf\n"
                                          "def f(m):\n    return isinstance(m, (int, ChrfConfig))\n")
    (root / "cli" / "main.py").write_text("def g(args):\n    return args.metrics, args.width\n")
    (root / "core" / "notes.py").write_text('"""Docstrings may say --langs."""\n'
                                            'MESSAGE = "give the languages with --langs SRC TGT"\n'
                                            'QUOTED = "as sacrebleu -l en-ja chooses it"\n')
    (root / "core" / "metrics" / "a.py").write_text("def h():\n    from . import b\n")
    (root / "core" / "metrics" / "b.py").write_text("from typing import TYPE_CHECKING\n"
                                                    "if TYPE_CHECKING:\n    from .a import h\n")
    return root


def test_each_measure_finds_what_it_looks_for(house, planted):
    assert house.metric_class_checks(planted) == ["bleu_gui.gui.view:3"]
    assert house.namespace_reads(planted) == ["bleu_gui.cli.main:2:metrics", "bleu_gui.cli.main:2:width"]
    assert house.flags_in_core_strings(planted) == ["bleu_gui.core.notes:2:--langs"]
    assert house.import_circles(planted) == [["bleu_gui.core.metrics.a", "bleu_gui.core.metrics.b"]]


def test_no_metric_class_is_asked_for_outside_the_metrics(house):
    assert house.metric_class_checks() == []


def test_the_namespace_is_read_where_it_is_parsed(house):
    assert len(house.namespace_reads()) <= 20, house.namespace_reads()


def test_the_core_names_fields_never_flags(house):
    assert house.flags_in_core_strings() == []


def test_no_import_circle(house):
    assert house.import_circles() == []


def test_no_type_ignore():
    found = [f"{p.relative_to(ROOT)}:{n}" for p in PACKAGE.rglob("*.py")
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if "type: ignore" in line]
    assert found == []


def test_the_window_state_loads_no_qt():
    code = ("import sys\nimport bleu_gui.gui.state, bleu_gui.gui.actions\n"
            "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph'))))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == ""
