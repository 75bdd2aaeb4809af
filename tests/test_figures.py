"""Figures: one dialog, presets with text scaled, PNG/SVG/PDF of a chart or the whole Compare view, the
signature wrapped at its fields."""

from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QFont, QFontMetricsF, QImage

from bleu_gui.core import BleuConfig, RunConfig, score_run
from bleu_gui.core.errors import ExportError
from bleu_gui.gui.prepared import prepare
from bleu_gui.gui.widgets.figure_dialog import CUSTOM, FigureDialog
from bleu_gui.gui.widgets.figures import PRESETS, FigureSize, text_points, wrap_at_fields

from .test_matrix_view import three_systems

SIGNATURE = "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"


@pytest.fixture
def compared(qtbot, window, tmp_path):
    systems, refs = three_systems(tmp_path)
    run = score_run(systems, refs, RunConfig((BleuConfig(),)))
    with qtbot.waitSignal(window.run_changed):
        window.controller.show(prepare(run))
    window.tabs.setCurrentIndex(1)
    return window, run


def test_the_signature_wraps_at_its_fields_never_inside_one(qapp):
    width = QFontMetricsF(QFont()).horizontalAdvance
    for fits in (60, 150, 260, 1000):
        lines = wrap_at_fields(SIGNATURE, fits, width)
        assert "".join(lines) == SIGNATURE
        fields = SIGNATURE.split("|")
        for line in lines:
            assert all(part in fields for part in line.strip("|").split("|")), line  # whole fields only
            assert width(line) <= fits or "|" not in line.strip("|")  # too wide only when one field alone is
    assert wrap_at_fields(SIGNATURE, 10_000, width) == [SIGNATURE]


@pytest.mark.parametrize("preset", PRESETS)
def test_a_chart_png_has_the_preset_size_and_dpi(compared, tmp_path, preset):
    window, run = compared
    chart = window.compare_view.charts.bucket_dots
    path = tmp_path / "c.png"
    chart.save(path, preset)
    image = QImage(str(path))
    assert image.width() == preset.width
    if preset.height:
        assert image.height() == preset.height
    assert round(image.dotsPerMeterX() * 0.0254) == preset.dpi
    # The title band at the top is drawn in ink: dark pixels in the first rows.
    assert min(image.pixelColor(x, y).lightness() for x in range(0, preset.width // 3, 2)
               for y in range(0, round(40 * preset.scale), 2)) < 100


def test_the_whole_compare_view_as_png_svg_and_pdf(qtbot, compared, tmp_path):
    window, run = compared
    size = PRESETS[0]
    before = window.compare_view.size()
    for suffix in (".png", ".svg", ".pdf"):
        written = window.figures.export(tmp_path / f"compare{suffix}", size)
        data = written.read_bytes()
        assert data[:4] in (b"\x89PNG", b"<?xm", b"%PDF"), suffix
    assert window.compare_view.size() == before  # the view gets its own size back
    page = window.tabs.currentWidget()  # and its scroll area fits it to the page again
    qtbot.waitUntil(lambda: page.widgetResizable() and window.compare_view.size() == page.viewport().size())
    svg = (tmp_path / "compare.svg").read_text(encoding="utf-8")
    mm = re.search(r'<svg width="([0-9.]+)mm" height="([0-9.]+)mm"', svg)
    assert mm is not None  # printed at the preset's dpi: 1920 x 1080 dots at 144 dpi
    assert (float(mm.group(1)), float(mm.group(2))) == pytest.approx((1920 / 144 * 25.4, 1080 / 144 * 25.4), abs=0.5)
    assert "vs" in svg and "tok:13a" in svg  # the title and the signature, as text
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    with pytest.raises(ExportError, match="figures are written as"):
        window.figures.export(tmp_path / "compare.jpg", size)
    with pytest.raises(ExportError, match="100-12000 px wide"):
        window.figures.export(tmp_path / "c.png", FigureSize("tiny", 50, None, 300, 1.0))


def test_the_dialog_offers_presets_and_custom_and_says_how_large_text_prints(qtbot, compared):
    window, _run = compared
    dialog = FigureDialog(window, "figure", "compare-view.png", window.compare_view)
    qtbot.addWidget(dialog)
    assert [dialog.preset.itemText(i) for i in range(dialog.preset.count())] == [p.name for p in PRESETS] + [CUSTOM]
    dialog.preset.setCurrentIndex(1)  # a paper column: the whole view's text prints small, and it says so
    assert not dialog.width_px.isEnabled()
    points = text_points(window.compare_view, PRESETS[1])
    assert points < 5 and f"text prints at {points:.1f} pt" in dialog.summary.text() and "small" in dialog.summary.text()
    dialog.preset.setCurrentIndex(len(PRESETS))
    assert dialog.width_px.isEnabled()
    dialog.width_px.setValue(3000)
    dialog.dpi.setValue(600)
    assert dialog.size_chosen() == FigureSize(CUSTOM, 3000, PRESETS[-1].height, 600, PRESETS[-1].scale)
    dialog.path.setText("figure.gif")
    dialog.on_accept()
    assert dialog.result() == 0 and "end the name with .png, .svg, .pdf" in dialog.problem.text()


def test_a_tall_compare_view_fills_the_slide_not_two_thirds_of_it(qtbot, window, tmp_path):
    """Ten systems stack the systems table over the matrix: the arrangement needs more height than a slide has
    at its scale, and scaled to the height alone it left the right third blank (1,246 of 1,920 px)."""
    from bleu_gui.core import SegmentFile
    from bleu_gui.demo import demo_paths

    systems, refs = demo_paths()
    a, b = (p.read_text(encoding="utf-8").splitlines() for p in systems)
    texts = [[x if (i >> k) % 2 else y for i, (x, y) in enumerate(zip(a, b))] for k in range(10)]
    files = [SegmentFile(tmp_path / f"system-{k}.txt", t, "utf-8") for k, t in enumerate(texts)]
    references = [SegmentFile(p, p.read_text(encoding="utf-8").splitlines(), "utf-8") for p in refs]
    run = score_run(files, references, RunConfig((BleuConfig(),)))
    with qtbot.waitSignal(window.run_changed):
        window.controller.show(prepare(run))
    window.tabs.setCurrentIndex(1)
    image = QImage(str(window.figures.export(tmp_path / "slide.png", PRESETS[0])))
    assert (image.width(), image.height()) == (1920, 1080)
    background = image.pixelColor(image.width() - 1, image.height() // 2).rgb()
    drawn = [x for x in range(0, image.width(), 4)
             if any(image.pixelColor(x, y).rgb() != background for y in range(image.height() // 2, image.height(), 6))]
    assert max(drawn) > 0.9 * image.width(), f"the figure ends at x = {max(drawn)}"
