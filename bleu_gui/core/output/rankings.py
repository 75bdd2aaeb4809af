"""The systems table and the pairwise matrix as the command line, the window and the exports write them.

One row per system (:func:`system_rows`) and one object per pair (:func:`pair_rows`);
text, JSON, CSV and LaTeX are renderings of those, so every output says the same.
Each is of one metric of the run (``metric``: its index, the first by default).
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..analysis.pair_matrix import DEFAULT_ALPHA, TEST_NAMES, PairMatrix
from ..errors import ExportError
from ..json_text import strict_dumps
from ..run import Run
from ..text_tables import latex_escape
from .score_text import NO_SCORES, delta_text, score_text


@dataclass(frozen=True)
class Ranking:
    """How ranks and p-values are read: the significance level and the multiple-comparison correction."""

    alpha: float = DEFAULT_ALPHA
    correction: str = "none"   # "none" | "holm"

    def describe(self, matrix: PairMatrix | None) -> str:
        if matrix is None or matrix.rank_test is None:
            return "no significance tests: no ranks"
        corr = "Holm-corrected" if self.correction == "holm" else "uncorrected"
        return (f"ranks: {TEST_NAMES[matrix.rank_test]} p-values ({corr}), α = {self.alpha:g}; a system opens "
                "a new rank when it is significantly worse than any system of the current rank")


@dataclass(frozen=True)
class SystemRow:
    """One system of the systems table (index in the run's order)."""

    index: int
    name: str
    score: float
    delta: float | None          # to the baseline (None for the baseline)
    p_bs: float | None           # against the baseline, under the ranking's correction
    p_ar: float | None
    rank: int | None
    wins: int | None             # sentences where this system beats the baseline
    ties: int | None
    losses: int | None
    sign_p: float | None
    identical: bool
    no_p: str | None = None       # why there is no p-value against the baseline (a system with no scores, ...)
    tested_on: int | None = None  # segments the tests against the baseline used, where not every segment


def system_rows(run: Run, ranking: Ranking = Ranking(), metric: int = 0) -> list[SystemRow]:
    """The systems table in the run's order: score, Δ and p-values against the baseline, rank, win/tie/loss."""
    c = run.comparison
    by = c.by_metric[metric] if c is not None else None
    matrix = by.matrix if by is not None else None
    ranks = matrix.ranks(ranking.alpha, ranking.correction) if matrix is not None else None
    p = {t: matrix.p(t, ranking.correction) if matrix is not None else None for t in ("bs", "ar")}
    base = run.baseline
    rows = []
    for i, s in enumerate(run.systems):
        wins = ties = losses = None
        sign = None
        if i > 0 and by is not None:
            pair = by.pairwise[i - 1]
            (wins, ties, losses), sign = pair.sentences, pair.sign_p
        p_bs, p_ar = (None if m is None or i == 0 else _num(m[0, i]) for m in (p["bs"], p["ar"]))
        score, base_score = s.results[metric].corpus.score, base.results[metric].corpus.score
        no_p = matrix.reason(0, i) if matrix is not None and i > 0 else None
        tested_on = matrix.tested_on(0, i) if matrix is not None and i > 0 else None
        rows.append(SystemRow(i, s.name, score, None if i == 0 else _num(score - base_score),
                              p_bs, p_ar, ranks[i] if ranks else None, wins, ties, losses, sign,
                              bool(c.identical[i]) if c is not None and c.identical else False, no_p, tested_on))
    return rows


def _num(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


def pair_rows(matrix: PairMatrix, ranking: Ranking = Ranking()) -> list[dict[str, Any]]:
    """Every pair once, best system first: ``a`` ranks above ``b`` and ``delta`` = score(a) − score(b) (≥ 0 where
    higher is better)."""
    order = matrix.by_score()
    p = {t: matrix.p(t, ranking.correction) for t in ("bs", "ar")}
    out = []
    for x, i in enumerate(order):
        for j in order[x + 1:]:
            row: dict[str, Any] = {"a": matrix.names[i], "b": matrix.names[j],
                                   "delta": _num(float(matrix.scores[i] - matrix.scores[j]))}
            for t in ("bs", "ar"):
                m = p[t]
                row[f"p_{t}"] = None if m is None else _num(m[i, j])
                why = matrix.reason(i, j, t) if m is not None else None
                if why is not None:
                    row[f"why_no_p_{t}"] = why
            interval = matrix.interval(j, i)
            if interval is not None:
                row["ci_low"], row["ci_high"] = interval
            if matrix.tested_on(i, j) is not None:
                row["tested_on"] = matrix.tested_on(i, j)
            out.append(row)
    return out


def matrix_json(run: Run, ranking: Ranking = Ranking(), metric: int = 0) -> str:
    """``--all-pairs --format json``: systems best first, every pair, ranks, α and the correction, unrounded."""
    matrix = _matrix(run, metric)
    order = matrix.by_score()
    ranks = matrix.ranks(ranking.alpha, ranking.correction) or []
    obj = {
        "metric": run.metrics[metric].name,
        "systems": [matrix.names[i] for i in order],
        "scores": {matrix.names[i]: _num(float(matrix.scores[i])) for i in order},
        "pairs": pair_rows(matrix, ranking),
        "ranks": {matrix.names[i]: ranks[i] for i in order},
        "unranked": {matrix.names[i]: "no scores" for i in order if not matrix.scored(i)},
        "alpha": ranking.alpha,
        "correction": ranking.correction,
        "rank_test": matrix.rank_test,
        "bootstrap_resamples": matrix.bs_samples,
        "ar_trials": matrix.ar_trials,
        "seed": matrix.seed,
        "signature": run.metrics[metric].signature(),
    }
    return strict_dumps(obj)


def _matrix(run: Run, metric: int) -> PairMatrix:
    matrix = run.comparison.by_metric[metric].matrix if run.comparison is not None else None
    if matrix is None:
        raise ValueError("this run has no pairwise tests")
    return matrix


def matrix_text(run: Run, ranking: Ranking = Ranking(), width: int = 2, metric: int = 0) -> str:
    """The ranks table and a p-value matrix: AR above the diagonal, bootstrap below, best system first."""
    width = max(width, run.metrics[metric].decimals)
    matrix = _matrix(run, metric)
    order = matrix.by_score()
    ranks: list[int | None] = matrix.ranks(ranking.alpha, ranking.correction) or [0] * matrix.size
    name_w = max(len(n) for n in matrix.names)
    score_w = max(width + 4, len(NO_SCORES))
    lines = [f"{'#':>3}  {'rank':>4}  {'system':<{name_w}}  {run.metrics[metric].name:>{score_w}}"]
    previous = None
    for k, i in enumerate(order):
        if previous is not None and ranks[i] != previous:
            lines.append(" " * 5 + "-" * (name_w + score_w + 8))  # a cluster ends
        previous = ranks[i]
        score = score_text(matrix.scores[i], width) if matrix.scored(i) else NO_SCORES
        rank = "–" if ranks[i] is None else str(ranks[i])
        lines.append(f"{k + 1:>3}  {rank:>4}  {matrix.names[i]:<{name_w}}  {score:>{score_w}}")
    p_bs, p_ar = matrix.p("bs", ranking.correction), matrix.p("ar", ranking.correction)
    starred = {id(m): matrix.apart(m, ranking.alpha) for m in (p_bs, p_ar) if m is not None}
    cell = 9
    lines += ["", "p-values, best system first: " + ("paired AR above the diagonal" if p_ar is not None else "")
              + (", " if p_ar is not None and p_bs is not None else "")
              + ("paired bootstrap below" if p_bs is not None else "") + "; * marks p ≤ α",
              "    " + "".join(f"{k + 1:>{cell}}" for k in range(len(order)))]
    for r, i in enumerate(order):
        cells = []
        for c, j in enumerate(order):
            m = p_ar if c > r else (p_bs if c < r else None)
            if m is None:
                cells.append(f"{'·' if c == r else '':>{cell}}")
            elif math.isnan(float(m[i, j])):
                cells.append(f"{'–':>{cell - 1}} ")
            else:
                star = "*" if starred[id(m)][i, j] else " "
                cells.append(f"{float(m[i, j]):.4f}{star}".rjust(cell))
        lines.append(f"{r + 1:>3} " + "".join(cells))
    lines += ["", ranking.describe(matrix), *_gap_lines(matrix), f"signature: {run.metrics[metric].signature()}"]
    return "\n".join(lines)


def _gap_lines(matrix: PairMatrix) -> list[str]:
    """What the missing scores did to the tests, in words: systems left out of the ranking, pairs with no
    p-value and why (– in the matrix), and the segments each pair was tested on."""
    out = [f"{name}: no scores, so no rank and no p-value" for i, name in enumerate(matrix.names)
           if not matrix.scored(i)]
    scored = [i for i in range(matrix.size) if matrix.scored(i)]
    for x, i in enumerate(scored):
        for j in scored[x + 1:]:
            for t in matrix.tests:
                why = matrix.reason(i, j, t)
                if why is not None:
                    out.append(f"{matrix.names[i]} – {matrix.names[j]}: no {TEST_NAMES[t]} p-value: {why}")
    if matrix.common is not None:
        counts = sorted({int(matrix.common[i, j]) for x, i in enumerate(scored) for j in scored[x + 1:]} - {0})
        if counts:
            span = f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,} to {counts[-1]:,}"
            out.append(f"segments without a score are left out: each pair is tested on the segments both systems "
                       f"scored ({span})")
    return out


def _p_cell(p: float | None, significant: bool) -> str:
    if p is None or math.isnan(p):
        return "--"
    return f"\\textbf{{{p:.4f}}}" if significant else f"{p:.4f}"


def _starred(p: float | None, row: SystemRow, ranking: Ranking) -> bool:
    return p is not None and p <= ranking.alpha and not row.identical and row.delta != 0


def systems_latex(run: Run, ranking: Ranking = Ranking(), width: int = 2, metric: int = 0) -> str:
    """The systems table for a paper: booktabs, best system first, a rule between significance clusters."""
    width = max(width, run.metrics[metric].decimals)
    sign = -1.0 if run.metrics[metric].higher_is_better else 1.0
    rows = sorted(system_rows(run, ranking, metric), key=lambda r: (math.isnan(r.score), sign * r.score
                                                                    if not math.isnan(r.score) else 0.0))
    has_p = any(r.p_bs is not None or r.p_ar is not None for r in rows)
    has_rank = any(r.rank is not None for r in rows)
    head = (["Rank"] if has_rank else []) + ["System", latex_escape(run.metrics[metric].name)] + (
        [r"$\Delta$", r"$p_{\mathrm{bs}}$", r"$p_{\mathrm{ar}}$"] if has_p else [])
    spec = ("r" if has_rank else "") + "l" + "r" * (len(head) - 1 - has_rank)
    lines = [r"% " + run.metrics[metric].signature(), r"\begin{tabular}{" + spec + "}", r"\toprule",
             " & ".join(head) + r" \\", r"\midrule"]
    previous = None
    for r in rows:
        if has_rank and previous is not None and r.rank != previous:
            lines.append(r"\midrule")
        previous = r.rank
        name = latex_escape(r.name) + (" (baseline)" if r.index == 0 and has_p else "")
        cells = ([str(r.rank) if r.rank is not None else "--"] if has_rank else []) + [
            name, score_text(r.score, width) if not math.isnan(r.score) else NO_SCORES]
        if has_p:
            cells += ["--" if r.delta is None else delta_text(r.delta, width).replace("−", "-"),
                      _p_cell(r.p_bs, _starred(r.p_bs, r, ranking)), _p_cell(r.p_ar, _starred(r.p_ar, r, ranking))]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    if has_rank:
        lines.append("% " + ranking.describe(_matrix(run, metric)))
    return "\n".join(lines)


def matrix_latex(run: Run, ranking: Ranking = Ranking(), metric: int = 0) -> str:
    """``--all-pairs --format latex``: the systems table with clusters, then the p-value matrix."""
    matrix = _matrix(run, metric)
    order = matrix.by_score()
    p_bs, p_ar = matrix.p("bs", ranking.correction), matrix.p("ar", ranking.correction)
    bold = {id(m): matrix.apart(m, ranking.alpha) for m in (p_bs, p_ar) if m is not None}
    n = len(order)
    lines = [systems_latex(run, ranking, metric=metric), "",
             "% p-values, best system first: AR above the diagonal, bootstrap below; bold: p <= alpha",
             r"\begin{tabular}{l" + "r" * n + "}", r"\toprule",
             " & " + " & ".join(str(k + 1) for k in range(n)) + r" \\", r"\midrule"]
    for r, i in enumerate(order):
        cells = [f"{r + 1} {latex_escape(matrix.names[i])}"]
        for c, j in enumerate(order):
            m = p_ar if c > r else (p_bs if c < r else None)
            cells.append("--" if m is None else _p_cell(float(m[i, j]), bool(bold[id(m)][i, j])))
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines)


