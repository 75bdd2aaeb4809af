"""File ▸ Export LLM batch… and Import batch results…: the LLM judge's requests the run still lacks written as an
OpenAI batch for an engine elsewhere (vLLM's batch runner, OpenAI's or Azure's Batch API, Ray Data LLM), and the
engine's output read back by key into the judge's cache (:mod:`...core.metrics.llm.batch`), both in the worker, each
said with its counts; after an import the run is scored again, and reads the answers from the cache."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from ...core import Run
from ...core.metrics.base import Metric
from ...core.metrics.family import MetricConfig
from ...core.metrics.llm.batch import import_batch
from ...core.metrics.llm.cache import AnswerCache, cache_path
from ...core.metrics.registry import bind
from ...core.output.llm_batch import write_batch
from ..controller import Controller
from ..file_dialogs import ask_folder, ask_open_many
from ..jobs import JobController


def _judge(run: Run) -> int | None:
    """The run's LLM judge, if it has one."""
    return next((k for k, m in enumerate(run.metrics) if m.key == "llm"), None)


def judge_of(run: Run, settings: MetricConfig) -> Metric:
    """The run's LLM judge, or — where the run was scored without it (not ticked, or its texts not sent) — the judge
    as the settings name it, bound to the run's files and languages (nothing is asked by binding it)."""
    k = _judge(run)
    if k is not None:
        return run.metrics[k]
    config, _note = settings.for_target_language(run.context.languages, run.context.languages_from)
    source = run.context.source.lines if run.context.source is not None else None
    return bind(config.validated(), [r.lines for r in run.references], None, None, source)


class BatchActions(QObject):
    """Signals: ``said(text)`` what was written or imported (one line a kind), ``failed(message)``."""

    said = Signal(str)
    failed = Signal(str)

    def __init__(self, parent: QWidget, controller: Controller, settings: Callable[[], MetricConfig],
                 score_again: Callable[[], object]):
        """``settings()``: the LLM judge's settings as the dock shows them, ticked or not."""
        super().__init__(parent)
        self._parent, self.controller, self._score_again = parent, controller, score_again
        self._settings = settings
        self.jobs = JobController(self, exclusive=False)

    def ask_export(self) -> None:
        run = self.controller.whole_run
        if run is None:
            return
        folder = ask_folder(self._parent, self.controller.state, "llm-batch", "A new or empty folder for the batch")
        if folder:
            self.export(run, folder)

    def export(self, run: Run, folder: str | Path) -> int:
        """Write the requests the judge lacks for ``run``'s systems into ``folder``; returns the job id."""
        settings, files = self._settings(), [s.file for s in run.systems]

        def work(_progress: object) -> str:
            handed = judge_of(run, settings).requests_missing(files)
            if handed is None:
                return "LLM batch: nothing to hand off: the judge's cache answers every request of the run"
            return write_batch(folder, handed).said()

        return self.jobs.submit(work, self.said.emit, lambda message, _details: self.failed.emit(message))

    def ask_import(self) -> None:
        run = self.controller.whole_run
        if run is None:
            return
        files = ask_open_many(self._parent, self.controller.state, "llm-batch", "The batch's output files",
                              "JSON Lines (*.jsonl);;All files (*)")
        if files:
            self.import_outputs(run, files)

    def import_outputs(self, run: Run, files: list[str]) -> int:
        """Import the output ``files`` into the judge's cache, then score again; returns the job id."""
        k = _judge(run)
        cache = cache_path(getattr(run.config.metrics[k] if k is not None else self._settings(), "cache", ""))

        def work(_progress: object) -> list[str]:
            store = AnswerCache(cache)
            try:
                return import_batch(store, files).said()
            finally:
                store.close()

        def done(lines: list[str]) -> None:
            self.said.emit(" · ".join(lines))
            if k is not None:
                self._score_again()  # the judge reads the answers from its cache; what is still missing is asked

        return self.jobs.submit(work, done, lambda message, _details: self.failed.emit(message))
