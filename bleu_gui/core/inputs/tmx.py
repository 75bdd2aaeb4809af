"""TMX 1.4 translation memories: two chosen languages of each translation unit, as source and target.

Languages are compared without regard to case (``En-uS`` is ``en-us``). By
default the header's ``srclang`` is the source and the one other language the
target; with more languages, or a ``srclang`` of ``*all*``, the two must be
chosen. A unit that lacks either language is left out and counted. Inline codes
(``bpt``/``ept``, ``it``, ``ph``, ``ut``, and ``hi``'s wrapper) become tags;
their content is the original document's markup, never text.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError, term
from .corpus import Context, Corpus, field_file
from .markup import Tag, flatten, local_name
from .safe_xml import iter_elements, xml_encoding
from .text_files import SegmentFile

_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def read_tmx(path: Path, data: bytes, langs: tuple[str, str] | None = None, keep_tags: bool = False) -> Corpus:
    """Read a TMX file from its bytes; ``langs`` = (source language, target language), or None for the default
    (see the module)."""
    units: list[dict[str, tuple[str, tuple[Tag, ...]]]] = []
    spelled: dict[str, str] = {}  # lower-case code -> first spelling seen
    header_source = ""
    seen_tmx = False
    for element in iter_elements(path, data, {"tu", "header"}, frozenset({"tmx"})):
        name = local_name(element)
        if name == "tmx":
            seen_tmx = True
        elif name == "header":
            header_source = element.get("srclang", "").lower()
        else:
            unit = {}
            for tuv in (c for c in element if local_name(c) == "tuv"):
                lang = tuv.get(_XML_LANG) or tuv.get("lang") or ""
                seg = next((c for c in tuv if local_name(c) == "seg"), None)
                if seg is not None and lang:
                    spelled.setdefault(lang.lower(), lang)
                    unit[lang.lower()] = flatten(seg, keep_tags)
            units.append(unit)
    if not seen_tmx:
        raise InputError(f"{path}: not a TMX file (no <tmx> element)")
    source_lang, target_lang = _choose(path, langs, header_source, list(spelled))
    kept = [u for u in units if source_lang in u and target_lang in u]
    if not kept:
        raise InputError(f"{path}: no translation unit has both {spelled.get(source_lang, source_lang)} and "
                         f"{spelled.get(target_lang, target_lang)}")
    encoding = xml_encoding(data)

    def side(lang: str, role: str) -> SegmentFile:
        return field_file(path, f"{role} ({spelled[lang]})", [u[lang][0] for u in kept], [u[lang][1] for u in kept],
                          encoding=encoding)

    notes = [f"languages: {spelled[source_lang]} as source, {spelled[target_lang]} as target"]
    if len(kept) < len(units):
        notes.append(f"{len(units) - len(kept)} translation unit(s) without both languages left out")
    return Corpus(path, "tmx", translations=[side(target_lang, "target")], context=Context(side(source_lang, "source")),
                  notes=tuple(f"{path.name}: {n}" for n in notes), languages=(spelled[source_lang], spelled[target_lang]))


def _choose(path: Path, langs: tuple[str, str] | None, header_source: str, seen: list[str]) -> tuple[str, str]:
    listing = ", ".join(seen) or "none"
    if langs is not None:
        chosen = (langs[0].lower(), langs[1].lower())
        for lang in chosen:
            if lang not in seen:
                raise InputError(f"{path}: no language {lang!r} in the file (it has {listing})")
        return chosen
    others = [lang for lang in seen if lang != header_source]
    if header_source in seen and len(others) == 1:
        return header_source, others[0]
    if len(seen) == 2 and header_source not in seen:
        return seen[0], seen[1]
    raise InputError(f"{path}: choose the source and target languages with {term('langs', 'SRC TGT')} (the file has "
                     f"{listing})")
