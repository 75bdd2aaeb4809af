"""The window's scoring jobs: open, add systems, re-score, change the baseline, slice — all in the worker.

A mixin of :class:`~bleu_gui.gui.main_window.MainWindow`. The window keeps the
whole run (``self.whole``) beside the run it shows (``self.run``, which may be
a slice of it): every change of files or settings is made on the whole run and
the slice, if one is shown, is scored again from the result, so a slice never
outlives the numbers it was cut from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from ..core import Run, score_run
from ..core.evaluate import scaled_progress
from ..core.inputs import read_more_systems, read_run_inputs
from ..core.run import check_labels, rescored, with_baseline, with_systems
from ..core.sessions import Session
from ..core.slices import sliced
from ..demo import demo_paths
from .jobs import out_of_gc_passes


def prepared(run: Run) -> Run:
    """Compute in the worker what the window would otherwise compute on the GUI thread."""
    _ = run.documents, run.tag_mismatches, [s.orders for s in run.systems]
    out_of_gc_passes(run.n_sentences * (len(run.systems) + len(run.references)))
    return run


class RunJobs:
    """Scoring jobs of the window (see the module)."""

    run: Run | None
    whole: Run | None

    def _reslice(self, make: Callable[[Callable[[float], None]], Run]
                 ) -> Callable[[Callable[[float], None]], tuple[Run, Run]]:
        """``make`` (on the whole run), followed by the shown slice again when one is shown: the job gives
        (the new whole run, the run to show)."""
        shown = self.run.slice if self.run is not None else None

        def work(progress):
            whole = prepared(make(scaled_progress(progress, 0.0, 0.7 if shown else 1.0)))
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
        whole, new = self.whole, [str(p) for p in paths]

        def make(progress):
            extra = read_more_systems(new, [s.file for s in whole.systems], whole.references)
            return with_systems(whole, extra, progress)

        return self.jobs.submit(self._reslice(make),  # type: ignore[attr-defined]
                                lambda result: self._show_resliced(result, switch_to_compare=True))

    def rescore(self, config=None) -> int | None:
        """Score the shown files again with the current settings, in the worker."""
        if self.whole is None:
            return None
        whole, cfg = self.whole, config or self.settings_panel.config()  # type: ignore[attr-defined]
        return self.jobs.submit(self._reslice(lambda p: rescored(whole, cfg, p)),  # type: ignore[attr-defined]
                                self._show_resliced)

    def compare_pair(self, a: int, b: int) -> int | None:
        """Compare system ``a`` (made the baseline, in the worker, unless it is) with ``b`` (-1: keep B)."""
        if self.whole is None or a == 0:
            self.compare_view.set_b(b)  # type: ignore[attr-defined]
            return None
        whole, new_b = self.whole, b + 1 if 0 <= b < a else b  # where b lands once a moves to the front
        return self.jobs.submit(self._reslice(lambda p: with_baseline(whole, a, p)),  # type: ignore[attr-defined]
                                lambda result: (self._show_resliced(result),
                                                self.compare_view.set_b(new_b)))  # type: ignore[attr-defined]

    def apply_slice(self, rows: Sequence[int], description: str) -> int | None:
        """Show the whole run's segments ``rows`` as a corpus of their own (scored and tested in the worker)."""
        if self.whole is None:
            return None
        whole, keep = self.whole, list(rows)
        return self.jobs.submit(lambda p: prepared(sliced(whole, keep, description, progress=p)),  # type: ignore
                                self.show_run)  # type: ignore[attr-defined]

    def clear_slice(self) -> None:
        """Show the whole corpus again (already scored: nothing runs)."""
        if self.whole is not None and self.run is not self.whole:
            self.show_run(self.whole)  # type: ignore[attr-defined]
