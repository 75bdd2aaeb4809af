"""The views over a run: models that pass Qt's checks, sorting that keeps the selection, any n-gram order,
one interval, one number format, one palette."""

import re
from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QItemSelectionModel, QObject, QSettings, Qt, SignalInstance
from PySide6.QtGui import QColor, QPixmap
from PySide6.QtWidgets import QWidget

from bleu_gui.core import BleuConfig, RunConfig, SegmentFile, score_run
from bleu_gui.core.analysis.significance import delta_interval
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
    with qtbot.waitSignal(window.run_changed, timeout=5000):
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


def test_sorting_the_compare_table_keeps_the_selected_sentence(qtbot, window):
    show(qtbot, window, demo_run())
    view = window.compare_view
    view.controller.set_sentence(3)
    view.pairs.model.sort(3, Qt.SortOrder.DescendingOrder)
    current = view.pairs.view.currentIndex()
    selected = view.pairs.view.selectionModel().selectedRows()
    assert view.pairs.model.sentence_at(current.row()) == 3 == view.controller.sentence
    assert [view.pairs.model.sentence_at(i.row()) for i in selected] == [3]
    # Moving on from the sorted position shows the sentence below it, not a stale row.
    below = view.pairs.model.index(current.row() + 1, 0)
    view.pairs.view.selectionModel().setCurrentIndex(below, QItemSelectionModel.SelectionFlag.ClearAndSelect
                                                    | QItemSelectionModel.SelectionFlag.Rows)
    assert view.controller.sentence == view.pairs.model.sentence_at(current.row() + 1)


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


def test_views_keep_qwidget_render(qtbot, window):
    show(qtbot, window, demo_run())
    for widget in (window.compare_view, window.inspect.detail.panes, window.inspect):
        assert type(widget).render is QWidget.render  # not a method of ours of the same name
        pixmap = QPixmap(200, 100)
        pixmap.fill(QColor("#123456"))
        widget.render(pixmap)
        assert pixmap.toImage().pixelColor(100, 50) != QColor("#123456")  # it painted


@pytest.mark.parametrize("order", [2, 6])
def test_compare_view_follows_the_run_order(qtbot, window, order):
    run = demo_run(BleuConfig(max_order=order))
    show(qtbot, window, run)
    view = window.compare_view
    assert [view.ngrams.order.itemData(i) for i in range(view.ngrams.order.count())] == list(range(1, order + 1))
    assert view.panes.order.count() == order + 1  # and "all orders"
    assert view.systems.model.columnCount() == 9 + order + 4
    view.ngrams.order.setCurrentIndex(order - 1)
    expected = run.comparison.ngram_wins[0].wins[order]
    assert view.ngrams.wins_b.items == expected[0] and view.ngrams.wins_a.items == expected[1]
    view.panes.order.setCurrentIndex(order - 1)
    view.controller.set_sentence(2)


