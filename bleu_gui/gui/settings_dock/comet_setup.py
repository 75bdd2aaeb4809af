"""COMET switched on from the window alone: the model folder, the worker Python and the cache file each with a Browse…
button (the file dialogs remember their folders), the set-up checked before any scoring starts (what is wrong said
here, beside the fields, the group kept open), and how to get a worker Python."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QLineEdit, QPushButton, QWidget

from ...core.metrics.comet.worker import setup_problem
from ..file_dialogs import ask_folder, ask_open, ask_save
from ..state import WindowState
from ..widgets.style import styled
from ..window_words import in_window_words
from .settings_panel import SettingsGroup

HOW_TO = ("<b>A worker Python</b> runs COMET apart from the app (its torch never enters the window). Either "
          "install COMET into this app's environment — <code>pip install 'bleu-gui[comet]'</code> — and leave the "
          "field empty; or make an environment of its own — <code>python3 -m venv ~/comet-env</code>, then "
          "<code>~/comet-env/bin/pip install unbabel-comet</code> — and choose <code>~/comet-env/bin/python</code> "
          "(on Windows <code>comet-env\\Scripts\\python.exe</code>) here.")


class CometSetup(QWidget):
    """See the module: the rows under COMET's fields. :meth:`check` says whether the settings shown can score."""

    def __init__(self, group: SettingsGroup, state: WindowState | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.group, self.state = group, state
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        styled(self.problem, "warning")
        self.problem.setVisible(False)
        help_text = QLabel(HOW_TO)
        help_text.setWordWrap(True)
        help_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        styled(help_text, "hint")
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        self.buttons = {}
        for column, (name, text, tip, pick) in enumerate((
                ("model", "Model folder…", "A folder holding checkpoints/model.ckpt", self._pick_model),
                ("python", "Worker Python…", "A Python that has unbabel-comet", self._pick_python),
                ("cache", "Cache file…", "Where COMET's scores are kept (SQLite)", self._pick_cache))):
            button = QPushButton(text)
            button.setToolTip(tip)
            button.clicked.connect(pick)
            self.buttons[name] = button
            grid.addWidget(button, 0, column)
        grid.addWidget(self.problem, 1, 0, 1, 3)
        grid.addWidget(help_text, 2, 0, 1, 3)

    def _field(self, name: str) -> QLineEdit:
        widget = self.group.widget(name)
        assert isinstance(widget, QLineEdit)
        return widget

    def _set(self, name: str, value: str) -> None:
        if value:
            field = self._field(name)
            field.setText(value)
            field.editingFinished.emit()  # as if typed: the settings follow

    def _pick_model(self) -> None:
        self._set("model", ask_folder(self, self.state, "comet-model", "COMET model folder"))

    def _pick_python(self) -> None:
        self._set("python", ask_open(self, self.state, "comet-python", "A Python that has unbabel-comet"))

    def _pick_cache(self) -> None:
        self._set("cache", ask_save(self, self.state, "comet-cache", "COMET's cache file", "comet-scores.sqlite",
                                    "SQLite (*.sqlite);;All files (*)"))

    def check(self, python: str, model: str) -> bool:
        """Whether COMET can score with ``python`` and ``model``; what stops it is said under the fields."""
        problem = in_window_words(setup_problem(python, model))
        self.problem.setText(problem)
        self.problem.setVisible(bool(problem))
        return not problem
