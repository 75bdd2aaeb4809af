"""Why a segment gets its MQM, said and shown: each rater's errors with their weights, spans and comments; the
candidate with every marked span in its severity's colour (its category and rater on hover), the source with the
spans marked there (omissions), and the raters' corrected translations where they gave them."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ... import palette
from ...inputs.ratings import SOURCE, TARGET, ErrorSpan, Ratings
from ..account import Account, Chart, Explanation, Pane, Section, Shown
from .config import MqmConfig, rater_scores, segment_score

SEVERITY_COLOURS = {"Critical": palette.MQM_CRITICAL, "Major": palette.MQM_MAJOR, "Minor": palette.MQM_MINOR,
                    "Neutral": palette.MQM_NEUTRAL}
_ORDER = ("Critical", "Major", "Minor", "Neutral")


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


def marked_html(text: str, errors: Sequence[ErrorSpan]) -> str:
    """``text`` with each run of characters under the same errors in the colour of the most severe; hovering a
    run names its errors (a link the window shows as a tooltip)."""
    cover: list[list[ErrorSpan]] = [[] for _ in text]
    for error in errors:
        if error.start is not None and error.end is not None:
            for i in range(max(error.start, 0), min(error.end, len(text))):
                cover[i].append(error)
    out, i = [], 0
    while i < len(text):
        j = i + 1
        while j < len(text) and cover[j] == cover[i]:
            j += 1
        part = escape(text[i:j])
        if cover[i]:
            worst = min(cover[i], key=lambda e: _ORDER.index(e.severity) if e.severity in _ORDER else 9)
            tip = "; ".join(f"{e.severity} {e.category} ({e.rater}){f': {e.comment}' if e.comment else ''}"
                            for e in cover[i])
            colour = SEVERITY_COLOURS.get(worst.severity, palette.MQM_NEUTRAL)
            part = (f'<a href="tip:{escape(tip, quote=True)}" style="color:{palette.INK}; text-decoration:none">'
                    f'<span style="background-color:{colour}">{part}</span></a>')
        out.append(part)
        i = j
    return "".join(out)


def severity_legend() -> list[tuple[str, str, str]]:
    """The legend of the severities' colours: (label, inline style, tooltip)."""
    return [(s, f"background-color:{c}", f"{s} errors (hover a span: its category, rater and comment)")
            for s, c in SEVERITY_COLOURS.items()]


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
