"""sacreBLEU's tokenizers, looked up by name, and turning lines into integer token ids.

The tokenizers themselves are sacreBLEU's objects; nothing here re-implements
them. For speed, ``13a``, ``intl``, ``char`` and ``none`` are fed one
whitespace-separated word at a time (with the same context the word has in its
line) and the result is cached per word: all their rules look at one
character of context at most, and whitespace never joins two tokens, so a
line's tokens are the concatenation of its words' tokens. ``tests/test_tokenizers.py``
proves this against whole-line sacreBLEU calls on random and real text.
``zh``, ``ja-mecab`` and ``ko-mecab`` are called once per line.
"""

from __future__ import annotations

import contextlib
import itertools
import operator
import re
import threading
from array import array
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, cast

import numpy as np

from .errors import ConfigError
from .sacrebleu_parts import sacrebleu_module
from .word_split import ChunkWords, KeyIds, split_chunks

# name -> (module, class) inside sacrebleu.tokenizers
_SACREBLEU_CLASSES = {
    "13a": ("tokenizer_13a", "Tokenizer13a"),
    "intl": ("tokenizer_intl", "TokenizerV14International"),
    "zh": ("tokenizer_zh", "TokenizerZh"),
    "char": ("tokenizer_char", "TokenizerChar"),
    "none": ("tokenizer_none", "NoneTokenizer"),
    "ja-mecab": ("tokenizer_ja_mecab", "TokenizerJaMecab"),
    "ko-mecab": ("tokenizer_ko_mecab", "TokenizerKoMecab"),
}
TOKENIZER_NAMES = tuple(_SACREBLEU_CLASSES)
_EXTRA_FOR = {"ja-mecab": "ja", "ko-mecab": "ko"}

# Tokenizers whose output for a line is the concatenation of the output for
# its words. intl does not wrap the line in spaces, so a line's first and last
# word see "nothing" instead of whitespace on one side: they get their own keys.
_WORD_LOCAL = {"13a", "intl", "char", "none"}
_EDGE_SENSITIVE = {"intl"}
_UNCHANGED_ALNUM = {"13a", "intl", "none"}
_CHUNK = 8_000  # lines tokenized between cancel checks
_WORD_BATCH = 20_000
_LOOKUP = 5_000  # words looked up in one C call: ~7 ms of the interpreter lock at a 1M-line vocabulary (10k: 15)
# From this many lines a file's words are split by Arrow (importing it takes ~0.12 s; it saves ~0.2 µs a word).
ARROW_FROM_LINES = 20_000
_STRIP_EDGES = operator.methodcaller("strip", "\n")  # an intl key without its edge marks
_WS = "\ue000"
_NOTHING = "\u2189"
# Between two words stand the right context of one and the left context of the next.
_BOUNDARY = re.compile(f"[{_WS}{_NOTHING}][ ]*[{_WS}{_NOTHING}]")


class SacreTokenizer(Protocol):
    """The interface of sacreBLEU's tokenizer objects: a line in, a space-joined line of tokens out."""

    def __call__(self, line: str) -> str: ...

    def signature(self) -> str: ...


class _Serialized:
    """A tokenizer shared between threads that are not safe to call it at once (MeCab's tagger)."""

    def __init__(self, tokenizer: SacreTokenizer):
        self._tokenizer = tokenizer
        self._lock = threading.Lock()

    def __call__(self, line: str) -> str:
        with self._lock:
            return self._tokenizer(line)

    def signature(self) -> str:
        return self._tokenizer.signature()


_LOADED: dict[str, SacreTokenizer] = {}
_LOADING = threading.Lock()


def load_tokenizer(name: str) -> SacreTokenizer:
    """sacreBLEU's tokenizer object for ``name``, one per process; a missing optional extra is a
    :class:`ConfigError` naming it.

    One object per name, not one per evaluator: sacreBLEU's tokenizers cache on
    their class keyed by the object (ko-mecab held about 52 MB per object).
    """
    with _LOADING:
        if name not in _LOADED:
            tokenizer = _new_tokenizer(name)
            _LOADED[name] = _Serialized(tokenizer) if name in _EXTRA_FOR else tokenizer
        return _LOADED[name]


def _new_tokenizer(name: str) -> SacreTokenizer:
    if name not in _SACREBLEU_CLASSES:
        raise ConfigError(f"unknown tokenizer {name!r}; choose one of {', '.join(TOKENIZER_NAMES)}")
    module, cls = _SACREBLEU_CLASSES[name]
    try:
        tokenizer_cls = getattr(sacrebleu_module(f"tokenizers.{module}"), cls)
        return cast(SacreTokenizer, tokenizer_cls())
    except (ImportError, RuntimeError, AssertionError) as exc:
        extra = _EXTRA_FOR.get(name)
        if extra is None:
            raise ConfigError(f"tokenizer {name!r} cannot be loaded: {exc}") from None
        raise ConfigError(f"tokenizer {name!r} needs the optional extra [{extra}]: "
                          f"pip install 'bleu-gui[{extra}]'") from None


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


