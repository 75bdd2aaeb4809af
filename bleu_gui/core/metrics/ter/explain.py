"""Why a segment gets its TER: the shifts sacreBLEU's search applied, then the substitutions, insertions and
deletions of the shifted hypothesis against the reference, over the (mean) reference length."""

from __future__ import annotations

from ..bleu.explain import Explanation, Section
from .evidence import TerEvidence
from .ter import TerConfig

SHOWN = 12  # edits listed per kind before "and N more"


def _listed(items: list[str]) -> str:
    more = len(items) - SHOWN
    return ", ".join(items[:SHOWN]) + (f", and {more} more" if more > 0 else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def explain_ter(evidence: TerEvidence, config: TerConfig, n_refs: int, reference_name: str) -> Explanation:
    """The account of one segment's TER (``evidence`` of the metric with ``config``)."""
    e = evidence
    length = f"{e.ref_length:g}"
    headline = f"TER = {e.edits} edits / {length} reference words = {e.score:.2f} (lower is better)"
    subs = [f"{e.shifted[a.hyp]}→{e.reference_words[a.ref]}" for a in e.alignment
            if a.op == "S" and a.hyp is not None and a.ref is not None]
    ins = [e.reference_words[a.ref] for a in e.alignment if a.op == "I" and a.ref is not None]
    dels = [e.shifted[a.hyp] for a in e.alignment if a.op == "D" and a.hyp is not None]
    lines = [f"{_plural(len(e.shifts), 'shift')} + {_plural(len(subs), 'substitution')} + "
             f"{_plural(len(ins), 'insertion')} + {_plural(len(dels), 'deletion')} = {e.edits}"]
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
