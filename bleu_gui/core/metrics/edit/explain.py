"""Why a segment gets its edit distance, said and shown: the characters replaced, deleted and inserted to turn the
hypothesis into the closest reference (rapidfuzz's ``Levenshtein.opcodes``, offsets in code points), the rate,
and the similarity ``1 − edits / max(lengths)`` with the fuzzy-match band CAT tools show (100%, 95–99, 85–94,
75–84, 50–74, <50; the percentage is floored, so 99.6% is not a 100% match)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ... import palette
from ..account import Chart, Explanation, Pane, Section, Shown, plural, span

SHOWN = 12  # operations listed before "and N more"
BANDS = ((100, "100%"), (95, "95–99%"), (85, "85–94%"), (75, "75–84%"), (50, "50–74%"), (0, "<50%"))
STYLES = {"equal": f"background-color:{palette.MATCHED}",
          "replace": f"background-color:{palette.CLIPPED}",
          "delete": f"background-color:{palette.UNMATCHED}; text-decoration:line-through",
          "insert": f"background-color:{palette.SELECTED}; text-decoration:underline"}
_SPACE = "␣"  # a space that was edited, made visible


class EditSegments(Protocol):
    """What the evidence reads of the metric."""

    references: list[list[str]]

    def prepared(self, lines: Sequence[str]) -> list[str]: ...

    def closest(self, hyps: Sequence[str], rows: Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...


@dataclass(frozen=True)
class Operation:
    """One block of rapidfuzz's opcodes: ``replace``, ``delete`` (hypothesis characters the reference lacks) or
    ``insert`` (reference characters the hypothesis lacks), with its code-point offsets in both texts."""

    op: str
    hyp_start: int
    hyp_end: int
    ref_start: int
    ref_end: int
    hyp_text: str
    ref_text: str

    def to_dict(self) -> dict[str, Any]:
        return {"op": self.op, "hyp": [self.hyp_start, self.hyp_end], "ref": [self.ref_start, self.ref_end],
                "from": self.hyp_text, "to": self.ref_text}


@dataclass(frozen=True)
class EditEvidence:
    """A segment's edits against its closest reference (``reference``: its index), the texts as measured."""

    hypothesis: str
    reference_text: str
    reference: int
    edits: int
    blocks: list[Operation]     # every opcode block, "equal" ones too, in order
    replaced: int
    deleted: int
    inserted: int

    @property
    def operations(self) -> list[Operation]:
        return [b for b in self.blocks if b.op != "equal"]

    @property
    def score(self) -> float:
        length = len(self.reference_text)
        return 100.0 * self.edits / length if length else (100.0 if self.edits else 0.0)

    @property
    def similarity(self) -> int:
        """``1 − edits / max(lengths)`` as a whole percentage, floored (two empty texts: 100)."""
        longest = max(len(self.hypothesis), len(self.reference_text))
        return 100 * (longest - self.edits) // longest if longest else 100

    @property
    def band(self) -> str:
        return next(label for low, label in BANDS if self.similarity >= low)

    def to_dict(self) -> dict[str, Any]:
        return {"reference": self.reference, "edits": self.edits, "ref_length": len(self.reference_text),
                "hyp_length": len(self.hypothesis), "replaced": self.replaced, "deleted": self.deleted,
                "inserted": self.inserted, "similarity": self.similarity, "band": self.band,
                "operations": [o.to_dict() for o in self.operations]}


def edit_evidence(metric: EditSegments, index: int, hypothesis: str) -> EditEvidence:
    """Segment ``index``'s edits when its candidate is ``hypothesis``."""
    from rapidfuzz.distance import Levenshtein  # loaded only where the edit distance is scored

    hyp = metric.prepared([hypothesis])[0]
    edits, _length, best = metric.closest([hyp], [index])
    k = int(best[0])
    ref = metric.references[k][index]
    blocks = [Operation(o.tag, o.src_start, o.src_end, o.dest_start, o.dest_end, hyp[o.src_start:o.src_end],
                        ref[o.dest_start:o.dest_end]) for o in Levenshtein.opcodes(hyp, ref)]
    counts = {"replace": 0, "delete": 0, "insert": 0}
    for e in Levenshtein.editops(hyp, ref):
        counts[e.tag] += 1
    return EditEvidence(hyp, ref, k, int(edits[0]), blocks, counts["replace"], counts["delete"], counts["insert"])


