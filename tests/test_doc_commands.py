"""Every command the README and docs/ show is one the commands take (issue 57, item 17): each ``bleu-score`` and
``bleu-gui`` example is parsed and read into options by the program's own parser (a flag it does not know fails
here), and an example whose files ship with the project is run, its output compared with the one shown."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from bleu_gui.cli.arguments import build_parser, metric_configs, options
from bleu_gui.cli.bleu_score import run as cli_run
from bleu_gui.cli.window_arguments import build_window_parser, window_options
from bleu_gui.core.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_COMMAND = re.compile(r"^(?:\$ )?((?:bleu-score|bleu-gui)\s.*)$")
_INLINE = re.compile(r"`((?:bleu-score|bleu-gui)\s[^`]*)`")
# A usage synopsis, an elided example or a row of a timing table, not a command to type: optional parts,
# alternatives, "…", a column of seconds.
_SYNOPSIS = re.compile(r"\[|…|\||\.\.(?!/)|\bWxH\b|OUT\.png\b|\s{2,}\d")


def _continued(lines: list[str], n: int) -> int:
    """How many lines after line ``n`` a shell's backslash continues it onto."""
    k = 0
    while lines[n + k].rstrip().endswith("\\") and n + k + 1 < len(lines):
        k += 1
    return k


def _joined(lines: list[str], n: int) -> str:
    """Line ``n`` with the lines a backslash continues it onto, as the shell reads them."""
    parts = [line.rstrip().removesuffix("\\").strip() for line in lines[n:n + _continued(lines, n) + 1]]
    return " ".join(parts)


def _examples() -> list[tuple[str, str, str | None]]:
    """(where, command, the output shown on the next line or None) of every example."""
    found: list[tuple[str, str, str | None]] = []
    for doc in DOCS:
        lines = doc.read_text(encoding="utf-8").splitlines()
        fenced = False
        for n, line in enumerate(lines):
            if line.startswith("```"):
                fenced = not fenced
                continue
            candidates = []
            if fenced:
                match = _COMMAND.match(_joined(lines, n))
                if match:
                    end = n + _continued(lines, n)
                    following = lines[end + 1] if end + 1 < len(lines) else ""
                    shown = following if line.startswith("$ ") and following and not following.startswith(("$", "`"))\
                        else None
                    candidates.append((match.group(1), shown))
            else:
                candidates += [(m.group(1), None) for m in _INLINE.finditer(line)]
            for command, shown in candidates:
                command = re.sub(r"\s+#\s.*$", "", command).strip()
                words = command.split()[1:]
                mention = all(w.startswith("-") for w in words) and not {"--help", "--version", "--demo"} & set(words)
                if not _SYNOPSIS.search(command) and words and not mention:  # not a flag named in a sentence
                    found.append((f"{doc.name}:{n + 1}", command, shown))
    return found


EXAMPLES = _examples()


def _files(argv: list[str]) -> list[str]:
    """The arguments that name files of the project (a path with a folder in it)."""
    return [a for a in argv if "/" in a and not a.startswith("-")]


def _runs(command: str) -> bool:
    """Whether an example can be run here: a bleu-score command whose files ship with the project."""
    program, *argv = shlex.split(command)
    return program == "bleu-score" and bool(_files(argv)) and all((ROOT / f).exists() for f in _files(argv))


def test_the_docs_hold_examples_of_both_commands():
    assert sum(c.startswith("bleu-score") for _, c, _ in EXAMPLES) >= 20
    assert sum(c.startswith("bleu-gui") for _, c, _ in EXAMPLES) >= 8
    assert any("bleu-gui ref.txt -i " in c for _, c, _ in EXAMPLES)  # bleu-score's form, in the window's docs
    ran = [(c, shown) for _, c, shown in EXAMPLES if _runs(c)]
    assert len(ran) >= 3 and sum(shown is not None for _, shown in ran) >= 2  # run, and their output compared


@pytest.mark.parametrize(("where", "command", "shown"), EXAMPLES, ids=[w for w, _, _ in EXAMPLES])
def test_every_example_is_a_command_the_program_takes(where, command, shown, capsys):
    program, *argv = shlex.split(command)
    parser = build_parser() if program == "bleu-score" else build_window_parser()
    try:
        args = parser.parse_args(argv)
        if program == "bleu-score":
            metric_configs(options(args).scoring, columns_later=True)
        else:
            metric_configs(window_options(args).scoring, columns_later=True)
    except SystemExit as exit_:
        if exit_.code == 0:  # --help, --version
            return
        pytest.fail(f"{where}: {command!r} is refused: {capsys.readouterr().err.strip()}")
    except InputError as exc:
        pytest.fail(f"{where}: {command!r} is refused: {exc}")
    if _runs(command):
        files = _files(argv)
        code = cli_run([str(ROOT / a) if a in files else a for a in argv])
        out = capsys.readouterr().out
        assert code == 0, f"{where}: {command}"
        if shown is not None:
            assert out.splitlines()[0] == shown, f"{where}: the docs show another output"
