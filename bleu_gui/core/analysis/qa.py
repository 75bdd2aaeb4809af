"""Translator QA: the checks translators run (Xbench, translate-toolkit's pofilter — read for what users expect,
none of their code), per segment and system, so they can be joined to the scores.

Each check looks at a candidate beside its source (and, for ``tag``, the inline tags of both), flags a segment
with a one-line detail, and is tuned for few false alarms: a clean human reference read as a candidate is
flagged in at most 5% of segments per check on the WMT sets (``scripts/qa_false_alarms.py``; docs/qa.md has the
figures). A check a segment cannot be judged by (no source, no tags) is skipped and said.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..errors import InputError, term
from .qa_numbers import number_problems

CHECKS = ("number", "untranslated", "empty", "omission", "repeated_word", "brackets", "tag", "url", "email",
          "punctuation_end", "length", "whitespace", "inconsistent", "glossary")
NEEDS_SOURCE = frozenset(CHECKS) - {"repeated_word", "whitespace", "tag"}


@dataclass(frozen=True)
class QAFlag:
    """One finding: the system, the segment (0-based), the check and what it found."""

    system: str
    segment: int
    check: str
    detail: str


_URL = re.compile(r"\b(?:https?://|www\.)[^\s<>\"'()]+[^\s<>\"'().,;:!?]")
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_WORD = re.compile(r"\w+")
_REPEAT = re.compile(r"\b(\w{2,})(\s+)\1\b", re.IGNORECASE)
# Brackets nest strictly, in every script.
_PAIRS = {"(": ")", "[": "]", "{": "}", "「": "」", "『": "』", "（": "）", "《": "》", "〈": "〉", "【": "】", "〔": "〕",
          "［": "］", "｛": "｝"}
_CLOSING = {v: k for k, v in _PAIRS.items()}
# Double quotation marks as typographies write them: English and Chinese “…”, German and Czech „…“, Croatian,
# Polish, Romanian and Hungarian „…”, French, Russian and Spanish «…», German and Danish »…«, Swedish ”…” and
# »…», and the single ‹…› and ›…‹. A mark may open in one typography and close in another (“ closes „ in German,
# opens in English): each quote closes the innermost open one when it can, else opens one when it can.
_QUOTE_CLOSES = {"“": "„“", "”": "„“”", "»": "«»", "«": "»", "›": "‹›", "‹": "›"}
_QUOTE_OPENS = {"„": "“”", "“": "”", "«": "»", "»": "«»", "”": "”", "‹": "›", "›": "‹›"}
# The characters unbalanced_mark reads: any other leaves its stack as it is, so it walks these alone.
_MARKS = re.compile("[" + re.escape("".join(sorted({'"', *_PAIRS, *_CLOSING, *_QUOTE_OPENS, *_QUOTE_CLOSES}))) + "]")
# Sentence-final marks by kind, across scripts.
_END = {".": ".", "。": ".", "．": ".", "!": "!", "！": "!", "?": "?", "？": "?", ":": ":", "：": ":", "…": ".",
        ";": ";", "；": ";"}
_TRAILING = "\"'”’“‘»«」』)）]"  # closing quotes of every typography (German closes with “)


def check_number(source: str, candidate: str) -> str:
    """Numbers compared as values across scripts and conventions, and codes that change (:mod:`.qa_numbers`)."""
    return number_problems(source, candidate)


def _letters(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


@functools.lru_cache(maxsize=4096)  # a source line is compared with every system's candidate: split once
def _word_set(text: str) -> frozenset[str]:
    return frozenset(w.lower() for w in _WORD.findall(text))


_NOT_WORDS = re.compile(r"\b(?:https?://|www\.)\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|#[A-Za-z_]+\d*#|[\d\W_]+")
_COPIED_RUN = 5  # consecutive source words a candidate copies before it counts as a sentence left untranslated


def _translatable(source: str) -> bool:
    """Whether ``source`` holds words to translate once URLs, e-mail addresses, names of WMT's (#PRS_ORG#),
    numbers and punctuation are left out (a copied URL is no untranslated text)."""
    return any(len(w) > 1 for w in _WORD.findall(_NOT_WORDS.sub(" ", source)) if not w.isdigit())


def _copied_run(source: str, candidate: str) -> str:
    """The first run of :data:`_COPIED_RUN` or more consecutive words of the source, in order, in the candidate
    (case aside): a sentence left in the source language inside a translation."""
    src = [w.lower() for w in _WORD.findall(source)]
    cand = [w.lower() for w in _WORD.findall(candidate)]
    if len(src) < _COPIED_RUN or len(cand) < _COPIED_RUN:
        return ""
    starts: dict[tuple[str, ...], int] = {}
    for i in range(len(src) - _COPIED_RUN + 1):
        starts.setdefault(tuple(src[i:i + _COPIED_RUN]), i)
    for j in range(len(cand) - _COPIED_RUN + 1):
        window = tuple(cand[j:j + _COPIED_RUN])
        written = _WORD.findall(candidate)[j:j + _COPIED_RUN]
        common = sum(w[:1].islower() for w in written)  # a name or a title (Title Case) is kept as it is
        if window in starts and sum(len(w) > 2 and not w.isdigit() for w in window) >= _COPIED_RUN - 1 \
                and common * 2 >= _COPIED_RUN:
            k = _COPIED_RUN
            while j + k < len(cand) and starts[window] + k < len(src) and cand[j + k] == src[starts[window] + k]:
                k += 1
            return " ".join(_WORD.findall(candidate)[j:j + k])
    return ""


_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7a3]{8,}")  # words written without spaces


def _copied_characters(source: str, candidate: str) -> str:
    """A run of eight or more Chinese, Japanese or Korean characters of the source, as it is, in a candidate written
    mostly in another script (a Chinese sentence left in an English translation)."""
    if writing_of([candidate]) in ("ja", "zh", "ko"):
        return ""
    return next((m.group() for m in _CJK_RUN.finditer(source) if m.group() in candidate), "")


def check_untranslated(source: str, candidate: str) -> str:
    if not _letters(candidate) or not _translatable(source):
        return ""
    if " ".join(source.split()) == " ".join(candidate.split()):
        return "the candidate is the source"
    words = [w.lower() for w in _WORD.findall(candidate) if len(w) > 3 and not w.isdigit()]
    if len(words) >= 6:
        source_words = _word_set(source)
        copied = sum(w in source_words for w in words) / len(words)
        if copied >= 0.85:
            return f"{copied:.0%} of the candidate's words are the source's"
    run = _copied_run(source, candidate) or _copied_characters(source, candidate)
    return f"the source's words copied: “{run[:80]}”" if run else ""


def check_empty(source: str, candidate: str) -> str:
    """An empty candidate of a source with text: untranslated (a CAT tool's empty target)."""
    return "empty: nothing translated" if source.strip() and not candidate.strip() else ""


def check_repeated_word(source: str, candidate: str) -> str:
    for m in _REPEAT.finditer(candidate):
        word = m.group(1)
        if word.isdigit() or re.search(rf"\b{re.escape(word)}\s+{re.escape(word)}\b", source, re.IGNORECASE):
            continue  # "1 1", or repeated in the source too ("bye bye")
        return f"'{m.group(0)}'"
    return ""


def unbalanced_mark(text: str) -> str:
    """The first unbalanced bracket or quotation mark of ``text`` ('' when all pair up; see the pairs above).
    Full-width and half-width forms of a bracket are one bracket (NFKC: ``（…)`` is closed); a straight double quote
    pairs with any double quotation mark (``"…”``); apostrophes and single curly quotes are not checked."""
    stack: list[str] = []
    for ch in _MARKS.findall(unicodedata.normalize("NFKC", text)):
        if ch == '"':
            if stack and (stack[-1] == '"' or stack[-1] in _QUOTE_OPENS):
                stack.pop()
            else:
                stack.append(ch)
        elif stack and stack[-1] == '"' and ch in _QUOTE_CLOSES:
            stack.pop()
        elif ch in _PAIRS:
            stack.append(ch)
        elif ch in _CLOSING:
            if not stack or stack[-1] != _CLOSING[ch]:
                return ch
            stack.pop()
        elif ch in _QUOTE_CLOSES or ch in _QUOTE_OPENS:
            if stack and stack[-1] in _QUOTE_CLOSES.get(ch, ""):
                stack.pop()
            elif ch in _QUOTE_OPENS:
                stack.append(ch)
            else:
                return ch
    return stack[-1] if stack else ""


def check_brackets(source: str, candidate: str) -> str:
    """An unbalanced bracket or quotation mark in the candidate, when the source's are balanced (a quotation the
    source leaves open runs past the segment: not the translator's doing)."""
    found = unbalanced_mark(candidate)
    if not found or (source and unbalanced_mark(source)):
        return ""
    return f"unbalanced {found!r}"


def check_url(source: str, candidate: str) -> str:
    missing = [u for u in _URL.findall(source) if u not in candidate]
    return f"not copied exactly: {', '.join(missing)}" if missing else ""


def check_email(source: str, candidate: str) -> str:
    missing = [e for e in _EMAIL.findall(source) if e not in candidate]
    return f"not copied exactly: {', '.join(missing)}" if missing else ""


def _end(text: str) -> str:
    stripped = text.rstrip().rstrip(_TRAILING).rstrip()
    return _END.get(stripped[-1], "") if stripped else ""


# What ends a question where a language ends it with a full stop: Japanese か, かな, ね, の, でしょう (…でしょうか。),
# Chinese 吗, 呢, 吧, Korean -까, -니, -나요, -죠 before the final mark.
_QUESTION_ENDINGS = {"ja": re.compile(r"(?:か|かな|かね|かい|かしら|っけ|ね|よね|の|でしょう|だろう)[。．.]?$"),
                     "zh": re.compile(r"[吗嗎呢吧么嘛][。.]?$"),
                     "ko": re.compile(r"(?:까|니|나요|가요|죠|지요|래요)[.。]?$")}
_CJK_CLOSING = "」』）)】〕》〉”’"


def check_punctuation_end(source: str, candidate: str, language: str = "") -> str:
    """A question that is no longer one, or a sentence that lost its final mark (an added full stop, and ! for
    a full stop, are translators' choices across languages: not flagged). As the target language writes it
    (``language``: ``ja``, ``zh``, ``ko``, or '' for languages that mark every sentence): a Japanese or Chinese
    sentence may end with its closing quote (「…」 with no 。 before it); Japanese leaves 。 out of headings, list
    items and instructions (never flagged for a lost full stop); a question may end with its particle and a full
    stop (…でしょうか。, …吗。, …나요.)."""
    a, b = _end(source), _end(candidate)
    if a == b or not source.strip() or not candidate.strip():
        return ""
    core = candidate.rstrip()
    if language in ("ja", "zh") and not b and core and core[-1] in _CJK_CLOSING:
        b = "."  # 「…」: the quotation ends the sentence
    ending = _QUESTION_ENDINGS.get(language)
    if a == "?" and b != "?" and ending is not None and ending.search(core.rstrip(_TRAILING).rstrip()):
        b = "?"
    quoted = source.rstrip()[-1:] in _TRAILING  # the source ends with a quotation: "… today?"
    if a == "?" and b != "?" and quoted and ("?" in candidate or "？" in candidate):
        b = "?"  # the question kept inside the quotation, the sentence going on after it (「…？」と尋ねる。)
    if language == "ja" and a in (".", ";", ":") and not b:
        return ""
    if a == b:
        return ""
    said = {"": "no final punctuation", ".": "a full stop", "!": "'!'", "?": "'?'", ":": "':'", ";": "';'"}
    if (a == "?" and b != "?") or (a and not b):
        return f"the source ends with {said[a]}, the candidate with {said[b]}"
    return ""


def check_whitespace(source: str, candidate: str) -> str:
    """Leading spaces, or a double space, the source does not have (trailing spaces are left out: files end
    lines with them unseen)."""
    if candidate != candidate.lstrip() and source == source.lstrip():
        return "leading spaces"
    if "  " in candidate and "  " not in source:
        return "double space"
    return ""


@functools.lru_cache(maxsize=8192)  # a source line is measured against every system's candidate: once
def _width(text: str) -> int:
    """Characters, a wide (CJK) character counting as two: lengths compare across scripts."""
    if text.isascii():
        return sum(not ch.isspace() for ch in text)
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text if not ch.isspace())


