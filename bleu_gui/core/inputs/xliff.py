"""XLIFF 1.2 and 2.0: the source and target of each segment, from a CAT tool or a localisation project.

A segment is an XLIFF 1.2 ``<trans-unit>`` (or each ``<mrk mtype="seg">`` of its
``<seg-source>`` and ``<target>``, matched by ``mid``) or an XLIFF 2.0
``<segment>``; ``<ignorable>`` is not a segment. Inline codes become tags (see
:mod:`.markup`). The document of a segment is its ``<file>``. Units marked
``translate="no"`` are left out, and so is the header of a PO catalogue that
translate-toolkit's po2xliff writes as a unit (``restype="x-gettext-domain-header"``:
the catalogue's metadata, no text to translate); missing targets, targets still in an
untranslated state and targets that merely copy the source are counted in the
notes, since each changes what a score means.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree.ElementTree import Element

from ..errors import InputError
from .corpus import Context, Corpus, field_file
from .markup import Tag, flatten, local_name
from .safe_xml import iter_elements, xml_encoding

_UNTRANSLATED = {"new", "needs-translation", "initial"}
_HEADER = "x-gettext-domain-header"  # po2xliff's unit of the PO header


def is_segment_unit(attributes: Mapping[str, str]) -> bool:
    """Whether a unit with these attributes holds segments to read (see the module): the readers and the triage's
    writer skip the same units."""
    return attributes.get("translate") != "no" and attributes.get("restype") != _HEADER


@dataclass
class _Sides:
    source: list[str] = field(default_factory=list)
    target: list[str] = field(default_factory=list)
    source_tags: list[tuple[Tag, ...]] = field(default_factory=list)
    target_tags: list[tuple[Tag, ...]] = field(default_factory=list)
    docs: list[str] = field(default_factory=list)
    no_target: int = 0
    copies: int = 0
    skipped: int = 0
    reordered: int = 0
    whole_units: int = 0  # segmented sources (seg-source with mrk) beside a plain target: read as one segment
    states: Counter[str] = field(default_factory=Counter)
    units: list[int] = field(default_factory=list)  # segments per unit read (1.2 trans-unit, 2.0 unit), in order

    def add(self, doc: str, source: Element | None, target: Element | None, keep_tags: bool) -> None:
        src, src_tags = flatten(source, keep_tags) if source is not None else ("", ())
        tgt, tgt_tags = flatten(target, keep_tags) if target is not None else ("", ())
        if target is None:
            self.no_target += 1
        elif tgt == src and src:
            self.copies += 1
        self.source.append(src)
        self.target.append(tgt)
        self.source_tags.append(src_tags)
        self.target_tags.append(tgt_tags)
        self.docs.append(doc)


def _child(element: Element, name: str) -> Element | None:
    return next((c for c in element if local_name(c) == name), None)


def _segment_marks(element: Element | None) -> list[Element]:
    return [m for m in (element.iter() if element is not None else [])
            if local_name(m) == "mrk" and m.get("mtype") == "seg"]


def _segments_12(unit: Element, sides: _Sides) -> list[tuple[Element | None, Element | None]]:
    """(source, target) pairs of a 1.2 trans-unit: per ``mrk mtype="seg"`` when source and target are both
    segmented; a segmented source beside a plain target is the unit's one segment (its target cannot be
    split by the marks)."""
    source, target, seg_source = _child(unit, "source"), _child(unit, "target"), _child(unit, "seg-source")
    if seg_source is None:
        return [(source, target)]
    marks = _segment_marks(seg_source)
    if not marks:
        return [(seg_source, target)]
    target_marks = _segment_marks(target)
    if target is not None and not target_marks:
        sides.whole_units += 1
        return [(source if source is not None else seg_source, target)]
    targets = {m.get("mid"): m for m in target_marks}
    return [(m, targets.get(m.get("mid"))) for m in marks]


def unit_segment_counts(path: Path, data: bytes) -> tuple[list[int], str]:
    """How many segments :func:`read_xliff` reads of each unit it reads (units marked ``translate="no"`` are not
    among them), in order, and the XLIFF version: what a writer needs to put a segment's data back on its unit."""
    sides, version, _langs = _read_sides(path, data, False)
    return sides.units, version


