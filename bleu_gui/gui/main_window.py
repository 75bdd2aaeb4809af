"""The inspection window: sentence list, side-by-side panes, charts, settings, scoring in a worker."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QDoubleSpinBox,
    QFileDialog,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..core import BleuConfig, formats, read_inputs
from ..core.errors import ExportError
from ..core.evaluate import scaled_progress
from . import colors
from .charts import BrevityChart, HistogramChart, PrecisionChart
from .compare_view import CompareView
from .comparison import Comparison, compare, read_system, score_and_compare
from .layout import STRETCH, hrow, legend
from .models import COL_BLEU, COL_INDEX, COL_RATIO, SentenceTableModel
from .panes import ALL_ORDERS, SentencePanes
from .session import Session
from .settings import Settings
from .settings_panel import SettingsPanel
from .worker import JobController

STYLE = """
QLabel#corpusScore { font-size: 26px; font-weight: 600; color: #1c7ed6; }
QLabel#verbose { font-family: monospace; color: #343a40; }
QLabel#signature { font-family: monospace; color: #868e96; }
QLabel#paneTitle { font-weight: 600; color: #495057; margin-top: 4px; }
QLabel#hint { color: #868e96; }
QLabel.legend { padding: 2px 6px; border-radius: 3px; }
"""


@dataclass(frozen=True)
class ExportDone:
    """Result of an export job: where the file was written."""

    path: Path


class OpenDialog(QDialog):
    """Choose a candidate file and one or more reference files, or a reference folder."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Open candidate and references")
        self.candidate = QLineEdit()
        self.references = QLineEdit()
        self.references.setPlaceholderText("files separated by ';', or a folder")
        browse_c = QPushButton("File…")
        browse_c.clicked.connect(self.on_browse_candidate)
        browse_r = QPushButton("Files…")
        browse_r.clicked.connect(self.on_browse_references)
        browse_f = QPushButton("Folder…")
        browse_f.clicked.connect(self.on_browse_folder)
        grid = QGridLayout(self)
        grid.addWidget(QLabel("Candidate (system output)"), 0, 0)
        grid.addWidget(self.candidate, 0, 1)
        grid.addWidget(browse_c, 0, 2)
        grid.addWidget(QLabel("References"), 1, 0)
        grid.addWidget(self.references, 1, 1)
        grid.addWidget(browse_r, 1, 2)
        grid.addWidget(browse_f, 1, 3)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        grid.addWidget(buttons, 2, 0, 1, 4)
        self.resize(720, 120)

    def on_browse_candidate(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Candidate file")
        if path:
            self.candidate.setText(path)

    def on_browse_references(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Reference files")
        if paths:
            self.references.setText(";".join(paths))

    def on_browse_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Reference folder")
        if path:
            self.references.setText(path)

    def selection(self) -> tuple[str, list[str]]:
        refs = [p.strip() for p in self.references.text().split(";") if p.strip()]
        return self.candidate.text().strip(), refs


class MainWindow(QMainWindow):
    """The main window.

    Signals: ``session_changed(Session)`` after a scoring job's result is shown,
    ``comparison_changed(Comparison)`` after a comparison is shown, ``error_shown(str)``.
    """

    session_changed = Signal(object)
    comparison_changed = Signal(object)
    exported = Signal(str)
    error_shown = Signal(str)

    def __init__(self, settings: Settings | None = None, encoding: str = "auto"):
        super().__init__()
        self.settings = settings or Settings()
        self.encoding = encoding
        self.session: Session | None = None
        self.comparison: Comparison | None = None
        self.current_sentence: int | None = None
        self.jobs = JobController(self)
        self.jobs.finished.connect(self.on_job_finished)
        self.jobs.failed.connect(self.on_job_failed)
        self.jobs.progress.connect(self.on_job_progress)
        self.jobs.started.connect(self.on_job_started)
        self.jobs.cancelled.connect(self.on_job_cancelled)
        # Exports run beside scoring: starting one never cancels the other.
        self.export_jobs = JobController(self)
        self.export_jobs.finished.connect(self.on_export_finished)
        self.export_jobs.failed.connect(self.show_error)
        self.setWindowTitle("bleu-gui")
        self.setAcceptDrops(True)
        self.setStyleSheet(STYLE)
        self._build_header()
        self._build_list()
        self._build_panes()
        self._build_charts()
        self._build_settings()
        self._build_status()
        self._build_menus()
        self._assemble()
        self._restore_window()

    # -- construction ------------------------------------------------------------------
    def _build_header(self) -> None:
        self.corpus_label = QLabel("No files open")
        self.corpus_label.setObjectName("corpusScore")
        self.verbose_label = QLabel("File ▸ Open… or drop a candidate and its references here.")
        self.verbose_label.setObjectName("verbose")
        self.verbose_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.signature_label = QLabel("")
        self.signature_label.setObjectName("signature")
        self.signature_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notes_label = QLabel("")
        self.notes_label.setObjectName("hint")
        self.copy_button = QPushButton("Copy score line")
        self.copy_button.setEnabled(False)
        self.copy_button.clicked.connect(self.on_copy_clicked)
        self.copy_signature_button = QPushButton("Copy signature")
        self.copy_signature_button.setEnabled(False)
        self.copy_signature_button.clicked.connect(self.on_copy_signature_clicked)

    def _build_list(self) -> None:
        self.model = SentenceTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(COL_INDEX, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        vh = self.table.verticalHeader()
        vh.setVisible(False)
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(self.fontMetrics().height() + 6)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        for col, width in ((COL_INDEX, 56), (COL_BLEU, 64), (COL_RATIO, 72)):
            self.table.setColumnWidth(col, width)
        self.table.selectionModel().currentRowChanged.connect(self.on_current_row_changed)
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter candidates (Ctrl+F)")
        self.filter_edit.setClearButtonEnabled(True)
        self.score_low = QDoubleSpinBox()
        self.score_high = QDoubleSpinBox()
        for box, value in ((self.score_low, 0.0), (self.score_high, 100.0)):
            box.setRange(0.0, 100.0)
            box.setDecimals(1)
            box.setValue(value)
            box.setKeyboardTracking(False)
        self.count_label = QLabel("")
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(200)
        self._filter_timer.timeout.connect(self.apply_filter)
        self.filter_edit.textChanged.connect(self._filter_timer.start)
        self.score_low.valueChanged.connect(self._filter_timer.start)
        self.score_high.valueChanged.connect(self._filter_timer.start)

    def _build_panes(self) -> None:
        self.panes = SentencePanes()
        self.order_combo = QComboBox()
        self.show_tokens = QCheckBox("show tokens")
        self.show_tokens.toggled.connect(self.panes.set_show_tokens)
        self.order_combo.currentIndexChanged.connect(self.on_order_changed)
        self.sentence_label = QLabel("")
        self.sentence_label.setObjectName("paneTitle")
        self.legend = QWidget()
        self.legend.setLayout(legend([
            ("matched", f"background:{colors.MATCHED_BG.name()}"),
            ("clipped", f"background:{colors.CLIPPED_BG.name()}; border-bottom: 2px dotted {colors.CLIPPED_LINE.name()}"),
            ("unmatched", f"background:{colors.UNMATCHED_BG.name()}"),
            ("selected n-gram in refs", f"background:{colors.SELECTED_BG.name()}")]))

    def _build_charts(self) -> None:
        self.precision_chart = PrecisionChart()
        self.bp_chart = BrevityChart()
        self.histogram = HistogramChart()
        self.histogram.bin_clicked.connect(self.on_histogram_bin_clicked)

    def _build_settings(self) -> None:
        self.settings_panel = SettingsPanel(self.settings.config())
        self.settings_panel.changed.connect(self.on_settings_changed)
        dock = QDockWidget("Scoring settings", self)
        dock.setObjectName("settingsDock")
        dock.setWidget(self.settings_panel)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        self.settings_dock = dock

    def _build_status(self) -> None:
        self.encoding_label = QLabel("")
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(220)
        self.progress.setVisible(False)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setVisible(False)
        self.cancel_button.clicked.connect(self.jobs.cancel)
        bar = self.statusBar()
        bar.addWidget(self.encoding_label, 1)
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel_button)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        open_action = QAction("&Open…", self, shortcut=QKeySequence.StandardKey.Open)
        open_action.triggered.connect(self.on_open_triggered)
        demo_action = QAction("Open &demo data", self)
        demo_action.triggered.connect(lambda: self.open_demo("en"))
        self.add_system_action = QAction("&Add system…", self)
        self.add_system_action.setEnabled(False)
        self.add_system_action.triggered.connect(self.on_add_system_triggered)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.export_report_action = QAction("Export &report (HTML)…", self)
        self.export_report_action.triggered.connect(self.on_export_report_triggered)
        self.export_sentences_action = QAction("Export &sentences (CSV or JSON)…", self)
        self.export_sentences_action.triggered.connect(self.on_export_sentences_triggered)
        for action in (self.export_report_action, self.export_sentences_action):
            action.setEnabled(False)
        quit_action = QAction("&Quit", self, shortcut=QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.insertAction(self.recent_menu.menuAction(), open_action)
        file_menu.insertAction(self.recent_menu.menuAction(), demo_action)
        file_menu.insertAction(self.recent_menu.menuAction(), self.add_system_action)
        file_menu.addSeparator()
        file_menu.addAction(self.export_report_action)
        file_menu.addAction(self.export_sentences_action)
        file_menu.addSeparator()
        file_menu.addAction(quit_action)
        self._refresh_recent_menu()
        QShortcut(QKeySequence.StandardKey.Find, self, activated=self.filter_edit.setFocus)
        # j/k only while the list has focus, so they can still be typed in the filter box.
        # Home/End go to the first/last sentence (QTableView alone moves between columns).
        for key, step in (("J", +1), ("K", -1), ("Home", -10**12), ("End", 10**12)):
            shortcut = QShortcut(QKeySequence(key), self.table, activated=lambda step=step: self.move_selection(step))
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)

    def _assemble(self) -> None:
        header = QWidget()
        h = QGridLayout(header)
        h.setContentsMargins(8, 6, 8, 2)
        h.addWidget(self.corpus_label, 0, 0, 2, 1)
        h.addWidget(self.verbose_label, 0, 1)
        h.addWidget(self.signature_label, 1, 1)
        h.addWidget(self.copy_button, 0, 2)
        h.addWidget(self.copy_signature_button, 1, 2)
        h.addWidget(self.notes_label, 2, 1)
        h.setColumnStretch(1, 1)

        list_panel = QWidget()
        lv = QVBoxLayout(list_panel)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.filter_edit)
        lv.addLayout(hrow("BLEU from", self.score_low, "to", self.score_high, STRETCH, self.count_label))
        lv.addWidget(self.table, 1)

        panes_panel = QWidget()
        pv = QVBoxLayout(panes_panel)
        pv.setContentsMargins(0, 0, 0, 0)
        pv.addLayout(hrow(self.sentence_label, STRETCH, "n-gram order", self.order_combo, self.show_tokens))
        pv.addWidget(self.legend)
        pv.addWidget(self.panes, 1)

        charts = QWidget()
        cv = QHBoxLayout(charts)
        cv.setContentsMargins(0, 0, 0, 0)
        cv.addWidget(self.precision_chart)
        cv.addWidget(self.bp_chart)
        cv.addWidget(self.histogram)

        self.right_split = QSplitter(Qt.Orientation.Vertical)
        self.right_split.addWidget(panes_panel)
        self.right_split.addWidget(charts)
        self.right_split.setStretchFactor(0, 3)
        self.right_split.setStretchFactor(1, 2)
        self.main_split = QSplitter(Qt.Orientation.Horizontal)
        self.main_split.addWidget(list_panel)
        self.main_split.addWidget(self.right_split)
        self.main_split.setStretchFactor(0, 2)
        self.main_split.setStretchFactor(1, 3)

        inspect = QWidget()
        cl = QVBoxLayout(inspect)
        cl.setContentsMargins(4, 0, 4, 0)
        cl.addWidget(header)
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        line.setFrameShadow(QFrame.Shadow.Sunken)
        cl.addWidget(line)
        cl.addWidget(self.main_split, 1)
        self.compare_view = CompareView()
        self.compare_view.sentence_selected.connect(self.on_compare_sentence_selected)
        self.tabs = QTabWidget()
        self.tabs.addTab(inspect, "Inspect")
        self.tabs.addTab(self.compare_view, "Compare")
        self.tabs.setTabEnabled(1, False)
        self.tabs.setTabToolTip(1, "File ▸ Add system… (or drop a second system file) to compare")
        self.setCentralWidget(self.tabs)

    def _restore_window(self) -> None:
        geometry = self.settings.geometry()
        if geometry is None or not self.restoreGeometry(geometry):
            self.resize(1400, 860)
        self.main_split.setSizes([520, 880])
        self.right_split.setSizes([400, 400])
        for name, splitter in (("main", self.main_split), ("right", self.right_split)):
            state = self.settings.splitter(name)
            if state is not None:
                splitter.restoreState(state)
        self._fill_order_combo(self.settings_panel.config().max_order)

    def _fill_order_combo(self, max_order: int) -> None:
        current = self.order_combo.currentData()
        self.order_combo.blockSignals(True)
        self.order_combo.clear()
        for n in range(1, max_order + 1):
            self.order_combo.addItem(f"{n}-grams", n)
        self.order_combo.addItem("all orders", ALL_ORDERS)
        index = self.order_combo.findData(current if current is not None else 1)
        self.order_combo.setCurrentIndex(max(index, 0))
        self.order_combo.blockSignals(False)
        self.panes.order = self.order_combo.currentData()

    # -- opening files ---------------------------------------------------------------------
    def open_files(self, candidate: str | Path, references: list[str | Path],
                   systems: list[str | Path] | None = None) -> int:
        """Read, score and show files in the worker; errors come back as a dialog, the old state stays.

        ``systems``: more system outputs to compare with ``candidate`` (the baseline).
        """
        cand, refs, cfg, encoding = str(candidate), [str(r) for r in references], self.settings_panel.config(), self.encoding
        others = [str(p) for p in systems or []]

        def work(progress):
            hyps, refs_read = read_inputs([cand, *others], refs, encoding, progress=scaled_progress(progress, 0, 0.05))
            return score_and_compare(hyps[0], refs_read, cfg, hyps[1:], scaled_progress(progress, 0.05, 0.95))

        self._pending_recent = (cand, refs)
        return self.jobs.submit(work)

    def open_demo(self, language: str = "en") -> int:
        from .app import demo_paths

        candidate, references = demo_paths(language)
        return self.open_files(candidate, references)

    def add_systems(self, paths: list[str | Path]) -> int | None:
        """Compare more system outputs with the open candidate (the baseline), in the worker."""
        if self.session is None:
            self.show_error("Open a candidate and its references first; added systems are compared with it.")
            return None
        session, encoding = self.session, self.encoding
        existing = [s.file for s in self.comparison.systems[1:]] if self.comparison else []
        new = [str(p) for p in paths]
        self._pending_recent = None

        def work(progress):
            extra = existing + [read_system(p, session, encoding) for p in new]
            return compare(session, extra, progress=progress)

        return self.jobs.submit(work)

    def rescore(self) -> int | None:
        """Score the open files again with the current settings (in the worker)."""
        if self.session is None:
            return None
        cand, refs, cfg = self.session.candidate, self.session.references, self.settings_panel.config()
        extra = [s.file for s in self.comparison.systems[1:]] if self.comparison else []
        self._pending_recent = None

        def work(progress):
            return score_and_compare(cand, refs, cfg, extra, progress)

        return self.jobs.submit(work)

    @Slot()
    def on_add_system_triggered(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Add system outputs to compare with the baseline")
        if paths:
            self.add_systems(paths)

    @Slot()
    def on_open_triggered(self) -> None:
        dialog = OpenDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            candidate, refs = dialog.selection()
            if candidate and refs:
                self.open_files(candidate, refs)
            else:
                self.show_error("Choose a candidate file and at least one reference file or folder.")

    def _refresh_recent_menu(self) -> None:
        self.recent_menu.clear()
        entries = self.settings.recent()
        for entry in entries:
            refs = entry["references"]
            label = f"{Path(entry['candidate']).name}  ⟵  {', '.join(Path(r).name for r in refs)}"
            action = self.recent_menu.addAction(label)
            action.setToolTip(entry["candidate"])
            action.triggered.connect(lambda _=False, e=entry: self.open_files(e["candidate"], e["references"]))
        self.recent_menu.setEnabled(bool(entries))

    # -- drag and drop ---------------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls() and all(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        event.acceptProposedAction()
        self.on_paths_dropped(paths)

    def on_paths_dropped(self, paths: list[str]) -> None:
        """First dropped file is the candidate, the rest (or a folder) the references.

        While a candidate is open, dropped files are added as systems to compare
        with it, unless one is a folder or has the name of an open reference file
        (then the drop starts afresh: candidate first, references after).
        """
        if not paths:
            return
        ref_names = {r.path.name for r in self.session.references} if self.session is not None else set()
        if self.session is not None and all(Path(p).is_file() and Path(p).name not in ref_names for p in paths):
            self.add_systems(paths)
        elif len(paths) >= 2:
            self.open_files(paths[0], paths[1:])
        else:
            self.show_error("Drop a candidate file together with its reference files (or a reference folder).")

    # -- worker results ------------------------------------------------------------------
    @Slot(int)
    def on_job_started(self, _job_id: int) -> None:
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.cancel_button.setVisible(True)
        self.statusBar().showMessage("Scoring…")

    @Slot(float)
    def on_job_progress(self, fraction: float) -> None:
        self.progress.setValue(int(1000 * fraction))

    def _job_ended(self) -> None:
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)

    @Slot(int)
    def on_job_cancelled(self, _job_id: int) -> None:
        if not self.jobs.busy:
            self._job_ended()
            self.statusBar().showMessage("Cancelled", 4000)

    @Slot(int, object)
    def on_job_finished(self, _job_id: int, result) -> None:
        self._job_ended()
        self.statusBar().clearMessage()
        if isinstance(result, Comparison):
            self._show_comparison(result, switch=True)
            return
        session, comparison = result if isinstance(result, tuple) else (result, None)
        keep = self.current_sentence if self.session is not None and session.candidate is self.session.candidate else None
        self.session = session
        if getattr(self, "_pending_recent", None):
            self.settings.add_recent(*self._pending_recent)
            self._refresh_recent_menu()
        self._show_session(keep)
        self.add_system_action.setEnabled(True)
        self.session_changed.emit(session)
        if comparison is not None:
            self._show_comparison(comparison, switch=self.comparison is None)
        elif self.comparison is not None and self.comparison.session.candidate is not session.candidate:
            self.comparison = None
            self.tabs.setTabEnabled(1, False)

    def _show_comparison(self, comparison: Comparison, switch: bool) -> None:
        self.comparison = comparison
        self.tabs.setTabEnabled(1, True)
        self.compare_view.set_comparison(comparison)
        if switch:
            self.tabs.setCurrentIndex(1)
        self.comparison_changed.emit(comparison)

    @Slot(int)
    def on_compare_sentence_selected(self, sentence: int) -> None:
        if self.current_sentence != sentence:
            self.select_sentence(sentence)

    @Slot(str, str)
    def on_job_failed(self, message: str, details: str) -> None:
        self._job_ended()
        self.show_error(message, details)

    def show_error(self, message: str, details: str = "") -> None:
        self.error_shown.emit(message)
        box = QMessageBox(QMessageBox.Icon.Warning, "bleu-gui", message, QMessageBox.StandardButton.Ok, self)
        if details:
            box.setDetailedText(details)
        box.setModal(True)
        box.open()
        self._error_box = box

    # -- showing a session -----------------------------------------------------------------
    def _show_session(self, keep_sentence: int | None) -> None:
        s = self.session
        corpus = s.corpus
        self.corpus_label.setText(f"BLEU {formats.score_only(corpus)}")
        precisions = "/".join(f"{p:.1f}" for p in corpus.precisions)
        self.verbose_label.setText(f"{precisions} (BP = {corpus.bp:.3f} ratio = {corpus.ratio:.3f} "
                                   f"hyp_len = {corpus.sys_len} ref_len = {corpus.ref_len})")
        self.signature_label.setText(f"{corpus.variant}: {corpus.signature}")
        self.notes_label.setText(" · ".join(corpus.notes))
        self.notes_label.setVisible(bool(corpus.notes))
        self.copy_button.setEnabled(True)
        self.copy_signature_button.setEnabled(True)
        self.export_report_action.setEnabled(True)
        self.export_sentences_action.setEnabled(True)
        self.encoding_label.setText(f"{s.candidate.name}: {s.n_sentences:,} sentences · "
                                    f"{len(s.references)} reference(s) · encoding {s.encodings}")
        self.setWindowTitle(f"bleu-gui — {s.candidate.name}")
        self.panes.set_reference_names([r.name for r in s.references])
        self._fill_order_combo(s.config.max_order)
        self.model.set_sentences(s.candidate.lines, s.sentences.score, s.stats[:, 0], s.stats[:, 1])
        self._update_count()
        self.histogram.update_values(s.sentences.score)
        self.current_sentence = None
        target = keep_sentence if keep_sentence is not None else 0
        self.select_sentence(target if self.model.row_of(target) is not None else self.model.sentence_at(0)
                             if self.model.rowCount() else 0)

    def select_sentence(self, sentence: int) -> None:
        row = self.model.row_of(sentence)
        if row is None:
            self.show_sentence(sentence)
            return
        index = self.model.index(row, 0)
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(index)
        if self.current_sentence != sentence:
            self.show_sentence(sentence)

    @Slot(QModelIndex, QModelIndex)
    def on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.show_sentence(self.model.sentence_at(current.row()))

    def show_sentence(self, sentence: int) -> None:
        s = self.session
        if s is None or not 0 <= sentence < s.n_sentences:
            return
        self.current_sentence = sentence
        details = s.details(sentence)
        score = s.sentences.score[sentence]
        shown = "n/a" if np.isnan(score) else f"{score:.2f}"
        self.sentence_label.setText(f"Sentence {sentence + 1} of {s.n_sentences:,} · sentence BLEU {shown}")
        self.panes.set_details(details, f"Candidate — {s.candidate.name}")
        N = s.config.max_order
        counts = s.stats[sentence, 2:2 + N]
        width = (s.stats.shape[1] - 2) // 2
        totals = s.stats[sentence, 2 + width:2 + width + N]
        self.precision_chart.update_values(counts, totals, s.corpus.precisions[:N])
        self.bp_chart.update_values((int(s.stats[sentence, 0]), int(s.stats[sentence, 1])),
                                    (s.corpus.sys_len, s.corpus.ref_len))

    # -- list navigation and filters ---------------------------------------------------------
    def move_selection(self, step: int) -> None:
        rows = self.model.rowCount()
        if not rows:
            return
        current = self.table.currentIndex().row()
        row = min(max((current if current >= 0 else 0) + step, 0), rows - 1)
        index = self.model.index(row, 0)
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)

    @Slot()
    def apply_filter(self) -> None:
        low, high = self.score_low.value(), self.score_high.value()
        self.model.set_filter(self.filter_edit.text(), low if low > 0 else None, high if high < 100 else None)
        self._update_count()
        if self.current_sentence is not None and self.model.row_of(self.current_sentence) is not None:
            self.select_sentence(self.current_sentence)
        elif self.model.rowCount():
            self.select_sentence(self.model.sentence_at(0))

    def _update_count(self) -> None:
        self.count_label.setText(f"{self.model.rowCount():,} of {self.model.total:,}")

    @Slot(float, float)
    def on_histogram_bin_clicked(self, low: float, high: float) -> None:
        self.score_low.blockSignals(True)
        self.score_high.blockSignals(True)
        self.score_low.setValue(low)
        self.score_high.setValue(high)
        self.score_low.blockSignals(False)
        self.score_high.blockSignals(False)
        self.apply_filter()

    @Slot(int)
    def on_order_changed(self, _index: int) -> None:
        order = self.order_combo.currentData()
        if order is not None:
            self.panes.set_order(order)

    @Slot(object)
    def on_settings_changed(self, cfg: BleuConfig) -> None:
        try:
            cfg.validated()
        except Exception as exc:  # noqa: BLE001 - shown to the user
            self.show_error(str(exc))
            return
        self.settings.set_config(cfg)
        self.rescore()

    @Slot()
    def on_copy_signature_clicked(self) -> None:
        if self.session is not None:
            QGuiApplication.clipboard().setText(self.session.corpus.signature)
            self.statusBar().showMessage("Signature copied", 3000)

    # -- exports --------------------------------------------------------------------------------
    def _report_inputs(self):
        from ..core.report import ReportSystem

        if self.comparison is not None:
            systems = [ReportSystem(s.name, s.file.lines, s.stats, s.sentences, s.corpus)
                       for s in self.comparison.systems]
            return systems, self.comparison.bootstrap, self.comparison.approximate, self.comparison.pairwise
        s = self.session
        return [ReportSystem(s.candidate.name, s.candidate.lines, s.stats, s.sentences, s.corpus)], None, None, []

    def _protected(self) -> list[Path]:
        files = [self.session.candidate, *self.session.references]
        if self.comparison is not None:
            files += [s.file for s in self.comparison.systems]
        return [f.path for f in files]

    def export_report(self, path: str | Path, top: int = 100) -> int | None:
        """Write the HTML report of what is open (in the worker); returns the job id."""
        if self.session is None:
            return None
        from ..core.exports import write_atomic
        from ..core.report import build_report

        systems, bootstrap, approximate, _ = self._report_inputs()
        evaluator, refs, protected = self.session.evaluator, [r.name for r in self.session.references], self._protected()

        def work(progress):
            html = build_report(evaluator, systems, refs, bootstrap, approximate, top=top)
            return ExportDone(write_atomic(path, html, protected))

        return self.export_jobs.submit(work)

    def export_sentences(self, path: str | Path) -> int | None:
        """Write per-sentence statistics as CSV or JSON (by extension), in the worker."""
        if self.session is None:
            return None
        from ..core.exports import sentence_rows, to_csv, to_json, write_atomic

        systems, _, _, pairwise = self._report_inputs()
        max_order, protected = self.session.config.max_order, self._protected()
        corpus = systems[0].corpus

        def work(progress):
            loo = pairwise[0].loo if pairwise else None
            header, rows = sentence_rows([s.name for s in systems], [s.stats for s in systems],
                                         [s.sentences.score for s in systems], max_order, loo)
            name = str(path).lower()
            if name.endswith(".json"):
                text = to_json(header, rows, {"signature": corpus.signature, "variant": corpus.variant})
            elif name.endswith(".csv"):
                text = to_csv(header, rows)
            else:
                raise ExportError(f"{path}: give a .csv or .json file name")
            return ExportDone(write_atomic(path, text, protected))

        return self.export_jobs.submit(work)

    @Slot()
    def on_export_report_triggered(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export report", "bleu-report.html", "HTML (*.html)")
        if path:
            self.export_report(path)

    @Slot()
    def on_export_sentences_triggered(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export sentences", "sentences.csv", "CSV (*.csv);;JSON (*.json)")
        if path:
            self.export_sentences(path)

    @Slot(int, object)
    def on_export_finished(self, _job_id: int, result) -> None:
        self.statusBar().showMessage(f"Saved {result.path}", 5000)
        self.exported.emit(str(result.path))

    @Slot()
    def on_copy_clicked(self) -> None:
        if self.session is not None:
            QGuiApplication.clipboard().setText(formats.text_line(self.session.corpus))
            self.statusBar().showMessage("Score line copied", 3000)

    # -- closing -------------------------------------------------------------------------------
    def closeEvent(self, event) -> None:
        self.jobs.shutdown()
        self.export_jobs.shutdown()
        self.settings.set_geometry(self.saveGeometry())
        self.settings.set_splitter("main", self.main_split.saveState())
        self.settings.set_splitter("right", self.right_split.saveState())
        self.settings.set_config(self.settings_panel.config())
        self.settings.sync()
        super().closeEvent(event)
