"""File ▸ Export figure: the view shown (Compare, else Inspect) as one figure, with its title and signature."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from ...core.errors import ExportError
from ..widgets.figure_dialog import FigureDialog
from ..widgets.figures import FigureSize, write_figure

if TYPE_CHECKING:
    from .main_window import MainWindow

COMPARE_TAB = 1


def figure_of_view(window: MainWindow) -> tuple[QWidget, str, str]:
    """The view a figure shows (Compare when it is the tab shown, else Inspect), its title and signature."""
    c = window.controller
    run = c.run
    assert run is not None
    metric = run.metrics[c.metric]
    if window.tabs.currentIndex() == COMPARE_TAB:
        title = f"{metric.name}: {run.baseline.name} (A) vs {run.systems[c.b].name} (B), {len(run.systems)} systems"
        return window.compare_view, title, metric.signature()
    sentence = f", sentence {run.line_number(c.sentence)}" if c.sentence is not None else ""
    return window.inspect, f"{metric.name}: {run.systems[c.system].name}{sentence}", metric.signature()


def export_figure(window: MainWindow, path: str | Path, size: FigureSize) -> Path:
    """Write the shown view as one figure (PNG, SVG or PDF by extension); :class:`ExportError` says why not."""
    run = window.controller.run
    assert run is not None
    widget, title, signature = figure_of_view(window)
    written = write_figure(widget, path, size, title, signature, run.input_paths())
    window.on_exported(str(written))
    return written


def ask_export_figure(window: MainWindow) -> None:
    """Ask where and how large (one dialog), then write the figure; a failure is a dialog."""
    if window.controller.run is None:
        return
    which = "Compare view" if window.tabs.currentIndex() == COMPARE_TAB else "Inspect view"
    chosen = FigureDialog.ask(window, f"figure of the {which}", which.lower().replace(" ", "-") + ".png",
                              figure_of_view(window)[0])
    if chosen is None:
        return
    try:
        export_figure(window, *chosen)
    except ExportError as exc:
        window.show_error(str(exc))
