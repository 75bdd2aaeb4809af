"""A run that nothing scores yet: source and machine translation alone (a bilingual XLIFF, a PO catalogue, a table,
``-i mt.txt --src source.txt``) with no metric that reads no reference chosen. The translator's usual case: QA, the
review desk, lengths, tags, the scorecard and triage by QA need no score, so the run opens with this stand-in in the
metrics' place — every segment unscored, said plainly with what could score it — and the first metric chosen
replaces it. Not a metric one names (``-m``): it is what the run holds when none is named."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...errors import term
from ..family import Family
from ..settings import MetricSettings

TITLE = "Not scored yet"
# What could score a run without references, in the settings' fields (each front end words them its own way).
WHAT_COULD = (f"a quality-estimation checkpoint of COMET's (CometKiwi, xCOMET: {term('comet.model')}), an LLM judge "
              f"({term('llm.endpoint')}), a file of segment scores such as QE scores ({term('scores')}), or a human "
              f"review, yours or your raters' ({term('annotations')})")


@dataclass(frozen=True)
class UnscoredConfig(MetricSettings):
    """The stand-in's settings: none."""

    key: ClassVar[str] = "unscored"
    badge: ClassVar[str] = "Not scored"

    def validated(self) -> UnscoredConfig:
        return self

    @property
    def significance(self) -> bool:
        return False

    def why_no_tests(self) -> str:
        return "nothing is scored yet"


FAMILY = Family("unscored", TITLE, UnscoredConfig, "unscored.metric", needs_reference=False, reads_source=True,
                about=f"Nothing scores this run yet; what could: {WHAT_COULD}")
