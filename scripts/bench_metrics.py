"""Benchmark: chrF and TER, whole commands side by side with sacreBLEU on the same files.

Nine systems of WMT17 English→German (``../shared/data/sacrebleu-wmt17-en-de``), their first 1,671 lines, one
reference: ``bleu-score REF -i SYS1..SYS9 -m ter -f json`` against ``sacrebleu REF -i SYS1..SYS9 -m ter -f json``
(and the same with chrF, and chrF++). Each run is a whole command in a fresh process (start, imports, reading,
scoring, printing); runs alternate and the median is printed with the ratio. Every row checks that the two
commands print the same scores.

    python scripts/bench_metrics.py [--runs 3] [--lines 1671]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "sacrebleu-wmt17-en-de"
BIN = Path(sys.executable).parent
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def prepare(lines: int, folder: Path) -> tuple[Path, list[Path]]:
    """The reference and nine systems, cut to ``lines`` lines. sys6.txt starts with a byte order mark, which
    bleu-score removes (and says so) and sacreBLEU keeps as a character of the first line: the cut files are
    written without it, so that both commands read the same text."""
    def cut(name: str) -> Path:
        out = folder / name
        text = (DATA / name).read_text(encoding="utf-8-sig")
        out.write_text("".join(text.splitlines(keepends=True)[:lines]), encoding="utf-8")
        return out

    return cut("ref1.txt"), [cut(f"sys{k}.txt") for k in range(1, 10)]


def timed(command: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=_ENV)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])}... failed:\n{done.stderr[-2000:]}")
    return elapsed, done.stdout


def scores(output: str, ours: bool) -> list[float]:
    data = json.loads(output)
    if ours:
        return [float(o["score"]) for o in (data if isinstance(data, list) else [data])]
    # sacreBLEU's JSON for several systems: a list of {"system": ..., "<metric>": "<score, -w decimals>"}.
    return [float(next(v for k, v in row.items() if k != "system")) for row in data]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--lines", type=int, default=1671)
    args = p.parse_args()
    if not DATA.is_dir():
        print(f"skipped: the shared data set {DATA} is not here")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        ref, systems = prepare(args.lines, Path(tmp))
        files = [str(s) for s in systems]
        print(f"9 systems x {args.lines:,} lines, one reference (WMT17 en-de); median of {args.runs} whole commands")
        print(f"{'metric':<10}{'bleu-score':>12}{'sacrebleu':>12}{'ratio':>8}  scores")
        for label, flags in (("TER", ["-m", "ter"]), ("chrF2", ["-m", "chrf"]),
                             ("chrF2++", ["-m", "chrf", "--chrf-word-order", "2"])):
            ours_cmd = [str(BIN / "bleu-score"), str(ref), "-i", *files, *flags, "-f", "json"]
            theirs_cmd = [str(BIN / "sacrebleu"), str(ref), "-i", *files, *flags, "-f", "json", "-w", "9"]
            ours_t, theirs_t = [], []
            ours_out = theirs_out = ""
            for _ in range(args.runs):
                t, ours_out = timed(ours_cmd)
                ours_t.append(t)
                t, theirs_out = timed(theirs_cmd)
                theirs_t.append(t)
            a, b = scores(ours_out, True), scores(theirs_out, False)
            same = all(abs(x - y) < 1e-6 for x, y in zip(a, b)) and len(a) == len(b)
            mo, mt = statistics.median(ours_t), statistics.median(theirs_t)
            print(f"{label:<10}{mo:>11.2f}s{mt:>11.2f}s{mo / mt:>8.2f}  {'identical' if same else 'DIFFER'}")
            if not same:
                print(f"  ours   {a}\n  theirs {b}")
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
