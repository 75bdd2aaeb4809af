"""The account of one segment's number under chrF or TER, from the metric's evidence (BLEU's own account is
:mod:`.explain`, fed by the run's statistics row)."""

from __future__ import annotations

from collections.abc import Sequence

from ..metrics.base import Metric
from ..metrics.chrf import Chrf
from ..metrics.chrf_evidence import ChrfEvidence
from ..metrics.ter import Ter
from ..metrics.ter_evidence import TerEvidence
from .explain import Explanation
from .explain_chrf import explain_chrf
from .explain_ter import explain_ter


def segment_account(metric: Metric, index: int, hypothesis: str,
                    reference_names: Sequence[str]) -> tuple[Explanation, ChrfEvidence | TerEvidence]:
    """Why segment ``index`` scores what it does when its candidate is ``hypothesis``: the plain-language account
    and the evidence it is drawn from (its ``to_dict()`` is ``--explain N -m chrf|ter -f json``)."""
    def name(k: int) -> str:
        return reference_names[k] if k < len(reference_names) else f"reference {k + 1}"

    if isinstance(metric, Chrf):
        chrf = metric.evidence(index, hypothesis)
        return explain_chrf(chrf, metric.config, len(metric.reference_lines), name(chrf.reference)), chrf
    if isinstance(metric, Ter):
        ter = metric.evidence(index, hypothesis)
        return explain_ter(ter, metric.config, len(metric.reference_lines), name(ter.reference)), ter
    raise ValueError(f"no account of {metric.name} here (BLEU's is explain_sentence)")
