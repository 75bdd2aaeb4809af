"""A self-contained HTML report: corpus table, signature, significance, charts and highlighted sentences.

One file with inline CSS and inline SVG charts; it references nothing outside
itself, reads well in a browser and prints well. Highlighting uses the same
statuses and colours as the window: unigrams of the candidate are matched,
clipped (orange, wavy underline) or unmatched; reference words the candidate
matched are green.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

import numpy as np

from ... import __version__
from .. import palette
from ..analysis.pair_matrix import PairMatrix
from ..analysis.significance import SystemTest
from ..metrics.bleu.details import ALL_ORDERS, CLIPPED, MATCHED, UNMATCHED, SentenceDetails, token_statuses
from ..metrics.bleu.scores import BleuScore, bleu_score
from ..run import Run, ScoredSystem
from . import svg
from .rankings import Ranking
from .score_text import IDENTICAL, IDENTICAL_NOTE, NO_SCORES, delta_text, p_text, score_text

MAX_FULL = 3000
_CLASS = {MATCHED: "m", CLIPPED: "c", UNMATCHED: "u"}
# SVG namespace declarations are not needed inside HTML; dropping them keeps the file free of any URL.
_XMLNS = re.compile(r'\s+xmlns="[^"]*"')

CSS = f"""
body{{font-family:"DejaVu Sans",Arial,sans-serif;margin:24px auto;max-width:1180px;color:{palette.INK};line-height:1.45}}
h1{{font-size:24px;margin:0 0 4px}}h2{{font-size:18px;margin:28px 0 8px;border-bottom:1px solid {palette.RULE}}}
.meta,.note{{color:{palette.NOTE};font-size:13px}}.sig{{font-family:monospace;font-size:12px;color:{palette.TITLE};word-break:break-all}}
table{{border-collapse:collapse;font-size:13px;margin:6px 0}}th,td{{border:1px solid {palette.RULE};padding:3px 7px}}
th{{background:{palette.HEADER_BG}}}td.n{{text-align:right;font-variant-numeric:tabular-nums}}
.charts{{display:flex;flex-wrap:wrap;gap:10px}}.charts svg{{border:1px solid {palette.FRAME}}}
.legend span{{margin-right:10px;padding:1px 6px;border-radius:3px;font-size:13px}}
.sent{{border:1px solid {palette.RULE};border-radius:4px;padding:6px 10px;margin:8px 0;page-break-inside:avoid}}
.sent h3{{font-size:13px;margin:0 0 4px;color:{palette.TITLE};font-weight:600}}
.line{{margin:2px 0}}.who{{display:inline-block;min-width:92px;color:{palette.MUTED};font-size:12px}}
.m{{background:{palette.MATCHED}}}.c{{background:{palette.CLIPPED};text-decoration:underline wavy {palette.CLIPPED_LINE}}}
.u{{background:{palette.UNMATCHED}}}
.r{{background:{palette.MATCHED}}}.star{{color:{palette.STAR};font-weight:bold}}
@media print{{body{{margin:0;max-width:none}}.charts svg{{border:none}}h2{{page-break-after:avoid}}
.m,.c,.u,.r{{-webkit-print-color-adjust:exact;print-color-adjust:exact}}}}
"""


def _inline(svg_text: str) -> str:
    return _XMLNS.sub("", svg_text, count=1)


def highlight(text: str, tokens: Sequence[str], spans: Sequence[tuple[int, int] | None],
              classes: Sequence[str | None]) -> str:
    """HTML of ``text`` with each token's characters wrapped in its class (tokens shown spaced if unplaceable)."""
    if any(s is None for s in spans):
        parts = [f'<span class="{c}">{escape(t)}</span>' if c else escape(t) for t, c in zip(tokens, classes)]
        return " ".join(parts) + ' <span class="note">(tokens)</span>'
    out, pos = [], 0
    for span, cls in zip(spans, classes):
        assert span is not None  # checked above: every token has a place in the text
        start, end = span
        out.append(escape(text[pos:start]))
        piece = escape(text[start:end])
        out.append(f'<span class="{cls}">{piece}</span>' if cls else piece)
        pos = end
    out.append(escape(text[pos:]))
    return "".join(out)


