"""Reading segment files: one segment per line, any sane encoding.

Rules (they decide what a "segment" is, so they are the same everywhere):
UTF-8 by default; a UTF-8 BOM is removed; CRLF and CR become LF; a final line
end does not make an extra segment. Files are only ever read. Whatever reading
changes (a BOM removed, a lone CR that split a line) is said in the file's
``notes``. With ``-e auto`` one encoding is detected for all the files of a
run together, never one per file.
"""

from __future__ import annotations

import codecs
import errno
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError
from .markup import Tag

AUTO = "auto"
_WIDE_CODECS = ("utf_16", "utf_32")


@dataclass(frozen=True)
class SegmentFile:
    """The decoded segments of one file and how they were decoded."""

    path: Path
    lines: list[str]
    encoding: str
    detected: bool = False
    notes: tuple[str, ...] = ()  # what reading changed, for stderr and the status bar
    field: str = ""  # which part of a structured file: a system, a translator's reference, "source", ...
    tags: tuple[tuple[Tag, ...], ...] | None = None  # inline tags per segment (XLIFF, TMX), taken out of lines

    @property
    def name(self) -> str:
        return f"{self.path.name}:{self.field}" if self.field else self.path.name

    @property
    def label(self) -> str:
        """The path, and the field within the file when it has one (for messages)."""
        return f"{self.path}:{self.field}" if self.field else str(self.path)


def _codec_name(encoding: str) -> str:
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r} (give a Python codec name such as utf-8, cp949, gb18030, "
                         "shift_jis, latin-1, or 'auto')") from None
    # base64, rot13, zlib... are codecs too, but not between bytes and text.
    if not getattr(info, "_is_text_encoding", True):
        raise InputError(f"{encoding!r} is not a text encoding (give one such as utf-8, cp949, latin-1, or 'auto')")
    return info.name


def _position(data: bytes, offset: int) -> str:
    line = data.count(b"\n", 0, offset) + 1
    return f"line {line}, byte offset {offset}"


def _os_problem(path: Path, exc: OSError) -> InputError:
    """A one-line message for a file system error, naming the path."""
    reasons = {errno.ENOENT: "no such file", errno.ELOOP: "symbolic link loop (the link points back to itself)",
               errno.ENAMETOOLONG: "file name too long", errno.EACCES: "permission denied",
               errno.EPERM: "permission denied", errno.ENOTDIR: "a part of the path is not a folder"}
    return InputError(f"{path}: {reasons.get(exc.errno or 0, exc.strerror or str(exc))}")


def read_bytes(path: Path) -> bytes:
    try:
        if path.is_dir():
            raise InputError(f"{path}: is a folder, expected a file")
        return path.read_bytes()
    except OSError as exc:
        raise _os_problem(path, exc) from None


def _decode(path: Path, data: bytes, codec: str) -> str:
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        bad = data[exc.start:exc.start + 1].hex()
        raise InputError(
            f"{path}: {_position(data, exc.start)}: cannot decode byte 0x{bad} as {codec}"
            " (choose the file's encoding with -e NAME, or -e auto to detect it)") from None
    return text


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _guess(data: bytes) -> str | None:
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    return None if best is None else codecs.lookup(best.encoding).name


def _decodes(data: bytes, codec: str) -> bool:
    try:
        data.decode(codec)
    except UnicodeDecodeError:
        return False
    return True


def detect_encoding(paths: Sequence[Path], datas: Sequence[bytes]) -> str:
    """One encoding for a whole set of related files (a system and its references must be decoded alike).

    UTF-8 first: valid UTF-8 is almost never an accident. Otherwise
    charset-normalizer looks at all the files together; when no single
    encoding fits them all, :class:`InputError` names each file's own best guess.
    """
    if all(_is_utf8(d) for d in datas):
        return "utf-8"
    # Pure ASCII fits every candidate encoding; files with other UTF-8 text cannot share a legacy one.
    utf8_text = [p for p, d in zip(paths, datas) if not d.isascii() and _is_utf8(d)]
    joint = None if utf8_text else _guess(b"\n".join(datas))
    if joint is not None and all(_decodes(d, joint) for d in datas):
        return joint
    guesses = ", ".join(f"{p.name}: {'utf-8' if _is_utf8(d) else (_guess(d) or 'unknown')}"
                        for p, d in zip(paths, datas))
    raise InputError(f"the files do not share one encoding ({guesses}); give the encoding with -e NAME "
                     "(files of one run are never decoded differently)")