class Tokenization:
    """One tokenizer plus the lowercase switch, with a vocabulary shared by every file it encodes.

    Token ids are only comparable between corpora encoded by the same
    ``Tokenization`` object; references and all systems must share one.
    """

    def __init__(self, name: str = "13a", lowercase: bool = False):
        self.name = name
        self.lowercase = lowercase
        self.tokenizer = load_tokenizer(name)
        self.vocab: dict[str, int] = {}
        self._word_index: dict[str, int] = {}
        self._word_start = array("q")
        self._word_len = array("q")
        self._word_tokens = array("i")

    def copy(self) -> Tokenization:
        """A new tokenization that starts with this one's vocabulary and word cache (a slice of a run reuses
        the words its whole run already tokenized); the two never share mutable state."""
        twin = Tokenization.__new__(Tokenization)
        twin.name, twin.lowercase, twin.tokenizer = self.name, self.lowercase, self.tokenizer
        twin.vocab = self.vocab.copy()
        twin._word_index = self._word_index.copy()
        twin._word_start = array("q", self._word_start)
        twin._word_len = array("q", self._word_len)
        twin._word_tokens = array("i", self._word_tokens)
        return twin

    @property
    def signature(self) -> str:
        """sacreBLEU's name for the tokenizer (with the MeCab version for ja/ko)."""
        return self.tokenizer.signature()

    def _prepare(self, line: str) -> str:
        # sacreBLEU: lowercase first, then strip trailing whitespace, then tokenize.
        if self.lowercase:
            line = line.lower()
        return line.rstrip()

    def tokens(self, line: str) -> list[str]:
        """The tokens of one line exactly as sacreBLEU's BLEU sees them (whole-line call)."""
        return self.tokenizer(self._prepare(line)).split()

    def encode(self, lines: Sequence[str], progress: Callable[[float], None] | None = None) -> TokenizedCorpus:
        """Tokenize every line and map tokens to integer ids (growing the shared vocabulary).

        ``progress`` is called with the fraction done after every chunk of lines;
        it may raise (e.g. :class:`~bleu_gui.core.errors.Cancelled`) to stop.
        """
        # Ids go straight into one array grown in place: chunks kept for a final concatenation left ~100 MB
        # of heap holes behind at a million lines. The first guess, 32 tokens a line, costs address space
        # only (pages never written are never resident); measuring the text instead would touch every line
        # (90 ms holding the interpreter lock at a million lines).
        ids = np.empty(32 * len(lines) + 1024, np.int32)
        offsets = np.zeros(len(lines) + 1, np.int64)
        with contextlib.closing(self.encode_chunks(lines, progress)) as chunks:
            for start, chunk in chunks:
                at, size = int(offsets[start]), len(chunk.ids)
                if at + size > len(ids):
                    ids.resize(max(2 * len(ids), at + size), refcheck=False)
                ids[at:at + size] = chunk.ids
                offsets[start + 1:start + 1 + chunk.n_lines] = chunk.offsets[1:] + at
        ids.resize(int(offsets[-1]), refcheck=False)  # in place: the unused tail is handed back
        return TokenizedCorpus(ids, offsets)

    def encode_chunks(self, lines: Sequence[str], progress: Callable[[float], None] | None = None
                      ) -> Generator[tuple[int, TokenizedCorpus], None, None]:
        """:meth:`encode` a chunk of lines at a time: (first line, the chunk's lines as a corpus of their own).

        Close the generator (or run it to the end) so the helper thread of the word split is joined.
        """
        chunks = self._prepared_chunks(lines)
        pairs: Generator[tuple[list[str], ChunkWords | None], None, None] = (
            split_chunks(chunks, arrow=len(lines) >= ARROW_FROM_LINES) if self.name in _WORD_LOCAL
            else ((chunk, None) for chunk in chunks))
        known = KeyIds(self._word_ids)
        with contextlib.closing(pairs):  # joins the helper thread of a split stopped by a cancel
            for start, (chunk, words) in zip(range(0, len(lines), _CHUNK), pairs):
                if progress is not None:
                    progress(start / max(len(lines), 1))
                if words is not None:
                    chunk_ids, lengths = self._encode_by_words(chunk, words, known)
                else:  # a tokenizer of whole lines, or a line holding the join mark or a lone surrogate
                    chunk_ids, lengths = self._encode_by_lines(chunk)
                yield start, TokenizedCorpus(chunk_ids, np.concatenate([[0], np.cumsum(lengths)]))

    def _prepared_chunks(self, lines: Sequence[str]) -> Iterator[list[str]]:
        for start in range(0, len(lines), _CHUNK):
            chunk = list(lines[start:start + _CHUNK])
            if self.lowercase:
                chunk = [line.lower() for line in chunk]
            if self.name not in _WORD_LOCAL or self.name in _EDGE_SENSITIVE:
                # Trailing whitespace matters only where a line's edges do.
                chunk = [line.rstrip() for line in chunk]
            yield chunk

    # -- whole lines -------------------------------------------------------
    def _token_ids(self, tokens: list[str], distinct: bool = False) -> np.ndarray:
        """The vocabulary id of each token (int32); new tokens get the next ids in order of first appearance.
        ``distinct``: no token occurs twice in ``tokens`` (they need not be made distinct first).

        Each step is a C call over a piece of the tokens (a Python loop of ``setdefault`` took three times as
        long at millions of distinct words; a piece keeps each call short for a waiting window)."""
        vocab = self.vocab
        ids = np.empty(len(tokens), np.int32)
        for a in range(0, len(tokens), _LOOKUP):
            piece = tokens[a:a + _LOOKUP]
            new = list(itertools.filterfalse(vocab.__contains__, piece if distinct else dict.fromkeys(piece)))
            vocab.update(zip(new, range(len(vocab), len(vocab) + len(new))))
            ids[a:a + len(piece)] = np.fromiter(map(vocab.__getitem__, piece), np.int32, len(piece))
        return ids

    def _encode_by_lines(self, chunk: list[str]) -> tuple[np.ndarray, np.ndarray]:
        per_line = [self.tokenizer(line.rstrip()).split() for line in chunk]
        lengths = np.fromiter(map(len, per_line), np.int64, len(per_line))
        ids = self._token_ids(list(itertools.chain.from_iterable(per_line)))
        return ids, lengths

    # -- one word at a time ------------------------------------------------
    def _edge_keys(self, chunk: list[str], words: ChunkWords) -> None:
        """Give the first and last word of every line its intl edge key (added to ``words.keys``).

        intl does not wrap a line in spaces, so its first and last words see "nothing" on one side; "\\n"
        marks that side in the key (it is whitespace, so it is never inside a word and no real word collides).
        """
        filled = np.flatnonzero(words.counts > 0)
        first = words.line_starts()[filled]
        last = first + words.counts[filled] - 1
        edge: dict[int, str] = {}
        for pos, key, line in zip(first.tolist(), words.where[first].tolist(), filled.tolist()):
            word = words.keys[key]
            edge[pos] = word if chunk[line][0].isspace() else "\n" + word
        for pos, key in zip(last.tolist(), words.where[last].tolist()):
            edge[pos] = edge.get(pos, words.keys[key]) + "\n"
        base = len(words.keys)
        words.keys.extend(edge.values())
        words.where[np.fromiter(edge, np.int64, len(edge))] = np.arange(base, base + len(edge))

    def _words_tokens(self, keys: list[str]) -> tuple[list[int], list[str]]:
        """(token count of each word, all their tokens in order) from one call of the tokenizer.

        Each word is wrapped in stand-in context characters and the words are
        concatenated: ``_WS`` (private use U+E000) behaves like whitespace for
        every rule of 13a and intl, ``_NOTHING`` (U+2189, a number that is not
        a digit 0-9) like the absence of a character for intl. Neither is
        punctuation or a symbol, so no rule inserts a space next to them or
        joins two words across them; afterwards they are dropped and each
        word's tokens are read between them.
        """
        if _WS in "".join(keys) or _NOTHING in "".join(keys):
            return self._one_by_one(keys)
        if self.name in _EDGE_SENSITIVE:
            text = "".join((_NOTHING if key.startswith("\n") else _WS) + key.strip("\n")
                           + (_NOTHING if key.endswith("\n") else _WS) for key in keys)
        else:
            text = _WS + (_WS + _WS).join(keys) + _WS
        out = self.tokenizer(text).strip(f" {_WS}{_NOTHING}")
        pieces = _BOUNDARY.split(out)
        if len(pieces) != len(keys):  # cannot happen by the argument above; stay exact regardless
            return self._one_by_one(keys)
        # No list per word is kept: many of them alive at once wake the garbage collector, whose full passes
        # walk every line of the open files (~100 ms a pass at a million lines).
        return list(map(len, map(str.split, pieces))), " ".join(pieces).split()

    def _one_by_one(self, keys: list[str]) -> tuple[list[int], list[str]]:
        lengths, tokens = [], []
        for key in keys:
            word_tokens = self._single_word_tokens(key)
            lengths.append(len(word_tokens))
            tokens.extend(word_tokens)
        return lengths, tokens

    def _single_word_tokens(self, key: str) -> list[str]:
        left = not key.startswith("\n")
        right = not key.endswith("\n")
        word = key.strip("\n")
        if self.name in _EDGE_SENSITIVE:
            word = (" " if left else "") + word + (" " if right else "")
        return self.tokenizer(word).split()

    def _add_words(self, new: list[str]) -> np.ndarray:
        """Tokenize distinct words the cache does not hold yet and add them; gives each one's id in the cache."""
        base = len(self._word_index)
        if self.name not in _UNCHANGED_ALNUM:
            self._register_tokenized(new)
            return np.arange(base, base + len(new), dtype=np.int64)
        # 13a, intl and none only split at punctuation and symbols: a word of letters and digits alone comes back
        # unchanged (the tests hold this to sacreBLEU), so it skips the tokenizer.
        bare = list(map(_STRIP_EDGES, new)) if self.name in _EDGE_SENSITIVE else new
        alnum = np.fromiter(map(str.isalnum, bare), bool, len(new))
        plain = list(itertools.compress(new, alnum))
        # intl's keys for one word at a line's edge and inside it are the same token: distinct only elsewhere.
        self._register(plain, [1] * len(plain), list(itertools.compress(bare, alnum)),
                       distinct=self.name not in _EDGE_SENSITIVE)
        self._register_tokenized(list(itertools.compress(new, ~alnum)))
        ids = np.empty(len(new), np.int64)  # the plain words were added first, then the rest
        ids[alnum] = np.arange(base, base + len(plain))
        ids[~alnum] = np.arange(base + len(plain), base + len(new))
        return ids

    def _register_tokenized(self, words: list[str]) -> None:
        for start in range(0, len(words), _WORD_BATCH):
            batch = words[start:start + _WORD_BATCH]
            self._register(batch, *self._words_tokens(batch))

    def _register(self, words: list[str], lengths: list[int], tokens: list[str], distinct: bool = False) -> None:
        """Add words to the word cache: word i has ``lengths[i]`` tokens, read in order from ``tokens``
        (``distinct``: no token occurs twice in them)."""
        if not words:
            return
        first = len(self._word_tokens)
        self._word_start.extend(itertools.accumulate(lengths[:-1], initial=first))
        self._word_len.extend(lengths)
        self._word_tokens.frombytes(self._token_ids(tokens, distinct).astype(np.intc, copy=False).tobytes())
        self._word_index.update(zip(words, range(len(self._word_index), len(self._word_index) + len(words))))

    def _encode_by_words(self, chunk: list[str], words: ChunkWords, known: KeyIds) -> tuple[np.ndarray, np.ndarray]:
        if self.name in _EDGE_SENSITIVE:
            self._edge_keys(chunk, words)
        wids = known(words.keys, words.where)
        word_start = np.frombuffer(self._word_start, np.int64)
        word_len = np.frombuffer(self._word_len, np.int64)
        word_tokens = np.frombuffer(self._word_tokens, np.int32)
        tok_per_word = word_len[wids]  # the join marks have no tokens
        total = int(tok_per_word.sum())
        # Position of each output token inside its word, then gather.
        first_out = np.cumsum(tok_per_word) - tok_per_word
        within = np.arange(total, dtype=np.int64) - np.repeat(first_out, tok_per_word)
        ids = word_tokens[np.repeat(word_start[wids], tok_per_word) + within]
        word_line = np.repeat(np.arange(len(chunk)), words.counts)
        lengths = np.bincount(word_line, weights=tok_per_word, minlength=len(chunk)).astype(np.int64)
        return ids, lengths

    def _word_ids(self, keys: list[str]) -> np.ndarray:
        """The word-cache id of each key; keys new to the cache are tokenized (each once) and added."""
        index = self._word_index
        wids = np.empty(len(keys), np.int64)
        for a in range(0, len(keys), _LOOKUP):
            # A piece at a time: one C call over a whole chunk would hold the interpreter lock for ~50 ms.
            piece = keys[a:a + _LOOKUP]
            wids[a:a + len(piece)] = np.fromiter(map(index.get, piece, itertools.repeat(-1)), np.int64, len(piece))
        new = np.flatnonzero(wids < 0)
        if len(new):
            fresh = [keys[i] for i in new.tolist()]
            distinct = list(dict.fromkeys(fresh))
            added = self._add_words(distinct)
            if len(distinct) == len(fresh):  # Arrow's keys of a block are distinct
                wids[new] = added
            else:  # a small dict: cheaper to look up than the cache
                by_word = dict(zip(distinct, added.tolist()))
                wids[new] = np.fromiter(map(by_word.__getitem__, fresh), np.int64, len(fresh))
        return wids
