"""Figures: a chart or a whole view written as PNG, SVG or PDF at a chosen size, with a title above and the
scoring signature below, wrapped at its ``|`` fields (never inside one).

The widget is laid out again at the figure's logical size (its on-screen layout scaled up would give a
legend too small to read on a slide), drawn as vectors into a scaled painter, then given back its size. A figure
has no buttons and no scroll bars; a whole view first arranges itself for the page (its ``arrangement``: the
Compare view shows every system's row and the whole matrix, without its controls).
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QIODevice,
    QMarginsF,
    QMessageLogContext,
    QPoint,
    QRectF,
    QSize,
    QSizeF,
    Qt,
    QTimer,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QImageWriter, QPageLayout, QPageSize, QPainter, QPdfWriter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QGraphicsView,
    QPushButton,
    QScrollArea,
    QTableView,
    QToolButton,
    QWidget,
)

from ...core import palette
from ...core.errors import ExportError
from ...core.output.exports import write_atomic

FORMATS = (".png", ".svg", ".pdf")
KEPT_IN_FIGURES = "keptInFigures"  # a button's property: it is a legend entry, not a control (figures keep it)
SCREEN_DPI = 96


@dataclass(frozen=True)
class FigureSize:
    """Output pixels and the dots per inch that set its printed size; ``scale``: output pixels per logical pixel
    of the layout (text is ``scale`` times its size on a 96-dpi screen)."""

    name: str
    width: int
    height: int | None  # None: as tall as the widget's shape at that width
    dpi: int
    scale: float

    def describe(self) -> str:
        height = f"{self.height}" if self.height else "auto"
        return f"{self.width}×{height} px at {self.dpi} dpi, text ×{self.scale:g}"


# Slide: a 16:9 screen, text half again as large as on screen. Paper: a column (3.5 in) or a page (7 in) at
# 300 dpi, text twice its screen size (a 9 pt screen font prints at about 6 pt).
PRESETS = (FigureSize("Slide 1920×1080", 1920, 1080, 144, 1.5),
           FigureSize("Paper column: 3.5 in at 300 dpi", 1050, None, 300, 2.0),
           FigureSize("Paper page: 7 in at 300 dpi", 2100, None, 300, 2.0))


def wrap_at_fields(text: str, fits: float, width_of: Callable[[str], float]) -> list[str]:
    """``text`` cut into lines at its ``|`` separators, each line as many whole fields as fit ``fits`` wide
    (a field wider than that stands alone on its line, uncut)."""
    lines: list[str] = []
    for field in text.split("|"):
        if lines and width_of(lines[-1] + "|" + field) <= fits:
            lines[-1] += "|" + field
        else:
            lines.append(field if not lines else "|" + field)
    return lines


# Qt's PDF engine says this of every gradient the widget style paints (buttons, headers) and then draws it flat.
_PDF_GRADIENT_NOTE = "QPdfEngine: unable to create a gradient"


@contextlib.contextmanager
def _without_note(note: str) -> Iterator[None]:
    """Qt's messages starting with ``note`` dropped while painting; every other one goes where it went before."""
    previous: Callable[[QtMsgType, QMessageLogContext, str], None] | None = None

    def handler(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if message.startswith(note):
            return
        if previous is not None:
            previous(kind, context, message)
        else:
            print(message, file=sys.stderr)

    previous = qInstallMessageHandler(handler)
    try:
        yield
    finally:
        qInstallMessageHandler(previous)


def _fonts(widget: QWidget) -> tuple[QFont, QFont]:
    """The title's font (bold, a little larger) and the signature's (smaller) for a figure of ``widget``."""
    title = QFont(widget.font())
    title.setBold(True)
    title.setPointSizeF(title.pointSizeF() * 1.15)
    small = QFont(widget.font())
    small.setPointSizeF(max(small.pointSizeF() * 0.85, 6))
    return title, small


def _bands(widget: QWidget, width: float, title: str, signature: str) -> tuple[float, list[str], float]:
    """(the title band's height, the signature's lines, their height) at ``width`` logical pixels."""
    title_font, small = _fonts(widget)
    metrics = QFontMetricsF(small)
    lines = wrap_at_fields(signature, width - 16, metrics.horizontalAdvance) if signature else []
    return (QFontMetricsF(title_font).height() * 1.6 if title else 0.0), lines, (
        len(lines) * metrics.height() + 8 if lines else 0.0)


def _layout_size(widget: QWidget, size: FigureSize, title: str, signature: str, natural: bool = False,
                 width: int | None = None) -> QSize:
    """The logical size the widget is laid out at: the figure's size over its scale (or ``width`` wide, the page's
    shape kept), less the title and the signature when the height is given; otherwise as tall as the widget's shape
    at that width, or (``natural``) as tall as it needs to be (a view arranged for the page: its tables' rows, then
    its charts)."""
    width = max(width or round(size.width / size.scale), widget.minimumSizeHint().width(), 200)
    title_height, _lines, signature_height = _bands(widget, width, title, signature)
    if size.height:
        height = round(width * size.height / size.width - title_height - signature_height)
    elif natural:
        height = widget.minimumSizeHint().height()
    else:
        height = widget.height() * width // max(widget.width(), 1)
    return QSize(width, max(height, widget.minimumSizeHint().height(), 120))


def text_points(widget: QWidget, size: FigureSize) -> float:
    """How large the widget's text prints in a figure of ``size`` (points), once laid out no narrower than its
    minimum: a whole view in a paper column prints its text small."""
    width = _layout_size(widget, size, "", "").width()
    return widget.font().pointSizeF() * (size.width / width) * SCREEN_DPI / size.dpi


class _Resized:
    """The widget laid out at another size while drawn, then given its own back."""

    def __init__(self, widget: QWidget, size: QSize):
        self.widget, self.size, self.old = widget, size, widget.size()

    def __enter__(self) -> QWidget:
        buttons = [b for b in (*self.widget.findChildren(QPushButton), *self.widget.findChildren(QToolButton))
                   if not b.property(KEPT_IN_FIGURES)]
        own = Qt.FindChildOption.FindDirectChildrenOnly
        own_title = self.widget.findChildren(QWidget, "chartTitle", own)
        self.hidden = [w for w in buttons + own_title if w.isVisible()]
        for button in self.hidden:  # a figure has no buttons, and draws its own title
            button.hide()
        # Nor scroll bars: what scrolls in the window is cut at the page's edge, as the view arranged it.
        self.scrolled = [(area, area.horizontalScrollBarPolicy(), area.verticalScrollBarPolicy())
                         for area in self.widget.findChildren(QAbstractScrollArea) if area.isVisible()]
        for area, _h, _v in self.scrolled:
            area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # A chart alone brings its own legend (in the window, one legend serves several charts).
        self.shown = [w for w in self.widget.findChildren(QWidget, "figureLegend", own) if not w.isVisible()]
        for legend in self.shown:
            legend.show()
        # A scroll area around the widget (Compare's page) would fit it back to the area at once.
        self.area = self._area_around()
        if self.area is not None:
            self.area.setWidgetResizable(False)
        self.widget.resize(self.size)
        self._lay_out()
        return self.widget

    def _area_around(self) -> QScrollArea | None:
        viewport = self.widget.parentWidget()
        area = viewport.parentWidget() if viewport is not None else None
        return area if isinstance(area, QScrollArea) and area.widget() is self.widget and area.widgetResizable() \
            else None

    def __exit__(self, *_exc: object) -> None:
        for button in self.hidden:
            button.show()
        for area, horizontal, vertical in self.scrolled:
            area.setHorizontalScrollBarPolicy(horizontal)
            area.setVerticalScrollBarPolicy(vertical)
        for legend in self.shown:
            legend.hide()
        self.widget.resize(self.old)
        self._lay_out()
        if self.area is not None:
            # On the next turn of the event loop: the widget's minimum size is the drawn one's until the layout
            # requests its showing and hiding posted are handled, and the area would fit the widget to that.
            QTimer.singleShot(0, self.area, partial(self.area.setWidgetResizable, True))

    def _lay_out(self) -> None:
        layout = self.widget.layout()
        if layout is not None:
            layout.activate()


def _paint(painter: QPainter, widget: QWidget, title: str, signature: str) -> None:
    """Title, widget (at its size now) and wrapped signature into ``painter`` (scaled to logical pixels)."""
    width, height = widget.width(), widget.height()
    title_font, small = _fonts(widget)
    title_height, lines, _ = _bands(widget, width, title, signature)
    if title:
        painter.setFont(title_font)
        painter.setPen(QColor(palette.INK))
        painter.drawText(QRectF(8, 0, width - 16, title_height), int(Qt.AlignmentFlag.AlignVCenter), title)
    if isinstance(widget, QGraphicsView):  # a plot: its scene, drawn as vectors into the area below the title
        widget.render(painter, QRectF(0, title_height, width, height), widget.viewport().rect())
    else:
        widget.render(painter, QPoint(0, round(title_height)))
    painter.setFont(small)
    painter.setPen(QColor(palette.MUTED))
    line_height = QFontMetricsF(small).height()
    y = title_height + height + 4
    for line in lines:
        painter.drawText(QRectF(8, y, width - 16, line_height), 0, line)
        y += line_height


Arrangement = Callable[[int], contextlib.AbstractContextManager[bool]]


def full_height(table: QTableView) -> int:
    """The height that shows every row of ``table`` (with its header and frame)."""
    header = table.horizontalHeader()
    return ((header.height() if header.isVisible() else 0) + table.verticalHeader().length()
            + 2 * table.frameWidth())


def full_width(table: QTableView) -> int:
    """The width that shows every column of ``table`` (with its row header and frame)."""
    rows = table.verticalHeader()
    return ((rows.width() if rows.isVisible() else 0) + table.horizontalHeader().length()
            + 2 * table.frameWidth())


def figure_bytes(widget: QWidget, suffix: str, size: FigureSize, title: str = "", signature: str = "",
                 arrangement: Arrangement | None = None) -> bytes:
    """The widget as a figure in the format of ``suffix`` (.png, .svg or .pdf); :class:`ExportError` otherwise.
    ``arrangement(width)``: how a whole view lays itself out for a page ``width`` logical pixels wide while it is
    drawn (it says whether the view then takes the height it needs)."""
    if suffix not in FORMATS:
        raise ExportError(f"figures are written as {', '.join(FORMATS)}, not {suffix or 'a file without extension'}")
    if not (100 <= size.width <= 12000 and 30 <= size.dpi <= 2400 and 0.25 <= size.scale <= 8):
        raise ExportError(f"a figure must be 100-12000 px wide at 30-2400 dpi, not {size.describe()}")
    width = round(size.width / size.scale)
    if arrangement is None:
        return _drawn(widget, suffix, size, title, signature, False, width)
    with arrangement(width) as natural:
        wider = _width_filling_the_page(widget, size, title, signature, width) if natural else width
        if wider == width:
            return _drawn(widget, suffix, size, title, signature, bool(natural), width)
    with arrangement(wider) as natural:  # arranged again: at the wider page the tables may sit side by side
        return _drawn(widget, suffix, size, title, signature, bool(natural), wider)


def _width_filling_the_page(widget: QWidget, size: FigureSize, title: str, signature: str, width: int) -> int:
    """The logical width at which a view arranged to the height it needs fills a page of fixed shape (a slide):
    wider, with its text smaller, when it needs more height than the page has at ``width`` — scaled to the page's
    height alone it would fill two thirds of its width and leave the rest blank."""
    if not size.height:
        return width
    title_height, _lines, signature_height = _bands(widget, width, title, signature)
    needed = widget.minimumSizeHint().height() + title_height + signature_height
    page = width * size.height / size.width
    return width if needed <= page else math.ceil(width * needed / page)


def _drawn(widget: QWidget, suffix: str, size: FigureSize, title: str, signature: str, natural: bool,
           width: int) -> bytes:
    with _Resized(widget, _layout_size(widget, size, title, signature, natural, width)):
        # The widget's size now: at least its minimum, so a figure smaller than that has smaller text.
        title_height, _lines, signature_height = _bands(widget, widget.width(), title, signature)
        total = QSizeF(widget.width(), widget.height() + title_height + signature_height)
        scale = min(size.width / total.width(), size.height / total.height() if size.height else float("inf"))
        out = QSize(size.width, size.height or round(total.height() * scale))
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        # Every device paints at the screen's 96 dpi: fonts (sized in points) keep their size against the layout,
        # and the painter's scale enlarges all alike. The figure's own dpi sets only its printed size.
        if suffix == ".png":
            image = QImage(out, QImage.Format.Format_ARGB32)
            image.fill(QColor(palette.BACKGROUND))
            device: QImage | QSvgGenerator | QPdfWriter = image
        elif suffix == ".svg":
            svg = QSvgGenerator()
            svg.setOutputDevice(buffer)
            dots = QSize(round(out.width() * SCREEN_DPI / size.dpi), round(out.height() * SCREEN_DPI / size.dpi))
            svg.setSize(dots)  # its width and height in mm: the printed size at the figure's dpi
            svg.setViewBox(QRectF(0, 0, dots.width(), dots.height()))
            svg.setResolution(SCREEN_DPI)
            scale *= SCREEN_DPI / size.dpi
            svg.setTitle(title)
            svg.setDescription(signature)
            device = svg
        else:
            pdf = QPdfWriter(buffer)
            pdf.setResolution(SCREEN_DPI)
            inches = QSizeF(out.width() / size.dpi, out.height() / size.dpi)
            scale *= SCREEN_DPI / size.dpi  # the page is measured in 96-dpi dots
            pdf.setPageLayout(QPageLayout(QPageSize(inches, QPageSize.Unit.Inch), QPageLayout.Orientation.Portrait,
                                          QMarginsF(0, 0, 0, 0)))
            pdf.setTitle(title)
            device = pdf
        painter = QPainter(device)
        try:
            quiet = _without_note(_PDF_GRADIENT_NOTE) if suffix == ".pdf" else contextlib.nullcontext()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.scale(scale, scale)
            with quiet:
                _paint(painter, widget, title, signature)
        finally:
            painter.end()
        if suffix == ".png":
            image.setDotsPerMeterX(round(size.dpi / 0.0254))
            image.setDotsPerMeterY(round(size.dpi / 0.0254))
            QImageWriter(buffer, QByteArray(b"PNG")).write(image)
    return bytes(buffer.data().data())


def write_figure(widget: QWidget, path: str | Path, size: FigureSize, title: str = "", signature: str = "",
                 protected: list[Path] | None = None, arrangement: Arrangement | None = None) -> Path:
    """Write the figure atomically (never over an input file); the format is the file's extension."""
    path = Path(path)
    return write_atomic(path, figure_bytes(widget, path.suffix.lower(), size, title, signature, arrangement),
                        protected or [])
