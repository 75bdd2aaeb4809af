"""Small layout helpers shared by the tabs."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLayoutItem,
    QScrollArea,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ...core.metrics.bleu.details import ALL_ORDERS

STRETCH = None  # put a stretch here in :func:`hrow`


class Table(QTableView):
    """A table view that paints its rows with the interpreter lock held throughout.

    A paint calls the model's ``data()`` hundreds of times. Entered from Qt's event loop, each call took the
    lock and gave it back; with a worker busy (a search, a scoring job), the worker took it in between and
    the next call waited for it again: one repaint of a list took 90-140 ms (15-18 ms with the lock held). Called
    from Python, the base paint keeps the lock (the binding does not release it there); a busy worker still
    gets it when it asks and a switch interval has passed.
    """

    empty_text = ""  # said in the middle of the list when it has no rows (a blank table looks still loading)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        model = self.model()
        if self.empty_text and model is not None and model.rowCount() == 0:
            painter = QPainter(self.viewport())
            painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(self.viewport().rect().adjusted(8, 8, -8, -8),
                             Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.empty_text)
            painter.end()


def hrow(*items: QWidget | str | None) -> QHBoxLayout:
    """A horizontal row: widgets as given, strings as labels, ``STRETCH`` (None) as a stretch."""
    row = QHBoxLayout()
    for item in items:
        if item is STRETCH:
            row.addStretch(1)
        elif isinstance(item, str):
            row.addWidget(QLabel(item))
        else:
            row.addWidget(item)
    return row


def stacked(*widgets: QWidget) -> QWidget:
    """Widgets one above the other, no margins; the last one takes the extra room."""
    box_widget = QWidget()
    box = QVBoxLayout(box_widget)
    box.setContentsMargins(0, 0, 0, 0)
    box.setSpacing(0)
    for i, widget in enumerate(widgets):
        box.addWidget(widget, 1 if i == len(widgets) - 1 else 0)
    return box_widget


class _UpDownScroll(QScrollArea):
    """A scroll area that scrolls only up and down, and asks for the width of its widget's minimum and of the
    scroll bar, as it changes: the widget is never cut at the side once the scroll bar shows."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        widget.installEventFilter(self)  # a layout request: the widget's minimum may have changed

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()
        return super().eventFilter(watched, event)

    def minimumSizeHint(self) -> QSize:
        hint, widget = super().minimumSizeHint(), self.widget()
        if widget is None:
            return hint
        wide = widget.minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width()
        return QSize(max(hint.width(), wide), hint.height())


def scrolled(widget: QWidget, sideways: bool = True) -> QScrollArea:
    """``widget`` in a frameless scroll area that gives it all its room: it scrolls when the window is smaller than
    its minimum, instead of that minimum making the window taller than a laptop's screen. ``sideways=False`` never
    scrolls it sideways (it takes the area's width, which is at least the widget's minimum and a scroll bar)."""
    scroll = QScrollArea() if sideways else _UpDownScroll(widget)
    scroll.setWidget(widget)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # no stop of the Tab key, no focus from a click between widgets
    if not sideways:
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return scroll


LEGEND_TIPS = {
    "matched": "An n-gram occurrence counted as a match: at most as many as the reference that has the most",
    "clipped": "An occurrence beyond Max_Ref_Count: the n-gram is in a reference, but fewer times than here "
               "(Count_clip = min(Count, Max_Ref_Count))",
    "unmatched": "An n-gram no reference has",
    "selected n-gram in refs": "Click an n-gram of the candidate: its occurrences in the references light up",
    "matched only by this system": "A matched word the other system's candidate does not match",
    "ref: both": "A reference word both systems matched",
    "ref: only A": "A reference word only system A matched",
    "ref: only B": "A reference word only system B matched",
}


