"""What a structured file holds: named fields aligned segment by segment, and the documents they form.

Every reader of a structured format (WMT XML, SGML, TSV/JSONL, XLIFF, TMX)
returns a :class:`Corpus`; :mod:`.inputs` decides which of its fields are
systems, references and source for a run.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import InputError, term
from .markup import Tag
from .text_files import SegmentFile


@dataclass(frozen=True)
class Context:
    """What surrounds the scored segments: the source, the document of each segment and other metadata.

    Nothing here changes a score; slices (:mod:`.slices`) select segments by it.
    """

    source: SegmentFile | None = None
    docs: tuple[str, ...] | None = None             # document id per segment
    meta: dict[str, tuple[str, ...]] = field(default_factory=dict)  # origlang, domain, ... per segment
    notes: tuple[str, ...] = ()                     # where each part came from, when not given explicitly
    segment_ids: tuple[str, ...] | None = None      # each segment's id in its input (WMT XML, TSV, JSONL)
    # (source, target) languages as the input declares them ('' where it does not), and where that was said.
    languages: tuple[str, str] | None = None
    languages_from: str = ""
    test_set: tuple[str, str] | None = None  # (name, language pair): read from sacreBLEU's registry by name

    @property
    def target_language(self) -> str:
        """The declared target language ('' when unknown)."""
        return self.languages[1] if self.languages is not None else ""

    def columns(self) -> dict[str, tuple[str, ...]]:
        """Every per-segment value a slice can select by, ``doc`` first."""
        return ({"doc": self.docs} if self.docs is not None else {}) | self.meta

    def check_length(self, n: int) -> None:
        """Raise :class:`InputError` unless every part has ``n`` segments."""
        if self.source is not None and len(self.source.lines) != n:
            raise InputError(f"the source {self.source.name} has {len(self.source.lines):,} segments, "
                             f"the systems {n:,}")
        if self.segment_ids is not None and len(self.segment_ids) != n:
            raise InputError(f"{len(self.segment_ids):,} segment ids for {n:,} segments")
        for name, values in self.columns().items():
            if len(values) != n:
                raise InputError(f"the {name} column has {len(values):,} values for {n:,} segments")

    def subset(self, rows: list[int]) -> Context:
        """The context of the segments ``rows`` (in that order)."""
        source = None if self.source is None else subset_file(self.source, rows)
        docs = None if self.docs is None else tuple(self.docs[i] for i in rows)
        meta = {k: tuple(v[i] for i in rows) for k, v in self.meta.items()}
        ids = None if self.segment_ids is None else tuple(self.segment_ids[i] for i in rows)
        return replace(self, source=source, docs=docs, meta=meta, segment_ids=ids)


def subset_file(f: SegmentFile, rows: list[int]) -> SegmentFile:
    """The segments ``rows`` of a file (and their tags, scores and ratings), as a file of its own."""
    tags = None if f.tags is None else tuple(f.tags[i] for i in rows)
    scores = {name: tuple(values[i] for i in rows) for name, values in f.scores.items()}
    ratings = None if f.annotations is None else tuple(f.annotations[i] for i in rows)
    return replace(f, lines=[f.lines[i] for i in rows], tags=tags, scores=scores, annotations=ratings)


@dataclass(frozen=True)
class Corpus:
    """The fields of one structured file.

    ``systems`` and ``references`` are fields the file names as such (WMT XML,
    a TSV with a system column); ``translations`` are target-side fields whose
    role depends on how the file was given (an XLIFF target is the candidate
    with ``-i`` and the reference otherwise).
    """

    path: Path
    format: str
    systems: list[SegmentFile] = field(default_factory=list)
    references: list[SegmentFile] = field(default_factory=list)
    translations: list[SegmentFile] = field(default_factory=list)
    context: Context = Context()
    notes: tuple[str, ...] = ()
    languages: tuple[str, str] | None = None  # (source, target) as the file declares them, '' where it does not
    # A table's text columns no role took (a wide sheet's engines, before --column or --refs says which they are).
    unroled: tuple[str, ...] = ()

    def which_columns(self) -> str:
        """What to give to read a table whose text columns have no role (see :attr:`unroled`), as a message."""
        shown = ",".join(self.unroled)
        if self.references:
            how = f"name the systems' columns with {term('columns', f'candidate={shown}')}"
        else:
            how = (f"name the reference's column with {term('refs_wanted', self.unroled[0])}: the other text "
                   f"columns are then the systems (or give {term('columns', f'candidate={shown}')} and a reference)")
        return (f"{self.path}: no column is named as the candidate{'' if self.references else ' nor the reference'} "
                f"(text columns without a role: {', '.join(self.unroled)}); {how}")


def field_file(path: Path, name: str, lines: list[str], tags: list[tuple[Tag, ...]] | None = None, *,
               encoding: str, detected: bool = False) -> SegmentFile:
    """A field of a structured file as a :class:`SegmentFile` (``encoding``: how its text was decoded,
    ``detected``: whether that encoding was detected)."""
    if tags is not None and not any(tags):
        tags = None
    return SegmentFile(path, lines, encoding, detected, field=name, tags=None if tags is None else tuple(tags))
