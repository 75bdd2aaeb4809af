"""Turning lines into integer token ids with sacreBLEU's tokenizers (looked up by name in :mod:`.sacre_tokenizers`).

The tokenizers themselves are sacreBLEU's objects; nothing here re-implements
them. For speed, ``13a``, ``intl``, ``char`` and ``none`` are fed one
whitespace-separated word at a time (with the same context the word has in its
line) and the result is cached per word: all their rules look at one
character of context at most, and whitespace never joins two tokens, so a
line's tokens are the concatenation of its words' tokens — except 13a's
``-\n`` rule, which joins across a line break: a segment holding one is
tokenized whole. ``tests/test_tokenizers.py``
proves this against whole-line sacreBLEU calls on random and real text.
``zh``, ``ja-mecab`` and ``ko-mecab`` are called once per line.
"""

from __future__ import annotations

import contextlib
import itertools
import operator
from array import array
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from .sacre_tokenizers import load_tokenizer
from .string_table import StringTable, Utf8Strings
from .word_split import ChunkWords, KeyIds, arrow_available, split_chunks
from .word_tokens import words_tokens

# Tokenizers whose output for a line is the concatenation of the output for
# its words. intl does not wrap the line in spaces, so a line's first and last
# word see "nothing" instead of whitespace on one side: they get their own keys.
_WORD_LOCAL = {"13a", "intl", "char", "none"}
_EDGE_SENSITIVE = {"intl"}
# What a word-local tokenizer's first step removes across a line break: a line holding it is tokenized whole.
_JOINS_ACROSS_WORDS = {"13a": "-\n"}
_UNCHANGED_ALNUM = {"13a", "intl", "none"}
_CHUNK = 8_000  # lines tokenized between cancel checks
_WORD_BATCH = 20_000
# From this many lines a file's words are split by Arrow (importing it takes ~0.12 s; it saves ~0.2 µs a word).
ARROW_FROM_LINES = 20_000
_MAX_WORD_TOKENS = int(np.iinfo(np.int32).max)  # the word cache's positions are 32-bit
_STRIP_EDGES = operator.methodcaller("strip", "\n")  # an intl key without its edge marks


@dataclass(frozen=True)
class TokenizedCorpus:
    """All lines of one file as integer token ids: ``ids[offsets[i]:offsets[i+1]]`` is line i."""

    ids: np.ndarray
    offsets: np.ndarray

    @property
    def n_lines(self) -> int:
        return len(self.offsets) - 1

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    def line(self, i: int) -> np.ndarray:
        return self.ids[self.offsets[i]:self.offsets[i + 1]]


class CorpusPieces:
    """A file's token ids in the consecutive pieces :meth:`Tokenization.encode_chunks` made, handed out a block
    of lines at a time. Pieces wholly before an asked block are let go of: the reference index asks in order,
    so the ids' memory goes back while its tables grow (~100 MB at a million lines)."""

    def __init__(self, pieces: Iterable[tuple[int, TokenizedCorpus]]):
        self._pieces = deque(pieces)
        self.lengths = np.concatenate([np.zeros(0, np.int64)] + [p.lengths for _, p in self._pieces])

    @property
    def n_lines(self) -> int:
        return len(self.lengths)

    def take(self, a: int, b: int) -> TokenizedCorpus:
        """Lines a..b-1 as a corpus of their own (ask in order: earlier lines are gone)."""
        while self._pieces and self._pieces[0][0] + self._pieces[0][1].n_lines <= a:
            self._pieces.popleft()
        ids = [piece.ids[piece.offsets[max(a - start, 0)]:piece.offsets[min(b - start, piece.n_lines)]]
               for start, piece in self._pieces if start < b]
        lengths = self.lengths[a:b]
        return TokenizedCorpus(np.concatenate([np.zeros(0, np.int32)] + ids),
                               np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64))


SPLITS = ("whitespace", "space")


