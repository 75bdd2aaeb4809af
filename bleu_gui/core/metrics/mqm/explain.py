"""Why a segment gets its MQM, said and shown: each rater's errors with their weights, spans and comments; the
candidate with every marked span in its severity's colour (its category and rater on hover), the source with the
spans marked there (omissions), and the raters' corrected translations where they gave them."""

from __future__ import annotations

from html import escape

from ...inputs.ratings import SOURCE, TARGET, ErrorSpan, Ratings
from ..account import Account, Chart, Explanation, Pane, Section, Shown
from ..span_marks import SEVERITY_ORDER as _ORDER
from ..span_marks import marked_html, severity_legend
from .config import MqmConfig, rater_scores, segment_score


def _said(error: ErrorSpan, weight: float) -> str:
    where = f"“{error.text}” ({error.side}, characters {error.start + 1}–{error.end})" if error.start is not None \
        else "no span marked"
    comment = f"; comment: {error.comment}" if error.comment else ""
    return f"{error.severity} {error.category or '(no category)'} −{weight:g}: {where}{comment}"


def mqm_account(config: MqmConfig, ratings: Ratings | None) -> Account:
    """The account of one segment's MQM; each error's ``text`` is what its span marks."""
    if ratings is None:
        return Account(Explanation("MQM: this segment was not rated (missing: left out of the mean)", []),
                       {"rated": False, "errors": []}, None)
    score = segment_score(ratings, config)
    by_rater = rater_scores(ratings, config)
    sections = []
    for rater, rater_score in by_rater.items():
        errors = [e for e in ratings.errors if e.rater == rater]
        lines = [_said(e, config.weight(e)) for e in errors] or ["no error"]
        sections.append(Section(f"{rater}: {rater_score:g}", lines))
    if ratings.corrections:
        sections.append(Section("Corrected translations", [f"{r}: {t}" for r, t in ratings.corrections]))
    how = [f"weights: Major {config.major:g}, Major Non-translation {config.non_translation:g}, Minor "
           f"{config.minor:g}, Minor Fluency/Punctuation {config.minor_punctuation:g}, Critical {config.critical:g}, "
           "Neutral and No-error 0",
           "each rater's score is the negated sum of the weights of the errors the rater marked; the segment's is "
           f"the mean over its {len(by_rater)} rater(s)"]
    sections.append(Section("How the number is made", how))
    listed = [{**e.to_dict(), "weight": config.weight(e)} for e in ratings.errors]
    return Account(Explanation(f"MQM {score:g} = mean over {len(by_rater)} rater(s) of the negated error weights", sections),
                   {"rated": True, "score": score, "raters": by_rater, "errors": listed,
                    "corrections": dict(ratings.corrections)}, score)


def ratings_summary(ratings: Ratings) -> str:
    """One line: how many errors of each severity, by whom."""
    counts = [f"{n} {s}" for s in _ORDER if (n := sum(e.severity == s for e in ratings.errors))]
    return f"{', '.join(counts) or 'no error'} · rated by {', '.join(ratings.raters)}"


def mqm_shown(config: MqmConfig, system: str, text: str, source: str | None, ratings: Ratings | None) -> Shown:
    """The panes of a segment's MQM: the candidate's marked spans, the source's (omissions), corrections."""
    if ratings is None:
        return Shown("not rated", [Pane(f"Candidate — {system}", escape(text))])
    score = segment_score(ratings, config)
    target = [e for e in ratings.errors if e.side == TARGET]
    source_errors = [e for e in ratings.errors if e.side == SOURCE]
    panes = [Pane(f"Candidate — {system} (the raters' error spans)", marked_html(text, target))]
    if source is not None:
        panes.append(Pane("Source" + (" (spans marked there: omissions)" if source_errors else ""),
                          marked_html(source, source_errors)))
    if ratings.corrections:
        panes.append(Pane("Corrected by the rater", "<br>".join(f"<b>{escape(r)}</b>: {escape(t)}"
                                                                 for r, t in ratings.corrections)))
    legend = severity_legend()
    counts = [[float(sum(e.severity == s for e in ratings.errors)) for s in _ORDER]]
    raters = ", ".join(ratings.raters)
    return Shown(f"sentence MQM {score:g} · {len(ratings.errors)} error(s) by {raters}", panes, legend,
                 Chart("Errors by severity (all raters)", list(_ORDER), ["errors"], counts, "errors"))
