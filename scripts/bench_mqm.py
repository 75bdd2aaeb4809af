"""Benchmark: Google's whole MQM TSV of the WMT21 TED en-de test suite (10,000 rows, 13 systems and the reference)
to a first MQM score, beside the anchor: the same file read with the csv module and scored as Google scores its
MQM data (the per-rater sum of weights over the segment's rows, averaged over raters, the mean over segments),
written here in plain Python, in the same process.

Ours: read the file as the run's input (every system's text, the reference, the source, documents, the error spans
as offsets into the unmarked text), then score MQM for every system — what ``bleu-score FILE --refs ref -m mqm``
does before it prints. Both give the same corpus scores (checked); the median of ``--runs`` is printed with the
ratio. The file comes from ../shared/data (skipped with a message when absent).

    python scripts/bench_mqm.py [--runs 5]
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from pathlib import Path

from bleu_gui.core import RunConfig, score_run
from bleu_gui.core.inputs.run_inputs import read_run_inputs
from bleu_gui.core.metrics.registry import family

FILE = Path(__file__).resolve().parents[2] / "shared" / "data" / "formats" / "scores-mqm-ted-ende" / "mqm_ted_ende.tsv"


def ours(path: Path) -> dict[str, float]:
    inputs = read_run_inputs([], [path], refs_wanted=["ref"])
    run = score_run(inputs.systems, inputs.references, RunConfig((family("mqm").config(),), significance=None),
                    context=inputs.context)
    return {s.name: s.results[0].corpus.score for s in run.systems}


def weight(severity: str, category: str) -> float:
    severity = severity.lower().replace("-", "")
    if severity == "major":
        return 25.0 if category.lower().startswith("non-translation") else 5.0
    if severity == "minor":
        return 0.1 if category.lower() == "fluency/punctuation" else 1.0
    return 0.0


def anchor(path: Path) -> dict[str, float]:
    per_rater: dict[tuple[str, str, str, str], float] = {}
    with path.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
            if row["system"] == "ref":
                continue
            key = (row["system"], row["doc"], row["seg_id"], row["rater"])
            per_rater[key] = per_rater.get(key, 0.0) - weight(row["severity"], row["category"])
    segments: dict[tuple[str, str, str], list[float]] = {}
    for (system, doc, seg, _rater), score in per_rater.items():
        segments.setdefault((system, doc, seg), []).append(score)
    systems: dict[str, list[float]] = {}
    for (system, _doc, _seg), scores in segments.items():
        systems.setdefault(system, []).append(sum(scores) / len(scores))
    return {system: sum(v) / len(v) for system, v in systems.items()}


def timed(work, path: Path, runs: int) -> tuple[float, dict[str, float]]:
    times, result = [], {}
    for _ in range(runs):
        start = time.perf_counter()
        result = work(path)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args()
    if not FILE.is_file():
        print(f"bench_mqm: skipped: {FILE} is not here (../shared/data is absent)")
        return 0
    mine_t, mine = timed(ours, FILE, args.runs)
    theirs_t, theirs = timed(anchor, FILE, args.runs)
    assert set(mine) == set(theirs) and all(abs(mine[s] - theirs[s]) < 1e-9 for s in mine), (mine, theirs)
    rows = sum(1 for _ in FILE.open(encoding="utf-8")) - 1
    print(f"{FILE.name}: {rows:,} rows, {len(mine)} systems; median of {args.runs} runs, same corpus MQM")
    print(f"  bleu-gui (read the run, spans, text, MQM) {mine_t:7.3f} s")
    print(f"  anchor (csv + Google's scoring loop)      {theirs_t:7.3f} s")
    print(f"  ratio ours / anchor                        {mine_t / theirs_t:7.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
