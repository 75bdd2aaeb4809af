"""Benchmark the paired tests: our bleu-score against sacreBLEU's command line, whole commands, side by side.

    python scripts/bench_compare.py                 # WMT17 (3,004 lines; 17,000 of its lines, the issue's size),
                                                    # and ours alone on 100,000 lines
    python scripts/bench_compare.py --big-anchor    # also sacreBLEU on 100,000 lines (minutes, ~10 GB)
    python scripts/bench_compare.py --all-pairs     # 12 WMT17 systems, every pair: ours once against sacreBLEU
                                                    # run once per baseline (24 commands, about ten minutes)
                                                    # and ours alone at 12 x 100,000 lines

Prints wall time and peak memory of each command and the ratios, and checks that
both print the same p-values.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
BIN = Path(sys.executable).parent


def run(cmd: list[str]) -> tuple[float, float, list]:
    """(seconds, peak MB, parsed JSON) of one command."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    if status != 0:
        raise SystemExit(f"command failed: {' '.join(cmd)}")
    return seconds, usage.ru_maxrss / 1024, json.loads(out)


def p_values(result: list, ours: bool) -> list:
    if ours:
        return [r["p_value"] for r in result]
    return [r["BLEU"]["p_value"] for r in result]


def compare(label: str, ref: Path, a: Path, b: Path, test: str, anchor: bool) -> None:
    flag = "--paired-bs" if test == "bs" else "--paired-ar"
    ours = run([str(BIN / "bleu-score"), str(ref), "-i", str(a), str(b), flag, "-f", "json"])
    if not anchor:
        print(f"{label:<40} {test:>3} {'-':>9} {ours[0]:>9.2f} {'-':>7} {'-':>9} {ours[1]:>9.0f} {'-':>7}")
        return
    theirs = run([str(BIN / "sacrebleu"), str(ref), "-i", str(a), str(b), flag, "-f", "json"])
    same = p_values(ours[2], True) == p_values(theirs[2], False)
    print(f"{label:<40} {test:>3} {theirs[0]:>9.2f} {ours[0]:>9.2f} {ours[0] / theirs[0]:>7.3f} "
          f"{theirs[1]:>9.0f} {ours[1]:>9.0f} {ours[1] / theirs[1]:>7.3f}  p-values {'identical' if same else 'DIFFER'}")


def in_process(ref: Path, a: Path, b: Path, test: str) -> None:
    """The same test inside one process (no interpreter start or imports), both tools from file lines."""
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    from bleu_gui.core import Bleu, BleuConfig
    from bleu_gui.core.analysis.pair_matrix import pair_matrix
    from bleu_gui.core.inputs.text_files import read_segments

    refs = [read_segments(ref).lines]
    hyps = [read_segments(a).lines, read_segments(b).lines]
    t0 = time.perf_counter()
    metric = BLEU(references=refs)
    _, theirs = PairedTest([("a", hyps[0]), ("b", hyps[1])], {"BLEU": metric}, references=None, test_type=test,
                           n_samples=1000 if test == "bs" else 10000)()
    t_sacre = time.perf_counter() - t0
    t0 = time.perf_counter()
    ev = Bleu(refs, BleuConfig())
    stats = [ev.statistics(h) for h in hyps]
    n = (1000, None) if test == "bs" else (None, 10000)
    ours = pair_matrix(stats, ev, ["a", "b"], *n).baseline_tests(test)
    t_ours = time.perf_counter() - t0
    same = ours[1].p_value == theirs["BLEU"][1].p_value
    print(f"{'  same, in one process':<40} {test:>3} {t_sacre:>9.2f} {t_ours:>9.2f} {t_ours / t_sacre:>7.3f} "
          f"{'':>9} {'':>9} {'':>7}  p-values {'identical' if same else 'DIFFER'}")


