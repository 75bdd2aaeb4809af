"""A reviewer's own error annotations, made in the window (MQM, or ESA: spans and a 0–100 score per segment) and
written to the file the reviewer chose as each change is made. The input files are never touched.

The file is JSON Lines as ``--annotations`` reads them (:mod:`..inputs.annotations`), one object per line:

- an error: ``{"system", "segment" (1-based line), "rater", "severity", "category", "start", "end", "side"?,
  "comment"?, "suggested_by"?, "typology"}`` — ``start``/``end`` code points of the unmarked text (end exclusive),
  absent for an error without a span (an omission, the whole segment); ``side`` is ``"source"`` for a span marked
  on the source; ``suggested_by`` names the file an accepted suggestion came from; a suggestion the reviewer
  rejected is kept as such a row with ``"rejected": true`` (``--annotations`` leaves it out);
- a reviewed segment: ``{"system", "segment", "rater", "reviewed": true, "esa"?, "seconds", "typology"}`` — read as
  the rater's rating of the segment (no error of its own: "No error" when it has no error row), its ESA score the
  human column ``esa``, ``seconds`` the time spent on it (shown in the active window, summed over every visit);
- a change taken back: the row it takes back with ``"withdrawn": true`` (an error removed, an undo), or
  ``{"system", "segment", "rater", "reviewed": false}`` (a segment no longer reviewed).

**The file only grows** (:mod:`..inputs.review_rows` says how its rows are read): each change is appended as the rows
that make it, in one write with ``O_APPEND`` under a lock on the file's folder, so no writer ever loses another's
rows — another rater's, another window's, or a program appending while the desk writes. Lines end with ``\n``
alone and are read split at ``\n`` alone: a comment holding U+2028, U+2029 or U+0085 is text. A write that the disk
cuts short is taken back (the file truncated to where it was); a last line another program left unfinished is
refused, naming it, before anything is appended after it. Reopening the file resumes the rater's work.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib.resources import files
from pathlib import Path

from ..errors import ExportError, InputError
from ..inputs.ratings import SOURCE, TARGET, ErrorSpan, RaterScore, Ratings, rating_score, severity_of
from ..inputs.raw_input import read_bytes
from ..inputs.review_rows import rows_in_force
from ..inputs.untrusted_json import json_lines, parse
from ..json_text import strict_dumps
from .exports import check_target

SEVERITIES = ("Minor", "Major", "Critical")  # what a reviewer marks (ESA: Minor and Major only)
ESA_SEVERITIES = ("Minor", "Major")


@dataclass(frozen=True)
class Mark:
    """One error the reviewer marked (see the module)."""

    system: str
    segment: int
    severity: str
    category: str = ""
    start: int | None = None
    end: int | None = None
    side: str = TARGET
    comment: str = ""
    suggested_by: str = ""
    time: str = ""  # when it was marked (ISO 8601, UTC; the LQA report's time)


@dataclass(frozen=True)
class Verdict:
    """A segment the reviewer has reviewed: its ESA score (None in MQM) and the seconds spent on it."""

    system: str
    segment: int
    esa: float | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class ReviewState:
    """Everything the reviewer said, at one moment (undo and redo move between these)."""

    marks: tuple[Mark, ...] = ()
    verdicts: tuple[Verdict, ...] = ()
    rejected: tuple[Mark, ...] = ()  # suggestions the reviewer turned down

    def marks_of(self, system: str, segment: int) -> list[Mark]:
        return [m for m in self.marks if m.system == system and m.segment == segment]

    def verdict(self, system: str, segment: int) -> Verdict | None:
        return next((v for v in self.verdicts if v.system == system and v.segment == segment), None)

    def reviewed(self, system: str, scored: bool = False) -> set[int]:
        """The segments of ``system`` the reviewer has reviewed: given a verdict or marked an error (MQM: an error
        is a rating of the segment); ``scored`` (ESA): given a verdict with its score, a span alone is no rating."""
        verdicts = {v.segment for v in self.verdicts if v.system == system}
        return verdicts if scored else verdicts | {m.segment for m in self.marks if m.system == system}


def _mark_row(m: Mark, rater: str, typology: str) -> dict[str, object]:
    row: dict[str, object] = {"system": m.system, "segment": m.segment, "rater": rater, "severity": m.severity,
                              "category": m.category}
    if m.start is not None and m.end is not None:
        row |= {"start": m.start, "end": m.end}
    if m.side != TARGET:
        row["side"] = m.side
    if m.comment:
        row["comment"] = m.comment
    if m.suggested_by:
        row["suggested_by"] = m.suggested_by
    if m.time:
        row["time"] = m.time
    return row | {"typology": typology}


def _verdict_row(v: Verdict, rater: str, typology: str) -> dict[str, object]:
    row: dict[str, object] = {"system": v.system, "segment": v.segment, "rater": rater, "reviewed": True}
    if v.esa is not None:
        row["esa"] = v.esa
    return row | {"seconds": round(v.seconds, 1), "typology": typology}


def _parse(path: Path, n: int, row: dict[str, object]) -> Mark | Verdict:
    """A row of the rater's (see the module): a mark (rejected or not: ``row["rejected"]`` says) or a verdict."""
    system, segment = row.get("system"), row.get("segment")
    if not isinstance(system, str) or not isinstance(segment, int) or isinstance(segment, bool) or segment < 1:
        raise InputError(f"{path}: line {n}: a review row needs \"system\" and \"segment\" (a line number from 1)")
    if row.get("reviewed") is True:
        esa = rating_score(row.get("esa"), "esa", f"{path}: line {n}")
        seconds = row.get("seconds", 0.0)
        return Verdict(system, segment, esa,
                       float(seconds) if isinstance(seconds, int | float) else 0.0)
    start, end = row.get("start"), row.get("end")
    if (start is None) != (end is None) or (start is not None and not (
            isinstance(start, int) and isinstance(end, int) and 0 <= start <= end)):
        raise InputError(f"{path}: line {n}: start and end must be character offsets, start ≤ end, or both absent")
    assert start is None or isinstance(start, int)
    assert end is None or isinstance(end, int)
    side = row.get("side", TARGET)
    if side not in (TARGET, SOURCE):
        raise InputError(f"{path}: line {n}: side must be target or source, got {json.dumps(side)}")
    return Mark(system, segment, severity_of(path, n, str(row.get("severity", ""))), str(row.get("category") or ""),
                start, end, str(side), str(row.get("comment") or ""), str(row.get("suggested_by") or ""),
                str(row.get("time") or ""))


