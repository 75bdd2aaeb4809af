"""The Compare tab driven by the pair matrix and the systems table (pytest-qt)."""

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, QEvent, Qt

from bleu_gui.core import BleuConfig, RunConfig, SegmentFile, score_run
from bleu_gui.core.output.rankings import systems_table_file
from bleu_gui.demo import demo_paths
from bleu_gui.gui.compare.compare_models import SystemsTableModel
from bleu_gui.gui.compare.matrix_view import PairMatrixModel
from bleu_gui.gui.prepared import prepare


def three_systems(tmp_path):
    """The demo's two systems and a third that takes every other line from each."""
    systems, refs = demo_paths()
    a, b = (p.read_text(encoding="utf-8").splitlines() for p in systems)
    mixed = [x if i % 2 else y for i, (x, y) in enumerate(zip(a, b))]
    texts = [a, b, mixed] + [p.read_text(encoding="utf-8").splitlines() for p in refs]
    names = ["a.txt", "b.txt", "mix.txt", "ref1.txt", "ref2.txt"]
    files = [SegmentFile(tmp_path / n, t, "utf-8") for n, t in zip(names, texts)]
    return files[:3], files[3:]


@pytest.fixture
def shown(qtbot, window, tmp_path):
    systems, refs = three_systems(tmp_path)
    run = score_run(systems, refs, RunConfig((BleuConfig(),)))
    with qtbot.waitSignal(window.run_changed):
        window.controller.show(prepare(run))
    return window, run


def test_models_pass_qtmodeltester(qtmodeltester, tmp_path):
    systems, refs = three_systems(tmp_path)
    run = score_run(systems, refs, RunConfig((BleuConfig(),)))
    matrix = PairMatrixModel()
    from bleu_gui.core.output.rankings import Ranking

    matrix.set_matrix(run.comparison.by_metric[0].matrix, Ranking())
    qtmodeltester.check(matrix)
    table = SystemsTableModel()
    table.set_run(run)
    qtmodeltester.check(table)


def test_matrix_cells_show_delta_and_both_p_values(shown):
    window, run = shown
    model = window.compare_view.systems.matrix.model
    m = run.comparison.by_metric[0].matrix
    order = m.by_score()
    assert model.rowCount() == 3
    index = model.index(0, 2)
    a, b = order[0], order[2]
    assert model.data(index, Qt.ItemDataRole.UserRole) == (a, b)
    assert model.data(index) == f"+{m.scores[a] - m.scores[b]:.2f}"
    tip = model.data(index, Qt.ItemDataRole.ToolTipRole)
    assert f"{m.raw('bs')[a, b]:.4f}" in tip and f"{m.raw('ar')[a, b]:.4f}" in tip and "95% interval" in tip


def test_holm_changes_the_tooltip_and_ranks(qtbot, shown):
    window, run = shown
    panel = window.compare_view.systems.matrix
    with qtbot.waitSignal(panel.ranking_changed):
        panel.correction.setCurrentIndex(1)
    model = panel.model
    a, b = model.pair_at(model.index(0, 1))
    assert "Holm-corrected" in model.data(model.index(0, 1), Qt.ItemDataRole.ToolTipRole)
    assert f"{run.comparison.by_metric[0].matrix.p('ar', 'holm')[a, b]:.4f}" in model.data(model.index(0, 1),
                                                                               Qt.ItemDataRole.ToolTipRole)
    assert window.controller.ranking.correction == "holm"
    assert "Holm-corrected" in panel.caption.text()