def all_pairs(folder: Path, baselines: int) -> None:
    """Every pair of 12 systems: one `bleu-score --all-pairs` against sacreBLEU's --paired-bs and --paired-ar run
    once per baseline; every p-value compared."""
    ref = folder / "ref1.txt"
    systems = [folder / f"sys{i}.txt" for i in range(1, 13)]
    ours = run([str(BIN / "bleu-score"), str(ref), "-i", *map(str, systems), "--all-pairs", "-f", "json"])
    by_name = {(p["a"], p["b"]): p for p in ours[2]["pairs"]}
    by_name.update({(p["b"], p["a"]): p for p in ours[2]["pairs"]})
    seconds, peak, checked, differ = 0.0, 0.0, 0, 0
    for k, base in enumerate(systems[:baselines]):
        order = [base] + [s for s in systems if s != base]
        for flag, key in (("--paired-bs", "p_bs"), ("--paired-ar", "p_ar")):
            t, mb, out = run([str(BIN / "sacrebleu"), str(ref), "-i", *map(str, order), flag, "-f", "json"])
            seconds, peak = seconds + t, max(peak, mb)
            for system, result in zip(order[1:], out[1:]):
                checked += 1
                differ += by_name[(base.name, system.name)][key] != result["BLEU"]["p_value"]
        print(f"  sacreBLEU baseline {k + 1}/{baselines}: {seconds:.0f} s so far", file=sys.stderr)
    total = seconds * len(systems) / baselines
    note = "" if baselines == len(systems) else f" (measured {baselines} of 12 baselines, scaled)"
    print(f"{'wmt17 12 systems x 3,004, all pairs':<40} {'both':>4} {total:>9.1f} {ours[0]:>9.2f} "
          f"{ours[0] / total:>7.3f} {peak:>9.0f} {ours[1]:>9.0f} {ours[1] / peak:>7.3f}  "
          f"{checked - differ}/{checked} p-values identical{note}")


def all_pairs_big(tmp: Path, folder: Path, repeat: int = 34) -> None:
    """12 systems x about 100,000 lines (WMT17 repeated), every pair, ours alone: time and peak memory."""
    def big(name: str) -> Path:
        out = tmp / name
        out.write_text(((folder / name).read_text(encoding="utf-8").rstrip("\n") + "\n") * repeat, encoding="utf-8")
        return out

    ref = big("ref1.txt")
    systems = [big(f"sys{i}.txt") for i in range(1, 13)]
    lines = len(ref.read_text(encoding="utf-8").splitlines())
    t, mb, _ = run([str(BIN / "bleu-score"), str(ref), "-i", *map(str, systems), "--all-pairs", "-f", "json"])
    print(f"{f'wmt17 12 systems x {lines:,}, all pairs':<40} {'both':>4} {'-':>9} {t:>9.2f} {'-':>7} {'-':>9} "
          f"{mb:>9.0f} {'-':>7}  target: under 60 s and 2,048 MB")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--big-anchor", action="store_true", help="also run sacreBLEU on 100,000 lines")
    p.add_argument("--all-pairs", action="store_true", help="only the all-pairs measures (12 systems)")
    p.add_argument("--baselines", type=int, default=12, help="sacreBLEU baselines to run in --all-pairs (1-12)")
    args = p.parse_args()
    from bench_core import synthetic, wmt17_systems

    if args.all_pairs:
        wmt17 = DATA / "sacrebleu-wmt17-en-de"
        print(f"{'set':<40} {'test':>4} {'sacre s':>9} {'ours s':>9} {'ratio':>7} {'sacre MB':>9} {'ours MB':>9} "
              f"{'ratio':>7}")
        all_pairs(wmt17, max(1, min(args.baselines, 12)))
        with tempfile.TemporaryDirectory() as tmp:
            all_pairs_big(Path(tmp), wmt17)
        return

    print(f"{'set':<40} {'test':>3} {'sacre s':>9} {'ours s':>9} {'ratio':>7} {'sacre MB':>9} {'ours MB':>9} {'ratio':>7}")
    wmt17 = DATA / "sacrebleu-wmt17-en-de"
    if wmt17.is_dir():
        for test in ("bs", "ar"):
            compare("wmt17 en-de 3,004 lines, sys1 vs sys2", wmt17 / "ref1.txt", wmt17 / "sys1.txt",
                    wmt17 / "sys2.txt", test, True)
            in_process(wmt17 / "ref1.txt", wmt17 / "sys1.txt", wmt17 / "sys2.txt", test)
        with tempfile.TemporaryDirectory() as tmp:  # 17k x 2, real lines: WMT17's shuffled and repeated to size
            (a, b), ref17k = wmt17_systems(Path(tmp), 17_000, k=2)
            for test in ("bs", "ar"):
                compare("wmt17 en-de lines, 17,000, sys1 vs sys2", ref17k, a, b, test, True)
    with tempfile.TemporaryDirectory() as tmp:
        hyp, ref = synthetic(Path(tmp), 100_000)
        other = Path(tmp) / "hyp-b.txt"
        # A second system: the first with every fifth line replaced by the reference (a clear winner).
        hyp_lines = hyp.read_text(encoding="utf-8").split("\n")
        ref_lines = ref.read_text(encoding="utf-8").split("\n")
        other.write_text("\n".join(r if i % 5 == 0 else h for i, (h, r) in enumerate(zip(hyp_lines, ref_lines))),
                         encoding="utf-8")
        for test in ("bs", "ar"):
            compare("synthetic 100,000 lines", ref, hyp, other, test, args.big_anchor)


if __name__ == "__main__":
    main()
