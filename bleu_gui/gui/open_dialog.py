"""File ▸ Open: choose the system outputs and their references."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFileDialog, QGridLayout, QLabel, QLineEdit, QPushButton

from ..core import InputError


class OpenDialog(QDialog):
    """Choose one or more system files (the first is the baseline) and reference files or a reference folder."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Open system outputs and references")
        self.systems = QLineEdit()
        self.systems.setPlaceholderText("one file, or several separated by ';' (the first is the baseline)")
        self.references = QLineEdit()
        self.references.setPlaceholderText("files separated by ';', or a folder")
        browse_s = QPushButton("Files…")
        browse_s.clicked.connect(self.on_browse_systems)
        browse_r = QPushButton("Files…")
        browse_r.clicked.connect(self.on_browse_references)
        browse_f = QPushButton("Folder…")
        browse_f.clicked.connect(self.on_browse_folder)
        grid = QGridLayout(self)
        grid.addWidget(QLabel("System output(s)"), 0, 0)
        grid.addWidget(self.systems, 0, 1)
        grid.addWidget(browse_s, 0, 2)
        grid.addWidget(QLabel("References"), 1, 0)
        grid.addWidget(self.references, 1, 1)
        grid.addWidget(browse_r, 1, 2)
        grid.addWidget(browse_f, 1, 3)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        grid.addWidget(buttons, 2, 0, 1, 4)
        self.resize(760, 120)

    def on_browse_systems(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "System output files (baseline first)")
        if paths:
            self.systems.setText(";".join(paths))

    def on_browse_references(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Reference files")
        if paths:
            self.references.setText(";".join(paths))

    def on_browse_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Reference folder")
        if path:
            self.references.setText(path)

    @classmethod
    def ask(cls, parent) -> tuple[list[str], list[str]] | None:
        """Show the dialog; (systems, references) when the user opened both, else None (and a hint if half)."""
        dialog = cls(parent)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        systems, refs = dialog.selection()
        if not systems or not refs:
            raise InputError("Choose at least one system output and at least one reference file or folder.")
        return systems, refs

    def selection(self) -> tuple[list[str], list[str]]:
        """(system paths, reference paths or folders) as typed or chosen."""
        def split(text: str) -> list[str]:
            return [p.strip() for p in text.split(";") if p.strip()]

        return split(self.systems.text()), split(self.references.text())