def _fields(key: str) -> list[str]:
    """The systems table's columns; the score's is named for the metric's family (``bleu``, ``chrf``, ``ter``)."""
    return ["rank", "system", key, "delta", "p_bs", "p_ar", "wins", "ties", "losses", "sign_p", "identical",
            "why_no_p", "tested_on"]


def _row_dict(r: SystemRow, key: str) -> dict[str, Any]:
    return {"rank": r.rank, "system": r.name, key: _num(r.score), "delta": r.delta, "p_bs": r.p_bs, "p_ar": r.p_ar,
            "wins": r.wins, "ties": r.ties, "losses": r.losses, "sign_p": r.sign_p, "identical": r.identical,
            "why_no_p": r.no_p, "tested_on": r.tested_on}


def _matrix_or_none(run: Run, metric: int) -> PairMatrix | None:
    return run.comparison.by_metric[metric].matrix if run.comparison is not None else None


def systems_json(run: Run, ranking: Ranking = Ranking(), metric: int = 0) -> str:
    matrix = _matrix_or_none(run, metric)
    key = run.metrics[metric].key
    obj = {"metric": run.metrics[metric].name,
           "systems": [_row_dict(r, key) for r in system_rows(run, ranking, metric)], "baseline": run.baseline.name,
           "alpha": ranking.alpha, "correction": ranking.correction,
           "rank_test": matrix.rank_test if matrix is not None else None,
           "signature": run.metrics[metric].signature()}
    return strict_dumps(obj)


