"""The window, driven with pytest-qt offscreen: scores, highlighting, worker discipline, persistence."""

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, QSettings, Qt, QUrl
from PySide6.QtGui import QDropEvent

from bleu_gui.core import BleuConfig
from bleu_gui.demo import demo_paths
from bleu_gui.gui.inspect.sentence_model import SentenceTableModel
from bleu_gui.gui.prepared import prepare
from bleu_gui.gui.shell.main_window import MainWindow, screen_key
from bleu_gui.gui.shell.settings import Settings
from bleu_gui.gui.widgets.panes import STATUS_PROPERTY

from .conftest import HANG
from .oracles import sacre_corpus


@pytest.fixture
def settings_file(tmp_path):
    return tmp_path / "settings.ini"


def make_window(qtbot, settings_file, size=(1300, 800)):
    settings = Settings(QSettings(str(settings_file), QSettings.Format.IniFormat))
    window = MainWindow(settings)
    qtbot.addWidget(window)
    if size:
        window.resize(*size)
    window.show()
    return window


@pytest.fixture
def window(qtbot, settings_file):
    w = make_window(qtbot, settings_file)
    yield w
    w.stop_work()  # as the window's close does: every part's work ends


def open_and_wait(qtbot, window, candidate, refs):
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files([candidate], refs)


def open_baseline(qtbot, window):
    """The demo's system A alone (no comparison)."""
    systems, refs = demo_paths()
    open_and_wait(qtbot, window, systems[0], refs)
    return systems[0], refs


def lines(path):
    return Path(path).read_text(encoding="utf-8").splitlines()


def test_demo_shows_sacrebleu_corpus_score(qtbot, window):
    systems, refs = demo_paths()
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_demo()
    for i, system in enumerate(systems):
        theirs = sacre_corpus(lines(system), [lines(r) for r in refs], BleuConfig())
        assert window.controller.run.systems[i].results[0].corpus.score == pytest.approx(theirs.score, abs=1e-9)
    view = window.inspect
    first = sacre_corpus(lines(systems[0]), [lines(r) for r in refs], BleuConfig())
    assert view.header.corpus_label.text() == f"BLEU {first.score:.2f}"
    assert view.sentences.model.rowCount() == len(lines(systems[0])) == 12
    assert "nrefs:2" in view.header.signature_label.text()
    assert window.tabs.currentIndex() == 0 and window.tabs.isTabEnabled(1)
    # The other system is one click away in the Inspect view.
    second = sacre_corpus(lines(systems[1]), [lines(r) for r in refs], BleuConfig())
    view.sentences.system_combo.setCurrentIndex(1)
    assert view.header.corpus_label.text() == f"BLEU {second.score:.2f}"


def pane_statuses(pane):
    """(text, status) of every run of characters that carries a status property."""
    doc = pane.document()
    runs = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            status = frag.charFormat().property(STATUS_PROPERTY)
            if status:
                runs.append((frag.text(), status, frag.position()))
            it += 1
        block = block.next()
    return runs


def test_a_run_is_shown_in_two_frames_and_a_sentence_chosen_between_them_is_kept(qtbot, window):
    # A new run's list and header come first; the opening sentence's panes and charts one event-loop turn later
    # (two shorter repaints). The same files scored again keep their sentence at once: a key pressed in between
    # (the review desk's) acts on the segment on screen, never on none. A sentence chosen in between (the Compare
    # tab, "Show me") must not be replaced.
    from bleu_gui.gui.prepared import prepare

    open_baseline(qtbot, window)
    run = window.controller.run
    window.inspect.sentences.select_sentence(5)
    with qtbot.waitSignal(window.run_changed):
        window.controller.show(prepare(run))  # the same files, prepared anew: a new run to the window
    assert window.controller.sentence == 5  # the same files keep their sentence, at once
    with qtbot.waitSignal(window.run_changed):
        window.controller.show(prepare(run))
        window.inspect.sentences.select_sentence(2)
    assert window.controller.sentence == 2
    assert window.inspect.detail.sentence_label.text().startswith("Sentence 3 ·")
    # The charts come one per turn after the text; the run counts as shown once they are drawn.
    stats, N = run.baseline.results[0].stats[2], run.bleu.config.max_order
    width = (len(stats) - 2) // 2
    assert window.inspect.detail.precision_chart._data[:2] == ([int(c) for c in stats[2:2 + N]],
                                                         [int(t) for t in stats[2 + width:2 + width + N]])
    assert window.inspect.detail.bp_chart._data[0] == (int(stats[0]), int(stats[1]))


