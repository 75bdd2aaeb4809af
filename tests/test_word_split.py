"""Both ways of splitting a chunk into words give exactly str.split()'s words, line by line."""

import threading
from contextlib import contextmanager

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_gui.core.errors import Cancelled
from bleu_gui.core.metrics import tokenizers, word_split
from bleu_gui.core.metrics.string_table import Utf8Strings
from bleu_gui.core.metrics.tokenizers import Tokenization

from .oracles import sacre_tokenizer
from .strategies import LOOK_ALIKES, WHITESPACE, sentence


def split_arrow(lines):
    """Arrow's words of one chunk of lines (a block of one chunk)."""
    words = word_split.split_block([lines], threading.Event())
    return None if words is None else words[0]


SPLITTERS = {"joined": word_split.split_joined, "arrow": split_arrow}


def lines_of(words: word_split.ChunkWords) -> list[list[str]]:
    flat = words.keys.strings(words.where.tolist())
    starts = words.line_starts().tolist()
    return [flat[a:a + n] for a, n in zip(starts, words.counts.tolist())]


@pytest.mark.parametrize("way", SPLITTERS)
def test_every_whitespace_code_point_splits_as_str_split(way):
    lines = []
    for ch in WHITESPACE + LOOK_ALIKES:
        lines += [f"a{ch}b", f"{ch}x.{ch}", ch, f"e{ch}{ch}f,{ch}{ch}{ch}g", f"{ch}{ch}", f"(q{ch}"]
    assert lines_of(SPLITTERS[way](lines)) == [line.split() for line in lines]


text = st.text(alphabet=st.sampled_from(WHITESPACE[:12] + WHITESPACE[-6:] + LOOK_ALIKES + list("ab,é😀")), max_size=14)


@pytest.mark.parametrize("way", SPLITTERS)
@given(lines=st.lists(text, max_size=9))
def test_random_lines_split_as_str_split(way, lines):
    assert lines_of(SPLITTERS[way](lines)) == [line.split() for line in lines]


def test_arrow_gives_each_distinct_word_once():
    words = split_arrow(["the cat and the hat", "the end", "  "])
    keys = words.keys.strings(list(range(len(words.keys))))
    # Besides the words: the join mark and an empty piece may be keys, which no word points at.
    assert sorted(keys) == sorted({"the", "cat", "and", "hat", "end"} | ({"", word_split.MARK} & set(keys)))
    assert not {"", word_split.MARK} & set(words.keys.strings(words.where.tolist()))
    assert words.counts.tolist() == [5, 2, 0]


def test_a_line_holding_the_mark_or_a_lone_surrogate_is_left_to_the_whole_line_path(monkeypatch):
    assert word_split.split_joined(["a b", "c \x00 d"]) is None
    assert split_arrow(["a b", "c \x00 d"]) is None
    assert split_arrow(["a \ud800 b"]) is None
    # ...and such lines still get sacreBLEU's tokens, whichever way the file is split.
    lines = ["x \ud800y, z.", "plain , text", "c \x00 d."]
    for threshold in (0, 10**12):
        monkeypatch.setattr(tokenizers, "ARROW_FROM_LINES", threshold)
        t = Tokenization("13a")
        corpus = t.encode(lines)
        inverse = t.strings.strings()
        want = [sacre_tokenizer("13a")(line).split() for line in lines]
        assert [[inverse[i] for i in corpus.line(k)] for k in range(len(lines))] == want


def test_a_large_file_is_split_by_arrow_in_blocks_ahead_with_its_lines_in_order(monkeypatch):
    calls = []
    real = word_split.split_block
    monkeypatch.setattr(word_split, "split_block",
                        lambda block, stopped: calls.append(sum(map(len, block))) or real(block, stopped))
    n = tokenizers.ARROW_FROM_LINES + tokenizers._CHUNK + 17  # the first size split by Arrow, three chunks
    lines = [f"w{i % 101} , w{i % 37}. x{i}" for i in range(n)]
    t = Tokenization("intl")
    corpus = t.encode(lines)
    assert sum(calls) == n and len(calls) > 2
    inverse = t.strings.strings()
    tok = sacre_tokenizer("intl")
    for i in (0, tokenizers._CHUNK - 1, tokenizers._CHUNK, n - 1):
        assert [inverse[x] for x in corpus.line(i)] == tok(lines[i]).split()
    small = Tokenization("13a")
    small.encode(lines[:100])
    assert sum(calls) == n  # a small file: one str.split, no Arrow


def test_a_cancelled_encode_leaves_no_helper_thread_running():
    lines = ["a b c ."] * (tokenizers.ARROW_FROM_LINES + 3 * tokenizers._CHUNK)
    seen = []

    def cancel_at_third(fraction):
        seen.append(fraction)
        if len(seen) == 3:
            raise Cancelled()

    with pytest.raises(Cancelled):
        Tokenization("13a").encode(lines, cancel_at_third)
    assert not [t for t in threading.enumerate() if t.name.startswith("bleu-block")]


