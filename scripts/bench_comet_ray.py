"""What the Ray path costs over the local worker: the same segments scored by COMET in the worker and on a local Ray
cluster (the worker driving a pool of actors), each from an empty cache, in the same run; the ratio printed.

    python scripts/bench_comet_ray.py --comet-python PY [--segments 2000] [--actors 1]

PY: a Python with unbabel-comet and Ray Data (pip install 'bleu-gui[ray]'). The checkpoint is the tests' tiny one
(scripts/tiny_comet.py); texts: WMT21 en-de (../shared/data).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bleu_gui.core.inputs.text_files import SegmentFile  # noqa: E402
from bleu_gui.core.metrics.comet.config import CometConfig  # noqa: E402
from bleu_gui.core.metrics.comet.worker import end_idle_workers  # noqa: E402
from bleu_gui.core.metrics.registry import bind  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "wmt21-en-de-3ref"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--comet-python", required=True)
    parser.add_argument("--segments", type=int, default=2000)
    parser.add_argument("--actors", type=int, default=1)
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"the shared data set is not at {DATA}")
    read = {n: (DATA / f"{n}.txt").read_text("utf-8").splitlines()[:args.segments] for n in ("src", "ref1", "sys1")}
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([args.comet_python, str(ROOT / "scripts" / "tiny_comet.py"), tmp, "--kind", "regression",
                        "--text", str(DATA / "ref1.txt")], check=True, capture_output=True)
        model = Path(tmp) / "regression"
        hyp = SegmentFile(Path("sys1.txt"), read["sys1"], "utf-8")
        times = {}
        for how, ray in (("worker", ""), ("ray", "local")):
            end_idle_workers()  # each starts its own worker (and Ray its cluster): both pay their start
            config = CometConfig(model=str(model), python=args.comet_python, cache=str(Path(tmp) / f"{how}.sqlite"),
                                 ray=ray, ray_actors=args.actors)
            metric = bind(config, [read["ref1"]], None, None, read["src"])
            start = time.perf_counter()
            metric.system_statistics(hyp)
            times[how] = time.perf_counter() - start
            metric.scorer.close()
        print(f"{len(read['sys1']):,} segments, tiny checkpoint: worker {times['worker']:.1f} s, local Ray cluster "
              f"({args.actors} actor{'s' if args.actors != 1 else ''}) {times['ray']:.1f} s: "
              f"{times['ray'] / times['worker']:.2f}× (each with its process's start and the model's load)")
        end_idle_workers()


if __name__ == "__main__":
    main()
