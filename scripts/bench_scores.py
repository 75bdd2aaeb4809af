"""Benchmark: imported segment scores — reading them onto a run and testing every pair — beside sacreBLEU's own
procedure applied to the mean (its paired bootstrap and AR loops, as ``sacrebleu.significance`` runs them for a
metric, here with the mean as the metric), in the same process on the same scores.

15 systems × 3,000 segments of random scores (10% missing) in a TSV keyed by 1-based segment. Ours: read the
file, attach it to the systems, score the run with the imported metric alone, both tests for every pair
(bootstrap 1,000 resamples, AR 10,000 trials), each pair on the segments both of its systems scored. The anchor:
sacreBLEU's per-resample loops for each of the 105 pairs, on each pair's statistics with the segments one of the two
lacks made missing. Both give the same p-values (checked on every pair); the median of ``--runs`` is printed with
the ratio.

    python scripts/bench_scores.py [--runs 3] [--systems 15] [--segments 3000] [--gaps independent|shared]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from sacrebleu.significance import _compute_p_value

from bleu_gui.core import RunConfig, score_run
from bleu_gui.core.inputs.corpus import Context
from bleu_gui.core.inputs.run_inputs import InputRequest
from bleu_gui.core.inputs.text_files import SegmentFile
from bleu_gui.core.metrics.imported.imported import attach_imported


def make_files(folder: Path, k: int, n: int, shared: bool) -> tuple[list[SegmentFile], Path, np.ndarray]:
    rng = np.random.default_rng(7)
    values = rng.normal(0.0, 1.0, (k, n)) + np.linspace(0, 0.2, k)[:, None]
    gaps = rng.random((1, n) if shared else (k, n)) < 0.1
    values[np.broadcast_to(gaps, (k, n))] = np.nan
    rows = ["system\tsegment\tCOMET"]
    for s in range(k):
        rows += [f"sys{s}\t{i + 1}\t{'None' if np.isnan(v) else repr(float(v))}" for i, v in enumerate(values[s])]
    path = folder / "comet.tsv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    systems = [SegmentFile(folder / f"sys{s}.txt", [f"line {i}" for i in range(n)], "utf-8") for s in range(k)]
    return systems, path, values


def ours(systems: list[SegmentFile], path: Path) -> np.ndarray:
    reference = SegmentFile(systems[0].path.with_name("ref.txt"), systems[0].lines, "utf-8")
    request = InputRequest(scores=(str(path),))
    attached, context, imported = attach_imported(request, systems, [s.path.stem for s in systems], Context())
    run = score_run(attached, [reference], RunConfig(imported), context=context)
    assert run.comparison is not None
    matrix = run.comparison.by_metric[0].matrix
    assert matrix is not None
    return np.stack([matrix.p("bs", "none"), matrix.p("ar", "none")])


def anchor(values: np.ndarray, n_bs: int = 1000, n_ar: int = 10000, seed: int = 12345) -> np.ndarray:
    """sacreBLEU's loops (significance._paired_bs_test, _paired_ar_test) for every pair, the mean as the metric."""
    k, n = values.shape
    stats = [np.stack([np.nan_to_num(v), (~np.isnan(v)).astype(float)], axis=1) for v in values]

    def score(sums: np.ndarray) -> float:
        return float(sums[0] / sums[1])

    out = np.full((2, k, k), np.nan)
    for a in range(k):
        for b in range(a + 1, k):
            both = ~np.isnan(values[a]) & ~np.isnan(values[b])  # the segments both systems scored
            sa_, sb_ = (np.where(both[:, None], s, 0.0) for s in (stats[a], stats[b]))
            diff = abs(score(sa_.sum(0)) - score(sb_.sum(0)))
            idx = np.random.default_rng(seed).choice(n, size=(n_bs, n), replace=True)
            bl = np.array([score(s.sum(0)) for s in sa_[idx]])
            sy = np.array([score(s.sum(0)) for s in sb_[idx]])
            d = np.abs(sy - bl)
            out[0, a, b] = out[0, b, a] = _compute_p_value(d - d.mean(), diff)
            pos = np.random.default_rng(seed).integers(2, size=(n_ar, n), dtype=bool)
            shuf_a, shuf_b = pos @ sa_ + ~pos @ sb_, ~pos @ sa_ + pos @ sb_
            sa = np.array([score(x) for x in shuf_a])
            sb = np.array([score(x) for x in shuf_b])
            out[1, a, b] = out[1, b, a] = _compute_p_value(np.abs(sa - sb), diff)
    return out


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--systems", type=int, default=15)
    p.add_argument("--segments", type=int, default=3000)
    p.add_argument("--gaps", choices=("independent", "shared"), default="independent",
                   help="each system misses its own 10%% of segments (every pair tested on its own common segments), "
                        "or all miss the same ones (as Google's MQM files: unrated segments)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        systems, path, values = make_files(Path(tmp), args.systems, args.segments, args.gaps == "shared")
        times_ours, times_anchor = [], []
        for _ in range(args.runs):
            start = time.perf_counter()
            got = ours(systems, path)
            times_ours.append(time.perf_counter() - start)
            start = time.perf_counter()
            want = anchor(values)
            times_anchor.append(time.perf_counter() - start)
            mask = ~np.isnan(want)
            assert np.allclose(got[mask], want[mask], rtol=0, atol=1e-12), "p-values differ"
        a, b = statistics.median(times_ours), statistics.median(times_anchor)
        print(f"{args.systems} systems × {args.segments:,} segments, gaps {args.gaps}, every pair "
              f"({args.systems * (args.systems - 1) // 2}), bootstrap 1,000 + AR 10,000, median of {args.runs}:")
        print(f"  bleu-gui (read + attach + score + both tests): {a:.2f} s")
        print(f"  sacreBLEU's procedure on the mean:            {b:.2f} s   ratio {a / b:.2f}×   (same p-values)")


if __name__ == "__main__":
    main()
