"""Benchmark: whole scoring commands side by side on the same files, ours against sacreBLEU and bleuscore.

Every measurement is one whole command in a fresh process (interpreter start,
imports, reading the files, scoring, printing): ``bleu-score``, ``sacrebleu``
and, when it is installed (``pip install bleuscore``), a three-line script
around bleuscore's ``compute`` (Rust, 13a, closest reference length). Runs are
interleaved (ours, sacreBLEU, bleuscore, ours, ...) and the median is printed;
peak memory is the command's max RSS. Every row checks that the scores agree.

    python scripts/bench_core.py              # 3k real lines, 100k real lines, AR 10,000 trials (5 runs)
    python scripts/bench_core.py --million    # also 1M real lines and 1M lines of large vocabulary (3 runs)

"Real" corpora are the (system line, first reference line) pairs of the shared
WMT/TED sets with a Latin-script target, shuffled with a fixed seed and
repeated to size. The large vocabulary draws words from a Zipf law over three
million word types, some with punctuation attached.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
BIN = Path(sys.executable).parent
# Sets whose target is written with spaces between words (13a is their tokenizer).
REAL_SETS = ("sacrebleu-wmt17-en-de", "cmt-ted-sk-en-detok", "mtce-en-cs-medium", "wmt21-en-de-3ref",
             "wmt22-zh-en-2ref", "wmt22-ja-en")
SACRE_TIMEOUT = 300.0  # seconds: sacreBLEU on a million lines is stopped here and reported as "> 300 s"
BLEUSCORE = """import sys, bleuscore
refs = open(sys.argv[1], encoding="utf-8").read().splitlines()
hyps = open(sys.argv[2], encoding="utf-8").read().splitlines()
print(100 * bleuscore.compute([[r] for r in refs], hyps, 4, False, "sacrebleu")["bleu"])
"""


def has_bleuscore() -> bool:
    try:
        import bleuscore  # noqa: F401
    except ImportError:
        return False
    return True


# Commands run as on a user's machine: modules are byte-compiled once and the bytecode reused (a sandbox that sets
# PYTHONDONTWRITEBYTECODE would make every start of an editable install compile our modules again).
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


@dataclass
class Measure:
    seconds: float
    peak_mb: float
    score: float | None  # None when the command was stopped at its time limit


def _score(out: str) -> float:
    text = out.strip()
    if text.startswith("{") or text.startswith("["):
        data = json.loads(text)
        data = data[0] if isinstance(data, list) else data
        return float(data["score"])
    return float(text.splitlines()[-1])


def timed(cmd: list[str], timeout: float | None = None) -> Measure:
    """Wall time, peak memory (the child's own max RSS, from os.wait4) and printed score of one command;
    a command still running after ``timeout`` seconds is stopped and has no score."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_ENV)
    try:
        out, err = _communicate(proc, timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        os.wait4(proc.pid, 0)
        return Measure(time.perf_counter() - t0, float("nan"), None)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    if status != 0:
        raise SystemExit(f"command failed: {' '.join(cmd)}\n{err}")
    return Measure(seconds, usage.ru_maxrss / 1024, _score(out))


def _communicate(proc: subprocess.Popen, timeout: float | None) -> tuple[str, str]:
    """Read both pipes to the end without reaping the child (so os.wait4 can read its rusage)."""
    chunks: dict[str, str] = {}

    def drain(name: str, stream) -> None:
        chunks[name] = stream.read()

    readers = [threading.Thread(target=drain, args=(n, s)) for n, s in (("out", proc.stdout), ("err", proc.stderr))]
    for r in readers:
        r.start()
    deadline = None if timeout is None else time.perf_counter() + timeout
    for r in readers:
        r.join(None if deadline is None else max(deadline - time.perf_counter(), 0))
        if r.is_alive():
            raise subprocess.TimeoutExpired(proc.args, timeout or 0)
    return chunks["out"], chunks["err"]


# -- commands ---------------------------------------------------------------
def ours(hyps: list[Path], refs: list[Path], *extra: str) -> list[str]:
    return [str(BIN / "bleu-score"), *map(str, refs), "-i", *map(str, hyps), "-f", "json", *extra]


def sacre(hyps: list[Path], refs: list[Path]) -> list[str]:
    return [str(BIN / "sacrebleu"), *map(str, refs), "-i", *map(str, hyps), "-f", "json", "-w", "4"]


def rust(hyp: Path, ref: Path) -> list[str]:
    return [sys.executable, "-c", BLEUSCORE, str(ref), str(hyp)]


# -- corpora ----------------------------------------------------------------
def _pairs() -> tuple[list[str], list[str]]:
    hyps, refs = [], []
    for name in REAL_SETS:
        folder = DATA / name
        if not folder.is_dir():
            continue
        ref = (folder / "ref1.txt").read_text(encoding="utf-8").splitlines()
        for sys_file in sorted(folder.glob("sys*.txt")):
            lines = sys_file.read_text(encoding="utf-8").splitlines()
            hyps.extend(lines)
            refs.extend(ref)
    return hyps, refs


def real(folder: Path, n_lines: int, seed: int = 1) -> tuple[Path, Path]:
    """``n_lines`` real (system, reference) line pairs, shuffled with a fixed seed and repeated to size."""
    hyps, refs = _pairs()
    if not hyps:
        raise SystemExit(f"no shared data under {DATA}")
    order = np.random.default_rng(seed).permutation(len(hyps))
    picks = np.resize(order, n_lines)
    hyp_path, ref_path = folder / f"real-hyp-{n_lines}.txt", folder / f"real-ref-{n_lines}.txt"
    hyp_path.write_text("".join(hyps[i] + "\n" for i in picks), encoding="utf-8")
    ref_path.write_text("".join(refs[i] + "\n" for i in picks), encoding="utf-8")
    return hyp_path, ref_path


def wmt17_systems(folder: Path, n_lines: int, k: int = 4, seed: int = 1) -> tuple[list[Path], Path]:
    """The first ``k`` WMT17 en-de systems and the reference, the same shuffled lines repeated to size."""
    src = DATA / "sacrebleu-wmt17-en-de"
    ref = (src / "ref1.txt").read_text(encoding="utf-8").splitlines()
    picks = np.resize(np.random.default_rng(seed).permutation(len(ref)), n_lines)
    out = []
    for name in ["ref1.txt"] + [f"sys{i}.txt" for i in range(1, k + 1)]:
        lines = (src / name).read_text(encoding="utf-8").splitlines()
        path = folder / f"wmt17-{n_lines}-{name}"
        path.write_text("".join(lines[i] + "\n" for i in picks), encoding="utf-8")
        out.append(path)
    return out[1:], out[0]


def synthetic(folder: Path, n_lines: int, seed: int = 1) -> tuple[Path, Path]:
    """A reference and a noisy system output: Zipf vocabulary, ~25 tokens a line, punctuation."""
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


def large_vocabulary(folder: Path, n_lines: int, types: int = 3_000_000, seed: int = 1) -> tuple[Path, Path]:
    """A reference and a noisy system output whose words follow Zipf's law (exponent 1) over ``types`` words.

    Words are letter strings; one in ten carries a comma, full stop or apostrophe-s, as real text does,
    so the tokenizer sees non-alphanumeric words too. A third of the system's words are replaced.
    """
    rng = np.random.default_rng(seed)
    cdf = np.cumsum(1.0 / np.arange(1, types + 1))
    cdf /= cdf[-1]
    letters = np.array(list("etaoinshrdlucmfwypvbgkjqxz"))
    suffixes = np.array(["", "", "", "", "", "", "", ",", ".", "'s"])

    def words(ranks: np.ndarray) -> np.ndarray:
        out = np.full(len(ranks), "", dtype=object)
        rest = ranks + 1
        while rest.any():
            live = rest > 0
            out[live] = out[live] + letters[(rest[live] - 1) % 26].astype(object)
            rest = np.where(live, (rest - 1) // 26, 0)
        return out + suffixes[rng.integers(0, len(suffixes), len(ranks))].astype(object)

    hyp_path, ref_path = folder / f"zipf-hyp-{n_lines}.txt", folder / f"zipf-ref-{n_lines}.txt"
    with ref_path.open("w", encoding="utf-8") as rf, hyp_path.open("w", encoding="utf-8") as hf:
        for start in range(0, n_lines, 50_000):
            n = min(50_000, n_lines - start)
            lengths = rng.integers(10, 41, n)
            total = int(lengths.sum())
            ref_words = words(np.searchsorted(cdf, rng.random(total)))
            noise = words(np.searchsorted(cdf, rng.random(total)))
            hyp_words = np.where(rng.random(total) < 0.33, noise, ref_words)
            ends = np.cumsum(lengths)
            for a, b in zip(ends - lengths, ends):
                rf.write(" ".join(ref_words[a:b]) + "\n")
                hf.write(" ".join(hyp_words[a:b]) + "\n")
    return hyp_path, ref_path


# -- rows -------------------------------------------------------------------
def _median(ms: list[Measure]) -> tuple[float, float]:
    return statistics.median(m.seconds for m in ms), statistics.median(m.peak_mb for m in ms)


def row(label: str, commands: dict[str, list[str]], runs: int, once: dict[str, float] | None = None) -> None:
    """Run every command ``runs`` times interleaved; print medians, the ratios to each anchor, and check scores.

    ``once``: anchors run a single time with this time limit (sacreBLEU on a million lines).
    """
    results: dict[str, list[Measure]] = {name: [] for name in commands}
    for k in range(runs):
        for name, cmd in commands.items():
            if once and name in once and k:
                continue
            results[name].append(timed(cmd, once.get(name) if once else None))
    t_ours, mb_ours = _median(results["ours"])
    score = results["ours"][0].score
    cells = [f"{label:<44} ours {t_ours:7.2f} s {mb_ours:6.0f} MB"]
    for name in commands:
        if name == "ours":
            continue
        measures = results[name]
        if measures[0].score is None:
            cells.append(f"| {name} > {measures[0].seconds:.0f} s (stopped)")
            continue
        t, mb = _median(measures)
        same = all(m.score is not None and abs(m.score - round(score, 4 if name == "sacreBLEU" else 9)) < 1e-6
                   for m in measures)
        cells.append(f"| {name} {t:7.2f} s {mb:6.0f} MB ratio {t_ours / t:5.2f} time {mb_ours / mb:5.2f} memory"
                     f"{'' if same else f' SCORES DIFFER ({measures[0].score} vs {score})'}")
    print(" ".join(cells), flush=True)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--million", action="store_true", help="also 1,000,000 real lines and 1,000,000 large-vocabulary")
    p.add_argument("--runs", type=int, default=5, help="runs per command at 3k and 100k (median printed)")
    p.add_argument("--million-runs", type=int, default=3, help="runs per command at 1M")
    p.add_argument("--only", choices=["3k", "100k", "ar", "1m", "vocab"], nargs="+", help="just these rows")
    args = p.parse_args()
    rows = set(args.only or ["3k", "100k", "ar"] + (["1m", "vocab"] if args.million else []))
    rust_ok = has_bleuscore()
    if not rust_ok:
        print("bleuscore is not installed (pip install bleuscore): its column is left out", file=sys.stderr)

    def anchors(hyp: Path, ref: Path, with_sacre: bool = True) -> dict[str, list[str]]:
        cmds = {"ours": ours([hyp], [ref])}
        if with_sacre:
            cmds["sacreBLEU"] = sacre([hyp], [ref])
        if rust_ok:
            cmds["bleuscore"] = rust(hyp, ref)
        return cmds

    wmt17 = DATA / "sacrebleu-wmt17-en-de"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if "3k" in rows and wmt17.is_dir():
            row("wmt17 en-de 3,004 lines, 1 ref", anchors(wmt17 / "sys1.txt", wmt17 / "ref1.txt"), args.runs)
            four = [wmt17 / "ref1.txt", wmt17 / "sys2.txt", wmt17 / "sys3.txt", wmt17 / "sys4.txt"]
            row("wmt17 en-de 3,004 lines, 4 refs", {"ours": ours([wmt17 / "sys1.txt"], four),
                                                     "sacreBLEU": sacre([wmt17 / "sys1.txt"], four)}, args.runs)
        if "100k" in rows:
            hyp, ref = real(folder, 100_000)
            row("real 100,000 lines, 1 ref", anchors(hyp, ref), args.runs)
        if "ar" in rows and wmt17.is_dir():
            systems, ref = wmt17_systems(folder, 100_000)
            row("AR 10,000 trials, 100,000 lines, 4 systems", {"ours": ours(systems, [ref], "--paired-ar")},
                args.runs)
        if "1m" in rows:
            hyp, ref = real(folder, 1_000_000)
            row("real 1,000,000 lines, 1 ref", anchors(hyp, ref), args.million_runs, once={"sacreBLEU": SACRE_TIMEOUT})
        if "vocab" in rows:
            hyp, ref = large_vocabulary(folder, 1_000_000)
            row("large vocabulary 1,000,000 lines (Zipf, 3M types)", anchors(hyp, ref, with_sacre=False),
                args.million_runs)


if __name__ == "__main__":
    main()
