"""How long erasure takes (which words move COMET): one 30-word segment, and a slice of segments, each in one
request, beside the anchor — a plain scoring pass of the same segments in the same run — with the ratio printed
against the bound the issue sets, (words + 1)×. Each measurement starts from an empty cache (nothing read instead of scored).

    python scripts/bench_erasure.py --comet-python PY [--segments 500] [--shape tiny|base]

``--shape base`` builds the checkpoint with XLM-R base's dimensions (768 hidden, 12 layers; random weights, written
offline by scripts/tiny_comet.py), ``tiny`` the tests' (32 hidden, 2 layers). Texts: WMT21 en-de (../shared/data).
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

from bleu_gui.core.analysis.erasure import erase, erase_all, word_spans  # noqa: E402
from bleu_gui.core.inputs.text_files import SegmentFile  # noqa: E402
from bleu_gui.core.metrics.comet.config import CometConfig  # noqa: E402
from bleu_gui.core.metrics.registry import bind  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "wmt21-en-de-3ref"
SHAPES = {"tiny": ("32", "2"), "base": ("768", "12")}


def checkpoint(python: str, out: Path, shape: str) -> Path:
    hidden, layers = SHAPES[shape]
    subprocess.run([python, str(ROOT / "scripts" / "tiny_comet.py"), str(out), "--kind", "regression", "--hidden",
                    hidden, "--layers", layers, "--text", str(DATA / "ref1.txt")], check=True, capture_output=True)
    return out / "regression"


def metric(model: Path, python: str, src: list[str], ref: list[str], cache: Path):
    return bind(CometConfig(model=str(model), python=python, cache=str(cache)), [ref], None, None, src)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--comet-python", required=True, help="a Python with unbabel-comet (the worker's)")
    parser.add_argument("--segments", type=int, default=500)
    parser.add_argument("--shape", choices=sorted(SHAPES), default="tiny")
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"the shared data set is not at {DATA}")
    read = {n: (DATA / f"{n}.txt").read_text("utf-8").splitlines()[:args.segments] for n in ("src", "ref1", "sys1")}
    src, ref, hyp = read["src"], read["ref1"], read["sys1"]
    with tempfile.TemporaryDirectory() as tmp:
        model = checkpoint(args.comet_python, Path(tmp) / "model", args.shape)
        warm = metric(model, args.comet_python, src, ref, Path(tmp) / "warm.sqlite")
        warm.prepare([SegmentFile(Path("warm.txt"), hyp[:2], "utf-8")])  # the worker started and the model loaded
        longest = max(range(len(hyp)), key=lambda i: -abs(len(word_spans(hyp[i])) - 30))
        n_words = len(word_spans(hyp[longest]))
        one = metric(model, args.comet_python, src, ref, Path(tmp) / "one.sqlite")
        start = time.perf_counter()
        one.score_variants([(longest, src[longest], hyp[longest])])
        plain_one = time.perf_counter() - start
        start = time.perf_counter()
        erase("target", (longest, src[longest], hyp[longest]), one.score_variants)
        erased_one = time.perf_counter() - start
        print(f"{args.shape} checkpoint; one segment of {n_words} words: erasure {erased_one:.2f} s, one plain score "
              f"{plain_one:.2f} s: {erased_one / plain_one:.1f}× (bound {n_words + 1}×)")
        plain = metric(model, args.comet_python, src, ref, Path(tmp) / "plain.sqlite")
        start = time.perf_counter()
        plain.prepare([SegmentFile(Path("slice.txt"), hyp, "utf-8")])
        plain_slice = time.perf_counter() - start
        slice_metric = metric(model, args.comet_python, src, ref, Path(tmp) / "slice.sqlite")
        start = time.perf_counter()
        found = erase_all("target", [(i, src[i], hyp[i]) for i in range(len(hyp))], slice_metric.score_variants)
        erased_slice = time.perf_counter() - start
        words = sum(len(e.words) for e in found)
        bound = (words + len(hyp)) / len(hyp)
        # A segment of N words sends N + 1 texts, each as long as the segment: long segments weigh more in the
        # erasure than in the plain pass, by their length (the model's cost grows with it).
        size = [len(src[i]) + len(hyp[i]) + len(ref[i]) for i in range(len(hyp))]
        weighted = sum((len(e.words) + 1) * n for e, n in zip(found, size)) / sum(size)
        print(f"{len(hyp)} segments ({words:,} words): erasure {erased_slice:.1f} s, a plain pass {plain_slice:.1f} s: "
              f"{erased_slice / plain_slice:.1f}× (bound: mean words + 1 = {bound:.1f}×; weighted by the segments' "
              f"length, {weighted:.1f}×)")
        warm.scorer.close()


if __name__ == "__main__":
    main()