_READ_CHUNK = 1 << 20  # bytes decoded and split at a time: 4 MB held the interpreter lock for ~45 ms


_LONE_CR = re.compile("\r(?!\n)")


def _decode_lines(path: Path, data: bytes, codec: str) -> tuple[list[str], tuple[str, ...]]:
    """Decode and split into segments, a chunk at a time; a leading BOM is removed.

    LF, CRLF and CR end a line (also when a CRLF straddles two chunks); a final
    line end adds nothing. Other characters that ``str.splitlines`` treats as
    breaks (U+2028, form feed, ...) stay inside the segment, as sacreBLEU and
    the Moses scripts see them.
    """
    decoder = codecs.getincrementaldecoder(codec)("strict")
    lines: list[str] = []
    notes: list[str] = []
    lone_cr, first_cr_line = 0, 0
    carry = ""  # text after the last line end seen so far
    pos, at_start = 0, True
    while True:
        chunk = data[pos:pos + _READ_CHUNK]
        pos += len(chunk)
        final = pos >= len(data)
        try:
            text = decoder.decode(chunk, final=final)
        except UnicodeDecodeError:
            _decode(path, data, codec)  # raises with the file-wide line and byte offset
            raise
        except UnicodeError as exc:  # e.g. UTF-16 or UTF-32 without a byte order mark
            raise InputError(f"{path}: cannot decode as {codec}: {exc} (for text without a BOM give the byte "
                             "order, e.g. -e utf-16-le or utf-16-be)") from None
        if at_start and text:
            if text.startswith("\ufeff"):
                text = text[1:]
                notes.append("a byte order mark (BOM) at the start was removed")
            at_start = False
        text = carry + text
        # A CR at the end may be the first half of a CRLF split across chunks.
        held_cr = not final and text.endswith("\r")
        if held_cr:
            text = text[:-1]
        if "\r" in text:
            found = _LONE_CR.search(text)
            if found is not None:
                if not lone_cr:
                    before = text[:found.start()].replace("\r\n", "\n").replace("\r", "\n")
                    first_cr_line = len(lines) + before.count("\n") + 1
                lone_cr += len(_LONE_CR.findall(text))
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        parts = text.split("\n")
        carry = parts.pop() + ("\r" if held_cr else "")
        lines.extend(parts)
        if final:
            break
    if carry:
        lines.append(carry)
    if lone_cr:
        notes.append(f"{lone_cr} lone carriage return(s) (CR without LF) ended a line, the first at the end of "
                     f"line {first_cr_line}")
    return lines, tuple(notes)


def decode_file(path: Path, data: bytes, codec: str, detected: bool) -> SegmentFile:
    if not data or data == codecs.BOM_UTF8:
        raise InputError(f"{path}: empty file (no segments)")
    nul = data.find(b"\x00")
    if nul >= 0 and not codec.replace("-", "_").startswith(_WIDE_CODECS):
        raise InputError(f"{path}: looks like a binary file (NUL byte at {_position(data, nul)})")
    lines, notes = _decode_lines(path, data, codec)
    if not lines:
        raise InputError(f"{path}: empty file (no segments)")
    return SegmentFile(path, lines, codec, detected, notes)


def read_segments(path: str | Path, encoding: str = "utf-8") -> SegmentFile:
    """Read one file of segments (one per line).

    ``encoding`` is a Python codec name or ``"auto"`` (detect with
    charset-normalizer, UTF-8 first; to read related files alike use
    :func:`read_text_files`, or :func:`.inputs.read_run_inputs` for every format). Raises
    :class:`InputError` with a one-line message for a missing, empty, binary or undecodable file.
    """
    path = Path(path)
    data = read_bytes(path)
    detected = encoding == AUTO
    codec = detect_encoding([path], [data]) if detected else _codec_name(encoding)
    return decode_file(path, data, codec, detected)


