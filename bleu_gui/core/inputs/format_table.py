"""Which reader reads a file: by ``--input-format``, else by extension and a look at its first bytes."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InputError, term
from .untrusted_json import JsonRefused, parse

if TYPE_CHECKING:
    from .corpus import Corpus

FORMATS = ("text", "wmt-xml", "sgml", "tsv", "jsonl", "xliff", "tmx", "po", "xlsx")
# A ``.txt`` is text whatever its first line looks like (``{count} files deleted`` is a localisation string).
_EXTENSIONS = {".txt": "text", ".sgm": "sgml", ".sgml": "sgml", ".tsv": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl",
               ".xlf": "xliff", ".xliff": "xliff", ".sdlxliff": "xliff", ".mqxliff": "xliff", ".tmx": "tmx",
               ".po": "po", ".pot": "po", ".mo": "mo", ".xlsx": "xlsx", ".xlsm": "xlsx", ".xls": "xlsx", ".ods": "xlsx"}
_ROOTS = {b"<dataset": "wmt-xml", b"<xliff": "xliff", b"<tmx": "tmx", b"<srcset": "sgml", b"<refset": "sgml",
          b"<tstset": "sgml"}


@dataclass(frozen=True)
class ReadOptions:
    """How structured files are read (none of it applies to plain text)."""

    input_format: str | None = None      # one of FORMATS, or None to sniff each file
    keep_tags: bool = False               # XLIFF/TMX inline tags as tokens instead of taken out
    langs: tuple[str, str] | None = None  # TMX: (source, target) languages
    columns: Mapping[str, str] = field(default_factory=dict)  # TSV/JSONL/workbooks: role -> column name(s)
    sheet: str | None = None              # a workbook's sheet to read (default: the first)
    # The references asked for by name (--refs): in a table without candidate columns, a column so named is the
    # reference and the other text columns are the systems. Set by the run from its request, never saved.
    refs: tuple[str, ...] = ()


_SNIFF_BYTES = 1 << 20  # how far into a file its first element is looked for (comments may come first)
_SKIPPED = ((b"<?", b"?>"), (b"<!--", b"-->"), (b"<!", b">"))  # declaration, comment, DOCTYPE: not the root


def _text_head(data: bytes) -> bytes:
    """The start of ``data`` as UTF-8 bytes (UTF-16 by its byte order mark), without a UTF-8 BOM."""
    head = data[:_SNIFF_BYTES]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return head.decode("utf-16", errors="replace").encode("utf-8", errors="replace")
    return head.removeprefix(b"\xef\xbb\xbf")


def _first_element(head: bytes) -> bytes:
    """The name of the first element, after the XML declaration, comments, processing instructions and a
    DOCTYPE (lower-cased, with ``<``); empty when the head starts otherwise."""
    pos = 0
    while True:
        while pos < len(head) and head[pos:pos + 1].isspace():
            pos += 1
        if not head.startswith(b"<", pos):
            return b""
        skip = next(((start, end) for start, end in _SKIPPED if head.startswith(start, pos)), None)
        if skip is None:
            name = re.match(rb"<[^\s/>]*", head[pos:])
            return name.group().lower() if name else b""
        close = head.find(skip[1], pos + len(skip[0]))
        if close < 0:
            return b""
        if skip[0] == b"<!" and b"[" in head[pos:close]:  # a DOCTYPE with an internal subset ends at "]>"
            close = head.find(b"]>", pos)
            if close < 0:
                return b""
        pos = close + len(skip[1])


def sniff_format(path: Path, data: bytes) -> str:
    """The format of an input: its extension when telling, else its first element or line (``text`` when in
    doubt). ``data`` is the input's bytes, read once (a pipe cannot be read twice)."""
    by_extension = _EXTENSIONS.get(path.suffix.lower())
    if by_extension is not None:
        return by_extension
    head = _text_head(data)
    root = _first_element(head)
    if root:
        found = next((fmt for name, fmt in _ROOTS.items() if root == name), None)
        if found is not None:
            return found
    if path.suffix.lower() == ".json" or _first_line_is_an_object(head):
        return "jsonl"
    return "text"


def _first_line_is_an_object(head: bytes) -> bool:
    """Whether the first non-blank line is, whole, one JSON object: a line that only starts with ``{`` is text."""
    first = next((line for line in head.splitlines() if line.strip()), b"")
    if not first.lstrip().startswith(b"{"):
        return False
    try:
        return isinstance(parse(first.decode("utf-8", "replace"), ""), dict)
    except JsonRefused as exc:
        return not exc.syntax and first.rstrip().endswith(b"}")  # an object the door refuses: its reader says why