@dataclass(frozen=True)
class ReportView:
    """What a report shows: pairwise sections for the systems ``pairs`` (indices, each against the baseline),
    highlighting at n-gram ``order`` (``ALL_ORDERS`` for all), and ``sentences`` (None: chosen by the report),
    described by ``selection`` ("the 12 sentences of the window's list, filter: …"); the corpus scores of
    every metric of the run are shown."""

    pairs: tuple[int, ...] = (1,)
    order: int = 1
    sentences: tuple[int, ...] | None = None
    selection: str = ""
    ranking: Ranking = Ranking()  # α and correction of the ranks
    metric: int = 0               # the metric whose sentence scores choose, order and label the sentences


def candidate_html(d: SentenceDetails, order: int = 1) -> str:
    classes = [_CLASS[status] if status else None for status, _ in token_statuses(d, order)]
    return highlight(d.hypothesis, d.hyp_tokens, d.hyp_spans, classes)


def reference_html(d: SentenceDetails, r: int, order: int = 1) -> str:
    if not d.ref_present[r]:
        return '<span class="note">(no reference for this sentence)</span>'
    orders = range(1, d.max_order + 1) if order == ALL_ORDERS else [order]
    marked = {t for n in orders for s in d.ref_matches[r].get(n, []) for t in range(s.start, s.end)}
    classes = ["r" if t in marked else None for t in range(len(d.ref_tokens[r]))]
    return highlight(d.references[r], d.ref_tokens[r], d.ref_spans[r], classes)


