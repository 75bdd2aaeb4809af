"""Our word-at-a-time feeding of sacreBLEU's tokenizers gives exactly sacreBLEU's tokens."""

from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_gui.core.errors import ConfigError, InputError
from bleu_gui.core.metrics import tokenizers, word_split
from bleu_gui.core.metrics.sacre_tokenizers import load_tokenizer
from bleu_gui.core.metrics.tokenizers import Tokenization

from .conftest import data_set
from .oracles import sacre_tokenizer
from .strategies import LOOK_ALIKES, WHITESPACE, multiline_sentence, sentence

WORD_LOCAL = ["13a", "intl", "char", "none"]
ALL = WORD_LOCAL + ["zh", "ja-mecab", "ko-mecab"]


WAYS = ["joined", "arrow"]  # a chunk's words by one str.split of joined lines, or by Arrow (large files)


@contextmanager
def split_by(way):
    """Encode with this way of splitting words, whatever the number of lines."""
    before = tokenizers.ARROW_FROM_LINES
    tokenizers.ARROW_FROM_LINES = 0 if way == "arrow" else 10**12
    try:
        yield
    finally:
        tokenizers.ARROW_FROM_LINES = before


@pytest.fixture(params=WAYS)
def way(request):
    with split_by(request.param):
        yield request.param


def sacre_tokens(name, line, lowercase=False):
    tok = sacre_tokenizer(name)
    if lowercase:
        line = line.lower()
    return tok(line.rstrip()).split()


def decoded(tokenization, corpus, i):
    inv = tokenization.strings.strings()
    return [inv[t] for t in corpus.line(i)]


@pytest.mark.parametrize("split", WAYS)
@pytest.mark.parametrize("name", ALL)
@given(lines=st.lists(sentence(), min_size=1, max_size=8), lowercase=st.booleans())
def test_encode_equals_sacrebleu_whole_line(split, name, lines, lowercase):
    t = Tokenization(name, lowercase)
    with split_by(split):
        corpus = t.encode(lines)
    for i, line in enumerate(lines):
        assert decoded(t, corpus, i) == sacre_tokens(name, line, lowercase)
        assert t.tokens(line) == sacre_tokens(name, line, lowercase)


@pytest.mark.parametrize("split", WAYS)
@pytest.mark.parametrize("name", ["13a", "intl"])
@given(lines=st.lists(multiline_sentence(), min_size=1, max_size=8))
def test_segments_holding_line_breaks_are_tokenized_as_whole_lines(split, name, lines):
    """13a removes ``-\n`` before it splits (mteval's end-of-line hyphenation): the word before a line break and
    the word after it can be one token, so such a segment is tokenized whole, and every token is placed in it."""
    from bleu_gui.core.metrics.alignment import char_spans

    t = Tokenization(name)
    with split_by(split):
        corpus = t.encode(lines)
    for i, line in enumerate(lines):
        assert decoded(t, corpus, i) == sacre_tokens(name, line)
        if name == "13a":
            assert None not in char_spans(line, t.tokens(line), False, name)


@pytest.mark.parametrize("name", ["13a", "intl"])
@pytest.mark.parametrize("text", [
    ".5 a", "a .5", "1. x", "x 1.", "a.,b", "&amp;lt; x", "x<skipped>y", "(a)", "5.-6", " .a", "a. .b", "1,5,a",
    "word.", "3.5.", "e-mail x-", "--", "« x »", "5.", ".", "a..b",
])
def test_known_edge_cases(name, text, way):
    t = Tokenization(name)
    corpus = t.encode([text, "z " + text + " z"])
    assert decoded(t, corpus, 0) == sacre_tokens(name, text)
    assert decoded(t, corpus, 1) == sacre_tokens(name, "z " + text + " z")


@pytest.mark.slow
@pytest.mark.parametrize("set_name,names", [
    ("sacrebleu-wmt17-en-de", ["13a", "intl"]),
    ("wmt21-en-de-3ref", ["13a", "intl", "char"]),
    ("wmt22-zh-en-2ref", ["13a", "intl", "zh"]),
    ("wmt22-en-zh-2ref", ["13a", "zh"]),
    ("cmt-ted-sk-en", ["13a", "none"]),
    ("wmt22-en-ja", ["13a", "intl", "char"]),
    ("kor-sacrebleu-doc1-en-ko", ["13a", "intl", "char", "none"]),
])
def test_real_files_tokens_identical(set_name, names):
    folder = data_set(set_name)
    lines = []
    # Each file's first 1,000 lines (the whole sets took six of the suite's minutes): every system, reference and
    # source still speaks, with the scripts, quotes and numbers of its language.
    for f in sorted(folder.glob("*.txt")):
        lines.extend(f.read_text(encoding="utf-8").split("\n")[:-1][:1000])
    for name in names:
        for lowercase in (False, True):
            tok = sacre_tokenizer(name)
            wanted = [tok((line.lower() if lowercase else line).rstrip()).split() for line in lines]
            for way in WAYS:  # sacreBLEU's tokens found once, each way of splitting compared with them
                with split_by(way):
                    t = Tokenization(name, lowercase)
                    corpus = t.encode(lines)
                inv = t.strings.strings()
                for i, want in enumerate(wanted):
                    assert [inv[x] for x in corpus.line(i)] == want, (name, lowercase, way, i)


