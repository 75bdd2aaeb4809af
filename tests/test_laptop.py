"""The window on a laptop's 1366 × 768 screen, and the dialogs a newcomer meets (issue 47): the window opens within
the screen and never grows past it, the header's notes fold behind the first, every system's row and at least
five rows of the matrix are in view with 15 systems, text that does not fit ends in "…" with a tooltip, File ▸
Open keeps what was typed when a file cannot be used, the slice box's ⓧ shows the whole corpus again, file
dialogs start where that kind of file was last saved, a chart's legend follows the metric, empty word-accuracy
buckets have no dot, shortcuts work from the candidate being edited, and a figure of the Compare view shows every
row without controls or scroll bars."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QRect, QSettings, Qt
from PySide6.QtGui import QScreen
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QFileDialog, QPushButton

from bleu_gui.core import BleuConfig
from bleu_gui.core.metrics.chrf.config import ChrfConfig
from bleu_gui.core.metrics.ter.config import TerConfig
from bleu_gui.demo import demo_paths
from bleu_gui.gui.shell.main_window import MainWindow
from bleu_gui.gui.shell.settings import Settings
from bleu_gui.gui.widgets.elided_label import ElidedLabel
from bleu_gui.gui.widgets.figures import full_height
from bleu_gui.gui.widgets.reference_stack import lines_high

from .conftest import data_set

LAPTOP = QRect(0, 0, 1366, 768)


def fifteen_systems(tmp_path: Path, lines: int = 400) -> tuple[list[Path], list[Path]]:
    """WMT17 en-de's twelve systems and three mixes of two of them, against its reference: their first ``lines``
    lines (what these tests look at — the names, the systems' rows, the metrics' columns — is the same for 3,004)."""
    folder = data_set("sacrebleu-wmt17-en-de")

    def first(name: str) -> list[str]:
        return (folder / name).read_text("utf-8").splitlines()[:lines]

    def written(name: str, text: list[str]) -> Path:
        (tmp_path / name).write_text("\n".join(text) + "\n", "utf-8")
        return tmp_path / name

    systems = [written(f"sys{i}.txt", first(f"sys{i}.txt")) for i in range(1, 13)]
    for k in range(3):
        a, b = first(f"sys{k + 1}.txt"), first(f"sys{k + 2}.txt")
        systems.append(written(f"experiment-{k + 1:02d}-transformer-big-checkpoint-averaged.txt",
                               [x if i % 3 else y for i, (x, y) in enumerate(zip(a, b))]))
    return systems, [written("ref1.txt", first("ref1.txt"))]


@pytest.fixture
def laptop(monkeypatch):
    """The screen's available area is a laptop's."""
    monkeypatch.setattr(QScreen, "availableGeometry", lambda _screen: LAPTOP)


def test_a_first_window_opens_within_a_laptop_screen_and_a_run_never_grows_it(qtbot, tmp_path, laptop):
    window = MainWindow(Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)))
    qtbot.addWidget(window)
    window.show()
    assert window.frameGeometry().height() <= 768 and window.width() <= 1366
    before = window.size()
    systems, refs = fifteen_systems(tmp_path, lines=100)  # TER's search on 15 × 400 lines was most of the test
    window.controller.choose_scoring((*window.controller.scoring.metrics, ChrfConfig(), TerConfig()))
    with qtbot.waitSignal(window.run_changed, timeout=300_000):
        window.run_actions.open_files(systems, refs)
    assert window.size() == before and window.frameGeometry().height() <= 768


BELOW_A_PANEL = QRect(0, 0, 1366, 768 - 40 - 32)  # a 40 px panel, and the title bar the offscreen platform omits


def opened_with_bars(qtbot, tmp_path, systems, refs, metrics) -> MainWindow:
    """A window on a laptop's screen below a panel, with ``metrics`` carried over from an earlier session (a
    bar says so), showing ``systems`` (the first with a line dropped: a bar says so) against ``refs``."""
    settings = Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    settings.set_metrics(metrics)
    window = MainWindow(settings)
    qtbot.addWidget(window)
    window.show()
    lines = systems[0].read_text(encoding="utf-8").splitlines()
    dropped = tmp_path / "line-5-dropped.txt"
    dropped.write_text("\n".join([*lines[:4], *lines[5:], "(a last line, to keep the count)"]) + "\n", "utf-8")
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files([dropped, *systems[1:]], refs)
    return window


def first_lines(folder: Path, tmp_path: Path, lines: int = 200) -> tuple[list[Path], list[Path]]:
    """The first ``lines`` lines of a set's first two systems and of every reference, copied to ``tmp_path``."""

    def head(source: Path) -> Path:
        text = source.read_text("utf-8").splitlines()[:lines]
        (tmp_path / source.name).write_text("\n".join(text) + "\n", "utf-8")
        return tmp_path / source.name

    return [head(folder / f"sys{k}.txt") for k in (1, 2)], [head(p) for p in sorted(folder.glob("ref*.txt"))]


