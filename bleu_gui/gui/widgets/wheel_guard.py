"""A value changes by a deliberate act: the mouse wheel turns a spin box, a combo box or a slider only when that field
has the keyboard's focus (Qt's strong-focus rule, as settings dialogs users trust keep it). Over an unfocused field
the wheel scrolls what holds it — the settings dock, a dialog's scroll area — as if the field were not there.
Without this, scrolling the settings dock turned the LLM judge's judgement from MQM to ESA (33 new requests) and
COMET's GPUs from 1 to 2, each re-scoring silently."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QScrollBar,
    QWidget,
)

_FIELDS = (QAbstractSpinBox, QComboBox, QAbstractSlider)


class WheelGuard(QObject):
    """The application-wide filter (see the module); :func:`guard_wheels` installs it once."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() != QEvent.Type.Wheel or not isinstance(watched, _FIELDS):
            return False
        field = watched
        if field.hasFocus() or _inside_scroll_bar(field):
            return False
        holder = _scroll_area_of(field)
        if holder is not None:
            QApplication.sendEvent(holder.viewport(), event)  # the dock scrolls on
        return True  # the field's value stays


def _inside_scroll_bar(widget: QWidget) -> bool:
    """A scroll bar is a slider that scrolls: the wheel is its whole purpose."""
    return isinstance(widget, QScrollBar)


def _scroll_area_of(widget: QWidget) -> QAbstractScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            return parent
        parent = parent.parentWidget()
    return None


_GUARD: list[WheelGuard] = []


def guard_wheels() -> None:
    """Install the wheel guard on the running application (once)."""
    app = QApplication.instance()
    if app is None or _GUARD:
        return
    _GUARD.append(WheelGuard(app))
    app.installEventFilter(_GUARD[0])
