"""The Inspect and Compare views on a controller holding a small run (no window): highlighting, the lists'
sorting and filters, charts and their clicks, the header. Numbers against the core and sacreBLEU."""

import re
from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QColor, QPixmap, QTextCursor
from PySide6.QtWidgets import QWidget

from bleu_gui.core import BleuConfig, RunConfig, SegmentFile, score_run
from bleu_gui.core.analysis.significance import delta_interval
from bleu_gui.core.metrics.bleu.details import CLIPPED, MATCHED
from bleu_gui.demo import demo_paths
from bleu_gui.gui.inspect.sentence_model import COL_BLEU
from bleu_gui.gui.widgets.panes import STATUS_PROPERTY

from .test_gui import pane_statuses
from .test_views import demo_run


def test_candidate_colours_equal_core_details(qtbot, views, tmp_path):
    cand = tmp_path / "cand.txt"
    cand.write_text("the the the the the the the\n", encoding="utf-8")
    r1, r2 = tmp_path / "r1.txt", tmp_path / "r2.txt"
    r1.write_text("the cat is on the mat\n", encoding="utf-8")
    r2.write_text("there is a cat on the mat\n", encoding="utf-8")
    views.show_run(qtbot, [cand], [r1, r2])
    runs = pane_statuses(views.inspect.detail.panes.candidate)
    # Adjacent tokens with the same status merge into one fragment; count per token instead.
    per_token = []
    text = views.inspect.detail.panes.candidate.toPlainText()
    for _start, end in views.inspect.detail.panes._hyp_shown.spans:
        cursor = QTextCursor(views.inspect.detail.panes.candidate.document())
        cursor.setPosition(end)
        per_token.append(cursor.charFormat().property(STATUS_PROPERTY))
    assert text == "the the the the the the the"
    assert per_token == [MATCHED] * 2 + [CLIPPED] * 5
    details = views.controller.run.details(0, 0)
    assert [o.status for o in details.occurrences[1]] == per_token
    assert runs  # the document really carries formats
    # Reference panes mark what the candidate matched: both "the" in ref 1, one in ref 2.
    ref_runs = [r for r in pane_statuses(views.inspect.detail.panes.ref_panes[0]) if r[1] == MATCHED]
    assert [r[0] for r in ref_runs] == ["the", "the"]


