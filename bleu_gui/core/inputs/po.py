"""gettext catalogues (``.po``), as software localisation exchanges them, read with polib.

A catalogue's entries are its segments, keyed by ``msgctxt`` + ``msgid`` — never by position: a reference
catalogue and the system catalogues are matched by key (:func:`align_catalogues`), entries in any order. A plural
entry is one segment per plural form (``msgstr[0]``, ``msgstr[1]``, …; its source the ``msgid`` for form 0 and
the ``msgid_plural`` after). The source is the ``msgid``; each entry's references (``#: file:line``), flags
(``#, fuzzy, c-format``) and extracted comments (``#.``) are segment metadata (``po_file``, ``flags``, ``comment``)
a slice can select by. An untranslated entry (empty ``msgstr``) is an empty segment: in a reference the
empty-reference rule applies, in a system it scores as empty; fuzzy entries are read as they are; both are
counted in the notes. Obsolete entries (``#~``) are left out. A syntax error names the line; two entries with the
same key are refused; a compiled ``.mo`` is refused with the way to its ``.po``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from ..errors import InputError
from .corpus import Context, Corpus, field_file
from .text_files import SegmentFile

CONTEXT_SEP = "\x04"  # gettext's separator of msgctxt and msgid in a compiled catalogue's keys
_CHARSET = re.compile(rb"charset=([A-Za-z0-9_.:-]+)")
# A line of a string: a keyword and its first string, or a continuation string. msgfmt requires the string to be
# closed on its line ("end-of-line within string"); polib reads ``msgstr "Speichern`` as ``Speicher``.
_STRING_LINE = re.compile(r'\s*(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"')
_CLOSED_STRING = re.compile(r'"(?:[^"\\]|\\.)*"\s*')
# The escapes of a C string, as msgfmt reads them (gettext's po-lex.c): a backslash before anything else is refused.
_ESCAPE = re.compile(r"\\(.)")
_C_ESCAPES = frozenset('ntbrfva\\"01234567x')


def _decoded(path: Path, data: bytes, encoding: str) -> str:
    """The catalogue's text in the charset its header declares (UTF-8 without one, or the one asked for)."""
    declared = _CHARSET.search(data[:4096])
    charset = declared.group(1).decode("ascii") if declared else ("utf-8" if encoding == "auto" else encoding)
    try:
        return data.decode(charset).removeprefix("\ufeff")
    except (LookupError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not readable as {charset}, the charset its header declares ({exc})") from None


def key_label(key: str) -> str:
    """An entry's key as a message shows it: ``"Open"`` or ``"Open" (context "menu")``, with the plural form."""
    form = ""
    if key.endswith("]") and "[" in key:
        key, form = key[:key.rindex("[")], f" form {key[key.rindex('[') + 1:-1]}"
    ctx, sep, msgid = key.partition(CONTEXT_SEP)
    if not sep:
        ctx, msgid = "", ctx
    shown = msgid if len(msgid) <= 40 else msgid[:39] + "…"
    return f'"{shown}"' + (f' (context "{ctx}")' if ctx else "") + form


def read_po(path: Path, data: bytes, encoding: str) -> Corpus:
    """A catalogue's entries as one translation field (``msgstr``), the source (``msgid``), each entry's key as
    its segment id and its references, flags and comments as metadata (see the module)."""
    import polib  # loaded when a catalogue is read

    text = _decoded(path, data, encoding)
    _check_strings_closed(path, text)
    try:
        catalogue = polib.pofile(text)
    except OSError as exc:  # polib says "Syntax error in po file (line N)"
        raise InputError(f"{path}: {exc}".replace("Syntax error in po file", "not a gettext catalogue: syntax error")
                         ) from None
    keys: list[str] = []
    sources: list[str] = []
    targets: list[str] = []
    meta: dict[str, list[str]] = {"po_file": [], "flags": [], "comment": []}
    first_line: dict[str, int] = {}
    fuzzy = untranslated = obsolete = 0
    lines = iter(_msgid_lines(text, sum(not e.obsolete for e in catalogue)))
    for entry in catalogue:
        if entry.obsolete:
            obsolete += 1
            continue
        line = next(lines, 0)
        key = (f"{entry.msgctxt}{CONTEXT_SEP}" if entry.msgctxt is not None else "") + entry.msgid
        if key in first_line:
            raise InputError(f"{path}: line {line}: the entry {key_label(key)} is given twice (first at line "
                             f"{first_line[key]}); msgctxt + msgid name one entry")
        first_line[key] = line
        forms = ([(key, entry.msgid, entry.msgstr)] if not entry.msgid_plural else
                 [(f"{key}[{n}]", entry.msgid if n == 0 else entry.msgid_plural, text)
                  for n, text in sorted(entry.msgstr_plural.items())])
        fuzzy += entry.fuzzy
        untranslated += not entry.translated() and not entry.fuzzy
        for form_key, source, target in forms:
            keys.append(form_key)
            sources.append(source)
            targets.append(target)
            meta["po_file"].append(" ".join(f"{f}:{n}" if n else f for f, n in entry.occurrences))
            meta["flags"].append(",".join(entry.flags))
            meta["comment"].append(entry.comment)
    if not keys:
        raise InputError(f"{path}: the catalogue has no entry to score (only its header)")
    entries, segments = len(first_line), len(keys)
    notes = [f"{path.name}: a gettext catalogue of {entries:,} {'entry' if entries == 1 else 'entries'} ({segments:,} "
             f"{'segment' if segments == 1 else 'segments'}: each plural form one), matched with the other catalogues "
             "by msgctxt + msgid"]
    counted = {"fuzzy entries read as they are": fuzzy,
               "untranslated entries (empty msgstr): an empty segment": untranslated,
               "obsolete entries (#~) left out": obsolete}
    notes += [f"{path.name}: {n:,} {what}" for what, n in counted.items() if n]
    context = Context(source=field_file(path, "msgid", sources, encoding="utf-8"),
                      meta={k: tuple(v) for k, v in meta.items() if any(v)}, segment_ids=tuple(keys))
    language = catalogue.metadata.get("Language", "").strip()
    # No field name: a catalogue holds one translation, named by its file (sys.po), as a text file is.
    return Corpus(path, "po", translations=[field_file(path, "", targets, encoding="utf-8")], context=context,
                  notes=tuple(notes), languages=("", language) if language else None)


def _check_strings_closed(path: Path, text: str) -> None:
    """Refuse what msgfmt refuses and polib reads otherwise, naming the line: a string not closed on its line, an
    escape C does not have (``\\q``: polib keeps it as it is), and ``msgstr[N]`` in an entry without
    ``msgid_plural`` (polib reads it as an empty translation)."""
    plural = False
    for number, line in enumerate(text.splitlines(), 1):
        start = _STRING_LINE.match(line)
        if start is None:
            continue
        shown = line.strip() if len(line.strip()) <= 60 else line.strip()[:59] + "…"
        if not _CLOSED_STRING.fullmatch(line, start.end() - 1):
            raise InputError(f"{path}: line {number}: a string not closed on its line ({shown}); msgfmt refuses it "
                             "too (end-of-line within string)")
        bad = next((m.group() for m in _ESCAPE.finditer(line, start.end()) if m.group(1) not in _C_ESCAPES), None)
        if bad is not None:
            raise InputError(f"{path}: line {number}: {bad} is no escape of a C string ({shown}); msgfmt refuses it "
                             "too (invalid control sequence)")
        keyword = line.split(None, 1)[0]
        if keyword == "msgid":
            plural = False
        elif keyword == "msgid_plural":
            plural = True
        elif keyword.startswith("msgstr[") and not plural:
            raise InputError(f"{path}: line {number}: {keyword} in an entry without msgid_plural; msgfmt refuses it "
                             "too (missing 'msgid_plural' section): a singular entry's translation is msgstr")


def _msgid_lines(text: str, entries: int) -> list[int]:
    """The line of each of the catalogue's ``entries`` (not obsolete) by its ``msgid`` (1-based), in order; the
    header's left out when polib took one (an empty ``msgid ""`` header too). polib's own line numbers point at an
    entry's first comment, or at 0."""
    found = [n for n, line in enumerate(text.splitlines(), 1) if line.startswith("msgid ")]
    if len(found) > entries:
        header = next(i for i, n in enumerate(found) if text.splitlines()[n - 1].strip() == 'msgid ""')
        found = found[:header] + found[header + 1:]
    return found


def read_mo(path: Path, data: bytes, encoding: str) -> Corpus:
    """A compiled catalogue is not read: it has lost its comments and references, and is often a build's."""
    raise InputError(f"{path}: a compiled gettext catalogue (.mo): give the .po it was compiled from (msgunfmt "
                     f"{path.name} -o {path.stem}.po writes one)")


def _reordered(corpus: Corpus, order: Sequence[int], keys: tuple[str, ...]) -> Corpus:
    def pick(f: SegmentFile) -> SegmentFile:
        return replace(f, lines=[f.lines[i] for i in order])

    context = corpus.context
    source = pick(context.source) if context.source is not None else None
    meta = {k: tuple(v[i] for i in order) for k, v in context.meta.items()}
    return replace(corpus, translations=[pick(f) for f in corpus.translations],
                   context=replace(context, source=source, meta=meta, segment_ids=keys))


def aligned(corpus: Corpus, keys: tuple[str, ...], reference: Path) -> Corpus:
    """``corpus`` (a catalogue) with its entries in the order of ``keys`` (the reference catalogue's);
    :class:`InputError` naming the entries one of them lacks."""
    own = corpus.context.segment_ids or ()
    if own == keys:
        return corpus
    where = {k: i for i, k in enumerate(own)}
    missing = [k for k in keys if k not in where]
    extra = [k for k in own if k not in set(keys)]
    if missing or extra:
        said = []
        for what, found, other in ((f"lacks {len(missing):,} entries of {reference.name}", missing, corpus.path),
                                   (f"has {len(extra):,} entries {reference.name} lacks", extra, corpus.path)):
            if found:
                shown = ", ".join(key_label(k) for k in found[:4]) + (" …" if len(found) > 4 else "")
                said.append(f"{other.name} {what}: {shown}")
        raise InputError(f"{corpus.path}: the catalogues do not hold the same entries: {'; '.join(said)} (entries "
                         "are matched by msgctxt + msgid)")
    return _reordered(corpus, [where[k] for k in keys], keys)


def align_catalogues(read: list[SegmentFile | Corpus], first_reference: int) -> list[SegmentFile | Corpus]:
    """Every catalogue of ``read`` in the order of the first catalogue from index ``first_reference`` on (the
    reference files; else the first catalogue read): catalogues are matched by key, never by position."""
    catalogues = [i for i, item in enumerate(read) if isinstance(item, Corpus) and item.format == "po"]
    if len(catalogues) < 2:
        return read
    anchor = next((i for i in catalogues if i >= first_reference), catalogues[0])
    head = read[anchor]
    assert isinstance(head, Corpus)
    keys = head.context.segment_ids or ()
    return [aligned(item, keys, head.path) if i in catalogues and i != anchor and isinstance(item, Corpus) else item
            for i, item in enumerate(read)]