def test_the_window_keeps_interpreter_lock_handoffs_short(qtbot, window):
    # Each call from Qt into Python waits for the lock while a worker holds it; at the default 5 ms a repaint
    # of the list during a search took most of a second.
    import sys

    assert sys.getswitchinterval() <= 0.0005


def test_model_passes_qtmodeltester(qtmodeltester):
    import numpy as np

    from bleu_gui.core.analysis.orders import sentence_orders

    model = SentenceTableModel()
    columns = ["a", "b b", "c c c"], np.array([10.0, np.nan, 30.0]), np.array([1, 2, 3]), np.array([1, 0, 3])
    model.set_sentences(*columns[:2], sentence_orders(*columns))
    qtmodeltester.check(model)
    model.sort(1, Qt.SortOrder.DescendingOrder)
    model.set_filter("c")
    qtmodeltester.check(model)


def test_stale_results_are_dropped(qtbot, gate):
    from PySide6.QtCore import QCoreApplication

    from bleu_gui.gui.jobs import JobController

    jobs = JobController(exclusive=False)
    results = []
    jobs.submit(gate.result, lambda r: results.append(("first", r)))
    assert gate.started.wait(HANG)
    jobs.submit(lambda progress: "second", lambda r: results.append(("second", r)))
    qtbot.waitUntil(lambda: bool(results))
    gate.opened.set()  # the first job finishes now, after the second: its result must never arrive
    assert jobs.shutdown()
    QCoreApplication.processEvents()  # anything it queued for the window is delivered by now
    assert results == [("second", "second")]


def test_a_job_wakes_the_window_only_when_its_progress_moves_forward(qtbot):
    # A system is tokenized and matched a chunk at a time, and both steps report: the matcher's fraction trails
    # the tokenizer's. Each report is a queued call on the GUI thread, which waits for the lock to run it.
    from bleu_gui.gui.jobs import JobController

    jobs = JobController()
    shown, done = [], []
    jobs.progress.connect(shown.append)

    def work(progress):
        for fraction in (0.0, 0.5, 0.3, 0.5, 0.6, 0.55, 1.0):
            progress(fraction)
        return "done"

    jobs.submit(work, done.append)
    qtbot.waitUntil(lambda: bool(done))
    assert shown == [0.0, 0.5, 0.6, 1.0]
    # Nor for a step the bar would not show (under a thousandth): 10,000 small steps wake it 1,001 times.
    shown.clear()
    jobs.submit(lambda progress: [progress(i / 10_000) for i in range(10_001)], done.append)
    qtbot.waitUntil(lambda: len(done) == 2)
    assert [int(f * 1000) for f in shown] == list(range(1001)) and shown[-1] == 1.0
    assert jobs.shutdown()