def test_hover_tooltip_and_click_marks_references(qtbot, views, tmp_path):
    cand = tmp_path / "cand.txt"
    cand.write_text("the cat sat on the mat\n", encoding="utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("the cat is on the mat\n", encoding="utf-8")
    views.show_run(qtbot, [cand], [ref])
    occ = views.inspect.detail.panes.occurrence_at(5)  # inside "cat"
    assert occ.ngram == ("cat",) and occ.status == MATCHED
    described = views.inspect.detail.panes.describe(occ)
    assert "Max_Ref_Count 1" in described and "ref.txt" in described
    views.inspect.detail.panes.on_candidate_clicked(1)  # "the"
    selected = [r for r in pane_statuses(views.inspect.detail.panes.ref_panes[0]) if r[1] == "selected"]
    assert [r[0] for r in selected] == ["the", "the"]


def test_a_filter_that_keeps_the_sentence_does_not_redraw_it(qtbot, views, monkeypatch):
    views.show_demo(qtbot, 1)
    view = views.inspect
    view.sentences.select_sentence(2)
    shown = []
    monkeypatch.setattr(view.detail, "show_line", lambda *a, **k: shown.append(a[0]))
    score = views.controller.run.baseline.results[0].sentences[2]
    view.sentences.score_low.setValue(max(score - 1, 0.0))  # keeps sentence 3 (index 2)
    view.sentences.apply_filter()
    view.sentences.table.sortByColumn(1, Qt.SortOrder.DescendingOrder)
    assert view.controller.sentence == 2 and shown == []
    assert view.sentences.model.sentence_at(view.sentences.table.currentIndex().row()) == 2
    view.sentences.score_low.setValue(min(score + 1, 100.0))  # hides it: the first sentence left is shown
    view.sentences.apply_filter()
    assert shown and shown[-1] != 2


def test_the_precision_labels_sit_inside_the_chart(qtbot, views):
    # The first bar's "12/12" was cut by the left axis for a perfect sentence (the demo's first).
    views.show_demo(qtbot, 1)
    views.inspect.sentences.select_sentence(0)
    chart = views.inspect.detail.precision_chart
    qtbot.waitUntil(lambda: chart.plot.isVisible())
    views.resize(2400, 1000)  # room for the labels (a narrow chart leaves them out rather than overlap)
    qtbot.waitUntil(lambda: chart.labels[0].isVisible())
    views.repaint()
    view_box = chart.plot.getPlotItem().vb.sceneBoundingRect()
    shown = [label for label in chart.labels if label.isVisible()]
    assert [label.textItem.toPlainText() for label in shown][0] == "12/12"
    for label in shown:
        assert view_box.contains(label.sceneBoundingRect()), label.textItem.toPlainText()


def test_stepping_shows_the_text_at_once_and_the_charts_follow(qtbot, views):
    # The charts' scenes repaint the window on their own: they follow a step on the next turn of the event loop.
    views.show_demo(qtbot, 1)
    view = views.inspect
    view.sentences.move_selection(+1)
    assert view.controller.sentence == 1 and view.detail.sentence_label.text().startswith("Sentence 2 ·")
    stats, N = views.controller.run.baseline.results[0].stats[1], views.controller.run.bleu.config.max_order
    width = (len(stats) - 2) // 2
    want = ([int(c) for c in stats[2:2 + N]], [int(t) for t in stats[2 + width:2 + width + N]])
    qtbot.waitUntil(lambda: getattr(view.detail.precision_chart, "_data", (None, None))[:2] == want)
    assert view.detail.bp_chart.isVisible()


def test_sorting_and_filtering(qtbot, views):
    views.show_demo(qtbot, 1)
    view = views.inspect
    model = view.sentences.model
    model.sort(COL_BLEU, Qt.SortOrder.DescendingOrder)
    scores = [float(model.data(model.index(r, COL_BLEU))) for r in range(model.rowCount())]
    assert scores == sorted(scores, reverse=True)
    view.sentences.filter_edit.setText("museum")
    view.sentences.apply_filter()
    assert model.rowCount() == 1 and "museum" in model.data(model.index(0, 3))
    view.sentences.filter_edit.setText("")
    view.sentences.on_histogram_bin_clicked(90.0, 100.0)
    assert all(float(model.data(model.index(r, COL_BLEU))) >= 90 for r in range(model.rowCount()))


def test_sorting_by_delta_and_side_filters(qtbot, views):
    c = views.show_demo(qtbot)
    view = views.compare_view
    model = view.pairs.model
    model.sort(3, Qt.SortOrder.DescendingOrder)
    deltas = [float(model.data(model.index(r, 3))) for r in range(model.rowCount())]
    assert deltas == sorted(deltas, reverse=True) and len(deltas) == 12
    view.pairs.side.setCurrentIndex(model.B_BETTER)
    a, b = c.systems[0].results[0].sentences, c.systems[1].results[0].sentences
    assert model.rowCount() == int((b > a).sum())
    view.pairs.side.setCurrentIndex(model.A_BETTER)
    assert model.rowCount() == int((b < a).sum())


def test_clicking_a_scatter_point_selects_that_sentence(qtbot, views):
    views.show_demo(qtbot)
    view = views.compare_view
    points = view.charts.scatter.points.points()
    target = [p for p in points if p.data() == 6][0]
    with qtbot.waitSignal(views.controller.sentence_changed) as blocker:
        view.charts.scatter.points.sigClicked.emit(view.charts.scatter.points, [target], None)
    assert blocker.args == [6]
    assert view.pairs.model.sentence_at(view.pairs.view.currentIndex().row()) == 6
    assert views.controller.sentence == 6  # the Inspect tab follows
    view.charts.on_region_selected(90.0, 101.0, 90.0, 101.0)
    both_high = [i for i in range(12) if view.charts.scatter.xs[i] >= 90 and view.charts.scatter.ys[i] >= 90]
    assert sorted(view.pairs.model.sentence_at(r) for r in range(view.pairs.model.rowCount())) == both_high


def test_ngram_filter(qtbot, views):
    c = views.show_demo(qtbot)
    view = views.compare_view
    assert view.ngrams.wins_a.rowCount() > 0
    item = view.ngrams.wins_a.items[0]
    view.ngrams.on_ngram_clicked(view.ngrams.wins_a.index(0, 0))
    shown = [view.pairs.model.sentence_at(r) for r in range(view.pairs.model.rowCount())]
    expected = c.comparison.ngram_wins[0].ngrams.sentences_with(item.order, item.ngram).tolist()
    assert shown == expected and shown
    lines_a = c.systems[0].lines
    lines_b = c.systems[1].lines
    assert all(item.ngram.lower() in (lines_a[i] + " " + lines_b[i]).lower() for i in shown)


def test_only_in_one_system_tokens_are_marked(qtbot, views):
    views.show_demo(qtbot)
    view = views.compare_view
    view.controller.set_sentence(3)  # A: "She said the museum ...", B: "The the the the the museum ..."
    from bleu_gui.gui.compare.compare_paint import ONLY_PROPERTY

    doc = view.panes.pane_a.document()
    marked = []
    for _start, end in [(0, 3), (4, 8)]:
        cursor = QTextCursor(doc)
        cursor.setPosition(end)
        marked.append(bool(cursor.charFormat().property(ONLY_PROPERTY)))
    assert marked == [True, True]  # "She", "said": matched by A only
    cursor = QTextCursor(view.panes.pane_b.document())
    cursor.setPosition(len("The the the the the museum"))
    assert not cursor.charFormat().property(ONLY_PROPERTY)  # "museum" is matched by both


def test_keyboard_navigation_and_filter_typing(qtbot, views):
    views.show_demo(qtbot, 1)
    view = views.inspect
    view.sentences.table.setFocus()
    qtbot.waitUntil(view.sentences.table.hasFocus)
    view.sentences.select_sentence(0)
    qtbot.keyClick(view.sentences.table, Qt.Key.Key_J)
    assert view.controller.sentence == 1
    qtbot.keyClick(view.sentences.table, Qt.Key.Key_K)
    assert view.controller.sentence == 0
    qtbot.keyClick(view.sentences.table, Qt.Key.Key_End)
    assert view.controller.sentence == 11
    view.sentences.filter_edit.setFocus()
    qtbot.waitUntil(view.sentences.filter_edit.hasFocus)
    qtbot.keyClicks(view.sentences.filter_edit, "jk")
    assert view.sentences.filter_edit.text() == "jk" and view.controller.sentence == 11


def test_copy_signature(qtbot, views):
    from PySide6.QtGui import QGuiApplication

    views.show_demo(qtbot, 1)
    views.inspect.header.on_copy_signature_clicked()
    assert QGuiApplication.clipboard().text() == views.controller.run.baseline.results[0].corpus.signature
    views.inspect.header.on_copy_clicked()
    assert QGuiApplication.clipboard().text().startswith("BLEU|nrefs:2")


def test_clicking_a_histogram_bar_filters_the_list(qtbot, views):
    from PySide6.QtCore import QPointF

    views.show_demo(qtbot, 1)
    plot = views.inspect.sentences.histogram.plot
    vb = plot.getPlotItem().vb
    qtbot.waitUntil(lambda: vb.sceneBoundingRect().width() > 10)
    scene_point = vb.mapViewToScene(QPointF(95.0, 0.5))
    widget_point = plot.mapFromScene(scene_point)
    with qtbot.waitSignal(views.inspect.sentences.histogram.bin_clicked) as blocker:
        qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=widget_point)
    assert blocker.args == [90.0, 100.0]
    model = views.inspect.sentences.model
    assert model.rowCount() > 0
    assert all(float(model.data(model.index(r, COL_BLEU))) >= 90 for r in range(model.rowCount()))


