"""File ▸ Open: the files to score and how to read them — every input option of ``bleu-score``, as fields.

The fields are named in words; :mod:`..window_words` says a field a message names as the field here that sets it,
so a message never sends a window user to a flag the window does not have.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...core import InputError
from ...core.inputs.format_table import FORMATS, ReadOptions
from ...core.inputs.run_inputs import InputRequest
from ...core.inputs.tables import ROLES, parse_columns
from ..state import OpenChoice
from ..widgets.style import styled
from ..window_words import FIELDS, in_window_words, raw

SNIFFED = "by extension and content"
ENCODINGS = ("auto", "utf-8", "utf-8-sig", "utf-16", "cp1252", "latin-1", "cp949", "euc-kr", "shift_jis", "euc-jp",
             "gb18030", "big5", "cp1251", "koi8-r")


def _split(text: str) -> list[str]:
    return [p.strip() for p in text.split(";") if p.strip()]


class OpenDialog(QDialog):
    """Choose system files (the first is the baseline), references (files, a folder, or one file holding systems
    and references: WMT XML, a TSV/JSONL with a system column — then leave the systems empty), and how to read
    them. Fields hold several names separated by ``;``."""

    def __init__(self, parent: QWidget | None = None, choice: OpenChoice | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Open system outputs and references")
        self.systems = self._line("one file, or several separated by ';' (the first is the baseline); empty when a "
                                  "WMT XML or TSV given as References holds the systems")
        self.references = self._line("files separated by ';', a folder, or one WMT XML / TSV / JSONL file")
        self.source = self._line("optional: a text file, or the source side of XLIFF/TMX/SGML/TSV "
                                 "(default: the source inside a structured input)")
        self.docs = self._line("optional: a text file with the document id of each segment, one per line")
        self.scores = self._line("optional: segment scores from outside (COMET, MQM): TSV, CSV or JSONL files "
                                 "separated by ';', with system, seg_id or segment, and a column per metric")
        self.lower_better = self._line("optional: imported metrics whose lower scores are better, e.g. MetricX")
        self.scores_partial = QCheckBox("read a scores file that lacks some systems or segments (those are missing)")
        self.encoding = QComboBox()
        self.encoding.setEditable(True)
        self.encoding.addItems(ENCODINGS)
        self.encoding.setToolTip("How the text files are decoded: auto detects one legacy encoding for all of them")
        self.format = QComboBox()
        self.format.addItems([SNIFFED, *FORMATS])
        self.source_lang, self.target_lang = self._line("source, e.g. en"), self._line("target, e.g. ja")
        self.refs_wanted = self._line("optional: translators or fields, e.g. A;B — or a system taken as the "
                                      "reference (an MQM table's ref)")
        self.systems_wanted = self._line("optional: system names separated by ';', in this order (default: all)")
        self.columns = self._line(f"TSV/JSONL: ROLE=NAME separated by ';' (roles: {', '.join(ROLES)})")
        self.keep_tags = QCheckBox("score XLIFF/TMX inline tags as tokens (default: taken out)")
        self.allow_identical = QCheckBox("score even when a reference equals a system line for line")
        self.labels = self._line("optional: display names separated by ';', one per system")
        self.where = self._line("optional: doc=abc-123, or an expression: ref_words >= 20 and bleu[B] > bleu[A] "
                                "(several, all holding: separated by ';')")
        layout = QVBoxLayout(self)
        layout.addWidget(self._group("Files", [
            (FIELDS["systems"], self._browsed(self.systems, ("Files…", self.on_browse_systems))),
            (FIELDS["references"], self._browsed(self.references, ("Files…", self.on_browse_references),
                                                 ("Folder…", self.on_browse_folder))),
            (FIELDS["source"], self._browsed(self.source, ("File…", self._file_into(self.source, "Source file")))),
            (FIELDS["docs"], self._browsed(self.docs, ("File…", self._file_into(self.docs, "Document ids")))),
            (FIELDS["scores"], self._browsed(self.scores, ("Files…", self.on_browse_scores)))]))
        languages = QWidget()
        row = QHBoxLayout(languages)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.source_lang)
        row.addWidget(QLabel("→"))
        row.addWidget(self.target_lang)
        languages.setToolTip("A TMX file's two languages to read; the target language also picks BLEU's tokenizer "
                             "as sacrebleu -l does (zh, ja-mecab, ko-mecab)")
        layout.addWidget(self._group("How to read them", [
            (FIELDS["encoding"], self.encoding), (FIELDS["input_format"], self.format), (FIELDS["langs"], languages),
            (FIELDS["refs_wanted"], self.refs_wanted), (FIELDS["systems_wanted"], self.systems_wanted),
            (FIELDS["columns"], self.columns), (FIELDS["keep_tags"], self.keep_tags),
            (FIELDS["allow_identical"], self.allow_identical), (FIELDS["lower_better"], self.lower_better),
            (FIELDS["scores_partial"], self.scores_partial)]))
        layout.addWidget(self._group("What to show", [(FIELDS["labels"], self.labels), (FIELDS["where"], self.where)]))
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        styled(self.problem, "warning")
        self.problem.hide()
        layout.addWidget(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.on_accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(860, 0)
        if choice is not None:
            self.set_choice(choice)

    # -- building -----------------------------------------------------------------------------------
    @staticmethod
    def _line(placeholder: str) -> QLineEdit:
        edit = QLineEdit()
        edit.setPlaceholderText(placeholder)
        edit.setToolTip(placeholder)
        return edit

    @staticmethod
    def _group(title: str, rows: list[tuple[str, QWidget]]) -> QGroupBox:
        box = QGroupBox(title)
        form = QFormLayout(box)
        for label, widget in rows:
            form.addRow(label, widget)
        return box

    @staticmethod
    def _browsed(edit: QLineEdit, *buttons: tuple[str, Callable[[], None]]) -> QWidget:
        holder = QWidget()
        row = QHBoxLayout(holder)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(edit, 1)
        for text, slot in buttons:
            button = QPushButton(text)
            button.clicked.connect(lambda _checked=False, slot=slot: slot())
            row.addWidget(button)
        return holder

    def _file_into(self, edit: QLineEdit, title: str) -> Callable[[], None]:
        def browse() -> None:
            path, _ = QFileDialog.getOpenFileName(self, title)
            if path:
                edit.setText(path)
        return browse

    def on_browse_systems(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "System output files (baseline first)")
        if paths:
            self.systems.setText(";".join(paths))

    def on_browse_references(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Reference files")
        if paths:
            self.references.setText(";".join(paths))

    def on_browse_scores(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Segment scores", "",
                                                "Scores (*.tsv *.csv *.jsonl *.json *.txt);;All files (*)")
        if paths:
            self.scores.setText(";".join(_split(self.scores.text()) + paths))

    def on_browse_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Reference folder")
        if path:
            self.references.setText(path)

    # -- the choice -----------------------------------------------------------------------------------
    def set_choice(self, choice: OpenChoice) -> None:
        """Fill the fields from an earlier choice (the run shown)."""
        r, o = choice.request, choice.request.options
        self.systems.setText(";".join(r.systems))
        self.references.setText(";".join(r.references))
        self.source.setText(r.source or "")
        self.docs.setText(r.docs or "")
        self.encoding.setCurrentText(r.encoding)
        self.format.setCurrentText(o.input_format or SNIFFED)
        self.source_lang.setText(o.langs[0] if o.langs else "")
        self.target_lang.setText(o.langs[1] if o.langs else "")
        self.refs_wanted.setText(";".join(r.refs_wanted or ()))
        self.systems_wanted.setText(";".join(r.systems_wanted or ()))
        self.columns.setText(";".join(f"{role}={name}" for role, name in o.columns.items()))
        self.keep_tags.setChecked(o.keep_tags)
        self.allow_identical.setChecked(r.allow_identical)
        self.scores.setText(";".join(r.scores))
        self.lower_better.setText(";".join(r.lower_better))
        self.scores_partial.setChecked(r.scores_partial)
        self.labels.setText(";".join(choice.labels or ()))
        self.where.setText(";".join(choice.where))

    def choice(self) -> OpenChoice:
        """The fields as a choice; :class:`InputError` names the field that is wrong."""
        references = _split(self.references.text())
        if not references:
            raise InputError(f"{FIELDS['references']}: choose at least one reference file or folder (or one WMT XML "
                             "file with its systems)")
        langs = (self.source_lang.text().strip(), self.target_lang.text().strip())
        if bool(langs[0]) != bool(langs[1]):
            raise InputError(f"{FIELDS['langs']}: give both the source and the target language, or neither")
        columns = parse_columns(_split(self.columns.text()))
        fmt = self.format.currentText()
        options = ReadOptions(None if fmt == SNIFFED else fmt, self.keep_tags.isChecked(),
                              langs if langs[0] else None, columns)
        request = InputRequest(systems=tuple(_split(self.systems.text())), references=tuple(references),
                               encoding=self.encoding.currentText().strip() or "auto",
                               source=self.source.text().strip() or None, docs=self.docs.text().strip() or None,
                               options=options, refs_wanted=tuple(_split(self.refs_wanted.text())) or None,
                               systems_wanted=tuple(_split(self.systems_wanted.text())) or None,
                               allow_identical=self.allow_identical.isChecked(), scores=tuple(_split(self.scores.text())),
                               lower_better=tuple(_split(self.lower_better.text())),
                               scores_partial=self.scores_partial.isChecked())
        return OpenChoice(request, tuple(_split(self.labels.text())) or None, tuple(_split(self.where.text())))

    def on_accept(self) -> None:
        """Accept when the fields make a choice; else say what is wrong, beside them, and stay open."""
        try:
            self.choice()
        except InputError as exc:
            self.problem.setText(in_window_words(raw(exc)))
            self.problem.show()
            return
        self.accept()

    @classmethod
    def ask(cls, parent: QWidget, earlier: OpenChoice | None = None) -> OpenChoice | None:
        """Show the dialog (filled from ``earlier``); the choice when the user opens, else None."""
        dialog = cls(parent, earlier)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.choice()