def test_clicking_a_cell_with_the_baseline_sets_b(qtbot, shown):
    window, run = shown
    view = window.compare_view
    model = view.systems.matrix.model
    row = model.order.index(0)
    col = next(c for c in range(3) if model.order[c] == 2)
    rect = view.systems.matrix.view.visualRect(model.index(row, col))
    qtbot.mouseClick(view.systems.matrix.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert view.controller.b == 2 and view.b_combo.currentText() == "mix.txt"


def test_clicking_a_cell_without_the_baseline_makes_its_row_the_baseline(qtbot, shown):
    window, run = shown
    view = window.compare_view
    model = view.systems.matrix.model
    row = model.order.index(2)
    col = model.order.index(1)
    rect = view.systems.matrix.view.visualRect(model.index(row, col))
    with qtbot.waitSignal(window.run_changed):
        qtbot.mouseClick(view.systems.matrix.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    new = window.controller.run
    assert [s.name for s in new.systems] == ["mix.txt", "a.txt", "b.txt"]
    assert view.panes.label_a.text().endswith("mix.txt") and view.panes.label_b.text().endswith("b.txt")
    # The matrix was reordered, not recomputed: the same p-values, pair for pair.
    old, moved = run.comparison.by_metric[0].matrix, new.comparison.by_metric[0].matrix
    assert moved.raw("ar")[0, 2] == old.raw("ar")[2, 1] and moved.raw("bs")[1, 2] == old.raw("bs")[0, 1]


def test_systems_table_sorts_by_number_and_clicks_set_b(qtbot, shown):
    window, run = shown
    panel = window.compare_view.systems
    bleu_column = SystemsTableModel.HEAD.index("BLEU")
    panel.table.sortByColumn(bleu_column, Qt.SortOrder.DescendingOrder)
    shown_order = [panel.system_at(panel.proxy.index(r, 0)) for r in range(3)]
    assert shown_order == list(np.argsort([-s.results[0].corpus.score for s in run.systems], kind="stable"))
    row = next(r for r in range(3) if panel.system_at(panel.proxy.index(r, 0)) == 2)
    rect = panel.table.visualRect(panel.proxy.index(row, bleu_column))
    qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.controller.b == 2


def test_win_tie_loss_and_sign_test_in_the_table(shown):
    window, run = shown
    model = window.compare_view.systems.model
    a, b = run.systems[0].results[0].sentences, run.systems[1].results[0].sentences
    d = np.nan_to_num(b) - np.nan_to_num(a)
    expected = f"{int((d > 0).sum())} / {int((d == 0).sum())} / {int((d < 0).sum())}"
    assert model.cell(1, SystemsTableModel.HEAD.index("B / = / A")) == expected
    assert model.cell(0, SystemsTableModel.HEAD.index("B / = / A")) == "–"


def test_context_menu_makes_a_baseline(qtbot, shown, monkeypatch):
    window, run = shown
    panel = window.compare_view.systems
    requests = []
    from PySide6.QtWidgets import QMenu

    from bleu_gui.gui.actions import Actions

    window.controller.actions = Actions(compare_pair=lambda a, b: requests.append((a, b)))

    monkeypatch.setattr(QMenu, "popup", lambda self, *_: [a.trigger() for a in self.actions()
                                                           if a.text().startswith("Make")])
    row = next(r for r in range(3) if panel.system_at(panel.proxy.index(r, 0)) == 1)
    panel.on_context_menu(panel.table.visualRect(panel.proxy.index(row, 2)).center())
    assert requests == [(1, -1)]


def test_systems_table_exports(shown, tmp_path):
    window, run = shown
    ranking = window.controller.ranking
    tex = systems_table_file(run, tmp_path / "t.tex", ranking)
    assert r"\toprule" in tex and "mix.txt" in tex
    csv_text = systems_table_file(run, tmp_path / "t.csv", ranking)
    assert csv_text.splitlines()[1].startswith("rank,system,bleu")
    with pytest.raises(Exception, match=r"\.csv, \.json, \.tex or \.xlsx"):
        systems_table_file(run, Path("t.txt"), ranking)


def test_clicks_never_widen_the_window(qtbot, shown):
    window, run = shown
    view = window.compare_view
    width = window.width()
    view.pairs.filter_label.setText("x " * 400)
    view.panes.sentence_label.setText("y " * 400)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest.value)  # the layouts have their say
    QCoreApplication.processEvents()
    assert window.width() == width


def test_delta_chart_clears_its_interval_without_data(shown):
    window, _ = shown
    chart = window.compare_view.charts.delta_chart
    assert chart.low.isVisible()
    chart.update_values(None, None)
    assert not chart.low.isVisible() and not chart.high.isVisible()
    assert not chart.plot.getAxis("bottom").autoSIPrefix
