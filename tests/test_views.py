"""The views over a run: models that pass Qt's checks, sorting that keeps the selection, any n-gram order,
one interval, one number format, one palette."""

import re
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QObject, QSettings, Qt, SignalInstance

from bleu_gui.core import BleuConfig, RunConfig, SegmentFile, score_run
from bleu_gui.demo import demo_paths
from bleu_gui.gui.compare.compare_models import NgramTableModel, PairTableModel, SystemsTableModel
from bleu_gui.gui.prepared import prepare
from bleu_gui.gui.shell.main_window import MainWindow
from bleu_gui.gui.shell.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def demo_run(config=BleuConfig()):
    systems, refs = demo_paths()
    files = [SegmentFile(p, p.read_text(encoding="utf-8").splitlines(), "utf-8") for p in [*systems, *refs]]
    return score_run(files[:2], files[2:], RunConfig((config,)))


def show(qtbot, window, run):
    with qtbot.waitSignal(window.run_changed):
        window.controller.show(prepare(run))


def test_every_compare_model_passes_qtmodeltester(qtmodeltester):
    run = demo_run()
    systems = SystemsTableModel()
    systems.set_run(run)
    qtmodeltester.check(systems)
    pair = PairTableModel()
    pair.set_pair(run.systems[0].results[0].sentences, run.systems[1].results[0].sentences,
                  run.comparison.by_metric[0].pairwise[0].loo)
    qtmodeltester.check(pair)
    pair.sort(3, Qt.SortOrder.DescendingOrder)
    qtmodeltester.check(pair)
    ngrams = NgramTableModel()
    ngrams.set_items(run.comparison.ngram_wins[0].wins[1][0])
    qtmodeltester.check(ngrams)


def _qt_base(cls: type) -> type:
    """The first class of ``cls``'s ancestry that Qt defines."""
    return next(c for c in cls.__mro__ if c.__module__.startswith("PySide6"))


def test_nothing_of_ours_shadows_a_qt_method(qtbot, window):
    """An attribute named like a Qt method (a scatter's ``x``, a chart's ``metric``, a window's ``actions``) hides
    that method from every Python caller, pyqtgraph and Qt's own Python helpers included."""
    show(qtbot, window, demo_run())
    shadowed = []
    for obj in [window, *window.findChildren(QObject)]:
        if not type(obj).__module__.startswith("bleu_gui"):
            continue
        base = _qt_base(type(obj))
        shadowed += [f"{type(obj).__name__}.{name}" for name, value in vars(obj).items()
                     if callable(getattr(base, name, None)) and not isinstance(value, SignalInstance)]
    assert shadowed == []


def test_no_colour_outside_the_palette():
    pattern = re.compile(r"#[0-9a-fA-F]{6}\b|\"(?:w|white|black)\"")
    offenders = []
    for path in (ROOT / "bleu_gui").rglob("*.py"):
        if path.name == "palette.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert offenders == []


def test_exports_run_side_by_side_and_each_reports_its_outcome(qtbot, window, tmp_path):
    run = demo_run()
    show(qtbot, window, run)
    saved, errors = [], []
    window.exported.connect(saved.append)
    window.error_shown.connect(errors.append)
    window.exports.export_report(run, tmp_path / "r.html")
    window.exports.export_sentences(run, tmp_path / "no-such-folder" / "s.csv")
    window.exports.export_sentences(run, tmp_path / "s.json")
    qtbot.waitUntil(lambda: len(saved) + len(errors) == 3)
    assert sorted(Path(p).name for p in saved) == ["r.html", "s.json"]
    assert len(errors) == 1 and "no such folder" in errors[0]
    assert (tmp_path / "r.html").exists() and (tmp_path / "s.json").exists()
    assert window.statusBar().currentMessage().startswith("Saved ")


