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
from dataclasses import dataclass
from html import escape
from typing import Sequence

import numpy as np

from .. import __version__
from . import palette, svg
from .details import CLIPPED, MATCHED, UNMATCHED, SentenceDetails
from .evaluate import Evaluator
from .scores import BleuScore, RowScores
from .significance import SystemTest

MAX_FULL = 3000
_CLASS = {MATCHED: "m", CLIPPED: "c", UNMATCHED: "u"}
# SVG namespace declarations are not needed inside HTML; dropping them keeps the file free of any URL.
_XMLNS = re.compile(r'\s+xmlns="[^"]*"')

CSS = """
body{font-family:"DejaVu Sans",Arial,sans-serif;margin:24px auto;max-width:1180px;color:#212529;line-height:1.45}
h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #dee2e6}
.meta,.note{color:#6c757d;font-size:13px}.sig{font-family:monospace;font-size:12px;color:#495057;word-break:break-all}
table{border-collapse:collapse;font-size:13px;margin:6px 0}th,td{border:1px solid #dee2e6;padding:3px 7px}
th{background:#f1f3f5}td.n{text-align:right;font-variant-numeric:tabular-nums}
.charts{display:flex;flex-wrap:wrap;gap:10px}.charts svg{border:1px solid #e9ecef}
.legend span{margin-right:10px;padding:1px 6px;border-radius:3px;font-size:13px}
.sent{border:1px solid #dee2e6;border-radius:4px;padding:6px 10px;margin:8px 0;page-break-inside:avoid}
.sent h3{font-size:13px;margin:0 0 4px;color:#495057;font-weight:600}
.line{margin:2px 0}.who{display:inline-block;min-width:92px;color:#868e96;font-size:12px}
.m{background:%(m)s}.c{background:%(c)s;text-decoration:underline wavy %(cl)s}.u{background:%(u)s}
.r{background:%(m)s}.star{color:#2b8a3e;font-weight:bold}
@media print{body{margin:0;max-width:none}.charts svg{border:none}h2{page-break-after:avoid}
.m,.c,.u,.r{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
""".replace("%(m)s", palette.MATCHED).replace("%(c)s", palette.CLIPPED).replace(
    "%(cl)s", palette.CLIPPED_LINE).replace("%(u)s", palette.UNMATCHED)


@dataclass(frozen=True)
class ReportSystem:
    """One system in a report: its name, lines, statistics and scores."""

    name: str
    lines: Sequence[str]
    stats: np.ndarray
    sentences: RowScores
    corpus: BleuScore


def _inline(svg_text: str) -> str:
    return _XMLNS.sub("", svg_text, count=1)


def highlight(text: str, tokens: Sequence[str], spans, classes: Sequence[str | None]) -> str:
    """HTML of ``text`` with each token's characters wrapped in its class (tokens shown spaced if unplaceable)."""
    if any(s is None for s in spans):
        parts = [f'<span class="{c}">{escape(t)}</span>' if c else escape(t) for t, c in zip(tokens, classes)]
        return " ".join(parts) + ' <span class="note">(tokens)</span>'
    out, pos = [], 0
    for (start, end), cls in zip(spans, classes):
        out.append(escape(text[pos:start]))
        piece = escape(text[start:end])
        out.append(f'<span class="{cls}">{piece}</span>' if cls else piece)
        pos = end
    out.append(escape(text[pos:]))
    return "".join(out)


def candidate_html(d: SentenceDetails) -> str:
    classes = [None] * len(d.hyp_tokens)
    for occ in d.occurrences.get(1, []):
        classes[occ.start] = _CLASS[occ.status]
    return highlight(d.hypothesis, d.hyp_tokens, d.hyp_spans, classes)


def reference_html(d: SentenceDetails, r: int) -> str:
    if not d.ref_present[r]:
        return '<span class="note">(no reference for this sentence)</span>'
    marked = {s.start for s in d.ref_matches[r].get(1, [])}
    classes = ["r" if t in marked else None for t in range(len(d.ref_tokens[r]))]
    return highlight(d.references[r], d.ref_tokens[r], d.ref_spans[r], classes)


