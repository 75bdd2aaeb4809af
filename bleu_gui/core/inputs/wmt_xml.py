"""WMT XML (2021 and later): ``<dataset>`` → (``<collection>``) → ``<doc>`` with ``<src>``, ``<ref>``s, ``<hyp>``s.

The segments are those sacreBLEU's own reader (``WMTXMLDataset``) extracts, so
scores equal its figures: documents in file order, ``testsuite`` documents
skipped, segments by numeric id, a segment dropped when no reference has text
for it, ``""`` for a translator that lacks it, lines cleaned as sacreBLEU
cleans them. Where sacreBLEU would raise a ``KeyError`` or silently misalign
(a system missing a segment or a whole document), this reader stops with a
message naming the system and the documents. Documents are streamed one at a
time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from xml.etree.ElementTree import Element

from ..errors import InputError
from .corpus import Context, Corpus, field_file
from .markup import clean, local_name
from .safe_xml import iter_elements, xml_encoding


@dataclass
class _Fields:
    source: list[str] = field(default_factory=list)
    references: dict[str, list[str]] = field(default_factory=dict)
    systems: dict[str, list[str]] = field(default_factory=dict)
    docs: list[str] = field(default_factory=list)
    seg_ids: list[str] = field(default_factory=list)  # each kept segment's id within its document
    origlang: list[str] = field(default_factory=list)
    domain: list[str] = field(default_factory=list)
    missing: dict[str, list[str]] = field(default_factory=dict)  # system -> documents it lacks
    cut: list[str] = field(default_factory=list)  # "doc:seg (field)" of segments whose text a child element ends
    skipped_docs: int = 0    # test-suite documents
    dropped: int = 0         # segments no reference has text for
    n_docs: int = 0
    source_lang: str = ""    # the first lang attribute of a <src>, and of a <ref> or <hyp>
    target_lang: str = ""


def _segments(path: Path, part: Element, doc_id: str, name: str, out: _Fields) -> dict[int, str]:
    """The raw text of each segment of one <src>, <ref> or <hyp> by id (``.//seg``, no namespace, as sacreBLEU
    finds them). As lxml's ``seg.text``, it is the text before the first child: an element, a comment or a
    processing instruction ends it."""
    segments: dict[int, str] = {}
    for seg in part.iter("seg"):
        try:
            ident = int(seg.get("id", ""))
        except ValueError:
            raise InputError(f"{path}: document {doc_id!r}: a <seg> has no numeric id ({seg.get('id')!r})") from None
        if ident in segments:
            raise InputError(f"{path}: document {doc_id!r}: segment id {ident} occurs twice")
        segments[ident] = seg.text or ""
        if len(seg):
            out.cut.append(f"{doc_id}:{ident} ({name})")
    return segments


def _reference_field(translator: str | None) -> str:
    return "ref" if translator is None else f"ref:{translator}"


def _add_document(path: Path, doc: Element, out: _Fields) -> None:
    doc_id = doc.get("id", "")
    parts: dict[str, list[Element]] = {"src": [], "ref": [], "hyp": []}
    for child in doc:
        name = local_name(child)
        if name in parts:
            parts[name].append(child)
    if not parts["src"]:
        raise InputError(f"{path}: document {doc_id!r} has no <src>")
    source = {k: v for part in parts["src"] for k, v in _segments(path, part, doc_id, "source", out).items()}
    refs = {(name := _reference_field(r.get("translator"))): _segments(path, r, doc_id, name, out)
            for r in parts["ref"]}
    hyps = {(system := h.get("system", "")): _segments(path, h, doc_id, system, out) for h in parts["hyp"]}
    _note_fields(doc_id, bool(source), refs, hyps, out)
    out.source_lang = out.source_lang or next((p.get("lang", "") for p in parts["src"] if p.get("lang")), "")
    out.target_lang = out.target_lang or next((p.get("lang", "") for p in parts["ref"] + parts["hyp"]
                                               if p.get("lang")), "")
    for seg_id in sorted(source):
        # sacreBLEU tests the raw text: a reference of whitespace only keeps its segment (and reads as empty).
        if not any(r.get(seg_id, "") for r in refs.values()):
            out.dropped += 1
            continue
        for name, lines in out.references.items():
            lines.append(clean(refs.get(name, {}).get(seg_id, "")))
        out.source.append(clean(source[seg_id]))
        for system, segments in hyps.items():
            if seg_id not in segments:
                raise InputError(f"{path}: system {system!r} lacks segment {seg_id} of document {doc_id!r}")
            out.systems[system].append(clean(segments[seg_id]))
        out.docs.append(doc_id)
        out.seg_ids.append(str(seg_id))
        out.origlang.append(doc.get("origlang", ""))
        out.domain.append(doc.get("domain", ""))


def _note_fields(doc_id: str, has_source: bool, refs: dict[str, dict[int, str]], hyps: dict[str, dict[int, str]],
                 out: _Fields) -> None:
    """Make room for translators and systems a document brings, and note systems that miss whole documents."""
    for name in refs:
        if name not in out.references:
            out.references[name] = [""] * len(out.source)  # a translator first seen here had no earlier segment
    for system in hyps:
        if system not in out.systems:
            out.systems[system] = []
            if out.source:
                out.missing.setdefault(system, []).append("(every earlier document)")
    for system in out.systems:
        if system not in hyps and has_source:
            out.missing.setdefault(system, []).append(doc_id)


def read_wmt_xml(path: Path, data: bytes) -> Corpus:
    """Read a WMT XML file (2021+) from its bytes: source, every translator's reference, every system (see the
    module)."""
    out = _Fields()
    for doc in iter_elements(path, data, {"doc"}, comments=True):
        if "testsuite" in doc.attrib:
            out.skipped_docs += 1
            continue
        out.n_docs += 1
        _add_document(path, doc, out)
    if out.missing:
        listing = "; ".join(f"{system!r} lacks {', '.join(docs[:5])}{' …' if len(docs) > 5 else ''}"
                            for system, docs in out.missing.items())
        raise InputError(f"{path}: systems miss whole documents ({listing}); every system must cover every "
                         "document (sacreBLEU would misalign them silently)")
    if not out.source:
        raise InputError(f"{path}: no segments with a reference (is this a WMT XML file with <doc>, <src>, <ref>?)")
    encoding = xml_encoding(data)
    notes = []
    if out.skipped_docs:
        notes.append(f"{out.skipped_docs} test-suite document(s) skipped, as sacreBLEU skips them")
    if out.dropped:
        notes.append(f"{out.dropped} segment(s) without any reference text left out, as sacreBLEU leaves them out")
    if out.cut:
        shown = ", ".join(out.cut[:5]) + (f" and {len(out.cut) - 5} more" if len(out.cut) > 5 else "")
        notes.append(f"{len(out.cut)} segment(s) hold an element, comment or processing instruction: only the text "
                     f"before it is read, as sacreBLEU reads it ({shown})")
    meta = {"origlang": tuple(out.origlang)}
    if any(out.domain):
        meta["domain"] = tuple(out.domain)
    source = field_file(path, "source", out.source, encoding=encoding)
    return Corpus(
        path, "wmt-xml",
        systems=[field_file(path, name, lines, encoding=encoding) for name, lines in out.systems.items()],
        references=[field_file(path, name, lines, encoding=encoding) for name, lines in sorted(out.references.items())],
        context=Context(source, tuple(out.docs), meta, segment_ids=tuple(out.seg_ids)),
        notes=tuple(f"{path.name}: {n}" for n in notes),
        languages=(out.source_lang, out.target_lang) if out.source_lang or out.target_lang else None)
