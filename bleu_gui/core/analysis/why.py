"""The account of one segment's number under chrF or TER, from the metric's evidence (BLEU's own account is
:mod:`.explain`, fed by the run's statistics row)."""

from __future__ import annotations

from collections.abc import Sequence

from ..metrics.base import Metric
from ..metrics.chrf import Chrf
from ..metrics.ter import Ter
from .explain import Explanation
from .explain_chrf import explain_chrf
from .explain_ter import explain_ter


def segment_account(metric: Metric, index: int, hypothesis: str,
                    reference_names: Sequence[str]) -> tuple[Explanation, dict[str, object]]:
    """Why segment ``index`` scores what it does when its candidate is ``hypothesis``: the plain-language account
    and the evidence as JSON (``--explain N -m chrf|ter -f json``)."""
    if isinstance(metric, Chrf):
        chrf = metric.evidence(index, hypothesis)
        name = reference_names[chrf.reference] if chrf.reference < len(reference_names) else f"reference {chrf.reference + 1}"
        return explain_chrf(chrf, metric.config, len(metric.reference_lines), name), chrf.to_dict()
    if isinstance(metric, Ter):
        ter = metric.evidence(index, hypothesis)
        name = reference_names[ter.reference] if ter.reference < len(reference_names) else f"reference {ter.reference + 1}"
        return explain_ter(ter, metric.config, len(metric.reference_lines), name), ter.to_dict()
    raise ValueError(f"no account of {metric.name} here (BLEU's is explain_sentence)")