def _length_ratios(sources: Sequence[str], candidates: Sequence[str]) -> tuple[list[float], list[float]]:
    """Each segment's log(candidate/source width) (NaN under 10 characters of source, or an empty candidate), and
    the finite ones sorted: the corpus's usual ratio is their median (at least 20 needed to say one)."""
    ratios = [math.log(_width(c) / _width(s)) if _width(s) >= 10 and _width(c) else math.nan
              for s, c in zip(sources, candidates)]
    return ratios, sorted(r for r in ratios if not math.isnan(r))


def check_length(sources: Sequence[str], candidates: Sequence[str]) -> list[str]:
    """Length ratio outliers against the corpus: log(candidate/source width) more than 4 robust deviations
    (median absolute deviation × 1.4826, at least 0.1) from the corpus's median, on segments of 10 characters
    or more."""
    ratios, finite = _length_ratios(sources, candidates)
    out = [""] * len(candidates)
    if len(finite) < 20:
        return out
    median = finite[len(finite) // 2]
    # At least 0.1 (10% of length): a corpus of near-identical ratios would otherwise flag every small change.
    spread = max(sorted(abs(r - median) for r in finite)[len(finite) // 2] * 1.4826, 0.1)
    for i, r in enumerate(ratios):
        if not math.isnan(r) and abs(r - median) > 4 * spread:
            out[i] = f"length ratio {math.exp(r):.2f} (the corpus's is {math.exp(median):.2f})"
    return out


_SENTENCE = re.compile(r"[.!?。！？]+(?=\s|$|[\u3000-\u9fff\uff00-\uffef\"'”’»」』）)])")
# A full stop that ends no sentence: an initial (J.), a dotted abbreviation (U.S., z.B.), or a common abbreviation
# of the languages checked (Mr., Dr., etc., approx., Nr., usw., tj.). A short word is no abbreviation ("Okay.",
# "you." end sentences: they once counted as none, and a reference that keeps every sentence read as an omission).
_ABBREVIATION = re.compile(
    r"(?:\b[A-Z]|\b(?:[A-Za-z]\.)+[A-Za-z]|\b(?i:mr|mrs|ms|dr|prof|st|jr|sr|vs|etc|approx|no|nr|fig|vol|ca|cf|"
    r"usw|bzw|ggf|inkl|tj|tzv|napr|resp|str|gen|sv|ul|itd|tel|ing|mgr))\.$")


def sentences(text: str) -> int:
    """The sentences of ``text``, counted by their final marks (an abbreviation's full stop aside); a text without
    one is one sentence."""
    count, start = 0, 0
    for m in _SENTENCE.finditer(text):
        piece = text[start:m.end()]
        start = m.end()
        if m.group() == "." and _ABBREVIATION.search(piece.rstrip()):
            continue
        count += _letters(piece)
    return count + (_letters(text[start:]) and bool(text[start:].strip()))


OMISSION_SHARE = 0.95  # the share of the corpus's usual length below which a candidate missing a sentence is flagged


def check_omission(sources: Sequence[str], candidates: Sequence[str]) -> list[str]:
    """A sentence of the source that the candidate seems to leave out: the candidate has fewer sentences than its
    source of two or more, and is shorter than the corpus's usual length ratio (below :data:`OMISSION_SHARE` of
    it). A translation that joins two sentences keeps its length: not flagged (on the shared references: at most
    1.4 flags per 100 segments; 97% of sentences left out of them caught, ``scripts/bench_qa.py``)."""
    ratios, finite = _length_ratios(sources, candidates)
    out = [""] * len(candidates)
    if len(finite) < 20:
        return out
    median = finite[len(finite) // 2]
    for i, (source, candidate) in enumerate(zip(sources, candidates)):
        if math.isnan(ratios[i]):
            continue
        n_source = sentences(source)
        if n_source < 2:
            continue
        n_candidate = sentences(candidate)
        share = math.exp(ratios[i] - median)
        if n_candidate < n_source and share < OMISSION_SHARE:
            out[i] = (f"the source has {n_source} sentences, the candidate {n_candidate}, at {share:.0%} of the "
                      "corpus's usual length")
    return out


def _same_text(text: str) -> str:
    """A translation as compared for consistency: case, spacing (every space: こんにちは 世界 is こんにちは世界),
    full- and half-width forms and final punctuation aside."""
    return "".join(unicodedata.normalize("NFKC", text).split()).rstrip(".!?。！？").casefold()


def check_inconsistent(sources: Sequence[str], candidates: Sequence[str]) -> list[str]:
    """A source segment (of 4 words or more) translated otherwise than its most frequent translation in the same
    output (the first of equals): the segments that differ are flagged, not the one others are measured by."""
    by_source: dict[str, list[int]] = defaultdict(list)
    for i, s in enumerate(sources):
        if len(s.split()) >= 4:
            by_source[" ".join(s.split())].append(i)
    out = [""] * len(candidates)
    for rows in by_source.values():
        ways = Counter(_same_text(candidates[i]) for i in rows)
        if len(ways) < 2:
            continue
        usual = max(ways, key=lambda w: (ways[w], -min(i for i in rows if _same_text(candidates[i]) == w)))
        first = min(i for i in rows if _same_text(candidates[i]) == usual)
        for i in rows:
            if _same_text(candidates[i]) != usual:
                out[i] = f"the same source is translated {len(ways)} ways; segment {first + 1} has the usual one"
    return out


Glossary = list[tuple[str, list[str]]]


def read_glossary(path: str, text: str) -> Glossary:
    """A TSV of source term, then target term(s) (tab-separated, or one field split at ``|`` or ``;``)."""
    entries: Glossary = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split("\t")]
        targets = [t.strip() for f in fields[1:] for t in re.split(r"[|;]", f) if t.strip()]
        if not fields[0] or not targets:
            raise InputError(f"{path}: line {n}: give a source term and its target term(s), separated by a tab")
        entries.append((fields[0], targets))
    return entries


def _has_term(text: str, term: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(term)}(?!\w)", text, re.IGNORECASE) is not None


def check_glossary(source: str, candidate: str, glossary: Glossary) -> str:
    missing = [f"{term} → {' / '.join(targets)}" for term, targets in glossary
               if _has_term(source, term) and not any(_has_term(candidate, t) for t in targets)]
    return "; ".join(missing)


_PAIRWISE: dict[str, Callable[[str, str], str]] = {
    "number": check_number, "untranslated": check_untranslated, "empty": check_empty,
    "repeated_word": check_repeated_word,
    "brackets": check_brackets, "url": check_url, "email": check_email, "whitespace": check_whitespace}


def _language_code(code: str) -> str:
    """``ja`` of ``ja-JP``, ``zh`` of ``zh_CN``: the language a check's rules are kept by."""
    return re.split(r"[-_]", code.strip().lower())[0] if code else ""


def _written_without_spaces(lines: Sequence[str]) -> bool:
    """Whether most letters of ``lines`` are Chinese characters or kana: text written without spaces between
    words."""
    letters = cjk = 0
    for line in lines[:2000]:
        for ch in line:
            if ch.isalpha():
                letters += 1
                cjk += "\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"
    return letters > 0 and cjk / letters >= 0.5


def writing_of(lines: Sequence[str]) -> str:
    """The language a text's script tells (``ja``: kana among Chinese characters, ``zh``: Chinese characters without
    kana, ``ko``: Hangul), '' for the rest: the checks that follow a language's conventions read it when the run
    declares no target language."""
    kana = han = hangul = letters = 0
    for line in lines[:2000]:
        for ch in line:
            if ch.isalpha():
                letters += 1
                kana += "\u3040" <= ch <= "\u30ff"
                han += "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"
                hangul += "\uac00" <= ch <= "\ud7a3"
    if not letters:
        return ""
    if hangul / letters >= 0.3:
        return "ko"
    if (kana + han) / letters >= 0.3:
        return "ja" if kana / letters >= 0.05 else "zh"
    return ""


def language_limits(checks: Sequence[str], candidates: Sequence[str]) -> list[str]:
    """Checks that cannot work for the candidates' language, in words (they are skipped, never guessed)."""
    if "repeated_word" in checks and _written_without_spaces(candidates):
        return ["repeated_word cannot be checked in text written without spaces between words (Chinese, Japanese): "
                "skipped"]
    return []


def run_checks(system: str, candidates: Sequence[str], sources: Sequence[str] | None,
               checks: Sequence[str] = CHECKS, glossary: Glossary | None = None,
               tags: Sequence[int] | None = None, language: str = "") -> list[QAFlag]:
    """Every flag of ``checks`` on one system's ``candidates`` (with ``sources`` where a check needs them;
    ``tags``: the segments whose inline tags do not match, from the input; ``language``: the target language's
    code, where the run declares it — else the candidates' script tells it, :func:`writing_of`)."""
    src = list(sources) if sources is not None else [""] * len(candidates)
    language = _language_code(language) or writing_of(candidates)
    flags: list[QAFlag] = []
    unjudged = {note.split()[0] for note in language_limits(checks, candidates)}
    for check in checks:
        if (check in NEEDS_SOURCE and sources is None) or check in unjudged:
            continue
        if check == "punctuation_end":
            details = [check_punctuation_end(s, c, language) for s, c in zip(src, candidates)]
        elif check in _PAIRWISE:
            test = _PAIRWISE[check]
            details = [test(s, c) for s, c in zip(src, candidates)]
        elif check == "length":
            details = check_length(src, candidates)
        elif check == "omission":
            details = check_omission(src, candidates)
        elif check == "inconsistent":
            details = check_inconsistent(src, candidates)
        elif check == "glossary":
            if not glossary:
                continue
            details = [check_glossary(s, c, glossary) for s, c in zip(src, candidates)]
        else:  # tag
            mismatched = set(tags or ())
            details = ["another number of inline tags than the source or reference"
                       if i in mismatched and candidates[i].strip() else "" for i in range(len(candidates))]
        flags += [QAFlag(system, i, check, d) for i, d in enumerate(details) if d]
    return flags


def fixed_and_introduced(baseline: Sequence[QAFlag], other: Sequence[QAFlag]) -> dict[str, tuple[list[int], list[int]]]:
    """Per check: the segments the baseline is flagged on and the other system is not (fixed), and the reverse
    (introduced)."""
    a = {(f.check, f.segment) for f in baseline}
    b = {(f.check, f.segment) for f in other}
    out: dict[str, tuple[list[int], list[int]]] = {}
    for check in CHECKS:
        fixed = sorted(s for c, s in a - b if c == check)
        introduced = sorted(s for c, s in b - a if c == check)
        if fixed or introduced:
            out[check] = (fixed, introduced)
    return out


def runnable_checks(checks: Sequence[str], has_source: bool, has_glossary: bool,
                    candidates: Sequence[str] = ()) -> list[str]:
    """The checks of ``checks`` that can run here (with a source where they need one, with a glossary, in the
    candidates' language)."""
    unjudged = {note.split()[0] for note in language_limits(checks, candidates)}
    return [c for c in checks if (has_source or c not in NEEDS_SOURCE) and (has_glossary or c != "glossary")
            and c not in unjudged]


def skipped_checks(checks: Sequence[str], has_source: bool, has_glossary: bool,
                   candidates: Sequence[str] = ()) -> list[str]:
    """What cannot run here, in words (``candidates``: text in the target language, for the checks a language
    rules out)."""
    said = language_limits(checks, candidates)
    if not has_source:
        lacking = [c for c in checks if c in NEEDS_SOURCE]
        if lacking:
            several = len(lacking) > 1
            said.append(f"the {', '.join(lacking)} check{'s' if several else ''} need{'' if several else 's'} the "
                        f"source ({term('source', 'FILE')}): skipped")
    if "glossary" in checks and not has_glossary:
        said.append(f"glossary needs {term('glossary')}: skipped")
    return said

