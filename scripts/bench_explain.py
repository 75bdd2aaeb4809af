"""Benchmark the tokenizer × case table and the why-this-score account, each beside sacreBLEU in the same run.

    python scripts/bench_explain.py            # median of 3, interleaved

1. ``bleu-score REF -i SYS1 SYS2 SYS3 --tokenizer-table -f json`` on WMT22 en-ja (2,037 lines, 3 systems,
   7 tokenizers × cased/lowercased = 42 cells), one command, against one Python process that makes
   sacreBLEU compute the same 42 corpus scores. Scores are checked equal cell by cell.
2. The account of one sentence (details, statistics, explanation) over the first 500 sentences of the
   same set, per sentence, beside sacreBLEU's ``sentence_score`` of the same sentence (which explains
   nothing: it is the floor of what a sentence costs).
(What-if typing is measured in the window: ``python scripts/bench_gui.py --whatif``.)
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
BIN = Path(sys.executable).parent
SET = DATA / "wmt22-en-ja"

SACRE_SCRIPT = """
import json, sys
from sacrebleu.metrics import BLEU
ref, *systems = sys.argv[1:]
read = lambda p: open(p, encoding="utf-8").read().splitlines()
refs = [read(ref)]
out = []
for tok in ("13a", "intl", "char", "zh", "ja-mecab", "ko-mecab", "none"):
    for lc in (False, True):
        metric = BLEU(tokenize=tok, lowercase=lc)
        for name in systems:
            out.append({"tokenizer": tok, "lowercase": lc, "system": name.rsplit("/", 1)[-1],
                        "score": metric.corpus_score(read(name), refs).score})
print(json.dumps(out))
"""


def timed(cmd: list[str]) -> tuple[float, list]:
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t0, json.loads(out)


def table(repeats: int) -> None:
    files = [str(SET / "ref1.txt"), *(str(SET / f"sys{i}.txt") for i in (1, 2, 3))]
    ours_cmd = [str(BIN / "bleu-score"), files[0], "-i", *files[1:], "--tokenizer-table", "-f", "json"]
    theirs_cmd = [sys.executable, "-c", SACRE_SCRIPT, *files]
    ours_t, theirs_t = [], []
    for _ in range(repeats):
        t, ours = timed(ours_cmd)
        ours_t.append(t)
        t, theirs = timed(theirs_cmd)
        theirs_t.append(t)
    key = lambda r: (r["tokenizer"], r["lowercase"], r["system"])  # noqa: E731
    mine = {key(r): r["score"] for r in ours}
    same = all(abs(mine[key(r)] - r["score"]) < 1e-9 for r in theirs) and len(mine) == len(theirs)
    a, b = statistics.median(ours_t), statistics.median(theirs_t)
    print(f"tokenizer table, WMT22 en-ja 2,037 lines × 3 systems, {len(theirs)} cells: ours {a:.2f} s, "
          f"sacreBLEU {b:.2f} s, ratio {a / b:.2f} ({'same scores' if same else 'SCORES DIFFER'})")


def accounts(n: int = 500) -> None:
    from sacrebleu.metrics import BLEU

    from bleu_gui.core import BleuConfig
    from bleu_gui.core.analysis.whatif import scored_line
    from bleu_gui.core.inputs.text_files import read_segments
    from bleu_gui.core.run import RunConfig, bleu_lines, score_run

    system, ref = read_segments(SET / "sys1.txt"), read_segments(SET / "ref1.txt")
    run = score_run([system], [ref], RunConfig((BleuConfig(tokenizer="ja-mecab"),), significance=None, ngram_diffs=False))
    lines = bleu_lines(run, 0)
    t0 = time.perf_counter()
    for i in range(n):
        scored_line(lines, i).explanation.text()
    ours = (time.perf_counter() - t0) / n
    metric = BLEU(tokenize="ja-mecab", effective_order=True)
    t0 = time.perf_counter()
    for i in range(n):
        metric.sentence_score(system.lines[i], [ref.lines[i]])
    theirs = (time.perf_counter() - t0) / n
    print(f"why this score, one sentence (ja-mecab, {n} sentences): ours {ours * 1000:.2f} ms with the "
          f"explanation, sacreBLEU sentence_score {theirs * 1000:.2f} ms without one, ratio {ours / theirs:.2f}")


def main() -> None:
    if not SET.is_dir():
        print(f"{SET} is absent: nothing to measure")
        return
    table(3)
    accounts()


if __name__ == "__main__":
    main()