def test_settings_panel_describes_the_shown_run_after_cancel_or_failure(qtbot, window, monkeypatch):
    from bleu_gui.core import InputError
    from bleu_gui.gui.shell import run_actions

    run = demo_run()
    show(qtbot, window, run)
    panel = window.settings_panel.group("bleu")
    panel.widget("tokenizer").setCurrentText("char")  # starts a re-score ...
    window.jobs.cancel()                    # ... that the user cancels
    assert panel.config() == run.bleu.config == window.settings.metrics()[0]
    assert "tok:13a" in window.inspect.header.signature_label.text()

    def broken(*_args, **_kwargs):
        raise InputError("re-scoring failed")

    monkeypatch.setattr(run_actions, "rescore", broken)
    with qtbot.waitSignal(window.error_shown):
        panel.widget("lowercase").setChecked(True)
    # A failure keeps what the user chose, said not applied above the groups; nothing is remembered.
    note = window.settings_panel.unapplied
    assert panel.widget("lowercase").isChecked() and note.isVisibleTo(window.settings_panel)
    assert "re-scoring failed" in note.label.text() and window.settings.metrics()[0] == run.bleu.config
    assert "case:mixed" in window.inspect.header.signature_label.text()  # the numbers' own settings, said
    note.back.click()  # the settings of the numbers shown, asked for
    assert panel.config() == run.bleu.config and not panel.widget("lowercase").isChecked()


def test_the_window_says_what_reading_changed(qtbot, window, tmp_path):
    hyp, ref1, ref2 = tmp_path / "hyp.txt", tmp_path / "ref1.txt", tmp_path / "ref2.txt"
    hyp.write_bytes(b"\xef\xbb\xbfthe cat\rsat down\nhello\n")
    ref1.write_bytes(b"the cat\nsat up\nhello\n")
    ref2.write_bytes(b"the cat\n\nhello there\n")
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files([hyp], [ref1, ref2])
    header = window.inspect.header
    first = header.notes_label.text()
    assert header.notes_label.isVisible() and "byte order mark (BOM) at the start was removed" in first
    # The first note is shown, the others behind "+3 more notes" (and all of them in the tooltip).
    assert "lone carriage" not in first and header.more_button.text() == "+3 more notes ▾"
    assert "lone carriage" in header.notes_label.toolTip()
    header.more_button.click()
    notes = header.notes_label.text()
    assert "byte order mark (BOM) at the start was removed" in notes
    assert header.more_button.text() == "fewer notes ▴"
    assert "lone carriage return(s) (CR without LF) ended a line, the first at the end of line 1" in notes
    assert "ref2.txt: 1 empty line (line 2) read as an empty reference" in notes
    assert "encoding utf-8 detected for all 3 files together" in notes
    assert "BOM" in window.statusBar().currentMessage()


def test_a_carried_over_setting_is_badged_and_reset_in_one_click(qtbot, tmp_path):
    """ko-mecab and lowercasing chosen for the Korean demo and remembered: the tokenizer follows the files and is
    not kept; lowercasing is, and the header says so."""
    settings = Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    settings.set_metrics((BleuConfig(tokenizer="ko-mecab", lowercase=True),))
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    systems, refs = demo_paths()
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files(systems[:1], refs)
    header = window.inspect.header
    assert header.badges.isVisible() and header.reset_button.isVisible()
    assert "tokenizer: ko-mecab" not in header.badges.text() and "lowercased" in header.badges.text()
    with qtbot.waitSignal(window.run_changed):
        header.reset_button.click()
    assert window.controller.run.bleu.config == BleuConfig() and not header.badges.isVisible()
    assert "tok:13a" in header.signature_label.text() and window.settings.metrics()[0] == BleuConfig()
    window.jobs.shutdown()


