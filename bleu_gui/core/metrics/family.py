"""What the registry and the command line know of a metric before any of it is scored: a family (its name,
its settings class, the module that computes it) and the protocol every family's settings follow. Plain Python:
``bleu-score --help`` builds its parser from the families without loading numpy or any metric's arithmetic, which
load with the metric's module when a family is first scored (:meth:`Family.bind`). Settings give :class:`Advice` where
sacreBLEU recommends others for the references at hand."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .base import Metric, Progress


@dataclass(frozen=True)
class Advice:
    """Advice that would change a number: why (``text``), what following it does (``action``, as a button says
    it) and the metric's settings that follow it (``config``)."""

    text: str
    action: str
    config: Any


class MetricConfig(Protocol):
    """A metric's settings: everything that changes its number (a family's :class:`~.settings.MetricSettings`, or
    an imported column's)."""

    @property
    def key(self) -> str:
        """The metric on the command line: ``bleu``, ``chrf``, ``ter``, ``edit``, or an imported column's name."""

    def validated(self) -> MetricConfig:
        """These settings, checked (raise :class:`~..errors.ConfigError`) and normalised."""

    def for_other_files(self) -> MetricConfig:
        """These settings for files other than those they were chosen for (see ``MetricSettings``)."""

    def for_target_language(self, languages: tuple[str, str] | None, declared: str = "") -> tuple[MetricConfig, str]:
        """The settings the declared languages choose, and a note saying so ('' when nothing)."""

    def for_test_set(self, test_set: tuple[str, str] | None) -> MetricConfig:
        """The settings for a run read from a test set by name (the signature names it)."""

    def advice(self, references: Sequence[Sequence[str]], language: str) -> Advice | None:
        """What sacreBLEU recommends for these references instead of these settings."""

    def beside(self, metrics: Sequence[MetricConfig]) -> MetricConfig:
        """These settings as the run's other metrics complete them."""

    def notice(self) -> str:
        """What the user must know before these settings are scored ('' for nothing)."""

    def non_default(self) -> list[str]:
        """A label for every setting that is not its default."""

    @property
    def significance(self) -> bool:
        """Whether sacreBLEU's paired tests and confidence intervals apply."""

    def why_no_tests(self) -> str:
        """Why they do not, for a message."""

    def to_dict(self) -> dict[str, Any]:
        """The settings' JSON form."""


@dataclass(frozen=True)
class Family:
    """A metric family as the registry holds it: its name on the command line (``key``), its title, its settings
    class, the module that holds the metric (``module``, under ``core/metrics``: it defines ``bind(config,
    references, progress, like)``), whether its settings' names on the command line start with its key (``chrf``
    word order; BLEU's are sacreBLEU's plain ones), what its settings group says, whether the window always
    scores it (BLEU: its n-gram evidence, what-if edits, n-gram wins), and how costly it is to score (``cost``:
    0 for BLEU, the edit distance and read scores, 1 for chrF, 2 for TER, 3 for COMET — the window shows each metric's numbers
    as soon as they are ready, the cheapest first).

    The metric's module is imported when the family is first scored: a command that scores BLEU alone does not
    load chrF's n-gram counting or TER's shift search (about 15 ms at every start)."""

    key: str
    title: str
    config: type[Any]
    module: str
    prefixed: bool = True
    about: str = ""
    always_in_window: bool = False
    cost: int = 0
    reads_source: bool = False  # the metric reads the source segments too (COMET): its bind takes ``source``
    # Its work is done by a worker process or an endpoint (COMET, the LLM judge): binding it costs nothing, all of its
    # time is scoring — the progress bar gives its binding no share.
    scored_elsewhere: bool = False
    # Whether the metric compares with a reference (BLEU, chrF, TER, edit distance): a run without references
    # (quality estimation: source and candidate only) leaves it out of its defaults and refuses it by name.
    needs_reference: bool = True

    def bind(self, config: Any, references: Sequence[Sequence[str]], progress: Progress | None = None,
             like: Metric | None = None, source: Sequence[str] | None = None) -> Metric:
        """The metric with the settings ``config`` against ``references`` (processed now); ``like``: a metric of
        the family whose work on words may be continued (never changed); ``source``: the source segments, for a
        family that reads them."""
        module = importlib.import_module(f"{__package__}.{self.module}")
        extra = {"source": source} if self.reads_source else {}
        metric: Metric = module.bind(config, references, progress, like, **extra)
        return metric
