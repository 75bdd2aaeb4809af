"""Why a segment gets its TER, said and shown: the shifts sacreBLEU's search applied, then the substitutions,
insertions and deletions of the shifted hypothesis against the reference, over the (mean) reference length; the
candidate with its shifted blocks, the edits, and the reference."""

from __future__ import annotations

from html import escape

from ... import palette
from ..account import Chart, Explanation, Pane, Section, Shown, plural, span
from .config import TerConfig
from .evidence import TerEvidence

SHOWN = 12  # edits listed per kind before "and N more"


def _listed(items: list[str]) -> str:
    more = len(items) - SHOWN
    return ", ".join(items[:SHOWN]) + (f", and {more} more" if more > 0 else "")



def explain_ter(evidence: TerEvidence, config: TerConfig, n_refs: int, reference_name: str) -> Explanation:
    """The account of one segment's TER (``evidence`` of the metric with ``config``)."""
    e = evidence
    length = f"{e.ref_length:g}"
    headline = f"TER = {e.edits} edits / {length} reference words = {e.score:.2f} (lower is better)"
    subs = [f"{e.shifted[a.hyp]}→{e.reference_words[a.ref]}" for a in e.alignment
            if a.op == "S" and a.hyp is not None and a.ref is not None]
    ins = [e.reference_words[a.ref] for a in e.alignment if a.op == "I" and a.ref is not None]
    dels = [e.shifted[a.hyp] for a in e.alignment if a.op == "D" and a.hyp is not None]
    lines = [f"{plural(len(e.shifts), 'shift')} + {plural(len(subs), 'substitution')} + "
             f"{plural(len(ins), 'insertion')} + {plural(len(dels), 'deletion')} = {e.edits}"]
    lines += [f"shift: “{' '.join(s.words)}” moved from word {s.start + 1} to word {s.landing + 1}" for s in e.shifts]
    if subs:
        lines.append(f"substituted: {_listed(subs)}")
    if ins:
        lines.append(f"missing from the candidate: {_listed(ins)}")
    if dels:
        lines.append(f"not in the reference: {_listed(dels)}")
    how = ["a shift moves a block of up to 10 words as one edit; sacreBLEU's greedy Tercom search applies the shift "
           "that saves the most edits while one saves any, so the count is Tercom's, not always the fewest possible",
           "words are those of the Tercom tokenizer" + ("" if config.case_sensitive else ", lowercased")
           + (", normalised" if config.normalized else "") + (", punctuation removed" if config.no_punct else "")
           + (", Chinese and Japanese characters split" if config.asian_support and config.normalized else "")]
    if n_refs > 1:
        how.append(f"the edits are counted against {reference_name}, the reference needing the fewest; the length is "
                   f"the mean of all {n_refs} references")
    return Explanation(headline, [Section("Edits", lines), Section("How the number is made", how)])


SHIFT_STYLE = f"background-color:{palette.SELECTED}; border-bottom:2px solid {palette.ACCENT}"
OP_STYLES = {"=": f"background-color:{palette.MATCHED}",
             "S": f"background-color:{palette.CLIPPED}",
             "D": f"background-color:{palette.UNMATCHED}; text-decoration:line-through",
             "I": f"color:{palette.BAR_UNMATCHED}; text-decoration:underline"}


def _marker(text: str) -> str:
    # At the text's own size, not as a superscript: a CJK word written small (→対) was 7 px tall.
    return f'<span style="color:{palette.ACCENT}">{escape(text)}</span>'


def ter_hypothesis_html(e: TerEvidence) -> str:
    """The candidate's words before any shift; each shifted block marked, with the shift's number and where it
    lands (``1→5``: shift 1 moves it to start at word 5)."""
    words = list(e.hypothesis)
    # The first shift's block is found in the original words; later blocks may only exist after earlier moves,
    # so only blocks still intact in the original order are marked here (the edit line shows every shift).
    marks: dict[int, tuple[int, int, int]] = {}
    position = list(range(len(words)))  # original index of each word of the current order
    for k, shift in enumerate(e.shifts, start=1):
        block = position[shift.start:shift.start + len(shift.words)]
        if block == list(range(block[0], block[0] + len(block))) and not any(i in marks for i in block):
            marks[block[0]] = (k, len(block), shift.landing)
        rest = position[:shift.start] + position[shift.start + len(shift.words):]
        position = rest[:shift.landing] + block + rest[shift.landing:]
    out, i = [], 0
    while i < len(words):
        if i in marks:
            k, length, landing = marks[i]
            out.append(span(" ".join(words[i:i + length]), SHIFT_STYLE) + _marker(f"{k}→{landing + 1}"))
            i += length
        else:
            out.append(escape(words[i]))
            i += 1
    return " ".join(out)


def ter_edits_html(e: TerEvidence) -> str:
    """The shifted candidate against the reference, step by step: a match, a substitution (``cat→dog``), a
    candidate word the reference lacks (struck out), a reference word the candidate lacks (underlined, ``+``)."""
    out = []
    for a in e.alignment:
        if a.op == "=" and a.hyp is not None:
            out.append(span(e.shifted[a.hyp], OP_STYLES["="]))
        elif a.op == "S" and a.hyp is not None and a.ref is not None:
            out.append(span(e.shifted[a.hyp], OP_STYLES["S"]) + _marker("→" + e.reference_words[a.ref]))
        elif a.op == "D" and a.hyp is not None:
            out.append(span(e.shifted[a.hyp], OP_STYLES["D"]))
        elif a.op == "I" and a.ref is not None:
            out.append(span("+" + e.reference_words[a.ref], OP_STYLES["I"]))
    return " ".join(out)


def ter_reference_html(e: TerEvidence) -> str:
    """The reference's words: matched, substituted, or missing from the candidate."""
    status = {a.ref: a.op for a in e.alignment if a.ref is not None}
    styles = {"=": OP_STYLES["="], "S": OP_STYLES["S"], "I": f"background-color:{palette.UNMATCHED}"}
    return " ".join(span(w, styles.get(status.get(j, ""), "")) for j, w in enumerate(e.reference_words))


def ter_shown(e: TerEvidence, system: str, reference: str, several: bool) -> Shown:
    """The panes of a segment's TER: the candidate's words with their shifted blocks, the edits of the shifted
    candidate against the reference, the reference; the edits by kind."""
    counts = [len(e.shifts), e.count("S"), e.count("I"), e.count("D")]
    legend = [("shifted block", SHIFT_STYLE, "A block of words moved as one edit; 1→5: the first shift, landing at word 5"),
              ("match", OP_STYLES["="], ""), ("substitution", OP_STYLES["S"], ""),
              ("not in the reference", OP_STYLES["D"], ""), ("+missing", OP_STYLES["I"], "")]
    return Shown(f"sentence TER {e.score:.2f}", [
        Pane(f"Candidate — {system} (TER's words)", ter_hypothesis_html(e)),
        Pane(f"After {len(e.shifts)} shift(s): the edits against the reference", ter_edits_html(e)),
        Pane(reference + (" (the reference needing the fewest edits)" if several else ""), ter_reference_html(e))],
        legend, Chart(f"Edits: {e.edits} over {e.ref_length:g} reference words",
                      ["shifts", "substitutions", "insertions", "deletions"], ["edits"], [[float(x) for x in counts]],
                      "edits"))