def test_the_window_with_its_bars_fits_a_laptop_screen_below_a_panel(qtbot, tmp_path, monkeypatch):
    """A carried setting's bar and a misaligned file's bar left the window 773 px tall (the Compare tab's
    minimum counted while Inspect was shown): within the screen now, whichever tab is shown."""
    monkeypatch.setattr(QScreen, "availableGeometry", lambda _screen: BELOW_A_PANEL)
    window = opened_with_bars(qtbot, tmp_path, *demo_paths("en"), (BleuConfig(lowercase=True),))
    qtbot.waitUntil(lambda: window.bars.alignment.isVisible() and window.bars.settings.isVisible())
    assert window.frameGeometry().height() <= BELOW_A_PANEL.height()
    assert window.bars_area.verticalScrollBar().maximum() == 0  # two bars are shown whole
    window.tabs.setCurrentIndex(1)  # Compare's panes scroll rather than grow the window
    assert window.frameGeometry().height() <= BELOW_A_PANEL.height()
    # Neither scroll area is a stop of the Tab key or takes the focus from a click between widgets.
    assert window.tabs.currentWidget().focusPolicy() == window.bars_area.focusPolicy() == Qt.FocusPolicy.NoFocus


def test_four_bars_scroll_rather_than_squeeze_the_sentences(qtbot, tmp_path, monkeypatch):
    """Chinese references bring BLEU's and TER's advice besides the two bars above: 150 px of bars left three
    rows of the sentence list; two bars are in view now, the two that warn, and the advice scrolls."""
    monkeypatch.setattr(QScreen, "availableGeometry", lambda _screen: BELOW_A_PANEL)
    systems, refs = first_lines(data_set("wmt22-en-zh-2ref"), tmp_path)
    window = opened_with_bars(qtbot, tmp_path, systems, refs, (BleuConfig(lowercase=True), TerConfig()))
    bars = window.bars
    qtbot.waitUntil(lambda: all(b.isVisible() for b in (bars.alignment, bars.advice, bars.more_advice, bars.settings)))
    assert window.frameGeometry().height() <= BELOW_A_PANEL.height()
    area = window.bars_area
    qtbot.waitUntil(lambda: area.verticalScrollBar().maximum() > 0)  # the bars below scroll into view
    assert area.height() <= bars.alignment.height() + bars.settings.height() + 2
    # In view: the bars that say the numbers may not be what they seem (a line off, settings carried over);
    # the advice on tokenizers follows them.
    assert bars.settings.geometry().bottom() < area.viewport().height() <= bars.advice.geometry().bottom()
    assert window.inspect.sentences.height() >= 200
    bars.alignment.hide()  # its ✕: the two advice bars, of two lines each, come first
    qtbot.waitUntil(lambda: area.height() == area.sizeHint().height())
    assert window.frameGeometry().height() <= BELOW_A_PANEL.height()


