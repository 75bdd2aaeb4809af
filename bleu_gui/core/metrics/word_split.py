"""The whitespace-separated words of a chunk of lines: distinct strings, and where each word of each line is.

Both ways here give exactly ``str.split()``'s words:

- :func:`split_joined`: one ``str.split`` of the lines joined by a mark word. Nothing to import, so it is
  the way for a few thousand lines; every word becomes a Python string, and the chunk's distinct words
  are looked up.
- :func:`split_block`: Arrow's ``utf8_split_whitespace`` and a dictionary encoding. They run in C++
  without the interpreter lock, so :func:`split_chunks` runs them a block of chunks ahead in a helper
  thread. The chunks of a block share its distinct words (a fifth of the words of a chunk of real text,
  far fewer over a block), which are looked up in the table of strings straight from Arrow's buffers:
  only the words new to the table become Python strings. :class:`KeyIds` looks each one up once. On
  100,000 real lines this halves the time from lines to token ids. Arrow's
  whitespace is Python's, code point for code point; Arrow also yields empty pieces between some
  whitespace runs, which are dropped (``tests/test_word_split.py`` holds both to ``str.split``).

Arrow's whitespace split (checked up to pyarrow 26) reads one character past a whitespace run that ends
its string: the bytes after the string decide whether the last blank is a word of its own (apache/arrow
issue 37757; seen here as a changing result from run to run). A chunk reaches Arrow as one string, its lines
joined by mark words, stripped of trailing whitespace: every run Arrow scans ends at a character inside the
string (a mark or a word), and trailing whitespace never makes a word in ``str.split`` anyway.
"""

from __future__ import annotations

import functools
import itertools
import threading
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass

import numpy as np

from .parallel import in_order
from .string_table import Utf8Strings

MARK = "\x00"  # the join mark: a word of its own between two lines (a line holding it is split another way)
_JOIN = f" {MARK} "
# Chunks Arrow splits as one block (a block ahead of the caller): one dictionary for a block's words means a word
# is looked up once a block, not once a chunk. The whole command on a million lines of
# 3M word types went 76 -> 68 s (+55 MB); real text gained nothing measurable. Blocks of 16 or 32 chunks gained
# at most 1-3 s more for 180-350 MB; two blocks at a time were no faster.
_BLOCK_CHUNKS = 8
_TO_PYTHON = 20_000  # new words made Python strings in one C call (~2 ms of the interpreter lock)
_SPLIT = 1_000  # lines joined and split in one C call (~20k words, ~5 ms of the interpreter lock)


@dataclass
class ChunkWords:
    """The words of a chunk of lines: word k of the chunk (lines in order) is ``keys[where[k]]``."""

    keys: Utf8Strings
    where: np.ndarray   # int64 index into keys, one per word
    counts: np.ndarray  # int64 words per line
    line_breaks: bool = False  # a line holds a line break (a segment of a PO entry, a JSONL field, a cell)

    def line_starts(self) -> np.ndarray:
        """Position of each line's first word among the chunk's words."""
        return np.cumsum(self.counts) - self.counts


class KeyIds:
    """Word-cache ids for the words of chunks that share one set of keys (Arrow's distinct words of a block of
    chunks): each key is looked up once, when a chunk first uses it, so keys new to the cache are added in
    the order the text first uses them and a chunk's work stays a chunk's. Keys appended later (intl's edge
    keys) are looked up the same way. ``look_up(keys, indices)`` gives the ids of the keys at ``indices``."""

    def __init__(self, look_up: Callable[[Utf8Strings, np.ndarray], np.ndarray]):
        self._look_up = look_up
        self._keys: Utf8Strings | None = None
        self._ids = np.zeros(0, np.int64)

    def __call__(self, keys: Utf8Strings, where: np.ndarray) -> np.ndarray:
        """The word-cache id of each key in ``where`` (indices into ``keys``)."""
        if keys is not self._keys:
            self._keys, self._ids = keys, np.zeros(0, np.int64)
        if len(self._ids) < len(keys):
            self._ids = np.concatenate([self._ids, np.full(len(keys) - len(self._ids), -1, np.int64)])
        used = np.zeros(len(keys), bool)
        used[where] = True
        need = np.flatnonzero(used & (self._ids < 0))
        if len(need):
            self._ids[need] = self._look_up(keys, need)
        return self._ids[where]


def _joined(lines: list[str]) -> str | None:
    """The lines joined by :data:`MARK` words; None when a line holds the mark itself."""
    text = _JOIN.join(lines)
    return text if text.count(MARK) == max(len(lines) - 1, 0) else None


def split_joined(lines: list[str]) -> ChunkWords | None:
    """The words of ``lines`` by ``str.split`` of the lines joined by :data:`MARK` words, a thousand lines at a
    time; None when a line holds the mark itself."""
    if not lines:
        return ChunkWords(Utf8Strings.of([]), np.zeros(0, np.int64), np.zeros(0, np.int64))
    words: list[str] = []
    line_breaks = False
    for a in range(0, len(lines), _SPLIT):
        text = _joined(lines[a:a + _SPLIT])
        if text is None:
            return None
        line_breaks = line_breaks or "\n" in text  # the lines were joined by marks: a line break is a line's own
        if a:
            words.append(MARK)
        words += text.split()
    # Distinct words, as Arrow's way gives them. The mark stays among them (``where`` never points at it, so
    # it is never looked up).
    distinct = dict(zip(dict.fromkeys(words), itertools.count()))
    where = np.fromiter(map(distinct.__getitem__, words), np.int64, len(words))
    is_mark = where == distinct.get(MARK, -1)
    marks = np.flatnonzero(is_mark)
    counts = np.diff(marks, prepend=-1, append=len(words)) - 1
    return ChunkWords(Utf8Strings.of(list(distinct)), where[~is_mark], counts, line_breaks)