def test_cyclic_garbage_is_collected_on_the_gui_thread_never_in_a_worker(qtbot):
    # Python's collector runs in whichever thread's allocations cross its threshold. Garbage holding a Qt object
    # (a closed dialog's widgets in a reference cycle) collected in a pool thread is destroyed off the GUI
    # thread: the suite once hung in CI so, the GUI thread inside a Qt call waiting for the interpreter lock.
    import gc
    import threading
    import weakref

    from PySide6.QtCore import QObject

    from bleu_gui.gui.jobs import JobController

    jobs = JobController()
    gc.collect()
    collected_in = []

    class Cycle:
        pass

    garbage = Cycle()
    garbage.me, garbage.qt = garbage, QObject()
    weakref.finalize(garbage, lambda: collected_in.append(threading.get_ident()))
    del garbage
    kept = []
    jobs.submit(lambda progress: [[] for _ in range(50_000)], kept.append)  # enough for many collections
    qtbot.waitUntil(lambda: bool(kept) and bool(collected_in))
    assert collected_in == [threading.get_ident()]
    assert jobs.shutdown()


def test_side_by_side_jobs_each_report_their_own_outcome(qtbot, gate):
    from bleu_gui.core import InputError
    from bleu_gui.gui.jobs import JobController

    jobs = JobController(exclusive=False)
    done, failed = [], []

    def broken(progress):
        raise InputError("no such folder")

    jobs.submit(broken, done.append, lambda m, d: failed.append(m))
    jobs.submit(lambda progress: "fast", done.append, lambda m, d: failed.append(m))
    qtbot.waitUntil(lambda: len(done) + len(failed) == 2)
    jobs.submit(gate.result, done.append, lambda m, d: failed.append(m))  # a slow one beside them: not cancelled
    jobs.submit(lambda progress: "fast again", done.append, lambda m, d: failed.append(m))
    qtbot.waitUntil(lambda: "fast again" in done)
    gate.opened.set()
    qtbot.waitUntil(lambda: len(done) + len(failed) == 4)
    assert sorted(done) == ["done", "fast", "fast again"] and failed == ["no such folder"]
    assert jobs.shutdown()


def test_switching_tokenizer_twice_shows_only_last(qtbot, window):
    from PySide6.QtCore import QCoreApplication

    open_baseline(qtbot, window)
    shown = []
    window.run_changed.connect(lambda run: shown.append(run.bleu.config.tokenizer))
    window.settings_panel.group("bleu").widget("tokenizer").setCurrentText("intl")
    window.settings_panel.group("bleu").widget("tokenizer").setCurrentText("char")
    qtbot.waitUntil(lambda: bool(shown) and not window.jobs.busy)
    assert window.jobs.pool.waitForDone(10_000)  # the intl job has ended too, cancelled: nothing of it may arrive
    QCoreApplication.processEvents()
    assert shown == ["char"]
    assert "tok:char" in window.inspect.header.signature_label.text()


def test_progress_repaints_on_a_later_turn_not_at_once(qtbot, window):
    # A repaint at once paints everything dirty in the window (the sentence list included); with the worker
    # holding the interpreter lock, each row's data() waits for it: 150-250 ms per progress step at 200k lines.
    from PySide6.QtCore import QEvent, QObject

    class Paints(QObject):
        count = 0

        def eventFilter(self, _obj, event):
            self.count += event.type() == QEvent.Type.Paint
            return False

    progress = window.job_progress
    progress.on_started(1)
    qtbot.waitExposed(progress.bar)
    paints = Paints()
    progress.bar.installEventFilter(paints)
    progress.on_progress(0.5)
    assert paints.count == 0
    qtbot.waitUntil(lambda: paints.count > 0)
    assert progress.bar.value() == 500
    progress.on_progress(0.25)  # cancel checks may repeat a step's start: the bar never moves back
    assert progress.bar.value() == 500


def test_cancel_emits_no_finished(qtbot, window, gate):
    from PySide6.QtCore import QCoreApplication

    arrived, finished = [], []
    window.jobs.finished.connect(finished.append)
    window.jobs.submit(gate.work, arrived.append)
    qtbot.waitUntil(lambda: gate.started.is_set() and window.job_progress.isVisible())
    window.jobs.cancel()
    assert window.jobs.pool.waitForDone(10_000)  # the job saw the cancel at its next check and ended
    QCoreApplication.processEvents()  # whatever it queued for the window is delivered by now
    assert finished == [] and not window.jobs.busy and arrived == []
    assert not window.job_progress.isVisible()
    assert window.inspect.header.corpus_label.text() == "No files open"