def test_unknown_tokenizer_is_a_clear_error():
    with pytest.raises(ConfigError, match="unknown tokenizer 'spm'"):
        Tokenization("spm")


def test_missing_extra_names_it(monkeypatch):
    from bleu_gui.core.metrics import sacre_tokenizers
    from bleu_gui.core.metrics.sacrebleu_parts import sacrebleu_module

    ja = sacrebleu_module("tokenizers.tokenizer_ja_mecab")

    monkeypatch.setattr(ja, "MeCab", None)
    monkeypatch.setattr(sacre_tokenizers, "_LOADED", {})  # as in a fresh process: nothing loaded yet
    with pytest.raises(ConfigError, match=r"needs the optional extra \[ja\]: pip install 'bleu-gui\[ja\]'"):
        Tokenization("ja-mecab")


@pytest.mark.parametrize("set_name,name,lowercase,split", [
    ("wmt22-en-ja", "ja-mecab", False, "whitespace"),   # Japanese (the references)
    ("wmt22-en-ja", "char", True, "whitespace"),
    ("wmt22-en-zh-2ref", "zh", False, "whitespace"),    # Chinese
    ("sacrebleu-wmt17-en-de", "13a", True, "whitespace"),  # German
    ("sacrebleu-wmt17-en-de", "intl", False, "space"),  # the d2l textbook's split: each single space
    ("wmt22-zh-en-2ref", "13a", False, "whitespace"),   # English
    ("mtce-en-cs-medium", "intl", False, "whitespace"),  # Czech
    ("wmt-xml-wmt21-ru-en", "13a", True, "whitespace"),  # Russian (the source side of the XML)
])
def test_lines_tokens_in_bulk_are_each_lines_own_tokens(set_name, name, lowercase, split):
    """BLEU's flags (error recall) tokenize a system's lines in bulk: each line's tokens are those of the line
    tokenized alone, as the details and sacreBLEU's whole-line call make them."""
    if set_name.startswith("wmt-xml"):
        from bleu_gui.core.inputs.run_inputs import read_run_inputs

        inputs = read_run_inputs([], sorted((data_set("formats") / set_name).glob("*.xml")))
        assert inputs.context.source is not None
        lines = inputs.context.source.lines[:400]
    else:
        lines = (data_set(set_name) / "ref1.txt").read_text(encoding="utf-8").split("\n")[:400]
    t = Tokenization(name, lowercase, split)
    assert t.lines_tokens(lines) == [t.tokens(line) for line in lines]
    assert t.lines_tokens([]) == []


def test_a_copied_tokenization_reuses_words_and_never_changes_the_original():
    from bleu_gui.core.metrics.tokenizers import Tokenization

    first = Tokenization("13a")
    a = first.encode(["Hello, world!", "a new day"])
    twin = first.copy()
    assert twin.encode(["Hello, world!"]).ids.tolist() == a.line(0).tolist()  # same ids for known words
    strings, starts = first.strings.strings(), first._word_start.tolist()
    twin.encode(["unseen words here."])
    assert first.strings.strings() == strings and first._word_start.tolist() == starts
    assert len(twin.strings) > len(strings) and twin.strings.strings()[:len(strings)] == strings


# A chunk's one split() must cut exactly where each line's would, at every whitespace and at none of the others.
NOT_WHITESPACE = [*LOOK_ALIKES, "\x00"]


def test_every_unicode_whitespace_class_is_split_as_sacrebleu_sees_it(way):
    assert len(WHITESPACE) == 29
    lines = []
    for ws in WHITESPACE + NOT_WHITESPACE:
        lines += [f"a{ws}b", f"{ws}x.{ws}", f"{ws}", f"e{ws}{ws}f,{ws}g", f"(q{ws}"]
    for name in WORD_LOCAL:
        for lowercase in (False, True):
            t = Tokenization(name, lowercase)
            corpus = t.encode(lines)
            for i, line in enumerate(lines):
                assert decoded(t, corpus, i) == sacre_tokens(name, line, lowercase), (name, repr(line))


