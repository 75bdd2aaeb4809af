"""Benchmark the window: GUI-thread stalls while scoring, time to first results, repaint per sentence.

    python scripts/bench_gui.py              # 100k synthetic + a 3,000-line set with 4 references
    python scripts/bench_gui.py --million    # also 1,000,000 synthetic lines
    python scripts/bench_gui.py --matrix     # only: 12 WMT17 systems, the pair matrix and the systems table
    python scripts/bench_gui.py --whatif     # only: what-if typing at 100k lines and 4 references, ms per key
    python scripts/bench_gui.py --charts     # only: a chart's plot against pyqtgraph's default one; a window made

A 10 ms heartbeat QTimer runs on the GUI thread; the longest gap between two
beats is how long the GUI was unresponsive. Prints figures; asserts nothing.

    python scripts/bench_gui.py --million --stalls stalls.txt

also writes every thread's Python stack whenever a beat is 45 ms late: faulthandler's watchdog is a C
thread, so it catches whoever holds the interpreter lock during the stall, which no Python profiler can.
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
sys.path.insert(0, str(Path(__file__).resolve().parent))

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


STALL_LOG = None  # an open file: every thread's stack is written there when a beat is late (--stalls)


class Heartbeat:
    def __init__(self):
        from PySide6.QtCore import QTimer

        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self.beat)
        self.last = None
        self.gaps: list[float] = []
        self.where: list[float] = []  # the job's progress when each gap ended
        self.progress = 0.0

    def start(self):
        self.last = time.perf_counter()
        self.gaps = []
        self.timer.start()

    def beat(self):
        now = time.perf_counter()
        self.gaps.append(now - self.last)
        self.where.append(self.progress)
        self.last = now
        if STALL_LOG is not None:
            faulthandler.dump_traceback_later(0.045, file=STALL_LOG)

    def worst(self, k: int = 3) -> str:
        pairs = sorted(zip(self.gaps, self.where), reverse=True)[:k]
        return ", ".join(f"{g * 1000:.0f} ms at {w:.0%}" for g, w in pairs)

    def stop(self) -> float:
        self.timer.stop()
        if STALL_LOG is not None:
            faulthandler.cancel_dump_traceback_later()
        return max(self.gaps, default=0.0)


def run_load(window, app, candidate, refs) -> tuple[float, float]:
    """``candidate``: one system file, or a list of them (the first is the baseline)."""
    """(seconds until the scores are shown, longest GUI-thread gap in seconds)."""
    from PySide6.QtCore import QEventLoop

    beat = Heartbeat()
    window.jobs.progress.connect(lambda f: setattr(beat, "progress", f))
    loop = QEventLoop()
    window.run_changed.connect(loop.quit)
    window.error_shown.connect(lambda m: (print("error:", m), loop.quit()))
    beat.start()
    t0 = time.perf_counter()
    window.run_actions.open_files(candidate if isinstance(candidate, list) else [candidate], refs)
    loop.exec()
    elapsed = time.perf_counter() - t0
    app.processEvents()
    window.run_changed.disconnect(loop.quit)
    gap = beat.stop()
    print(f"   longest GUI gaps: {beat.worst()} (100% = after the result arrived)")
    return elapsed, gap


def step_sentences(window, app, n: int = 60) -> list[float]:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        window.inspect.sentences.move_selection(+1)
        while window.inspect.detail._chart_timer.isActive():  # the charts follow on the next turn: wait for them
            app.processEvents()
        window.repaint()
        app.processEvents()
        times.append(time.perf_counter() - t0)
    return times


def filtered(window, app, text: str) -> str:
    """Type ``text`` into the list's filter box: (time until the list shows the result, longest GUI gap)."""
    from PySide6.QtCore import QEventLoop

    view, loop, done = window.inspect.sentences, QEventLoop(), []

    def shown() -> None:
        done.append(True)
        loop.quit()

    beat = Heartbeat()
    view.model.filter_applied.connect(shown)
    beat.start()
    t0 = time.perf_counter()
    view.filter_edit.setText(text)
    view._filter_timer.stop()  # typing arms a 200 ms timer; applied here at once instead (not again, later)
    view.apply_filter()
    if not done:
        loop.exec()  # a long list is searched in a worker
    app.processEvents()
    elapsed = time.perf_counter() - t0
    view.model.filter_applied.disconnect(shown)
    return f"filter {text!r}: shown after {elapsed * 1000:.0f} ms, GUI gap {beat.stop() * 1000:.0f} ms"


