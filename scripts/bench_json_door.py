"""Benchmark the one door for untrusted JSON beside its anchor, the standard library's parser, in the same run.

    python scripts/bench_json_door.py            # median of 5, interleaved

1. WMT24's ESA release as WMT wrote it (``../shared/data/esa-wmt24-en-zh-en-hi``: 11,624 lines of one rating each,
   and the per-segment layout's 931 lines): every line parsed by ``json.loads`` (nothing checked) and through the
   door (duplicate keys, numbers, depth, surrogates checked); the objects are checked equal.
2. The same release read by ``--annotations`` end to end (the WMT reader over the door) beside ``json.loads`` of
   the same lines: what the checks cost a user opening the file.
"""

from __future__ import annotations

import functools
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data" / "esa-wmt24-en-zh-en-hi"
FILES = ["wmt24_esa.jsonl", "wmt24-genmt-humeval.jsonl"]


def _median(work, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def _plain(lines: list[str]) -> list[object]:
    return [json.loads(line) for line in lines]


def _through_the_door(text: str, name: str) -> list[object]:
    from bleu_gui.core.inputs.untrusted_json import json_lines

    return list(json_lines(text, name))


def main() -> None:
    from bleu_gui.core.inputs.span_ratings import read_span_ratings
    from bleu_gui.core.inputs.untrusted_json import json_lines

    if not DATA.is_dir():
        print(f"skipped: {DATA} is not here (the shared data sets)")
        return
    print(f"{'file':<28} {'json.loads':>11} {'the door':>10} {'ratio':>7}")
    for name in FILES:
        text = (DATA / name).read_text(encoding="utf-8")
        lines = [line for line in text.split("\n") if line.strip()]
        plain = [json.loads(line) for line in lines]
        assert [obj for _n, obj in json_lines(text, name)] == plain  # the same objects
        anchor = _median(functools.partial(_plain, lines))
        door = _median(functools.partial(_through_the_door, text, name))
        print(f"{name:<28} {anchor:>10.3f}s {door:>9.3f}s {door / anchor:>6.2f}×")
    path = DATA / FILES[0]
    text = path.read_text(encoding="utf-8")
    anchor = _median(lambda: [json.loads(line) for line in text.split("\n") if line.strip()])
    reader = _median(lambda: read_span_ratings(path))
    print(f"{'read_span_ratings, whole':<28} {anchor:>10.3f}s {reader:>9.3f}s {reader / anchor:>6.2f}×  (the reader "
          "over the door, beside json.loads alone)")


if __name__ == "__main__":
    main()