def test_exception_in_worker_becomes_a_dialog(qtbot, window):
    def broken(progress):
        raise ZeroDivisionError("boom")

    with qtbot.waitSignal(window.error_shown) as blocker:
        window.jobs.submit(broken, lambda result: None)
    assert "ZeroDivisionError: boom" in blocker.args[0]
    assert window.error_box.isVisible()


def test_input_error_dialog_keeps_previous_state(qtbot, window, tmp_path):
    open_baseline(qtbot, window)
    before = window.controller.run
    bad = tmp_path / "short.txt"
    bad.write_text("one line\n", encoding="utf-8")
    _, refs = demo_paths()
    with qtbot.waitSignal(window.error_shown) as blocker:
        window.run_actions.open_files([bad], refs)
    assert "line counts differ" in blocker.args[0] and "short.txt has 1" in blocker.args[0]
    assert window.controller.run is before and window.inspect.sentences.model.rowCount() == 12
    assert window.statusBar().currentMessage() != "Scoring…"


def test_close_during_run_cancels_and_waits(qtbot, settings_file, gate):
    w = make_window(qtbot, settings_file)
    w.jobs.submit(gate.work, lambda result: None)
    assert gate.started.wait(HANG)
    w.close()
    assert w.jobs.pool.activeThreadCount() == 0


