"""File ▸ Open: choose the system outputs, their references and (optionally) the source."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFileDialog, QGridLayout, QLabel, QLineEdit, QPushButton, QWidget

from ...core import InputError


class OpenDialog(QDialog):
    """Choose one or more system files (the first is the baseline), reference files or a reference folder,
    and a source file. A WMT XML file (or a TSV/JSONL with a system column) holds systems and references:
    give it as the reference and leave the systems empty."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Open system outputs and references")
        self.systems = QLineEdit()
        self.systems.setPlaceholderText("one file, or several separated by ';' (the first is the baseline); "
                                        "empty for a WMT XML file")
        self.references = QLineEdit()
        self.references.setPlaceholderText("files separated by ';', a folder, or one WMT XML / TSV / JSONL file")
        self.source = QLineEdit()
        self.source.setPlaceholderText("optional: the source file (text, or the source side of XLIFF/TMX/SGML/TSV)")
        browse_src = QPushButton("File…")
        browse_src.clicked.connect(self.on_browse_source)
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
        grid.addWidget(QLabel("Source"), 2, 0)
        grid.addWidget(self.source, 2, 1)
        grid.addWidget(browse_src, 2, 2)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        grid.addWidget(buttons, 3, 0, 1, 4)
        self.resize(820, 150)

    def on_browse_systems(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "System output files (baseline first)")
        if paths:
            self.systems.setText(";".join(paths))

    def on_browse_references(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Reference files")
        if paths:
            self.references.setText(";".join(paths))

    def on_browse_source(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Source file")
        if path:
            self.source.setText(path)

    def on_browse_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Reference folder")
        if path:
            self.references.setText(path)

    @classmethod
    def ask(cls, parent: QWidget) -> tuple[list[str], list[str], str | None] | None:
        """Show the dialog; (systems, references, source) when the user opened some, else None."""
        dialog = cls(parent)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        systems, refs, source = dialog.selection()
        if not refs:
            raise InputError("Choose at least one reference file or folder (or one WMT XML file with its systems).")
        return systems, refs, source

    def selection(self) -> tuple[list[str], list[str], str | None]:
        """(system paths, reference paths or folders, source path or None) as typed or chosen."""
        def split(text: str) -> list[str]:
            return [p.strip() for p in text.split(";") if p.strip()]

        return split(self.systems.text()), split(self.references.text()), self.source.text().strip() or None