@dataclass
class Review:
    """A reviewer's file (see the module): the rater's state, each change appended, with undo and redo."""

    path: Path
    rater: str
    typology: str
    state: ReviewState = field(default_factory=ReviewState)
    protected: tuple[Path, ...] = ()   # the run's inputs: never written to
    undone: list[ReviewState] = field(default_factory=list)
    done: list[ReviewState] = field(default_factory=list)

    @classmethod
    def open(cls, path: str | Path, rater: str, typology: str, protected: Iterable[str | Path] = ()) -> Review:
        """The review in ``path`` (a new one when the file does not exist): the rater's rows in force read back.
        :class:`InputError` names the line of a row that cannot be read."""
        path = Path(path)
        review = cls(path, rater, typology, protected=tuple(Path(p) for p in protected))
        with _locked(path):
            lines = _lines_of(path)
        marks: list[Mark] = []
        verdicts: list[Verdict] = []
        rejected: list[Mark] = []
        for n, row in rows_in_force(lines):
            if row.get("rater") != rater:
                continue
            item = _parse(path, n, row)
            if isinstance(item, Verdict):
                verdicts.append(item)
            else:
                (rejected if row.get("rejected") is True else marks).append(item)
        review.state = ReviewState(tuple(marks), tuple(verdicts), tuple(rejected))
        return review

    def rows_between(self, before: ReviewState, after: ReviewState) -> list[str]:
        """The lines that turn ``before`` into ``after`` in the file: what is taken back first, then what is new."""
        def row(m: Mark, rejected: bool) -> dict[str, object]:
            return _mark_row(m, self.rater, self.typology) | ({"rejected": True} if rejected else {})

        withdrawn: list[dict[str, object]] = []
        added: list[dict[str, object]] = []
        for rejected, old, new in ((False, before.marks, after.marks), (True, before.rejected, after.rejected)):
            gone, came = Counter(old) - Counter(new), Counter(new) - Counter(old)  # as multisets: a mark twice
            withdrawn += [row(m, rejected) | {"withdrawn": True} for m in gone.elements()]
            added += [row(m, rejected) for m in came.elements()]
        old_verdicts = {(v.system, v.segment): v for v in before.verdicts}
        new_verdicts = {(v.system, v.segment): v for v in after.verdicts}
        withdrawn += [{"system": system, "segment": segment, "rater": self.rater, "reviewed": False}
                      for system, segment in old_verdicts if (system, segment) not in new_verdicts]
        added += [_verdict_row(v, self.rater, self.typology) for k, v in new_verdicts.items()
                  if old_verdicts.get(k) != v]
        return [strict_dumps(r, indent=None) for r in [*withdrawn, *added]]

    def change(self, state: ReviewState) -> None:
        """Make ``state`` the review's and write it; the change can be undone."""
        if state == self.state:
            return
        self._write(self.state, state)
        self.done.append(self.state)
        self.undone.clear()
        self.state = state

    def _write(self, before: ReviewState, after: ReviewState) -> None:
        """Append what turns ``before`` into ``after`` (see the module); :class:`ExportError` when nothing could be
        written (the file then holds what it held)."""
        append_lines(self.path, self.rows_between(before, after), self.protected)

    def add(self, mark: Mark) -> None:
        self.change(replace(self.state, marks=(*self.state.marks, mark)))

    def remove(self, mark: Mark) -> None:
        marks = list(self.state.marks)
        marks.remove(mark)
        self.change(replace(self.state, marks=tuple(marks)))

    def reject(self, suggestion: Mark) -> None:
        """Turn a suggestion down (kept in the file, never read as an error)."""
        self.change(replace(self.state, rejected=(*self.state.rejected, suggestion)))

    def judge(self, system: str, segment: int, esa: float | None = None, seconds: float = 0.0) -> None:
        """Mark a segment reviewed (with its ESA score, checked as every reader checks one:
        :func:`..inputs.ratings.rating_score`); the seconds add to those spent on it before."""
        if esa is not None:
            esa = rating_score(esa, "esa", f"{self.path}: segment {segment} of {system}")
        old = self.state.verdict(system, segment)
        kept = tuple(v for v in self.state.verdicts if v is not old)
        spent = (old.seconds if old is not None else 0.0) + seconds
        self.change(replace(self.state, verdicts=(*kept, Verdict(system, segment, esa, spent))))

    def _step(self, source: list[ReviewState], target: list[ReviewState]) -> bool:
        if not source:
            return False
        self._write(self.state, source[-1])
        target.append(self.state)
        self.state = source.pop()
        return True

    def undo(self) -> bool:
        """Go back one change (the rows that take it back appended); False when there is none."""
        return self._step(self.done, self.undone)

    def redo(self) -> bool:
        return self._step(self.undone, self.done)