def test_three_references_and_two_bars_fit_a_laptop_screen_below_a_panel(qtbot, tmp_path, monkeypatch):
    """WMT21 en-de's three references, each in a pane two lines high, with a misaligned file's bar and a carried
    setting's: the window needed 702–706 px (by the machine's fonts), 6–10 more than the screen below a panel
    leaves."""
    monkeypatch.setattr(QScreen, "availableGeometry", lambda _screen: BELOW_A_PANEL)
    systems, refs = first_lines(data_set("wmt21-en-de-3ref"), tmp_path)
    assert len(refs) == 3
    window = opened_with_bars(qtbot, tmp_path, systems, refs, (BleuConfig(lowercase=True),))
    qtbot.waitUntil(lambda: window.bars.alignment.isVisible() and window.bars.settings.isVisible())
    panes = window.inspect.detail.panes.references.panes
    assert len(panes) == 3
    assert window.frameGeometry().height() <= BELOW_A_PANEL.height()
    # Each reference in sight, two lines high, once the layout has taken the bars in.
    qtbot.waitUntil(lambda: all(p.visibleRegion().boundingRect().height() >= lines_high(p, 2) - 1 for p in panes))
    # The list above its histogram keeps six sentences in view (four, when the histogram kept 150 px of plot).
    table = window.inspect.sentences.table
    assert table.viewport().height() >= 6 * table.verticalHeader().defaultSectionSize()


def compare_fifteen_at_1366_by_768(qtbot, window, tmp_path):
    """The window at a laptop's size, fifteen systems open, on the Compare tab."""
    window.resize(1366, 768)
    systems, refs = fifteen_systems(tmp_path)
    with qtbot.waitSignal(window.run_changed, timeout=300_000):
        window.run_actions.open_files(systems, refs)
    window.tabs.setCurrentIndex(1)
    return window.compare_view


def test_fifteen_systems_all_in_view_at_1366_by_768(qtbot, window, tmp_path):
    compare = compare_fifteen_at_1366_by_768(qtbot, window, tmp_path)
    qtbot.waitUntil(lambda: compare.systems.table.isVisible())
    table, matrix = compare.systems.table, compare.systems.matrix.view
    rows = table.verticalHeader().defaultSectionSize()
    assert table.viewport().height() >= 15 * rows  # every system's row
    assert matrix.viewport().height() >= 5 * matrix.verticalHeader().defaultSectionSize()
    assert compare.compact and compare.lower_tabs.isVisible()  # the lists, panes and charts as tabs below
    for part in (compare.pairs, compare.wins_tabs, compare.charts):  # each tab shows its part when chosen
        compare.lower_tabs.setCurrentIndex(compare.lower_tabs.indexOf(part.parentWidget()))
        assert part.isVisible()
        if part is compare.wins_tabs:  # BLEU's n-gram wins alone: no model to ask, no tab bar
            assert compare.ngrams.isVisible() and not compare.wins_tabs.tabBar().isVisible()
    # The sentences' tab: A and B never drawn under their minimum (the raters' strips went over B's text), they
    # scroll instead; the pair list's last column as wide as its header, not the list's rest.
    compare.lower_tabs.setCurrentIndex(compare.lower_tabs.indexOf(compare.sentences_split))
    qtbot.waitUntil(lambda: compare.panes.isVisible())
    assert compare.panes.height() >= compare.panes.minimumSizeHint().height()
    header = compare.pairs.view.horizontalHeader()
    loo = header.fontMetrics().horizontalAdvance(str(compare.pairs.model.headerData(4, Qt.Orientation.Horizontal)))
    window.resize(1920, 1080)
    qtbot.waitUntil(lambda: not compare.compact)  # a tall window has room for them side by side
    assert compare.charts.isVisible() and compare.ngrams.isVisible()
    assert header.sectionSize(4) <= max(loo, header.fontMetrics().horizontalAdvance("+00.0000")) + 24
    pane = compare.panes.pane_a
    assert pane.height() >= lines_high(pane, 3)  # three whole lines of A and of B


def test_a_label_that_does_not_fit_ends_in_an_ellipsis_with_its_text_as_tooltip(qtbot):
    label = ElidedLabel("What-if: corpus BLEU 53.65 → 54.99 (+1.33) · 1 sentence edited")
    qtbot.addWidget(label)
    label.resize(120, 20)
    label.show()
    assert label.text().endswith("1 sentence edited")  # the whole text, as set
    assert QLabelText(label).endswith("…") and label.toolTip() == label.text()
    label.resize(900, 20)
    assert QLabelText(label) == label.text() and label.toolTip() == ""


