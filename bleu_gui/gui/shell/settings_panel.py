"""The scoring settings: BLEU's (variant, tokenizer, lowercase, smoothing, max order), and whether chrF and TER
are computed beside it, with theirs (sacreBLEU's flags)."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDockWidget,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QMainWindow,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...core import BleuConfig, MetricConfig
from ...core.metrics.bleu.config import SMOOTH_DEFAULTS, SMOOTH_METHODS
from ...core.metrics.bleu.variant import VARIANTS, get_variant
from ...core.metrics.chrf.chrf import ChrfConfig
from ...core.metrics.ter.ter import TerConfig
from ...core.metrics.tokenizers import TOKENIZER_NAMES
from ..widgets.style import styled

_DEFAULT = "(variant default)"
# How an empty reference line is read, in words (BleuConfig.empty_refs).
EMPTY_REF_LABELS = {"empty": "empty reference", "missing": "missing reference"}


def _spin(low: int, high: int, tip: str) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setToolTip(tip)
    return spin


class ChrfSettings(QGroupBox):
    """chrF's settings in a group whose check box says whether chrF is computed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("chrF", parent)
        self.setCheckable(True)
        self.setToolTip("Character n-gram F-score (Popović 2015) as sacreBLEU computes it; word order 2 gives chrF++")
        self.char_order = _spin(0, 20, "--chrf-char-order: character n-gram orders 1..N (default 6)")
        self.word_order = _spin(0, 20, "--chrf-word-order: word n-gram orders 1..N (default 0; 2 is chrF++)")
        self.beta = _spin(0, 10, "--chrf-beta: recall counts β times as much as precision (default 2)")
        self.lowercase = QCheckBox("lowercase")
        self.whitespace = QCheckBox("keep whitespace")
        self.eps = QCheckBox("eps smoothing")
        form = QFormLayout(self)
        form.addRow("Char order", self.char_order)
        form.addRow("Word order", self.word_order)
        form.addRow("β", self.beta)
        for box in (self.lowercase, self.whitespace, self.eps):
            form.addRow("", box)
        self.set_config(None)

    def set_config(self, cfg: ChrfConfig | None) -> None:
        self.setChecked(cfg is not None)
        cfg = cfg or ChrfConfig()
        self.char_order.setValue(cfg.char_order)
        self.word_order.setValue(cfg.word_order)
        self.beta.setValue(cfg.beta)
        self.lowercase.setChecked(cfg.lowercase)
        self.whitespace.setChecked(cfg.whitespace)
        self.eps.setChecked(cfg.eps_smoothing)

    def config(self) -> ChrfConfig | None:
        if not self.isChecked():
            return None
        return ChrfConfig(self.char_order.value(), self.word_order.value(), self.beta.value(),
                          self.whitespace.isChecked(), self.lowercase.isChecked(), self.eps.isChecked())

    def watch(self, slot: object) -> None:
        self.toggled.connect(slot)
        for spin in (self.char_order, self.word_order, self.beta):
            spin.valueChanged.connect(slot)
        for box in (self.lowercase, self.whitespace, self.eps):
            box.toggled.connect(slot)


