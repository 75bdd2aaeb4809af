"""Hypothesis strategies for sentences that exercise tokenizers and clipping."""

from hypothesis import strategies as st

# A small vocabulary so that n-grams repeat and match; tricky characters on purpose:
# Hangul, CJK, combining marks, no-break and ideographic spaces, punctuation, digits.
WORDS = ["the", "The", "cat", "mat", "on", "a", "is", "Mr.", "3.5", "1,000", "e-mail", "(ok)", "\"q\"",
         "&amp;", "&quot;", "don't", "x-", "-y", ".", ",", "!", "?", "빛이", "사람은", "높았다", "猫", "在",
         "垫子上", "です", "日本語", "é", "e\u0301", "Ωμέγα", "ΣΟΦΟΣ", "İstanbul", "$5", "5.", "a.b", "<skipped>",
         "1.", ".5", "—", "…", "«", "»", "x\u00a0y", "²", "٣٤", "Ⅻ", "x²-1", "3-4",
         # Outside the Basic Multilingual Plane: two UTF-16 units each in Qt.
         "😀", "𠀀", "🇯🇵", "a😀b", "𝐱"]
# Every character str.split() treats as whitespace (29), and look-alikes it does not: zero-width space, BOM,
# Mongolian vowel separator, word joiner.
WHITESPACE = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF and chr(c).isspace()]
LOOK_ALIKES = ["\u200b", "\ufeff", "\u180e", "\u2060"]
SEPARATORS = [" ", " ", " ", "  ", "\t", "\u00a0", "\u3000", " \u200b"]

word = st.sampled_from(WORDS)
sep = st.sampled_from(SEPARATORS)


@st.composite
def sentence(draw, max_words: int = 12):
    words = draw(st.lists(word, min_size=0, max_size=max_words))
    out = draw(st.sampled_from(["", " ", "\u3000"]))
    for i, w in enumerate(words):
        out += w + (draw(sep) if i < len(words) - 1 else "")
    return out + draw(st.sampled_from(["", "", " ", "\u00a0"]))


@st.composite
def corpus(draw, max_lines: int = 6, max_refs: int = 4):
    n = draw(st.integers(1, max_lines))
    n_refs = draw(st.integers(1, max_refs))
    hyps = [draw(sentence()) for _ in range(n)]
    refs = [[draw(sentence()) for _ in range(n)] for _ in range(n_refs)]
    return hyps, refs


# Segments that hold line breaks (a PO entry, a JSONL field, a spreadsheet cell), with the dashes before and after
# them that 13a's end-of-line hyphenation (``-\n`` removed) and Tercom's (``\n-``) join across.
LINE_BREAK_WORDS = ["--------", "-h", "-", "Hilfe", "x-", "-y", "Optionen:", "a", "5-", "-3"]
LINE_BREAK_SEPARATORS = [" ", "\n", "-\n", "\n-", " \n", "\n\n", "--\n\n"]


@st.composite
def multiline_sentence(draw, max_words: int = 8):
    words = draw(st.lists(st.sampled_from(LINE_BREAK_WORDS + WORDS[:10]), min_size=0, max_size=max_words))
    out = ""
    for i, w in enumerate(words):
        out += w + (draw(st.sampled_from(LINE_BREAK_SEPARATORS)) if i < len(words) - 1 else "")
    return out