def _said(o: Operation) -> str:
    hyp_text, ref_text = o.hyp_text.replace(" ", _SPACE), o.ref_text.replace(" ", _SPACE)
    where = (f"character {o.hyp_start + 1}" if o.hyp_end - o.hyp_start == 1
             else f"characters {o.hyp_start + 1}–{o.hyp_end}")
    if o.op == "replace":
        return f"{where}: “{hyp_text}” replaced by “{ref_text}”"
    if o.op == "delete":
        return f"{where}: “{hyp_text}” not in the reference"
    at = (f"reference character {o.ref_end}" if o.ref_end - o.ref_start == 1
          else f"reference characters {o.ref_start + 1}–{o.ref_end}")
    return f"after character {o.hyp_start}: “{ref_text}” missing ({at})"


def explain_edit(e: EditEvidence, lowercase: bool, n_refs: int, reference_name: str) -> Explanation:
    """The account of one segment's edit distance."""
    length = len(e.reference_text)
    headline = (f"Edit distance = {e.edits} edits / {length} reference characters = {e.score:.2f} (lower is better)"
                if length else f"Edit distance = {e.score:.2f}: the reference is empty "
                               f"({'the candidate too' if not e.edits else 'every candidate character is an edit'})")
    ops = e.operations
    lines = [f"{plural(e.replaced, 'character')} replaced + {e.deleted} deleted + {e.inserted} inserted = {e.edits}"]
    lines += [_said(o) for o in ops[:SHOWN]]
    if len(ops) > SHOWN:
        lines.append(f"and {len(ops) - SHOWN} more")
    longest = max(len(e.hypothesis), length)
    similarity = [f"1 − {e.edits} / {longest} (the longer text) = {e.similarity}%: the {e.band} fuzzy-match band"]
    how = ["characters are Unicode code points (an accent written apart is a character of its own); distances are "
           "rapidfuzz's Levenshtein distance" + (", both texts lowercased" if lowercase else "")]
    if n_refs > 1:
        how.append(f"the edits are counted against {reference_name}, the reference needing the fewest (of equals, the "
                   "shorter, then the first)")
    how.append("the corpus figure sums the edits and the reference lengths first, as TER does")
    return Explanation(headline, [Section("Edits", lines), Section("Similarity", similarity),
                                  Section("How the number is made", how)])


def _marked(text: str, op: str) -> str:
    if op == "equal":
        return span(text, STYLES["equal"])
    return span(text.replace(" ", _SPACE), STYLES[op])


def _hypothesis_html(e: EditEvidence) -> str:
    return "".join(_marked(b.hyp_text, b.op) for b in e.blocks if b.hyp_text)


def _reference_html(e: EditEvidence) -> str:
    return "".join(_marked(b.ref_text, b.op) for b in e.blocks if b.ref_text)


def edit_shown(e: EditEvidence, system: str, reference: str, several: bool) -> Shown:
    """The panes of a segment's edit distance: the candidate's characters kept, replaced and deleted; the
    reference's characters kept, replaced and missing from the candidate; the edits by kind."""
    legend = [("kept", STYLES["equal"], ""),
              ("replaced", STYLES["replace"], "A character replaced by the reference's character at its place"),
              ("deleted", STYLES["delete"], "A candidate character the reference lacks"),
              ("inserted", STYLES["insert"], "A reference character the candidate lacks"),
              (_SPACE, "", "A space that was edited")]
    return Shown(f"sentence edit distance {e.score:.2f} · similarity {e.similarity}% ({e.band} fuzzy match)", [
        Pane(f"Candidate — {system}", _hypothesis_html(e)),
        Pane(reference + (" (the reference needing the fewest edits)" if several else ""), _reference_html(e))],
        legend, Chart(f"Edits: {e.edits} over {len(e.reference_text)} reference characters",
                      ["replaced", "deleted", "inserted"], ["characters"],
                      [[float(e.replaced), float(e.deleted), float(e.inserted)]], "characters"))