class Tokenization:
    """One tokenizer plus the lowercase switch, with a table of strings shared by every file it encodes.

    ``split``: how the tokenizer's output becomes tokens: ``whitespace`` (runs of
    whitespace, as sacreBLEU and NLTK's users split) or ``space`` (each single
    space, as the d2l textbook's ``split(' ')``: two spaces make an empty token,
    and an empty line is one empty token; no trailing whitespace is stripped).
    Token ids are only comparable between corpora encoded by the same
    ``Tokenization`` object; references and all systems must share one.
    """

    def __init__(self, name: str = "13a", lowercase: bool = False, split: str = "whitespace"):
        if split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
        self.name = name
        self.lowercase = lowercase
        self.split = split
        self.tokenizer = load_tokenizer(name)
        # One table of strings for tokens and words: a word and a token with the same text share an id, so a
        # plain word is its own token and is stored once. Ids of strings never used as tokens never occur in
        # token ids.
        self.strings = StringTable()
        # The word cache, by string id: the word's tokens are _word_tokens[start:start + len]; start -1: the
        # string has not been met as a word yet. 32-bit throughout (8 bytes a string fewer than 64-bit: 34 MB
        # at 4M strings); _register refuses to pass 2^31 tokens.
        self._word_start = array("i")
        self._word_len = array("i")
        self._word_tokens = array("i")

    def copy(self) -> Tokenization:
        """A new tokenization that starts with this one's strings and word cache (a slice of a run reuses
        the words its whole run already tokenized); the two never share mutable state."""
        twin = Tokenization.__new__(Tokenization)
        twin.name, twin.lowercase, twin.split, twin.tokenizer = self.name, self.lowercase, self.split, self.tokenizer
        twin.strings = self.strings.copy()
        twin._word_start = array("i", self._word_start)
        twin._word_len = array("i", self._word_len)
        twin._word_tokens = array("i", self._word_tokens)
        return twin

    @property
    def signature(self) -> str:
        """sacreBLEU's name for the tokenizer (with the MeCab version for ja/ko)."""
        return self.tokenizer.signature()

    def tokens(self, line: str) -> list[str]:
        """The tokens of one line exactly as the variant's BLEU sees them (whole-line call)."""
        if self.lowercase:  # sacreBLEU: lowercase first, then strip trailing whitespace, then tokenize
            line = line.lower()
        return self._line_tokens(line)

    def _line_tokens(self, line: str) -> list[str]:
        """The tokens of a line already lowercased when the tokenization lowercases."""
        if self.split == "space":
            return self.tokenizer(line).split(" ")
        return self.tokenizer(line.rstrip()).split()

    def lines_tokens(self, lines: Sequence[str]) -> list[list[str]]:
        """:meth:`tokens` of each line, found in bulk by :meth:`encode` (each distinct word tokenized once, by the
        word cache); like encoding, it grows this tokenization's table of strings."""
        if not lines:
            return []
        corpus = self.encode(lines)
        ids = corpus.ids.tolist()
        text = {i: self.strings.string(i) for i in set(ids)}
        offsets = corpus.offsets.tolist()
        return [[text[i] for i in ids[a:b]] for a, b in zip(offsets, offsets[1:])]

    def encode(self, lines: Sequence[str], progress: Callable[[float], None] | None = None) -> TokenizedCorpus:
        """Tokenize every line and map tokens to integer ids (growing the shared table of strings).

        ``progress`` is called with the fraction done after every chunk of lines;
        it may raise (e.g. :class:`~bleu_gui.core.errors.Cancelled`) to stop.
        """
        # The whole file's ids in one corpus (the evaluator keeps the pieces instead, see CorpusPieces).
        with contextlib.closing(self.encode_chunks(lines, progress)) as chunks:
            return CorpusPieces(chunks).take(0, len(lines))

    def encode_chunks(self, lines: Sequence[str], progress: Callable[[float], None] | None = None
                      ) -> Generator[tuple[int, TokenizedCorpus], None, None]:
        """:meth:`encode` a chunk of lines at a time: (first line, the chunk's lines as a corpus of their own).

        Close the generator (or run it to the end) so the helper thread of the word split is joined.
        """
        chunks = self._prepared_chunks(lines)
        by_words = self.name in _WORD_LOCAL and self.split == "whitespace"
        pairs: Generator[tuple[list[str], ChunkWords | None], None, None] = (
            split_chunks(chunks, arrow=len(lines) >= ARROW_FROM_LINES and arrow_available()) if by_words
            else ((chunk, None) for chunk in chunks))
        known = KeyIds(self._word_ids)
        with contextlib.closing(pairs):  # joins the helper thread of a split stopped by a cancel
            for start, (chunk, words) in zip(range(0, len(lines), _CHUNK), pairs):
                if progress is not None:
                    progress(start / max(len(lines), 1))
                if words is not None:
                    chunk_ids, lengths = self._encode_by_words(chunk, words, known)
                    if words.line_breaks:  # only a segment holding a line break can be joined across words
                        chunk_ids, lengths = self._lines_across_words(chunk, chunk_ids, lengths)
                else:  # a tokenizer of whole lines, or a line holding the join mark or a lone surrogate
                    chunk_ids, lengths = self._encode_by_lines(chunk)
                yield start, TokenizedCorpus(chunk_ids, np.concatenate([[0], np.cumsum(lengths)]))

    def _prepared_chunks(self, lines: Sequence[str]) -> Iterator[list[str]]:
        for start in range(0, len(lines), _CHUNK):
            chunk = list(lines[start:start + _CHUNK])
            if self.lowercase:
                chunk = [line.lower() for line in chunk]
            if self.split == "whitespace" and (self.name not in _WORD_LOCAL or self.name in _EDGE_SENSITIVE):
                # Trailing whitespace matters only where a line's edges do.
                chunk = [line.rstrip() for line in chunk]
            yield chunk

    # -- the table of strings ------------------------------------------------
    def _string_ids(self, strings: list[str]) -> np.ndarray:
        """The id of each string; strings new to the table get the next ids in order of first appearance.
        Each distinct string is looked up once (C calls, no Python loop)."""
        distinct = list(dict.fromkeys(strings))
        ids = self.strings.find_strings(distinct)
        missing = np.flatnonzero(ids < 0)
        if len(missing):
            ids[missing] = self._new_strings([distinct[i] for i in missing.tolist()])
        if len(distinct) == len(strings):
            return ids
        by_string = dict(zip(distinct, ids.tolist()))
        return np.fromiter(map(by_string.__getitem__, strings), np.int64, len(strings))

    def _new_strings(self, strings: list[str]) -> np.ndarray:
        """Add distinct strings the table does not hold yet (not yet words); gives their ids."""
        ids = self.strings.add_strings(strings)
        self._word_start.frombytes(np.full(len(strings), -1, np.int32).tobytes())
        self._word_len.frombytes(bytes(4 * len(strings)))
        return ids

    def _encode_by_lines(self, chunk: list[str]) -> tuple[np.ndarray, np.ndarray]:
        per_line = [self._line_tokens(line) for line in chunk]
        lengths = np.fromiter(map(len, per_line), np.int64, len(per_line))
        ids = self._string_ids(list(itertools.chain.from_iterable(per_line))).astype(np.int32)
        return ids, lengths

    def _lines_across_words(self, chunk: list[str], ids: np.ndarray, lengths: np.ndarray
                            ) -> tuple[np.ndarray, np.ndarray]:
        """The ids of a chunk tokenized word by word, with every line that a rule joins across words tokenized
        whole instead: 13a's first step removes ``-\n`` (mteval's end-of-line hyphenation), so a segment holding
        a line break (a PO entry, a JSONL field, a spreadsheet cell) can join the word before it to the word
        after it."""
        mark = _JOINS_ACROSS_WORDS.get(self.name)
        if mark is None or not any(mark in line for line in chunk):
            return ids, lengths
        ends = np.cumsum(lengths)
        per_line = [ids[end - n:end] for end, n in zip(ends.tolist(), lengths.tolist())]
        for i, line in enumerate(chunk):
            if mark in line:
                per_line[i] = self._string_ids(self._line_tokens(line)).astype(ids.dtype)
        new_lengths = np.fromiter(map(len, per_line), np.int64, len(per_line))
        return (np.concatenate(per_line) if per_line else ids), new_lengths

    # -- one word at a time ------------------------------------------------
    def _edge_keys(self, chunk: list[str], words: ChunkWords) -> None:
        """Give the first and last word of every line its intl edge key (added to ``words.keys``).

        intl does not wrap a line in spaces, so its first and last words see "nothing" on one side; "\\n"
        marks that side in the key (it is whitespace, so it is never inside a word and no real word collides).
        """
        filled = np.flatnonzero(words.counts > 0)
        first = words.line_starts()[filled]
        last = first + words.counts[filled] - 1
        # The words are made Python strings in two calls (one a word costs a call into Arrow each).
        first_words = words.keys.strings(words.where[first].tolist())
        last_words = words.keys.strings(words.where[last].tolist())
        edge: dict[int, str] = {}
        for pos, word, line in zip(first.tolist(), first_words, filled.tolist()):
            edge[pos] = word if chunk[line][0].isspace() else "\n" + word
        for pos, word in zip(last.tolist(), last_words):
            edge[pos] = edge.get(pos, word) + "\n"
        base = len(words.keys)
        words.keys.extend(list(edge.values()))
        words.where[np.fromiter(edge, np.int64, len(edge))] = np.arange(base, base + len(edge))

    def _add_words(self, words: list[str], ids: np.ndarray) -> np.ndarray:
        """Tokenize distinct words not met as words yet and put them in the word cache; ``ids`` holds each one's
        string id, -1 for a string new to the table. Gives each word's string id."""
        absent = np.flatnonzero(ids < 0)
        if len(absent):
            ids = ids.copy()
            ids[absent] = self._new_strings(words if len(absent) == len(words) else [words[i] for i in absent.tolist()])
        if self.name not in _UNCHANGED_ALNUM:
            self._register_tokenized(words, ids)
            return ids
        # 13a, intl and none only split at punctuation and symbols: a word of letters and digits alone comes back
        # unchanged (the tests hold this to sacreBLEU), so it skips the tokenizer and is its own token.
        bare = list(map(_STRIP_EDGES, words)) if self.name in _EDGE_SENSITIVE else words
        alnum = np.fromiter(map(str.isalnum, bare), bool, len(words))
        # intl's keys carry a line's edges: their token is the word without its marks.
        tokens = (self._string_ids(list(itertools.compress(bare, alnum))) if self.name in _EDGE_SENSITIVE
                  else ids[alnum])
        self._register(ids[alnum], np.ones(len(tokens), np.int64), tokens)
        self._register_tokenized(list(itertools.compress(words, ~alnum)), ids[~alnum])
        return ids

    def _register_tokenized(self, words: list[str], ids: np.ndarray) -> None:
        for start in range(0, len(words), _WORD_BATCH):
            batch = words[start:start + _WORD_BATCH]
            lengths, tokens = words_tokens(self.tokenizer, batch, edges=self.name in _EDGE_SENSITIVE)
            self._register(ids[start:start + len(batch)], np.array(lengths, np.int64), self._string_ids(tokens))

    def _register(self, word_ids: np.ndarray, lengths: np.ndarray, token_ids: np.ndarray) -> None:
        """Put words in the word cache: word ``word_ids[i]`` has ``lengths[i]`` tokens, read in order from
        ``token_ids``."""
        first = len(self._word_tokens)
        if first + len(token_ids) > _MAX_WORD_TOKENS:
            raise InputError(f"too many distinct words for one run: their tokens pass {_MAX_WORD_TOKENS:,}, the most "
                             "the word cache can hold; score the files in parts")
        self._word_tokens.frombytes(token_ids.astype(np.int32).tobytes())
        np.frombuffer(self._word_len, np.int32)[word_ids] = lengths
        np.frombuffer(self._word_start, np.int32)[word_ids] = first + np.cumsum(lengths) - lengths

    def _encode_by_words(self, chunk: list[str], words: ChunkWords, known: KeyIds) -> tuple[np.ndarray, np.ndarray]:
        if self.name in _EDGE_SENSITIVE:
            self._edge_keys(chunk, words)
        wids = known(words.keys, words.where)
        word_start = np.frombuffer(self._word_start, np.int32)
        word_len = np.frombuffer(self._word_len, np.int32)
        word_tokens = np.frombuffer(self._word_tokens, np.int32)
        tok_per_word = word_len[wids].astype(np.int64)  # the join marks have no tokens
        total = int(tok_per_word.sum())
        # Position of each output token inside its word, then gather.
        first_out = np.cumsum(tok_per_word) - tok_per_word
        within = np.arange(total, dtype=np.int64) - np.repeat(first_out, tok_per_word)
        ids = word_tokens[np.repeat(word_start[wids], tok_per_word) + within]
        word_line = np.repeat(np.arange(len(chunk)), words.counts)
        lengths = np.bincount(word_line, weights=tok_per_word, minlength=len(chunk)).astype(np.int64)
        return ids, lengths

    def _word_ids(self, keys: Utf8Strings, indices: np.ndarray) -> np.ndarray:
        """The string id of each of ``keys`` at ``indices``; keys not met as words yet are tokenized (each once)
        and added."""
        ids = self.strings.find(keys.starts[indices], keys.lengths[indices], keys.data)
        # A string in the table may not be a word yet: "a" is a token of "a." before it is met on its own.
        found = ids >= 0
        unregistered = ~found
        unregistered[found] = np.frombuffer(self._word_start, np.int32)[ids[found]] < 0
        new = np.flatnonzero(unregistered)
        if len(new):
            fresh = keys.strings(indices[new].tolist())
            first_seen = dict(zip(fresh, ids[new].tolist()))  # the distinct new words, each with its id or -1
            if len(first_seen) == len(fresh):  # a block's words are distinct (intl's edge keys may repeat)
                ids[new] = self._add_words(fresh, ids[new])
            else:
                added = self._add_words(list(first_seen), np.fromiter(first_seen.values(), np.int64, len(first_seen)))
                by_word = dict(zip(first_seen, added.tolist()))
                ids[new] = np.fromiter(map(by_word.__getitem__, fresh), np.int64, len(fresh))
        return ids
