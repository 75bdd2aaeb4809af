"""The Inspect and Compare views on one controller, without the window: what view tests drive.

A run is scored here, in the test's thread, and handed to the controller as the window's worker would hand it;
menus, jobs, dialogs and settings stay out (their tests drive the window)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtWidgets import QTabWidget

from bleu_gui.core import Run, RunConfig, score_run
from bleu_gui.core.inputs.text_files import read_segments
from bleu_gui.demo import demo_paths
from bleu_gui.gui.compare.compare_view import CompareView
from bleu_gui.gui.controller import Controller
from bleu_gui.gui.inspect.inspect_view import InspectView
from bleu_gui.gui.prepared import prepare
from bleu_gui.gui.shell.metric_chooser import MetricChooser
from bleu_gui.gui.state import Scoring


class Views(QTabWidget):
    """Inspect and Compare as tabs, the metric chooser in the corner, all following :attr:`controller`."""

    def __init__(self) -> None:
        super().__init__()
        self.controller = Controller(Scoring(RunConfig().metrics, "chosen for the test"), self)
        self.inspect = InspectView(self.controller)
        self.compare_view = CompareView(self.controller)
        self.metric_chooser = MetricChooser(self.controller)
        self.addTab(self.inspect, "Inspect")
        self.addTab(self.compare_view, "Compare")
        self.setCornerWidget(self.metric_chooser)
        self.resize(1300, 800)

    def show_run(self, qtbot, systems: Sequence[str | Path], refs: Sequence[str | Path],
                 config: RunConfig = RunConfig()) -> Run:
        """Score ``systems`` against ``refs`` and show the run; returns once its opening sentence is shown."""
        return self.show_scored(qtbot, score_run([read_segments(p) for p in systems], [read_segments(p) for p in refs], config))

    def show_scored(self, qtbot, run: Run) -> Run:
        """Show ``run`` as the window's worker hands it over; returns once its opening sentence is shown."""
        self.controller.show(prepare(run))
        qtbot.waitUntil(lambda: self.controller.sentence is not None)
        return run

    def show_demo(self, qtbot, systems: int = 2, config: RunConfig = RunConfig()) -> Run:
        """The bundled English demo: its first ``systems`` systems and both references."""
        paths, refs = demo_paths()
        return self.show_run(qtbot, paths[:systems], refs, config)
