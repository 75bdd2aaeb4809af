"""The scoring settings: one group per metric family of the registry, a field per setting it describes (its label,
range, choices and help), checkable where the window need not score the family. A new family or setting brings
no code here."""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtCore import QMargins, Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDockWidget,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from ...core import MetricConfig
from ...core.metrics.family import Family
from ...core.metrics.registry import FAMILIES
from ...core.metrics.settings import SettingField
from ..widgets.layout import scrolled
from ..widgets.style import styled

_NONE = -1.0  # an optional number's spin box says "(default)" at this value
QWIDGETSIZE_MAX = (1 << 24) - 1  # Qt's "no maximum"


class _Field:
    """One setting's widget: how it is shown, read and watched."""

    def __init__(self, f: SettingField):
        self.field = f
        s = f.setting
        self.widget: QWidget
        if f.kind is bool:
            self.widget = QCheckBox(s.label)
        elif s.choices is not None:
            combo = QComboBox()
            if f.optional:
                combo.addItem(s.none_label, None)
            for value in s.choices:
                combo.addItem(s.display(value) if s.display is not None else str(value), value)
            # As narrow as its shortest useful text: the dock leaves the views the room at 1366 px.
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(9)
            self.widget = combo
        elif f.kind is int:
            spin = QSpinBox()
            spin.setRange(int(s.low if s.low is not None else 0), int(s.high if s.high is not None else 1000))
            self.widget = spin
        elif f.kind is float:
            number = QDoubleSpinBox()
            number.setDecimals(3)
            number.setSingleStep(0.05)
            low = s.low if s.low is not None else 0.0
            number.setRange(_NONE if f.optional else low, s.high if s.high is not None else 1000.0)
            if f.optional:
                number.setSpecialValueText(s.none_label)
            self.widget = number
        else:
            self.widget = QLineEdit()
        self.widget.setToolTip(s.help)

    def set(self, value: Any) -> None:
        w = self.widget
        if isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif isinstance(w, QComboBox):
            w.setCurrentIndex(max(w.findData(value), 0))
        elif isinstance(w, QSpinBox):
            w.setValue(int(value))
        elif isinstance(w, QDoubleSpinBox):
            w.setValue(_NONE if value is None else float(value))
        elif isinstance(w, QLineEdit):
            w.setText("" if value is None else str(value))

    def get(self) -> Any:
        w = self.widget
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, QComboBox):
            return w.currentData()
        if isinstance(w, QSpinBox):
            return w.value()
        if isinstance(w, QDoubleSpinBox):
            return None if self.field.optional and w.value() <= _NONE else w.value()
        assert isinstance(w, QLineEdit)
        return w.text() or (None if self.field.optional else "")

    def watch(self, slot: Any) -> None:
        w = self.widget
        signal = {QCheckBox: "toggled", QComboBox: "currentIndexChanged", QSpinBox: "valueChanged",
                  QDoubleSpinBox: "valueChanged", QLineEdit: "editingFinished"}[type(w)]
        getattr(w, signal).connect(slot)


def _capitalised(label: str) -> str:
    """A label as a form's row says it: "Word order", but "β" stays Greek (its capital looks like a B)."""
    return label[:1].upper() + label[1:] if label[:1].isascii() else label


class SettingsGroup(QGroupBox):
    """One family's settings (see the module). Signal: ``edited()`` when the user changes one."""

    edited = Signal()

    def __init__(self, family: Family, parent: QWidget | None = None) -> None:
        super().__init__(family.title, parent)
        self.family = family
        self.setToolTip(family.about)
        self.setCheckable(not family.always_in_window)
        self.fields = {f.name: _Field(f) for f in family.config.fields() if f.setting.window}
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        styled(self.hint, "hint")
        # A family not scored shows its title alone: its fields fold away (the dock stays short on a laptop).
        self.body = QWidget()
        self._outer = QVBoxLayout(self)
        self._outer.addWidget(self.body)
        self._margins = self._outer.contentsMargins()
        form = QFormLayout(self.body)
        form.setContentsMargins(0, 0, 0, 0)
        for field in self.fields.values():
            if field.field.kind is bool:
                form.addRow("", field.widget)
            else:
                form.addRow(_capitalised(field.field.setting.label), field.widget)
        form.addRow(self.hint)
        self._form = form
        self._shown: Any = family.config()  # what the panel has no field for is kept from the settings shown
        self._loading = False
        self.set_config(None)
        if self.isCheckable():
            self.toggled.connect(self._on_edited)
            self.toggled.connect(self._fold)
        for field in self.fields.values():
            field.watch(self._on_edited)

    def _fold(self, scored: bool) -> None:
        self.body.setVisible(scored)
        self.setFlat(not scored)
        self._outer.setContentsMargins(self._margins if scored else QMargins(0, 0, 0, 0))
        # Folded to its title's line: no empty frame under the title of a family not scored.
        self.setMaximumHeight(QWIDGETSIZE_MAX if scored else self.fontMetrics().height() + 6)

    def add_row(self, widget: QWidget) -> None:
        """A row under the fields, shown while the family is scored (COMET's cache)."""
        self._form.addRow(widget)

    def widget(self, name: str) -> QWidget:
        """The widget of the setting ``name`` (tests and the what-if tour reach fields by name)."""
        return self.fields[name].widget

    def set_config(self, config: Any) -> None:
        """Show ``config`` (None: the family is not scored; its defaults shown, unchecked)."""
        self._loading = True
        if self.isCheckable():
            self.setChecked(config is not None)
            self._fold(config is not None)
        shown = config if config is not None else self.family.config()
        for name, field in self.fields.items():
            field.set(getattr(shown, name))
        self._shown = shown
        self._loading = False
        self._update_enabled()

    def config(self) -> MetricConfig | None:
        """The settings shown (None when the family is unchecked); a setting without a field keeps its value while
        the other settings read it, else its default."""
        if self.isCheckable() and not self.isChecked():
            return None
        return self.shown_config()

    def shown_config(self) -> MetricConfig:
        """The settings shown, ticked or not (what an action that uses the family without scoring it reads: the
        LLM judge's batch export)."""
        values = {name: field.get() for name, field in self.fields.items()}
        made: Any = dataclasses.replace(self._shown, **values)
        default = self.family.config()
        kept = {f.name: getattr(default, f.name) for f in made.fields()
                if not f.setting.window and not made.applies(f.name)}
        config: MetricConfig = dataclasses.replace(made, **kept)
        return config

    def _update_enabled(self) -> None:
        try:
            made: Any = dataclasses.replace(self._shown, **{n: f.get() for n, f in self.fields.items()})
        except (TypeError, ValueError):
            return
        for name, field in self.fields.items():
            field.widget.setEnabled(made.applies(name))
        self.hint.setText(made.hint())
        self.hint.setVisible(bool(made.hint()))

    def _on_edited(self, *_args: object) -> None:
        if not self._loading:
            self._update_enabled()
            self.edited.emit()


