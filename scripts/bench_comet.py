"""Benchmark: COMET on the same checkpoint and data through ``comet-score`` (the anchor) and through ``bleu-score -m
comet`` (our worker), each a whole command as a user runs it (start, COMET's import, the model's load, scoring), in
the same run; then our re-open of the same run from the cache (no model loaded).

The checkpoint is built here by scripts/tiny_comet.py (no download: these machines have no network to the hub) at a
size whose scoring dominates the start (by default an XLM-R of 6 layers, 256 wide); the data are WMT22 en-ja's source,
reference and two systems from ../shared/data (skipped with a message when absent).

``comet-score`` always runs its model in half precision (``model.half()``, since 2.2.5); we run fp32 by default (the
Python API's precision), so both are timed: ours fp32 and ours fp16, each against comet-score. The scores are
compared too (fp16 against comet-score, fp32 against the API would be the tests' job).

    python scripts/bench_comet.py --comet-python PATH [--lines 1000] [--runs 1]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "wmt22-en-ja"


def timed(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env)
    took = time.perf_counter() - start
    if done.returncode:
        sys.exit(f"{' '.join(command[:3])}…: exit {done.returncode}\n{done.stderr[-2000:]}")
    return took, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--comet-python", required=True, help="a Python with unbabel-comet")
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--layers", type=int, default=6)
    args = parser.parse_args()
    if not DATA.is_dir():
        print(f"skipped: {DATA} is not there")
        return
    work = Path(tempfile.mkdtemp(prefix="bench-comet-"))
    for name in ("src", "ref1", "sys1", "sys2"):
        lines = (DATA / f"{name}.txt").read_text(encoding="utf-8").splitlines()[:args.lines]
        (work / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    subprocess.run([args.comet_python, str(ROOT / "scripts" / "tiny_comet.py"), str(work / "models"), "--kind",
                    "regression", "--hidden", str(args.hidden), "--layers", str(args.layers), "--vocab", "8000",
                    "--text", str(work / "src.txt"), str(work / "ref1.txt")], check=True, capture_output=True)
    model = work / "models" / "regression"
    comet_score = str(Path(args.comet_python).with_name("comet-score"))
    theirs_cmd = [comet_score, "-s", "src.txt", "-t", "sys1.txt", "sys2.txt", "-r", "ref1.txt", "--model",
                  str(model / "checkpoints" / "model.ckpt"), "--gpus", "0", "--batch_size", "16", "--quiet",
                  "--to_json", "theirs.json"]

    def ours_cmd(precision: str, cache: Path) -> list[str]:
        return [sys.executable, "-m", "bleu_gui.cli", "ref1.txt", "-i", "sys1.txt", "sys2.txt", "--src", "src.txt",
                "-m", "comet", "--comet-model", str(model), "--comet-python", args.comet_python, "--comet-gpus", "0",
                "--comet-precision", precision, "--comet-cache", str(cache), "-sl", "--format", "json"]

    results: dict[str, list[float]] = {"comet-score (fp16)": [], "ours fp32": [], "ours fp16": [], "ours cached": []}
    for run in range(args.runs):
        results["comet-score (fp16)"].append(timed(theirs_cmd, work)[0])
        for precision in ("fp32", "fp16"):
            cache = work / f"cache-{precision}-{run}.sqlite"
            took, out = timed(ours_cmd(precision, cache), work)
            results[f"ours {precision}"].append(took)
            if precision == "fp16":
                fp16_out = out
                results["ours cached"].append(timed(ours_cmd(precision, cache), work)[0])
    anchor = statistics.median(results["comet-score (fp16)"])
    segments = 2 * args.lines
    print(f"{segments:,} segments (2 systems × {args.lines:,} lines of WMT22 en-ja), an XLM-R of {args.layers} layers "
          f"× {args.hidden}, batch 16, CPU; median of {args.runs} run(s), whole commands:")
    for name, times in results.items():
        took = statistics.median(times)
        print(f"  {name:20s} {took:7.2f} s   ratio to comet-score {took / anchor:5.2f}")
    scoring = statistics.median(results["ours fp32"])
    print(f"  cached re-open: {scoring / statistics.median(results['ours cached']):.0f}× faster than scoring (fp32)")
    theirs = json.loads((work / "theirs.json").read_text(encoding="utf-8"))
    ours = json.loads(fp16_out)
    print(f"  comet-score's system scores: {[round(sum(s['COMET'] for s in v) / len(v), 4) for v in theirs.values()]}; "
          f"ours fp16: {[round(s['score'], 4) for s in ours]}")


if __name__ == "__main__":
    main()
