"""Edit ▸ Mark errors…: where the review is written (a new file, or one to resume), MQM or ESA, the reviewer's name
(asked once, kept in the settings) and the typology (MQM's core, or a file of one's own). The name is asked first
(the focus is there while it is empty), the proposed file follows it until the user names a file, and OK without a
name or a file says so and keeps the dialog open."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from ...core.errors import InputError
from ...core.inputs.untrusted_json import parse
from ..state import WindowState
from ..widgets.layout import hrow
from ..widgets.style import styled
from .review import ESA, MQM


class ReviewDialog(QDialog):
    """See the module; :meth:`choice` gives (file, rater, mode, typology file or ''). ``propose(rater)``: the file
    proposed for a rater (see :func:`proposed_review_path`)."""

    def __init__(self, parent: QWidget | None, rater: str, propose: Callable[[str], str],
                 state: WindowState | None = None):
        super().__init__(parent)
        self.state = state
        self.propose = propose
        self._rater_proposed = rater  # the name the path was last proposed for
        self.setWindowTitle("Mark errors")
        self.path = QLineEdit(propose(rater))
        self.path.setToolTip("Every change is written here at once (JSON Lines, as --annotations reads them); an "
                             "existing file is resumed")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        self.rater = QLineEdit(rater)
        self.rater.setPlaceholderText("your name, as your marks are signed")
        self.rater.textEdited.connect(self._follow_rater)
        self.problem = styled(QLabel(""), "warning")
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
        form.addRow(self.problem)
        form.addRow(buttons)
        (self.path if rater else self.rater).setFocus()

    def _follow_rater(self, text: str) -> None:
        """The proposed file follows the name typed (``review-ana-…``), unless the user chose a file."""
        if self.path.text() == self.propose(self._rater_proposed):
            self.path.setText(self.propose(text.strip()))
        self._rater_proposed = text.strip()

    def accept(self) -> None:
        """OK: only with a file and a name (else said here, the field focused, the dialog kept open)."""
        path, rater = self.path.text().strip(), self.rater.text().strip()
        problem = ("Give your name: it signs every mark" if not rater else "Name the review file" if not path
                   else f"No folder {Path(path).parent}: choose another with Browse…"
                   if not Path(path).parent.is_dir() else "")
        if problem:
            self.problem.setText(problem)
            (self.rater if not rater else self.path).setFocus()
            return
        super().accept()

    def _browse(self) -> None:
        chosen, _ = QFileDialog.getSaveFileName(self, "Review file", self.path.text(), "JSON Lines (*.jsonl)",
                                                options=QFileDialog.Option.DontConfirmOverwrite)
        if chosen:
            self.path.setText(chosen)
            if self.state is not None:
                self.state.folder_used("review", chosen)

    def _pick_typology(self) -> None:
        chosen, _ = QFileDialog.getOpenFileName(self, "Typology", "", "Text (*.txt);;All files (*)")
        if chosen:
            self.typology.setText(chosen)

    def choice(self) -> tuple[str, str, str, str]:
        return self.path.text().strip(), self.rater.text().strip(), str(self.mode.currentData()), \
            self.typology.text().strip()


def is_review_file(path: str | Path) -> bool:
    """Whether ``path`` is a review file the desk wrote (JSON Lines whose first row is signed by a rater and names
    its typology): one to resume rather than to read as another rater's annotations."""
    try:
        with open(path, encoding="utf-8-sig", newline="\n") as f:
            row = parse(f.readline(1 << 20) or "null", str(path))
    except (OSError, ValueError, InputError):
        return False
    return isinstance(row, dict) and "rater" in row and "typology" in row


def proposed_review_path(rater: str, first_system: Path | None, opened_with: Sequence[str], last: str | None,
                         folder: str) -> str:
    """Where Mark errors… proposes to write: the review this window wrote last for the files shown, else a review
    file they were opened with (resumed, never split in two), else a new ``review-RATER-SYSTEM.jsonl`` in
    ``folder`` (the folder last used for reviews), else in the user's documents — never beside the inputs unasked
    (they may be read-only, or shared)."""
    if last:
        return last
    resumable = next((p for p in opened_with if is_review_file(p)), None)
    if resumable is not None:
        return str(resumable)
    # A folder that exists: a fresh account has no Documents folder, though Qt names it (the first mark then failed).
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    where = next((f for f in (folder, documents) if f and Path(f).is_dir()), str(Path.home()))
    stem = f"-{first_system.stem}" if first_system is not None else ""
    return str(Path(where) / f"review-{rater or 'me'}{stem}.jsonl")
