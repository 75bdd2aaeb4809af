"""Benchmark: a run without references opens as fast as the same run with one, less the reference metrics.

WMT22 en-ja (../shared/data/wmt22-en-ja: 2,037 segments, 3 systems, its source) with a QE score file (a seeded
random column per system, keyed by segment, as a QE model's output is read with --scores). Three ways, in the same
process, each from the files (read, attach the scores, score, compare the systems with paired bootstrap):

- the anchor: with the reference, the QE column alone;
- without the reference, the QE column alone (the ratio to the anchor is printed: it should be about 1);
- with the reference, BLEU beside the QE column (what the reference metrics add, for scale).

    python scripts/bench_no_reference.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bleu_gui.core import RunConfig, Significance, score_run
from bleu_gui.core.inputs.run_inputs import InputRequest, read_request
from bleu_gui.core.metrics.bleu.config import BleuConfig
from bleu_gui.core.metrics.imported.imported import attach_imported

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt22-en-ja"
SYSTEMS = ("sys1.txt", "sys2.txt", "sys3.txt")


def qe_file(folder: Path, n: int) -> Path:
    rng = np.random.default_rng(7)
    rows = ["system\tsegment\tQE"]
    for k, name in enumerate(SYSTEMS):
        rows += [f"{name}\t{i + 1}\t{v!r}" for i, v in enumerate((rng.normal(0.8, 0.1, n) + 0.01 * k).tolist())]
    path = folder / "qe.tsv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def opened(qe: Path, with_reference: bool, with_bleu: bool) -> Callable[[], float]:
    def run() -> float:
        request = InputRequest(systems=tuple(str(DATA / s) for s in SYSTEMS),
                               references=(str(DATA / "ref1.txt"),) if with_reference else (),
                               source=str(DATA / "src.txt"), scores=(str(qe),))
        inputs = read_request(request)
        systems, context, imported = attach_imported(request, inputs.systems, list(SYSTEMS), inputs.context)
        metrics = (BleuConfig(), *imported) if with_bleu else tuple(imported)
        scored = score_run(systems, inputs.references, RunConfig(metrics, significance=Significance(1000, None)),
                           context=context)
        return float(scored.systems[1].results[-1].corpus.score)
    return run


def timed(work: Callable[[], float], runs: int) -> tuple[float, float]:
    seconds, value = [], 0.0
    for _ in range(runs):
        start = time.perf_counter()
        value = work()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not (DATA / "src.txt").is_file():
        raise SystemExit(f"{DATA} is absent: the benchmark reads WMT22 en-ja from ../shared/data")
    n = len((DATA / "src.txt").read_text("utf-8").splitlines())
    with tempfile.TemporaryDirectory() as folder:
        qe = qe_file(Path(folder), n)
        opened(qe, True, False)()  # warm: imports, the files in the page cache
        anchor, a = timed(opened(qe, True, False), args.runs)
        without, b = timed(opened(qe, False, False), args.runs)
        with_bleu, _ = timed(opened(qe, True, True), args.runs)
    assert a == b, "the QE score must not depend on the reference"
    print(f"WMT22 en-ja, {n:,} segments × {len(SYSTEMS)} systems, QE column, paired bootstrap (median of {args.runs})")
    print(f"  with the reference, QE alone (anchor)   {anchor * 1000:8.1f} ms")
    print(f"  without a reference, QE alone            {without * 1000:8.1f} ms   ratio {without / anchor:.2f}")
    print(f"  with the reference, BLEU + QE            {with_bleu * 1000:8.1f} ms   ratio {with_bleu / anchor:.2f}")


if __name__ == "__main__":
    main()
