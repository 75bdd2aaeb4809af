"""Why a sentence scores what it scores, in plain language, from the numbers the scorer used.

:func:`explain_sentence` reads one statistics row, the variant's scores of
that row and the sentence's match details, and never computes a BLEU figure of
its own: every number in the text is one the scorer produced (precisions after
smoothing, brevity penalty, score) or a count from the statistics row. Which
order limits the score, what the brevity penalty costs, what clipping removed,
which reference each matched n-gram came from and what the variant changes
are told in sections that the window, the command line (``--explain N``) and
Help ▸ How BLEU is computed show alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..account import Explanation, Section
from .config import BleuConfig
from .details import CLIPPED, MATCHED, SentenceDetails
from .scores import RowScores
from .variant import SentenceRow

SHOWN_NGRAMS = 8  # n-grams listed per order before "and N more"


def _pct(value: float) -> str:
    return f"{value:.2f}%"


def _gram(ngram: Sequence[str]) -> str:
    return "'" + " ".join(ngram) + "'"


def _row(stats: Sequence[int], scores: RowScores, orders: int) -> SentenceRow:
    width = (len(stats) - 2) // 2
    return SentenceRow(int(stats[0]), int(stats[1]), [int(c) for c in stats[2:2 + orders]],
                       [int(t) for t in stats[2 + width:2 + width + orders]],
                       [float(p) for p in scores.precisions[0][:orders]], float(scores.bp[0]), float(scores.score[0]))


def _precision_lines(cfg: BleuConfig, row: SentenceRow, weights: list[float]) -> list[str]:
    lines = []
    for n, (c, t, p, w) in enumerate(zip(row.counts, row.totals, row.precisions, weights), start=1):
        head = f"{n}-grams: {c} of {t} matched, p{n} = {c}/{t}"
        if t == 0:
            lines.append(f"{n}-grams: none in the candidate" + (f"; smoothing makes p{n} {_pct(p)}" if w else
                                                                "; not counted"))
            continue
        if w == 0:
            lines.append(f"{head}: not counted (weight 0 for this sentence)")
            continue
        raw = 100.0 * c / t if t else 0.0
        special = cfg.scorer.no_match_line(cfg, row, n, weights) if c == 0 else None
        if special is not None:
            lines.append(special)
        elif math.isclose(p, raw, rel_tol=1e-9, abs_tol=1e-12):
            lines.append(f"{head} = {_pct(p)}")
        else:
            lines.append(f"{head} = {_pct(raw)}; smoothing makes it {_pct(p)}")
    return lines


def _limit_line(row: SentenceRow, weights: list[float]) -> str | None:
    counted = [(p, n) for n, (p, w) in enumerate(zip(row.precisions, weights), start=1) if w > 0 and p > 0]
    if not counted or min(counted)[0] >= 100.0:  # every order matched in full: nothing pulls the score down
        return None
    p, n = min(counted)
    return f"The {n}-gram precision ({_pct(p)}) pulls the score down most."


def _bp_lines(cfg: BleuConfig, row: SentenceRow, details: SentenceDetails, ref_names: Sequence[str]) -> list[str]:
    c, r = row.hyp_len, row.ref_len
    lengths = [(len(t), name) for t, ok, name in zip(details.ref_tokens, details.ref_present, ref_names) if ok]
    closest = next((name for length, name in lengths if length == r), "")
    where = closest
    if len(lengths) > 1:
        where += f", the closest of the reference lengths {', '.join(str(length) for length, _ in lengths)}"
    against = f"{c} token{'' if c == 1 else 's'} against an effective reference length of {r} ({where})"
    if c == 0:
        return [f"{against}: an empty candidate scores 0."]
    if row.bp >= 1.0:
        return [f"{against}: no brevity penalty (BP = 1)."]
    formula = cfg.scorer.bp_formula(r, c)
    return [f"{against}: BP = {formula} = {row.bp:.3f}, −{100 * (1 - row.bp):.0f}%."]


def _clipping_lines(details: SentenceDetails, ref_names: Sequence[str]) -> list[str]:
    lines = []
    for n, occs in details.occurrences.items():
        clipped = {o.ngram: o for o in occs if o.status == CLIPPED}
        for gram, o in list(clipped.items())[:SHOWN_NGRAMS]:
            lines.append(f"{_gram(gram)} ×{o.count} but at most {o.max_ref_count} in one reference "
                         f"({ref_names[o.max_ref] if o.max_ref is not None else '?'}): "
                         f"{o.count - o.max_ref_count} clipped")
        if len(clipped) > SHOWN_NGRAMS:
            lines.append(f"and {len(clipped) - SHOWN_NGRAMS} more clipped {n}-grams")
    return lines or ["Nothing was clipped: no n-gram occurs more often than in the reference that has it most."]


def _source_lines(details: SentenceDetails, ref_names: Sequence[str]) -> list[str]:
    lines = []
    for n, occs in details.occurrences.items():
        matched: dict[tuple[str, ...], str] = {}
        for o in occs:
            if o.status == MATCHED and o.max_ref is not None:
                matched.setdefault(o.ngram, ref_names[o.max_ref])
        if not matched:
            continue
        shown = ", ".join(f"{_gram(g)} ({name})" for g, name in list(matched.items())[:SHOWN_NGRAMS])
        more = f" and {len(matched) - SHOWN_NGRAMS} more" if len(matched) > SHOWN_NGRAMS else ""
        lines.append(f"{n}-grams: {shown}{more}")
    return lines or ["No n-gram of the candidate is in any reference."]


def _headline(cfg: BleuConfig, row: SentenceRow, weights: list[float]) -> str:
    if math.isnan(row.score):
        return "Sentence BLEU undefined: NLTK's method6 refuses a sentence without a trigram match."
    used = [(n, w, p) for n, (w, p) in enumerate(zip(weights, row.precisions), start=1) if w > 0]
    if round(row.score, 2) == 0:
        return f"Sentence BLEU {row.score:.2f}: {_zero_reason(cfg, row, used)}"
    terms = " + ".join(f"{_weight(w)}·log {_pct(p)}" for _n, w, p in used if p > 0)
    return f"Sentence BLEU {row.score:.2f} = BP {row.bp:.3f} × exp({terms})"


def _weight(w: float) -> str:
    for d in (1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 32, 64, 128, 256, 512):
        if math.isclose(w * d, round(w * d)) and round(w * d) == 1:
            return f"1/{d}" if d > 1 else "1"
    return f"{w:g}"


def _zero_reason(cfg: BleuConfig, row: SentenceRow, used: list[tuple[int, float, float]]) -> str:
    if row.hyp_len == 0:
        return "the candidate is empty."
    if not any(row.counts):
        return "no n-gram of any order matches a reference."
    zero = next((n for n, _w, _p in used if row.counts[n - 1] == 0), None)
    special = cfg.scorer.zero_reason(cfg, row, zero)
    if special is not None:
        return special
    if zero is not None:
        return f"no {zero}-gram matches (p{zero} = 0/{row.totals[zero - 1]}) and nothing smooths it."
    return "the score rounds to 0."


def explain_sentence(details: SentenceDetails, stats: Sequence[int], scores: RowScores, config: BleuConfig,
                     ref_names: Sequence[str]) -> Explanation:
    """The account of one sentence: ``stats`` is its statistics row, ``scores`` the variant's one-row
    sentence scores of it, ``ref_names`` the names of the references ``details`` was made against."""
    row = _row(stats, scores, config.scorer.explained_orders(config))
    weights = config.scorer.sentence_weights(config, row)
    names = list(ref_names[:len(details.references)]) or [f"ref{i + 1}" for i in range(len(details.references))]
    limit = _limit_line(row, weights)
    sections = [
        Section("Precision per order", _precision_lines(config, row, weights) + ([limit] if limit else [])),
        Section("Brevity penalty", _bp_lines(config, row, details, names)),
        Section("Clipping", _clipping_lines(details, names)),
        Section("Matched n-grams and the reference that has each most often", _source_lines(details, names)),
        Section("Variant", config.scorer.explain_lines(config, row, weights)),
    ]
    return Explanation(_headline(config, row, weights), sections)