def systems_csv(run: Run, ranking: Ranking = Ranking(), metric: int = 0) -> str:
    out = io.StringIO()
    matrix = _matrix_or_none(run, metric)
    key = run.metrics[metric].key
    out.write(f"# {run.metrics[metric].name} {run.metrics[metric].signature()}; baseline {run.baseline.name}; "
              f"{ranking.describe(matrix)}\n")
    writer = csv.DictWriter(out, _fields(key), lineterminator="\n")
    writer.writeheader()
    for r in system_rows(run, ranking, metric):
        writer.writerow({k: ("" if v is None else v) for k, v in _row_dict(r, key).items()})
    return out.getvalue()


def systems_workbook(run: Run, ranking: Ranking = Ranking()) -> bytes:
    """Every metric's systems table and its pairs (each pair once, with both p-values and the interval of Δ) as an
    Excel workbook: a sheet per table, an *about* sheet with the signatures and how ranks were made."""
    from .workbook import workbook_bytes

    sheets: list[tuple[str, list[str], list[list[object]]]] = []
    about = [("baseline", run.baseline.name)]
    for k, metric in enumerate(run.metrics):
        fields = _fields(metric.key)
        rows = [[_row_dict(r, metric.key)[f] for f in fields] for r in system_rows(run, ranking, k)]
        sheets.append((f"systems {metric.name}", fields, rows))
        matrix = _matrix_or_none(run, k)
        if matrix is not None:
            pairs = pair_rows(matrix, ranking)
            columns = list(dict.fromkeys(c for row in pairs for c in row))
            sheets.append((f"pairs {metric.name}", columns, [[row.get(c) for c in columns] for row in pairs]))
        about += [("metric", f"{metric.name}: {metric.signature()}"), ("ranks", ranking.describe(matrix))]
    return workbook_bytes(sheets, about)


TABLE_SUFFIXES = (".csv", ".json", ".tex", ".xlsx")


def systems_table_file(run: Run, path: str | Path, ranking: Ranking = Ranking(), metric: int = 0) -> str | bytes:
    """The systems table in the format the file name asks for: ``.csv``, ``.json``, ``.tex``, or ``.xlsx`` (every
    metric's table and pairs)."""
    suffix = Path(path).suffix.lower()
    if suffix not in TABLE_SUFFIXES:
        raise ExportError(f"{path}: the systems table is written as .csv, .json, .tex or .xlsx, not "
                          f"{suffix or 'no suffix'}")
    if suffix == ".xlsx":
        return systems_workbook(run, ranking)
    if suffix == ".csv":
        return systems_csv(run, ranking, metric)
    if suffix == ".json":
        return systems_json(run, ranking, metric)
    return systems_latex(run, ranking, metric=metric) + "\n"
