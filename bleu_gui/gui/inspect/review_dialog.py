"""Edit ▸ Mark errors…: where the review is written (a new file, or one to resume), MQM or ESA, the reviewer's name
(asked once, kept in the settings) and the typology (MQM's core, or a file of one's own)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLineEdit,
    QPushButton,
    QWidget,
)

from ..widgets.layout import hrow
from .review import ESA, MQM


class ReviewDialog(QDialog):
    """See the module; :meth:`choice` gives (file, rater, mode, typology file or '')."""

    def __init__(self, parent: QWidget | None, path: str, rater: str):
        super().__init__(parent)
        self.setWindowTitle("Mark errors")
        self.path = QLineEdit(path)
        self.path.setToolTip("Every change is written here at once (JSON Lines, as --annotations reads them); an "
                             "existing file is resumed")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        self.rater = QLineEdit(rater)
        self.rater.setPlaceholderText("your name, as your marks are signed")
        self.mode = QComboBox()
        self.mode.addItem("MQM: spans, severity and category", MQM)
        self.mode.addItem("ESA: Minor/Major spans, then a 0–100 score (WMT24)", ESA)
        self.typology = QLineEdit()
        self.typology.setPlaceholderText("MQM's core typology (or a file: one category per line)")
        pick = QPushButton("Browse…")
        pick.clicked.connect(self._pick_typology)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow("Review file", hrow(self.path, browse))
        form.addRow("Reviewer", self.rater)
        form.addRow("Protocol", self.mode)
        form.addRow("Typology", hrow(self.typology, pick))
        form.addRow(buttons)

    def _browse(self) -> None:
        chosen, _ = QFileDialog.getSaveFileName(self, "Review file", self.path.text(), "JSON Lines (*.jsonl)",
                                                options=QFileDialog.Option.DontConfirmOverwrite)
        if chosen:
            self.path.setText(chosen)

    def _pick_typology(self) -> None:
        chosen, _ = QFileDialog.getOpenFileName(self, "Typology", "", "Text (*.txt);;All files (*)")
        if chosen:
            self.typology.setText(chosen)

    def choice(self) -> tuple[str, str, str, str]:
        return self.path.text().strip(), self.rater.text().strip(), str(self.mode.currentData()), \
            self.typology.text().strip()


def default_review_path(first_system: Path | None, rater: str) -> str:
    """Beside the first system's file: ``review-RATER.jsonl``."""
    folder = first_system.parent if first_system is not None else Path.cwd()
    return str(folder / f"review-{rater or 'me'}.jsonl")