def test_delta_chart_its_svg_and_the_interval_agree(qtbot, window, tmp_path):
    run = demo_run()
    show(qtbot, window, run)
    chart = window.compare_view.charts.delta_chart
    deltas = run.comparison.by_metric[0].bootstrap[1].deltas
    low, high = delta_interval(deltas)
    ordered = np.sort(deltas)
    assert (low, high) == (ordered[len(deltas) // 40], ordered[len(deltas) - len(deltas) // 40 - 1])
    assert (chart.low.value(), chart.high.value()) == (low, high)
    # The interval is said in numbers, once: labels on the two lines overlapped when the interval was narrow.
    stated = f"95%: {low:.2f} to {high:.2f}"
    assert stated in chart.text.textItem.toPlainText() and f"p = {run.comparison.by_metric[0].bootstrap[1].p_value:.4f}" in \
        chart.text.textItem.toPlainText()
    assert not [c for line in (chart.low, chart.high) for c in line.childItems() if isinstance(c, pg.InfLineLabel)]
    chart.save(tmp_path / "d.svg")
    svg = (tmp_path / "d.svg").read_text(encoding="utf-8")
    assert svg.count(stated) == 1 and "2.5%" not in svg and "97.5%" not in svg
    lines = [float(x) for x in re.findall(r'<line x1="([-0-9.]+)" x2="\1" [^>]*stroke="#e8590c"', svg)]
    # The saved chart draws its lines where the interval is, on its own axis (see svg.SvgChart).
    span = ordered[-1] - ordered[0]
    left, right = min(ordered[0], 0.0) - 0.05 * span, max(ordered[-1], 0.0) + 0.05 * span
    expected = [52 + (v - left) / (right - left) * (420 - 52 - 14) for v in (low, high)]
    assert lines == pytest.approx(expected, abs=0.06)


def test_an_undefined_sentence_score_reads_the_same_everywhere(qtbot, window, tmp_path):
    # NLTK's method6 refuses a sentence without a trigram match: its score is undefined.
    hyps = [["the cat sat on the mat today", "a b"], ["the cat sat on the mat now", "a c"]]
    refs = ["the cat sat on the mat today", "a b c"]
    files = [SegmentFile(Path(f"sys{i}.txt"), h, "utf-8") for i, h in enumerate(hyps)]
    run = score_run(files, [SegmentFile(Path("ref.txt"), refs, "utf-8")],
                    RunConfig((BleuConfig(variant="nltk", nltk_smoothing=6),)))
    assert np.isnan(run.systems[0].results[0].sentences[1])
    show(qtbot, window, run)
    inspect = window.inspect
    inspect.sentences.select_sentence(1)
    assert inspect.sentences.model.data(inspect.sentences.model.index(inspect.sentences.model.row_of(1), 1)) == "n/a"
    assert "sentence BLEU n/a" in inspect.detail.sentence_label.text()
    view = window.compare_view
    view.controller.set_sentence(1)
    row = view.pairs.model.row_of(1)
    assert [view.pairs.model.data(view.pairs.model.index(row, c)) for c in (1, 2, 3)] == ["n/a", "n/a", "n/a"]
    assert "A n/a · B n/a · B − A n/a" in view.panes.sentence_label.text()


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


def test_highlighting_and_hover_after_characters_outside_the_bmp(qtbot, window, tmp_path):
    from PySide6.QtGui import QTextCursor

    from bleu_gui.core.metrics.bleu_details import MATCHED, UNMATCHED
    from bleu_gui.gui.widgets.panes import STATUS_PROPERTY, utf16_offsets

    text = "😀 the 𠀀 cat 🇯🇵 sat"
    cand, ref = tmp_path / "cand.txt", tmp_path / "ref.txt"
    cand.write_text(text + "\n", encoding="utf-8")
    ref.write_text("the cat sat\n", encoding="utf-8")
    with qtbot.waitSignal(window.run_changed, timeout=20_000):
        window.run_actions.open_files([cand], [ref])
    pane = window.inspect.detail.panes.candidate
    units = utf16_offsets(text)
    assert pane.toPlainText() == text and units[-1] == len(text) + 4  # four astral code points
    statuses = {}
    for word in ("😀", "the", "𠀀", "cat", "🇯🇵", "sat"):
        start = text.index(word)
        cursor = QTextCursor(pane.document())
        cursor.setPosition(units[start + len(word)])  # the format of the character before the cursor
        statuses[word] = cursor.charFormat().property(STATUS_PROPERTY)
    assert statuses == {"😀": UNMATCHED, "the": MATCHED, "𠀀": UNMATCHED, "cat": MATCHED, "🇯🇵": UNMATCHED,
                        "sat": MATCHED}
    # Hovering the middle of "sat" (found by Qt's own layout) names the n-gram "sat".
    cursor = QTextCursor(pane.document())
    cursor.setPosition(units[text.index("sat") + 1])
    rect = pane.cursorRect(cursor)
    index = pane._char_at(rect.center() + type(rect.center())(2, 0))
    assert text[index] == "a"
    assert window.inspect.detail.panes.occurrence_at(index).ngram == ("sat",)


def test_exports_run_side_by_side_and_each_reports_its_outcome(qtbot, window, tmp_path):
    run = demo_run()
    show(qtbot, window, run)
    saved, errors = [], []
    window.exported.connect(saved.append)
    window.error_shown.connect(errors.append)
    window.exports.export_report(run, tmp_path / "r.html")
    window.exports.export_sentences(run, tmp_path / "no-such-folder" / "s.csv")
    window.exports.export_sentences(run, tmp_path / "s.json")
    qtbot.waitUntil(lambda: len(saved) + len(errors) == 3, timeout=20_000)
    assert sorted(Path(p).name for p in saved) == ["r.html", "s.json"]
    assert len(errors) == 1 and "no such folder" in errors[0]
    assert (tmp_path / "r.html").exists() and (tmp_path / "s.json").exists()
    assert window.statusBar().currentMessage().startswith("Saved ")


def test_settings_panel_describes_the_shown_run_after_cancel_or_failure(qtbot, window, monkeypatch):
    from bleu_gui.core import InputError
    from bleu_gui.gui.shell import run_actions

    run = demo_run()
    show(qtbot, window, run)
    panel = window.settings_panel
    panel.tokenizer.setCurrentText("char")  # starts a re-score ...
    window.jobs.cancel()                    # ... that the user cancels
    assert panel.config() == run.config.bleu == window.settings.config()
    assert "tok:13a" in window.inspect.header.signature_label.text()

    def broken(*_args):
        raise InputError("re-scoring failed")

    monkeypatch.setattr(run_actions, "rescore", broken)
    with qtbot.waitSignal(window.error_shown, timeout=5000):
        panel.lowercase.setChecked(True)
    assert panel.config() == run.config.bleu and not panel.lowercase.isChecked()
    assert window.settings.config() == run.config.bleu


def test_the_window_says_what_reading_changed(qtbot, window, tmp_path):
    hyp, ref1, ref2 = tmp_path / "hyp.txt", tmp_path / "ref1.txt", tmp_path / "ref2.txt"
    hyp.write_bytes(b"\xef\xbb\xbfthe cat\rsat down\nhello\n")
    ref1.write_bytes(b"the cat\nsat up\nhello\n")
    ref2.write_bytes(b"the cat\n\nhello there\n")
    with qtbot.waitSignal(window.run_changed, timeout=20_000):
        window.run_actions.open_files([hyp], [ref1, ref2])
    notes = window.inspect.header.notes_label.text()
    assert window.inspect.header.notes_label.isVisible()
    assert "byte order mark (BOM) at the start was removed" in notes
    assert "lone carriage return(s) (CR without LF) ended a line, the first at the end of line 1" in notes
    assert "ref2.txt: 1 empty line (line 2) read as an empty reference" in notes
    assert "encoding utf-8 detected for all 3 files together" in notes
    assert "BOM" in window.statusBar().currentMessage()


def test_the_systems_table_labels_a_copy_of_the_baseline(qtbot, window):
    systems, refs = demo_paths()
    texts = [p.read_text(encoding="utf-8").splitlines() for p in [systems[0], systems[0], systems[1], *refs]]
    files = [SegmentFile(Path(n), t, "utf-8") for n, t in zip(["a.txt", "twin.txt", "b.txt", "r1", "r2"], texts)]
    run = score_run(files[:3], files[3:], RunConfig((BleuConfig(),)))
    show(qtbot, window, run)
    model = window.compare_view.systems.model
    assert run.comparison.by_metric[0].bootstrap[1].p_value <= 0.05
    assert model.cell(1, 5).endswith("(identical to baseline)") and "*" not in model.cell(1, 5)
    assert "*" not in model.cell(1, 6)
    assert "never starred" in model.data(model.index(1, 5), Qt.ItemDataRole.ToolTipRole)
    # A copy is never "significantly worse" than its original: the two share a rank.
    assert model.cell(0, 0) == model.cell(1, 0) == "1"
    assert not run.comparison.identical[2]


def test_a_carried_over_setting_is_badged_and_reset_in_one_click(qtbot, tmp_path):
    """ko-mecab saved from the Korean demo, then Japanese references opened: the header says so."""
    settings = Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    settings.set_config(BleuConfig(tokenizer="ko-mecab", lowercase=True))
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    systems, refs = demo_paths()
    with qtbot.waitSignal(window.run_changed, timeout=20_000):
        window.run_actions.open_files(systems[:1], refs)
    header = window.inspect.header
    assert header.badges.isVisible() and header.reset_button.isVisible()
    assert "tokenizer: ko-mecab" in header.badges.text() and "lowercased" in header.badges.text()
    with qtbot.waitSignal(window.run_changed, timeout=20_000):
        header.reset_button.click()
    assert window.controller.run.config.bleu == BleuConfig() and not header.badges.isVisible()
    assert "tok:13a" in header.signature_label.text() and window.settings.config() == BleuConfig()
    window.jobs.shutdown()


def test_cjk_references_with_13a_show_an_advice_bar(qtbot, window):
    systems, refs = demo_paths("ko")
    with qtbot.waitSignal(window.run_changed, timeout=20_000):
        window.run_actions.open_files(systems[:1], refs)
    bar = window.bars.advice
    assert bar.isVisible() and "Korean script" in bar.label.text() and bar.button.text() == "Use ko-mecab"
    with qtbot.waitSignal(window.run_changed, timeout=20_000):
        bar.button.click()
    assert window.controller.run.config.bleu.tokenizer == "ko-mecab" and not bar.isVisible()
    assert "tok:ko-mecab" in window.inspect.header.signature_label.text()


def test_bleu_gui_flags_win_over_saved_settings(tmp_path):
    from bleu_gui.core import InputError
    from bleu_gui.core.metrics.chrf import ChrfConfig
    from bleu_gui.core.metrics.ter import TerConfig
    from bleu_gui.gui.shell.app import build_parser, initial_config

    saved = BleuConfig(tokenizer="ko-mecab", lowercase=True)
    parse = build_parser().parse_args
    assert initial_config(parse(["--demo"]), saved) is None  # no flag: the saved settings, badged
    cfg = initial_config(parse(["--demo", "-tok", "13a", "--max-ngram-order", "2"]), saved)
    assert cfg == (BleuConfig(tokenizer="13a", lowercase=True, max_order=2),)
    assert initial_config(parse(["--demo", "--variant", "nltk", "--nltk-smoothing", "3"]), saved)[0].nltk_smoothing == 3
    # The window always computes BLEU, first; chrF and TER beside it with their flags.
    assert initial_config(parse(["--demo", "-m", "ter", "chrf", "--chrf-word-order", "2"]), saved) == (
        saved, TerConfig(), ChrfConfig(word_order=2))
    with pytest.raises(InputError, match="applies to the nltk variant only"):
        initial_config(parse(["--demo", "--nltk-smoothing", "3"]), BleuConfig())


def test_a_misaligned_candidate_gets_a_bar_that_shows_the_line(qtbot, window, tmp_path):
    from .conftest import data_set

    folder = data_set("wmt21-en-de-3ref")
    hyp = (folder / "sys1.txt").read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "sys1-dropped.txt"
    broken.write_text("\n".join(hyp[:500] + hyp[501:] + ["(end)"]) + "\n", encoding="utf-8")
    with qtbot.waitSignal(window.run_changed, timeout=30_000):
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
    with qtbot.waitSignal(window.run_changed, timeout=20_000):
        window.run_actions.open_files([tmp_path / "exp1" / "hyp.txt", tmp_path / "exp2" / "hyp.txt"], refs)
    assert [s.name for s in window.controller.run.systems] == ["exp1/hyp.txt", "exp2/hyp.txt"]
    view = window.compare_view
    assert view.b_combo.currentText() == "exp2/hyp.txt"
    assert [window.inspect.sentences.system_combo.itemText(i) for i in range(2)] == ["exp1/hyp.txt", "exp2/hyp.txt"]
    scores = [s.results[0].corpus.score for s in window.controller.run.systems]
    with qtbot.waitSignal(window.run_changed, timeout=5000):
        window.rename_systems(["baseline", "tuned"])
    assert [s.name for s in window.controller.run.systems] == ["baseline", "tuned"]
    assert [s.results[0].corpus.score for s in window.controller.run.systems] == scores  # names only, nothing re-scored
    assert view.systems.model.cell(1, 1) == "tuned" and view.b_combo.currentText() == "tuned"
    assert [t.name for t in window.controller.run.comparison.by_metric[0].bootstrap] == ["baseline", "tuned"]
    with qtbot.waitSignal(window.error_shown, timeout=5000) as blocker:
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
    with qtbot.waitSignal(window.exported, timeout=20_000):
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
    with qtbot.waitSignal(window.run_changed, timeout=20_000):
        window.run_actions.open_files(systems[:1], refs)
        assert window.inspect.header.corpus_label.text() == "Scoring…"
    assert all(c.plot.isVisible() and not c.placeholder.isVisible() for c in charts)


def test_an_added_system_is_decoded_like_the_shown_run(qtbot, window, tmp_path):
    """Latin-1 files: the run is detected as one code page together; an added file read alone got another."""
    ref, hyp, more = tmp_path / "ref.txt", tmp_path / "hyp.txt", tmp_path / "more.txt"
    ref.write_bytes("façade\n".encode("latin-1"))
    hyp.write_bytes("le être façade été\n".encode("latin-1"))
    more.write_bytes("naïve café\n".encode("latin-1"))  # alone, detection guesses cp1006 for it
    with qtbot.waitSignal(window.run_changed, timeout=20_000):
        window.run_actions.open_files([hyp], [ref])
    codec = window.controller.run.baseline.file.encoding
    with qtbot.waitSignal(window.run_changed, timeout=20_000):
        window.run_actions.add_systems([more])
    added = window.controller.run.systems[1].file
    assert added.encoding == codec and added.detected
    assert added.lines == ["naïve café".encode("latin-1").decode(codec)]
    with qtbot.waitSignal(window.error_shown, timeout=20_000) as blocker:
        window.run_actions.add_systems([ref])
    assert "given as a system and as a reference" in blocker.args[0]


def test_every_compare_chart_swaps_its_placeholder_for_the_plot(qtbot, window):
    view = window.compare_view
    charts = [view.charts.scatter, view.charts.precision_dots, view.charts.delta_chart, view.charts.bucket_dots]
    show(qtbot, window, demo_run())
    window.tabs.setCurrentIndex(1)
    for chart in charts:
        assert chart.plot.isVisible() and not chart.placeholder.isVisible(), chart.title
        assert chart.layout().indexOf(chart.plot) >= 0  # the plot shown is the one in the layout


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
    qtbot.waitUntil(lambda: gc.collect() >= 0 and gone() is None, timeout=5000)
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


def test_an_empty_ngram_list_says_so(qtbot, window):
    """B matches no n-gram more often than A (A is the reference itself, B a shorter copy): the list says that, not a
    blank table that looks like a view still loading."""
    ref = ["the cat sat on the mat today", "a dog ran in the park at noon"]
    a, b, r = (SegmentFile(Path(name), lines, "utf-8") for name, lines in
               (("a.txt", ref), ("b.txt", [" ".join(x.split()[:3]) for x in ref]), ("ref.txt", ref)))
    run = score_run([a, b], [r], RunConfig((BleuConfig(),)))
    show(qtbot, window, run)
    window.tabs.setCurrentWidget(window.compare_view)
    view = window.compare_view
    assert view.ngrams.wins_b.rowCount() == 0 and view.ngrams.wins_a.rowCount() > 0
    assert view.ngrams.wins_b_view.empty_text == "B matches no 1-gram more often than A"
    image = view.ngrams.wins_b_view.viewport().grab().toImage()
    inked = sum(image.pixelColor(x, y).lightness() < 128 for x in range(image.width()) for y in range(image.height()))
    assert inked > 20  # the sentence is painted in the empty list
    filled = view.ngrams.wins_a_view.viewport().grab().toImage()
    assert view.ngrams.wins_a_view.empty_text == "A matches no 1-gram more often than B" and filled.width() > 0