_SOURCE_NAME = re.compile(r"^(src|source)", re.IGNORECASE)


def is_source_name(name: str) -> bool:
    """A file named as a source (``src*``, ``source*``): never taken as a reference or system from a folder
    or a drop."""
    return _SOURCE_NAME.match(name) is not None


def real_path(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symbolic link loop, reported when the file is read
        return path.absolute()


def expand_references(paths: Iterable[str | Path], systems: Sequence[str | Path] = (),
                      allow_identical: bool = False) -> tuple[list[Path], dict[Path, str]]:
    """Reference files from files and folders, and a note for each file a folder gave.

    A folder gives its regular files sorted by name, except dot-files, the
    system outputs (compared by real path) and source files (``src*``,
    ``source*``): a folder never swallows the candidate. A file given both as a
    system and as a reference is refused unless ``allow_identical``.
    """
    system_paths = {real_path(Path(p)) for p in systems}
    result: list[Path] = []
    notes: dict[Path, str] = {}
    for raw in paths:
        path = Path(raw)
        try:
            is_dir = path.is_dir()
        except OSError as exc:
            raise _os_problem(path, exc) from None
        if not is_dir:
            if real_path(path) in system_paths and not allow_identical:
                raise InputError(f"{path}: given as a system and as a reference (--allow-identical-refs scores it "
                                 "anyway)")
            result.append(path)
            continue
        try:
            files = sorted((p for p in path.iterdir() if p.is_file() and not p.name.startswith(".")),
                           key=lambda p: p.name)
        except OSError as exc:
            raise _os_problem(path, exc) from None
        skipped = [f"{p.name} (a system)" for p in files if real_path(p) in system_paths]
        skipped += [f"{p.name} (a source file)" for p in files
                    if _SOURCE_NAME.match(p.name) and real_path(p) not in system_paths]
        taken = [p for p in files if real_path(p) not in system_paths and not _SOURCE_NAME.match(p.name)]
        if not taken:
            raise InputError(f"{path}: folder has no reference files" + (f" (skipped {', '.join(skipped)})"
                                                                           if skipped else ""))
        note = f"reference taken from the folder {path}" + (f" (not taken: {', '.join(skipped)})" if skipped else "")
        notes.update({p: note for p in taken})
        result.extend(taken)
    return result, notes


def check_not_identical(systems: Sequence[SegmentFile], references: Sequence[SegmentFile]) -> None:
    """Refuse a reference that equals a system line for line: that system would be scored against itself."""
    for ref in references:
        for system in systems:
            if ref.lines == system.lines:
                raise InputError(f"{ref.label} is identical to the system {system.label}, line for line: it would "
                                 "score a system against itself (--allow-identical-refs scores it anyway)")


def check_same_length(files: Sequence[SegmentFile]) -> None:
    """Raise :class:`InputError` listing every file with its count unless all have the same number of segments."""
    counts = {len(f.lines) for f in files}
    if len(counts) > 1:
        listing = ", ".join(f"{f.label} has {len(f.lines)}" for f in files)
        raise InputError(f"line counts differ: {listing}")


def read_text_files(paths: Sequence[Path], encoding: str = "utf-8",
                    progress: Callable[[float], None] | None = None) -> list[SegmentFile]:
    """Read plain segment files decoded alike: with ``encoding``, or one encoding detected for all of them."""
    datas = []
    for i, path in enumerate(paths):
        if progress is not None:
            progress(0.5 * i / len(paths))
        datas.append(read_bytes(path))
    detected = encoding == AUTO
    codec = detect_encoding(paths, datas) if detected else _codec_name(encoding)
    files = []
    for i, (path, data) in enumerate(zip(paths, datas)):
        if progress is not None:
            progress(0.5 + 0.5 * i / len(paths))
        files.append(decode_file(path, data, codec, detected))
    return files
