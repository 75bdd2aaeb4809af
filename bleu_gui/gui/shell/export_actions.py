"""File ▸ Export: the HTML report and the per-sentence table of the shown run, written in the worker;
and the two questions exports and names depend on (what the window shows, a system's new name).

Exports run side by side (one never cancels another) and each reports its own
outcome: ``exported(path)`` when written, ``failed(message)`` when not.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QInputDialog, QWidget

from ...core import Run
from ...core.output.exports import sentences_file, write_atomic
from ...core.output.rankings import Ranking, systems_table_file
from ...core.output.report import ReportView, build_report
from ..file_dialogs import ask_save
from ..jobs import JobController
from ..state import ViewState, WindowState

# What each export writes: (the format's name, its file name pattern). One table gives the File menu's words and the
# save dialog's choices, so the menu never offers less or more than the dialog.
REPORT_FORMATS = (("HTML", "*.html"),)
SENTENCE_FORMATS = (("CSV", "*.csv"), ("JSON", "*.json"), ("Excel", "*.xlsx"))
TABLE_FORMATS = (("LaTeX", "*.tex"), ("CSV", "*.csv"), ("JSON", "*.json"), ("Excel", "*.xlsx"))


def formats_said(formats: tuple[tuple[str, str], ...]) -> str:
    """The formats in words: ``CSV, JSON or Excel``."""
    names = [name for name, _ in formats]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def file_filter(formats: tuple[tuple[str, str], ...]) -> str:
    """The formats as a save dialog's filter: ``CSV (*.csv);;Excel workbook (*.xlsx)``."""
    return ";;".join(f"{'Excel workbook' if name == 'Excel' else name} ({pattern})" for name, pattern in formats)


class ExportActions(QObject):
    """Signals: ``exported(str)`` with the written path, ``failed(str)`` with a one-line message."""

    exported = Signal(str)
    failed = Signal(str)

    def __init__(self, parent: QWidget, state: WindowState):
        super().__init__(parent)
        self._parent, self.state = parent, state
        self.jobs = JobController(self, exclusive=False)

    def export_report(self, run: Run, path: str | Path, view: ReportView | None = None, top: int = 100) -> int:
        """Write the HTML report of ``run`` showing ``view`` (what the window shows); returns the job id."""
        protected = run.input_paths()
        return self.jobs.submit(lambda _progress: write_atomic(path, build_report(run, view, top=top), protected),
                                self._done, self._failed)

    def export_sentences(self, run: Run, path: str | Path, b: int = 1) -> int:
        """Write per-sentence statistics as CSV, JSON or Excel (by extension); returns the job id."""
        protected = run.input_paths()
        return self.jobs.submit(lambda _progress: write_atomic(path, sentences_file(run, path, b), protected),
                                self._done, self._failed)

    def export_systems_table(self, run: Run, path: str | Path, ranking: Ranking, metric: int = 0) -> int:
        """Write the systems table of ``metric`` as LaTeX, CSV, JSON or Excel (by extension); returns the job id."""
        protected = run.input_paths()
        return self.jobs.submit(
            lambda _progress: write_atomic(path, systems_table_file(run, path, ranking, metric), protected),
            self._done, self._failed)

    def ask_systems_table(self, run: Run | None, ranking: Ranking, metric: int = 0) -> None:
        if run is None:
            return
        path = ask_save(self._parent, self.state, "table", "Export systems table", "systems.tex",
                        file_filter(TABLE_FORMATS))
        if path:
            self.export_systems_table(run, path, ranking, metric)

    def ask_report(self, run: Run | None, view: ReportView) -> None:
        if run is None:
            return
        path = ask_save(self._parent, self.state, "report", "Export report", "report.html", file_filter(REPORT_FORMATS))
        if path:
            self.export_report(run, path, view)

    def ask_sentences(self, run: Run | None, b: int = 1) -> None:
        if run is None:
            return
        path = ask_save(self._parent, self.state, "sentences", "Export sentences", "sentences.csv",
                        file_filter(SENTENCE_FORMATS))
        if path:
            self.export_sentences(run, path, b)

    def shutdown(self) -> None:
        self.jobs.shutdown()

    @Slot(object)
    def _done(self, path: Path) -> None:
        self.exported.emit(str(path))

    def _failed(self, message: str, _details: str) -> None:
        self.failed.emit(message)


def shown_view(run: Run | None, state: ViewState, listed: tuple[tuple[int, ...] | None, str]) -> ReportView:
    """What the window shows, as a report's view: B against the baseline, the n-gram order, the metric and the
    sentences the Inspect list shows (``listed``: those sentences and why, or None)."""
    sentences, selection = listed
    pairs = (state.b,) if run is not None and run.comparison is not None else ()
    return ReportView(pairs, state.order, sentences, selection, state.ranking, state.metric)


def ask_new_name(parent: QWidget, run: Run, system: int) -> list[str] | None:
    """Ask for a system's new display name; the names of all systems, or None when the user cancels."""
    names = [s.name for s in run.systems]
    name, ok = QInputDialog.getText(parent, "Rename system", f"Display name of {run.systems[system].file.path}:",
                                    text=names[system])
    if not ok:
        return None
    names[system] = name
    return names
