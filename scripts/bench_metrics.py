"""Benchmark: chrF and TER, whole commands side by side with sacreBLEU on the same files.

Nine systems of WMT17 English→German (``../shared/data/sacrebleu-wmt17-en-de``), their first 1,671 lines, one
reference: ``bleu-score REF -i SYS1..SYS9 -m ter -f json`` against ``sacrebleu REF -i SYS1..SYS9 -m ter -f json``
(and the same with chrF, and chrF++). The character edit distance, which sacreBLEU lacks, runs against the script a
user would write: read the files, rapidfuzz's ``Levenshtein.distance`` segment by segment, sum. Each run is a
whole command in a fresh process (start, imports, reading, scoring, printing); runs alternate and the median is
printed with the ratio. Every row checks that the two commands print the same scores.

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


# The anchor of the edit distance: the plain loop a user would write with rapidfuzz, one JSON score per system.
EDIT_SCRIPT = """
import json, sys
from rapidfuzz.distance import Levenshtein
ref = open(sys.argv[1], encoding="utf-8").read().splitlines()
out = []
for path in sys.argv[2:]:
    hyp = open(path, encoding="utf-8").read().splitlines()
    edits = sum(Levenshtein.distance(h, r) for h, r in zip(hyp, ref))
    out.append({"system": path, "edit": edits / sum(len(r) for r in ref) * 100})
print(json.dumps(out))
"""


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
        print(f"{'metric':<10}{'bleu-score':>12}{'anchor':>12}{'ratio':>8}  scores  (anchor: sacrebleu; edit: a "
              "rapidfuzz loop)")
        for label, flags in (("TER", ["-m", "ter"]), ("chrF2", ["-m", "chrf"]),
                             ("chrF2++", ["-m", "chrf", "--chrf-word-order", "2"]), ("edit", ["-m", "edit"])):
            ours_cmd = [str(BIN / "bleu-score"), str(ref), "-i", *files, *flags, "-f", "json"]
            theirs_cmd = ([sys.executable, "-c", EDIT_SCRIPT, str(ref), *files] if label == "edit" else
                          [str(BIN / "sacrebleu"), str(ref), "-i", *files, *flags, "-f", "json", "-w", "9"])
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
        edit_alone(ref, systems, args.runs)
    return 0


def edit_alone(ref: Path, systems: list[Path], runs: int) -> None:
    """The edit distance's scoring alone, in this process: our statistics (rapidfuzz's ``cpdist`` over blocks, the
    closest reference) against the loop the anchor runs. A whole command spends most of its time elsewhere:
    starting, reading, and the check that each system's lines are aligned with the references."""
    from rapidfuzz.distance import Levenshtein

    from bleu_gui.core.metrics.edit.edit import EditDistance

    refs = ref.read_text(encoding="utf-8").splitlines()
    hyps = [s.read_text(encoding="utf-8").splitlines() for s in systems]
    ours, theirs = [], []
    for _ in range(runs):
        start = time.perf_counter()
        metric = EditDistance([refs])
        edits_ours = [int(metric.statistics(h)[:, 0].sum()) for h in hyps]
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        edits_theirs = [sum(Levenshtein.distance(a, b) for a, b in zip(h, refs)) for h in hyps]
        theirs.append(time.perf_counter() - start)
    mo, mt = statistics.median(ours), statistics.median(theirs)
    print(f"{'edit alone':<10}{mo:>11.3f}s{mt:>11.3f}s{mo / mt:>8.2f}  "
          f"{'identical' if edits_ours == edits_theirs else 'DIFFER'}  (scoring only, in one process)")


if __name__ == "__main__":
    sys.exit(main())
