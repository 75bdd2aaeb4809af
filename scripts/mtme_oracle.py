"""mt-metrics-eval's own statistics of a run written with ``bleu-score … --export-mtme DIR``: the oracle numbers
the meta-evaluation tests hold ours to (MTME is not a dependency: run this where a checkout of
google-research/mt-metrics-eval is, and copy what it prints into the test).

    python scripts/mtme_oracle.py --mtme MTME_CHECKOUT DIR/bleu-gui LP HUMAN METRIC

prints, on the segments every system has a human score for: system pairwise accuracy (MTME's Agreement), system
Pearson, segment acc*_eq with its ε (KendallWithTiesOpt acc23, averaged by item), segment Pearson and Kendall τ_b
over all (system, segment) pairs, and PDP (``Pearson(average_by='item', pdp=True)``) — the definitions
``--meta-eval`` follows.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np


def read_scores(path: Path) -> dict[str, list[float | None]]:
    """An MTME ``*.seg.score`` file: ``SYSTEM<TAB>SCORE`` per line, each system's segments in order."""
    found: dict[str, list[float | None]] = defaultdict(list)
    for line in path.read_text(encoding="utf-8").splitlines():
        name, value = line.split("\t")
        found[name].append(None if value == "None" else float(value))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mtme", type=Path, required=True)
    parser.add_argument("root", type=Path)
    parser.add_argument("lp")
    parser.add_argument("human")
    parser.add_argument("metric")
    args = parser.parse_args()
    sys.path.insert(0, str(args.mtme))
    import scipy.stats
    from mt_metrics_eval import stats

    human = read_scores(args.root / "human-scores" / f"{args.lp}.{args.human}.seg.score")
    # A metric's file is METRIC-REFS.seg.score (--export-mtme names the references it read: -ref, -all).
    found = sorted((args.root / "metric-scores" / args.lp).glob(f"{args.metric}-*.seg.score"))
    metric = read_scores(found[0])
    names = sorted(human)
    keep = [i for i in range(len(human[names[0]])) if all(human[s][i] is not None for s in names)]
    h = np.array([[human[s][i] for i in keep] for s in names], np.float64)
    m = np.array([[metric[s][i] for i in keep] for s in names], np.float64)
    agree, pairs = stats.Agreement(list(h.mean(axis=1)), list(m.mean(axis=1)))
    acc, eps, _ = stats.KendallWithTiesOpt(h.ravel(), m.ravel(), variant="acc23", num_sys=len(names),
                                           average_by="item", sample_rate=1.0)
    print(f"{len(names)} systems, {len(keep)} segments")
    print(f"system pairwise accuracy {agree}/{pairs} = {agree / pairs!r}")
    print(f"system Pearson {scipy.stats.pearsonr(h.mean(axis=1), m.mean(axis=1))[0]!r}")
    print(f"segment acc*_eq {acc!r} (epsilon {eps!r})")
    print(f"segment Pearson {scipy.stats.pearsonr(h.ravel(), m.ravel())[0]!r}")
    print(f"segment Kendall {scipy.stats.kendalltau(h.ravel(), m.ravel())[0]!r}")
    pdp = stats.Correlation(len(names), list(h.ravel()), list(m.ravel())).Pearson(average_by="item", pdp=True)[0]
    print(f"segment PDP {pdp!r}")


if __name__ == "__main__":
    main()