def test_cjk_references_with_13a_show_an_advice_bar(qtbot, window):
    systems, refs = demo_paths("ko")
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files(systems[:1], refs)
    bar = window.bars.advice
    assert bar.isVisible() and "Korean script" in bar.label.text() and bar.button.text() == "Use ko-mecab"
    with qtbot.waitSignal(window.run_changed):
        bar.button.click()
    assert window.controller.run.bleu.config.tokenizer == "ko-mecab" and not bar.isVisible()
    assert "tok:ko-mecab" in window.inspect.header.signature_label.text()


def test_bleu_gui_flags_win_over_saved_settings(tmp_path):
    from bleu_gui.cli.window_arguments import build_window_parser, window_options
    from bleu_gui.core import InputError
    from bleu_gui.core.metrics.chrf.chrf import ChrfConfig
    from bleu_gui.core.metrics.ter.ter import TerConfig
    from bleu_gui.gui.shell.app import initial_metrics

    saved = (BleuConfig(tokenizer="ko-mecab", lowercase=True), TerConfig(normalized=True))

    def initial(*flags, base=saved):
        return initial_metrics(window_options(build_window_parser().parse_args(["--demo", *flags])), base)

    assert initial() is None  # no flag: the saved settings, badged
    assert initial("-tok", "13a", "--max-ngram-order", "2") == (BleuConfig(tokenizer="13a", lowercase=True, max_order=2),)
    assert initial("--variant", "nltk", "--nltk-smoothing", "3")[0].nltk_smoothing == 3
    # The window always computes BLEU, first; chrF and TER beside it with their flags, on top of the saved ones.
    assert initial("-m", "ter", "chrf", "--chrf-word-order", "2") == (
        saved[0], saved[1], ChrfConfig(word_order=2))
    with pytest.raises(InputError, match="applies to the nltk variant only"):
        initial("--nltk-smoothing", "3", base=())


def test_a_misaligned_candidate_gets_a_bar_that_shows_the_line(qtbot, window, tmp_path):
    from .conftest import data_set

    folder = data_set("wmt21-en-de-3ref")
    hyp = (folder / "sys1.txt").read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "sys1-dropped.txt"
    broken.write_text("\n".join(hyp[:500] + hyp[501:] + ["(end)"]) + "\n", encoding="utf-8")
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files([broken], sorted(folder.glob("ref*.txt")))
    bar = window.bars.alignment
    assert bar.isVisible() and "misaligned from line 501" in bar.label.text() and bar.button.text() == "Show me"
    bar.button.click()
    assert window.tabs.currentIndex() == 0 and window.controller.sentence == 500


def test_an_aligned_candidate_gets_no_bar(qtbot, window):
    show(qtbot, window, demo_run())
    assert not window.bars.alignment.isVisible() and not window.bars.advice.isVisible()


def test_same_named_files_get_distinct_names_and_can_be_renamed(qtbot, window, tmp_path):
    systems, refs = demo_paths()
    for folder, source in (("exp1", systems[0]), ("exp2", systems[1])):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "hyp.txt").write_bytes(source.read_bytes())
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files([tmp_path / "exp1" / "hyp.txt", tmp_path / "exp2" / "hyp.txt"], refs)
    assert [s.name for s in window.controller.run.systems] == ["exp1/hyp.txt", "exp2/hyp.txt"]
    view = window.compare_view
    assert view.b_combo.currentText() == "exp2/hyp.txt"
    assert [window.inspect.sentences.system_combo.itemText(i) for i in range(2)] == ["exp1/hyp.txt", "exp2/hyp.txt"]
    scores = [s.results[0].corpus.score for s in window.controller.run.systems]
    with qtbot.waitSignal(window.run_changed):
        window.rename_systems(["baseline", "tuned"])
    assert [s.name for s in window.controller.run.systems] == ["baseline", "tuned"]
    assert [s.results[0].corpus.score for s in window.controller.run.systems] == scores  # names only, nothing re-scored
    assert view.systems.model.cell(1, 1) == "tuned" and view.b_combo.currentText() == "tuned"
    assert [t.name for t in window.controller.run.comparison.by_metric[0].bootstrap] == ["baseline", "tuned"]
    with qtbot.waitSignal(window.error_shown) as blocker:
        window.rename_systems(["tuned", "tuned"])
    assert "same label" in blocker.args[0]


