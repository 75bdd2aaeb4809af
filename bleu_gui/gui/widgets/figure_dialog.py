"""One dialog for every figure: the file (PNG, SVG or PDF by its extension) and the size — a preset (slide,
paper column, paper page) or custom pixels, dpi and text scale."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from .figures import FORMATS, PRESETS, FigureSize, text_points
from .style import styled

CUSTOM = "Custom"


class FigureDialog(QDialog):
    """Ask where and how large; :meth:`ask` gives (path, size) or None."""

    def __init__(self, parent: QWidget | None, what: str, file_name: str, widget: QWidget | None = None) -> None:
        """``widget``: what the figure shows (the summary says how large its text prints)."""
        super().__init__(parent)
        self.widget = widget
        self.setWindowTitle(f"Export {what}")
        self.path = QLineEdit(str(Path(file_name) if Path(file_name).is_absolute() else Path.home() / file_name))
        self.path.setToolTip("The format follows the extension: " + ", ".join(FORMATS))
        browse = QPushButton("Browse…")
        browse.clicked.connect(self.on_browse)
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        line.addWidget(self.path, 1)
        line.addWidget(browse)
        self.preset = QComboBox()
        self.preset.addItems([p.name for p in PRESETS] + [CUSTOM])
        self.width_px, self.height_px, self.dpi = QSpinBox(), QSpinBox(), QSpinBox()
        self.width_px.setRange(100, 12000)
        self.height_px.setRange(0, 12000)
        self.height_px.setSpecialValueText("auto (the view's shape)")
        self.dpi.setRange(30, 2400)
        self.scale = QDoubleSpinBox()
        self.scale.setRange(0.25, 8.0)
        self.scale.setSingleStep(0.25)
        self.scale.setToolTip("Text and lines this many times their size on screen")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setMinimumHeight(3 * self.summary.fontMetrics().height())  # room for the warning's lines
        styled(self.summary, "hint")
        self.problem = QLabel()
        styled(self.problem, "warning")
        self.problem.setWordWrap(True)
        self.problem.hide()
        form = QFormLayout(self)
        form.addRow("File", row)
        form.addRow("Size", self.preset)
        form.addRow("Width (px)", self.width_px)
        form.addRow("Height (px)", self.height_px)
        form.addRow("Resolution (dpi)", self.dpi)
        form.addRow("Text scale", self.scale)
        form.addRow(self.summary)
        form.addRow(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.on_accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.preset.currentIndexChanged.connect(self.on_preset)
        for box in (self.width_px, self.height_px, self.dpi, self.scale):
            box.valueChanged.connect(self._update_summary)
        self.on_preset(0)
        self.resize(560, 0)

    def on_preset(self, index: int) -> None:
        custom = index >= len(PRESETS)
        if not custom:
            p = PRESETS[index]
            self.width_px.setValue(p.width)
            self.height_px.setValue(p.height or 0)
            self.dpi.setValue(p.dpi)
            self.scale.setValue(p.scale)
        for box in (self.width_px, self.height_px, self.dpi, self.scale):
            box.setEnabled(custom)
        self._update_summary()

    def _update_summary(self) -> None:
        size = self.size_chosen()
        inches = size.width / size.dpi
        text = f"{size.describe()}: {inches:.2f} in wide when printed"
        if self.widget is not None:
            points = text_points(self.widget, size)
            text += f"; text prints at {points:.1f} pt" + (
                " — small: choose a wider size, or save a single chart with its Save… button" if points < 5 else "")
        self.summary.setText(text)

    def size_chosen(self) -> FigureSize:
        """The size the fields say."""
        return FigureSize(self.preset.currentText(), self.width_px.value(), self.height_px.value() or None,
                          self.dpi.value(), self.scale.value())

    def on_browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.windowTitle(), self.path.text(),
                                              "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)")
        if path:
            self.path.setText(path)

    def on_accept(self) -> None:
        suffix = Path(self.path.text().strip()).suffix.lower()
        if suffix not in FORMATS:
            self.problem.setText(f"File: end the name with {', '.join(FORMATS)} (the format follows it)")
            self.problem.show()
            return
        self.accept()

    @classmethod
    def ask(cls, parent: QWidget | None, what: str, file_name: str,
            widget: QWidget | None = None) -> tuple[Path, FigureSize] | None:
        dialog = cls(parent, what, file_name, widget)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return Path(dialog.path.text().strip()), dialog.size_chosen()