class UnappliedNote(QWidget):
    """Above the groups after a re-score with the settings shown failed: what failed, and that the numbers shown are
    still the earlier settings'. The settings typed stay (a failure never unticks a family or clears a field):
    **Score again** tries them, **Settings of the numbers** shows those instead."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = styled(QLabel(), "warning")
        self.label.setWordWrap(True)
        self.again = QPushButton("Score again")
        self.back = QPushButton("Settings of the numbers")
        self.back.setToolTip("Show the settings the numbers shown were scored with (what was typed is dropped)")
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.again)
        buttons.addWidget(self.back)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addLayout(buttons)
        self.setVisible(False)

    def say(self, failure: str) -> None:
        self.label.setText(f"These settings are not applied: {failure} The numbers shown are still those of the "
                           "earlier settings.")
        self.label.setToolTip(failure)
        self.setVisible(True)


class SettingsPanel(QWidget):
    """Emits ``changed(tuple of metric settings)`` whenever the user changes a setting: the families' settings in
    the registry's order, those the window scores."""

    changed = Signal(object)

    def __init__(self, metrics: tuple[MetricConfig, ...], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.groups = {family.key: SettingsGroup(family) for family in FAMILIES}
        self._focus_before: QWidget | None = None  # where F9 found the keyboard's focus, given back when it hides
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        # Said once above the groups, wrapped (a title of each group saying it made the dock wider than its room).
        self.no_reference_note = styled(QLabel(), "hint")
        self.no_reference_note.setWordWrap(True)
        self.no_reference_note.setVisible(False)
        outer.addWidget(self.no_reference_note)
        self.unapplied = UnappliedNote()
        outer.addWidget(self.unapplied)
        for group in self.groups.values():
            outer.addWidget(group)
            group.edited.connect(lambda: self.changed.emit(self.metrics()))
        outer.addStretch(1)
        self.set_metrics(metrics)

    def group(self, key: str) -> SettingsGroup:
        return self.groups[key]

    def in_dock(self, parent: QMainWindow) -> QDockWidget:
        """This panel in a movable, floatable dock on the right of ``parent``."""
        dock = QDockWidget("Scoring settings", parent)
        dock.setObjectName("settingsDock")
        dock.setWidget(scrolled(self, sideways=False))
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable)  # View ▸ Scoring settings brings it back
        parent.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        dock.toggleViewAction().triggered.connect(self._follow_the_toggle)
        return dock

    def _follow_the_toggle(self, shown: bool) -> None:
        """View ▸ Scoring settings (F9) puts the keyboard's focus in the settings when it shows them, and back where
        it was when it hides them: asking for them by key is asking to use them."""
        if shown:
            self._focus_before = QApplication.focusWidget()
            first = self._first_focusable()
            if first is not None:
                first.setFocus(Qt.FocusReason.ShortcutFocusReason)
        elif self._focus_before is not None and isValid(self._focus_before) and self._focus_before.isVisible():
            self._focus_before.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _first_focusable(self) -> QWidget | None:
        widget = self.nextInFocusChain()
        while widget is not None and widget is not self:
            if (self.isAncestorOf(widget) and widget.isVisible() and widget.isEnabled()
                    and widget.focusPolicy().value & Qt.FocusPolicy.TabFocus.value):
                return widget
            widget = widget.nextInFocusChain()
        return None

    def set_metrics(self, metrics: tuple[MetricConfig, ...]) -> None:
        """Show these settings: each family's, unchecked where absent (a family the window always scores shows its
        defaults then)."""
        by_key = {m.key: m for m in metrics}
        for key, group in self.groups.items():
            group.set_config(by_key.get(key))

    def set_referenced(self, referenced: bool) -> None:
        """Whether the run shown has references: without, a note above the groups names the families that need one
        as not scored (their settings stay, for the next run that has a reference)."""
        needing = [g.family.title for g in self.groups.values() if g.family.needs_reference]
        self.no_reference_note.setText(f"The run has no reference: {', '.join(needing)} not scored in it (their "
                                       "settings stay for a run with one).")
        self.no_reference_note.setVisible(not referenced)

    def metrics(self) -> tuple[MetricConfig, ...]:
        """The settings shown: every family scored, in the registry's order."""
        return tuple(c for group in self.groups.values() if (c := group.config()) is not None)
