"""File ▸ Open test set…: system outputs scored against a test set named in sacreBLEU's registry (``sacrebleu -t NAME
-l PAIR``), its source, references, documents and fields read from sacreBLEU's cache or its download
(:mod:`...core.inputs.test_sets`). The names and each set's language pairs are sacreBLEU's own."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from ...core.inputs.format_table import ReadOptions
from ...core.inputs.run_inputs import InputRequest
from ...core.inputs.test_sets import cache_folder, registry_pairs
from ..file_dialogs import ask_open_many
from ..state import OpenChoice, WindowState
from ..widgets.layout import hrow


class TestSetDialog(QDialog):
    """See the module; :meth:`choice` is what to open once accepted."""

    def __init__(self, parent: QWidget | None, state: WindowState | None):
        super().__init__(parent)
        self.setWindowTitle("Open test set")
        self._state = state
        self._pairs = registry_pairs()
        self.name = QLineEdit()
        self.name.setObjectName("testSetName")
        self.name.setPlaceholderText("wmt24, wmt14/full, flores200…")
        completer = QCompleter(sorted(self._pairs), self.name)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.name.setCompleter(completer)
        self.name.textChanged.connect(self._name_changed)
        self.pair = QComboBox()
        self.pair.setObjectName("testSetPair")
        self.systems = QLineEdit()
        self.systems.setObjectName("testSetSystems")
        self.systems.setPlaceholderText("system outputs, one segment per line; separate several with ;")
        self.systems.textChanged.connect(lambda _text: self._update())
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        self.note = QLabel(f"Read through sacreBLEU from its cache ({cache_folder()}), or downloaded there once.")
        self.note.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow("Test set", self.name)
        form.addRow("Language pair", self.pair)
        form.addRow("Systems", hrow(self.systems, browse))
        form.addRow(self.note)
        form.addRow(self.buttons)
        self._name_changed("")

    def _name_changed(self, text: str) -> None:
        self.pair.clear()
        self.pair.addItems(self._pairs.get(text.strip(), []))
        self._update()

    def _browse(self) -> None:
        paths = ask_open_many(self, self._state, "systems", "System outputs", "Text (*.txt);;All files (*)")
        if paths:
            self.systems.setText("; ".join(paths))

    def _update(self) -> None:
        ready = bool(self.pair.currentText()) and bool(self.systems.text().strip())
        button = self.buttons.button(QDialogButtonBox.StandardButton.Open)
        if button is not None:
            button.setEnabled(ready)

    def choice(self) -> OpenChoice:
        """The run the dialog names: the systems against the test set."""
        systems = tuple(p.strip() for p in self.systems.text().split(";") if p.strip())
        langs = tuple(self.pair.currentText().split("-", 1))
        return OpenChoice(InputRequest(systems=systems, test_set=self.name.text().strip(),
                                       options=ReadOptions(langs=(langs[0], langs[1]))))