def append_lines(path: Path, lines: Sequence[str], protected: Iterable[str | Path] = ()) -> None:
    """Append ``lines`` (each ending ``\n``) to ``path`` in one write, under the folder's lock (see the module);
    never to an input (``protected``). :class:`ExportError` says why nothing was written."""
    if not lines:
        return
    check_target(path, protected)
    payload = "".join(line + "\n" for line in lines).encode("utf-8")
    with _locked(path):
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        except OSError as exc:
            raise ExportError(f"{path}: cannot write ({exc.strerror or exc})") from None
        try:
            before = os.fstat(fd).st_size
            if before and _tail(path, before):
                payload = _after_a_last_line(path, before) + payload
            _write_all(path, fd, payload, before)
        finally:
            os.close(fd)


def _tail(path: Path, size: int) -> bytes:
    """The file's last line (its bytes up to ``size``, after the last line end), read apart from the appending
    descriptor."""
    with open(path, "rb") as fh:
        start = max(0, size - (1 << 20))
        fh.seek(start)
        tail = fh.read(size - start)
    return tail[tail.rfind(b"\n") + 1:]


def _after_a_last_line(path: Path, size: int) -> bytes:
    """What goes before an append to a file whose last line has no line end: the line end, when that line is a
    whole row (another program wrote it without one); a line cut short is refused, naming it."""
    last = _tail(path, size)
    with open(path, "rb") as fh:
        line = sum(block.count(b"\n") for block in iter(lambda: fh.read(1 << 20), b"")) + 1
    try:
        parse(last.decode("utf-8"), str(path), line=line)
    except (UnicodeDecodeError, InputError):
        raise ExportError(f"{path}: line {line} is cut short (no line end, not a whole row: another program's "
                          "unfinished write?): nothing was written after it; end or remove that line") from None
    return b"\n"