def test_drop_files_opens_them(qtbot, window):
    systems, refs = demo_paths()
    candidate = systems[0]
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in [candidate, *refs]])
    event = QDropEvent(QPointF(20, 20), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(window.run_changed):
        window.drops.eventFilter(window, event)  # what Qt does with a drop on the window
    assert window.controller.run.baseline.file.path == candidate
    assert [r.path for r in window.controller.run.references] == refs


def test_settings_persist_across_restart(qtbot, settings_file):
    w = make_window(qtbot, settings_file)
    with qtbot.waitSignal(w.run_changed):
        w.run_actions.open_demo()
    with qtbot.waitSignal(w.run_changed):
        w.settings_panel.group("bleu").widget("lowercase").setChecked(True)
    w.resize(1333, 811)
    w.inspect.main_split.setSizes([300, 900])
    state = w.inspect.main_split.saveState()
    w.close()
    saved = w.saveGeometry()
    w2 = make_window(qtbot, settings_file, size=None)
    assert w2.settings_panel.group("bleu").config().lowercase is True
    recent = w2.settings.recent()[0]
    assert [Path(p).name for p in recent.systems] == ["system-a.txt", "system-b.txt"]
    assert [Path(p).name for p in recent.references] == ["ref1.txt", "ref2.txt"]
    assert recent.metrics == (BleuConfig(lowercase=True),) and recent.labels == ["system-a.txt", "system-b.txt"]
    # The offscreen screen is small, so Qt fits the restored window to it: compare what was stored.
    assert w2.settings.geometry(screen_key(w2.screen())) == saved and w2.restoreGeometry(saved)
    assert w2.settings.splitter("main") == state
    w2.close()


def test_corrupt_settings_file_falls_back_to_defaults(qtbot, settings_file):
    settings_file.write_text("[scoring]\nmax_order=abc\nsmooth_value=zz\nvariant=sacrebleu\n", encoding="utf-8")
    w = make_window(qtbot, settings_file)
    assert w.settings_panel.group("bleu").config() == BleuConfig()
    w.close()


def open_compare(qtbot, window):
    systems, refs = demo_paths()
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files(systems, refs)
    return window.controller.run


def test_adding_a_system_shows_the_comparison(qtbot, window):
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    candidate, refs = open_baseline(qtbot, window)
    assert not window.tabs.isTabEnabled(1)
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.add_systems([candidate.with_name("system-b.txt")])
    assert window.tabs.isTabEnabled(1) and window.tabs.currentIndex() == 1
    c = window.controller.run.comparison
    model = window.compare_view.systems.model
    assert model.rowCount() == 2
    ref_lines = [lines(r) for r in refs]
    _, theirs = PairedTest([("a", lines(candidate)), ("b", lines(candidate.with_name("system-b.txt")))],
                           {"BLEU": BLEU(references=ref_lines)}, references=None, test_type="bs", n_samples=1000)()
    assert c.by_metric[0].bootstrap[1].p_value == theirs["BLEU"][1].p_value
    assert model.cell(1, 5).startswith(f"{theirs['BLEU'][1].p_value:.4f}")
    assert model.cell(1, 2) == f"{theirs['BLEU'][1].score:.2f}"


def test_cancel_during_a_bootstrap(qtbot, window, gate):
    from PySide6.QtCore import QCoreApplication

    from bleu_gui.core.inputs.text_files import read_segments
    from bleu_gui.core.run import RunConfig, Significance, score_run

    systems, refs = demo_paths()
    files = [read_segments(p) for p in [*systems, *refs]]
    seen = []

    def slow_compare(progress):
        def held(f):
            seen.append(f)
            if f > 0.9:  # inside the paired tests: hold there until the test has cancelled
                gate.started.set()
                gate.opened.wait(HANG)
            progress(f)
        config = RunConfig((BleuConfig(),), significance=Significance(bootstrap=20000))
        return score_run(files[:2], files[2:], config, progress=held)

    shown = []
    window.run_changed.connect(shown.append)
    window.jobs.submit(slow_compare, lambda run: window.controller.show(prepare(run)))
    assert gate.started.wait(HANG)
    window.jobs.cancel()
    gate.opened.set()
    assert window.jobs.pool.waitForDone(10_000)
    QCoreApplication.processEvents()
    assert shown == [] and window.controller.run is None


def test_charts_save_png_and_svg(qtbot, window, tmp_path):
    from bleu_gui.core.errors import ExportError

    open_compare(qtbot, window)
    charts = [window.inspect.detail.precision_chart, window.inspect.detail.bp_chart, window.inspect.sentences.histogram]
    v = window.compare_view
    charts += [v.charts.scatter, v.charts.precision_dots, v.charts.delta_chart, v.charts.bucket_dots]
    for chart in charts:
        png, svg = tmp_path / "c.png", tmp_path / "c.svg"
        chart.save(png)
        chart.save(svg)
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        text = svg.read_text(encoding="utf-8")
        assert text.startswith("<svg") and text.rstrip().endswith("</svg>")
        import xml.dom.minidom
        xml.dom.minidom.parseString(text)  # well-formed
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary files left
    with pytest.raises(ExportError, match="no such folder"):
        window.inspect.sentences.histogram.save(tmp_path / "no-such-folder" / "c.png")


def test_export_report_and_sentences_from_the_window(qtbot, window, tmp_path):
    run = open_compare(qtbot, window)
    report = tmp_path / "r.html"
    with qtbot.waitSignal(window.exported):
        window.exports.export_report(run, report)
    html = report.read_text(encoding="utf-8")
    assert f"{run.systems[1].results[0].corpus.score:.2f}" in html and "p (AR)" in html
    with qtbot.waitSignal(window.exported):
        window.exports.export_sentences(run, tmp_path / "s.json")
    data = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert data["sentences"][0]["index"] == 1 and data["systems"] == ["system-a.txt", "system-b.txt"]
    systems, _ = demo_paths()
    with qtbot.waitSignal(window.error_shown) as blocker:
        window.exports.export_report(run, systems[0])
    assert "refusing to overwrite an input file" in blocker.args[0]
    assert window.controller.run is run


def test_a_long_list_is_searched_in_the_worker_and_filtered_when_it_is_done(qtbot, monkeypatch):
    import numpy as np

    from bleu_gui.core.analysis.orders import sentence_orders
    from bleu_gui.gui.inspect import sentence_model as models

    monkeypatch.setattr(models, "_SEARCH_IN_WORKER", 3)  # a "long" list of five
    model = SentenceTableModel()
    columns = ["a cat", "dog", "Cat b", "bird", "cats"], np.arange(5.0), np.ones(5), np.ones(5)
    model.set_sentences(*columns[:2], sentence_orders(*columns))
    with qtbot.waitSignal(model.filter_applied):
        model.set_filter("CAT")
        assert model.rowCount() == 5  # not yet: the search runs in the worker
    assert [model.sentence_at(r) for r in range(model.rowCount())] == [0, 2, 4]
    # New sentences under an active text filter are searched again.
    with qtbot.waitSignal(model.filter_applied):
        model.set_sentences(["x", "cat", "y", "z", "w"], columns[1], sentence_orders(*columns))
    assert [model.sentence_at(r) for r in range(model.rowCount())] == [1]
    model.stop_search()  # as the window does on close: the pool thread may still be winding down


def test_a_long_list_is_not_reset_while_its_search_runs(qtbot, window, monkeypatch):
    """While the worker searches, a reset would repaint the whole list with every data() call waiting for the
    worker's lock (100-200 ms at a million lines): the list changes once, when the search is done."""
    from bleu_gui.gui.inspect import sentence_model as models

    monkeypatch.setattr(models, "_SEARCH_IN_WORKER", 3)
    open_baseline(qtbot, window)
    view, resets = window.inspect, []
    view.sentences.model.modelReset.connect(lambda: resets.append(view.sentences.model.rowCount()))
    with qtbot.waitSignal(view.sentences.model.filter_applied):
        view.sentences.filter_edit.setText("the")
        view.sentences.apply_filter()
        assert resets == []
    assert len(resets) == 1 and 0 < resets[0] < view.sentences.model.total
    view.sentences.model.stop_search()


def test_score_the_list_scores_the_rows_its_description_names_even_mid_search(qtbot, window, monkeypatch):
    """A typed filter is applied first; while a long list's search runs, the list is scored once it is done,
    never as the unfiltered rows under the filter's description."""
    from bleu_gui.gui.actions import Actions
    from bleu_gui.gui.inspect import sentence_model as models

    monkeypatch.setattr(models, "_SEARCH_IN_WORKER", 3)
    system, _refs = open_baseline(qtbot, window)
    view, requests = window.inspect, []
    window.controller.actions = Actions(apply_slice=lambda rows, why: requests.append((list(rows), why)))
    view.sentences.filter_edit.setText("the")  # the filter timer is armed: not applied yet
    view.sentences.on_score_list()
    assert requests == []  # the search runs in the worker
    assert view.sentences.list_selection() == (None, "")  # the rows are not filtered yet, and nothing says they are
    qtbot.waitUntil(lambda: bool(requests))
    rows, why = requests[0]
    assert rows == [i for i, line in enumerate(lines(system)) if "the" in line.casefold()]
    assert 0 < len(rows) < len(lines(system)) and "candidate contains 'the'" in why
    view.sentences.model.stop_search()


def test_the_progress_bar_is_announced_as_one_and_paints_in_qt(window):
    # Qt's own paint needs no interpreter lock; a paintEvent in Python waited for the scoring thread at every
    # call into Qt (up to 38 ms a paint). Screen readers get a progress bar's role and value.
    from PySide6.QtGui import QAccessible
    from PySide6.QtWidgets import QProgressBar

    bar = window.job_progress.bar
    window.job_progress.on_started(1)
    window.job_progress.on_progress(0.5)
    assert type(bar).paintEvent is QProgressBar.paintEvent
    assert QAccessible.queryAccessibleInterface(bar).role() == QAccessible.Role.ProgressBar
    assert bar.text() == "50%"
