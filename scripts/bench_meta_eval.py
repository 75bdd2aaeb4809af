"""Benchmark: ``--meta-eval mqm`` on Google's MQM file of the WMT21 TED en-de test suite (13 systems × 529 segments)
with BLEU, chrF, TER and the edit distance — every statistic, the metric-against-metric permutation tests and the
random baseline's 100 draws — beside the anchor: mt-metrics-eval's own functions on the same arrays, in the same run
(``--mtme DIR``: a checkout of google-research/mt-metrics-eval; MTME is not a dependency, so without it only ours is
timed). The scoring of the metrics is done once, before either clock starts.

    python scripts/bench_meta_eval.py [--mtme DIR] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from bleu_gui.core import RunConfig, score_run
from bleu_gui.core.analysis.meta_eval import meta_evaluate
from bleu_gui.core.inputs.run_inputs import read_run_inputs
from bleu_gui.core.metrics.registry import family

FILE = Path(__file__).resolve().parents[2] / "shared" / "data" / "formats" / "scores-mqm-ted-ende" / "mqm_ted_ende.tsv"
KEYS = ("bleu", "chrf", "ter", "edit", "mqm")


def theirs(mtme: Path, human: np.ndarray, metric_sys: list[np.ndarray], metric_seg: list[np.ndarray]) -> None:
    """The same statistics by MTME's functions (its PermutationSigDiff between every two metrics, k = 1000)."""
    sys.path.insert(0, str(mtme))
    import scipy.stats
    from mt_metrics_eval import stats

    n = len(human)
    hsys = human.mean(axis=1)
    corrs = []
    for m_sys, m_seg in zip(metric_sys, metric_seg):
        stats.Agreement(list(hsys), list(m_sys))
        scipy.stats.pearsonr(hsys, m_sys)
        stats.PairwiseConfidenceError(human.ravel(), m_seg.ravel(), num_sys=n)
        stats.KendallWithTiesOpt(human.ravel(), m_seg.ravel(), variant="acc23", num_sys=n, average_by="item",
                                 sample_rate=1.0)
        scipy.stats.pearsonr(human.ravel(), m_seg.ravel())
        scipy.stats.kendalltau(human.ravel(), m_seg.ravel())
        corrs.append(stats.Correlation(n, list(hsys), list(m_sys)))
    for a in range(len(corrs)):
        for b in range(a + 1, len(corrs)):
            stats.PermutationSigDiff(corrs[a], corrs[b], lambda g, m: (stats.Agreement(g, m)[0] / 78.0,))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mtme", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not FILE.is_file():
        print(f"skipped: {FILE} is not there")
        return
    inputs = read_run_inputs([], [FILE], refs_wanted=["ref"])
    run = score_run(inputs.systems, inputs.references, RunConfig(tuple(family(k).config() for k in KEYS),
                                                                 significance=None), context=inputs.context)
    stats = [[s.results[k].stats for s in run.systems] for k in range(len(KEYS))]
    sentences = [[s.results[k].sentences for s in run.systems] for k in range(len(KEYS))]
    names = [s.name for s in run.systems]
    ours = []
    for _ in range(args.runs):
        start = time.perf_counter()
        meta_evaluate(4, run.metrics, stats, sentences, names, [0, 1, 2, 3])
        ours.append(time.perf_counter() - start)
    took = statistics.median(ours)
    print(f"13 systems × 529 segments × 4 metrics, every statistic, metric-vs-metric tests, 100 random draws: "
          f"ours {took:.2f} s (median of {args.runs})")
    if args.mtme is None:
        print("  (no --mtme DIR: MTME not timed)")
        return
    human = np.array([s.results[4].sentences for s in run.systems])
    signs = [1.0 if m.higher_is_better else -1.0 for m in run.metrics[:4]]
    metric_sys = [sg * np.array([m.value(np.asarray(s.results[k].stats)) for s in run.systems])
                  for k, (m, sg) in enumerate(zip(run.metrics[:4], signs))]
    metric_seg = [sg * np.array([s.results[k].sentences for s in run.systems]) for k, sg in enumerate(signs)]
    start = time.perf_counter()
    theirs(args.mtme, human, metric_sys, metric_seg)
    anchor = time.perf_counter() - start
    print(f"  MTME's functions on the same arrays (no random baseline): {anchor:.2f} s; ratio ours/MTME "
          f"{took / anchor:.2f}")


if __name__ == "__main__":
    main()
