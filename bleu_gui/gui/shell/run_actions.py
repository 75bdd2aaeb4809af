"""The window's scoring jobs: open, add systems, re-score, change the baseline, slice — all in the worker.

The controller keeps the whole run beside the run it shows (which may be a
slice of it): every change of files or settings is made on the whole run and
the slice, if one is shown, is scored again from the result, so a slice never
outlives the numbers it was cut from. Every job starts from the settings the
controller holds now: a job that replaces a re-score still in the worker (a slice
asked for right after a change of settings) scores with the new settings too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from ...core import InputError, Run, RunConfig, rescore, subset_run
from ...core.inputs.corpus import Context
from ...core.inputs.names import file_names
from ...core.inputs.ratings import Ratings
from ...core.inputs.run_inputs import InputRequest, read_more_systems, read_request
from ...core.inputs.text_files import SegmentFile
from ...core.metrics.bleu.metric import scaled_progress
from ...core.metrics.family import MetricConfig
from ...core.metrics.imported.config import choose_imported, with_column_from
from ...core.metrics.imported.imported import attach_imported
from ...core.metrics.registry import KEYS, family, family_of, reference_free, unscored
from ...core.metrics.status import status_to
from ...core.output.sessions import Session
from ...core.run import Comparison, Significance, check_labels, score_in_stages
from ...core.runtime import out_of_gc_passes
from ...core.where import check_where, where_rows
from ...demo import demo_paths
from ..controller import Controller
from ..jobs import JobController
from ..prepared import Prepared, prepare
from ..state import OpenChoice
from ..window_words import raw

Progress = Callable[[float], None]


def _left_behind(before: RunConfig, after: RunConfig) -> str:
    """A note naming the settings that followed other files and were not carried to these ('' when none)."""
    gone = [label for b, a in zip(before.metrics, after.metrics) for label in b.non_default()
            if label not in a.non_default()]
    if not gone:
        return ""
    return f"{', '.join(gone)}: chosen for other files, not carried to these (they follow each file's language)"


NO_ANNOTATIONS = ("MQM: left out — chosen for other files, and these have no human error annotations (File ▸ Open "
                  "▸ Annotations adds them)")


def _without_references(metrics: tuple[MetricConfig, ...], columns: Sequence[object], notes: list[str]
                        ) -> tuple[tuple[MetricConfig, ...], list[str]]:
    """The settings' metrics a run without references can score, and a note naming those left out (BLEU, always in
    the window, among them); none left and no score column read: the run opens all the same — QA, the desk, the
    scorecard need no score — with the stand-in that says nothing scores it yet, and what could."""
    kept, left_out = reference_free(metrics)
    if not kept and not columns:
        return unscored(), notes
    said = f"No reference: {', '.join(left_out)} left out (they compare with a reference)" if left_out else ""
    return kept, [*notes, said] if said else notes


def _needs_annotations(config: object) -> bool:
    return getattr(config, "key", "") == "mqm"  # the metric of human error annotations


TESTS_PENDING = "Significance tests: being computed, shown when ready."
KEPT_ON_CANCEL = " (a cancel keeps what is finished)"
TESTS_CANCELLED = "Significance tests: not computed (cancelled). Score again (Ctrl+R) to run them."


def _untested(comparison: Comparison | None, why: str) -> Comparison | None:
    """``comparison`` saying why its paired tests are absent."""
    return replace(comparison, untested=why) if comparison is not None else None


class RunActions(QObject):
    """Scoring jobs of the window (see the module), with the settings the controller holds.

    Signals: ``shown(bool)`` after a job's run is handed to the controller (true: switch to the Compare tab);
    ``opened()`` when files were opened afresh (their edits, if any, belong to nothing now); ``refused(str)``
    when an action cannot start.
    """

    shown = Signal(bool)
    opened = Signal()
    refused = Signal(str)

    def __init__(self, controller: Controller, jobs: JobController, parent: QObject | None = None):
        super().__init__(parent)
        self.controller, self.jobs = controller, jobs
        self.encoding = "auto"  # how files opened without a request of their own are decoded
        # The staged open whose early numbers are shown: its job, what it showed last and the note it carries.
        self._staged: tuple[int, tuple[Prepared, Prepared], str] | None = None
        jobs.cancelled.connect(self._on_cancelled)
        jobs.finished.connect(self._on_finished)
        # Texts leave this machine only once the user said yes (an LLM judge's endpoint on another host): ``confirm``
        # asks (the main window's dialog), each notice once a window.
        self.confirm: Callable[[str], bool] = lambda notice: False
        self._confirmed: set[str] = set()
        self._declined: set[str] = set()  # asked once: not asked again until the user asks to score with it again

    def declined(self, metrics: Sequence[MetricConfig], ask_again: bool = False) -> str:
        """The first notice of ``metrics`` (the LLM judge's texts going to another host) the user declines, said
        as a sentence ('' when every one was accepted, now or before). A notice declined before is not asked about
        again unless ``ask_again`` (the user asked to score with it once more)."""
        for notice in dict.fromkeys(filter(None, (m.notice() for m in metrics))):
            if notice in self._confirmed:
                continue
            if (notice in self._declined and not ask_again) or not self.confirm(notice):
                self._declined.add(notice)
                return f"not scored: {notice}, and you chose not to send them"
            self._declined.discard(notice)
            self._confirmed.add(notice)
        return ""

    # -- helpers ------------------------------------------------------------------------------------
    def _whole_now(self) -> Callable[[Progress | None], Prepared]:
        """The whole run under the settings chosen now (scored again in the worker when they differ)."""
        whole, cfg = self.controller.whole, self.controller.run_config()
        assert whole is not None

        def make(progress: Progress | None) -> Prepared:
            if whole.run.config == cfg:
                return whole
            return prepare(rescore(whole.run, config=cfg, progress=progress), whole)

        return make

    def _reslice(self, make: Callable[[Run, Progress | None], Run]
                 ) -> Callable[[Progress], tuple[Prepared, Prepared]]:
        """``make`` on the whole run (under the settings chosen now), followed by the shown slice again when one is
        shown: the job gives (the new whole run, the run to show)."""
        run = self.controller.run
        shown = run.slice if run is not None else None
        base = self._whole_now()

        def work(progress: Progress) -> tuple[Prepared, Prepared]:
            span = 0.7 if shown else 1.0
            before = base(scaled_progress(progress, 0.0, span / 2))
            whole = prepare(make(before.run, scaled_progress(progress, span / 2, span / 2)), before)
            if shown is None:
                return whole, whole
            part = subset_run(whole.run, list(shown.rows), shown.description,
                              progress=scaled_progress(progress, 0.7, 0.3))
            return whole, prepare(part)

        return work

    def _show(self, result: tuple[Prepared, Prepared], switch_to_compare: bool = False) -> None:
        self.controller.show(result[1], result[0])  # the slice shown is cut from the whole run given with it
        self.shown.emit(switch_to_compare)

    # -- actions ------------------------------------------------------------------------------------
    def open_files(self, systems: Sequence[str | Path], references: Sequence[str | Path],
                   labels: Sequence[str] | None = None, b: int = 1, source: str | Path | None = None) -> int:
        """:meth:`open_inputs` of files read as sniffed, in the window's encoding (dropped files, the demo)."""
        request = InputRequest(systems=tuple(str(p) for p in systems), references=tuple(str(r) for r in references),
                               encoding=self.encoding, source=str(source) if source is not None else None)
        return self.open_inputs(OpenChoice(request, tuple(labels) if labels else None), b)

    def open_inputs(self, choice: OpenChoice, b: int = 1, carry: bool = False) -> int:
        """Read and score what ``choice`` names (the first system is the baseline) under its display names, and
        show its slice, in the worker. Errors come back as a dialog; the shown run stays.

        Settings that follow the files (BLEU's tokenizer, TER's Asian support) chosen for other files are not
        carried to these unless ``carry`` (a session, the command line's flags, the same files again), and a note
        says which were left behind."""
        own, request, labels = RunConfig(self.controller.scoring.metrics), choice.request, choice.labels
        check_where(choice.where)
        kept_here, not_sent = self._without_declined(own.metrics)  # the files open, without what was declined
        if kept_here != own.metrics:
            self.controller.choose_scoring(kept_here)
            own = RunConfig(kept_here)
        left_behind = ""
        if not carry and self._other_files(request):
            fresh = replace(own, metrics=tuple(m.for_other_files() for m in own.metrics))
            left_behind = _left_behind(own, fresh)
            own = fresh

        dropped = [False]  # MQM left out (the settings follow once the run is shown)

        def work(progress: Progress, early: Callable[[object], None], step: Callable[[str], None]
                 ) -> tuple[Prepared, Prepared]:
            step("Reading files")
            inputs = read_request(request, progress=scaled_progress(progress, 0, 0.05))
            names = check_labels(labels, len(inputs.systems)) if labels else None
            systems, context, configs = attach_imported(request, inputs.systems, names or file_names(inputs.systems),
                                                        inputs.context)
            configs = choose_imported(configs, choice.imported, KEYS)
            notes = [left_behind] if left_behind else []
            notes += not_sent
            metrics = own.metrics
            if all(s.annotations is None for s in systems) and any(_needs_annotations(m) for m in metrics):
                # MQM chosen for other files (a review's, say) is never carried into files without annotations.
                metrics = tuple(m for m in metrics if not _needs_annotations(m))
                notes.append(NO_ANNOTATIONS)
                dropped[0] = True
            if not inputs.references:
                metrics, notes = _without_references(metrics, configs, notes)
            if notes:
                context = replace(context, notes=(*context.notes, *notes))
            out_of_gc_passes(len(inputs.systems[0].lines) * (len(inputs.systems) + len(inputs.references)))
            columns = {c.name for c in configs}  # a column named as a family is the column, as in bleu-score
            cfg = replace(own, metrics=tuple(m for m in metrics if m.key not in columns) + configs)
            return self._in_stages(systems, inputs.references, cfg, names, context, choice.where, progress, early,
                                   step)

        first_shown = [False]

        def show(result: tuple[Prepared, Prepared]) -> None:
            if not first_shown[0]:  # the first metrics' run, or the whole one when none came first
                self.controller.set_opened(choice)
                if dropped[0]:
                    self.controller.choose_scoring(tuple(m for m in self.controller.scoring.metrics
                                                         if not _needs_annotations(m)))
                self.opened.emit()  # files opened afresh: no edits carried over
            self.controller.show(result[1], result[0])
            if not first_shown[0]:
                self.controller.set_b(b)  # later, B is what the user chose meanwhile
            first_shown[0] = True
            self.shown.emit(False)

        def early(result: object) -> None:
            assert isinstance(result, tuple)  # what work hands over: ((whole, shown), the note it carries)
            self._staged = (job, result[0], result[1])
            show(result[0])

        job = self.jobs.submit_staged(work, early, show)
        return job

    def _in_stages(self, systems: list[SegmentFile], references: list[SegmentFile], cfg: RunConfig,
                   names: list[str] | None, context: Context, where: Sequence[str], progress: Progress,
                   early: Callable[[object], None], step: Callable[[str], None]) -> tuple[Prepared, Prepared]:
        """Score ``cfg``'s metrics cheapest first (:func:`score_in_stages`) and hand each stage's numbers over
        (``early``) as soon as they are ready, each saying what is still computed; the whole run is returned."""
        prepared: Prepared | None = None
        tests_to_come = len(systems) > 1 and cfg.significance is not None
        stages = score_in_stages(systems, references, cfg, names=names, context=context,
                                 progress=scaled_progress(progress, 0.05, 0.9), starting=step)
        while True:
            with status_to(step):  # a long computation (COMET's batches) says how far it is on the progress bar
                stage = next(stages)
            if not stage.waiting:
                return self._sliced(stage.run, where, progress, prepared)
            said = f"{', '.join(stage.waiting)}: being computed, shown when ready"
            if any(family_of(m).scored_elsewhere and family_of(m).title in stage.waiting for m in cfg.metrics):
                said += KEPT_ON_CANCEL
            noted = replace(stage.run, notes=(said, *stage.run.notes), comparison=_untested(
                stage.run.comparison, TESTS_PENDING) if tests_to_come else stage.run.comparison)
            shown = self._sliced(noted, where, progress, prepared)
            early((shown, said))
            prepared = shown[0]

    @Slot(int)
    def _on_cancelled(self, job_id: int) -> None:
        """A staged open cancelled after its first numbers: they stay, and their note says what was not computed."""
        staged, self._staged = self._staged, None
        if staged is None or staged[0] != job_id:
            return
        _, (whole, shown), said = staged
        not_computed = said.replace("being computed, shown when ready", "not computed (cancelled)").replace(
            KEPT_ON_CANCEL, "; what their worker or endpoint finished is in their caches: Score again (Ctrl+R) "
                            "goes on from there")

        def noted(p: Prepared) -> Prepared:
            comparison = p.run.comparison
            if comparison is not None and comparison.untested == TESTS_PENDING:
                comparison = _untested(comparison, TESTS_CANCELLED)
            return replace(p, run=replace(p.run, notes=tuple(not_computed if n == said else n for n in p.run.notes),
                                          comparison=comparison))

        self.controller.show(noted(shown), noted(whole))
        self.shown.emit(False)

    @Slot(int)
    def _on_finished(self, job_id: int) -> None:
        if self._staged is not None and self._staged[0] == job_id:
            self._staged = None

    @staticmethod
    def _sliced(run: Run, where: Sequence[str], progress: Progress,
                like: Prepared | None = None) -> tuple[Prepared, Prepared]:
        """The whole run and the run to show: its slice where ``where`` asks for one (``like``: see
        :func:`prepare`)."""
        whole = prepare(run, like)
        if not where:
            return whole, whole
        rows, said = where_rows(run, list(where))
        return whole, prepare(subset_run(run, rows, said, progress=scaled_progress(progress, 0.95, 0.05)))

    def _other_files(self, request: InputRequest) -> bool:
        """Whether ``request`` names other files than the run shown was read from (the first run takes the
        settings it starts with: the command line's, or the remembered ones, which hold nothing file-bound)."""
        if self.controller.whole is None:
            return False
        shown = self.controller.opened.request
        return (shown.systems, shown.references) != (request.systems, request.references)

    def open_session(self, session: Session | None) -> int | None:
        """Open a saved run as it was: its files, how they were read, labels, B (the caller sets the settings)."""
        if session is None:
            return None
        return self.open_inputs(OpenChoice(session.opening(), tuple(session.labels) if session.labels else None,
                                           campaigns=tuple(session.campaigns)),
                                session.b, carry=True)

    def open_demo(self, language: str = "en") -> int:
        systems, references = demo_paths(language)
        return self.open_files(systems, references)

    def add_systems(self, paths: Sequence[str | Path]) -> int | None:
        """Compare more system outputs with the shown run's baseline, in the worker."""
        whole = self.controller.whole_run  # the files read (its settings may be old)
        if whole is None:
            self.refused.emit("Open a system output and its references first; added systems are compared with it.")
            return None
        new = [str(p) for p in paths]

        def make(base: Run, progress: Progress | None) -> Run:
            extra = read_more_systems(new, [s.file for s in whole.systems], whole.references)
            return rescore(base, extra=extra, progress=progress)

        return self.jobs.submit(self._reslice(make), lambda result: self._show(result, switch_to_compare=True))

    def _without_declined(self, metrics: tuple[MetricConfig, ...], ask_again: bool = False
                          ) -> tuple[tuple[MetricConfig, ...], list[str]]:
        """``metrics`` less each one whose texts the user chose not to send (asked here when not asked before, or
        when ``ask_again``), and a sentence for each left out."""
        kept, said = list(metrics), []
        while declined := self.declined(kept, ask_again):
            dropped = [m for m in kept if m.notice() and declined.startswith(f"not scored: {m.notice()},")]
            kept = [m for m in kept if m not in dropped]
            said.append(f"{', '.join(family_of(m).title for m in dropped)} {declined}")
        return tuple(kept), said

    def rescore(self, ask_again: bool = True) -> int | None:
        """Score the shown files again with the settings chosen now, in the worker. A metric whose texts the user
        chose not to send is asked about again (a deliberate act) unless not ``ask_again``; declined, nothing is
        scored and ``refused`` says why."""
        if self.controller.whole is None:
            return None
        metrics = self.controller.scoring.metrics
        kept, said = self._without_declined(metrics, ask_again)
        if kept != metrics:
            self.refused.emit(f"{said[0][0].upper()}{said[0][1:]}")
            return None
        return self.jobs.submit(self._reslice(lambda base, _p: base), self._show)

    def compare_pair(self, a: int, b: int) -> int | None:
        """Compare system ``a`` (made the baseline, in the worker, unless it is) with ``b`` (-1: keep B)."""
        if self.controller.whole is None or a == 0:
            self.controller.set_b(b)
            return None
        new_b = b + 1 if 0 <= b < a else b  # where b lands once a moves to the front

        def done(result: tuple[Prepared, Prepared]) -> None:
            self._show(result)
            self.controller.set_b(new_b)

        return self.jobs.submit(self._reslice(lambda base, p: rescore(base, baseline=a, progress=p)), done)

    def reannotate(self, system: int, annotations: tuple[object, ...], scores: dict[str, tuple[float, ...]],
                   source: str) -> int | None:
        """Score again with system ``system``'s (of the whole run) annotations replaced and its segment score
        columns ``scores`` set — a reviewer's marks and ESA scores, from the file named ``source``. The systems
        without annotations get empty ones (every segment unrated) and without those columns missing scores, so
        that MQM and the columns score them all; the settings chosen now apply, MQM and the columns among them."""
        whole, run = self.controller.whole, self.controller.run
        if whole is None:
            return None
        n = whole.run.n_sentences
        ratings = tuple(r if isinstance(r, Ratings) else None for r in annotations)
        given: dict[int, tuple[Ratings | None, ...]] = {
            i: (None,) * n for i, s in enumerate(whole.run.systems) if s.file.annotations is None}
        given[system] = ratings
        columns: dict[int, dict[str, tuple[float, ...]]] = {
            i: {c: (math.nan,) * n for c in scores if c not in s.file.scores}
            for i, s in enumerate(whole.run.systems) if i != system}
        columns[system] = dict(scores)
        cfg, shown = self.controller.run_config(), run.slice if run is not None else None
        if not any(family_of(m).key == "mqm" for m in cfg.metrics):  # the marks are scored: MQM joins the metrics
            cfg = cfg.with_metric(family("mqm").config())
        # An ESA score: a human column, as --annotations reads it, signed with the review's file too.
        cfg = replace(cfg, metrics=with_column_from(cfg.metrics, tuple(scores), Path(source).name))

        def work(progress: Progress) -> tuple[Prepared, Prepared]:
            span = 0.7 if shown else 1.0
            new = prepare(rescore(whole.run, config=cfg, annotations=given, scores=columns,
                                  progress=scaled_progress(progress, 0.0, span)), whole)
            if shown is None:
                return new, new
            return new, prepare(subset_run(new.run, list(shown.rows), shown.description,
                                           progress=scaled_progress(progress, 0.7, 0.3)))

        def done(result: tuple[Prepared, Prepared]) -> None:
            self._show(result)
            self._remember_annotations(source)

        return self.jobs.submit(work, done)

    def remember_campaign(self, path: str) -> None:
        """A campaign for the humans was written from the run shown: a saved session keeps it, and reading its
        results back (:meth:`read_ratings`) counts what it asked."""
        opened, path = self.controller.opened, str(Path(path).absolute())
        if path not in opened.campaigns:
            self.controller.set_opened(replace(opened, campaigns=(*opened.campaigns, path)))

    def read_ratings(self, results: Sequence[str]) -> int | None:
        """Open the run shown again with the humans' ratings in ``results`` (Pearmut's log or its dashboard's
        download) and the campaigns written from it that asked them, placed by the items' ids."""
        whole = self.controller.whole_run
        if whole is None:
            self.refused.emit("Open the run the campaign was written from first: its ratings are placed on its lines.")
            return None
        opened = self.controller.opened
        given = [str(Path(p).absolute()) for p in results]
        campaigns = [c for c in opened.campaigns if Path(c).is_file() and c not in opened.request.annotations]
        annotations = tuple(dict.fromkeys([*opened.request.annotations, *given, *campaigns]))
        choice = replace(opened, request=replace(opened.request, annotations=annotations))
        return self.open_inputs(choice, self.controller.b, carry=True)

    def read_again(self) -> int | None:
        """Open the run shown again as it was opened: a file it read changed on disk (the humans' ratings)."""
        if self.controller.whole_run is None:
            return None
        return self.open_inputs(self.controller.opened, self.controller.b, carry=True)

    def _remember_annotations(self, path: str) -> None:
        """The run shown now holds ``path``'s marks: Open Recent and a saved session open it with them — once the
        desk has written it (a review started and left before its first mark wrote nothing: no file to open)."""
        opened = self.controller.opened
        request = opened.request
        if not Path(path).is_file():
            return
        if str(Path(path).absolute()) not in {str(Path(p).absolute()) for p in request.annotations}:
            self.controller.set_opened(replace(opened, request=replace(
                request, annotations=(*request.annotations, str(Path(path).absolute())))))

    def _slice_in_stages(self, rows_of: Callable[[Run], tuple[Sequence[int], str]],
                         failed: Callable[[str, str], None] | None = None) -> int:
        """Show the segments ``rows_of(whole run)`` gives (with their description) as a corpus of their own: their
        numbers at once (a slice is a selection of the rows the whole run holds), its paired tests as they follow,
        in the worker."""
        base = self._whole_now()

        def work(progress: Progress, early: Callable[[object], None], step: Callable[[str], None]
                 ) -> tuple[Prepared, Prepared]:
            whole = base(scaled_progress(progress, 0.0, 0.3))
            rows, said = rows_of(whole.run)
            if whole.run.config.significance is not None and len(whole.run.systems) > 1:
                step("Paired tests on the slice")
                early((whole, prepare(subset_run(whole.run, rows, said, significance=Significance(None, None),
                                                 ngram_wins=False))))
            return whole, prepare(subset_run(whole.run, rows, said, progress=scaled_progress(progress, 0.4, 0.6)))

        def early(result: object) -> None:
            assert isinstance(result, tuple)
            self._show(result)

        return self.jobs.submit_staged(work, early, self._show, failed)

    def apply_slice(self, rows: Sequence[int], description: str) -> int | None:
        """Show the whole run's segments ``rows`` as a corpus of their own (see :meth:`_slice_in_stages`)."""
        if self.controller.whole is None:
            return None
        keep = list(rows)
        return self._slice_in_stages(lambda _run: (keep, description))

    def apply_where(self, text: str, on_problem: Callable[[str], object] | None = None) -> int | None:
        """Show the segments of the whole run where a slice expression holds (found and scored in the worker).
        A bad expression, a field the run lacks or a slice of no segment goes to ``on_problem`` (the slice box
        says it; without one, a dialog); a failure of the program itself is a dialog either way."""
        if self.controller.whole is None:
            return None
        problem = on_problem if on_problem is not None else self.refused.emit
        try:
            check_where([text])
        except InputError as exc:
            problem(raw(exc))
            return None

        def failed(message: str, details: str) -> None:
            if details:  # not the expression's fault: the program's, with its traceback
                self.jobs.failed.emit(message, details)
            else:
                problem(message)

        def rows_of(run: Run) -> tuple[Sequence[int], str]:
            rows, said = where_rows(run, [text])
            return rows, said

        return self._slice_in_stages(rows_of, failed)

    def clear_slice(self) -> None:
        """Show the whole corpus again (already scored: nothing runs, unless the settings changed meanwhile)."""
        whole = self.controller.whole
        if whole is None or self.controller.shown is whole:
            return
        if whole.run.config != self.controller.run_config():
            self.jobs.submit(lambda p: self._whole_now()(p), lambda prepared: self._show((prepared, prepared)))
            return
        self._show((whole, whole))
