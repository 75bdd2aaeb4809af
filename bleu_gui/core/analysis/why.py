"""The account of one segment's number under chrF or TER, from the metric's evidence (BLEU's own account is
:mod:`.explain`, fed by the run's statistics row)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..metrics.base import Metric
from ..metrics.bleu.explain import Explanation, Section
from ..metrics.chrf.chrf import Chrf
from ..metrics.chrf.evidence import ChrfEvidence
from ..metrics.chrf.explain import explain_chrf
from ..metrics.imported.imported import ImportedEvidence, ImportedMetric
from ..metrics.ter.evidence import TerEvidence
from ..metrics.ter.explain import explain_ter
from ..metrics.ter.ter import Ter


def segment_account(metric: Metric, index: int, hypothesis: str, reference_names: Sequence[str],
                    score: float | None = None) -> tuple[Explanation, ChrfEvidence | TerEvidence | ImportedEvidence]:
    """Why segment ``index`` scores what it does when its candidate is ``hypothesis``: the plain-language account
    and the evidence it is drawn from (its ``to_dict()`` is ``--explain N -m chrf|ter -f json``). ``score``: the
    segment's score, for a metric whose scores are read from a file (they cannot be worked out here)."""
    def name(k: int) -> str:
        return reference_names[k] if k < len(reference_names) else f"reference {k + 1}"

    if isinstance(metric, Chrf):
        chrf = metric.evidence(index, hypothesis)
        return explain_chrf(chrf, metric.config, len(metric.reference_lines), name(chrf.reference)), chrf
    if isinstance(metric, Ter):
        ter = metric.evidence(index, hypothesis)
        return explain_ter(ter, metric.config, len(metric.reference_lines), name(ter.reference)), ter
    if isinstance(metric, ImportedMetric):
        value = None if score is None or math.isnan(score) else float(score)
        evidence = ImportedEvidence(metric.name, value, metric.config.source)
        said = "missing (left out of the mean)" if value is None else f"{value:g}"
        return Explanation(f"{metric.name} {said}: read from {metric.config.source}", [Section(
            "Where it comes from", [f"column {metric.name} of {metric.config.source}, for this system and segment",
                                    "not computed from the text: an edit of the candidate does not change it",
                                    f"the corpus score is the mean of the segments' scores "
                                    f"({'higher' if metric.higher_is_better else 'lower'} is better)"])]), evidence
    raise ValueError(f"no account of {metric.name} here (BLEU's is explain_sentence)")
