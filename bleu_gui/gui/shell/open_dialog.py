"""File ▸ Open: the files to score and how to read them — every input option of ``bleu-score``, as fields.

The fields are named in words; :mod:`..window_words` says a field a message names as the field here that sets it,
so a message never sends a window user to a flag the window does not have. The dialog stays open while the files
are read: a file that cannot be used is said in it, its field marked, and everything typed kept.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ...core import InputError
from ...core.errors import fields_of
from ...core.inputs.columns import ROLES, parse_columns
from ...core.inputs.format_table import FORMATS, ReadOptions, whole_run
from ...core.inputs.run_inputs import InputRequest
from ..file_dialogs import ask_folder, ask_open, ask_open_many
from ..state import OpenChoice, WindowState
from ..widgets.style import MARKED, styled
from ..window_words import FIELDS, in_window_words, raw

SNIFFED = "by extension and content"
ENCODINGS = ("auto", "utf-8", "utf-8-sig", "utf-16", "cp1252", "latin-1", "cp949", "euc-kr", "shift_jis", "euc-jp",
             "gb18030", "big5", "cp1251", "koi8-r")


def _split(text: str) -> list[str]:
    return [p.strip() for p in text.split(";") if p.strip()]


# The fields that belong to one test set: filled from the run shown, they are cleared when new system outputs are
# chosen (another test set starts from its own files); how to read files (encoding, format) stays.
OF_THE_TEST_SET = ("references", "source", "docs", "scores", "annotations", "lower_better", "langs", "refs_wanted",
                   "systems_wanted", "columns", "sheet", "labels", "where")
PROBLEM_LINES = 6  # a longer message scrolls in its box: the fields above it never give up their room

HINT = ("System outputs: the first is the baseline; several files are separated by ';'. A WMT XML, TSV or JSONL "
        "file or a workbook (.xlsx, .ods) that holds the systems and the references can go in either field alone.")


class OpenDialog(QDialog):
    """Choose system files (the first is the baseline), references (files, a folder, or one file holding systems
    and references: WMT XML, a TSV/JSONL with a system column), and how to read them. Fields hold several names
    separated by ``;``.

    Signal: ``chosen(OpenChoice)`` when Open is pressed on fields that make a choice; the dialog then waits
    (:meth:`set_busy`) until the caller closes it on success or says the problem (:meth:`show_problem`).
    """

    chosen = Signal(object)

    def __init__(self, parent: QWidget | None = None, choice: OpenChoice | None = None,
                 state: WindowState | None = None) -> None:
        super().__init__(parent)
        self.state = state  # where its file dialogs start (the folder last used for inputs)
        self.setWindowTitle("Open system outputs and references")
        self.systems = self._line("one file, or several separated by ';' (the first is the baseline); empty when a "
                                  "WMT XML, TSV or workbook given as References holds the systems")
        self.references = self._line("files separated by ';', a folder, or one WMT XML / TSV / JSONL file or workbook")
        self.source = self._line("optional: a text file, or the source side of XLIFF/TMX/SGML/TSV "
                                 "(default: the source inside a structured input)")
        self.docs = self._line("optional: the document id of each segment, one per line (or domain<TAB>document, as WMT)")
        self.scores = self._line("optional: segment scores from outside (COMET, MQM): TSV, CSV or JSONL files "
                                 "separated by ';', with system, seg_id or segment, and a column per metric")
        self.annotations = self._line("optional: human error annotations (MQM) for these systems: Google's or "
                                      "Marot's TSV, or JSONL spans, separated by ';' (an MQM table opened as input "
                                      "carries its own)")
        self.lower_better = self._line("optional: imported metrics whose lower scores are better, e.g. MetricX")
        self.scores_partial = QCheckBox("read a scores or annotations file that lacks some systems or segments "
                                        "(those are missing)")
        self.encoding = QComboBox()
        self.encoding.setEditable(True)
        self.encoding.addItems(ENCODINGS)
        self.encoding.setToolTip("How the text files are decoded: auto detects one legacy encoding for all of them")
        self.format = QComboBox()
        self.format.addItems([SNIFFED, *FORMATS])
        self.source_lang, self.target_lang = self._line("source, e.g. en"), self._line("target, e.g. ja")
        self.refs_wanted = self._line("optional: translators or fields, e.g. A;B — or a system taken as the "
                                      "reference (an MQM table's ref), or a workbook's column (its other text "
                                      "columns are then the systems)")
        self.systems_wanted = self._line("optional: system names separated by ';', in this order (default: all)")
        self.columns = self._line(f"TSV/JSONL/workbooks: ROLE=NAME separated by ';' (roles: {', '.join(ROLES)}), "
                                  "e.g. candidate=DeepL,Google")
        self.sheet = self._line("workbooks (.xlsx, .ods, .xls): the sheet to read (default: the first)")
        self.keep_tags = QCheckBox("score XLIFF/TMX inline tags as tokens (default: taken out)")
        self.allow_identical = QCheckBox("score even when a reference equals a system line for line")
        self.labels = self._line("optional: display names separated by ';', one per system")
        self.where = self._line("optional: doc=abc-123, or an expression: ref_words >= 20 and bleu[B] > bleu[A] "
                                "(several, all holding: separated by ';')")
        self.languages = QWidget()
        row = QHBoxLayout(self.languages)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.source_lang)
        row.addWidget(QLabel("→"))
        row.addWidget(self.target_lang)
        self.languages.setToolTip("A TMX file's two languages to read; the target language also picks BLEU's "
                                  "tokenizer as sacrebleu -l does (zh, ja-mecab, ko-mecab)")
        self.problem, self.problem_box = self._problem_area()
        self.cleared = styled(QLabel(), "hint")  # says which fields a new test set cleared
        self.cleared.setWordWrap(True)
        self.cleared.hide()
        self._carried: dict[str, str] = {}  # each test-set field as the run shown filled it
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.on_accept)
        self.buttons.rejected.connect(self.reject)
        self.by_field: dict[str, QWidget] = {
            "systems": self.systems, "references": self.references, "source": self.source, "docs": self.docs,
            "scores": self.scores, "encoding": self.encoding, "input_format": self.format, "langs": self.languages,
            "refs_wanted": self.refs_wanted, "systems_wanted": self.systems_wanted, "columns": self.columns, "sheet": self.sheet,
            "keep_tags": self.keep_tags, "allow_identical": self.allow_identical, "lower_better": self.lower_better,
            "scores_partial": self.scores_partial, "labels": self.labels, "where": self.where,
            "annotations": self.annotations}
        self._lay_out()
        self.resize(860, 0)
        if choice is not None:
            self.set_choice(choice)
        self.systems.editingFinished.connect(self._systems_chosen)

    def _lay_out(self) -> None:
        layout = QVBoxLayout(self)
        hint = styled(QLabel(HINT), "hint")  # stays in view when the fields are filled (a placeholder does not)
        hint.setWordWrap(True)
        layout.addWidget(hint)
        layout.addWidget(self._group("Files", [
            (FIELDS["systems"], self._browsed(self.systems, ("Files…", self.on_browse_systems))),
            (FIELDS["references"], self._browsed(self.references, ("Files…", self.on_browse_references),
                                                 ("Folder…", self.on_browse_folder))),
            (FIELDS["source"], self._browsed(self.source, ("File…", self._file_into(self.source, "Source file")))),
            (FIELDS["docs"], self._browsed(self.docs, ("File…", self._file_into(self.docs, "Document ids")))),
            (FIELDS["scores"], self._browsed(self.scores, ("Files…", self.on_browse_scores))),
            (FIELDS["annotations"], self._browsed(self.annotations, ("Files…", self.on_browse_annotations)))]))
        layout.addWidget(self._group("How to read them", [
            (FIELDS["encoding"], self.encoding), (FIELDS["input_format"], self.format),
            (FIELDS["langs"], self.languages),
            (FIELDS["refs_wanted"], self.refs_wanted), (FIELDS["systems_wanted"], self.systems_wanted),
            (FIELDS["columns"], self.columns), (FIELDS["sheet"], self.sheet), (FIELDS["keep_tags"], self.keep_tags),
            (FIELDS["allow_identical"], self.allow_identical), (FIELDS["lower_better"], self.lower_better),
            (FIELDS["scores_partial"], self.scores_partial)]))
        layout.addWidget(self._group("What to show", [(FIELDS["labels"], self.labels), (FIELDS["where"], self.where)]))
        layout.addWidget(self.cleared)
        layout.addWidget(self.problem_box)
        layout.addWidget(self.buttons)

    # -- building -----------------------------------------------------------------------------------
    def _problem_area(self) -> tuple[QLabel, QScrollArea]:
        """The label a problem is said in, inside a box of at most PROBLEM_LINES lines that scrolls."""
        problem = QLabel()
        problem.setWordWrap(True)
        problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        styled(problem, "warning")
        box = QScrollArea()
        box.setWidget(problem)
        box.setWidgetResizable(True)
        box.setFrameShape(QScrollArea.Shape.NoFrame)
        box.setMaximumHeight(self.fontMetrics().lineSpacing() * PROBLEM_LINES + 8)
        box.hide()
        return problem, box

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
            path = ask_open(self, self.state, "inputs", title)
            if path:
                edit.setText(path)
        return browse

    def on_browse_systems(self) -> None:
        paths = ask_open_many(self, self.state, "inputs", "System output files (baseline first)")
        if paths:
            self.systems.setText(";".join(paths))
            self._systems_chosen()

    def on_browse_references(self) -> None:
        paths = ask_open_many(self, self.state, "inputs", "Reference files")
        if paths:
            self.references.setText(";".join(paths))

    def on_browse_scores(self) -> None:
        paths = ask_open_many(self, self.state, "scores", "Segment scores",
                              "Scores (*.tsv *.csv *.jsonl *.json *.txt);;All files (*)")
        if paths:
            self.scores.setText(";".join(_split(self.scores.text()) + paths))

    def on_browse_annotations(self) -> None:
        paths = ask_open_many(self, self.state, "scores", "Error annotations",
                              "Annotations (*.tsv *.jsonl *.json *.txt);;All files (*)")
        if paths:
            self.annotations.setText(";".join(_split(self.annotations.text()) + paths))

    def on_browse_folder(self) -> None:
        path = ask_folder(self, self.state, "inputs", "Reference folder")
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
        self.sheet.setText(o.sheet or "")
        self.keep_tags.setChecked(o.keep_tags)
        self.allow_identical.setChecked(r.allow_identical)
        self.scores.setText(";".join(r.scores))
        self.lower_better.setText(";".join(r.lower_better))
        self.scores_partial.setChecked(r.scores_partial)
        self.annotations.setText(";".join(r.annotations))
        self.labels.setText(";".join(choice.labels or ()))
        self.where.setText(";".join(choice.where))
        self._carried = {name: self._text_of(name) for name in ("systems", *OF_THE_TEST_SET)}

    def _text_of(self, name: str) -> str:
        if name == "langs":
            return f"{self.source_lang.text()}→{self.target_lang.text()}"
        widget = self.by_field[name]
        assert isinstance(widget, QLineEdit)
        return widget.text()

    def _clear(self, name: str) -> None:
        if name == "langs":
            self.source_lang.clear()
            self.target_lang.clear()
            return
        widget = self.by_field[name]
        assert isinstance(widget, QLineEdit)
        widget.clear()

    def _systems_chosen(self) -> None:
        """System outputs none of which the run shown had are another test set: the fields the run shown filled
        and still hold its values are cleared (what was typed since stays), and the dialog says which."""
        if not self._carried:
            return
        earlier = set(_split(self._carried["systems"]))
        if not _split(self.systems.text()) or earlier & set(_split(self.systems.text())):
            return
        cleared = [name for name in OF_THE_TEST_SET
                   if self._carried[name].strip("→") and self._text_of(name) == self._carried[name]]
        for name in cleared:
            self._clear(name)
        self._carried = {}
        if cleared:
            self.cleared.setText("New system outputs start a new test set: the previous run's "
                                 + ", ".join(FIELDS[name].lower() for name in cleared) + " were cleared.")
            self.cleared.show()

    def choice(self) -> OpenChoice:
        """The fields as a choice; :class:`InputError` names the field that is wrong."""
        systems, references = whole_run(_split(self.systems.text()), _split(self.references.text()))
        if not references and not systems:
            raise InputError(f"{FIELDS['references']}: choose at least one reference file or folder (or one WMT XML "
                             f"file with its systems); or, for a run without references, the system outputs and the "
                             f"{FIELDS['source'].lower()}")
        langs = (self.source_lang.text().strip(), self.target_lang.text().strip())
        if bool(langs[0]) != bool(langs[1]):
            raise InputError(f"{FIELDS['langs']}: give both the source and the target language, or neither")
        columns = parse_columns(_split(self.columns.text()))
        fmt = self.format.currentText()
        options = ReadOptions(None if fmt == SNIFFED else fmt, self.keep_tags.isChecked(),
                              langs if langs[0] else None, columns, self.sheet.text().strip() or None)
        request = InputRequest(systems=tuple(systems), references=tuple(references),
                               encoding=self.encoding.currentText().strip() or "auto",
                               source=self.source.text().strip() or None, docs=self.docs.text().strip() or None,
                               options=options, refs_wanted=tuple(_split(self.refs_wanted.text())) or None,
                               systems_wanted=tuple(_split(self.systems_wanted.text())) or None,
                               allow_identical=self.allow_identical.isChecked(), scores=tuple(_split(self.scores.text())),
                               lower_better=tuple(_split(self.lower_better.text())),
                               scores_partial=self.scores_partial.isChecked(),
                               annotations=tuple(_split(self.annotations.text())))
        return OpenChoice(request, tuple(_split(self.labels.text())) or None, tuple(_split(self.where.text())))

    def on_accept(self) -> None:
        """Offer the choice the fields make (``chosen``) and wait; else say what is wrong, beside them."""
        try:
            choice = self.choice()
        except InputError as exc:
            self.show_problem(raw(exc))
            return
        self.set_busy(True)
        self.chosen.emit(choice)

    def set_busy(self, busy: bool) -> None:
        """While the files are read: Open is disabled and the dialog says so (Cancel stops the reading)."""
        self._mark(None)
        self.buttons.button(QDialogButtonBox.StandardButton.Open).setEnabled(not busy)
        self.problem.setText("Reading the files…" if busy else "")
        self.problem_box.setVisible(busy)

    def show_problem(self, message: str) -> None:
        """Say why the files cannot be opened (a core message, its fields unworded) and mark the field it names,
        or the field holding the file it names; everything typed stays."""
        self.set_busy(False)
        self.problem.setText(in_window_words(message))
        self.problem.setToolTip(self.problem.text())
        self.problem_box.show()
        self._mark(self._field_of(message))

    def _field_of(self, message: str) -> QWidget | None:
        named = [f for f in fields_of(message) if f in self.by_field]
        if named:
            return self.by_field[named[0]]
        paths = {"systems": self.systems, "references": self.references, "source": self.source, "docs": self.docs,
                 "scores": self.scores, "annotations": self.annotations}
        for edit in paths.values():
            if any(message.startswith(p) or f"{p}:" in message for p in _split(edit.text())):
                return edit
        return None

    def _mark(self, widget: QWidget | None) -> None:
        for each in self.by_field.values():
            each.setStyleSheet("")
        if widget is not None:
            widget.setStyleSheet(MARKED)
            widget.setFocus()

    @property
    def marked(self) -> QWidget | None:
        """The field a problem marked (None: none)."""
        return next((w for w in self.by_field.values() if w.styleSheet()), None)
