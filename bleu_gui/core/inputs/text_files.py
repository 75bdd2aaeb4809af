"""Reading segment files: one segment per line, any sane encoding.

Rules (they decide what a "segment" is, so they are the same everywhere):
UTF-8 by default; a UTF-8 BOM is removed; CRLF and CR become LF; a final line
end does not make an extra segment; a run's segment files lose each line's
trailing whitespace, as the ``sacrebleu`` command reads them (:func:`as_sacrebleu_reads`).
Files are only ever read. Whatever reading changes (a BOM removed, a lone CR that split a line) is said in the file's
``notes``. With ``-e auto`` one encoding is detected for all the files of a
run together, never one per file.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field  # SegmentFile has a field named 'field'
from pathlib import Path

from ..errors import InputError, term
from .markup import Tag
from .ratings import RaterScore, Ratings
from .raw_input import AUTO, binary_error, input_path, is_wide, position, read_bytes, wide_bom


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
    # Segment scores given from outside (COMET, MQM, ...), by metric name: one value per segment, NaN where the
    # score is missing. Attached by :mod:`.score_files`; not part of the file's identity.
    scores: Mapping[str, tuple[float, ...]] = dataclass_field(default_factory=dict, compare=False, repr=False)
    # Human error annotations (MQM) per segment, None where a segment is unrated; None: no annotations at all.
    # Attached by :mod:`.annotations` (or read with an MQM table); not part of the file's identity.
    annotations: tuple[Ratings | None, ...] | None = dataclass_field(default=None, compare=False, repr=False)
    # Raters' own segment scores behind a column of :attr:`scores` that is their mean (human ESA or DA), by column:
    # each segment's scores. Attached by :mod:`.score_files`; not part of the file's identity.
    rated: Mapping[str, tuple[tuple[RaterScore, ...], ...]] = dataclass_field(default_factory=dict, compare=False,
                                                                              repr=False)

    @property
    def name(self) -> str:
        return f"{self.path.name}:{self.field}" if self.field else self.path.name

    @property
    def label(self) -> str:
        """The path, and the field within the file when it has one (for messages)."""
        return f"{self.path}:{self.field}" if self.field else str(self.path)


def codec_name(encoding: str) -> str:
    """The Python codec of ``encoding``; an unknown or non-text codec is an :class:`InputError`."""
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r} (give a Python codec name such as utf-8, cp949, gb18030, "
                         "shift_jis, latin-1, or 'auto')") from None
    # base64, rot13, zlib... are codecs too, but not between bytes and text.
    if not getattr(info, "_is_text_encoding", True):
        raise InputError(f"{encoding!r} is not a text encoding (give one such as utf-8, cp949, latin-1, or 'auto')")
    return info.name


def _undecodable(path: Path, data: bytes, codec: str, exc: UnicodeError) -> InputError:
    if isinstance(exc, UnicodeDecodeError):
        bad = data[exc.start:exc.start + 1].hex()
        return InputError(f"{path}: {position(data, exc.start)}: cannot decode byte 0x{bad} as {codec}"
                          f" (choose the file's encoding with {term('encoding', 'NAME')}, or {term('encoding', 'auto')} "
                          "to detect it)")
    # e.g. UTF-16 or UTF-32 without a byte order mark
    return InputError(f"{path}: cannot decode as {codec}: {exc} (for text without a BOM give the byte order, e.g. "
                      f"{term('encoding', 'utf-16-le')} or utf-16-be)")


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
    raise InputError(f"the files do not share one encoding ({guesses}); give the encoding with "
                     f"{term('encoding', 'NAME')} "
                     "(files of one run are never decoded differently)")


_READ_CHUNK = 1 << 20  # bytes decoded and split at a time: 4 MB held the interpreter lock for ~45 ms
_LONE_CR = re.compile("\r(?!\n)")
_SURROGATE = re.compile("[\ud800-\udfff]")
# Decoders that never yield a lone surrogate (strict UTF-8/16/32, and the byte-to-character tables of legacy
# encodings); others (utf-7, unicode_escape, ...) can, and such text cannot be tokenized or written out.
_NO_SURROGATES = re.compile(r"^(utf_8|utf_16|utf_32|ascii|latin_1|cp\d+|iso8859_\d+|mac_|koi8|gb|big5|euc|"
                            r"shift_jis|johab|hz|tis_620|ptcp154|kz1048|hp_roman8)")


def _check_text(path: Path, codec: str, text: str, lines_before: int) -> None:
    """Refuse a decoded chunk holding a lone surrogate (only decoders that can make one are checked)."""
    if _NO_SURROGATES.match(codec):
        return
    found = _SURROGATE.search(text)
    if found is not None:
        line = lines_before + text.count("\n", 0, found.start()) + 1
        raise InputError(f"{path}: line {line}: decoding as {codec} gives a lone surrogate "
                         f"(U+{ord(found.group()):04X}), half of a UTF-16 pair, which is not text; "
                         f"choose the file's real encoding with {term('encoding', 'NAME')}")


def _check_bom(path: Path, data: bytes, codec: str) -> None:
    declared = wide_bom(data)
    if declared is not None and not is_wide(codec):
        raise InputError(f"{path}: starts with a {declared.upper()} byte order mark: the file is {declared.upper()} "
                         f"text, not {codec}; read it with {term('encoding', declared)} (or {term('encoding', 'auto')})")


def decode_text(path: Path, data: bytes, codec: str) -> str:
    """The whole text of ``data`` decoded with ``codec``, a leading BOM removed (no line splitting)."""
    _check_bom(path, data, codec)
    try:
        text = data.decode(codec)
    except UnicodeError as exc:
        raise _undecodable(path, data, codec, exc) from None
    _check_text(path, codec, text, 0)
    return text.removeprefix("\ufeff")


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
            try:
                data.decode(codec)  # the error again, with the file-wide line and byte offset
            except UnicodeError as exc:
                raise _undecodable(path, data, codec, exc) from None
            raise
        except UnicodeError as exc:
            raise _undecodable(path, data, codec, exc) from None
        _check_text(path, codec, text, len(lines))
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
    """One file of segments (one per line) from its bytes."""
    if not data or data == codecs.BOM_UTF8:
        raise InputError(f"{path}: empty file (no segments)")
    _check_bom(path, data, codec)
    if not is_wide(codec):
        nul = data.find(b"\x00")
        if nul >= 0:
            raise binary_error(path, data, nul)
    lines, notes = _decode_lines(path, data, codec)
    if not lines:
        raise InputError(f"{path}: empty file (no segments)")
    return SegmentFile(path, lines, codec, detected, notes)


def decode_text_files(paths: Sequence[Path], datas: Sequence[bytes], encoding: str = "utf-8") -> list[SegmentFile]:
    """Plain segment files decoded alike: with ``encoding``, or (``auto``) one encoding detected for all of them.

    With ``auto``, a file that starts with a UTF-16 or UTF-32 byte order mark is
    decoded as the mark declares (a declaration, not a guess), and said so.
    """
    if encoding != AUTO:
        codec = codec_name(encoding)
        return [decode_file(p, d, codec, False) for p, d in zip(paths, datas)]
    declared = [wide_bom(d) for d in datas]
    rest = [(p, d) for p, d, w in zip(paths, datas, declared) if w is None]
    codec = detect_encoding([p for p, _ in rest], [d for _, d in rest]) if rest else "utf-8"
    files = []
    for path, data, wide in zip(paths, datas, declared):
        if wide is None:
            files.append(decode_file(path, data, codec, True))
        else:
            f = decode_file(path, data, wide, True)
            files.append(replace(f, notes=(f"decoded as {wide.upper()}, as its byte order mark declares", *f.notes)))
    return files


def read_segments(path: str | Path, encoding: str = "utf-8") -> SegmentFile:
    """Read one file of segments (one per line).

    ``encoding`` is a Python codec name or ``"auto"`` (detect with
    charset-normalizer, UTF-8 first; to read related files alike use
    :func:`read_text_files`, or :func:`.inputs.read_run_inputs` for every format). Raises
    :class:`InputError` with a one-line message for a missing, empty, binary or undecodable file.
    """
    path = input_path(path)
    return decode_text_files([path], [read_bytes(path, encoding)], encoding)[0]


def as_sacrebleu_reads(file: SegmentFile) -> SegmentFile:
    """The segments as the ``sacrebleu`` command reads a file: each line's trailing whitespace removed
    (``line.rstrip()``, any Unicode space), said in a note when a line had any. BLEU and TER strip it again, but
    chrF with whitespace kept would count it."""
    stripped = [line.rstrip() for line in file.lines]
    changed = [i for i, (a, b) in enumerate(zip(file.lines, stripped)) if a is not b]  # rstrip returns itself
    if not changed:
        return file
    note = (f"trailing whitespace removed from {len(changed):,} line(s), the first line {changed[0] + 1}, as the "
            "sacrebleu command reads lines")
    return replace(file, lines=stripped, notes=(*file.notes, note))


def check_not_identical(systems: Sequence[SegmentFile], references: Sequence[SegmentFile]) -> None:
    """Refuse a reference that equals a system line for line: that system would be scored against itself."""
    for ref in references:
        for system in systems:
            if ref.lines == system.lines:
                raise InputError(f"{ref.label} is identical to the system {system.label}, line for line: it would "
                                 f"score a system against itself ({term('allow_identical')} scores it anyway)")


def check_same_length(files: Sequence[SegmentFile]) -> None:
    """Raise :class:`InputError` listing every file with its count unless all have the same number of segments."""
    counts = {len(f.lines) for f in files}
    if len(counts) > 1:
        listing = ", ".join(f"{f.label} has {len(f.lines)}" for f in files)
        raise InputError(f"line counts differ: {listing}")


def read_text_files(paths: Sequence[Path], encoding: str = "utf-8",
                    progress: Callable[[float], None] | None = None) -> list[SegmentFile]:
    """Read plain segment files decoded alike (see :func:`decode_text_files`)."""
    datas = []
    for i, path in enumerate(paths):
        if progress is not None:
            progress(i / len(paths))
        datas.append(read_bytes(path, encoding))
    return decode_text_files(paths, datas, encoding)