class FlowLayout(QLayout):
    """Widgets left to right, wrapping onto the next line when the width runs out (Qt's flow layout example):
    a legend asks for the width of its widest chip, not of all its chips in a row."""

    def __init__(self, spacing: int = 6) -> None:
        super().__init__()
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), place=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, place=True)

    def sizeHint(self) -> QSize:
        return self.minimumSize()

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        return size

    def _arrange(self, rect: QRect, place: bool) -> int:
        x, y, line = rect.x(), rect.y(), 0
        for item in self._items:
            hint = item.sizeHint()
            if x + hint.width() > rect.right() + 1 and line > 0:
                x, y, line = rect.x(), y + line + self._spacing, 0
            if place:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self._spacing
            line = max(line, hint.height())
        return y + line - rect.y()


def legend(entries: list[tuple[str, str]], tips: dict[str, str] | None = None) -> FlowLayout:
    """Labels, each styled with its CSS (the colours of the panes) and explained by a tooltip, wrapping onto a
    second line when the view is narrow."""
    tips = {**LEGEND_TIPS, **(tips or {})}
    row = FlowLayout()
    for text, style in entries:
        label = QLabel(text)
        label.setStyleSheet(f"{style}; padding:2px 6px; border-radius:3px;")
        label.setToolTip(tips.get(text, ""))
        row.addWidget(label)
    return row


class MetricLegend(QWidget):
    """The legend a metric gives for its marks — (label, CSS style, tooltip) entries — made anew when the entries
    change (Inspect's evidence and Compare's panes show the same legend for the same metric)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self._entries: tuple[tuple[str, str, str], ...] | None = None
        self._row: QWidget | None = None

    def set_entries(self, entries: list[tuple[str, str, str]]) -> None:
        if self._entries == tuple(entries):
            return
        self._entries = tuple(entries)
        if self._row is not None:  # out of the layout now: deleteLater waits for the event loop
            self.box.removeWidget(self._row)
            self._row.hide()
            self._row.deleteLater()
        self._row = QWidget()
        self._row.setLayout(legend([(text, style) for text, style, _tip in entries],
                                   tips={text: tip for text, _style, tip in entries if tip}))
        self.box.addWidget(self._row)


def fill_orders(combo: QComboBox, max_order: int, all_orders: bool) -> None:
    """Order choices 1..max_order (the run's own order, never a fixed 4), keeping the current one if it still exists."""
    current = combo.currentData()
    combo.blockSignals(True)
    combo.clear()
    for n in range(1, max_order + 1):
        combo.addItem(f"{n}-grams", n)
    if all_orders:
        combo.addItem("all orders", ALL_ORDERS)
    index = combo.findData(current if current is not None else 1)
    combo.setCurrentIndex(max(index, 0))
    combo.blockSignals(False)


def single_shot(parent: QObject, interval: int, slot: Callable[[], object]) -> QTimer:
    """A timer that calls ``slot`` once, ``interval`` ms after each start()."""
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(interval)
    timer.timeout.connect(slot)
    return timer


TITLE_BAR = 32  # room left for the window manager's title bar before a window is shown and its frame known


def resize_within_screen(window: QWidget, width: int, height: int) -> None:
    """Size a window or dialog ``width`` × ``height``, or less where its screen is smaller: on a laptop's 1366 × 768
    a dialog 760 px tall ran past the screen's bottom, its buttons out of reach."""
    available = window.screen().availableGeometry()
    window.resize(min(width, available.width()), min(height, available.height() - TITLE_BAR))


def keep_on_screen(window: QWidget) -> None:
    """Move a shown window or dialog wholly onto its screen's available area, shrunk first when larger: a dialog
    centred over a window near the screen's edge (or opened from a file manager before its window settled) ran
    past the screen, its buttons out of reach."""
    available = window.screen().availableGeometry()
    frame = window.frameGeometry()
    extra_w, extra_h = frame.width() - window.width(), frame.height() - window.height()
    if frame.width() > available.width() or frame.height() > available.height():
        window.resize(min(window.width(), available.width() - extra_w),
                      min(window.height(), available.height() - extra_h))
        frame = window.frameGeometry()
    x = min(max(frame.x(), available.left()), available.right() + 1 - frame.width())
    y = min(max(frame.y(), available.top()), available.bottom() + 1 - frame.height())
    if (x, y) != (frame.x(), frame.y()):
        window.move(x, y)

