"""What reading the inputs changed or revealed, one line each: said beside the score, since each bears on it."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat

from ..errors import term
from ..inputs.text_files import SegmentFile
from ..metrics.base import Metric
from ..metrics.bleu.metric import Bleu, find_bleu

TOKENIZED_LINES = 100  # sacreBLEU warns from this many lines ending in " ." (sacrebleu/metrics/base.py)
_PIECE = 50_000  # lines counted in one C call (~7 ms)


def tokenized_periods(lines: Sequence[str]) -> int:
    """How many lines end in a tokenized period (``" ."``) once trailing whitespace is stripped: sacreBLEU's
    sign of system output tokenized before scoring (its command line strips each line, then counts)."""
    # Maps in C (str.rstrip hands back the line itself when there is nothing to strip): ~0.15 s a million lines,
    # memory-bound. A piece at a time, so the interpreter lock is let go between pieces (a window's stall).
    return sum(sum(map(str.endswith, map(str.rstrip, lines[a:a + _PIECE]), repeat(" .")))
               for a in range(0, len(lines), _PIECE))


def _line_list(numbers: list[int], shown: int = 5) -> str:
    head = ", ".join(str(n) for n in numbers[:shown])
    return f"line{'s' if len(numbers) > 1 else ''} {head}{', …' if len(numbers) > shown else ''}"


def _empty_reference_notes(references: Sequence[SegmentFile], bleu: Bleu | None) -> list[str]:
    notes = []
    rule = bleu.config.empty_refs if bleu is not None else "empty"
    for ref in bleu.variant.references_used(references) if bleu is not None else references:
        empty = [i + 1 for i, line in enumerate(ref.lines) if not line.strip()]
        if not empty:
            continue
        count = f"{len(empty)} empty line{'s' if len(empty) > 1 else ''} ({_line_list(empty)})"
        if bleu is None:
            notes.append(f"{ref.path}: {count} read as an empty reference")
        elif rule == "empty":
            notes.append(f"{ref.path}: {count} read as an empty reference (sacreBLEU's reading; "
                         f"{term('bleu.empty_refs', 'missing')} reads them as missing)")
        else:
            notes.append(f"{ref.path}: {count} read as a missing reference ({term('bleu.empty_refs', 'missing')})")
    return notes


def _tokenized_notes(systems: Sequence[SegmentFile], bleu: Bleu | None) -> list[str]:
    if bleu is None or not bleu.variant.warns_tokenized:
        return []
    notes = []
    for f in systems:
        count = tokenized_periods(f.lines)
        if count >= TOKENIZED_LINES:
            notes.append(f"{f.path}: {count:,} of {len(f.lines):,} lines end in a tokenized period (' .'): the text "
                         f"looks tokenized already (sacreBLEU warns from {TOKENIZED_LINES} such lines: it expects "
                         "detokenized text, and scores of tokenized text are not comparable with published ones)")
    return notes


def input_notes(systems: Sequence[SegmentFile], references: Sequence[SegmentFile], metrics: Sequence[Metric]
                ) -> tuple[str, ...]:
    """Everything about the inputs that changed what was scored or bears on the number, one line each: a
    removed BOM, lone CRs, empty reference lines and the rule that read them, system output that looks
    tokenized already (as sacreBLEU's BLEU warns), the detected encoding, the metrics' notes.
    Computed once per run, in :func:`~bleu_gui.core.run.score_run` (never on the GUI thread)."""
    files = [*systems, *references]
    found = find_bleu(metrics)
    bleu = found[1] if found is not None else None
    notes = [f"{f.path}: {note}" for f in files for note in f.notes]
    notes += _empty_reference_notes(references, bleu)
    notes += _tokenized_notes(systems, bleu)
    if any(f.detected for f in files):
        paths = list(dict.fromkeys(f.path for f in files))  # a table's systems and references are one file
        notes.append(f"encoding {files[0].encoding} detected for all {len(paths)} files together" if len(paths) > 1
                     else f"encoding {files[0].encoding} detected for {paths[0]}")
    notes += [note for m in metrics for note in (*m.notes, *m.work_notes)]
    return tuple(notes)