def test_the_report_follows_the_window(qtbot, window, tmp_path):
    systems, refs = demo_paths()
    texts = [p.read_text(encoding="utf-8").splitlines() for p in [systems[0], systems[1], systems[1], *refs]]
    texts[2] = [line.lower() for line in texts[2]]
    files = [SegmentFile(Path(n), t, "utf-8") for n, t in zip(["sys1", "sys2", "sys7", "r1", "r2"], texts)]
    show(qtbot, window, score_run(files[:3], files[3:], RunConfig((BleuConfig(),))))
    window.compare_view.b_combo.setCurrentIndex(1)  # B = sys7
    window.inspect.detail.order_combo.setCurrentIndex(1)   # 2-grams
    window.inspect.sentences.filter_edit.setText("museum")
    window.inspect.sentences.apply_filter()
    report = tmp_path / "r.html"
    with qtbot.waitSignal(window.exported):
        window.exports.export_report(window.controller.run, report, window.report_view())
    html = report.read_text(encoding="utf-8")
    assert "Pairwise sections compare sys7 (B) with the baseline sys1 (A)" in html
    assert "highlighting of 2-grams" in html and "candidate contains &#x27;museum&#x27;" in html
    shown = sorted(int(n) for n in re.findall(r'<div class=sent id="s(\d+)"', html))
    assert shown and all("museum" in texts[0][i - 1].lower() for i in shown)
    assert "BLEU A (sys1)" in html and "BLEU B (sys7)" in html and "BLEU B (sys2)" not in html


def test_before_any_data_charts_show_no_axes_and_the_header_says_scoring(qtbot, window):
    charts = [window.inspect.detail.precision_chart, window.inspect.detail.bp_chart, window.inspect.sentences.histogram]
    assert all(c.placeholder.isVisible() and not c.plot.isVisible() for c in charts)
    systems, refs = demo_paths()
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files(systems[:1], refs)
        assert window.inspect.header.corpus_label.text() == "Scoring…"
    assert all(c.plot.isVisible() and not c.placeholder.isVisible() for c in charts)


def test_an_added_system_is_decoded_like_the_shown_run(qtbot, window, tmp_path):
    """Latin-1 files: the run is detected as one code page together; an added file read alone got another."""
    ref, hyp, more = tmp_path / "ref.txt", tmp_path / "hyp.txt", tmp_path / "more.txt"
    ref.write_bytes("façade\n".encode("latin-1"))
    hyp.write_bytes("le être façade été\n".encode("latin-1"))
    more.write_bytes("naïve café\n".encode("latin-1"))  # alone, detection guesses cp1006 for it
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files([hyp], [ref])
    codec = window.controller.run.baseline.file.encoding
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.add_systems([more])
    added = window.controller.run.systems[1].file
    assert added.encoding == codec and added.detected
    assert added.lines == ["naïve café".encode("latin-1").decode(codec)]
    with qtbot.waitSignal(window.error_shown) as blocker:
        window.run_actions.add_systems([ref])
    assert "given as a system and as a reference" in blocker.args[0]


def test_a_run_replaced_by_one_without_comparison_is_let_go(qtbot, window):
    """A compared run (two systems of a million lines hold over a gigabyte) must not outlive its display: the
    Compare tab lets go of it when the next run has nothing to compare."""
    import gc
    import weakref

    compared = demo_run()
    gone = weakref.ref(compared)
    show(qtbot, window, compared)
    scatter = window.compare_view.charts.scatter
    assert len(scatter.points.data) == compared.n_sentences
    del compared
    systems, refs = demo_paths()
    single = [SegmentFile(p, p.read_text(encoding="utf-8").splitlines(), "utf-8") for p in [systems[0], *refs]]
    show(qtbot, window, score_run(single[:1], single[1:], RunConfig((BleuConfig(),))))
    # The window hands the old run to a thread that lets go of it piece by piece.
    qtbot.waitUntil(lambda: gc.collect() >= 0 and gone() is None)
    assert not window.tabs.isTabEnabled(1)
    # Its charts' copies go too: a scatter of a million sentences held ~150-220 MB of its own.
    assert len(scatter.points.data) == 0 and len(scatter.xs) == 0


