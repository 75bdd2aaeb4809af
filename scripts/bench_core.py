"""Benchmark: our scoring core against sacreBLEU on the same files, side by side.

Each measurement runs in a fresh subprocess so that peak memory (max RSS) is
that run's own. Time covers reference processing + per-sentence statistics +
corpus BLEU, not reading the files.

    python scripts/bench_core.py              # real sets + synthetic 100k
    python scripts/bench_core.py --million    # also 1,000,000 synthetic lines (ours only)
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"


def read(path: Path) -> list[str]:
    from bleu_gui.core.readers import read_segments

    return read_segments(path).lines


def worker(engine: str, hyp: str, refs: list[str]) -> None:
    from sacrebleu.metrics import BLEU

    from bleu_gui.core import Evaluator

    hyps = read(Path(hyp))
    ref_lines = [read(Path(r)) for r in refs]
    t0 = time.perf_counter()
    if engine == "sacrebleu":
        score = BLEU().corpus_score(hyps, ref_lines).score
    else:
        ev = Evaluator(ref_lines)
        score = ev.corpus_score(ev.statistics(hyps)).score
    seconds = time.perf_counter() - t0
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak_mb": peak_mb, "score": score}))


def measure(engine: str, hyp: Path, refs: list[Path], repeat: int = 1) -> dict:
    """Best time and peak memory over ``repeat`` fresh processes (small sets are noisy)."""
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, __file__, "--worker", engine, str(hyp), *map(str, refs)],
                             capture_output=True, text=True, check=True).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
    return min(runs, key=lambda r: r["seconds"])


def synthetic(folder: Path, n_lines: int, seed: int = 1) -> tuple[Path, Path]:
    """A reference and a noisy system output: Zipf vocabulary, ~25 tokens a line, punctuation."""
    import numpy as np

    rng = np.random.default_rng(seed)
    vocab = np.array([f"w{i}" for i in range(60_000)] + [",", ".", "(", ")", "'s", "3.5", "U.S."])
    ref_path, hyp_path = folder / f"ref-{n_lines}.txt", folder / f"hyp-{n_lines}.txt"
    with ref_path.open("w", encoding="utf-8") as rf, hyp_path.open("w", encoding="utf-8") as hf:
        for start in range(0, n_lines, 50_000):
            n = min(50_000, n_lines - start)
            lengths = rng.integers(15, 36, n)
            words = vocab[np.minimum(rng.zipf(1.3, lengths.sum()) - 1, len(vocab) - 1)]
            noise = vocab[np.minimum(rng.zipf(1.3, lengths.sum()) - 1, len(vocab) - 1)]
            keep = rng.random(lengths.sum()) > 0.3
            hyp_words = np.where(keep, words, noise)
            pos = 0
            for length in lengths:
                rf.write(" ".join(words[pos:pos + length]) + ".\n")
                hf.write(" ".join(hyp_words[pos:pos + length]) + ".\n")
                pos += length
    return hyp_path, ref_path


def row(label: str, hyp: Path, refs: list[Path], with_anchor: bool = True, repeat: int = 1) -> None:
    ours = measure("ours", hyp, refs, repeat)
    if not with_anchor:
        print(f"{label:<34} {'-':>9} {ours['seconds']:>9.3f} {'-':>7} {'-':>9} {ours['peak_mb']:>9.0f} {'-':>7}")
        return
    theirs = measure("sacrebleu", hyp, refs, repeat)
    assert abs(ours["score"] - theirs["score"]) < 1e-9, (ours, theirs)
    print(f"{label:<34} {theirs['seconds']:>9.3f} {ours['seconds']:>9.3f} {ours['seconds'] / theirs['seconds']:>7.3f} "
          f"{theirs['peak_mb']:>9.0f} {ours['peak_mb']:>9.0f} {ours['peak_mb'] / theirs['peak_mb']:>7.3f}")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--worker", nargs="+")
    p.add_argument("--million", action="store_true")
    args = p.parse_args()
    if args.worker:
        worker(args.worker[0], args.worker[1], args.worker[2:])
        return
    print(f"{'set':<34} {'sacre s':>9} {'ours s':>9} {'ratio':>7} {'sacre MB':>9} {'ours MB':>9} {'ratio':>7}")
    wmt17 = DATA / "sacrebleu-wmt17-en-de"
    if wmt17.is_dir():
        row("wmt17 en-de 3004 lines, 1 ref", wmt17 / "sys1.txt", [wmt17 / "ref1.txt"], repeat=5)
        # Four references: the human reference plus three other systems standing in for references.
        row("wmt17 en-de 3004 lines, 4 refs", wmt17 / "sys1.txt",
            [wmt17 / "ref1.txt", wmt17 / "sys2.txt", wmt17 / "sys3.txt", wmt17 / "sys4.txt"], repeat=5)
    wmt21 = DATA / "wmt21-en-de-3ref"
    if wmt21.is_dir():
        row("wmt21 en-de 1002 lines, 3 refs", wmt21 / "sys1.txt", [wmt21 / f"ref{i}.txt" for i in (1, 2, 3)],
            repeat=5)
    with tempfile.TemporaryDirectory() as tmp:
        hyp, ref = synthetic(Path(tmp), 100_000)
        row("synthetic 100,000 lines, 1 ref", hyp, [ref])
        if args.million:
            hyp, ref = synthetic(Path(tmp), 1_000_000)
            row("synthetic 1,000,000 lines, 1 ref", hyp, [ref], with_anchor=False)


if __name__ == "__main__":
    main()
