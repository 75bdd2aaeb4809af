"""File ▸ Ask the humans…: the segments that matter written as a Pearmut campaign, as ``bleu-score --ask-humans``
writes it — which segments (the run's, the slice shown, a list handed over by Triage or Where metrics disagree), a
seeded sample of them, the systems, the protocol, the raters — with a preview of what a rater sees, the work it asks
and how many segments the metric says the campaign needs to separate each pair (computed off the GUI thread)."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ...core import InputError, Run, palette
from ...core.errors import ExportError
from ...core.inputs.campaign_ids import PROTOCOLS, WORDS_PER_HOUR
from ...core.output.campaign_choice import (
    DOCUMENT,
    NEEDED_SAID,
    RANDOM,
    PairNeed,
    Sample,
    deciding_metric,
    pairs_needed,
    sampled_rows,
)
from ...core.output.human_campaign import CampaignAsk, CampaignPlan, hours_text, plan_campaign, write_campaign
from ..file_dialogs import ask_save
from ..jobs import JobController
from ..state import Selection, WindowState
from ..widgets.layout import STRETCH, hrow, resize_within_screen, single_shot
from ..widgets.style import styled
from ..window_words import in_window_words, raw

PROTOCOL_WORDS = {"esa": "ESA: error spans (minor, major) and a 0–100 score",
                  "mqm": "MQM: error spans with a category and a severity",
                  "da": "DA: a 0–100 score"}
RATER_SEES = {"esa": "marks the errors in each translation (click its start, then its end; minor or major; "
                     "[missing] for an omission), then scores it with a slider from 0 (broken) to 100 (perfect)",
              "mqm": "marks the errors in each translation, each with a category of MQM's core typology and a "
                     "severity",
              "da": "scores each translation with a slider from 0 (broken) to 100 (perfect)"}


def offered(whole: Run, shown: Run, handed: Selection | None = None) -> tuple[list[Selection], int]:
    """What the dialog offers to ask about, and which is chosen: the run's segments, the slice shown (when one is),
    and a list handed over by another view (chosen when given)."""
    selections = [Selection(tuple(range(whole.n_sentences)), "all segments of the run")]
    if shown.slice is not None:
        selections.append(Selection(shown.slice.rows, f"the slice shown: {shown.slice.description}"))
    if handed is not None:
        selections.append(handed)
    return selections, len(selections) - 1 if handed is not None else 0


class AskHumansDialog(QDialog):
    """See the module. ``run`` is the whole run; ``selections`` what the window offers (the run's segments first).
    Signals: ``written(campaign path)``, ``failed(message)``."""

    written = Signal(str)
    failed = Signal(str)

    def __init__(self, parent: QWidget | None, run: Run, selections: Sequence[Selection],
                 state: WindowState | None = None, chosen: int = 0):
        super().__init__(parent)
        self.setWindowTitle("Ask the humans: a Pearmut campaign")
        self.setObjectName("askHumansDialog")
        self.run, self.selections, self.state = run, list(selections), state
        self.plan: CampaignPlan | None = None
        self.jobs = JobController(self)
        self._estimate_soon = single_shot(self, 250, self._estimate_needed)
        self._choice_fields(chosen)
        self.systems = self._systems_list(run)
        self._campaign_fields(run)
        self._outputs()
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        self._lay_out(close)
        for changed in (self.selection.currentIndexChanged, self.sample_by.currentIndexChanged,
                        self.protocol.currentIndexChanged, self.sample_size.valueChanged, self.seed.valueChanged,
                        self.raters.valueChanged, self.per_rater.valueChanged, self.words_per_hour.valueChanged,
                        self.documents.toggled, self.systems.itemChanged):
            changed.connect(self.refresh)
        resize_within_screen(self, 1000, 700)
        self.refresh()

    def _choice_fields(self, chosen: int) -> None:
        run = self.run
        self.selection = QComboBox()
        self.selection.addItems([f"{s.said} ({len(s.rows):,})" for s in self.selections])
        self.selection.setCurrentIndex(max(0, min(chosen, len(self.selections) - 1)))
        self.sample_by = QComboBox()
        self.sample_by.addItem("all of them", None)
        self.sample_by.addItem("a sample at random", RANDOM)
        if run.context.docs is not None:
            self.sample_by.addItem("whole documents at random", DOCUMENT)
        for m in run.metrics:
            self.sample_by.addItem(f"a sample across {m.name}'s scores (five quantile bins)", m.name)
        self.sample_size = self._spin(1, 100_000, 100)
        self.seed = self._spin(0, 2**31 - 1, 0)
        self.seed.setToolTip("The seed of the sample and of Pearmut's order of the translations in an item")

    @staticmethod
    def _systems_list(run: Run) -> QListWidget:
        systems = QListWidget()
        systems.setObjectName("askSystems")
        systems.setFlow(QListWidget.Flow.LeftToRight)
        systems.setWrapping(True)
        systems.setResizeMode(QListWidget.ResizeMode.Adjust)
        systems.setMaximumHeight(64)  # two rows of names (15 systems at 1366 px); more scroll
        for s in run.systems:
            item = QListWidgetItem(s.name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            systems.addItem(item)
        return systems

    def _campaign_fields(self, run: Run) -> None:
        self.protocol = QComboBox()
        for key in PROTOCOLS:
            self.protocol.addItem(PROTOCOL_WORDS[key], key)
        self.raters = self._spin(1, 50, 1)
        self.raters.setToolTip("How many raters rate each segment (each in a task of their own)")
        self.per_rater = self._spin(0, 100_000, 0)
        self.per_rater.setSpecialValueText("all")
        self.per_rater.setToolTip("How many documents (segments, unless kept whole) one rater's task holds")
        self.documents = QCheckBox("keep documents whole")
        self.documents.setEnabled(run.context.docs is not None)
        self.documents.setToolTip("Each chosen segment's whole document, in order, as Pearmut's document items"
                                  if run.context.docs is not None else "The run has no documents")
        self.words_per_hour = self._spin(100, 100_000, int(WORDS_PER_HOUR))
        self.words_per_hour.setSingleStep(100)
        self.words_per_hour.setToolTip("Source words a rater reads in an hour. 3,000: the median of WMT24's 26 ESA "
                                       "raters (en-zh, en-hi), from the release's times (scripts/esa_words_per_hour.py)")

    def _outputs(self) -> None:
        self.estimate = QLabel()
        self.estimate.setObjectName("askEstimate")
        self.needed = QLabel()
        self.needed.setObjectName("askNeeded")
        self.done_label = QLabel()
        self.done_label.setObjectName("askDone")
        for label in (self.estimate, self.needed, self.done_label):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview = QTextBrowser()
        self.preview.setObjectName("askPreview")
        self.write_button = QPushButton("Write campai&gn…")
        self.write_button.setDefault(True)
        self.write_button.clicked.connect(self.ask_write)

    @staticmethod
    def _spin(low: int, high: int, value: int) -> QSpinBox:
        spin = QSpinBox()
        spin.setRange(low, high)
        spin.setValue(value)
        spin.setGroupSeparatorShown(True)
        return spin

    def _lay_out(self, close: QPushButton) -> None:
        grid = QGridLayout()
        # Each row: its label (Alt+letter goes to the field it names), what it holds, that field.
        rows: list[tuple[str, QWidget | QHBoxLayout, QWidget]] = [
            ("&Segments", hrow(self.selection, STRETCH), self.selection),
            ("Sa&mple", hrow(self.sample_by, "of", self.sample_size, "seed", self.seed, STRETCH), self.sample_by),
            ("S&ystems", self.systems, self.systems),
            ("&Protocol", hrow(self.protocol, "raters per segment", self.raters, "documents per rater",
                               self.per_rater, self.documents, STRETCH), self.protocol),
            ("&Work", hrow("words a rater reads an hour", self.words_per_hour, STRETCH), self.words_per_hour),
        ]
        for r, (text, field, buddy) in enumerate(rows):
            label = QLabel(text)
            label.setBuddy(buddy)
            grid.addWidget(label, r, 0, Qt.AlignmentFlag.AlignTop)
            if isinstance(field, QWidget):
                grid.addWidget(field, r, 1)
            else:
                grid.addLayout(field, r, 1)
        grid.setColumnStretch(1, 1)
        box = QVBoxLayout(self)
        box.addLayout(grid)
        box.addWidget(self.estimate)
        box.addWidget(self.needed)
        box.addWidget(styled(QLabel("What a rater sees (the first item; Pearmut hides the systems' names and shuffles "
                                    "the translations' order in each document):"), "hint"))
        box.addWidget(self.preview, 1)
        box.addWidget(self.done_label)
        box.addLayout(hrow(STRETCH, self.write_button, close))

    # -- what the controls ask --------------------------------------------------------------------------------
    def checked_systems(self) -> tuple[str, ...]:
        return tuple(self.systems.item(k).text() for k in range(self.systems.count())
                     if self.systems.item(k).checkState() == Qt.CheckState.Checked)

    def ask(self) -> CampaignAsk:
        selection = self.selections[self.selection.currentIndex()]
        return CampaignAsk(str(self.protocol.currentData()), self.checked_systems(), self.raters.value(),
                           self.per_rater.value() or None, self.documents.isChecked(), self.seed.value(), "",
                           float(self.words_per_hour.value()), selection.said)

    def compute(self) -> CampaignPlan:
        """The campaign the controls ask for (:class:`InputError` when it cannot be asked)."""
        selection = self.selections[self.selection.currentIndex()]
        by = self.sample_by.currentData()
        self.sample_size.setEnabled(by is not None)
        ask = self.ask()
        if len(ask.systems) < 1:
            raise InputError("check at least one system to ask about")
        systems = [s.name for s in self.run.systems]
        rows, sampled = sampled_rows(self.run, selection.rows, [systems.index(n) for n in ask.systems],
                                     Sample(self.sample_size.value() if by is not None else None, by or RANDOM,
                                            self.seed.value()))
        chosen = selection.said + (f"; of them {sampled}" if sampled else "")
        return plan_campaign(self.run, rows, CampaignAsk(ask.protocol, ask.systems, ask.raters, ask.per_rater,
                                                         ask.documents, ask.seed, "", ask.words_per_hour, chosen))

    def refresh(self, *_args: object) -> None:
        try:
            self.plan = self.compute()
        except InputError as exc:
            self.plan = None
            self.jobs.cancel()
            self._estimate_soon.stop()
            self.estimate.setText(f"<b>Nothing to ask:</b> {html.escape(in_window_words(raw(exc)))}")
            self.needed.setText("")
            self.preview.setHtml("")
            self.write_button.setEnabled(False)
            return
        self.write_button.setEnabled(True)
        self.estimate.setText(self.estimate_html(self.plan))
        self.preview.setHtml(self.preview_html(self.plan))
        self.needed.setText("Segments needed to separate two systems: estimating…" if len(self.plan.systems) > 1
                            else "")
        self.jobs.cancel()
        self._estimate_soon.start()  # once the controls settle: a spin box's steps would each start one

    def estimate_html(self, plan: CampaignPlan) -> str:
        e = plan.estimate
        raters = f"{e.raters_per_item} rater{'s' if e.raters_per_item > 1 else ''}"
        whole = f" in {len(plan.documents):,} documents kept whole" if plan.ask.documents else ""
        return (f"<b>{e.segments:,} segments</b>{whole} × {e.systems} "
                f"system{'s' if e.systems > 1 else ''} × {raters} each = <b>{e.ratings:,} ratings</b> "
                f"({plan.ask.protocol.upper()}), {len(plan.tasks):,} task{'s' if len(plan.tasks) > 1 else ''}; "
                f"{e.source_words:,} source words read (each translation apart) ≈ <b>{hours_text(e.hours)}</b> "
                f"at {e.words_per_hour:,.0f} words an hour<br><span style='color:gray'>chosen: "
                f"{html.escape(plan.ask.chosen_by)}</span>")

    def preview_html(self, plan: CampaignPlan) -> str:
        """The first item as Pearmut shows it: the protocol's task, the source, each translation."""
        assert self.run.context.source is not None
        first_task = [row for d in plan.tasks[0] for row in plan.documents[d]]
        row = first_task[0]
        parts = [f"<p style='color:gray'>{plan.raters[0]} · item 1 of {len(first_task):,} in the task · "
                 f"the rater {RATER_SEES[plan.ask.protocol]}</p>",
                 f"<p><b>Source</b> (line {row + 1})<br>{html.escape(self.run.context.source.lines[row])}</p>"]
        for k, s in enumerate(plan.systems, 1):
            system = self.run.systems[s]
            parts.append(f"<p><b>Translation {k}</b> <span style='color:gray'>({html.escape(system.name)}, "
                         f"not shown to the rater)</span><br>{html.escape(system.lines[row])}</p>")
        return "".join(parts)

    # -- how many segments the campaign needs -----------------------------------------------------------------
    def _estimate_needed(self) -> None:
        plan = self.plan
        if plan is None or len(plan.systems) < 2:
            return
        metric = deciding_metric(self.run, str(self.sample_by.currentData() or ""))
        self.needed.setText(f"Segments needed to separate two systems, by {self.run.metrics[metric].name}: "
                            "estimating…")
        run, systems, rows, seed = self.run, plan.systems, plan.rows, plan.ask.seed

        def work(progress: Callable[[float], None]) -> list[PairNeed]:
            return pairs_needed(run, systems, rows, metric, seed, progress)  # a stale job stops at its next pair

        self.jobs.submit(work, lambda found: self.needed.setText(self.needed_html(metric, found)))

    def needed_html(self, metric: int, found: list[PairNeed]) -> str:
        names = [s.name for s in self.run.systems]
        said = ", ".join(f"{html.escape(names[p.a])} vs {html.escape(names[p.b])}: "
                         f"<b>{f'{p.segments:,}' if p.segments is not None else 'more than 5,000'}</b>"
                         for p in found)
        self.needed.setToolTip(f"The metric's estimate, not the humans': {NEEDED_SAID}.")
        name = html.escape(self.run.metrics[metric].name)
        k = len(self.checked_systems())
        which = f"neighbours in {name}'s ranking" if len(found) < k * (k - 1) // 2 else f"two systems, by {name}"
        return (f"Segments needed to separate {which} "
                f"<span style='color:gray'>(the metric's estimate, a floor)</span>: {said}")

    # -- writing ----------------------------------------------------------------------------------------------
    def ask_write(self) -> None:
        path = ask_save(self, self.state, "campaign", "Write the Pearmut campaign", "campaign.json",
                        "Pearmut campaign (*.json)")
        if path:
            # The save dialog asked before choosing a file that exists: the user said replace it (and its mapping).
            self.write(path, overwrite=Path(path).exists())

    def write(self, path: str, overwrite: bool = False) -> None:
        """Write the campaign shown and its mapping file to ``path``; a failure is said, never raised."""
        if self.plan is None:
            return
        try:
            written, beside = write_campaign(self.run, self.plan, path, overwrite, self.run.input_paths())
        except (InputError, ExportError) as exc:
            # Said here, not in a box of the main window: the keyboard stays in this dialog (a box over the window
            # gave the focus back to the window, found walking the dialog by keyboard).
            message = in_window_words(raw(exc))
            self.done_label.setText(f"<b style='color:{palette.FLAG_INK}'>Not written:</b> {html.escape(message)}")
            self.failed.emit(message)
            return
        self.done_label.setText(
            f"<b>Written:</b> {html.escape(str(written))} and, beside it, which file and line each item is "
            f"({html.escape(beside.name)}). Next: <code>pearmut add {html.escape(written.name)}</code> on the Pearmut "
            "server; when the raters are done, read its results (the log or the dashboard's download) with "
            "File ▸ Read the humans' ratings…")
        self.written.emit(str(written))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        self._estimate_soon.stop()
        self.jobs.shutdown()  # an estimate still computing stops at its next pair (a second at most)
        super().closeEvent(event)