@pytest.mark.parametrize("name", WORD_LOCAL)
def test_a_line_holding_the_join_mark_is_still_tokenized_as_sacrebleu(name, way):
    # Lines are joined by a NUL word inside a chunk; a line that holds one itself (a UTF-16 file, an edit)
    # must not shift the others.
    lines = ["a \x00 b", "plain line .", "\x00", "x\x00y, z", ""]
    t = Tokenization(name)
    corpus = t.encode(lines)
    assert [decoded(t, corpus, i) for i in range(len(lines))] == [sacre_tokens(name, x) for x in lines]
    # The words of that chunk did not enter the word cache under the mark's entry.
    again = t.encode(["plain line .", "a b"])
    assert [decoded(t, again, i) for i in range(2)] == [sacre_tokens(name, "plain line ."), sacre_tokens(name, "a b")]


@pytest.mark.parametrize("mark_at", [None, 2_100])
def test_a_chunk_split_in_pieces_keeps_every_line_whole(mark_at):
    # A chunk is split a thousand lines at a time (a shorter hold of the interpreter lock); empty lines at the
    # pieces' edges and a line holding the join mark in a later piece must not move any token to another line.
    lines = [" ".join(f"w{(i * 7 + k) % 97}," for k in range(i % 5)) for i in range(2_500)]
    for edge in (0, 999, 1_000, 1_999, 2_000, 2_499):
        lines[edge] = ""
    if mark_at is not None:
        lines[mark_at] = "p \x00 q."
    assert word_split._SPLIT < len(lines) <= tokenizers._CHUNK < tokenizers.ARROW_FROM_LINES
    t = Tokenization("13a")
    corpus = t.encode(lines)
    assert [decoded(t, corpus, i) for i in range(len(lines))] == [sacre_tokens("13a", x) for x in lines]


