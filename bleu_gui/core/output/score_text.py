"""Text, JSON and Moses multi-bleu renderings of scores (used by the command line and exports)."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from ..metrics.base import Score
from ..metrics.scores import BleuScore


def text_line(score: Score, width: int = 2, confidence: tuple[float, float] | None = None) -> str:
    """sacreBLEU's line for ``score``: its metric, signature and number, and what the number is made of."""
    return score.text(width, confidence)


def multi_bleu_line(score: BleuScore) -> str:
    """Moses' multi-bleu.perl line: ``BLEU = 7.08, 28.6/11.0/4.4/1.8 (BP=1.000, ratio=1.005, hyp_len=2127, ref_len=2117)``."""
    precisions = "/".join(f"{p:.1f}" for p in score.precisions)
    return (f"BLEU = {score.score:.2f}, {precisions} (BP={score.bp:.3f}, ratio={score.ratio:.3f}, "
            f"hyp_len={score.sys_len:d}, ref_len={score.ref_len:d})")


def score_dict(score: Score, system: str | None = None) -> dict[str, Any]:
    """Unrounded fields of a score: ``system``, ``metric`` (sacreBLEU's name), ``score`` (NaN becomes null), the
    metric's own fields, ``signature``, and ``notes`` when there are any."""
    d: dict[str, Any] = {} if system is None else {"system": system}
    d.update({"metric": score.metric, "score": None if math.isnan(score.score) else score.score})
    d.update(score.fields())
    d["signature"] = score.signature
    if score.notes:
        d["notes"] = list(score.notes)
    return d


def dumps(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=1)


UNDEFINED = "n/a"


def score_text(value: float | None, width: int = 2) -> str:
    """A score for display: ``31.12``, or ``n/a`` where the variant gives no number (NaN or None)."""
    if value is None or math.isnan(value):
        return UNDEFINED
    return f"{value:.{width}f}"


def delta_text(value: float | None, width: int = 2) -> str:
    """A difference for display, always signed: ``+1.20``, ``-0.35``, or ``n/a``."""
    if value is None or math.isnan(value):
        return UNDEFINED
    return f"{value:+.{width}f}"


def score_only(score: Score, width: int = 2) -> str:
    return score_text(score.score, width)


def render(scores: Sequence[Score], fmt: str, width: int = 2) -> list[str]:
    """Lines for several scores in ``text`` or (BLEU only) ``multi-bleu`` format."""
    if fmt == "multi-bleu":
        return [multi_bleu_line(s) for s in scores if isinstance(s, BleuScore)]
    return [text_line(s, width) for s in scores]


IDENTICAL = "identical to baseline"
IDENTICAL_NOTE = ("identical to the baseline, line for line: ΔBLEU is 0, and the p-value that sacreBLEU's formula "
                  "gives it (1/(n+1), shown as sacreBLEU shows it) says nothing, so it is never starred")


def p_text(p: float | None, identical: bool = False, alpha: float = 0.05) -> str:
    """A p-value for display: ``0.0123*`` (* for p ≤ alpha, never for a system identical to the baseline)."""
    if p is None:
        return "–"
    return f"{p:.4f}" + ("*" if p <= alpha and not identical else "")


def paired_table(rows: list[tuple[str, float, float | None, float | None, float | None, bool]], width: int,
                 bootstrap: bool) -> str:
    """The system table of ``sacrebleu --paired-bs/--paired-ar`` (fancy grid, p-values under the scores).

    ``rows``: (system, score, p_value, mean, ci, identical to the baseline), baseline first.
    """
    from tabulate import tabulate

    cells = []
    for _name, score, p, mean, ci, identical in rows:
        text = f"{score:.{width}f}"
        if mean is not None:
            text += f" ({mean:.{width}f} ± {ci:.{width}f})"
        if p is not None:
            text += f"\n(p = {p_text(p, identical)})" + (f"\n{IDENTICAL}" if identical else "")
        cells.append(text)
    header = "BLEU (μ ± 95% CI)" if bootstrap else "BLEU"
    return tabulate({"System": [r[0] for r in rows], header: cells}, headers="keys", tablefmt="fancy_grid",
                    colalign=("right",), stralign="center", numalign="center")