def test_real_click_on_a_scatter_point(qtbot, views):
    from PySide6.QtCore import QPointF

    views.show_demo(qtbot)
    view = views.compare_view
    plot = view.charts.scatter.plot
    vb = plot.getPlotItem().vb
    qtbot.waitUntil(lambda: vb.sceneBoundingRect().width() > 10)
    target = 9  # sentence 10: A 39.28, B 17.11 — a point with no neighbour under the cursor
    point = plot.mapFromScene(vb.mapViewToScene(QPointF(view.charts.scatter.xs[target], view.charts.scatter.ys[target])))
    with qtbot.waitSignal(views.controller.sentence_changed) as blocker:
        qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert blocker.args == [target]


def test_sorting_the_compare_table_keeps_the_selected_sentence(qtbot, views):
    views.show_scored(qtbot, demo_run())
    view = views.compare_view
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


def test_views_keep_qwidget_render(qtbot, views):
    views.show_scored(qtbot, demo_run())
    for widget in (views.compare_view, views.inspect.detail.panes, views.inspect):
        assert type(widget).render is QWidget.render  # not a method of ours of the same name
        pixmap = QPixmap(200, 100)
        pixmap.fill(QColor("#123456"))
        widget.render(pixmap)
        assert pixmap.toImage().pixelColor(100, 50) != QColor("#123456")  # it painted


