"""A reviewer's decisions on QA flags: a flag marked a false positive (a translation the check misreads: a style the
translator chose, a name) is kept in a file of its own, beside the review, and read again the next time the run's QA
runs — in the window (Tools ▸ QA checks) and by ``bleu-score --qa --qa-decisions FILE`` — so a flag judged once is
not judged again, and sends no segment to post-editing in triage (Tools ▸ Triage, ``--triage … --qa-decisions``).

The file is JSON Lines, one decision per line, appended as it is made (as review files are: no writer loses
another's lines, :func:`.review_file.append_lines`): ``{"system", "segment" (1-based line), "check", "target" (the
candidate's text the flag was on), "false_positive": true | false, "detail"}``. The latest line of a flag decides; a
flag is matched by its system, segment, check *and* the candidate's text, so a decision made on one text never
hides a flag on another (an edited file, a re-translated segment)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..analysis.qa import CHECKS, QAFlag
from ..errors import InputError
from ..inputs.raw_input import read_bytes
from ..inputs.untrusted_json import json_lines
from ..json_text import strict_dumps
from .review_file import append_lines

Key = tuple[str, int, str, str]  # system, 1-based segment, check, the candidate's text


@dataclass
class QaDecisions:
    """The decisions of one file (see the module); a file that does not exist yet holds none."""

    path: Path
    false_positives: dict[Key, str] = field(default_factory=dict)  # key → the flag's detail when it was marked

    @classmethod
    def open(cls, path: str | Path) -> QaDecisions:
        """The decisions in ``path`` (none when it does not exist); :class:`InputError` names a line that is not a
        decision."""
        path = Path(path)
        decisions = cls(path)
        if not path.exists():
            return decisions
        data = read_bytes(path, "utf-8")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data[:exc.start].count(b"\n") + 1
            raise InputError(f"{path}: line {line}: not UTF-8") from None
        for n, row in json_lines(text, str(path)):
            key = _key(path, n, row)
            if row.get("false_positive") is True:
                decisions.false_positives[key] = str(row.get("detail") or "")
            else:
                decisions.false_positives.pop(key, None)
        return decisions

    def is_false_positive(self, flag: QAFlag, line: int, target: str) -> bool:
        """Whether ``flag`` (on the segment of 1-based ``line``, whose candidate is ``target``) was marked so."""
        return (flag.system, line, flag.check, target) in self.false_positives

    def standing(self, flags: list[QAFlag], line_of: Callable[[int], int], lines: Sequence[str]) -> list[QAFlag]:
        """``flags`` of one system less those marked false positives (``line_of``: a 0-based segment's 1-based
        line; ``lines``: the system's candidates) — the flags triage and the command's QA go by."""
        return [f for f in flags if not self.is_false_positive(f, line_of(f.segment), lines[f.segment])]

    def mark(self, flag: QAFlag, line: int, target: str, false_positive: bool = True,
             protected: tuple[Path, ...] = ()) -> None:
        """Record (or take back, ``false_positive=False``) a flag as a false positive: appended to the file at
        once; :class:`..errors.ExportError` when it cannot be written (nothing is changed then)."""
        row = {"system": flag.system, "segment": line, "check": flag.check, "target": target,
               "false_positive": false_positive, "detail": flag.detail}
        append_lines(self.path, [strict_dumps(row, indent=None)], protected)
        key = (flag.system, line, flag.check, target)
        if false_positive:
            self.false_positives[key] = flag.detail
        else:
            self.false_positives.pop(key, None)


def _key(path: Path, n: int, row: dict[str, object]) -> Key:
    system, segment, check, target = row.get("system"), row.get("segment"), row.get("check"), row.get("target")
    if not isinstance(system, str) or not isinstance(target, str) or check not in CHECKS or isinstance(
            segment, bool) or not isinstance(segment, int) or segment < 1:
        raise InputError(f"{path}: line {n}: a QA decision needs \"system\", \"segment\" (a line from 1), \"check\" "
                         f"(one of {', '.join(CHECKS)}) and \"target\" (the candidate's text)")
    return system, segment, str(check), target


def decisions_beside(review: str | Path) -> Path:
    """Where the QA decisions of a run live beside its review file: ``review.jsonl`` → ``review.qa.jsonl``."""
    review = Path(review)
    return review.with_name(f"{review.stem}.qa.jsonl")
