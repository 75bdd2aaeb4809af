"""Where the test suite's CPU goes: the README's test command under py-spy (a sampling profiler, every process and
thread, our subprocesses and the COMET worker's included), its samples sorted by whose code they are in.

    pip install py-spy                      # a tool of this script only, not a dependency of the project
    python scripts/profile_suite.py         # runs the suite (about as long as the README's command), then sorts
    python scripts/profile_suite.py --raw suite.raw   # sorts the samples of an earlier run again

A sample belongs to the first oracle or project frame from the root of its stack: sacreBLEU, NLTK, COMET and its
torch stack, compare-mt and mt-metrics-eval are the oracles the tests compare with; ``bleu_gui`` is ours (our own
copy of sacreBLEU's tokenizers is loaded from sacreBLEU's files, but called from ours, so it counts as ours);
Hypothesis, imports and the rest (pytest, Qt's event loop, threads waiting) come after. Samples of threads waiting
in C code count as busy where py-spy cannot tell: read the shares, not the seconds, as the split.
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RATE = 20  # samples a second: ~1% of the suite's time, and every test of a second or more is seen
OWNERS = [  # (whose, frame pattern), oracles before ours: a test's oracle call is the oracle's time
    ("sacreBLEU (oracle)", re.compile(r"\(sacrebleu/")),
    ("NLTK (oracle)", re.compile(r"\(nltk/")),
    ("COMET, torch (oracle)", re.compile(r"\((comet|torch|transformers|pytorch_lightning|torchmetrics)/")),
    ("compare-mt (oracle)", re.compile(r"compare_mt")),
    ("mt-metrics-eval (oracle)", re.compile(r"mt_metrics_eval")),
    ("ours (bleu_gui)", re.compile(r"\(bleu_gui/")),
]
AFTER = [  # only when no frame above is on the stack
    ("Hypothesis", re.compile(r"\(hypothesis/")),
    ("imports", re.compile(r"_find_and_load|exec_module")),
]


def samples(raw: Path) -> Iterator[tuple[list[str], int]]:
    """(frames from the root, count) of each line of py-spy's raw output; a process's command line may hold line
    breaks, so a record ends only where a line ends in its count."""
    record = ""
    with raw.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            record += line.rstrip("\n")
            if re.search(r" \d+$", record) and record.count('"') % 2 == 0:  # a command's quotes are closed
                stack, _, count = record.rpartition(" ")
                yield [f for f in stack.split(";") if not f.startswith("process ")], int(count)
                record = ""
            else:
                record += "\\n"


def owner(frames: list[str]) -> str:
    for rules in (OWNERS, AFTER):
        for frame in frames:
            for name, pattern in rules:
                if pattern.search(frame):
                    return name
    return "other (pytest, Qt's event loop, waiting threads)"


def test_of(frames: list[str]) -> str:
    found = next((f for f in frames if "(test_" in f or "(tests/" in f), None)
    if found is None:
        return "(a thread or process of its own: the window's jobs, commands, workers)"
    return found.split(" (")[0].removeprefix("accept.<locals>.")


def report(raw: Path, top: int) -> None:
    by_owner: collections.Counter[str] = collections.Counter()
    by_test: collections.Counter[tuple[str, str]] = collections.Counter()
    by_ours: collections.Counter[str] = collections.Counter()
    for frames, count in samples(raw):
        whose = owner(frames)
        by_owner[whose] += count
        by_test[(whose, test_of(frames))] += count
        ours = [f for f in frames if "(bleu_gui/" in f]
        if ours:
            by_ours[re.sub(r":\d+\)$", ")", ours[-1])] += count
    total = sum(by_owner.values()) or 1
    print(f"{total / RATE:,.0f} s of samples in all")
    for name, count in by_owner.most_common():
        print(f"  {count / RATE:7.1f} s  {100 * count / total:4.1f}%  {name}")
    print(f"\nthe {top} largest (whose, test) pairs")
    for (whose, test), count in by_test.most_common(top):
        print(f"  {count / RATE:7.1f} s  {whose:28} {test}")
    print(f"\nour code: the {top} largest innermost bleu_gui frames")
    for frame, count in by_ours.most_common(top):
        print(f"  {count / RATE:7.1f} s  {frame}")


def record(raw: Path) -> int:
    spy = shutil.which("py-spy")
    if spy is None:
        print("py-spy is not installed: pip install py-spy", file=sys.stderr)
        return 2
    command = [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-q"]
    done = subprocess.run([spy, "record", "--subprocesses", "--rate", str(RATE), "--format", "raw", "-o", str(raw),
                           "--", *command], cwd=ROOT)
    return done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raw", type=Path, help="py-spy's raw samples of an earlier run (the suite is not run)")
    parser.add_argument("--top", type=int, default=25, help="rows of the tables by test and by function")
    args = parser.parse_args()
    if args.raw is not None:
        if not args.raw.is_file():
            print(f"profile_suite.py: {args.raw}: no such file", file=sys.stderr)
            return 2
        report(args.raw, args.top)
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        raw = Path(scratch) / "suite.raw"
        status = record(raw)
        if raw.is_file():
            report(raw, args.top)
        return status


if __name__ == "__main__":
    sys.exit(main())
