"""The scoring settings: variant, tokenizer, lowercase, smoothing, max order."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDockWidget,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QMainWindow,
    QSpinBox,
    QWidget,
)

from ...core import BleuConfig
from ...core.metrics.bleu_config import SMOOTH_DEFAULTS, SMOOTH_METHODS
from ...core.metrics.bleu_variant import VARIANTS, get_variant
from ...core.metrics.tokenizers import TOKENIZER_NAMES
from ..widgets.style import styled

_DEFAULT = "(variant default)"


class SettingsPanel(QWidget):
    """Emits ``changed(BleuConfig)`` whenever the user changes a setting."""

    changed = Signal(object)

    def __init__(self, config: BleuConfig, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.variant = QComboBox()
        self.variant.addItems(VARIANTS)
        self.tokenizer = QComboBox()
        self.tokenizer.addItems([_DEFAULT, *TOKENIZER_NAMES])
        self.lowercase = QCheckBox("lowercase")
        self.smooth = QComboBox()
        self.smooth.addItems(SMOOTH_METHODS)
        self.smooth_value = QDoubleSpinBox()
        self.smooth_value.setRange(0.0, 100.0)
        self.smooth_value.setDecimals(3)
        self.smooth_value.setSingleStep(0.05)
        self.nltk_method = QComboBox()
        self.nltk_method.addItems([f"method{i}" for i in range(8)])
        self.max_order = QSpinBox()
        self.max_order.setRange(1, 9)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        styled(self.hint, "hint")
        form = QFormLayout(self)
        form.addRow("Variant", self.variant)
        form.addRow("Tokenizer", self.tokenizer)
        form.addRow("", self.lowercase)
        form.addRow("Smoothing", self.smooth)
        form.addRow("Smoothing value", self.smooth_value)
        form.addRow("NLTK smoothing", self.nltk_method)
        form.addRow("Max order", self.max_order)
        form.addRow(self.hint)
        self._loading = False
        self.set_config(config)
        for w in (self.variant, self.tokenizer, self.smooth, self.nltk_method):
            w.currentIndexChanged.connect(self.on_edited)
        self.lowercase.toggled.connect(self.on_edited)
        self.smooth_value.valueChanged.connect(self.on_edited)
        self.max_order.valueChanged.connect(self.on_edited)

    def in_dock(self, parent: QMainWindow) -> QDockWidget:
        """This panel in a movable, floatable dock on the right of ``parent``."""
        dock = QDockWidget("Scoring settings", parent)
        dock.setObjectName("settingsDock")
        dock.setWidget(self)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        parent.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        return dock

    def set_config(self, cfg: BleuConfig) -> None:
        self._loading = True
        self.variant.setCurrentText(cfg.variant)
        self.tokenizer.setCurrentText(cfg.tokenizer or _DEFAULT)
        self.lowercase.setChecked(cfg.lowercase)
        self.smooth.setCurrentText(cfg.smooth_method)
        self.smooth_value.setValue(cfg.smoothing_value or 0.0)
        self.nltk_method.setCurrentIndex(cfg.nltk_smoothing)
        self.max_order.setValue(cfg.max_order)
        self._loading = False
        self._update_enabled()

    def config(self) -> BleuConfig:
        method = self.smooth.currentText()
        value = self.smooth_value.value() if SMOOTH_DEFAULTS[method] is not None else None
        tok = self.tokenizer.currentText()
        return BleuConfig(variant=self.variant.currentText(), tokenizer=None if tok == _DEFAULT else tok,
                          lowercase=self.lowercase.isChecked(), smooth_method=method, smooth_value=value,
                          max_order=self.max_order.value(), nltk_smoothing=self.nltk_method.currentIndex())

    def _update_enabled(self) -> None:
        variant = get_variant(self.variant.currentText())
        reads = variant.settings
        self.smooth.setEnabled("smooth_method" in reads)
        self.smooth_value.setEnabled("smooth_value" in reads and SMOOTH_DEFAULTS[self.smooth.currentText()] is not None)
        self.nltk_method.setEnabled("nltk_smoothing" in reads)
        self.hint.setText(f"{variant.hint} Default tokenizer: {variant.default_tokenizer}.")

    def on_edited(self, *_args: object) -> None:
        if self._loading:
            return
        if self.sender() is self.smooth:
            default = SMOOTH_DEFAULTS[self.smooth.currentText()]
            if default is not None:
                self._loading = True
                self.smooth_value.setValue(default)
                self._loading = False
        self._update_enabled()
        self.changed.emit(self.config())
