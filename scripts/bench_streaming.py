"""Benchmark: how soon the window shows numbers when several metrics are asked for, beside the command.

A WMT XML file with every system and reference (default: WMT22 en-zh, 15 systems, and WMT21 ru-en, from ../shared/data) opened in
the window (offscreen, a fresh settings file) with BLEU, chrF and TER: the time to the first numbers on screen
(BLEU's, while chrF, TER and the paired tests are computed), to each further metric, and to the whole run,
beside ``bleu-score FILE -m bleu chrf ter``, ``-m bleu`` and ``-m bleu chrf ter --all-pairs`` (the tests the
window runs) as commands in the same session. Prints the median of ``--runs`` and the ratios; asserts nothing.

    python scripts/bench_streaming.py [--file XML] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "formats"
DEFAULTS = [DATA / "wmt-xml-wmt22-en-zh" / "wmttest2022.en-zh.all.xml",
            DATA / "wmt-xml-wmt21-ru-en" / "newstest2021.ru-en.all.xml"]


def command(path: Path, metrics: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "bleu_gui.cli", str(path), "-m", *metrics], check=True,
                   capture_output=True)
    return time.perf_counter() - start


def window_times(path: Path) -> tuple[list[float], float, list[list[str]]]:
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.core.metrics.registry import family
    from bleu_gui.gui.shell.main_window import MainWindow
    from bleu_gui.gui.shell.settings import Settings
    from bleu_gui.gui.state import OpenChoice

    app = QApplication.instance() or QApplication([])
    window = MainWindow(Settings(QSettings(tempfile.mktemp(suffix=".ini"), QSettings.Format.IniFormat)))
    window.controller.set_scoring(tuple(family(k).config() for k in ("bleu", "chrf", "ter")), "benchmark")
    window.resize(1366, 768)
    window.show()
    app.processEvents()
    seen: list[tuple[float, list[str]]] = []
    loop = QEventLoop()
    window.controller.run_changed.connect(lambda: seen.append(
        (time.perf_counter(), [m.name for m in window.controller.run.metrics])))
    window.run_changed.connect(loop.quit)
    QTimer.singleShot(600_000, loop.quit)
    start = time.perf_counter()
    window.run_actions.open_inputs(OpenChoice(InputRequest(references=(str(path),))))
    loop.exec()
    end = time.perf_counter()
    window.jobs.shutdown()
    window.close()
    return [t - start for t, _ in seen], end - start, [names for _, names in seen]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--file", type=Path, nargs="+", default=DEFAULTS)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    for path in args.file:
        if not path.is_file():
            print(f"bench_streaming: skipped: {path} is not here (../shared/data is absent)")
            continue
        measure(path, args.runs)
    return 0


def measure(path: Path, runs: int) -> None:
    firsts, wholes, all3, bleu, tested = [], [], [], [], []
    stages: list[list[float]] = []
    shown: list[list[str]] = []
    for _ in range(runs):
        times, whole, shown = window_times(path)
        stages.append(times)
        firsts.append(times[0])
        wholes.append(whole)
        all3.append(command(path, ["bleu", "chrf", "ter"]))
        bleu.append(command(path, ["bleu"]))
        tested.append(command(path, ["bleu", "chrf", "ter", "--all-pairs"]))
    m = statistics.median
    print(f"{path.name}: median of {runs} runs; the window showed {' then '.join(map(str, shown))}")
    for k, names in enumerate(shown[:-1]):
        print(f"  window: {', '.join(names):<28}{m(t[k] for t in stages):6.2f} s")
    print(f"  window: whole run with the tests    {m(wholes):6.2f} s")
    print(f"  bleu-score -m bleu chrf ter         {m(all3):6.2f} s")
    print(f"  bleu-score -m bleu                  {m(bleu):6.2f} s")
    print(f"  bleu-score -m bleu chrf ter --all-pairs (the window's tests) {m(tested):6.2f} s")
    every = m(t[len(shown) - 2] for t in stages)  # the last stage before the tests: every metric on screen
    print(f"  ratio window first / command -m bleu                   {m(firsts) / m(bleu):6.2f}x")
    print(f"  ratio window every metric / command -m bleu chrf ter   {every / m(all3):6.2f}x")
    print(f"  ratio window with the tests / command --all-pairs      {m(wholes) / m(tested):6.2f}x"
          "  (the window also counts BLEU's n-gram wins)")


if __name__ == "__main__":
    sys.exit(main())
