"""An input's bytes, read once and bounded: a file, a pipe, a device or standard input.

A pipe or standard input cannot be read twice, so every input is read here
once and its format sniffed from what was read. An endless or enormous input
(``/dev/zero``, ``yes |``) ends in a one-line message, never in a
``MemoryError``: a NUL byte stops the reading at once (binary, not text) and no
input over :func:`max_input_bytes` is held.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO

from ..errors import InputError

AUTO = "auto"
_WIDE_CODECS = ("utf_16", "utf_32")


def position(data: bytes, offset: int) -> str:
    line = data.count(b"\n", 0, offset) + 1
    return f"line {line}, byte offset {offset}"


def os_problem(path: Path, exc: OSError) -> InputError:
    """A one-line message for a file system error, naming the path."""
    reasons = {errno.ENOENT: "no such file", errno.ELOOP: "symbolic link loop (the link points back to itself)",
               errno.ENAMETOOLONG: "file name too long", errno.EACCES: "permission denied",
               errno.EPERM: "permission denied", errno.ENOTDIR: "a part of the path is not a folder"}
    return InputError(f"{path}: {reasons.get(exc.errno or 0, exc.strerror or str(exc))}")


STDIN = Path("<stdin>")  # standard input as an input "file" ("-" on the command line)
_BLOCK = 1 << 20  # bytes read at a time from a pipe or a device
# A byte order mark that declares UTF-16 or UTF-32 (UTF-32-LE's starts like UTF-16-LE's: test it first).
_WIDE_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF16_LE, "utf-16"),
              (codecs.BOM_UTF16_BE, "utf-16"))


def input_path(raw: str | Path) -> Path:
    """The path of an input as given: ``-`` is standard input."""
    return STDIN if str(raw) == "-" else Path(raw)


def max_input_bytes() -> int:
    """The largest input read (``BLEU_GUI_MAX_INPUT_GB``, default 2): an endless or enormous input is refused
    with a message instead of filling the memory."""
    raw = os.environ.get("BLEU_GUI_MAX_INPUT_GB", "")
    try:
        gigabytes = float(raw) if raw else 2.0
    except ValueError:
        gigabytes = 2.0
    return int(max(gigabytes, 0.0) * 2**30)


def wide_bom(data: bytes) -> str | None:
    """``utf-16`` or ``utf-32`` when ``data`` starts with that encoding's byte order mark."""
    return next((codec for bom, codec in _WIDE_BOMS if data.startswith(bom)), None)


def is_wide(codec: str) -> bool:
    return codec.replace("-", "_").lower().startswith(_WIDE_CODECS)


# Compressed files as MT data is shipped (WMT's releases, sacreBLEU's downloads): named, never read as binary text.
_COMPRESSED = ((b"\x1f\x8b", "gzip", "gunzip -k"), (b"\xfd7zXZ\x00", "xz", "unxz -k"), (b"BZh", "bzip2", "bunzip2 -k"),
               (b"(\xb5/\xfd", "zstd", "unzstd"))


def binary_error(path: Path, data: bytes, offset: int) -> InputError:
    for magic, kind, command in _COMPRESSED:
        if data.startswith(magic):
            return InputError(f"{path}: compressed with {kind}, not text: decompress it first ({command} "
                              f"{path.name}) and give the file it makes")
    return InputError(f"{path}: binary, not text: a NUL byte at {position(data, offset)}")


def _too_large(path: Path, limit: int) -> InputError:
    return InputError(f"{path}: larger than the {limit / 2**30:g} GB limit for one input (set BLEU_GUI_MAX_INPUT_GB "
                      "to read more)")


# Inputs whose formats are binary (workbooks; a compiled catalogue, read to say so): a NUL byte is theirs.
BINARY_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods", ".mo")


def binary_format(path: Path) -> bool:
    """Whether ``path`` names a binary format we read (by its extension)."""
    return path.suffix.lower() in BINARY_SUFFIXES


def read_bytes(path: Path, encoding: str = AUTO) -> bytes:
    """The bytes of one input, read once: a file, a pipe, a device, or standard input (:data:`STDIN`).

    A NUL byte stops the reading at once (binary, not text) unless the encoding
    is UTF-16 or UTF-32 (given, or declared by a byte order mark); an input over
    :func:`max_input_bytes` is refused, so ``/dev/zero`` or an endless pipe ends
    in a message, with bounded memory.
    """
    limit = max_input_bytes()
    try:
        if path == STDIN:
            return _read_stream(path, sys.stdin.buffer, encoding, limit)
        if path.is_dir():
            raise InputError(f"{path}: is a folder, expected a file")
        with path.open("rb") as fh:
            if stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                if os.fstat(fh.fileno()).st_size > limit:
                    raise _too_large(path, limit)
                data = fh.read(limit + 1)
                if len(data) > limit:  # grew while read
                    raise _too_large(path, limit)
                nul = -1 if is_wide(encoding) or wide_bom(data) or binary_format(path) else data.find(b"\x00")
                if nul >= 0:
                    raise binary_error(path, data, nul)
                return data
            return _read_stream(path, fh, encoding, limit)
    except OSError as exc:
        raise os_problem(path, exc) from None


def _read_stream(path: Path, stream: BinaryIO, encoding: str, limit: int) -> bytes:
    """A pipe or a device, a block at a time (its size is not known in advance)."""
    data = bytearray()
    nul_ok: bool | None = None
    while True:
        block = stream.read(min(_BLOCK, limit + 1 - len(data)))
        if not block:
            return bytes(data)
        if nul_ok is None:
            nul_ok = is_wide(encoding) or wide_bom(block) is not None or binary_format(path)
        nul = -1 if nul_ok else block.find(b"\x00")
        if nul >= 0:
            raise binary_error(path, bytes(data) + block, len(data) + nul)
        data += block
        if len(data) > limit:
            raise _too_large(path, limit)


def real_path(path: Path) -> Path:
    """The resolved path, or the absolute one where it cannot be resolved (compared, never opened)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symbolic link loop, reported when the file is read
        return path.absolute()
