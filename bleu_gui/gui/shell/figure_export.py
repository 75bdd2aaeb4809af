"""File ▸ Export figure: the view shown (Compare, else Inspect) as one figure, with its title and signature."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QTabWidget, QWidget

from ...core.errors import ExportError
from ..compare.compare_view import CompareView
from ..controller import Controller
from ..inspect.inspect_view import InspectView
from ..widgets.figure_dialog import FigureDialog
from ..widgets.figures import FigureSize, write_figure
from ..window_words import raw


class FigureExport(QObject):
    """Figures of the tab shown in ``tabs`` (``compare``: the Compare view's widget, ``inspect``: Inspect's).
    Signals: ``exported(str)`` with the path written, ``failed(str)``."""

    exported = Signal(str)
    failed = Signal(str)

    def __init__(self, parent: QWidget, controller: Controller, tabs: QTabWidget, inspect: InspectView,
                 compare: CompareView):
        super().__init__(parent)
        self.parent_widget, self.controller, self.tabs = parent, controller, tabs
        self.inspect, self.compare = inspect, compare

    def _compare_shown(self) -> bool:
        """The Compare tab is the one shown (its page is a scroll area around the view)."""
        return self.compare.isVisibleTo(self.tabs)

    def figure_of_view(self) -> tuple[QWidget, str, str]:
        """The view a figure shows (Compare when it is the tab shown, else Inspect), its title and signature."""
        c = self.controller
        run = c.run
        assert run is not None
        metric = run.metrics[c.metric]
        if self._compare_shown():
            title = f"{metric.name}: {run.baseline.name} (A) vs {run.systems[c.b].name} (B), {len(run.systems)} systems"
            return self.compare, title, metric.signature()
        sentence = f", sentence {run.line_number(c.sentence)}" if c.sentence is not None else ""
        return self.inspect, f"{metric.name}: {run.systems[c.system].name}{sentence}", metric.signature()

    def export(self, path: str | Path, size: FigureSize) -> Path:
        """Write the shown view as one figure (PNG, SVG or PDF by extension); :class:`ExportError` says why not."""
        run = self.controller.run
        assert run is not None
        widget, title, signature = self.figure_of_view()
        view = self.compare if widget is self.compare else self.inspect
        written = write_figure(widget, path, size, title, signature, run.input_paths(), view.for_figure)
        self.exported.emit(str(written))
        return written

    def ask(self) -> None:
        """Ask where and how large (one dialog), then write the figure; a failure is a dialog."""
        if self.controller.run is None:
            return
        which = "Compare view" if self._compare_shown() else "Inspect view"
        state = self.controller.state
        chosen = FigureDialog.ask(self.parent_widget, f"figure of the {which}",
                                  state.start_path("figure", which.lower().replace(" ", "-") + ".png"),
                                  self.figure_of_view()[0])
        if chosen is None:
            return
        state.folder_used("figure", str(chosen[0]))
        try:
            self.export(*chosen)
        except ExportError as exc:
            self.failed.emit(raw(exc))
