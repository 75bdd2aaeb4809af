"""Character edit distance: the post-editing distance translators and localisation tools report.

Per segment, the Levenshtein distance over Unicode code points between the hypothesis and the reference needing the
fewest edits (of equals, the shorter reference, then the first), over that reference's length, times 100; an empty
reference scores 0 for an empty hypothesis and 100 for any other. The corpus figure is 100 × Σ edits / Σ those
lengths; lower is better. The distances are rapidfuzz's (``Levenshtein.distance``, a bit-parallel C++
implementation): the statistics of a segment are [edits, the chosen reference's length, the hypothesis' length],
which sum over a corpus as every metric's do. sacreBLEU has no such metric; the signature names what defines it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..account import Account, Shown
from ..base import Metric, Score
from ..rates import edits_per_length
from .config import EditConfig

Progress = Callable[[float], None]
_BLOCK = 4096  # segments measured together (and between progress reports and cancel checks)
_THREADED = 256  # segments from which a call shares its pairs between threads


@dataclass(frozen=True, kw_only=True)
class EditScore(Score):
    """One edit-distance figure: character edits over reference characters."""

    metric: str = "EditDistance"
    edits: int
    ref_length: int

    def fields(self) -> dict[str, object]:
        return {"edits": self.edits, "ref_length": self.ref_length}

    def breakdown(self) -> str:
        return f"{self.edits} edits / {self.ref_length} reference characters"

    def columns(self) -> list[tuple[str, str]]:
        return [("edits", str(self.edits)), ("ref_chars", str(self.ref_length))]


class EditDistance(Metric):
    """Character edit distance against one set of references (see the module)."""

    key = "edit"
    name = "EditDistance"
    higher_is_better = False
    evidence_shown = True

    def __init__(self, references: Sequence[Sequence[str]], config: EditConfig = EditConfig()):
        self.config = config.validated()
        self.references = [self.prepared(r) for r in references]
        self._n_lines = len(references[0]) if references else 0
        self.lengths = np.array([[len(line) for line in ref] for ref in self.references], np.int64).reshape(
            len(self.references), self._n_lines)

    @property
    def n_lines(self) -> int:
        return self._n_lines

    def prepared(self, lines: Sequence[str]) -> list[str]:
        """Lines as the distance reads them (lowercased when asked)."""
        return [line.lower() for line in lines] if self.config.lowercase else list(lines)

    def signature(self, sentence_level: bool = False, resampling: dict[str, object] | None = None) -> str:
        return self.config.signature(len(self.references), resampling)

    def closest(self, hyps: Sequence[str], rows: Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(edits, the chosen reference's length, its index) of each of ``hyps`` (prepared), of segments ``rows``:
        the reference with the fewest edits, of equals the shorter, then the first."""
        # Imported here: a command that does not score the edit distance does not load rapidfuzz (15 ms, 5 MB).
        from rapidfuzz.distance import Levenshtein
        from rapidfuzz.process import cpdist

        at = np.asarray(rows, np.int64)
        # Threads for a block only: rapidfuzz starts its pool at each call (0.6 ms, 120 times one pair's distance),
        # and a segment explained or flagged alone is one pair.
        workers = -1 if len(hyps) >= _THREADED else 1
        edits = np.stack([cpdist(hyps, [ref[i] for i in at.tolist()], scorer=Levenshtein.distance, dtype=np.int64,
                                 workers=workers) for ref in self.references]).reshape(len(self.references), len(hyps))
        lengths = self.lengths[:, at]
        order = edits * (int(lengths.max(initial=0)) + 1) + lengths  # fewest edits, then shortest
        best = np.argmin(order, axis=0)  # the first of equals
        columns = np.arange(len(hyps))
        return edits[best, columns], lengths[best, columns], best

    def statistics(self, lines: Sequence[str], progress: Progress | None = None) -> np.ndarray:
        if len(lines) != self._n_lines:
            raise ValueError(f"system has {len(lines)} lines, references have {self._n_lines}")
        out = np.zeros((len(lines), 3), np.int64)
        for start in range(0, len(lines), _BLOCK):
            hyps = self.prepared(lines[start:start + _BLOCK])
            edits, lengths, _best = self.closest(hyps, range(start, start + len(hyps)))
            out[start:start + len(hyps), 0] = edits
            out[start:start + len(hyps), 1] = lengths
            out[start:start + len(hyps), 2] = [len(h) for h in hyps]
            if progress is not None:
                progress(min(start + _BLOCK, len(lines)) / max(len(lines), 1))
        return out

    def scores_of_sums(self, sums: np.ndarray, float32: bool = False) -> np.ndarray:
        return edits_per_length(sums, float32)

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return edits_per_length(stats)

    def _score(self, edits: int, length: int, sentence_level: bool) -> EditScore:
        value = float(edits_per_length(np.array([[edits, length]]))[0])
        return EditScore(score=value, signature=self.signature(sentence_level), edits=edits, ref_length=length)

    def corpus_score(self, stats: np.ndarray) -> EditScore:
        total = stats.sum(axis=0)
        return self._score(int(total[0]), int(total[1]), False)

    def sentence_score(self, stats: np.ndarray, index: int) -> EditScore:
        return self._score(int(stats[index, 0]), int(stats[index, 1]), True)

    def flagged(self, rows: Sequence[int], hypotheses: Sequence[str]) -> list[list[tuple[int, int]]]:
        """What the edits touch: the candidate's characters an edit replaces or deletes, and an empty span where the
        reference's characters are inserted, against the closest reference (the lines measured together); none
        when lowercasing changed a line's length (no offsets to give)."""
        from rapidfuzz.distance import Levenshtein

        hyps = self.prepared(hypotheses)
        _edits, _lengths, best = self.closest(hyps, rows)
        return [[(o.src_start, o.src_end) for o in Levenshtein.opcodes(hyp, self.references[k][i]) if o.tag != "equal"]
                if len(hyp) == len(line) else []
                for i, hyp, line, k in zip(rows, hyps, hypotheses, best.tolist())]

    def account(self, index: int, hypothesis: str, row: np.ndarray, reference_names: Sequence[str]) -> Account:
        from .explain import edit_evidence, explain_edit  # loaded when a segment is explained, not at every start

        e = edit_evidence(self, index, hypothesis)
        return Account(explain_edit(e, self.config.lowercase, len(self.references), _name(reference_names, e.reference)),
                       e.to_dict(), e.score)

    def shown(self, index: int, hypothesis: str, system: str, reference_names: Sequence[str]) -> Shown:
        from .explain import edit_evidence, edit_shown

        e = edit_evidence(self, index, hypothesis)
        return edit_shown(e, system, _name(reference_names, e.reference), len(self.references) > 1)

    def statistics_table(self, stats: np.ndarray) -> tuple[list[str], np.ndarray]:
        return ["edits", "ref_chars", "hyp_chars"], stats


def _name(names: Sequence[str], k: int) -> str:
    return names[k] if k < len(names) else f"reference {k + 1}"


def bind(config: EditConfig, references: Sequence[Sequence[str]], progress: Progress | None,
          like: Metric | None) -> EditDistance:
    return EditDistance(references, config)
