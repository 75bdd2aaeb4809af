"""Benchmark: chrF and TER, whole commands side by side with sacreBLEU on the same files, on every shared set.

Every set of ``../shared/data`` with two or more systems (plain text: WMT17 en-de — its first 1,671 lines, nine
systems —, WMT21 en-de with three references, WMT22 en-zh and zh-en with two, en-ja, ja-en, en-cs; WMT XML: WMT21
ru-en and WMT22 en-zh, their text as sacreBLEU's own XML reader gives it): ``bleu-score REF.. -i SYS.. -m ter -f
json`` against ``sacrebleu REF.. -i SYS.. -m ter -f json`` (and the same with chrF, and chrF++). Each run is a whole
command in a fresh process (start, imports, reading, scoring, printing); runs alternate and the median is printed with
the ratio, then the worst ratio of each metric over the sets. Every row checks that the two commands print the same
scores. The character edit distance, which sacreBLEU lacks, runs on WMT17 en-de against the script a user would
write: read the files, rapidfuzz's ``Levenshtein.distance`` segment by segment, sum.

    python scripts/bench_metrics.py [--runs 3] [--sets en-de ...] [--lines 1671]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
BIN = Path(sys.executable).parent
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
METRICS = (("TER", ["-m", "ter"]), ("chrF2", ["-m", "chrf"]), ("chrF2++", ["-m", "chrf", "--chrf-word-order", "2"]))


@dataclass(frozen=True)
class Set:
    label: str
    where: str   # a folder of ref*.txt and sys*.txt, or a WMT XML file, under ../shared/data
    lines: int | None = None


SETS = [Set("en-de", "sacrebleu-wmt17-en-de", 1671), Set("en-de 3 refs", "wmt21-en-de-3ref"),
        Set("en-zh 2 refs", "wmt22-en-zh-2ref"), Set("zh-en 2 refs", "wmt22-zh-en-2ref"), Set("en-ja", "wmt22-en-ja"),
        Set("ja-en", "wmt22-ja-en"), Set("en-cs", "mtce-en-cs-medium"),
        Set("ru-en XML", "formats/wmt-xml-wmt21-ru-en/newstest2021.ru-en.all.xml"),
        Set("en-zh XML", "formats/wmt-xml-wmt22-en-zh/wmttest2022.en-zh.all.xml")]


def _lines(path: Path, lines: int | None) -> list[str]:
    """A file's lines as both commands read them. WMT17's sys6.txt starts with a byte order mark, which bleu-score
    removes (and says so) and sacreBLEU keeps as a character of the first line: the copies are written without it."""
    return path.read_text(encoding="utf-8-sig").splitlines()[:lines]


def prepare(chosen: Set, folder: Path) -> tuple[list[Path], list[Path]]:
    """The set's references and systems as plain text files in ``folder``."""
    source = SHARED / chosen.where
    if source.suffix == ".xml":
        from sacrebleu.dataset.base import Dataset
        from sacrebleu.dataset.wmt_xml import WMTXMLDataset

        fields = WMTXMLDataset._unwrap_wmt21_or_later(str(source))
        texts = {k: [Dataset._clean(x) for x in v] for k, v in fields.items()
                 if k not in ("docid", "origlang", "domain", "src")}
    else:
        texts = {p.stem: _lines(p, chosen.lines) for p in sorted(source.glob("*.txt"))
                 if p.stem.startswith(("ref", "sys"))}
    refs, systems = [], []
    for name, lines in texts.items():
        out = folder / f"{name.replace(' ', '_')}.txt"
        out.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        (refs if name.startswith("ref") else systems).append(out)
    return refs, systems


def timed(command: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=_ENV)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])}... failed:\n{done.stderr[-2000:]}")
    return elapsed, done.stdout


# The anchor of the edit distance: the plain loop a user would write with rapidfuzz, one JSON score per system.
EDIT_SCRIPT = """
import json, sys
from rapidfuzz.distance import Levenshtein
ref = open(sys.argv[1], encoding="utf-8").read().splitlines()
out = []
for path in sys.argv[2:]:
    hyp = open(path, encoding="utf-8").read().splitlines()
    edits = sum(Levenshtein.distance(h, r) for h, r in zip(hyp, ref))
    out.append({"system": path, "edit": edits / sum(len(r) for r in ref) * 100})
print(json.dumps(out))
"""


def scores(output: str, ours: bool) -> list[float]:
    data = json.loads(output)
    if ours:
        return [float(o["score"]) for o in (data if isinstance(data, list) else [data])]
    # sacreBLEU's JSON for several systems: a list of {"system": ..., "<metric>": "<score, -w decimals>"}.
    return [float(next(v for k, v in row.items() if k != "system")) for row in data]