def QLabelText(label: ElidedLabel) -> str:  # noqa: N802 - what Qt draws, not the text as set
    from PySide6.QtWidgets import QLabel

    return QLabel.text(label)


def test_file_open_keeps_the_dialog_and_what_was_typed_when_a_file_cannot_be_used(qtbot, window, tmp_path):
    systems, refs = demo_paths()
    missing = str(tmp_path / "no-such-system.txt")
    dialog = window.file_open.ask()
    dialog.systems.setText(missing)
    dialog.references.setText(str(refs[0]))
    dialog.labels.setText("mine")
    dialog.on_accept()
    qtbot.waitUntil(lambda: "no-such-system.txt" in dialog.problem.text() and dialog.buttons.isEnabled())
    assert dialog.isVisible() and dialog.marked is dialog.systems and dialog.labels.text() == "mine"
    dialog.reject()
    again = window.file_open.ask()
    assert again.systems.text() == missing and again.labels.text() == "mine"  # what was typed, not the last run's
    again.systems.setText(str(systems[0]))
    with qtbot.waitSignal(window.run_changed):
        again.on_accept()
    assert not again.isVisible() and [s.name for s in window.controller.run.systems] == ["mine"]


def test_a_file_holding_a_whole_run_goes_in_system_outputs_as_on_the_command_line(qtbot, window):
    path = data_set("formats") / "wmt-xml-wmt22-liv-en" / "wmttest2022.liv-en.all.xml"
    dialog = window.file_open.ask()
    dialog.systems.setText(str(path))
    request = dialog.choice().request
    assert request.systems == () and request.references == (str(path),)
    dialog.reject()


def test_the_slice_box_cleared_shows_the_whole_corpus(qtbot, window):
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_demo()
    panel = window.inspect.sentences.slice_panel
    panel.expression.setText("ref_words >= 8")
    with qtbot.waitSignal(window.run_changed):
        panel.on_expression()
    assert window.controller.run.slice is not None
    with qtbot.waitSignal(window.run_changed):
        panel.expression.clear()  # what its ⓧ does
    assert window.controller.run.slice is None


def test_a_file_dialog_starts_where_that_kind_of_file_was_last_saved(qtbot, window, tmp_path, monkeypatch):
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_demo()
    asked: list[str] = []
    answers = iter([str(tmp_path / "out" / "report.html"), "", ""])
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda _parent, _title, start, _filters: (asked.append(start), (next(answers), ""))[1])
    monkeypatch.setattr(window.exports, "export_report", lambda *args: None)
    inputs = Path(demo_paths()[1][0]).parent
    window.exports.ask_report(window.controller.run, window.report_view())
    window.exports.ask_report(window.controller.run, window.report_view())
    window.exports.ask_sentences(window.controller.run)
    assert asked == [str(inputs / "report.html"), str(tmp_path / "out" / "report.html"),
                     str(inputs / "sentences.csv")]


def test_the_evidence_chart_legend_follows_the_metric(qtbot, views):
    from bleu_gui.core import BleuConfig, RunConfig

    views.show_demo(qtbot, config=RunConfig((BleuConfig(), ChrfConfig(), TerConfig())))
    chart = views.inspect.evidence.chart
    views.controller.set_metric(1)
    assert [item.name() for item in chart.series] == ["precision", "recall"]
    views.controller.set_metric(2)
    assert [item.name() for item in chart.series] == ["edits"]
    assert [label.text for _sample, label in chart.legend.items] == ["edits"]


def test_word_accuracy_buckets_without_reference_words_have_no_dot(qtbot, window):
    systems, refs = demo_paths()
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_files(systems, refs)
    dialog = window.tools.open_word_accuracy()
    with qtbot.waitSignal(dialog.ready):
        pass
    _recall, _precision, _f = dialog.accuracy.measures()
    _matched, reference, _output = dialog.accuracy.totals()
    empty = np.flatnonzero(reference == 0)
    assert len(empty) > 0  # the demo's reference has no word seen 1000 times
    names, values, _ticks = dialog.chart._data
    assert np.isnan(values[:, empty]).all() and not np.isnan(values[:, reference > 0]).any()
    assert all(dialog.table.item(int(b), 1).text() == "–" for b in empty)
    dialog.close()


