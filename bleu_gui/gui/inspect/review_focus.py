"""Where the review desk's keys act: the candidate pane, or the source pane (an omission is selected there), and
every control of the desk hands the focus back to the pane it came from when it is done — Enter or Esc in the
category list, the comment or the score; the category list's popup closed. S goes from one pane to the other."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, Slot
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QTextEdit, QWidget

from ..widgets.context_pane import ContextPane
from ..widgets.panes import SentencePanes, utf16_offsets
from .review_controls import ReviewControls

BACK_KEYS = {Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape}


class DeskFocus(QObject):
    """See the module. ``active()``: whether a review is on (the panes are only the desk's then); ``told(line)``: a
    line for the status bar."""

    def __init__(self, panes: SentencePanes, context: ContextPane, controls: ReviewControls,
                 active: Callable[[], bool], told: Callable[[str], None], parent: QObject | None = None):
        super().__init__(parent)
        self.panes, self.context, self.controls, self.active, self.told = panes, context, controls, active, told
        self.last_pane: QTextEdit = panes.candidate  # where a span is selected: the candidate, or the source
        self._source_focus = context.view.focusPolicy()
        for widget in (controls.category, controls.comment, controls.score_box, controls.score):
            widget.installEventFilter(self)
        controls.category.popup_closed.connect(self.back)  # arrows in the closed list only move: Enter hands back
        for pane in (panes.candidate, context.view):
            pane.installEventFilter(self)

    def enter(self) -> None:
        """The panes made the desk's: selectable by the keyboard, the source in the Tab order, the candidate first."""
        pane, source = self.panes.candidate, self.context.view
        selectable = Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        for view in (pane, source):
            view.setTextInteractionFlags(selectable)
            view.setTabChangesFocus(True)
        self._source_focus = source.focusPolicy()
        source.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # in the Tab order: an omission is marked there
        QWidget.setTabOrder(pane, source)
        self.last_pane = pane

    def leave(self) -> None:
        """The panes given back as they were before the review."""
        for view in (self.panes.candidate, self.context.view):
            view.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            view.setTabChangesFocus(False)
            view.setExtraSelections([])
        self.context.view.setFocusPolicy(self._source_focus)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if not self.active():
            return False
        category = self.controls.category
        if event.type() == QEvent.Type.FocusIn and watched in (self.panes.candidate, self.context.view):
            self.last_pane = watched  # (one of the two panes)
        elif (event.type() == QEvent.Type.KeyPress and watched not in (self.panes.candidate, self.context.view)
              and isinstance(event, QKeyEvent) and event.key() in BACK_KEYS
              and not (watched is category and category.view().isVisible())):
            self.back()
            return True
        return False

    def back(self) -> None:
        """The focus to the pane a span was last selected in (the candidate, or the source), its selection kept."""
        if self.active():
            pane = self.last_pane if self.last_pane.isVisible() else self.panes.candidate
            pane.setFocus(Qt.FocusReason.OtherFocusReason)

    @Slot()
    def switch(self) -> None:
        """S: from the candidate to the source pane, its cursor at the shown sentence's source (select the omitted
        words with Shift+arrows), and back."""
        view = self.context.view
        if self.last_pane is view or not view.isVisible() or self.context.source_at is None:
            self.last_pane = self.panes.candidate
            self.panes.candidate.setFocus(Qt.FocusReason.ShortcutFocusReason)
            return
        cursor = view.textCursor()
        if not cursor.hasSelection():
            cursor.setPosition(utf16_offsets(view.toPlainText())[self.context.source_at[0]])
            view.setTextCursor(cursor)
        self.last_pane = view
        view.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.told("Source pane: select the omitted words with Shift+arrows, then the severity (S: back to the "
                  "candidate)")
