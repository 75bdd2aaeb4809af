"""What one segment's TER is made of: the shifts sacreBLEU's search applied, in order, and the alignment of the
shifted hypothesis with the reference, whose substitutions, insertions and deletions are the rest of the edits.

sacreBLEU computes these and throws them away; here they are kept for the segment on screen. The words are the
Tercom tokenizer's (lowercased unless TER is case-sensitive), as TER compares them. With several references the
evidence is against the one with the fewest edits (of equals, the first the scoring searched: the references
are searched in order of the fewest edits they could need); the length TER divides by is still the mean of all of
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

import numpy as np

from ..rates import edits_per_length
from .search import DEL, INS, NOP, OP_NAMES, SUB, Found, SearchRecord

T = TypeVar("T")


class TerWords(Protocol):
    """What the evidence reads of a bound TER: its word ids and lengths."""

    reference_words: list[list[np.ndarray]]
    mean_lengths: np.ndarray

    def hypothesis_words(self, line: str) -> np.ndarray: ...

    def words(self, ids: np.ndarray) -> list[str]: ...

    def search(self, hyps: Sequence[np.ndarray], rows: Sequence[int], progress: None = None,
               record: bool = False) -> Found: ...


@dataclass(frozen=True)
class MovedBlock:
    """A shift: ``words`` starting at ``start`` of the hypothesis as it was before this shift, moved to start
    at ``landing`` (positions after the move)."""

    words: list[str]
    start: int
    landing: int

    def to_dict(self) -> dict[str, object]:
        return {"words": self.words, "from": self.start, "to": self.landing}


@dataclass(frozen=True)
class AlignedWord:
    """One step of the alignment: ``op`` is ``=``, ``S``, ``I`` (a reference word the hypothesis lacks) or ``D``
    (a hypothesis word the reference lacks); an index is None on the side that has no word."""

    op: str
    hyp: int | None
    ref: int | None


@dataclass(frozen=True)
class TerEvidence:
    """See the module."""

    edits: int
    ref_length: float          # the mean reference length TER divides by
    reference: int             # the reference the edits are counted against
    hypothesis: list[str]      # the hypothesis' words before any shift
    shifted: list[str]         # after every shift: the words the alignment runs over
    reference_words: list[str]
    shifts: list[MovedBlock]
    alignment: list[AlignedWord]

    @property
    def score(self) -> float:
        return float(edits_per_length(np.array([[self.edits, self.ref_length]]))[0])

    def count(self, op: str) -> int:
        """How many alignment steps are ``op`` (``=``, ``S``, ``I``, ``D``)."""
        return sum(1 for a in self.alignment if a.op == op)

    def to_dict(self) -> dict[str, object]:
        """``--explain N -m ter -f json``: edits, length, the shifts and the alignment."""
        return {"edits": self.edits, "ref_length": self.ref_length, "reference": self.reference,
                "score": self.score, "shifts": [s.to_dict() for s in self.shifts],
                "alignment": [[a.op, a.hyp, a.ref] for a in self.alignment]}


def ter_evidence(metric: TerWords, index: int, hypothesis: str) -> TerEvidence:
    """The evidence of segment ``index`` when its candidate is ``hypothesis`` (see the module)."""
    return ter_evidences(metric, [index], [hypothesis])[0]


def ter_evidences(metric: TerWords, rows: Sequence[int], hypotheses: Sequence[str]) -> list[TerEvidence]:
    """The evidence of each segment of ``rows`` whose candidate is the matching one of ``hypotheses``, the pairs
    searched together and against the references in the order the scoring searches them (so the reference shown
    is the one whose edits were counted)."""
    hyps = [metric.hypothesis_words(h) for h in hypotheses]
    found = metric.search(hyps, rows, record=True)
    return [_evidence(metric, index, hyp, (int(k), record))
            for index, hyp, k, record in zip(rows, hyps, found.reference, found.records)]


def _evidence(metric: TerWords, index: int, hyp: np.ndarray, found: tuple[int, SearchRecord]) -> TerEvidence:
    k, record = found
    ref = metric.reference_words[k][index]
    words = metric.words(hyp)
    moved: list[MovedBlock] = []
    current = list(words)
    for shift in record.shifts:
        block = current[shift.start:shift.start + shift.length]
        moved.append(MovedBlock(block, shift.start, shift.landing))
        current = _moved(current, shift.start, shift.length, shift.landing)
    alignment = [AlignedWord(OP_NAMES[op], h if op in (NOP, SUB, DEL) else None, r if op in (NOP, SUB, INS) else None)
                 for op, h, r in record.alignment]
    return TerEvidence(record.edits, float(metric.mean_lengths[index]), k, words, current,
                       metric.words(ref), moved, alignment)


def _moved(words: list[T], start: int, length: int, landing: int) -> list[T]:
    """``words`` with the block at ``start`` moved to start at ``landing``."""
    block = words[start:start + length]
    rest = words[:start] + words[start + length:]
    return rest[:landing] + block + rest[landing:]
