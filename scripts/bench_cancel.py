"""Benchmark: how long a cancel can wait. Scores and compares two systems (all paired tests, n-gram
differences) on synthetic data and prints the longest gaps between cancel checks, with where they were.

    python scripts/bench_cancel.py [--lines 300000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--lines", type=int, default=300_000)
    args = p.parse_args()
    from bench_core import synthetic

    from bleu_gui.core import BleuConfig, RunConfig, read_run_inputs, score_run

    scratch = tempfile.TemporaryDirectory()  # the synthetic files, removed at exit
    tmp = Path(scratch.name)
    (tmp / "b").mkdir()
    hyp_a, ref = synthetic(tmp, args.lines)
    hyp_b, _ = synthetic(tmp / "b", args.lines, seed=5)
    inputs = read_run_inputs([hyp_a, hyp_b], [ref])
    hyps, refs = inputs.systems, inputs.references
    stamps: list[tuple[float, str]] = []

    def progress(_fraction: float) -> None:
        # The innermost caller that is not a progress relay.
        frames = [f for f in traceback.extract_stack()[:-1] if f.name not in ("<lambda>", "progress")]
        caller = frames[-1]
        stamps.append((time.perf_counter(), f"{Path(caller.filename).name}:{caller.lineno}"))

    t0 = time.perf_counter()
    stamps.append((t0, "start"))
    score_run(hyps, refs, RunConfig((BleuConfig(),)), progress=progress)
    stamps.append((time.perf_counter(), "end"))
    gaps = sorted(((b[0] - a[0], a[1], b[1]) for a, b in zip(stamps, stamps[1:])), reverse=True)
    print(f"{args.lines:,} lines, 2 systems, bootstrap 1000 + AR 10000 + n-gram differences: "
          f"{stamps[-1][0] - t0:.1f} s, {len(stamps)} cancel checks")
    print(f"longest gap between cancel checks: {gaps[0][0] * 1000:.0f} ms (target < 300 ms)")
    for gap, start, end in gaps[:6]:
        print(f"   {gap * 1000:6.0f} ms  from {start} to {end}")


if __name__ == "__main__":
    main()
