"""The numbers by which the house is judged (issue 46), measured on the source: checks of concrete metric classes
outside ``core/metrics``, reads of the argparse Namespace outside the module that parses it, command-line flags
written in the core's strings, and import circles (counting imports under ``TYPE_CHECKING`` and inside functions).

    python scripts/house_numbers.py [--list]

``tests/test_house.py`` keeps each at its target.
"""

from __future__ import annotations

import argparse
import ast
import re
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "bleu_gui"
# Concrete metric classes, their settings and their evidence: code outside core/metrics that asks for one of these
# by name is code that must change when a metric is added.
METRIC_CLASSES = frozenset({
    "Bleu", "BleuConfig", "BleuScore", "SentenceDetails", "Chrf", "ChrfConfig", "ChrfScore", "ChrfEvidence", "Ter",
    "TerConfig", "TerScore", "TerEvidence", "ImportedMetric", "ImportedConfig", "ImportedScore", "ImportedEvidence",
    "EditDistance", "EditConfig", "EditScore", "EditEvidence", "Mqm", "MqmConfig", "MqmScore", "MqmEvidence"})
# A flag of ours; sacreBLEU's and pip's own commands, quoted in a message ("as sacrebleu -l en-ja chooses it"), are
# theirs.
FLAG = re.compile(r"(?<!sacrebleu )(?<!install )(?<![\w-])(?:--[a-z][a-z0-9]*(?:-[a-z0-9]+)*\b|"
                  r"-(?:tok|lc|sv|cc|cw|sl|pbs|par|ci|m|i|f|b|e|s|w|V)\b)")


def modules(package: Path = PACKAGE) -> Iterator[tuple[str, Path]]:
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        yield name, path


def metric_class_checks(package: Path = PACKAGE) -> list[str]:
    """``isinstance(x, C)`` (or a tuple holding C) with C a concrete metric class, outside ``core/metrics``."""
    found = []
    for name, path in modules(package):
        if name.startswith("bleu_gui.core.metrics"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("isinstance",
                                                                                                   "issubclass"):
                kinds = node.args[1]
                names = [e.id for e in (kinds.elts if isinstance(kinds, ast.Tuple) else [kinds])
                         if isinstance(e, ast.Name)]
                if any(n in METRIC_CLASSES for n in names):
                    found.append(f"{name}:{node.lineno}")
    return found


def namespace_reads(package: Path = PACKAGE,
                    parsing: tuple[str, ...] = ("bleu_gui.cli.arguments", "bleu_gui.cli.window_arguments",
                                                 "bleu_gui.cli.campaign_arguments")) -> list[str]:
    """``args.x`` reads (an ``argparse.Namespace`` named ``args``) outside the parsing modules."""
    found = []
    for name, path in modules(package):
        if name in parsing:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "args":
                found.append(f"{name}:{node.lineno}:{node.attr}")
    return found


def flags_in_core_strings(package: Path = PACKAGE) -> list[str]:
    """String constants of ``core`` that name a command-line flag (docstrings aside: they document)."""
    found = []
    for name, path in modules(package):
        if not name.startswith("bleu_gui.core"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.body
                      and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                for m in FLAG.finditer(node.value):
                    found.append(f"{name}:{node.lineno}:{m.group(0)}")
    return found


def _imported(name: str, path: Path, known: set[str]) -> set[str]:
    """Every module of the package that ``name`` imports, wherever the import stands."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
            module = ".".join(base + ([node.module] if node.module else [])) if node.level else (node.module or "")
            targets = [f"{module}.{a.name}" for a in node.names] + [module]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name and not name.startswith(t + "."):  # a package's own __init__ is not a circle
                out.add(t)
    return out


def import_circles(package: Path = PACKAGE) -> list[list[str]]:
    """Strongly connected groups of modules (two or more) in the import graph."""
    found = dict(modules(package))
    known = set(found)
    graph = {name: _imported(name, path, known) for name, path in found.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in graph:
        if v not in index:
            visit(v)
    return groups


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--list", action="store_true", help="list every place, not only the counts")
    args = p.parse_args()
    measured = {"metric-class checks outside core/metrics": metric_class_checks(),
                "Namespace reads outside the parsing module": namespace_reads(),
                "flags in the core's strings": flags_in_core_strings(),
                "import circles": [" <-> ".join(g) for g in import_circles()]}
    for what, places in measured.items():
        print(f"{what}: {len(places)}")
        if args.list:
            for place in places:
                print(f"    {place}")


if __name__ == "__main__":
    main()