@pytest.mark.parametrize("order", [2, 6])
def test_compare_view_follows_the_run_order(qtbot, views, order):
    run = demo_run(BleuConfig(max_order=order))
    views.show_scored(qtbot, run)
    view = views.compare_view
    assert [view.ngrams.order.itemData(i) for i in range(view.ngrams.order.count())] == list(range(1, order + 1))
    assert view.panes.order.count() == order + 1  # and "all orders"
    assert view.systems.model.columnCount() == 9 + order + 4
    view.ngrams.order.setCurrentIndex(order - 1)
    expected = run.comparison.ngram_wins[0].wins[order]
    assert view.ngrams.wins_b.items == expected[0] and view.ngrams.wins_a.items == expected[1]
    view.panes.order.setCurrentIndex(order - 1)
    view.controller.set_sentence(2)


def test_delta_chart_its_svg_and_the_interval_agree(qtbot, views, tmp_path):
    run = demo_run()
    views.show_scored(qtbot, run)
    chart = views.compare_view.charts.delta_chart
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


def test_an_undefined_sentence_score_reads_the_same_everywhere(qtbot, views, tmp_path):
    # NLTK's method6 refuses a sentence without a trigram match: its score is undefined.
    hyps = [["the cat sat on the mat today", "a b"], ["the cat sat on the mat now", "a c"]]
    refs = ["the cat sat on the mat today", "a b c"]
    files = [SegmentFile(Path(f"sys{i}.txt"), h, "utf-8") for i, h in enumerate(hyps)]
    run = score_run(files, [SegmentFile(Path("ref.txt"), refs, "utf-8")],
                    RunConfig((BleuConfig(variant="nltk", nltk_smoothing=6),)))
    assert np.isnan(run.systems[0].results[0].sentences[1])
    views.show_scored(qtbot, run)
    inspect = views.inspect
    inspect.sentences.select_sentence(1)
    assert inspect.sentences.model.data(inspect.sentences.model.index(inspect.sentences.model.row_of(1), 1)) == "n/a"
    assert "sentence BLEU n/a" in inspect.detail.sentence_label.text()
    view = views.compare_view
    view.controller.set_sentence(1)
    row = view.pairs.model.row_of(1)
    assert [view.pairs.model.data(view.pairs.model.index(row, c)) for c in (1, 2, 3)] == ["n/a", "n/a", "n/a"]
    assert "A n/a · B n/a · B − A n/a" in view.panes.sentence_label.text()


