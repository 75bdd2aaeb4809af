"""Benchmark: the second question against the first, whole commands in one run, each as a ratio to the command
that asks only the first (issue 61's table):

- a slice: ``bleu-score FILE -m bleu chrf ter edit --paired-bs`` with and without ``--where domain=news`` on WMT22
  en-zh's XML (goal ≤ 1.15×), and the core's ``subset_run`` (the slice of a run already scored: what the window does
  when a slice is chosen) against the same segments scored as a corpus of their own from their text;
- translator QA: ``--qa`` against BLEU alone on the same file (goal ≤ 2×);
- error recall: ``--error-recall`` with BLEU, chrF, TER and the edit distance on Google's TED en-de MQM file (13
  systems) against the same run without it (goal ≤ 1.5×);
- the window (offscreen): a slice typed in the slice box, from the expression to its numbers on screen, then to its
  paired tests (goal: numbers within a second of a scored run).

    python scripts/bench_questions.py [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
XML = ROOT.parent / "shared" / "data" / "formats" / "wmt-xml-wmt22-en-zh"
MQM = ROOT.parent / "shared" / "data" / "formats" / "scores-mqm-ted-ende" / "mqm_ted_ende.tsv"
METRICS = ["-m", "bleu", "chrf", "ter", "edit"]


def _file() -> Path | None:
    found = sorted(XML.glob("*.xml")) if XML.is_dir() else []
    return found[0] if found else None


def _command(argv: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "bleu_gui.cli", *argv], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"bleu-score {' '.join(argv)} failed:\n{done.stderr[-2000:]}")
    return time.perf_counter() - start


def _core(path: Path, runs: int) -> tuple[float, float, int, int]:
    from bleu_gui.core import RunConfig, Significance, score_run
    from bleu_gui.core.inputs.corpus import subset_file
    from bleu_gui.core.inputs.run_inputs import read_run_inputs
    from bleu_gui.core.metrics.registry import family
    from bleu_gui.core.run import subset_run
    from bleu_gui.core.where import where_rows

    inputs = read_run_inputs([], [path], refs_wanted=None)
    config = RunConfig(tuple(family(k).config() for k in ("bleu", "chrf", "ter", "edit")),
                       significance=Significance(1000, None), ngram_diffs=False)
    whole = score_run(inputs.systems, inputs.references, config, context=inputs.context)
    rows, _said = where_rows(whole, ["domain = 'news'"])
    sliced, alone = [], []
    for _ in range(runs):
        start = time.perf_counter()
        subset_run(whole, rows, "domain = news")
        sliced.append(time.perf_counter() - start)
        start = time.perf_counter()
        score_run([subset_file(f, rows) for f in inputs.systems], [subset_file(r, rows) for r in inputs.references],
                  config, context=inputs.context.subset(rows))
        alone.append(time.perf_counter() - start)
    return statistics.median(sliced), statistics.median(alone), len(rows), whole.n_sentences


def _window(path: Path) -> list[tuple[str, float, float]]:
    """(expression, seconds to the slice's numbers on screen, seconds to its paired tests) in the window."""
    import os
    import tempfile

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.core.metrics.registry import family
    from bleu_gui.gui.shell.main_window import MainWindow
    from bleu_gui.gui.shell.settings import Settings
    from bleu_gui.gui.state import OpenChoice

    app = QApplication.instance() or QApplication([])
    scratch = tempfile.TemporaryDirectory()  # a fresh settings file, removed at exit
    window = MainWindow(Settings(QSettings(str(Path(scratch.name) / "s.ini"), QSettings.Format.IniFormat)))
    window.controller.choose_scoring(tuple(family(k).config() for k in ("bleu", "chrf", "ter", "edit")))
    window.run_actions.open_inputs(OpenChoice(InputRequest(references=(str(path),)), None))

    def wait(done: Callable[[], bool]) -> None:
        while not done():
            app.processEvents()

    wait(lambda: window.controller.run is not None and not window.jobs.busy)
    out = []
    for value in ("news", "social"):
        start = time.perf_counter()
        window.run_actions.apply_where(f"domain = '{value}'")
        wait(lambda value=value: (run := window.controller.run) is not None and run.slice is not None
             and value in run.slice.description)
        shown = time.perf_counter() - start
        wait(lambda: not window.jobs.busy)
        out.append((f"domain = '{value}'", shown, time.perf_counter() - start))
    window.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    path = _file()
    if path is None:
        print(f"skipped: {XML} is absent (the shared data)")
        return
    whole = [_command([str(path), *METRICS, "--paired-bs"]) for _ in range(args.runs)]
    sliced = [_command([str(path), *METRICS, "--paired-bs", "--where", "domain = 'news'"])
              for _ in range(args.runs)]
    w, s = statistics.median(whole), statistics.median(sliced)
    print(f"{path.name}, BLEU+chrF+TER+edit with paired bootstrap, median of {args.runs}:")
    print(f"  the whole command {w:.2f} s; with --where domain=news {s:.2f} s: {s / w:.2f}× the whole")
    core_slice, core_alone, n_rows, n = _core(path, args.runs)
    print(f"  a slice of the scored run ({n_rows:,} of {n:,} segments, tests included): subset_run {core_slice:.2f} s "
          f"vs the same segments scored from their text {core_alone:.2f} s: {core_slice / core_alone:.2f}×")
    for expression, shown, tested in _window(path):
        print(f"  the window, slice box {expression}: numbers on screen {shown:.2f} s, paired tests {tested:.2f} s")
    plain = statistics.median(_command([str(path), "-b"]) for _ in range(args.runs))
    qa = statistics.median(_command([str(path), "--qa"]) for _ in range(args.runs))
    print(f"  --qa {qa:.2f} s against BLEU alone {plain:.2f} s: {qa / plain:.2f}×")
    if not MQM.is_file():
        print(f"error recall skipped: {MQM} is absent")
        return
    run = [str(MQM), "--refs", "ref", "-m", "bleu", "chrf", "ter", "edit", "mqm"]
    without = statistics.median(_command([*run, "-b"]) for _ in range(args.runs))
    recall = statistics.median(_command([*run, "--error-recall"]) for _ in range(args.runs))
    print(f"{MQM.name}, 13 systems, BLEU+chrF+TER+edit+MQM: --error-recall {recall:.2f} s against the run without it "
          f"{without:.2f} s: {recall / without:.2f}×")


if __name__ == "__main__":
    main()
