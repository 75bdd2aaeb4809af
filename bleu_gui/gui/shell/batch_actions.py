"""File ▸ Export/Import LLM batch and COMET batch: the work the run's caches still lack written for an engine
elsewhere — the LLM judge's requests as an OpenAI batch (vLLM's batch runner, OpenAI's or Azure's Batch API, Ray Data
LLM), COMET's items as shards for a Slurm array of unbabel-comet's ``comet-score`` — and the engine's outputs read
back by key into the same caches (:mod:`...core.metrics.llm.batch`, :mod:`...core.metrics.comet.batch`), each in the
worker and said with its counts. The metric is the run's, or — where the run was scored without it — the one the
dock's settings name, ticked or not. After an import a run scored with the metric is scored again, reading the
answers from its cache."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from ...core import Run, SegmentFile
from ...core.metrics.base import Metric
from ...core.metrics.comet.batch import import_comet_batch_into
from ...core.metrics.comet.cache import cache_path as comet_cache_path
from ...core.metrics.family import MetricConfig
from ...core.metrics.llm.batch import import_batch_into
from ...core.metrics.llm.cache import cache_path
from ...core.metrics.registry import bind
from ...core.output import comet_batch, llm_batch
from ..controller import Controller
from ..file_dialogs import ask_folder, ask_open_many
from ..jobs import JobController
from .file_menu import FileMenu


def _index(run: Run, key: str) -> int | None:
    """Where the run's metric ``key`` is, if the run has it."""
    return next((k for k, m in enumerate(run.metrics) if m.key == key), None)


def metric_of(run: Run, key: str, settings: MetricConfig) -> Metric:
    """The run's metric ``key``, or — where the run was scored without it (not ticked, or its texts not sent) — the
    metric as the settings name it, bound to the run's files and languages (nothing is asked by binding it)."""
    k = _index(run, key)
    if k is not None:
        return run.metrics[k]
    config, _note = settings.for_target_language(run.context.languages, run.context.languages_from)
    source = run.context.source.lines if run.context.source is not None else None
    return bind(config.validated(), [r.lines for r in run.references], None, None, source)


class BatchActions(QObject):
    """Signals: ``said(text)`` what was written or imported (one line a kind), ``failed(message)``."""

    said = Signal(str)
    failed = Signal(str)

    def __init__(self, parent: QWidget, controller: Controller, settings: Callable[[str], MetricConfig],
                 score_again: Callable[[], object], menu: FileMenu):
        """``settings(key)``: the metric ``key``'s settings as the dock shows them, ticked or not."""
        super().__init__(parent)
        self._parent, self.controller, self._score_again = parent, controller, score_again
        self._settings = settings
        self.jobs = JobController(self, exclusive=False)
        menu.export_llm_batch.triggered.connect(lambda _checked=False: self._asked(self.ask_export))
        menu.import_llm_batch.triggered.connect(lambda _checked=False: self._asked(self.ask_import))
        menu.export_comet_batch.triggered.connect(lambda _checked=False: self._asked(self.ask_export_comet))
        menu.import_comet_batch.triggered.connect(lambda _checked=False: self._asked(self.ask_import_comet))

    def _asked(self, ask: Callable[[Run], object]) -> None:
        run = self.controller.whole_run  # the run the menu acts on: its id is carried into the job
        if run is not None:
            ask(run)

    def _cache_of(self, run: Run, key: str) -> str:
        """The cache file named by the run's metric ``key`` (or the dock's settings where the run has none)."""
        k = _index(run, key)
        return str(getattr(run.config.metrics[k] if k is not None else self._settings(key), "cache", ""))

    def _hand_off(self, run: Run, key: str, folder: str | Path,
                  write: Callable[[str | Path, Metric, list[SegmentFile]], str]) -> int:
        """Write what the metric ``key`` lacks for ``run``'s systems into ``folder``, in the worker."""
        settings, files = self._settings(key), [s.file for s in run.systems]
        return self._submit(lambda _progress: write(folder, metric_of(run, key, settings), files), self.said.emit)

    def _import(self, run: Run, key: str, work: Callable[[], list[str]]) -> int:
        """Import a batch's answers in the worker (``work``), say them, and score ``run`` again where it is still
        shown and has the metric: it reads the answers from its cache, and asks only for what is still missing."""
        def done(lines: list[str]) -> None:
            self.said.emit(" · ".join(lines))
            if _index(run, key) is not None and self.controller.whole_run is run:
                self._score_again()
        return self._submit(lambda _progress: work(), done)

    def _submit(self, work: Callable[[object], object], done: Callable[..., None]) -> int:
        return self.jobs.submit(work, done, lambda message, _details: self.failed.emit(message))

    # -- the LLM judge

    def ask_export(self, run: Run) -> None:
        folder = ask_folder(self._parent, self.controller.state, "llm-batch", "A new or empty folder for the batch")
        if folder:
            self.export(run, folder)

    def export(self, run: Run, folder: str | Path) -> int:
        """Write the requests the judge lacks for ``run``'s systems into ``folder``; returns the job id."""
        return self._hand_off(run, "llm", folder, llm_batch.hand_off_missing)

    def ask_import(self, run: Run) -> None:
        files = ask_open_many(self._parent, self.controller.state, "llm-batch", "The batch's output files",
                              "JSON Lines (*.jsonl);;All files (*)")
        if files:
            self.import_outputs(run, files)

    def import_outputs(self, run: Run, files: list[str]) -> int:
        """Import the output ``files`` into the judge's cache, then score again; returns the job id."""
        cache = cache_path(self._cache_of(run, "llm"))
        return self._import(run, "llm", lambda: import_batch_into(cache, files))

    # -- COMET

    def ask_export_comet(self, run: Run) -> None:
        folder = ask_folder(self._parent, self.controller.state, "comet-batch",
                            "A new or empty folder for COMET's shards")
        if folder:
            self.export_comet(run, folder)

    def export_comet(self, run: Run, folder: str | Path) -> int:
        """Write the COMET items the cache lacks for ``run``'s systems into ``folder``; returns the job id."""
        return self._hand_off(run, "comet", folder, comet_batch.hand_off_missing)

    def ask_import_comet(self, run: Run) -> None:
        folder = ask_folder(self._parent, self.controller.state, "comet-batch",
                            "The COMET batch's folder (its manifest.json and shards)")
        if folder:
            self.import_comet(run, folder)

    def import_comet(self, run: Run, folder: str | Path) -> int:
        """Import the batch's scored shards in ``folder`` into COMET's cache, then score again; returns the job id."""
        cache = comet_cache_path(self._cache_of(run, "comet"))
        return self._import(run, "comet", lambda: import_comet_batch_into(cache, folder))