def _sniffed_hint(fmt: str) -> str:
    """What a refusal of a file read in the format it was sniffed as adds: how the format was chosen, and how to
    read it as text instead."""
    return (f" (read as {fmt} from how it starts; {term('input_format', 'text')} reads it as plain text, one "
            "segment per line)")


def sniff_file(path: Path) -> str:
    """:func:`sniff_format` of a regular file from its first bytes (the window's drops and arguments); ``text``
    for anything else, which is then read whole and sniffed again."""
    try:
        if not path.is_file():
            return "text"
        with path.open("rb") as fh:
            return sniff_format(path, fh.read(_SNIFF_BYTES))
    except OSError:
        return "text"


BILINGUAL = ("xliff", "po", "tmx")  # formats that hold each segment's source beside its translation


def holds_its_source(path: str | Path) -> bool:
    """Whether ``path`` is a bilingual file (XLIFF, a PO catalogue, TMX): source and translation in one, so a run
    of it alone needs no other file (no reference: the translator's usual case)."""
    return sniff_file(Path(path)) in BILINGUAL


def whole_run(systems: Sequence[str], references: Sequence[str]) -> tuple[list[str], list[str]]:
    """The systems and references as given, except one file given as a system alone that holds systems and
    references together (WMT XML, a TSV/JSONL with a system column): then it is the references, whose systems are
    read from it (``bleu-gui file.xml``, or the Open dialog's System outputs)."""
    if not references and len(systems) == 1 and sniff_file(Path(systems[0])) in ("wmt-xml", "tsv", "jsonl", "xlsx"):
        return [], list(systems)
    return list(systems), list(references)


def read_corpus(path: Path, fmt: str, data: bytes, encoding: str, options: ReadOptions) -> Corpus:
    """Read a structured file with the reader of ``fmt`` (not ``text``) from its bytes. When ``fmt`` was sniffed
    from the file's first bytes (neither ``options.input_format`` nor its extension), a refusal says so and how to
    read the file as plain text."""
    reader = _READERS.get(fmt)
    if reader is None:
        raise InputError(f"{path}: unknown input format {fmt!r} (one of {', '.join(FORMATS)})")
    try:
        return reader(path, data, encoding, options)
    except InputError as exc:
        if options.input_format is not None or path.suffix.lower() in (*_EXTENSIONS, ".json"):
            raise  # the user or the file's name chose the format: the refusal is about the file alone
        raise type(exc)(exc.raw + _sniffed_hint(fmt)) from None


def _wmt_xml(path: Path, data: bytes, encoding: str, options: ReadOptions) -> Corpus:
    from .wmt_xml import read_wmt_xml
    return read_wmt_xml(path, data)


def _sgml(path: Path, data: bytes, encoding: str, options: ReadOptions) -> Corpus:
    from .sgml import read_sgml
    return read_sgml(path, data, encoding)


def _tsv(path: Path, data: bytes, encoding: str, options: ReadOptions) -> Corpus:
    from .tables import read_table
    return read_table(path, data, "tsv", encoding, options.columns, options.refs)


def _jsonl(path: Path, data: bytes, encoding: str, options: ReadOptions) -> Corpus:
    from .tables import read_table
    return read_table(path, data, "jsonl", encoding, options.columns, options.refs)


def _xliff(path: Path, data: bytes, encoding: str, options: ReadOptions) -> Corpus:
    from .xliff import read_xliff
    return read_xliff(path, data, options.keep_tags)


def _po(path: Path, data: bytes, encoding: str, options: ReadOptions) -> Corpus:
    from .po import read_po
    return read_po(path, data, encoding)


def _mo(path: Path, data: bytes, encoding: str, options: ReadOptions) -> Corpus:
    from .po import read_mo
    return read_mo(path, data, encoding)


def _xlsx(path: Path, data: bytes, encoding: str, options: ReadOptions) -> Corpus:
    from .workbooks import read_workbook
    return read_workbook(path, data, options.columns, options.sheet, options.refs)


def _tmx(path: Path, data: bytes, encoding: str, options: ReadOptions) -> Corpus:
    from .tmx import read_tmx
    return read_tmx(path, data, options.langs, options.keep_tags)


# One table of readers, keyed by format (each imported when first used: the plain-text path pays for none).
_READERS: dict[str, Callable[[Path, bytes, str, ReadOptions], Corpus]] = {
    "wmt-xml": _wmt_xml, "sgml": _sgml, "tsv": _tsv, "jsonl": _jsonl, "xliff": _xliff, "tmx": _tmx, "po": _po,
    "mo": _mo, "xlsx": _xlsx}
