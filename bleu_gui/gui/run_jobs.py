"""The window's scoring jobs: open, add systems, re-score, change the baseline, slice — all in the worker.

A mixin of :class:`~bleu_gui.gui.main_window.MainWindow`. The window keeps the
whole run (``self.whole``) beside the run it shows (``self.run``, which may be
a slice of it): every change of files or settings is made on the whole run and
the slice, if one is shown, is scored again from the result, so a slice never
outlives the numbers it was cut from. Every job starts from the settings the
panel holds now: a job that replaces a re-score still in the worker (a slice
asked for right after a change of settings) scores with the new settings too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from ..core import Run, score_run
from ..core.analysis.slices import sliced
from ..core.inputs.run_inputs import read_more_systems, read_run_inputs
from ..core.metrics.bleu_evaluator import scaled_progress
from ..core.output.sessions import Session
from ..core.run import check_labels, rescored, with_baseline, with_systems
from ..core.runtime import out_of_gc_passes
from ..demo import demo_paths


def prepared(run: Run) -> Run:
    """Compute in the worker what the window would otherwise compute on the GUI thread."""
    _ = run.documents, run.tag_mismatches, [s.orders for s in run.systems]
    out_of_gc_passes(run.n_sentences * (len(run.systems) + len(run.references)))
    return run


class RunJobs:
    """Scoring jobs of the window (see the module)."""

    run: Run | None
    whole: Run | None

    def _whole_now(self) -> Callable[[Callable[[float], None]], Run]:
        """The whole run under the settings the panel holds (scored again in the worker when they differ)."""
        whole, cfg = self.whole, self.settings_panel.config()  # type: ignore[attr-defined]
        assert whole is not None

        def make(progress):
            return whole if whole.config == cfg else rescored(whole, cfg, progress)

        return make

    def _reslice(self, make: Callable[[Run, Callable[[float], None]], Run]
                 ) -> Callable[[Callable[[float], None]], tuple[Run, Run]]:
        """``make`` on the whole run (under the panel's settings), followed by the shown slice again when one is
        shown: the job gives (the new whole run, the run to show)."""
        shown = self.run.slice if self.run is not None else None
        base = self._whole_now()

        def work(progress):
            span = 0.7 if shown else 1.0
            whole = prepared(make(base(scaled_progress(progress, 0.0, span / 2)),
                                  scaled_progress(progress, span / 2, span / 2)))
            if shown is None:
                return whole, whole
            part = sliced(whole, list(shown.rows), shown.description, progress=scaled_progress(progress, 0.7, 0.3))
            return whole, prepared(part)

        return work

    def _show_resliced(self, result: tuple[Run, Run], switch_to_compare: bool = False) -> None:
        self.whole = result[0]  # the slice shown is cut from this run; "Whole corpus" returns to it
        self.show_run(result[1], switch_to_compare=switch_to_compare)  # type: ignore[attr-defined]

    def open_files(self, systems: Sequence[str | Path], references: Sequence[str | Path],
                   labels: Sequence[str] | None = None, b: int = 1, source: str | Path | None = None,
                   systems_wanted: Sequence[str] | None = None, refs_wanted: Sequence[str] | None = None) -> int:
        """Read and score system outputs (the first is the baseline) against references, in the worker;
        ``systems`` may be empty when a reference file holds systems (WMT XML, a TSV with a system column);
        ``labels``: display names; ``source``: a source file. Errors come back as a dialog; the shown run stays.
        """
        paths, refs = [str(p) for p in systems], [str(r) for r in references]
        cfg, encoding = self.settings_panel.config(), self.encoding  # type: ignore[attr-defined]

        def work(progress):
            inputs = read_run_inputs(paths, refs, encoding, source=source, systems_wanted=systems_wanted,
                                     refs_wanted=refs_wanted, progress=scaled_progress(progress, 0, 0.05))
            names = check_labels(labels, len(inputs.systems)) if labels else None
            out_of_gc_passes(len(inputs.references[0].lines) * (len(inputs.systems) + len(inputs.references)))
            return prepared(score_run(inputs.systems, inputs.references, cfg, names=names, context=inputs.context,
                                      progress=scaled_progress(progress, 0.05, 0.95)))

        def done(run: Run) -> None:
            self.inspect.editor.forget()  # type: ignore[attr-defined]  # files opened afresh: no edits carried over
            self.compare_view.b = b  # type: ignore[attr-defined]
            self.show_run(run)  # type: ignore[attr-defined]

        return self.jobs.submit(work, done)  # type: ignore[attr-defined]

    def open_session(self, session: Session | None) -> int | None:
        """Open a saved run as it was: its files, labels, B, encoding and settings."""
        if session is None:
            return None
        self.encoding = session.encoding
        self.settings_panel.set_config(session.config)  # type: ignore[attr-defined]
        self.settings_origin = "from the session"
        systems, refs, systems_wanted, refs_wanted = session.opening()
        return self.open_files(systems, refs, session.labels, session.b, session.source, systems_wanted, refs_wanted)

    def open_demo(self, language: str = "en") -> int:
        systems, references = demo_paths(language)
        return self.open_files(systems, references)

    def add_systems(self, paths: Sequence[str | Path]) -> int | None:
        """Compare more system outputs with the shown run's baseline, in the worker."""
        if self.whole is None:
            self.show_error("Open a system output and its references first; added systems are "  # type: ignore
                            "compared with it.")
            return None
        whole, new = self.whole, [str(p) for p in paths]  # whole: the files read (its settings may be old)

        def make(base, progress):
            extra = read_more_systems(new, [s.file for s in whole.systems], whole.references)
            return with_systems(base, extra, progress)

        return self.jobs.submit(self._reslice(make),  # type: ignore[attr-defined]
                                lambda result: self._show_resliced(result, switch_to_compare=True))

    def rescore(self) -> int | None:
        """Score the shown files again with the panel's settings, in the worker."""
        if self.whole is None:
            return None
        return self.jobs.submit(self._reslice(lambda base, _p: base),  # type: ignore[attr-defined]
                                self._show_resliced)

    def compare_pair(self, a: int, b: int) -> int | None:
        """Compare system ``a`` (made the baseline, in the worker, unless it is) with ``b`` (-1: keep B)."""
        if self.whole is None or a == 0:
            self.compare_view.set_b(b)  # type: ignore[attr-defined]
            return None
        new_b = b + 1 if 0 <= b < a else b  # where b lands once a moves to the front
        return self.jobs.submit(self._reslice(lambda base, p: with_baseline(base, a, p)),  # type: ignore[attr-defined]
                                lambda result: (self._show_resliced(result),
                                                self.compare_view.set_b(new_b)))  # type: ignore[attr-defined]

    def apply_slice(self, rows: Sequence[int], description: str) -> int | None:
        """Show the whole run's segments ``rows`` as a corpus of their own (scored and tested in the worker)."""
        if self.whole is None:
            return None
        keep, base, current = list(rows), self._whole_now(), self.whole

        def work(progress):
            whole = base(scaled_progress(progress, 0.0, 0.5))
            whole = prepared(whole) if whole is not current else whole
            return whole, prepared(sliced(whole, keep, description, progress=scaled_progress(progress, 0.5, 0.5)))

        return self.jobs.submit(work, self._show_resliced)  # type: ignore[attr-defined]

    def clear_slice(self) -> None:
        """Show the whole corpus again (already scored: nothing runs, unless the settings changed meanwhile)."""
        if self.whole is None or self.run is self.whole:
            return
        if self.whole.config != self.settings_panel.config():  # type: ignore[attr-defined]
            self.jobs.submit(lambda p: prepared(self._whole_now()(p)), self.show_run)  # type: ignore[attr-defined]
            return
        self.show_run(self.whole)  # type: ignore[attr-defined]
