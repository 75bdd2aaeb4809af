"""The core and the command line never load Qt or pyqtgraph; the GUI has no import circle."""

import ast
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


def _imports(path: Path, package: str) -> set[str]:
    """Modules of bleu_gui that a file imports (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            if node.module is None:
                out.update(f"{target}.{a.name}" for a in node.names)
            else:
                out.add(target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m.startswith("bleu_gui")}


def test_no_import_circle_among_gui_modules():
    gui = PACKAGE / "gui"
    graph = {f"bleu_gui.gui.{p.stem}": {m for m in _imports(p, "bleu_gui.gui") if m.startswith("bleu_gui.gui.")}
             for p in gui.glob("*.py") if p.stem != "__init__"}
    seen, stack = set(), []

    def visit(node):
        if node in stack:
            raise AssertionError(" -> ".join(stack[stack.index(node):] + [node]))
        if node in seen:
            return
        stack.append(node)
        for nxt in graph.get(node, ()):
            visit(nxt)
        stack.pop()
        seen.add(node)

    for module in graph:
        visit(module)


def _classes(path: Path) -> list[tuple[str, int]]:
    """(class name, number of methods it defines) for every class of a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.name, sum(isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) for b in node.body))
            for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]


def test_no_module_over_600_lines_and_no_class_over_30_methods():
    """Limits that measure what matters: a module that holds too much, a class that does too much."""
    sizes = {str(p.relative_to(PACKAGE)): len(p.read_text(encoding="utf-8").splitlines())
             for p in PACKAGE.rglob("*.py")}
    assert {name: n for name, n in sizes.items() if n > 600} == {}
    methods = {f"{p.relative_to(PACKAGE)}:{name}": n for p in PACKAGE.rglob("*.py") for name, n in _classes(p)}
    assert {where: n for where, n in methods.items() if n > 30} == {}