def test_arrow_never_reads_past_a_line_even_when_the_bytes_after_it_are_garbage():
    # Arrow's whitespace split reads one character past a whitespace run that ends its string. When the
    # text ends exactly at the end of its 64-byte buffer, that character is whatever memory follows; with the
    # system allocator filling new memory with 0xFE, an unguarded split makes the last blank a word of its
    # own. Each chunk below is one line whose length runs through a whole buffer's width.
    import json
    import os
    import subprocess
    import sys

    chunks = [["a" * k + tail] for k in range(70) for tail in (" \x1d", "\u2028\x0b", "  ", "\u3000")]
    code = ("import json, sys, threading; from bleu_gui.core.metrics.word_split import split_block\n"
            "out = []\n"
            "for lines in json.loads(sys.stdin.read()):\n"
            "    w = split_block([lines], threading.Event())[0]; flat = w.keys.strings(w.where.tolist()); at = 0; got = []\n"
            "    for n in w.counts.tolist(): got.append(flat[at:at + n]); at += n\n"
            "    out.append(got)\n"
            "print(json.dumps(out))")
    env = {**os.environ, "ARROW_DEFAULT_MEMORY_POOL": "system", "MALLOC_PERTURB_": "1"}
    result = subprocess.run([sys.executable, "-c", code], input=json.dumps(chunks), env=env, capture_output=True,
                            text=True, check=True)
    assert json.loads(result.stdout) == [[line.split() for line in lines] for lines in chunks]


@contextmanager
def tiny_chunks():
    """Arrow for every file and chunks of three lines: a few dozen lines make blocks of 1, 2, 4 and 8 chunks."""
    before = tokenizers.ARROW_FROM_LINES, tokenizers._CHUNK
    tokenizers.ARROW_FROM_LINES, tokenizers._CHUNK = 0, 3
    try:
        yield
    finally:
        tokenizers.ARROW_FROM_LINES, tokenizers._CHUNK = before


@pytest.mark.parametrize("name", ["13a", "intl", "char", "none"])
@given(lines=st.lists(sentence(), min_size=1, max_size=60), lowercase=st.booleans())
def test_chunks_that_share_a_blocks_words_get_sacrebleus_tokens(name, lines, lowercase):
    # A block's chunks share one list of distinct words; intl appends its edge keys to that list chunk by chunk.
    t = Tokenization(name, lowercase)
    with tiny_chunks():
        corpus = t.encode(lines)
    inverse = t.strings.strings()
    tok = sacre_tokenizer(name)
    for i, line in enumerate(lines):
        want = tok((line.lower() if lowercase else line).rstrip()).split()
        assert [inverse[x] for x in corpus.line(i)] == want, (i, line)


def test_a_word_is_looked_up_once_a_block_not_once_a_chunk(monkeypatch):
    blocks, looked_up = [], []
    split, look_up = word_split.split_block, Tokenization._word_ids
    monkeypatch.setattr(word_split, "split_block",
                        lambda block, stopped: blocks.append(sum(map(len, block))) or split(block, stopped))
    monkeypatch.setattr(Tokenization, "_word_ids",
                        lambda self, keys, indices: looked_up.append(len(indices)) or look_up(self, keys, indices))
    lines = ["the cat sat ."] * 120  # 40 chunks
    with tiny_chunks():
        Tokenization("13a").encode(lines)
    assert sum(blocks) == 120 and len(blocks) < 40 // 4
    assert sum(looked_up) == 4 * len(blocks)


def test_a_stopped_block_gives_up_before_its_next_chunk():
    stopped = threading.Event()
    stopped.set()
    assert word_split.split_block([["a b"], ["c d"]], stopped) is None
    assert word_split.split_block([["a b"], ["c d"]], threading.Event()) is not None


def test_closing_the_split_stops_the_block_in_progress_instead_of_waiting_for_it(monkeypatch):
    seen, real, running = [], word_split.split_block, threading.Event()

    def slow_block(block, stopped):
        if len(seen) == 0:  # the first block answers at once
            seen.append("first")
            return real(block, stopped)
        running.set()
        seen.append(stopped.wait(timeout=10))  # the second waits until told to stop
        return None

    monkeypatch.setattr(word_split, "split_block", slow_block)
    split = word_split.split_chunks([["a b"]] * 5, arrow=True)
    assert next(split)[1].counts.tolist() == [2]
    assert running.wait(timeout=10)
    split.close()
    assert seen == ["first", True]
    assert not [t for t in threading.enumerate() if t.name.startswith("bleu-block")]


def test_intl_edge_words_become_python_strings_a_chunk_at_a_time(monkeypatch):
    # One call into Arrow for each line's first and last word took intl 6.5 s on 100,000 lines instead of 0.8 s.
    calls = []
    real = Utf8Strings.strings
    monkeypatch.setattr(Utf8Strings, "strings", lambda self, indices: calls.append(len(indices)) or real(self, indices))
    lines = [f"w{i} x{i % 7}. y{i % 5}" for i in range(90)]  # 30 chunks of three lines
    with tiny_chunks():
        corpus = Tokenization("intl").encode(lines)
    assert corpus.n_lines == 90
    assert len(calls) <= 3 * 30  # the edges' first words, their last words, the chunk's new words