def split_block(block: list[list[str]], stopped: threading.Event) -> list[ChunkWords] | None:
    """The words of each chunk of ``block``, all sharing one list of the block's distinct words; None when a line
    holds the join mark or cannot be written as UTF-8 (a lone surrogate), or when ``stopped`` is set (the caller
    has gone).

    Each chunk is split and encoded on its own and the dictionaries are unified after: one call over a whole
    block of a million-line file took ~120 ms (real text) and ~380 ms (3M word types), and a cancel has to
    wait for the call in progress; a chunk's takes 30-70 ms, unifying 15 ms on real text."""
    import pyarrow as pa
    import pyarrow.compute as pc

    # The system allocator: Arrow's default pool kept ~40 MB of freed chunks resident at a million lines.
    pool = pa.system_memory_pool()
    coded = []
    breaks = []
    for lines in block:
        if stopped.is_set():
            return None
        # A chunk goes to Arrow as one string, its lines joined by mark words: a few C calls instead of a
        # Python step a line (encoding 64k lines one by one held the interpreter lock ~40 ms, twice as long).
        text = _joined(lines)
        if text is None:
            return None
        breaks.append("\n" in text)
        try:
            # Bytes, not a str: converting a str keeps a UTF-8 copy inside it for good. Inside the text every
            # whitespace run ends at a mark or a word; only the end is stripped (see the module's note).
            data = text.rstrip().encode("utf-8")
        except UnicodeEncodeError:
            return None
        one = pa.LargeStringArray.from_buffers(1, pa.py_buffer(np.array([0, len(data)], np.int64)), pa.py_buffer(data))
        pieces = pc.utf8_split_whitespace(one, memory_pool=pool)
        coded.append(pc.dictionary_encode(pc.list_flatten(pieces, memory_pool=pool), memory_pool=pool))
    if stopped.is_set():
        return None
    unified = pa.chunked_array(coded).unify_dictionaries(memory_pool=pool)
    dictionary = unified.chunk(0).dictionary
    keys = _utf8_strings(dictionary)
    mark = pc.index(dictionary, MARK).as_py()  # -1 when every chunk is one line
    empties = np.flatnonzero(keys.lengths == 0)
    empty = int(empties[0]) if len(empties) else -1  # empty pieces are not words
    out = []
    for chunk, lines, line_breaks in zip(unified.chunks, block, breaks):
        where = chunk.indices.to_numpy().astype(np.int64)
        is_mark = where == mark
        line_of = np.cumsum(is_mark)
        kept = ~is_mark & (where != empty)
        out.append(ChunkWords(keys, where[kept], np.bincount(line_of[kept], minlength=len(lines)).astype(np.int64),
                              line_breaks))
    return out


def _utf8_strings(dictionary: object) -> Utf8Strings:
    """Arrow's distinct words of a block, read in place from its buffers (no Python string made)."""
    import pyarrow as pa

    assert isinstance(dictionary, pa.Array) and dictionary.null_count == 0
    _, offsets_buffer, data_buffer = dictionary.buffers()
    width = np.int64 if pa.types.is_large_string(dictionary.type) else np.int32
    offsets = np.frombuffer(offsets_buffer, width, len(dictionary) + 1,
                            np.dtype(width).itemsize * dictionary.offset).astype(np.int64)
    data = np.frombuffer(data_buffer, np.uint8) if data_buffer is not None else np.zeros(0, np.uint8)

    def decode(indices: list[int]) -> list[str]:
        out: list[str] = []
        for a in range(0, len(indices), _TO_PYTHON):
            out += dictionary.take(pa.array(indices[a:a + _TO_PYTHON], pa.int64())).to_pylist()
        return out

    return Utf8Strings(offsets[:-1], np.diff(offsets), data, decode)


@functools.cache
def arrow_available() -> bool:
    """Whether Arrow is installed (a lean desktop bundle leaves it out: the words are then split in Python, the
    same words, slower past a hundred thousand lines)."""
    import importlib.util

    return importlib.util.find_spec("pyarrow") is not None


def preload_arrow() -> None:
    """Import Arrow now, when it is installed: a first import inside a worker would hold the interpreter lock
    ~0.1 s while a window waits for it."""
    if arrow_available():
        import pyarrow.compute  # noqa: F401


def split_chunks(chunks: Iterable[list[str]], arrow: bool) -> Generator[tuple[list[str], ChunkWords | None], None, None]:
    """Each chunk with its words; with ``arrow``, the next chunk is split in a helper thread while the caller
    works on this one. Close the iterator (or run it to the end) so the helper is joined."""
    if not arrow:
        for chunk in chunks:
            yield chunk, split_joined(chunk)
        return
    stopped = threading.Event()
    blocks = in_order(functools.partial(split_block, stopped=stopped), _blocks(chunks), workers=1)
    try:
        for block, words in blocks:
            if words is None:  # a line Arrow cannot take: each chunk goes the other way
                yield from ((chunk, None) for chunk in block)
            else:
                yield from zip(block, words)
    finally:
        stopped.set()  # the block in progress stops at its next step, so a cancel does not wait for all of it
        blocks.close()


def _blocks(chunks: Iterable[list[str]]) -> Generator[list[list[str]], None, None]:
    block: list[list[str]] = []
    size = 1  # the first blocks are small, so the caller starts on words soon
    for chunk in chunks:
        block.append(chunk)
        if len(block) == size:
            yield block
            block, size = [], min(2 * size, _BLOCK_CHUNKS)
    if block:
        yield block