def _write_all(path: Path, fd: int, payload: bytes, before: int) -> None:
    """One write of the whole payload; a write the disk cuts short is taken back, so no half row stays."""
    try:
        written = os.write(fd, payload)
        if written != len(payload):
            raise OSError(28, "the disk took only part of the write")
        os.fsync(fd)
    except OSError as exc:
        try:
            os.ftruncate(fd, before)
        except OSError:
            pass
        raise ExportError(f"{path}: cannot write ({exc.strerror or exc}): the review file holds what it held "
                          "before this change") from None


def _lines_of(path: Path) -> list[tuple[int, dict[str, object]]]:
    """The file's rows (line number, the object), split at ``\n`` alone and read through the one door for JSON;
    :class:`InputError` names a line that is not a JSON object, or the line and byte of text that is not UTF-8 (a
    UTF-8 BOM is read, as ``--annotations`` reads it)."""
    if not path.exists():
        return []
    data = read_bytes(path, "utf-8")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad_line = data[:exc.start].count(b"\n") + 1
        raise InputError(f"{path}: line {bad_line}: not UTF-8 (byte 0x{data[exc.start]:02x}): a review file is written "
                         "in UTF-8; convert it, or choose another file") from None
    out = []
    for n, row in json_lines(text, str(path)):
        if not isinstance(row, dict):
            raise InputError(f"{path}: line {n}: a JSON object per line is expected")
        out.append((n, row))
    return out


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """The review file's folder locked for one read-and-write (an advisory lock: every writer of bleu-gui takes it;
    where the system has none, nothing is locked)."""
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks on folders
        yield
        return
    try:
        fd = os.open(path.parent if str(path.parent) else ".", os.O_RDONLY)
    except OSError:
        yield  # the folder cannot be opened: the write says why
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def default_typology() -> tuple[str, ...]:
    """MQM's core typology, shipped with the package (``Dimension/Category`` per entry)."""
    return read_typology((files("bleu_gui") / "typologies" / "mqm-core.txt").read_text(encoding="utf-8"),
                         "mqm-core.txt")


def read_typology(text: str, where: str = "typology") -> tuple[str, ...]:
    """The categories of a typology file: one per line (``Accuracy/Mistranslation``), ``#`` starting a comment;
    :class:`InputError` for a file with none or a category given twice."""
    out: list[str] = []
    for n, line in enumerate(text.splitlines(), 1):
        name = line.split("#", 1)[0].strip()
        if not name:
            continue
        if name in out:
            raise InputError(f"{where}: line {n}: the category {name!r} is given twice")
        out.append(name)
    if not out:
        raise InputError(f"{where}: no category (one per line, # starts a comment)")
    return tuple(out)


def esa_with(rated: Sequence[Sequence[RaterScore]] | None, state: ReviewState, system: str, rater: str,
             n: int) -> tuple[float, ...]:
    """A system's ESA column once the reviewer's scores are in: each segment the mean over the other raters'
    scores (``rated``: as the run read them, per segment; the reviewer's own there give way to the review's) and
    the reviewer's, where given; NaN where nobody scored it. ``system``: as the review file names it."""
    mine = {v.segment: v.esa for v in state.verdicts if v.system == system and v.esa is not None}
    out = []
    for k in range(n):
        scores = [g.score for g in (rated[k] if rated is not None else ()) if g.rater != rater]
        scores += [mine[k + 1]] if k + 1 in mine else []
        out.append(sum(scores) / len(scores) if scores else math.nan)
    return tuple(out)