def _corpus_table(run: Run, metric: int, ranks: Sequence[int | None] | None = None) -> str:
    """One metric's table of corpus scores: the score, against the baseline the tests, then the metric's own
    columns (for BLEU its precisions, BP and lengths)."""
    systems, comparison = run.systems, run.comparison
    by = comparison.by_metric[metric] if comparison is not None else None
    bootstrap, approximate = (by.bootstrap, by.approximate) if by is not None else (None, None)
    identical = comparison.identical if comparison is not None else [False] * len(systems)
    name = run.metrics[metric].name + ("" if run.metrics[metric].higher_is_better else " (lower is better)")
    head = (["Rank"] if ranks else []) + ["System", name]
    head += [] if len(systems) < 2 else ["Δ", "μ ± 95% CI", "p (bootstrap)", "p (AR)"]
    head += [h for h, _ in systems[0].results[metric].corpus.columns()]
    rows = []
    width = max(2, run.metrics[metric].decimals)  # the metric's own decimals (COMET's 4), as the screen shows it
    for i, s in enumerate(systems):
        c = s.results[metric].corpus
        rank = ranks[i] if ranks else None
        cells = ([str(rank) if rank is not None else "–"] if ranks else []) + [
            escape(("baseline: " if i == 0 and len(systems) > 1 else "") + s.name),
            NO_SCORES if c.absent else score_text(c.score, width)]
        if len(systems) >= 2:
            bs = bootstrap[i] if bootstrap else None
            ar = approximate[i] if approximate else None
            cells += ["–" if i == 0 else delta_text(c.score - systems[0].results[metric].corpus.score, width),
                      f"{bs.mean:.{width}f} ± {bs.ci:.{width}f}" if bs and bs.mean is not None else "–",
                      _p(bs.p_value if bs else None, identical[i]), _p(ar.p_value if ar else None, identical[i])]
        cells += [value for _, value in c.columns()]
        name_column = 1 if ranks else 0
        rows.append("<tr>" + "".join(f'<td{"" if j == name_column else " class=n"}>{v}</td>'
                                     for j, v in enumerate(cells)) + "</tr>")
    return ("<table><thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def _matrix_html(matrix: PairMatrix, ranking: Ranking, name: str) -> str:
    """Every pair's p-values, as the screen's matrix and the workbook's pairs: systems best first, paired
    approximate randomization above the diagonal, paired bootstrap below (corrected as the ranking says), * where the
    pair is apart at α."""
    order = matrix.by_score()
    p_bs, p_ar = matrix.p("bs", ranking.correction), matrix.p("ar", ranking.correction)
    apart = {id(m): matrix.apart(m, ranking.alpha) for m in (p_bs, p_ar) if m is not None}
    head = "".join(f"<th>{k + 1}</th>" for k in range(len(order)))
    rows = []
    for r, i in enumerate(order):
        cells = []
        for c, j in enumerate(order):
            m = p_ar if c > r else (p_bs if c < r else None)
            if c == r:
                cells.append("<td class=n>·</td>")
            elif m is None or math.isnan(float(m[i, j])):
                cells.append("<td class=n>–</td>")
            else:
                star = '<span class="star">*</span>' if apart[id(m)][i, j] else ""
                cells.append(f"<td class=n>{float(m[i, j]):.4f}{star}</td>")
        rows.append(f"<tr><th>{r + 1}</th><td>{escape(matrix.names[i])}</td>{''.join(cells)}</tr>")
    said = ", ".join(w for w, m in (("paired approximate randomization above the diagonal", p_ar),
                                    ("paired bootstrap below", p_bs)) if m is not None)
    return (f'<p class="note">{escape(name)}: every pair\'s p-value, best system first ({said}; * marks p ≤ '
            f'{ranking.alpha:g}).</p><table><thead><tr><th>#</th><th>System</th>{head}</tr></thead><tbody>'
            + "".join(rows) + "</tbody></table>")


def _ranks(run: Run, ranking: Ranking, metric: int) -> list[int | None] | None:
    matrix = run.comparison.by_metric[metric].matrix if run.comparison is not None else None
    return matrix.ranks(ranking.alpha, ranking.correction) if matrix is not None else None


def _p(p: float | None, identical: bool = False) -> str:
    text = p_text(p, identical)
    text = text.replace("*", '<span class="star">*</span>')
    return text + (f' <span class="note">({IDENTICAL})</span>' if identical else "")


def choose_sentences(systems: Sequence[ScoredSystem], top: int, view: ReportView = ReportView()
                     ) -> tuple[list[tuple[str, list[int]]], str]:
    """Which sentences to show: the view's own, all, or for large corpora the worst, best and most changed."""
    L = len(systems[0].lines)
    if view.sentences is not None:
        chosen = list(view.sentences)
        note = f"{len(chosen):,} sentences: {view.selection}." if view.selection else ""
        if len(chosen) > MAX_FULL:
            note += f" The first {MAX_FULL:,} of them are shown."
        return [("Sentences", chosen[:MAX_FULL])], note
    if L <= MAX_FULL:
        return [("All sentences", list(range(L)))], ""
    base = np.nan_to_num(systems[0].results[view.metric].sentences, nan=0.0)
    order = np.argsort(base, kind="stable")
    groups = [(f"The {top} lowest-scoring sentences ({systems[0].name})", order[:top].tolist()),
              (f"The {top} highest-scoring sentences ({systems[0].name})", order[::-1][:top].tolist())]
    for b in view.pairs if len(systems) >= 2 else ():
        delta = np.abs(np.nan_to_num(systems[b].results[view.metric].sentences) - base)
        groups.append((f"The {top} sentences that changed most ({systems[b].name} vs {systems[0].name})",
                       np.argsort(-delta, kind="stable")[:top].tolist()))
    note = (f"This corpus has {L:,} sentences, more than {MAX_FULL:,}: the report shows the {top} worst, "
            f"the {top} best" + (f" and the {top} most changed" if len(systems) >= 2 else "") + " only.")
    return groups, note


def build_report(run: Run, view: ReportView | None = None, top: int = 100, title: str = "Score report") -> str:
    """The whole report of a run as one HTML document (a string).

    ``view``: what to show (default: every system against the baseline, unigram highlighting, sentences
    chosen by the report); the window passes what it shows.
    """
    view = view or ReportView(pairs=tuple(range(1, len(run.systems))))
    systems, reference_names = run.systems, run.reference_names
    comparison = run.comparison
    base = systems[0]
    parts = [f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>{escape(title)}</title>",
             f"<style>{CSS}</style></head><body>", f"<h1>{escape(title)}</h1>",
             f'<p class="meta">{len(base.lines):,} sentences · {escape(run.references_said)} · made by bleu-gui '
             f'{__version__} on '
             f'{_dt.datetime.now().strftime("%Y-%m-%d %H:%M")}</p>']
    if run.slice is not None:
        whole = "; ".join(f"{m.name}: " + ", ".join(f"{s.name} {score_text(w, max(2, m.decimals))}"
                                                    for s, w in zip(systems, scores))
                          for m, scores in zip(run.metrics, run.slice.whole))
        parts.append(f'<p class="note"><b>{escape(run.slice.summary)}</b>; the whole corpus scored '
                     f'{escape(whole)}.</p>')
    parts.append("<h2>Corpus scores</h2>")
    for k, metric in enumerate(run.metrics):
        ranks = _ranks(run, view.ranking, k)
        parts.append(_corpus_table(run, k, ranks))
        parts.append(f'<p class="sig">{escape(metric.name)}: {escape(metric.signature())}</p>')
        parts += [f'<p class="note">{escape(note)}</p>' for note in metric.notes]
        if ranks:
            by = comparison.by_metric[k] if comparison else None
            parts.append(f'<p class="note">{escape(view.ranking.describe(by.matrix if by else None))}.</p>')
            if by is not None and by.matrix is not None:
                parts.append(_matrix_html(by.matrix, view.ranking, metric.name))
    for s, same in zip(systems, comparison.identical if comparison else []):
        if same:
            parts.append(f'<p class="note">{escape(s.name)}: {escape(IDENTICAL_NOTE)}.</p>')
    pairs = [b for b in view.pairs if 0 < b < len(systems)]
    if pairs:
        compared = ", ".join(escape(systems[b].name) for b in pairs)
        parts.append(f'<p class="note">Pairwise sections compare {compared} (B) with the baseline '
                     f'{escape(base.name)} (A).</p>')
    order_name = "all orders" if view.order == ALL_ORDERS else f"{view.order}-grams"
    if view.sentences is not None or view.order != 1:
        parts.append(f'<p class="note">This report follows the window: highlighting of {order_name}'
                     + (f"; {escape(view.selection)}" if view.selection else "") + ".</p>")
    shown = comparison.by_metric[view.metric] if comparison else None
    bootstrap = shown.bootstrap if shown is not None else None
    if pairs and bootstrap:
        deltas = bootstrap[pairs[0]].deltas
        n = len(deltas) if deltas is not None else 0
        parts.append(f'<p class="note">p (bootstrap): paired bootstrap resampling, {n} resamples; p (AR): paired '
                     "approximate randomization; both as sacreBLEU with the same seed. * marks p ≤ 0.05, a "
                     "difference unlikely to be chance. μ ± 95% CI: bootstrap mean and half-width.</p>")
    parts += _charts(run, view, pairs, bootstrap)
    groups, note = choose_sentences(systems, top, view)
    parts.append("<h2>Sentences</h2>")
    if note:
        parts.append(f'<p class="note">{escape(note)}</p>')
    if run.bleu is not None:
        parts.append('<p class="legend"><span class=m>matched</span><span class=c>clipped (beyond Max_Ref_Count)'
                     '</span><span class=u>unmatched</span><span class=r>reference word the candidate matched</span>'
                     f'<span class=note>BLEU\'s {order_name}</span></p>')
    for heading, indices in groups:
        if len(groups) > 1:
            parts.append(f"<h2>{escape(heading)}</h2>")
        for i in indices:
            parts.append(_sentence_block(run, reference_names, i, view))
    parts.append("</body></html>")
    return "\n".join(parts)


def _charts(run: Run, view: ReportView, pairs: list[int], bootstrap: Sequence[SystemTest] | None) -> list[str]:
    """The charts: BLEU's precisions and lengths where BLEU is a metric of the run, then the sentence scores of
    the view's metric (histogram, scatter per pair) and its bootstrap Δ."""
    systems, names = run.systems, [s.name for s in run.systems]
    base = systems[0]
    parts = ["<h2>Charts</h2><div class=charts>"]
    k = run.bleu_index
    if k is not None:
        corpus = bleu_score(base.results[k].corpus)
        if len(systems) == 1:
            parts.append(_inline(svg.precision_chart(corpus.precisions)))
        else:
            precisions = [_bleu(s, k).precisions for s in systems]
            parts.append(_inline(svg.dot_strips_chart("BLEU precision per order", "n-gram order", "p_n (%)", names,
                                                        precisions, [str(n) for n in range(1, len(precisions[0]) + 1)],
                                                        palette.SYSTEMS)))
        parts.append(_inline(svg.brevity_chart((corpus.sys_len, corpus.ref_len))))
    metric = run.metrics[view.metric]
    scores = [s.results[view.metric].sentences for s in systems]
    parts.append(_inline(svg.histogram_chart(scores[0].tolist(), f"Sentence {metric.name} — {base.name}",
                                             metric.name)))
    for b in pairs:
        parts.append(_inline(svg.scatter_chart(scores[0].tolist(), scores[b].tolist(), names[0], names[b])))
        b_deltas = bootstrap[b].deltas if bootstrap else None
        if bootstrap and b_deltas is not None:
            parts.append(_inline(svg.delta_chart(b_deltas.tolist(), bootstrap[b].p_value, metric.decimals)))
    parts.append("</div>")
    return parts


def _bleu(system: ScoredSystem, k: int) -> BleuScore:
    return bleu_score(system.results[k].corpus)


def _sentence_block(run: Run, reference_names: Sequence[str], i: int, view: ReportView) -> str:
    systems = run.systems
    name = run.metrics[view.metric].name
    scores = " · ".join(f"{escape(s.name)} {score_text(float(s.results[view.metric].sentences[i]))}" for s in systems)
    line = run.line_number(i)
    doc = f" · document {escape(run.context.docs[i])}" if run.context.docs is not None else ""
    out = [f'<div class=sent id="s{line}"><h3>Sentence {line}{doc} — {escape(name)}: {scores}</h3>']
    if run.context.source is not None:
        out.append(f'<div class=line><span class=who>source</span>{escape(run.context.source.lines[i])}</div>')
    if run.bleu is None:
        out += [f'<div class=line><span class=who>{escape(s.name)}</span>{escape(s.lines[i])}</div>' for s in systems]
        out += [f'<div class=line><span class=who>{escape(n)}</span>{escape(r.lines[i])}</div>'
                for n, r in zip(reference_names, run.references)]
        out.append("</div>")
        return "".join(out)
    details = [run.details(k, i) for k in range(len(systems))]
    for s, d in zip(systems, details):
        out.append(f'<div class=line><span class=who>{escape(s.name)}</span>{candidate_html(d, view.order)}</div>')
    base = details[0]  # references are marked by what the baseline matched
    for r, ref_name in enumerate(reference_names[:len(base.references)]):
        out.append(f'<div class=line><span class=who>{escape(ref_name)}</span>'
                   f'{reference_html(base, r, view.order)}</div>')
    out.append("</div>")
    return "".join(out)