def compare(refs: list[Path], systems: list[Path], label: str, flags: list[str], runs: int) -> float:
    """One metric on one set: the two commands' medians, their ratio and whether the scores agree."""
    files = [str(s) for s in systems]
    ours_cmd = [str(BIN / "bleu-score"), *map(str, refs), "-i", *files, *flags, "-f", "json"]
    theirs_cmd = ([sys.executable, "-c", EDIT_SCRIPT, str(refs[0]), *files] if label == "edit" else
                  [str(BIN / "sacrebleu"), *map(str, refs), "-i", *files, *flags, "-f", "json", "-w", "9"])
    ours_t, theirs_t = [], []
    ours_out = theirs_out = ""
    for _ in range(runs):
        t, ours_out = timed(ours_cmd)
        ours_t.append(t)
        t, theirs_out = timed(theirs_cmd)
        theirs_t.append(t)
    a, b = scores(ours_out, True), scores(theirs_out, False)
    same = all(abs(x - y) < 1e-6 for x, y in zip(a, b)) and len(a) == len(b)
    mo, mt = statistics.median(ours_t), statistics.median(theirs_t)
    print(f"  {label:<10}{mo:>9.2f}s{mt:>10.2f}s{mo / mt:>8.2f}  {'identical' if same else 'DIFFER'}", flush=True)
    if not same:
        raise SystemExit(f"  ours   {a}\n  theirs {b}")
    return mo / mt


def start_up(runs: int) -> None:
    """What every command pays before its work: ``--help`` of both, and both scoring three short lines with chrF —
    the floor under every ratio above (on small sets it is most of the time)."""
    with tempfile.TemporaryDirectory() as tmp:
        ref, hyp = Path(tmp) / "ref.txt", Path(tmp) / "hyp.txt"
        ref.write_text("a cat sat\non the mat\nhere\n", encoding="utf-8")
        hyp.write_text("a cat sits\non a mat\nthere\n", encoding="utf-8")
        rows = (("--help", ["--help"], ["--help"]),
                ("3 lines -m chrf", [str(ref), "-i", str(hyp), "-m", "chrf"], [str(ref), "-i", str(hyp), "-m", "chrf"]))
        for label, ours_args, theirs_args in rows:
            ours_t, theirs_t = [], []
            for _ in range(max(runs, 5)):
                ours_t.append(timed([str(BIN / "bleu-score"), *ours_args])[0])
                theirs_t.append(timed([str(BIN / "sacrebleu"), *theirs_args])[0])
            mo, mt = statistics.median(ours_t), statistics.median(theirs_t)
            print(f"start-up, {label:<16} bleu-score {mo:5.2f} s  sacrebleu {mt:5.2f} s  ratio {mo / mt:.2f}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--sets", nargs="+", metavar="LABEL", help="only these sets (their labels' first word: en-de ...)")
    args = p.parse_args()
    chosen = [s for s in SETS if args.sets is None or s.label.split()[0] in args.sets or s.label in args.sets]
    worst: dict[str, tuple[float, str]] = {}
    print(f"whole commands, median of {args.runs}; ratio = bleu-score / anchor (sacrebleu; edit: a rapidfuzz loop)")
    for one in chosen:
        if not (SHARED / one.where).exists():
            print(f"{one.label}: skipped, {SHARED / one.where} is not here")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            refs, systems = prepare(one, Path(tmp))
            n = len(refs[0].read_text(encoding="utf-8").splitlines())
            print(f"{one.label}: {len(systems)} systems x {n:,} lines, {len(refs)} reference(s)  ({one.where})")
            print(f"  {'metric':<10}{'ours':>10}{'anchor':>11}{'ratio':>8}  scores")
            for label, flags in METRICS:
                ratio = compare(refs, systems, label, flags, args.runs)
                if ratio > worst.get(label, (0.0, ""))[0]:
                    worst[label] = (ratio, one.label)
            if one is SETS[0]:
                compare(refs, systems, "edit", ["-m", "edit"], args.runs)
                edit_alone(refs[0], systems, args.runs)
    print("worst ratio per metric: " + ", ".join(f"{k} {r:.2f} ({where})" for k, (r, where) in worst.items()))
    start_up(args.runs)
    return 0


def edit_alone(ref: Path, systems: list[Path], runs: int) -> None:
    """The edit distance's scoring alone, in this process: our statistics (rapidfuzz's ``cpdist`` over blocks, the
    closest reference) against the loop the anchor runs. A whole command spends most of its time elsewhere:
    starting, reading, and the check that each system's lines are aligned with the references."""
    from rapidfuzz.distance import Levenshtein

    from bleu_gui.core.metrics.edit.edit import EditDistance

    refs = ref.read_text(encoding="utf-8").splitlines()
    hyps = [s.read_text(encoding="utf-8").splitlines() for s in systems]
    ours, theirs = [], []
    for _ in range(runs):
        start = time.perf_counter()
        metric = EditDistance([refs])
        edits_ours = [int(metric.statistics(h)[:, 0].sum()) for h in hyps]
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        edits_theirs = [sum(Levenshtein.distance(a, b) for a, b in zip(h, refs)) for h in hyps]
        theirs.append(time.perf_counter() - start)
    mo, mt = statistics.median(ours), statistics.median(theirs)
    print(f"  {'edit alone':<10}{mo:>9.3f}s{mt:>10.3f}s{mo / mt:>8.2f}  "
          f"{'identical' if edits_ours == edits_theirs else 'DIFFER'}  (scoring only, in one process)")


if __name__ == "__main__":
    sys.exit(main())