def _fmt(x: float | None, digits: int = 2) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def _corpus_table(systems: Sequence[ReportSystem], bootstrap: Sequence[SystemTest] | None,
                  approximate: Sequence[SystemTest] | None) -> str:
    N = len(systems[0].corpus.precisions)
    head = ["System", "BLEU"] + ([] if len(systems) < 2 else ["Δ", "μ ± 95% CI", "p (bootstrap)", "p (AR)"])
    head += [f"p{n}" for n in range(1, N + 1)] + ["BP", "ratio", "hyp_len", "ref_len"]
    rows = []
    for i, s in enumerate(systems):
        c = s.corpus
        cells = [escape(("baseline: " if i == 0 and len(systems) > 1 else "") + s.name), _fmt(c.score)]
        if len(systems) >= 2:
            bs = bootstrap[i] if bootstrap else None
            ar = approximate[i] if approximate else None
            cells += ["–" if i == 0 else f"{c.score - systems[0].corpus.score:+.2f}",
                      f"{bs.mean:.2f} ± {bs.ci:.2f}" if bs and bs.mean is not None else "–",
                      _p(bs.p_value if bs else None), _p(ar.p_value if ar else None)]
        cells += [f"{p:.1f}" for p in c.precisions]
        cells += [f"{c.bp:.3f}", f"{c.ratio:.3f}", str(c.sys_len), str(c.ref_len)]
        rows.append("<tr>" + "".join(f'<td{"" if j == 0 else " class=n"}>{v}</td>' for j, v in enumerate(cells)) + "</tr>")
    return ("<table><thead><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def _p(p: float | None) -> str:
    if p is None:
        return "–"
    return f"{p:.4f}" + ('<span class="star">*</span>' if p <= 0.05 else "")


def choose_sentences(systems: Sequence[ReportSystem], top: int) -> tuple[list[tuple[str, list[int]]], str]:
    """Which sentences to show: all, or for large corpora the worst, best and most changed."""
    L = len(systems[0].lines)
    if L <= MAX_FULL:
        return [("All sentences", list(range(L)))], ""
    base = np.nan_to_num(systems[0].sentences.score, nan=0.0)
    order = np.argsort(base, kind="stable")
    groups = [(f"The {top} lowest-scoring sentences ({systems[0].name})", order[:top].tolist()),
              (f"The {top} highest-scoring sentences ({systems[0].name})", order[::-1][:top].tolist())]
    if len(systems) >= 2:
        delta = np.abs(np.nan_to_num(systems[1].sentences.score) - base)
        groups.append((f"The {top} sentences that changed most ({systems[1].name} vs {systems[0].name})",
                       np.argsort(-delta, kind="stable")[:top].tolist()))
    note = (f"This corpus has {L:,} sentences, more than {MAX_FULL:,}: the report shows the {top} worst, "
            f"the {top} best" + (" and the {0} most changed".format(top) if len(systems) >= 2 else "") + " only.")
    return groups, note


def build_report(evaluator: Evaluator, systems: Sequence[ReportSystem], reference_names: Sequence[str],
                 bootstrap: Sequence[SystemTest] | None = None, approximate: Sequence[SystemTest] | None = None,
                 top: int = 100, title: str = "BLEU report") -> str:
    """The whole report as one HTML document (a string)."""
    base = systems[0]
    N = len(base.corpus.precisions)
    parts = [f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>{escape(title)}</title>",
             f"<style>{CSS}</style></head><body>", f"<h1>{escape(title)}</h1>",
             f'<p class="meta">{len(base.lines):,} sentences · {len(reference_names)} reference file(s): '
             f'{escape(", ".join(reference_names))} · made by bleu-gui {__version__} on '
             f'{_dt.datetime.now().strftime("%Y-%m-%d %H:%M")}</p>',
             "<h2>Corpus scores</h2>", _corpus_table(systems, bootstrap, approximate),
             f'<p class="sig">{escape(base.corpus.variant)}: {escape(base.corpus.signature)}</p>']
    for note in base.corpus.notes:
        parts.append(f'<p class="note">{escape(note)}</p>')
    if len(systems) >= 2 and bootstrap:
        n = len(bootstrap[1].deltas) if bootstrap[1].deltas is not None else 0
        parts.append(f'<p class="note">p (bootstrap): paired bootstrap resampling, {n} resamples; p (AR): paired '
                     "approximate randomization; both as sacreBLEU with the same seed. * marks p ≤ 0.05, a "
                     "difference unlikely to be chance. μ ± 95% CI: bootstrap mean and half-width.</p>")
    parts.append("<h2>Charts</h2><div class=charts>")
    names = [s.name for s in systems]
    if len(systems) == 1:
        parts.append(_inline(svg.precision_chart(base.corpus.precisions)))
    else:
        parts.append(_inline(svg.grouped_bars_chart("Precision per order", "n-gram order", "p_n (%)", names,
                                                    [s.corpus.precisions for s in systems],
                                                    [str(n) for n in range(1, N + 1)], palette.SYSTEMS)))
    parts.append(_inline(svg.brevity_chart((base.corpus.sys_len, base.corpus.ref_len))))
    parts.append(_inline(svg.histogram_chart(base.sentences.score.tolist(), f"Sentence BLEU — {base.name}")))
    if len(systems) >= 2:
        parts.append(_inline(svg.scatter_chart(base.sentences.score.tolist(), systems[1].sentences.score.tolist(),
                                               names[0], names[1])))
        if bootstrap and bootstrap[1].deltas is not None:
            parts.append(_inline(svg.delta_chart(bootstrap[1].deltas.tolist(), bootstrap[1].p_value)))
    parts.append("</div>")
    groups, note = choose_sentences(systems, top)
    parts.append("<h2>Sentences</h2>")
    if note:
        parts.append(f'<p class="note">{escape(note)}</p>')
    parts.append('<p class="legend"><span class=m>matched</span><span class=c>clipped (beyond Max_Ref_Count)</span>'
                 '<span class=u>unmatched</span><span class=r>reference word the candidate matched</span>'
                 '<span class=note>unigrams; sentence BLEU as the window shows it</span></p>')
    for heading, indices in groups:
        if len(groups) > 1:
            parts.append(f"<h2>{escape(heading)}</h2>")
        for i in indices:
            parts.append(_sentence_block(evaluator, systems, reference_names, i))
    parts.append("</body></html>")
    return "\n".join(parts)


def _sentence_block(evaluator: Evaluator, systems: Sequence[ReportSystem], reference_names: Sequence[str],
                    i: int) -> str:
    scores = " · ".join(f"{escape(s.name)} {_fmt(float(s.sentences.score[i]))}" for s in systems)
    out = [f'<div class=sent id="s{i + 1}"><h3>Sentence {i + 1} — {scores}</h3>']
    details = [evaluator.details(i, s.lines[i]) for s in systems]
    for s, d in zip(systems, details):
        out.append(f'<div class=line><span class=who>{escape(s.name)}</span>{candidate_html(d)}</div>')
    base = details[0]  # references are marked by what the baseline matched
    for r, name in enumerate(reference_names[:len(base.references)]):
        out.append(f'<div class=line><span class=who>{escape(name)}</span>{reference_html(base, r)}</div>')
    out.append("</div>")
    return "".join(out)
