"""The window's whole state in one Qt-free object, after napari's ``ViewerModel``: what was opened (the input
request, display names, slice), the scoring settings (the metrics' settings, a tuple, BLEU's among them) and where
they came from, and the view (system, sentence, B, metric, order, ranking). The controller holds it and says when a
part changes; the settings panel edits the settings through the controller; jobs read it; a session is a
snapshot of it. Nothing here imports Qt (a test says so).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core import Run
from ..core.inputs.run_inputs import InputRequest
from ..core.metrics.family import MetricConfig
from ..core.metrics.registry import KEYS, own_metrics, reference_free
from ..core.output.rankings import Ranking
from ..core.output.sessions import Session, session_of
from ..core.run import RunConfig

# Where the settings came from, as the window says it beside settings that are not the defaults.
FROM_COMMAND_LINE = "from the command line"
REMEMBERED = "remembered from an earlier session"
CHOSEN = "chosen in the window"
FROM_SESSION = "from the session"


@dataclass(frozen=True)
class OpenChoice:
    """What to open: the request (files and how to read them), the systems' display names, a slice to show, and
    the score files' columns to score (``-m``; None: every one)."""

    request: InputRequest
    labels: tuple[str, ...] | None = None
    where: tuple[str, ...] = ()
    imported: tuple[str, ...] | None = None
    campaigns: tuple[str, ...] = ()  # campaigns for the humans written from these files (File ▸ Ask the humans…)


@dataclass(frozen=True)
class ViewState:
    """What the window shows beyond the run: what exports follow and a session remembers."""

    system: int = 0
    sentence: int | None = None
    b: int = 1
    metric: int = 0
    order: int = 1
    ranking: Ranking = Ranking()


@dataclass(frozen=True)
class Scoring:
    """The metrics' settings the window scores with (the families' own; imported scores come with their files),
    where they came from, and those chosen in the window that no run has shown yet (they are remembered once one
    does)."""

    metrics: tuple[MetricConfig, ...]
    origin: str
    pending: tuple[MetricConfig, ...] | None = None


@dataclass
class WindowState:
    """See the module."""

    scoring: Scoring
    opened: OpenChoice = field(default_factory=lambda: OpenChoice(InputRequest(encoding="auto")))
    view: ViewState = field(default_factory=ViewState)
    folders: dict[str, str] = field(default_factory=dict)  # kind of file -> the folder last used for it

    def start_path(self, kind: str, name: str = "") -> str:
        """Where a file dialog for ``kind`` of file (``report``, ``figure``, ``inputs``, …) starts, with ``name``
        in it: the folder last used for that kind, else the inputs' folder, else the working directory."""
        folder = self.folders.get(kind) or self.inputs_folder()
        return str(Path(folder) / name) if folder else name

    def inputs_folder(self) -> str:
        """The folder of the files opened (the first reference's, else the first system's; '' before any)."""
        request = self.opened.request
        first = next(iter((*request.references, *request.systems)), None)
        return str(Path(first).absolute().parent) if first else ""

    def folder_used(self, kind: str, path: str) -> None:
        """A file of ``kind`` was chosen at ``path``: the next dialog for that kind starts in its folder."""
        self.folders[kind] = str(Path(path).absolute().parent)

    def run_config(self, shown: Run | None) -> RunConfig:
        """What a job scores with now: the settings, and the metrics of ``shown``'s score files."""
        imported = tuple(m for m in shown.config.metrics if m not in own_metrics(shown.config.metrics)) \
            if shown is not None else ()
        own = self.scoring.metrics
        if shown is not None and not shown.references:  # a run without references: its opening said what it left out
            own = reference_free(own)[0]
        return RunConfig(own + imported)

    def choose(self, metrics: tuple[MetricConfig, ...]) -> None:
        """Settings chosen in the window: scored with from now, remembered once a run shows them."""
        self.scoring = Scoring(metrics, self.scoring.origin, pending=metrics)

    def _as_set(self, run: Run, settings: tuple[MetricConfig, ...]) -> tuple[MetricConfig, ...]:
        """``run``'s own metrics as the settings hold them: a run without references left out the families that
        need one, out of itself only — ``settings``' stay for the next run that has a reference."""
        own = own_metrics(run.config.metrics)
        if run.references:
            return own
        left_out = tuple(m for m in settings if m not in reference_free(settings)[0])
        return tuple(sorted((*own, *left_out), key=lambda m: KEYS.index(m.key)))

    def shown(self, run: Run) -> tuple[MetricConfig, ...] | None:
        """A run is shown: the settings chosen in the window that gave it (to remember), or None."""
        pending = self.scoring.pending
        if pending is not None and self._as_set(run, pending) == pending:
            self.scoring = Scoring(pending, CHOSEN)
            return self.scoring.metrics
        return None

    def settled(self, shown: Run | None) -> None:
        """No job runs any more: the settings are those of the numbers shown (a re-score may have been cancelled or
        failed)."""
        if shown is not None:
            self.scoring = Scoring(self._as_set(shown, self.scoring.metrics), self.scoring.origin)
        else:
            self.scoring = replace(self.scoring, pending=None)

    def session(self, run: Run) -> Session:
        """The session that opens ``run`` again as shown."""
        return session_of(run, self.view.b, self.opened.request, self.opened.campaigns)


@dataclass(frozen=True)
class Selection:
    """Segments offered to ask about: 0-based rows of the whole run and what chose them, in words."""

    rows: tuple[int, ...]
    said: str


def whole_rows(run: Run, segments: Sequence[int]) -> tuple[int, ...]:
    """The whole run's rows of the shown run's ``segments`` (a slice keeps the rows it was cut from)."""
    return tuple(run.slice.rows[i] if run.slice is not None else i for i in segments)
