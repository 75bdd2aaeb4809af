"""Benchmark structured inputs and slices, each beside its anchor in the same run.

    python scripts/bench_formats.py            # median of 5, interleaved

1. A WMT XML ``.all.xml`` scored for every system against all its references:
   ``bleu-score FILE.xml -f json`` (one command) against sacreBLEU's own reading
   of the file (``WMTXMLDataset._unwrap_wmt21_or_later``) plus ``sacrebleu``'s
   scoring of the same systems, also as one command. Scores are checked equal.
2. The window: from File ▸ Open of the ``.all.xml`` to the first results shown
   (offscreen Qt), and to the whole run with every paired test.
3. A slice re-scored (corpus BLEU and both paired tests, 1,000 resamples and
   10,000 trials, two systems, 3,000 segments) — the work the window's worker
   does — beside sacreBLEU's paired tests on the same lines.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
FORMATS = DATA / "formats"
BIN = Path(sys.executable).parent
XML_SETS = ["wmt-xml-wmt22-en-zh/wmttest2022.en-zh.all.xml", "wmt-xml-wmt21-ru-en/newstest2021.ru-en.all.xml"]

SACRE_SCRIPT = """
import json, sys
from sacrebleu.dataset.wmt_xml import WMTXMLDataset
from sacrebleu.dataset.base import Dataset
from sacrebleu.metrics import BLEU
fields = WMTXMLDataset._unwrap_wmt21_or_later(sys.argv[1])
clean = {k: [Dataset._clean(x) for x in v] for k, v in fields.items() if k not in ("docid", "origlang", "domain")}
refs = [clean[k] for k in sorted(clean) if k.startswith("ref")]
systems = [k for k in clean if k != "src" and not k.startswith("ref")]
# The target language the file declares picks the tokenizer, as `sacrebleu -l en-zh` does (and as we do).
target = sys.argv[1].rsplit(".", 3)[-3].split("-")[1]
out = [{"system": name, "score": BLEU(trg_lang=target).corpus_score(clean[name], refs).score} for name in systems]
print(json.dumps(out))
"""


def timed(cmd: list[str]) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t0, json.loads(out)


def xml_commands(path: Path, repeats: int) -> None:
    ours_cmd = [str(BIN / "bleu-score"), str(path), "-f", "json"]
    theirs_cmd = [sys.executable, "-c", SACRE_SCRIPT, str(path)]
    ours_t, theirs_t = [], []
    for _ in range(repeats):  # interleaved, so both see the same machine state
        t, ours = timed(ours_cmd)
        ours_t.append(t)
        t, theirs = timed(theirs_cmd)
        theirs_t.append(t)
    mine = {r["system"]: r["score"] for r in ours}
    same = all(abs(mine[r["system"]] - r["score"]) < 1e-9 for r in theirs) and len(mine) == len(theirs)
    o, s = statistics.median(ours_t), statistics.median(theirs_t)
    print(f"{path.name:<36} {len(mine):>3} systems  sacreBLEU {s:6.2f} s  ours {o:6.2f} s  ratio {o / s:.3f}  "
          f"scores {'identical' if same else 'DIFFER'}")


def window_first_results(path: Path, repeats: int) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from bleu_gui.gui.shell.main_window import MainWindow
    from bleu_gui.gui.shell.settings import Settings

    app = QApplication.instance() or QApplication([])
    firsts, times = [], []
    scratch = tempfile.TemporaryDirectory()  # fresh settings files, removed at exit
    for k in range(repeats):
        settings = Settings(QSettings(os.path.join(scratch.name, f"b{k}.ini"), QSettings.Format.IniFormat))
        window = MainWindow(settings)
        window.show()
        loop = QEventLoop()
        window.run_changed.connect(loop.quit)
        shown: list[float] = []  # BLEU's numbers reach the screen before the paired tests are done
        window.controller.run_changed.connect(lambda at=shown: at.append(time.perf_counter()))
        t0 = time.perf_counter()
        window.run_actions.open_files([], [path])
        QTimer.singleShot(120_000, loop.quit)
        loop.exec()
        app.processEvents()
        times.append(time.perf_counter() - t0)
        firsts.append(shown[0] - t0)
        n = len(window.controller.run.systems) if window.controller.run else 0
        window.close()
    print(f"window: {path.name} opened, {n} systems shown: first results {statistics.median(firsts):.2f} s "
          f"(target < 2 s), with every paired test {statistics.median(times):.2f} s (median of {repeats})")


def slice_rescore(repeats: int) -> None:
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    from bleu_gui.core import BleuConfig, RunConfig, Significance, score_run
    from bleu_gui.core.inputs.text_files import read_segments
    from bleu_gui.core.run import subset_run

    folder = DATA / "sacrebleu-wmt17-en-de"
    ref = folder / "ref1.txt"
    systems = [folder / "sys1.txt", folder / "sys2.txt"]
    doubled = []
    scratch = tempfile.TemporaryDirectory()  # the doubled files, removed at exit
    tmp = Path(scratch.name)
    for p in [*systems, ref]:  # 6,008 lines: the slice is the first 3,004
        lines = read_segments(p).lines
        out = tmp / p.name
        out.write_text("\n".join(lines + lines[::-1]) + "\n", encoding="utf-8")
        doubled.append(read_segments(out))
    whole = score_run(doubled[:2], doubled[2:], RunConfig((BleuConfig(),), significance=Significance(1000, 10000)))
    n = len(read_segments(ref).lines)
    rows = list(range(n))
    ours_t, theirs_t = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        part = subset_run(whole, rows, "first half")
        ours_t.append(time.perf_counter() - t0)
        hyps = [[f.lines[i] for i in rows] for f in doubled[:2]]
        refs = [[doubled[2].lines[i] for i in rows]]
        t0 = time.perf_counter()
        for test, k in (("bs", 1000), ("ar", 10000)):
            PairedTest([("a", hyps[0]), ("b", hyps[1])], {"BLEU": BLEU(references=refs)}, references=None,
                       test_type=test, n_samples=k)()
        theirs_t.append(time.perf_counter() - t0)
    assert part.comparison is not None and part.comparison.by_metric[0].approximate is not None
    o, s = statistics.median(ours_t), statistics.median(theirs_t)
    print(f"slice re-score, {n:,} of {whole.n_sentences:,} segments, 2 systems, BLEU + bootstrap 1,000 + AR 10,000: "
          f"ours {o:.2f} s, sacreBLEU's paired tests on the same lines {s:.2f} s, ratio {o / s:.3f} "
          f"(target < 0.5 s)")


def main() -> int:
    if not FORMATS.is_dir():
        print(f"no data at {FORMATS}; nothing to measure")
        return 0
    repeats = 5
    print("== WMT XML: every system against all references, whole commands ==")
    for name in XML_SETS:
        xml_commands(FORMATS / name, repeats)
    print("== window ==")
    window_first_results(FORMATS / XML_SETS[0], repeats)
    print("== slices ==")
    slice_rescore(repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
