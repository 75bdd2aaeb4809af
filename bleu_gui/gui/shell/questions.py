"""The window's questions before a deliberate act goes on: texts sent to another machine, settings that cost requests
or minutes, unsaved edits when the window closes. Each a modal box whose safe answer is Escape's; tests answer them
by replacing these functions."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget


def ask_costly_change(parent: QWidget, text: str) -> bool:
    """Whether to score again with settings that cost requests or minutes (Escape: no, the numbers shown stay)."""
    answer = QMessageBox.question(parent, "Score again?", text, QMessageBox.StandardButton.Yes
                                  | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
    return answer == QMessageBox.StandardButton.Yes


def ask_unsaved_edits(parent: QWidget, text: str) -> str:
    """Ask what to do with unsaved edits before the window closes: ``save``, ``discard`` or ``cancel`` (Escape)."""
    box = QMessageBox(QMessageBox.Icon.Warning, "Edited candidates not saved", text, parent=parent)
    save = box.addButton("Save as…", QMessageBox.ButtonRole.AcceptRole)
    box.addButton("Discard", QMessageBox.ButtonRole.DestructiveRole)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(save)
    box.setEscapeButton(cancel)
    box.exec()
    clicked = box.clickedButton()
    role = box.buttonRole(clicked) if clicked is not None else QMessageBox.ButtonRole.RejectRole
    return {QMessageBox.ButtonRole.AcceptRole: "save", QMessageBox.ButtonRole.DestructiveRole: "discard"}.get(
        role, "cancel")


def ask_to_send(parent: QWidget, notice: str) -> bool:
    """Ask before the first request that sends the texts to another machine (an LLM judge's endpoint): the
    window scores nothing there unless the user says yes (a ``--screenshot`` window says it instead)."""
    box = QMessageBox(QMessageBox.Icon.Question, "Send the texts to another machine?",
                      f"{notice}.\n\nEvery source segment and translation of the run is sent there to be "
                      "judged. Send them?", QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, parent)
    box.setDefaultButton(QMessageBox.StandardButton.No)
    box.button(QMessageBox.StandardButton.Yes).setText("&Send the texts")
    box.button(QMessageBox.StandardButton.No).setText("&Don't send")
    return box.exec() == QMessageBox.StandardButton.Yes