def list_actions(window, app) -> str:
    """GUI-thread time of sorting the sentence list by each column (text included) and of filtering it."""
    from PySide6.QtCore import Qt

    from bleu_gui.gui.inspect.sentence_model import COL_BLEU, COL_INDEX, COL_RATIO, COL_TEXT

    view = window.inspect
    timings = []

    def timed(label: str, action) -> None:
        t0 = time.perf_counter()
        action()
        app.processEvents()
        timings.append(f"{label} {(time.perf_counter() - t0) * 1000:.0f} ms")

    for column, label in ((COL_TEXT, "sort by text"), (COL_BLEU, "by BLEU"), (COL_RATIO, "by ratio")):
        timed(label, lambda c=column: view.sentences.table.sortByColumn(c, Qt.SortOrder.AscendingOrder))
        timed("desc", lambda c=column: view.sentences.table.sortByColumn(c, Qt.SortOrder.DescendingOrder))
    timed("by #", lambda: view.sentences.table.sortByColumn(COL_INDEX, Qt.SortOrder.AscendingOrder))
    timed("histogram bin 90-100", lambda: view.sentences.on_histogram_bin_clicked(90.0, 100.0))
    # The filter box waits 200 ms after the last key; the filter itself is what is timed.
    # Long lists are searched in a worker: the time until the rows are shown, and the GUI thread's longest gap.
    timings += [filtered(window, app, text) for text in ("the", "", "president", "")]
    return "; ".join(timings)


def matrix_measures(window, app) -> None:
    """12 systems: time to the Compare tab, and the GUI-thread time of each matrix and table action."""
    from PySide6.QtCore import Qt

    wmt17 = DATA / "sacrebleu-wmt17-en-de"
    systems = [wmt17 / f"sys{i}.txt" for i in range(1, 13)]
    elapsed, gap = run_load(window, app, systems, [wmt17 / "ref1.txt"])
    window.tabs.setCurrentIndex(1)
    app.processEvents()
    view = window.compare_view
    panel = view.systems.matrix

    def timed(action) -> float:
        """The longest GUI-thread stall (heartbeat gap) while the action runs and the window repaints."""
        from PySide6.QtCore import QEventLoop, QTimer

        beat = Heartbeat()
        loop = QEventLoop()
        beat.start()
        QTimer.singleShot(30, action)
        QTimer.singleShot(400, loop.quit)
        loop.exec()
        return beat.stop() * 1000

    actions = {
        "Holm on": lambda: panel.correction.setCurrentIndex(1),
        "alpha 0.01": lambda: panel.alpha.setValue(0.01),
        "colour by bootstrap": lambda: panel.test_combo.setCurrentIndex(0),
        "cell with the baseline (sets B)": lambda: view.controller.set_b(7),
        "sort the table by BLEU": lambda: view.systems.table.sortByColumn(2, Qt.SortOrder.DescendingOrder),
        "show the run again (set_run)": lambda: view.set_run(window.controller.run),
    }
    times = {name: timed(action) for name, action in actions.items()}
    print(f"12 systems x 3,004 lines, all pairs: scored and shown in {elapsed:.2f} s; longest GUI gap "
          f"{gap * 1000:.0f} ms")
    for name, ms in times.items():
        print(f"   {name}: longest GUI-thread stall {ms:.0f} ms")
    print(f"   longest: {max(times.values()):.0f} ms (target: no stall over 100 ms)")


