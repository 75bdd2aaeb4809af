"""The Compare tab with many systems: ranked from the start, names on the matrix's columns, markers told apart
by colour and shape, one legend that highlights a system; charts that say what their marks are."""

from __future__ import annotations

from PySide6.QtCore import Qt

from bleu_gui.core import RunConfig, Significance
from bleu_gui.gui.compare.system_legend import SHAPES, colour_of, shape_of

from .conftest import data_set


def fifteen(tmp_path):
    """WMT17 en-de: twelve systems and three mixes of two (15 in all), 300 lines each."""
    folder = data_set("sacrebleu-wmt17-en-de")
    lines = {i: (folder / f"sys{i}.txt").read_text(encoding="utf-8-sig").splitlines()[:300] for i in range(1, 13)}
    paths = []
    for i in range(1, 13):
        path = tmp_path / f"sys{i}.txt"
        path.write_text("\n".join(lines[i]) + "\n", encoding="utf-8")
        paths.append(path)
    for k in range(3):
        mixed = [x if j % 3 else y for j, (x, y) in enumerate(zip(lines[k + 1], lines[k + 2]))]
        path = tmp_path / f"experiment-{k + 1:02d}-transformer-big-sys{k + 1}-sys{k + 2}.txt"
        path.write_text("\n".join(mixed) + "\n", encoding="utf-8")
        paths.append(path)
    ref = tmp_path / "ref.txt"
    ref.write_text("\n".join((folder / "ref1.txt").read_text(encoding="utf-8").splitlines()[:300]) + "\n",
                   encoding="utf-8")
    return paths, [ref]


def test_fifteen_systems_are_ranked_named_and_told_apart(qtbot, views, tmp_path):
    systems, refs = fifteen(tmp_path)
    run = views.show_run(qtbot, systems, refs, RunConfig(significance=Significance(bootstrap=100, approximate=200)))
    views.setCurrentIndex(1)
    panel = views.compare_view.systems
    table = panel.table.model()
    scores = [run.systems[table.data(table.index(r, 0), Qt.ItemDataRole.UserRole)].results[0].corpus.score
              for r in range(table.rowCount())]
    ranks = [int(table.data(table.index(r, 0))) for r in range(table.rowCount())]
    assert ranks == sorted(ranks) and ranks[0] == 1  # the table starts in rank order
    for rank in set(ranks):  # best first within a rank
        within = [s for s, k in zip(scores, ranks) if k == rank]
        assert within == sorted(within, reverse=True)
    matrix = panel.matrix.model
    names = [s.name for s in run.systems]
    for column in range(matrix.columnCount()):
        label = matrix.headerData(column, Qt.Orientation.Horizontal)
        number, short = label.split("\n")
        whole = names[matrix.order[column]]
        assert number == str(column + 1)
        stem = whole.removesuffix(".txt")  # every name ends in .txt: the columns leave it out
        # cut in the middle to what the column's width holds in the header's font (issue 57: "Lan-…idge" was cut)
        head, _, tail = short.partition("…")
        assert short == stem or (stem.startswith(head) and stem.endswith(tail) and len(head) >= 3 and len(tail) >= 3)
    markers = {(colour_of(i), shape_of(i)) for i in range(15)}
    assert len(markers) == 15 and {shape_of(i) for i in range(15)} == set(SHAPES)


def test_a_legend_entry_highlights_its_system_in_both_dot_charts(qtbot, views):
    views.show_demo(qtbot)
    views.setCurrentIndex(1)
    charts = views.compare_view.charts
    assert [b.text() for b in charts.legend.buttons] == [s.name for s in views.controller.run.systems]
    charts.legend.buttons[1].click()
    for chart in (charts.precision_dots, charts.bucket_dots):
        spots = chart.dots.points()
        mine = [p for p in spots if p.data()[0] == views.controller.run.systems[1].name]
        others = [p for p in spots if p.data()[0] != views.controller.run.systems[1].name]
        assert mine and others
        assert all(p.size() > o.size() for p in mine for o in others)
        assert all(o.brush().color().alpha() < 100 for o in others)
        assert {p.symbol() for p in mine} == {shape_of(1)}
    charts.legend.buttons[1].click()  # again: cleared
    spots = charts.precision_dots.dots.points()
    assert len({p.size() for p in spots}) == 1 and all(p.brush().color().alpha() == 255 for p in spots)
    assert not any(b.isChecked() for b in charts.legend.buttons)


def test_precision_labels_show_only_where_they_fit(qtbot, views):
    views.show_demo(qtbot)
    chart = views.inspect.detail.precision_chart
    assert chart.key.isVisible() and "corpus" in chart.key.text()
    chart.resize(900, chart.height())
    qtbot.waitUntil(lambda: all(item.isVisible() for item in chart.labels[:4]))
    chart.resize(150, chart.height())
    qtbot.waitUntil(lambda: not any(item.isVisible() for item in chart.labels[:4]))
    texts = [item.toPlainText() for item in chart.labels[:4]]
    assert all(text.count("/") == 1 for text in texts)


def test_pair_list_headers_are_never_cut(qtbot, views):
    from bleu_gui.core import BleuConfig
    from bleu_gui.core.metrics.chrf.chrf import ChrfConfig

    views.show_demo(qtbot, config=RunConfig((BleuConfig(), ChrfConfig(word_order=2))))
    views.setCurrentIndex(1)
    views.controller.set_metric(1)
    table = views.compare_view.pairs.view
    header, metrics = table.horizontalHeader(), table.fontMetrics()
    for col in (1, 2, 3):
        text = table.model().headerData(col, Qt.Orientation.Horizontal)
        assert "chrF2++" in text or col == 3
        assert header.sectionSize(col) >= metrics.horizontalAdvance(text) + 12, text