def test_highlighting_and_hover_after_characters_outside_the_bmp(qtbot, views, tmp_path):
    from PySide6.QtGui import QTextCursor

    from bleu_gui.core.metrics.bleu.details import MATCHED, UNMATCHED
    from bleu_gui.gui.widgets.panes import STATUS_PROPERTY, utf16_offsets

    text = "😀 the 𠀀 cat 🇯🇵 sat"
    cand, ref = tmp_path / "cand.txt", tmp_path / "ref.txt"
    cand.write_text(text + "\n", encoding="utf-8")
    ref.write_text("the cat sat\n", encoding="utf-8")
    views.show_run(qtbot, [cand], [ref])
    pane = views.inspect.detail.panes.candidate
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
    assert views.inspect.detail.panes.occurrence_at(index).ngram == ("sat",)


def test_the_systems_table_labels_a_copy_of_the_baseline(qtbot, views):
    systems, refs = demo_paths()
    texts = [p.read_text(encoding="utf-8").splitlines() for p in [systems[0], systems[0], systems[1], *refs]]
    files = [SegmentFile(Path(n), t, "utf-8") for n, t in zip(["a.txt", "twin.txt", "b.txt", "r1", "r2"], texts)]
    run = score_run(files[:3], files[3:], RunConfig((BleuConfig(),)))
    views.show_scored(qtbot, run)
    model = views.compare_view.systems.model
    assert run.comparison.by_metric[0].bootstrap[1].p_value <= 0.05
    assert model.cell(1, 5).endswith("(identical to baseline)") and "*" not in model.cell(1, 5)
    assert "*" not in model.cell(1, 6)
    assert "never starred" in model.data(model.index(1, 5), Qt.ItemDataRole.ToolTipRole)
    # A copy is never "significantly worse" than its original: the two share a rank.
    assert model.cell(0, 0) == model.cell(1, 0) == "1"
    assert not run.comparison.identical[2]


def test_every_compare_chart_swaps_its_placeholder_for_the_plot(qtbot, views):
    view = views.compare_view
    charts = [view.charts.scatter, view.charts.precision_dots, view.charts.delta_chart, view.charts.bucket_dots]
    views.show_scored(qtbot, demo_run())
    views.setCurrentIndex(1)
    for chart in charts:
        assert chart.plot.isVisible() and not chart.placeholder.isVisible(), chart.title
        assert chart.layout().indexOf(chart.plot) >= 0  # the plot shown is the one in the layout


def test_an_empty_ngram_list_says_so(qtbot, views):
    """B matches no n-gram more often than A (A is the reference itself, B a shorter copy): the list says that, not a
    blank table that looks like a view still loading."""
    ref = ["the cat sat on the mat today", "a dog ran in the park at noon"]
    a, b, r = (SegmentFile(Path(name), lines, "utf-8") for name, lines in
               (("a.txt", ref), ("b.txt", [" ".join(x.split()[:3]) for x in ref]), ("ref.txt", ref)))
    run = score_run([a, b], [r], RunConfig((BleuConfig(),)))
    views.show_scored(qtbot, run)
    views.setCurrentWidget(views.compare_view)
    view = views.compare_view
    assert view.ngrams.wins_b.rowCount() == 0 and view.ngrams.wins_a.rowCount() > 0
    assert view.ngrams.wins_b_view.empty_text == "B matches no 1-gram more often than A"
    image = view.ngrams.wins_b_view.viewport().grab().toImage()
    inked = sum(image.pixelColor(x, y).lightness() < 128 for x in range(image.width()) for y in range(image.height()))
    assert inked > 20  # the sentence is painted in the empty list
    filled = view.ngrams.wins_a_view.viewport().grab().toImage()
    assert view.ngrams.wins_a_view.empty_text == "A matches no 1-gram more often than B" and filled.width() > 0