def _type_keys(app, pane, keys: int) -> list[float]:
    """Type ``keys`` keys into ``pane`` (every fourth a backspace): seconds from each press until it is painted.
    BENCH_PROFILE=1 prints a profile of the typing."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    times = []
    profile = None
    if os.environ.get("BENCH_PROFILE"):
        import cProfile

        profile = cProfile.Profile()
        profile.enable()
    for k in range(keys):
        key = Qt.Key.Key_Backspace if k % 4 == 3 else Qt.Key.Key_A + (k % 26)
        t0 = time.perf_counter()
        QTest.keyClick(pane, key)
        app.processEvents()  # paints what the key changed
        times.append(time.perf_counter() - t0)
    if profile is not None:
        import pstats

        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(35)
    return times


def whatif_keystrokes(window, app, tmp: Path, n_lines: int = 100_000, keys: int = 40) -> None:
    """Edit one sentence of a 100k-line, 4-reference corpus key by key: the time from the key press until the
    sentence, the explanation and the corpus BLEU are shown again; sacreBLEU re-scoring the edited corpus is the
    anchor (what a user without what-if would run)."""
    from bench_core import synthetic
    from PySide6.QtGui import QTextCursor

    refs, systems = [], []
    for seed in (1, 3, 4, 5):
        folder = tmp / f"whatif-{seed}"
        folder.mkdir(exist_ok=True)
        hyp_path, ref_path = synthetic(folder, n_lines, seed=seed)
        systems.append(hyp_path)
        refs.append(ref_path)
    hyp = systems[0]
    elapsed, _gap = run_load(window, app, hyp, refs)
    print(f"{n_lines:,} lines, 4 refs: scored and shown in {elapsed:.2f} s")
    view = window.inspect
    view.sentences.select_sentence(n_lines // 2)
    view.detail.editor.set_editing(True)
    pane = view.detail.panes.candidate
    pane.moveCursor(QTextCursor.MoveOperation.End)
    app.processEvents()
    times = _type_keys(app, pane, keys)
    edited = view.detail.editor.whatif
    text = edited.text(n_lines // 2)
    if os.environ.get("BENCH_VERBOSE"):
        print("   per key (ms):", " ".join(f"{t * 1000:.0f}" for t in times))
    times.sort()
    print(f"what-if typing, {keys} keys: median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {times[int(0.95 * (keys - 1))] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms per key "
          f"(corpus BLEU {edited.corpus().score:.2f} with the edit)")
    from bleu_gui.core.analysis.whatif import edited_lines

    lines = edited_lines(edited.original, {n_lines // 2: text})
    ref_lines = [r.read_text(encoding="utf-8").splitlines() for r in refs]
    from sacrebleu.metrics import BLEU

    t0 = time.perf_counter()
    theirs = BLEU().corpus_score(lines, ref_lines)
    anchor = time.perf_counter() - t0
    same = "same score" if abs(theirs.score - edited.corpus().score) < 1e-9 else f"DIFFERENT: {theirs.score}"
    print(f"   anchor: sacreBLEU re-scoring the edited corpus {anchor:.2f} s ({same}); median key / anchor = "
          f"{statistics.median(times) / anchor:.5f}")
    view.detail.editor.set_editing(False)


def _plot_ms(make, n: int, app) -> float:
    """Milliseconds per plot made by ``make``, ``n`` of them (deleted after the clock stops)."""
    made = []
    start = time.perf_counter()
    for _ in range(n):
        made.append(make())
    seconds = time.perf_counter() - start
    for plot in made:
        plot.deleteLater()
    app.processEvents()
    return seconds / n * 1000


def chart_construction(app, tmp: Path, rounds: int = 3, plots: int = 100, windows: int = 20) -> None:
    """Our charts' plot (menuless_plot) against the anchor, pyqtgraph's default plot with its menus then switched
    off (what the charts did before), interleaved; then whole windows made and shown."""
    import pyqtgraph as pg
    from PySide6.QtCore import QSettings

    from bleu_gui.gui.shell.main_window import MainWindow
    from bleu_gui.gui.shell.settings import Settings
    from bleu_gui.gui.widgets.charts import menuless_plot

    def anchor():
        plot = pg.PlotWidget()
        plot.setMenuEnabled(False)
        plot.hideButtons()
        return plot

    ours, theirs = [], []
    for _ in range(rounds):
        theirs.append(_plot_ms(anchor, plots, app))
        ours.append(_plot_ms(menuless_plot, plots, app))
    mine, base = statistics.median(ours), statistics.median(theirs)
    print(f"a plot, median of {rounds} x {plots}: ours {mine:.1f} ms | pyqtgraph's default, menus switched off "
          f"{base:.1f} ms ratio {mine / base:.2f}")
    seconds = []
    for k in range(windows):
        start = time.perf_counter()
        window = MainWindow(Settings(QSettings(str(tmp / f"w{k}.ini"), QSettings.Format.IniFormat)))
        window.resize(1400, 860)
        window.show()
        app.processEvents()
        seconds.append(time.perf_counter() - start)
        window.jobs.shutdown()
        window.close()
        window.deleteLater()
        app.processEvents()
    print(f"a window made and shown: first {seconds[0]:.2f} s, median of the next {windows - 1} "
          f"{statistics.median(seconds[1:]):.2f} s")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--million", action="store_true")
    p.add_argument("--matrix", action="store_true")
    p.add_argument("--whatif", action="store_true")
    p.add_argument("--charts", action="store_true", help="only: chart and window construction")
    p.add_argument("--stalls", type=Path, help="write every thread's stack here whenever the GUI thread is 45 ms late")
    args = p.parse_args()
    if args.stalls:
        global STALL_LOG
        STALL_LOG = args.stalls.open("w")
    from bench_core import real
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from bleu_gui.gui.shell.main_window import MainWindow
    from bleu_gui.gui.shell.settings import Settings

    app = QApplication(sys.argv[:1])
    scratch = tempfile.TemporaryDirectory()  # the settings and generated files, removed at exit
    tmp = Path(scratch.name)
    if args.charts:
        chart_construction(app, tmp)
        return
    window = MainWindow(Settings(QSettings(str(tmp / "bench.ini"), QSettings.Format.IniFormat)), encoding="utf-8")
    window.resize(1400, 860)
    window.show()
    app.processEvents()

    wmt17 = DATA / "sacrebleu-wmt17-en-de"
    if args.matrix:
        matrix_measures(window, app)
        window.close()
        return
    if args.whatif:
        whatif_keystrokes(window, app, tmp)
        window.close()
        return
    if wmt17.is_dir():
        refs = [wmt17 / "ref1.txt", wmt17 / "sys2.txt", wmt17 / "sys3.txt", wmt17 / "sys4.txt"]
        elapsed, gap = run_load(window, app, wmt17 / "sys1.txt", refs)
        steps = step_sentences(window, app)
        print(f"3,004 lines, 4 refs: first results shown after {elapsed:.2f} s; longest GUI gap {gap * 1000:.0f} ms; "
              f"next sentence repaint median {statistics.median(steps) * 1000:.1f} ms, max {max(steps) * 1000:.1f} ms")
    small_hyp, small_ref = real(tmp, 100_000)
    elapsed, gap = run_load(window, app, small_hyp, [small_ref])
    print(f"100,000 lines, 1 ref: scored and shown in {elapsed:.2f} s; longest GUI gap {gap * 1000:.0f} ms")
    print(f"   list: {list_actions(window, app)}")
    if args.million:
        hyp, ref = real(tmp, 1_000_000, seed=2)
        elapsed, gap = run_load(window, app, hyp, [ref])
        steps = step_sentences(window, app, 20)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"1,000,000 lines, 1 ref: scored and shown in {elapsed:.2f} s; longest GUI gap {gap * 1000:.0f} ms; "
              f"next sentence median {statistics.median(steps) * 1000:.1f} ms; peak memory {peak:.0f} MB")
        print(f"   list: {list_actions(window, app)}")
        elapsed, gap = run_load(window, app, small_hyp, [small_ref])
        print(f"another file after the million (100,000 lines): shown in {elapsed:.2f} s; "
              f"longest GUI gap {gap * 1000:.0f} ms")
    window.close()


if __name__ == "__main__":
    main()
