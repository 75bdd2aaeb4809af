"""The header above the Inspect view: the corpus score, its breakdown, signature and notes, with copy buttons."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QWidget

from ...core import MetricConfig, Score, palette
from ...core.output import score_text
from ..widgets.style import styled


class ScoreHeader(QWidget):
    """Signal: ``message(str)`` for the status bar (e.g. after copying). Its :attr:`reset_button` asks for the
    default settings (the view connects it)."""

    message = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.score: Score | None = None
        self.corpus_label = QLabel("No files open")
        styled(self.corpus_label, "corpusScore")
        self.verbose_label = QLabel("File ▸ Open… or drop system outputs and their references here.")
        styled(self.verbose_label, "verbose")
        self.verbose_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.signature_label = QLabel("")
        styled(self.signature_label, "signature")
        # Both wrap when narrow (a signature after its "|" fields, by Unicode's line breaking): a long one (an
        # imported metric's file and column) must not widen the window past 1366 px.
        for label in (self.verbose_label, self.signature_label):
            label.setWordWrap(True)
        self.signature_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notes_label = QLabel("")
        styled(self.notes_label, "hint")
        self.notes_label.setWordWrap(True)
        self.notes_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notes_label.setVisible(False)
        # Past the first note, the others fold away behind "+N more" (an MQM run has ten: they took 270 px at 1366
        # × 768 and left five rows to the sentence list); the label's tooltip holds them all.
        self.more_button = QPushButton("")
        self.more_button.setFlat(True)
        self.more_button.setCursor(Qt.CursorShape.PointingHandCursor)
        styled(self.more_button, "link")
        self.more_button.setVisible(False)
        self.more_button.clicked.connect(self.on_more_clicked)
        self.notes_open = False
        self._kept: list[str] = []
        self._notes: list[str] = []
        self.copy_button = QPushButton("Copy score line")
        self.copy_button.setEnabled(False)
        self.copy_button.clicked.connect(self.on_copy_clicked)
        self.copy_signature_button = QPushButton("Copy signature")
        self.copy_signature_button.setEnabled(False)
        self.copy_signature_button.clicked.connect(self.on_copy_signature_clicked)
        self.badges = QLabel("")
        self.badges.setObjectName("badges")
        self.badges.setVisible(False)
        self.reset_button = QPushButton("Reset to defaults")
        self.reset_button.setToolTip("Score again with sacreBLEU's default settings")
        self.reset_button.setVisible(False)
        grid = QGridLayout(self)
        grid.setContentsMargins(8, 6, 8, 2)
        grid.addWidget(self.corpus_label, 0, 0, 2, 1)
        grid.addWidget(self.verbose_label, 0, 1)
        grid.addWidget(self.signature_label, 1, 1)
        grid.addWidget(self.copy_button, 0, 2)
        grid.addWidget(self.copy_signature_button, 1, 2)
        grid.addWidget(self.badges, 2, 1)
        grid.addWidget(self.reset_button, 2, 2)
        grid.addWidget(self.notes_label, 3, 1)
        grid.addWidget(self.more_button, 3, 2, Qt.AlignmentFlag.AlignTop)
        grid.setColumnStretch(1, 1)

    def set_badges(self, labels: list[str]) -> None:
        """A badge for every setting that differs from the variant's default, so none goes unseen."""
        chip = (f"background:{palette.BADGE}; color:{palette.INK}; border-radius:3px; padding:1px 6px; "
                "font-weight:600")
        self.badges.setText("Not the default: " + " ".join(f'<span style="{chip}">{escape(label)}</span>'
                                                              for label in labels))
        self.badges.setVisible(bool(labels))
        self.reset_button.setVisible(bool(labels))

    def set_score(self, score: Score, system_name: str, notes: list[str] | None = None,
                  config: MetricConfig | None = None, kept: list[str] | None = None) -> None:
        """Show one system's corpus score with everything that produced it; ``notes`` say what reading
        the inputs changed (a BOM removed, empty reference lines, ...): the first is shown, the others on
        request; ``kept``: notes that say what the number is (a slice, scores read from a file), always shown;
        ``config``: the metric's settings, whose departures from the defaults get a badge each."""
        self.score = score
        self.corpus_label.setText(score.metric if score.stand_in else f"{score.metric} {score_text.score_only(score)}")
        breakdown = score.breakdown()
        self.verbose_label.setText(f"{system_name}: {breakdown}" if breakdown else system_name)
        self.signature_label.setText(f"{score.metric}|{score.signature}")
        self.set_badges(config.non_default() if config is not None else [])
        self._kept = list(kept) if kept is not None else list(score.notes)
        self._notes = [n for n in (notes or []) if n not in self._kept]
        self._show_notes()
        self.copy_button.setEnabled(True)
        self.copy_signature_button.setEnabled(True)

    def _show_notes(self) -> None:
        shown = self._kept + (self._notes if self.notes_open else self._notes[:1])
        self.notes_label.setText("\n".join(f"• {note}" for note in shown))
        self.notes_label.setToolTip("\n".join(f"• {note}" for note in self._kept + self._notes))
        self.notes_label.setVisible(bool(shown))
        hidden = len(self._notes) - 1
        self.more_button.setVisible(hidden > 0)
        self.more_button.setText("fewer notes ▴" if self.notes_open else f"+{hidden} more note{'s' * (hidden > 1)} ▾")

    @Slot()
    def on_more_clicked(self) -> None:
        """Show every note, or the first again."""
        self.notes_open = not self.notes_open
        self._show_notes()

    def show_scoring(self) -> None:
        """Say that a score is being computed (only while nothing is shown yet)."""
        if self.score is None:
            self.corpus_label.setText("Scoring…")

    def show_idle(self) -> None:
        """Back to the empty state's text when a first open failed or was cancelled."""
        if self.score is None:
            self.corpus_label.setText("No files open")

    @Slot()
    def on_copy_clicked(self) -> None:
        if self.score is not None:
            QGuiApplication.clipboard().setText(score_text.text_line(self.score))
            self.message.emit("Score line copied")

    @Slot()
    def on_copy_signature_clicked(self) -> None:
        if self.score is not None:
            QGuiApplication.clipboard().setText(self.score.signature)
            self.message.emit("Signature copied")