def read_xliff(path: Path, data: bytes, keep_tags: bool = False) -> Corpus:
    """Read an XLIFF 1.2 or 2.0 file from its bytes: source and target sides, aligned segment by segment."""
    sides, version, langs = _read_sides(path, data, keep_tags)
    encoding = xml_encoding(data)
    target_name = f"target{f' ({langs[1]})' if langs[1] else ''}"
    target_file = field_file(path, target_name, sides.target, sides.target_tags,
                             encoding=encoding)
    source_file = field_file(path, f"source{f' ({langs[0]})' if langs[0] else ''}", sides.source,
                             sides.source_tags, encoding=encoding)
    return Corpus(path, f"xliff-{version}", translations=[target_file],
                  context=Context(source_file, tuple(sides.docs) if any(sides.docs) else None),
                  notes=tuple(f"{path.name}: {n}" for n in _notes(sides)), languages=langs if any(langs) else None)


def _read_sides(path: Path, data: bytes, keep_tags: bool) -> tuple[_Sides, str, tuple[str, str]]:
    sides = _Sides()
    version, doc, langs = "", "", ("", "")
    for element in iter_elements(path, data, {"trans-unit", "unit"}, frozenset({"xliff", "file"})):
        name = local_name(element)
        if name == "xliff":
            version = element.get("version", "")
            langs = (element.get("srcLang", ""), element.get("trgLang", ""))
        elif name == "file":
            doc = element.get("original") or element.get("id") or ""
            if element.get("source-language"):
                langs = (element.get("source-language", ""), element.get("target-language", ""))
        elif not is_segment_unit(element.attrib):
            sides.skipped += 1
        elif name == "trans-unit":
            target = _child(element, "target")
            if target is not None and target.get("state"):
                sides.states[target.get("state", "")] += 1
            pairs = _segments_12(element, sides)
            sides.units.append(len(pairs))
            for source, tgt in pairs:
                sides.add(doc, source, tgt, keep_tags)
        else:
            segments = [c for c in element if local_name(c) == "segment"]
            sides.units.append(len(segments))
            for segment in segments:
                target = _child(segment, "target")
                if target is not None and target.get("order"):
                    sides.reordered += 1
                if segment.get("state"):
                    sides.states[segment.get("state", "")] += 1
                sides.add(doc, _child(segment, "source"), target, keep_tags)
    if not version:
        raise InputError(f"{path}: not an XLIFF file (no <xliff> element)")
    if not sides.source:
        raise InputError(f"{path}: no segments (no <trans-unit> or <unit> with a source)")
    return sides, version, langs


def _notes(sides: _Sides) -> list[str]:
    notes = []
    if sides.skipped:
        notes.append(f"{sides.skipped} unit(s) marked translate=\"no\" or holding a PO header left out")
    if sides.no_target:
        notes.append(f"{sides.no_target} segment(s) have no target (read as empty)")
    untranslated = sum(n for state, n in sides.states.items() if state in _UNTRANSLATED)
    if untranslated:
        listing = ", ".join(f"{state} {n}" for state, n in sides.states.items() if state in _UNTRANSLATED)
        notes.append(f"{untranslated} target(s) in an untranslated state ({listing})")
    if sides.copies:
        notes.append(f"{sides.copies} target(s) are a copy of their source")
    if sides.whole_units:
        notes.append(f"{sides.whole_units} unit(s) segment their source (<seg-source> with <mrk mtype=\"seg\">) "
                     "but hold a plain <target>: each is read as one segment, its whole <source> and <target>")
    if sides.reordered:
        notes.append(f"{sides.reordered} target(s) carry order=: each is kept with its own segment")
    return notes
