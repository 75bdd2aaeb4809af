"""Which reader reads a file: by ``--input-format``, else by extension and a look at its first bytes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .corpus import Corpus
from .errors import InputError

FORMATS = ("text", "wmt-xml", "sgml", "tsv", "jsonl", "xliff", "tmx")
_EXTENSIONS = {".sgm": "sgml", ".sgml": "sgml", ".tsv": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl",
               ".xlf": "xliff", ".xliff": "xliff", ".sdlxliff": "xliff", ".mqxliff": "xliff", ".tmx": "tmx"}
_ROOTS = {b"<dataset": "wmt-xml", b"<xliff": "xliff", b"<tmx": "tmx", b"<srcset": "sgml", b"<refset": "sgml",
          b"<tstset": "sgml"}


@dataclass(frozen=True)
class ReadOptions:
    """How structured files are read (none of it applies to plain text)."""

    input_format: str | None = None      # one of FORMATS, or None to sniff each file
    keep_tags: bool = False               # XLIFF/TMX inline tags as tokens instead of taken out
    langs: tuple[str, str] | None = None  # TMX: (source, target) languages
    columns: Mapping[str, str] = field(default_factory=dict)  # TSV/JSONL: role -> column name(s)


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as fh:
            head = fh.read(4096)
    except OSError:
        return b""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return head.decode("utf-16", errors="replace").encode("utf-8", errors="replace")
    return head.removeprefix(b"\xef\xbb\xbf")


def sniff_format(path: Path) -> str:
    """The format of a file: its extension when telling, else its first element or line (``text`` when in doubt)."""
    by_extension = _EXTENSIONS.get(path.suffix.lower())
    if by_extension is not None:
        return by_extension
    head = _head(path)
    start = head.lstrip()
    if start.startswith(b"<"):
        lowered = head.lower()
        found = [(lowered.find(root), fmt) for root, fmt in _ROOTS.items() if root in lowered]
        if found:
            return min(found)[1]
    if path.suffix.lower() == ".json" or (start.startswith(b"{") and b"}" in start.split(b"\n", 1)[0]):
        return "jsonl"
    return "text"


def read_corpus(path: Path, fmt: str, encoding: str, options: ReadOptions) -> Corpus:
    """Read a structured file with the reader of ``fmt`` (not ``text``)."""
    if fmt == "wmt-xml":
        from .read_wmt_xml import read_wmt_xml
        return read_wmt_xml(path)
    if fmt == "sgml":
        from .read_sgml import read_sgml
        return read_sgml(path, encoding)
    if fmt in ("tsv", "jsonl"):
        from .read_table import read_table
        return read_table(path, fmt, encoding, options.columns)
    if fmt == "xliff":
        from .read_xliff import read_xliff
        return read_xliff(path, options.keep_tags)
    if fmt == "tmx":
        from .read_tmx import read_tmx
        return read_tmx(path, options.langs, options.keep_tags)
    raise InputError(f"{path}: unknown input format {fmt!r} (one of {', '.join(FORMATS)})")
