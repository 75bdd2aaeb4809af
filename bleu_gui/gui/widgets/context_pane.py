"""The source of the shown sentence, between its neighbours, with inline tags as chips.

Above the candidate in Inspect and above A/B in Compare. The previous and next
segments of the same document are shown dimmed for context; a segment's
inline tags (XLIFF/TMX) are drawn as small chips where they stood; a candidate
whose number of tags differs from its source or reference is flagged.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QTimer
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QLabel, QSizePolicy, QTextBrowser, QVBoxLayout, QWidget

from ...core import Run, palette
from ...core.inputs.markup import Tag
from ...core.inputs.text_files import SegmentFile
from .style import styled
from .text_pane import utf16_offsets

CHIP = (f'<span style="background-color:{palette.TAG_BG}; color:{palette.TAG_INK}; font-size:small; '
        'font-family:monospace">&nbsp;{}&nbsp;</span>')
DIM = f'<span style="color:{palette.MUTED}">{{}}</span>'
FLAG = f'<span style="background-color:{palette.FLAG_BG}; color:{palette.FLAG_INK}">&nbsp;{{}}&nbsp;</span>'


def with_chips(text: str, tags: tuple[Tag, ...] | None) -> str:
    """HTML of ``text`` with each tag drawn as a chip at its offset."""
    if not tags:
        return escape(text)
    out, pos = [], 0
    for offset, label in sorted(tags, key=lambda t: t[0]):
        out.append(escape(text[pos:offset]))
        out.append(CHIP.format(escape(label)))
        pos = offset
    out.append(escape(text[pos:]))
    return "".join(out)


def _tags(f: SegmentFile | None, i: int) -> tuple[Tag, ...] | None:
    return f.tags[i] if f is not None and f.tags is not None else None


class ContextPane(QWidget):
    """Source and document context of one sentence; hidden when the run has neither."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("Source")
        styled(self.title, "paneTitle")
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.view = QTextBrowser()
        self.view.setObjectName("sourcePane")
        self.view.setOpenLinks(False)
        self.view.setMinimumHeight(40)
        self.view.setMaximumHeight(92)  # three short lines; the candidate and references keep the space
        self.view.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Maximum)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        box.addWidget(self.title)
        box.addWidget(self.view)
        self.setVisible(False)
        # Where the shown sentence's source sits in the view's text (its first character, in code points), and the
        # source itself — None when it cannot be told (no source, or tags drawn inside it): a reviewer marks an
        # omission there.
        self.source_at: tuple[int, str] | None = None

    def show_sentence(self, run: Run, sentence: int, system: int = 0) -> None:
        """The source of ``sentence`` with its neighbours, and the tags of ``system``'s candidate."""
        context, source = run.context, run.context.source
        self.source_at = None
        if source is None and context.docs is None:
            self.setVisible(False)
            return
        self.setVisible(True)
        doc = context.docs[sentence] if context.docs is not None else None
        where = f" · document {doc}" if doc is not None else ""
        self.title.setText(f"Source{where} · line {run.line_number(sentence)}" if source is not None
                           else f"Document {doc} · line {run.line_number(sentence)}")
        self.view.setHtml(self.html(run, sentence, system))
        self.scroll_to_sentence()
        QTimer.singleShot(0, self.scroll_to_sentence)  # again once laid out: the scroll bar's range follows the layout

    def scroll_to_sentence(self) -> None:
        """The shown sentence's source at the top of the view (its previous segment, dimmed, scrolled above): a short
        pane shows the sentence itself, whole when it fits, never cut in half by the context."""
        if self.source_at is None:
            return
        cursor = QTextCursor(self.view.document())
        cursor.setPosition(utf16_offsets(self.view.toPlainText())[self.source_at[0]])
        bar = self.view.verticalScrollBar()
        # One block (the lines are joined by <br>): the line's place is its cursor's, in the viewport.
        bar.setValue(bar.value() + self.view.cursorRect(cursor).top() - int(self.view.document().documentMargin()))

    def html(self, run: Run, sentence: int, system: int = 0) -> str:
        context, source = run.context, run.context.source
        lines = source.lines if source is not None else run.systems[system].lines

        def same_doc(i: int) -> bool:
            return 0 <= i < run.n_sentences and (context.docs is None or context.docs[i] == context.docs[sentence])

        parts = []
        self.source_at = (len(lines[sentence - 1]) + 1 if same_doc(sentence - 1) else 0, lines[sentence]) \
            if source is not None and not _tags(source, sentence) else None
        if same_doc(sentence - 1):
            parts.append(DIM.format(escape(lines[sentence - 1])))
        parts.append(f"<b>{with_chips(lines[sentence], _tags(source, sentence))}</b>" if source is not None
                     else "<i>(no source given: File ▸ Open ▸ Source, or --src)</i>")
        parts += self._candidate_tags(run, sentence, system)
        if same_doc(sentence + 1):
            parts.append(DIM.format(escape(lines[sentence + 1])))
        return "<br>".join(parts)

    @staticmethod
    def _candidate_tags(run: Run, sentence: int, system: int) -> list[str]:
        """The candidate with its tags, flagged when it has another number of them than source/reference."""
        source = run.context.source
        candidate = run.systems[system].file
        cand_tags = _tags(candidate, sentence)
        others = [t for t in [_tags(source, sentence), *(_tags(r, sentence) for r in run.references)] if t is not None]
        if cand_tags or others:
            line = f"Candidate with tags: {with_chips(candidate.lines[sentence], cand_tags)}"
            counts = {len(t) for t in others}
            if counts and counts != {len(cand_tags or ())}:
                line += " " + FLAG.format(f"{len(cand_tags or ())} tag(s), the source/reference has "
                                          f"{'/'.join(str(c) for c in sorted(counts))}")
            return [f'<span style="font-size:small">{line}</span>']
        return []