def ratings_with(base: Sequence[Ratings | None] | None, state: ReviewState, system: str, rater: str,
                 texts: Sequence[str], sources: Sequence[str] | None, path: str | Path = "") -> tuple[Ratings | None, ...]:
    """A system's ratings (``base``: as the run read them; None: none) with what ``rater`` said in the review file
    ``path`` replaced by the review's state — what a run scores once the reviewer's marks are in (the same as
    reading the run's annotation files and this one with ``--annotations``). The rater's ratings read from another
    file (an MQM review of theirs, under an ESA one now) stay. ``texts``/``sources``: the system's segments and the
    source's, for the marked text."""
    mine = os.path.realpath(path) if path else ""

    def this_review(source: str) -> bool:  # a row of the review file (or of no file known: the review's own)
        return not source or not mine or os.path.realpath(source) == mine

    out: list[Ratings | None] = []
    for k, text in enumerate(texts):
        before = base[k] if base is not None else None
        elsewhere = {s for r, s in (before.sources if before else ()) if r == rater and not this_review(s)}
        raters = [r for r in (before.raters if before else ()) if r != rater or elsewhere]
        errors = [e for e in (before.errors if before else ()) if e.rater != rater or not this_review(e.source)]
        corrections = tuple(c for c in (before.corrections if before else ()) if c[0] != rater or elsewhere)
        kept = [(r, s) for r, s in (before.sources if before else ()) if r != rater or not this_review(s)]
        marks = state.marks_of(system, k + 1)
        if marks or state.verdict(system, k + 1) is not None:
            if rater not in raters:
                raters.append(rater)
            kept.append((rater, str(path)))
            for m in marks:
                side_text = (sources[k] if sources is not None else "") if m.side == SOURCE else text
                marked = side_text[m.start:m.end] if m.start is not None and m.end is not None else ""
                errors.append(ErrorSpan(rater, m.category, m.severity, m.start, m.end, m.side, marked, m.comment,
                                        source=str(path), time=m.time))
        out.append(Ratings(tuple(raters), tuple(errors), corrections, tuple(kept)) if raters else None)
    return tuple(out)


def _marked(text: str, start: int | None, end: int | None) -> str:
    """``text`` with ``<v>…</v>`` around the span (MQM TSVs mark spans so); tabs and line breaks as spaces."""
    flat = text.replace("\t", " ").replace("\n", " ").replace("\r", " ")
    if start is None or end is None:
        return flat
    return f"{flat[:start]}<v>{flat[start:end]}</v>{flat[end:]}"


def marot_tsv(state: ReviewState, rater: str, texts: Mapping[str, Sequence[str]], sources: Sequence[str] | None,
              docs: Sequence[str] | None) -> str:
    """The review as Marot's TSV (``system doc docSegId globalSegId rater source target category severity
    metadata``, with a header): an error per row, its span marked ``<v>…</v>`` in the target (or, an omission, in
    the source); a segment reviewed without an error one No-error row; comments in the metadata's ``note``.
    ``texts``: each system's segments by the name its marks carry."""
    header = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata"
    rows = [header]
    flagged = {(m.system, m.segment) for m in state.marks}
    entries: list[tuple[str, int, Mark | None]] = [(m.system, m.segment, m) for m in state.marks]
    entries += [(v.system, v.segment, None) for v in state.verdicts if (v.system, v.segment) not in flagged]
    for system, segment, mark in sorted(entries, key=lambda e: (e[0], e[1])):
        k = segment - 1
        lines = texts.get(system)
        if lines is None or not 0 <= k < len(lines):
            continue
        source = sources[k] if sources is not None and k < len(sources) else ""
        doc = docs[k] if docs is not None and k < len(docs) else "doc"
        in_doc = sum(1 for d in (docs[:k] if docs is not None else range(k)) if docs is None or d == doc) + 1
        if mark is None:
            target, src, category, severity, meta = _marked(lines[k], None, None), _marked(source, None, None), \
                "No-error", "no-error", {}
        else:
            on_source = mark.side == SOURCE
            target = _marked(lines[k], None if on_source else mark.start, None if on_source else mark.end)
            src = _marked(source, mark.start if on_source else None, mark.end if on_source else None)
            category, severity = mark.category or "Other", mark.severity
            meta = {"note": mark.comment} if mark.comment else {}
        rows.append("\t".join([system, doc, str(in_doc), str(segment), rater, src, target, category, severity,
                               json.dumps(meta, ensure_ascii=False)]))
    return "".join(row + "\n" for row in rows)