class TerSettings(QGroupBox):
    """TER's settings in a group whose check box says whether TER is computed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("TER", parent)
        self.setCheckable(True)
        self.setToolTip("Translation edit rate with sacreBLEU's Tercom shifts (lower is better)")
        self.case_sensitive = QCheckBox("case-sensitive")
        self.normalized = QCheckBox("normalized")
        self.normalized.setToolTip("--ter-normalized: XML entities, punctuation split off, hyphenation joined")
        self.no_punct = QCheckBox("no punctuation")
        self.asian = QCheckBox("Asian support")
        self.asian.setToolTip("--ter-asian-support: split Chinese and Japanese characters into words — only together "
                              "with normalized (alone it changes nothing) — and drop their punctuation with no "
                              "punctuation. TER splits words at spaces: without it a Chinese or Japanese sentence is "
                              "one word. Not carried to other files: it follows their language")
        box = QVBoxLayout(self)
        for check in (self.case_sensitive, self.normalized, self.no_punct, self.asian):
            box.addWidget(check)
        self.set_config(None)

    def set_config(self, cfg: TerConfig | None) -> None:
        self.setChecked(cfg is not None)
        cfg = cfg or TerConfig()
        self.case_sensitive.setChecked(cfg.case_sensitive)
        self.normalized.setChecked(cfg.normalized)
        self.no_punct.setChecked(cfg.no_punct)
        self.asian.setChecked(cfg.asian_support)

    def config(self) -> TerConfig | None:
        if not self.isChecked():
            return None
        return TerConfig(self.case_sensitive.isChecked(), self.asian.isChecked(), self.no_punct.isChecked(),
                         self.normalized.isChecked())

    def watch(self, slot: object) -> None:
        self.toggled.connect(slot)
        for check in (self.case_sensitive, self.normalized, self.no_punct, self.asian):
            check.toggled.connect(slot)


def _empty_refs_combo() -> QComboBox:
    """How an empty reference line is read (BleuConfig.empty_refs), in words."""
    combo = QComboBox()
    for rule, label in EMPTY_REF_LABELS.items():
        combo.addItem(label, rule)
    combo.setToolTip("How an empty line of a reference file is read: as an empty reference (sacreBLEU's command "
                     "line, the default) or as a reference missing for that sentence (sacreBLEU's API, None)")
    return combo


def _narrow(*combos: QComboBox) -> None:
    """Combos as narrow as their shortest useful text: the dock leaves the views the room at 1366 px."""
    for combo in combos:
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(9)


class SettingsPanel(QWidget):
    """Emits ``changed(tuple of metric settings)`` whenever the user changes a setting: BLEU's first, then chrF's
    and TER's when they are computed."""

    changed = Signal(object)

    def __init__(self, metrics: tuple[MetricConfig, ...], parent: QWidget | None = None) -> None:
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
        self.empty_refs = _empty_refs_combo()
        self._shown = BleuConfig()  # the settings last shown: those the panel has no field for are kept from it
        _narrow(self.variant, self.tokenizer, self.smooth, self.nltk_method, self.empty_refs)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        styled(self.hint, "hint")
        self.chrf, self.ter = ChrfSettings(), TerSettings()
        bleu = QGroupBox("BLEU")
        bleu.setToolTip("BLEU is always computed: the window's n-gram evidence, what-if edits and n-gram wins are BLEU's")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        outer.addWidget(bleu)
        outer.addWidget(self.chrf)
        outer.addWidget(self.ter)
        outer.addStretch(1)
        form = QFormLayout(bleu)
        form.addRow("Variant", self.variant)
        form.addRow("Tokenizer", self.tokenizer)
        form.addRow("", self.lowercase)
        form.addRow("Smoothing", self.smooth)
        form.addRow("Smoothing value", self.smooth_value)
        form.addRow("NLTK smoothing", self.nltk_method)
        form.addRow("Max order", self.max_order)
        form.addRow("Empty ref", self.empty_refs)
        form.addRow(self.hint)
        self._loading = False
        self.set_metrics(metrics)
        self.chrf.watch(self.on_edited)
        self.ter.watch(self.on_edited)
        for w in (self.variant, self.tokenizer, self.smooth, self.nltk_method, self.empty_refs):
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
                         | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable)  # View ▸ Scoring settings brings it back
        parent.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        return dock

    def set_metrics(self, metrics: tuple[MetricConfig, ...]) -> None:
        """Show these settings: BLEU's (the defaults when absent), and chrF and TER checked when present."""
        self._loading = True
        self.chrf.set_config(next((m for m in metrics if isinstance(m, ChrfConfig)), None))
        self.ter.set_config(next((m for m in metrics if isinstance(m, TerConfig)), None))
        self._loading = False
        self.set_config(next((m for m in metrics if isinstance(m, BleuConfig)), BleuConfig()))

    def metrics(self) -> tuple[MetricConfig, ...]:
        """The settings shown: BLEU's, then chrF's and TER's when they are checked."""
        return (self.config(), *(m for m in (self.chrf.config(), self.ter.config()) if m is not None))

    def set_config(self, cfg: BleuConfig) -> None:
        self._loading = True
        self.variant.setCurrentText(cfg.variant)
        self.tokenizer.setCurrentText(cfg.tokenizer or _DEFAULT)
        self.lowercase.setChecked(cfg.lowercase)
        self.smooth.setCurrentText(cfg.smooth_method)
        self.smooth_value.setValue(cfg.smoothing_value or 0.0)
        self.nltk_method.setCurrentIndex(cfg.nltk_smoothing)
        self.max_order.setValue(cfg.max_order)
        self.empty_refs.setCurrentIndex(self.empty_refs.findData(cfg.empty_refs))
        self._shown = cfg
        self._loading = False
        self._update_enabled()

    def config(self) -> BleuConfig:
        method = self.smooth.currentText()
        value = self.smooth_value.value() if SMOOTH_DEFAULTS[method] is not None else None
        tok = self.tokenizer.currentText()
        # Weights, auto_reweigh and NLTK's smoothing parameters have no field here: kept as given (command line,
        # session), never dropped silently, while the variant reads them.
        variant = self.variant.currentText()
        kept = self._shown if variant == self._shown.variant else BleuConfig(empty_refs=self._shown.empty_refs)
        if kept.weights is not None and self.max_order.value() != len(kept.weights):
            kept = replace(kept, weights=None)  # the order was changed: uniform weights of the new order
        return replace(kept, variant=variant, tokenizer=None if tok == _DEFAULT else tok,
                       lowercase=self.lowercase.isChecked(), smooth_method=method, smooth_value=value,
                       max_order=self.max_order.value(), nltk_smoothing=self.nltk_method.currentIndex(),
                       empty_refs=str(self.empty_refs.currentData()))

    def _update_enabled(self) -> None:
        variant = get_variant(self.variant.currentText())
        reads = variant.settings
        self.smooth.setEnabled("smooth_method" in reads)
        self.smooth_value.setEnabled("smooth_value" in reads and SMOOTH_DEFAULTS[self.smooth.currentText()] is not None)
        self.nltk_method.setEnabled("nltk_smoothing" in reads)
        by_language = ", ".join(f"{tok} for {lang}" for lang, tok in variant.language_tokenizers.items())
        self.hint.setText(f"{variant.hint} Default tokenizer: {variant.default_tokenizer}"
                          + (f" ({by_language} when the input declares its target language)." if by_language else "."))

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
        self.changed.emit(self.metrics())