def test_each_sentence_lies_in_a_drawn_cell_whose_point_is_its_first_sentence():
    from bleu_gui.gui.compare.compare_charts import plotted_cells

    rng = np.random.default_rng(4)
    x = np.concatenate([rng.uniform(0, 100, 3000), [0.0, 100.0, 0.25, 0.5, 99.99]])
    y = np.concatenate([np.round(rng.uniform(0, 100, 3000), 1), [0.0, 100.0, 0.74, 0.5, 0.0]])
    cx, cy, first, counts = plotted_cells(x, y, cell=0.5)
    # The oracle: the cells of a dict, filled sentence by sentence.
    cells: dict[tuple[int, int], list[int]] = {}
    for i, (a, b) in enumerate(zip(x.tolist(), y.tolist())):
        cells.setdefault((int(a // 0.5), int(b // 0.5)), []).append(i)
    assert len(first) == len(cells) and counts.sum() == len(x)
    for px, py, f, c in zip(cx.tolist(), cy.tolist(), first.tolist(), counts.tolist()):
        members = cells[(int(px // 0.5), int(py // 0.5))]
        assert f == members[0] and c == len(members)
        assert abs(px - x[f]) <= 0.25 and abs(py - y[f]) <= 0.25  # the point is the centre of its sentence's cell


def test_a_long_scatter_draws_cells_and_says_so(qtbot):
    from bleu_gui.gui.compare.compare_charts import CELL, EXACT_POINTS, ScatterChart

    chart = ScatterChart()
    qtbot.addWidget(chart)
    rng = np.random.default_rng(5)
    n = EXACT_POINTS + 5000
    a, b = np.round(rng.uniform(0, 100, n), 1), np.round(rng.uniform(0, 100, n), 1)
    b[:200] = a[:200] = 50.1  # one crowded cell: its point is sentence 0
    chart.update_values(a, b)
    drawn = [p for layer in chart.layers for p in layer.points()]
    occupied = {(int(u // CELL), int(v // CELL)) for u, v in zip(a.tolist(), b.tolist())}
    assert len(drawn) == len(occupied) < n
    assert f"{n:,} sentences as {len(drawn):,} points" in chart.title_label.text()
    assert "first sentence" in chart.title_label.toolTip()
    crowded = [p for p in chart.layers[-1].points() if p.data() == 0]
    assert len(crowded) == 1 and abs(crowded[0].pos().x() - 50.25) < 1e-9
    with qtbot.waitSignal(chart.point_clicked) as clicked:
        chart.layers[-1].sigClicked.emit(chart.layers[-1], crowded, None)
    assert clicked.args == [0]
    chart.update_values(a[:300], b[:300])  # a short one: every sentence its own point, no note
    assert len(chart.points.points()) == 300 and not any(len(layer.points()) for layer in chart.layers[1:])
    assert "points" not in chart.title_label.text() and not chart.title_label.toolTip()



def test_the_window_fits_a_1366_pixel_screen(qtbot, window):
    """A laptop's 1366×768: every view and the settings dock with chrF and TER open fit (the Compare view asked
    1,181 px and the window 1,457 before its legends could wrap and its chart titles take two lines)."""
    window.settings_panel.group("chrf").setChecked(True)
    window.settings_panel.group("ter").setChecked(True)
    assert window.minimumSizeHint().width() <= 1366 and window.minimumSizeHint().height() <= 740
