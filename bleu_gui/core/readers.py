"""Reading segment files: one segment per line, any sane encoding.

Rules (they decide what a "segment" is, so they are the same everywhere):
UTF-8 by default; a UTF-8 BOM is removed; CRLF and CR become LF; a final line
end does not make an extra segment. Files are only ever read.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError

AUTO = "auto"
_WIDE_CODECS = ("utf_16", "utf_32")


@dataclass(frozen=True)
class SegmentFile:
    """The decoded segments of one file and how they were decoded."""

    path: Path
    lines: list[str]
    encoding: str
    detected: bool = False

    @property
    def name(self) -> str:
        return self.path.name


def _codec_name(encoding: str) -> str:
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r} (give a Python codec name such as utf-8, cp949, gb18030, "
                         "shift_jis, latin-1, or 'auto')") from None


def _position(data: bytes, offset: int) -> str:
    line = data.count(b"\n", 0, offset) + 1
    return f"line {line}, byte offset {offset}"


def _read_bytes(path: Path) -> bytes:
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if path.is_dir():
        raise InputError(f"{path}: is a folder, expected a file")
    try:
        return path.read_bytes()
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None


def _decode(path: Path, data: bytes, codec: str) -> str:
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        bad = data[exc.start:exc.start + 1].hex()
        raise InputError(
            f"{path}: {_position(data, exc.start)}: cannot decode byte 0x{bad} as {codec}"
            " (choose the file's encoding with -e NAME, or -e auto to detect it)") from None
    return text


def _detect(path: Path, data: bytes) -> str:
    # Valid UTF-8 is almost never an accident, and charset-normalizer may
    # prefer a legacy code page for short ASCII-heavy files, so try it first.
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is None:
        raise InputError(f"{path}: cannot detect the encoding (the bytes fit no known text encoding); give it with -e NAME")
    return _codec_name(best.encoding)


_READ_CHUNK = 4 << 20  # bytes decoded at a time, so no single step holds the GIL for long


def _decode_lines(path: Path, data: bytes, codec: str) -> list[str]:
    """Decode and split into segments, a chunk at a time; a leading BOM is removed.

    LF, CRLF and CR end a line (also when a CRLF straddles two chunks); a final
    line end adds nothing. Other characters that ``str.splitlines`` treats as
    breaks (U+2028, form feed, ...) stay inside the segment, as sacreBLEU and
    the Moses scripts see them.
    """
    decoder = codecs.getincrementaldecoder(codec)("strict")
    lines: list[str] = []
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
        if at_start and text:
            text = text[1:] if text.startswith("\ufeff") else text
            at_start = False
        text = carry + text
        # A CR at the end may be the first half of a CRLF split across chunks.
        held_cr = not final and text.endswith("\r")
        if held_cr:
            text = text[:-1]
        parts = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        carry = parts.pop() + ("\r" if held_cr else "")
        lines.extend(parts)
        if final:
            break
    if carry:
        lines.append(carry)
    return lines


def read_segments(path: str | Path, encoding: str = "utf-8") -> SegmentFile:
    """Read one file of segments (one per line).

    ``encoding`` is a Python codec name or ``"auto"`` (detect with
    charset-normalizer, UTF-8 first). Raises :class:`InputError` with a
    one-line message for a missing, empty, binary or undecodable file.
    """
    path = Path(path)
    data = _read_bytes(path)
    detected = encoding == AUTO
    codec = _detect(path, data) if detected else _codec_name(encoding)
    if not data or data == codecs.BOM_UTF8:
        raise InputError(f"{path}: empty file (no segments)")
    nul = data.find(b"\x00")
    if nul >= 0 and not codec.replace("-", "_").startswith(_WIDE_CODECS):
        raise InputError(f"{path}: looks like a binary file (NUL byte at {_position(data, nul)})")
    lines = _decode_lines(path, data, codec)
    if not lines:
        raise InputError(f"{path}: empty file (no segments)")
    return SegmentFile(path, lines, codec, detected)


def expand_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Turn files and folders into a list of files; a folder gives every regular file in it, sorted by name."""
    result: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files = sorted((p for p in path.iterdir() if p.is_file() and not p.name.startswith(".")),
                           key=lambda p: p.name)
            if not files:
                raise InputError(f"{path}: folder has no files")
            result.extend(files)
        else:
            result.append(path)
    return result


def check_same_length(files: Sequence[SegmentFile]) -> None:
    """Raise :class:`InputError` listing every file with its count unless all have the same number of segments."""
    counts = {len(f.lines) for f in files}
    if len(counts) > 1:
        listing = ", ".join(f"{f.path} has {len(f.lines)}" for f in files)
        raise InputError(f"line counts differ: {listing}")


def read_inputs(hypotheses: Sequence[str | Path], references: Sequence[str | Path], encoding: str = "utf-8",
                progress: Callable[[float], None] | None = None) -> tuple[list[SegmentFile], list[SegmentFile]]:
    """Read system outputs and references (files or folders) and check their line counts agree.

    ``progress(fraction)`` is called before each file; it may raise to stop.
    """
    if not references:
        raise InputError("no reference file given")
    if not hypotheses:
        raise InputError("no system output given (use -i FILE)")
    ref_paths = expand_paths(references)
    paths = [*map(Path, hypotheses), *ref_paths]
    files = []
    for i, path in enumerate(paths):
        if progress is not None:
            progress(i / len(paths))
        files.append(read_segments(path, encoding))
    check_same_length(files)
    return files[:len(hypotheses)], files[len(hypotheses):]
