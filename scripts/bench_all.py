"""Run every benchmark, each side by side with its anchor (sacreBLEU, bleuscore, compare-mt, Google's MQM scoring —
as each script says), and write what they print into docs/performance.md between its ``bench_all`` markers, under
the machine they ran on (CPU, cores, memory, Python, sacreBLEU, date). Run it before and after a change that could
move a number; the tests time nothing.

    python scripts/bench_all.py                 # the quick set (a few minutes)
    python scripts/bench_all.py --full          # also 1M lines, the window's stalls and sacreBLEU on 100k pairs
    python scripts/bench_all.py --only bench_mqm bench_streaming
    python scripts/bench_all.py --print         # print, do not write the page
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "performance.md"
START, END = "<!-- bench_all:start -->", "<!-- bench_all:end -->"

# (script, quick arguments, full arguments)
BENCHMARKS = [
    ("bench_core", [], ["--million"]),
    ("bench_metrics", ["--runs", "1"], ["--runs", "3"]),
    ("bench_scores", ["--runs", "3"], ["--runs", "5"]),
    ("bench_mqm", ["--runs", "5"], ["--runs", "5"]),
    ("bench_streaming", ["--runs", "1"], ["--runs", "3"]),
    ("bench_formats", [], []),
    ("bench_explain", [], []),
    ("bench_compare", [], ["--big-anchor"]),
    ("bench_cancel", [], []),
    ("bench_gui", ["--matrix"], ["--million"]),
    ("bench_questions", ["--runs", "1"], ["--runs", "3"]),
]


def machine() -> str:
    """One line naming the machine and the software the numbers come from."""
    cpu = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        names = [line.split(":", 1)[1].strip() for line in cpuinfo.read_text().splitlines()
                 if line.startswith("model name")]
        cpu = names[0] if names else cpu
    memory = ""
    meminfo = Path("/proc/meminfo")
    if meminfo.is_file():
        kb = int(meminfo.read_text().split()[1])
        memory = f", {kb / 1024 / 1024:.1f} GB"
    import sacrebleu

    return (f"{datetime.date.today().isoformat()} · {cpu}, {os.cpu_count()} cores{memory} · {platform.system()} · "
            f"Python {platform.python_version()} · sacreBLEU {sacrebleu.__version__}")


def run_one(name: str, args: list[str]) -> tuple[str, float, int]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / f"{name}.py"), *args], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    lines = [line for line in done.stdout.splitlines() if "propagateSizeHints" not in line]
    if done.returncode:
        lines += ["(failed)", *done.stderr.strip().splitlines()[-5:]]
    return "\n".join(lines), time.perf_counter() - start, done.returncode


def page_section(head: str, results: list[tuple[str, list[str], str]]) -> str:
    parts = [START, "", f"Last run of `python scripts/bench_all.py`: {head}.", ""]
    for name, args, text in results:
        parts += [f"`python scripts/{name}.py {' '.join(args)}`".replace(" `", "`"), "", "```", text.strip(), "```",
                  ""]
    return "\n".join([*parts, END])


def merged(head: str, results: list[tuple[str, list[str], str]]) -> str:
    """The page's section with ``results`` in place of those benchmarks' blocks, every other block kept (``--only``):
    the heading names what ran again, and when."""
    text = PAGE.read_text(encoding="utf-8")
    if START not in text or END not in text:
        return page_section(head, results)
    old = text.split(START, 1)[1].split(END, 1)[0]
    blocks = re.findall(r"`python scripts/(\w+)\.py([^`]*)`\n\n```\n(.*?)\n```", old, re.S)
    fresh = {name: (args, body) for name, args, body in results}
    kept = [(name, fresh[name][0], fresh[name][1]) if name in fresh else (name, args.split(), body)
            for name, args, body in blocks]
    kept += [r for r in results if r[0] not in {b[0] for b in blocks}]
    first = re.search(r"Last run of `python scripts/bench_all.py`: ([^\n]*?)\.\n", old)
    was = first.group(1).split("; again")[0] if first else head
    return page_section(f"{was}; again {head.split(' · ')[0]}: {', '.join(fresh)}", kept)


def write_page(section: str) -> None:
    text = PAGE.read_text(encoding="utf-8")
    if START in text and END in text:
        before, rest = text.split(START, 1)
        after = rest.split(END, 1)[1]
        text = before + section + after
    else:
        text = text.rstrip("\n") + "\n\n## Every benchmark, last run\n\n" + section + "\n"
    tmp = PAGE.with_suffix(".md.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(PAGE)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--full", action="store_true")
    p.add_argument("--only", nargs="+", metavar="NAME", choices=[b[0] for b in BENCHMARKS])
    p.add_argument("--print", action="store_true", dest="print_only")
    args = p.parse_args()
    head = machine()
    print(head)
    results, failed = [], 0
    for name, quick, full in BENCHMARKS:
        if args.only and name not in args.only:
            continue
        chosen = full if args.full else quick
        text, seconds, code = run_one(name, chosen)
        failed += code != 0
        print(f"\n== {name} {' '.join(chosen)} ({seconds:.0f} s)\n{text}", flush=True)
        results.append((name, chosen, text))
    if not args.print_only:
        write_page(merged(head, results) if args.only else page_section(head, results))
        print(f"\nwrote {PAGE.relative_to(ROOT)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