def test_scoring_never_runs_sacrebleus_package_init():
    # sacrebleu/__init__ pulls in metrics, data sets and portalocker (70 ms a start); the tokenizers are
    # loaded from sacreBLEU's own files without it. A fresh interpreter shows which modules a score loads.
    import subprocess
    import sys

    code = ("import sys; from bleu_gui.core import Bleu; ev = Bleu([['a b .']]); "
            "print(ev.corpus_score(ev.statistics(['a b .'])).signature); "
            "print(sorted(m for m in sys.modules if m == 'sacrebleu' or m.startswith('sacrebleu.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    import sacrebleu

    assert out[0] == f"nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:{sacrebleu.__version__}"
    assert out[1] == "[]"


def test_the_private_tokenizers_are_sacrebleus_own_code():
    import inspect

    import sacrebleu.tokenizers.tokenizer_13a as public

    from bleu_gui.core.metrics.sacrebleu_parts import sacrebleu_module

    private = sacrebleu_module("tokenizers.tokenizer_13a")
    assert inspect.getsourcefile(private) == inspect.getsourcefile(public)
    with pytest.raises(ValueError, match="needs the whole package"):
        sacrebleu_module("metrics.bleu")


def test_pieces_hand_out_blocks_in_order_and_let_go_of_the_ones_passed(monkeypatch):
    from bleu_gui.core.metrics import tokenizers
    from bleu_gui.core.metrics.tokenizers import CorpusPieces

    monkeypatch.setattr(tokenizers, "_CHUNK", 3)
    lines = [" ".join(f"w{i}" for i in range(k % 4)) for k in range(11)]  # 0-3 words a line, empty lines too
    t = Tokenization("13a")
    whole = t.encode(lines)
    pieces = CorpusPieces(t.encode_chunks(lines))
    assert pieces.n_lines == 11 and pieces.lengths.tolist() == whole.lengths.tolist()
    for a, b in ((0, 2), (2, 7), (7, 8), (8, 11)):
        block = pieces.take(a, b)
        assert block.offsets.tolist() == (whole.offsets[a:b + 1] - whole.offsets[a]).tolist()
        assert block.ids.tolist() == whole.ids[whole.offsets[a]:whole.offsets[b]].tolist()
        assert all(start + piece.n_lines > a for start, piece in pieces._pieces)  # those before a are gone
    assert len(pieces._pieces) == 2  # lines 6-8 and 9-10, the pieces of the last block asked (8-10)


@pytest.mark.parametrize("name", ["13a", "intl", "char", "zh"])
def test_tokenizer_calls_keep_nothing_alive(name):
    # sacreBLEU memoises __call__ (65,536 entries); fed batches of words, each a string seen once, the memo kept
    # every batch and its result (~95 MB at a million lines of 3M word types).
    from bleu_gui.core.metrics.sacre_tokenizers import load_tokenizer

    tok = load_tokenizer(name)
    Tokenization(name).encode([f"w{i}, x{i}. {'ab' * (i % 50)}!" for i in range(300)])
    inner = [tok] + [v for v in vars(tok).values() if callable(v)]  # 13a and zh call a TokenizerRegexp
    for obj in inner:
        assert not hasattr(type(obj).__call__, "cache_info"), type(obj).__name__
    # The oracle, imported as usual, keeps sacreBLEU's memo: only the private copy changed.
    import sacrebleu.tokenizers.tokenizer_13a as public

    assert hasattr(public.Tokenizer13a.__call__, "cache_info")


@pytest.mark.parametrize("name", ["13a", "intl"])
def test_a_word_first_met_as_a_token_of_another_word_gets_its_own_tokens(name, way):
    # Words and tokens share one table of strings: "cat" and "." are in it as tokens of "cat." before "cat" and
    # "." are met as words, and "cat." is in it as a word that is no token.
    t = Tokenization(name)
    first = t.encode(["cat. (x)"])
    second = t.encode(["cat . ( x ) cat."])
    assert decoded(t, first, 0) == sacre_tokens(name, "cat. (x)")
    assert decoded(t, second, 0) == sacre_tokens(name, "cat . ( x ) cat.")
    assert second.line(0).tolist()[-2:] == first.line(0).tolist()[:2]


def test_passing_the_word_cache_limit_is_a_clear_error_not_a_wrong_number(monkeypatch, tmp_path, capsys):
    """The word cache holds 32-bit token positions; a run whose distinct words would pass them stops with a
    message (the limit is lowered here: 2^31 tokens of distinct words cannot be reached in a test)."""
    from bleu_gui.cli.bleu_score import run

    monkeypatch.setattr(tokenizers, "_MAX_WORD_TOKENS", 40)
    words = [f"w{i}," for i in range(60)]  # 120 tokens of distinct words
    (tmp_path / "ref.txt").write_text(" ".join(words[:30]) + "\n" + " ".join(words[30:]) + "\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("w1 ,\nw2\n", encoding="utf-8")
    with pytest.raises(InputError, match="too many distinct words"):
        Tokenization().encode(["a b c", " ".join(words)])
    assert run([str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt")]) != 0
    err = capsys.readouterr().err
    assert "too many distinct words" in err and "Traceback" not in err


def test_without_arrow_installed_large_files_score_the_same(monkeypatch):
    """A lean desktop bundle leaves pyarrow out: large files are split in Python, with the same words."""
    import sacrebleu

    from bleu_gui.core import BleuConfig, RunConfig, score_run
    from bleu_gui.core.inputs.text_files import SegmentFile

    hyps = [f"the cat {i} sat on the mat , didn't it ?" for i in range(300)]
    refs = [f"a cat {i % 7} sat on a mat , did n't it" for i in range(300)]

    def scored() -> float:
        run = score_run([SegmentFile(Path("h.txt"), hyps, "utf-8")], [SegmentFile(Path("r.txt"), refs, "utf-8")],
                        RunConfig((BleuConfig(),), significance=None))
        return run.systems[0].results[0].corpus.score

    ways = []
    split = tokenizers.split_chunks
    monkeypatch.setattr(tokenizers, "split_chunks", lambda chunks, arrow: ways.append(arrow) or split(chunks, arrow))
    with split_by("arrow"):
        with_arrow = scored()
        monkeypatch.setattr(tokenizers, "arrow_available", lambda: False)
        without = scored()
    assert set(ways) == {True, False}
    assert with_arrow == without == sacrebleu.corpus_bleu(hyps, [refs]).score


@pytest.mark.parametrize("name", ["13a", "zh"])
@given(text=st.text(alphabet=st.sampled_from(list("ab 19.,-&;()<>/\\:@[]`{}~|'\"_$%!?\n\t\u00a0\u3000，。、")
                                              + ["猫", "在", "日", "本", "の", "ア", "한", "é", "𠀀", "😀", "〇", "ｶ"]),
                    max_size=40))
def test_the_rules_by_table_equal_sacrebleus_own(name, text):
    # zh and 13a run sacreBLEU's first mteval rule (and zh's spacing of Chinese characters) as a translation table:
    # every string of the characters the rules look at gives sacreBLEU's own output, to the character.
    assert load_tokenizer(name)(text) == sacre_tokenizer(name)(text)


def test_another_sacrebleu_rule_set_keeps_sacrebleus_own_tokenizer():
    from bleu_gui.core.metrics.mteval_rules import FastRegexp, faster

    original = sacre_tokenizer("13a")
    changed = type(original)()
    changed._post_tokenizer._re = [*changed._post_tokenizer._re[:3]]  # a rule less: not the rules we know
    kept = faster("13a", changed)
    assert kept is changed and not isinstance(kept._post_tokenizer, FastRegexp)
    assert isinstance(faster("13a", type(original)())._post_tokenizer, FastRegexp)
