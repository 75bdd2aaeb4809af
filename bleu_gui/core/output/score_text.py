"""Text, JSON and Moses multi-bleu renderings of scores (used by the command line and exports)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..json_text import strict_dumps
from ..metrics.base import Score
from ..metrics.bleu.scores import BleuScore, bleu_scores


def text_line(score: Score, width: int = 2, confidence: tuple[float, float] | None = None) -> str:
    """sacreBLEU's line for ``score``: its metric, signature and number, and what the number is made of."""
    return score.text(width, confidence)


def aligned(lines: list[str]) -> list[str]:
    """Several metrics' lines aligned on their `` = `` as sacreBLEU prints them (one line stays as it is)."""
    if len(lines) < 2:
        return lines
    cut = [line.find(" = ") for line in lines]
    width = max(cut)
    return [line[:c].rjust(width) + line[c:] if c >= 0 else line for line, c in zip(lines, cut)]


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
    """Strict JSON (a missing number is null; see :mod:`..json_text`)."""
    return strict_dumps(obj)


UNDEFINED = "n/a"
NO_SCORES = "no scores"  # a system whose imported scores are all missing


def score_text(value: float | None, width: int = 2) -> str:
    """A score for display: ``31.12``, or ``n/a`` where the variant gives no number (NaN or None)."""
    if value is None or math.isnan(value):
        return UNDEFINED
    return f"{value + 0.0:.{width}f}"  # + 0.0: a score of -0.0 (an MQM score) shows as 0.00


def delta_text(value: float | None, width: int = 2) -> str:
    """A difference for display, signed: ``+1.20``, ``-0.35``; ``0.00`` when it rounds to zero (never ``-0.00``);
    or ``n/a``."""
    if value is None or math.isnan(value):
        return UNDEFINED
    if round(value, width) == 0:
        return f"{0.0:.{width}f}"
    return f"{value:+.{width}f}"


def score_only(score: Score, width: int = 2) -> str:
    return score_text(score.score, max(width, score.decimals))


def render(scores: Sequence[Score], fmt: str, width: int = 2) -> list[str]:
    """Lines for several scores in ``text`` or (BLEU only) ``multi-bleu`` format."""
    if fmt == "multi-bleu":
        return [multi_bleu_line(s) for s in bleu_scores(scores)]
    return [text_line(s, width) for s in scores]


IDENTICAL = "identical to baseline"
IDENTICAL_NOTE = ("identical to the baseline, line for line: ΔBLEU is 0, and the p-value that sacreBLEU's formula "
                  "gives it (1/(n+1), shown as sacreBLEU shows it) says nothing, so it is never starred")


def p_text(p: float | None, identical: bool = False, alpha: float = 0.05) -> str:
    """A p-value for display: ``0.0123*`` (* for p ≤ alpha, never for a system identical to the baseline)."""
    if p is None:
        return "–"
    return f"{p:.4f}" + ("*" if p <= alpha and not identical else "")


def paired_table(metrics: Sequence[str],
                 rows: list[tuple[str, list[tuple[float, float | None, float | None, float | None, bool]], bool]],
                 widths: Sequence[int], bootstrap: bool) -> str:
    """The system table of ``sacrebleu --paired-bs/--paired-ar`` (fancy grid, one column per metric, p-values under
    the scores); ``widths``: each metric's decimals.

    ``rows``: (system, per metric (score, p_value, mean, ci, whether a small p may be starred), identical to the
    baseline), baseline first. A p-value is starred at 0.05 only where the two systems score differently on the
    segments they were tested on.
    """
    from tabulate import tabulate

    columns: dict[str, list[str]] = {"System": [r[0] for r in rows]}
    for k, metric in enumerate(metrics):
        cells, width = [], widths[k]
        for _name, per_metric, identical in rows:
            score, p, mean, ci, may_star = per_metric[k]
            text = NO_SCORES if math.isnan(score) else f"{score:.{width}f}"
            if mean is not None:
                text += f" ({mean:.{width}f} ± {ci:.{width}f})"
            if p is not None:
                text += f"\n(p = {p_text(p, identical or not may_star)})" + (f"\n{IDENTICAL}" if identical else "")
            cells.append(text)
        columns[f"{metric} (μ ± 95% CI)" if bootstrap else metric] = cells
    return tabulate(columns, headers="keys", tablefmt="fancy_grid", colalign=("right",), stralign="center",
                    numalign="center")