def test_window_shortcuts_work_while_a_candidate_is_edited(qtbot, window, monkeypatch):
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_demo()
    calls: list[str] = []
    monkeypatch.setattr(window.file_open, "ask", lambda: calls.append("open"))
    monkeypatch.setattr(window.figures, "ask", lambda: calls.append("figure"))
    window.inspect.detail.editor.set_editing(True)
    pane = window.inspect.detail.panes.candidate
    window.activateWindow()
    pane.setFocus()
    qtbot.keyClick(pane, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(pane, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert calls == ["open", "figure"]


def test_a_figure_of_compare_shows_every_row_without_controls_or_scroll_bars(qtbot, window, tmp_path):
    compare = compare_fifteen_at_1366_by_768(qtbot, window, tmp_path)
    table, matrix = compare.systems.table, compare.systems.matrix.view
    with compare.for_figure(1050) as natural:
        assert natural and not compare.compact
        assert table.height() == full_height(table) and matrix.height() == full_height(matrix)
        assert not compare.systems.matrix.controls.isVisibleTo(compare)
        assert not compare.pairs.isVisibleTo(compare) and not compare.panes.isVisibleTo(compare)
        controls = [*compare.findChildren(QComboBox), *compare.findChildren(QAbstractSpinBox)]
        shown = [w for w in controls if w.isVisibleTo(compare)]
        assert shown == []
    assert compare.compact and compare.systems.matrix.controls.isVisibleTo(compare)  # the window's arrangement back
    figure = tmp_path / "compare.png"
    from bleu_gui.gui.widgets.figures import PRESETS

    buttons = [b for b in compare.findChildren(QPushButton) if b.isVisible()]
    window.figures.export(figure, PRESETS[2])
    assert figure.stat().st_size > 0 and buttons and all(b.isVisible() for b in buttons)  # back after the figure


def test_ter_labels_its_substitutions_at_the_texts_own_size_on_cjk_text():
    from bleu_gui.core.metrics.ter.config import TerConfig as Config
    from bleu_gui.core.metrics.ter.explain import ter_edits_html
    from bleu_gui.core.metrics.ter.ter import Ter

    folder = data_set("wmt22-en-ja")
    hyp = (folder / "sys1.txt").read_text("utf-8").splitlines()[:40]
    ref = (folder / "ref1.txt").read_text("utf-8").splitlines()[:40]
    metric = Ter([ref], Config(asian_support=True, normalized=True))
    html = "".join(ter_edits_html(metric.evidence(i, h)) for i, h in enumerate(hyp))
    assert "→" in html and "<sup" not in html


def test_matrix_columns_drop_a_shared_extension_and_cut_long_names_in_the_middle():
    from bleu_gui.gui.compare.matrix_view import column_labels

    assert column_labels(["sys10.txt", "sys11.txt", "sys12.txt"]) == ["sys10", "sys11", "sys12"]
    assert column_labels(["a.txt", "b.xml"]) == ["a.txt", "b.xml"]  # no extension shared: names as they are
    assert column_labels(["experiment-01-transformer.txt", "base.txt"]) == ["expe…rmer", "base"]


def test_f9_shows_the_settings_with_the_focus_in_them_and_hides_them_back_to_where_it_was(qtbot, window):
    """A keyboard user who asks for the settings can use them at once, and is put back where they were."""
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_demo()
    dock, table = window.settings_dock, window.inspect.sentences.table
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_F9)  # shown at first: F9 hides
    qtbot.waitUntil(lambda: not dock.isVisible())
    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    qtbot.keyClick(table, Qt.Key.Key_F9)
    qtbot.waitUntil(lambda: dock.isVisible() and dock.isAncestorOf(window.focusWidget()))
    qtbot.keyClick(window.focusWidget(), Qt.Key.Key_F9)
    qtbot.waitUntil(lambda: not dock.isVisible() and table.hasFocus())
