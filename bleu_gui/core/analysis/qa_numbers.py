"""Numbers compared as values across scripts and conventions, for the translator QA ``number`` check.

A translation writes the source's numbers in its own conventions, and a number check that compares digit strings
flags good translations and misses bad ones (``3.5 km`` → ``35 km`` has the same digits). Here every number is
read as the values it can mean, and a source number is matched by a target number that can mean the same:

- digits of every script are digits: full-width (NFKC), Arabic-Indic ``٢٥``, Devanagari, …;
- grouping ``1,000`` / ``1.000`` / ``1 000`` / ``1'000`` / Indian ``2,06,737``, decimal comma ``3,5``; a lone
  separator followed by three digits may be either (``1.000`` is 1000 or 1.000), so both values are kept;
- leading zeros are not a difference (``04:00`` = ``4:00``); ordinals are their number (``700th`` = ``700.`` =
  ``第700``); twelve-hour times may become 24-hour ones (``8 p.m.`` = ``20 Uhr``);
- CJK multipliers: ``2万8000`` = 28,000, ``1億6940万`` = 169,400,000, ``3.5万`` = 35,000, ``4,500만`` =
  45,000,000 (also Korean 만, 억); a number with a word multiplier means itself or its product (``1.5 billion`` =
  ``1,5 Milliarden`` = ``15亿``), as does one with a short one glued to it (``£75m`` = ``7500万``, ``$1.5bn``,
  ``£50k``) and a number word with a multiplier (``four million`` = ``400만``);
- a decade of a century as Chinese writes it is its year: ``19世纪80年代`` = ``1880s``;
- Chinese and Japanese numerals in characters (``五``, ``二十八``), month names (``December`` = ``12月``) and
  number words (``twenty`` = ``20``, in English, German, French, Spanish, Russian, Czech, Slovak and Croatian) may
  match a number of the other side, but are never flagged themselves (``一`` is part of many words);
- a decade written short is its year (``80-tych``, ``'90s`` = ``1980s``, ``1990er``);
- a code of letters and digits (``G22``, ``A3``, ``COVID-19``) is a name, not a number: its digits are not
  compared as numbers; a code the target changes (``G22`` → ``G29``) or writes fewer times (two ``GT-10`` in the
  source, one in the target) is flagged; WMT's anonymised names (``#Product2#``) are names too; a number glued to
  other letters is a number (``the50-pack``).

Flagged: a source number of two digits or more that no target number matches (a one-digit number may be spelled
out in the target: "3 people" → "three people"), and a target number the source lacks when it has two digits or
more, or when a source number is unmatched too (``5`` → ``12`` is a changed number).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

# Separators of digit groups: comma, full stop, spaces (no-break, narrow, thin) and the Swiss apostrophe.
_SPACES = " \u00a0\u202f\u2009"
_GROUPERS = ",." + _SPACES + "'’"
_RUN = re.compile(rf"\d+(?:[{re.escape(_GROUPERS)}]\d+)*")
# A code: an upper-case letter and up to five more letters, an optional hyphen, digits (G22, A3, MP3, COVID-19).
# Letters of other scripts around it do not make it part of a word: COVID-19 written against kana (のCOVID-19に) is
# the code, and so is a code with a hyphen of another kind (VP−730, the minus sign).
_CODE = re.compile(r"(?<![A-Za-z0-9_\-\u2010\u2011\u2212])([A-Z][A-Za-z]{0,5})[-\u2010\u2011\u2212]?(\d{1,5})"
                   r"(?![\d.,]\d)(?![A-Za-z]{2})")
# WMT's anonymised names (#Product2#, #PRS_ORG#) and expressions that are no count (24/7: always): names, whatever
# digits they hold.
_PLACEHOLDER = re.compile(r"#[A-Za-z_]+\d*#|(?<![\d/])24\s?/\s?7(?![\d/])|(?<![\d/])365\s?/\s?24(?![\d/])")
_CJK_MULTIPLIERS = {"十": 10, "百": 100, "千": 1000, "万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8, "兆": 10**12,
                    "만": 10**4, "억": 10**8, "천": 1000, "조": 10**12}
_WORD_MULTIPLIERS = {
    "thousand": 10**3, "million": 10**6, "millions": 10**6, "billion": 10**9, "billions": 10**9,
    "trillion": 10**12, "tausend": 10**3, "mio": 10**6, "million(en)": 10**6, "millionen": 10**6, "mrd": 10**9,
    "milliarde": 10**9, "milliarden": 10**9, "milliard": 10**9, "milliards": 10**9, "billionen": 10**12,
    "тыс": 10**3, "млн": 10**6, "млрд": 10**9, "трлн": 10**12, "тысяч": 10**3, "миллиона": 10**6,
    "миллионов": 10**6, "миллиард": 10**9, "миллиарда": 10**9, "миллиардов": 10**9,
    "milijun": 10**6, "milijuna": 10**6, "milijarda": 10**9, "milijardi": 10**9, "tisuća": 10**3,
    "milion": 10**6, "milionů": 10**6, "miliony": 10**6, "miliard": 10**9, "miliardy": 10**9, "tisíc": 10**3,
    # India's magnitudes (14 lakh = 1.4 million = 140万), and counts of years (6 decades = 60 years).
    "lakh": 10**5, "lakhs": 10**5, "crore": 10**7, "crores": 10**7, "decade": 10, "decades": 10, "dozen": 12,
    "dozens": 12,
}
_MULTIPLIER_WORD = re.compile(r"\s?(" + "|".join(sorted((re.escape(w) for w in _WORD_MULTIPLIERS), key=len,
                                                         reverse=True)) + r")\b\.?", re.IGNORECASE)
# A magnitude written short and glued to its number: £75m, $1.5bn, £50k (a number with it means itself or its
# product, as with the words: 75m may be metres).
_SHORT_MULTIPLIERS = {"k": 10**3, "m": 10**6, "bn": 10**9}
_SHORT_MULTIPLIER = re.compile(r"(bn|m|k)\b", re.IGNORECASE)
# The number before a multiplier may be grouped: 4,500만 (45 million), 1,200万.
_CJK_NUMBER = r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?"
_CJK_CHAIN = re.compile(rf"(?:({_CJK_NUMBER})\s?([十百千万萬亿億兆만억천조])\s?)+(\d{{1,3}}(?:,\d{{3}})+|\d+)?")
_CJK_PART = re.compile(rf"({_CJK_NUMBER})\s?([十百千万萬亿億兆만억천조])")
# A decade of a century, as Chinese writes it: 19世纪80年代 is the 1880s.
_CENTURY_DECADE = re.compile(r"(\d{1,2})\s?世[纪紀]\s?(\d)0\s?年代")
_KANJI_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
                 "两": 2, "兩": 2}
_KANJI_NUMBER = re.compile("[〇零一二三四五六七八九两兩十百千万萬亿億]+")
_MONTHS: dict[int, tuple[str, ...]] = {  # names and stems, lower case: English, German, French, Spanish,
    # Russian, Czech, Croatian (listopad is October in Croatian and November in Czech: both)
    1: ("january", "jan", "januar", "jänner", "janvier", "enero", "январ", "leden", "ledna", "siječ"),
    2: ("february", "feb", "februar", "février", "febrero", "феврал", "únor", "února", "veljač"),
    3: ("march", "mar", "märz", "mars", "marzo", "март", "březen", "března", "ožuj"),
    4: ("april", "apr", "avril", "abril", "апрел", "duben", "dubna", "travan", "travnj"),
    5: ("may", "mai", "mayo", "мая", "май", "květen", "května", "svibanj", "svibnj"),
    6: ("june", "jun", "juni", "juin", "junio", "июн", "červen", "června", "lipanj", "lipnj"),
    7: ("july", "jul", "juli", "juillet", "julio", "июл", "červenec", "července", "srpanj", "srpnj"),
    8: ("august", "aug", "août", "agosto", "август", "srpen", "srpna", "kolovoz"),
    9: ("september", "sep", "sept", "septembre", "septiembre", "сентябр", "září", "rujan", "rujn"),
    10: ("october", "oct", "oktober", "octobre", "octubre", "октябр", "říjen", "října", "listopad"),
    11: ("november", "nov", "novembre", "noviembre", "ноябр", "listopad", "studen"),
    12: ("december", "dec", "dezember", "décembre", "diciembre", "декабр", "prosinec", "prosince", "prosin"),
}
# A word is a month when it is one of the names, or, for a name longer than four letters outside ASCII (the
# Slavic stems: "январ", "siječ"), when it starts with it. Names are looked up once per word; stems are kept by
# their first letter, so a word meets only those it could start with (over every stem, the words of Chinese text
# cost 400,000 comparisons on WMT22 en-zh's 13 systems, none of which could match).
_MONTH_EXACT: dict[str, set[int]] = {}
_MONTH_STEMS: dict[str, list[tuple[str, int]]] = {}
for _month, _names in _MONTHS.items():
    for _name in _names:
        if len(_name) > 4 and not _name.isascii():
            _MONTH_STEMS.setdefault(_name[0], []).append((_name, _month))
        else:
            _MONTH_EXACT.setdefault(_name, set()).add(_month)

_NUMBER_WORDS: dict[str, int] = {}
for _value, _words in {
    2: "two zwei deux dos два dva dvě", 3: "three drei trois tres три tri", 4: "four vier quatre cuatro четыре čtyři",
    5: "five fünf cinq cinco пять pět päť pet", 6: "six sechs seis шесть šest šesť", 7: "seven sieben sept siete семь sedm",
    8: "eight acht huit ocho восемь osm osem", 9: "nine neun neuf nueve девять devět deväť devet",
    10: "ten zehn dix diez десять deset desať", 11: "eleven elf onze once одиннадцать jedenáct", 12: "twelve zwölf douze doce",
    13: "thirteen dreizehn treize trece", 14: "fourteen vierzehn quatorze catorce", 15: "fifteen fünfzehn quinze quince",
    16: "sixteen sechzehn seize dieciséis", 17: "seventeen siebzehn", 18: "eighteen achtzehn", 19: "nineteen neunzehn",
    20: "twenty zwanzig vingt veinte двадцать dvacet dvadsať dvadeset", 30: "thirty dreißig trente treinta тридцать",
    40: "forty vierzig quarante cuarenta сорок", 50: "fifty fünfzig cinquante cincuenta пятьдесят",
    60: "sixty sechzig soixante sesenta шестьдесят", 70: "seventy siebzig setenta семьдесят",
    80: "eighty achtzig ochenta восемьдесят", 90: "ninety neunzig noventa девяносто", 100: "hundred hundert cent cien сто",
    1000: "thousand tausend mille mil тысяча",
}.items():
    _NUMBER_WORDS.update(dict.fromkeys(_words.split(), _value))
# Counts a translator writes in digits (a decade = 10 years, a dozen, a fortnight), and the words a translator writes
# as 100% (fully satisfied = 100％ご満足).
_NUMBER_WORDS.update({"decade": 10, "dozen": 12, "fortnight": 14} | dict.fromkeys(
    ("fully", "totally", "entirely", "completely"), 100))
_WORDS = re.compile(r"[^\W\d_]+")
# A number word of tens and units (thirty-one, twenty five) is one number.
_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_COMPOUND = re.compile(rf"\b({'|'.join(_TENS)})[-\s]({'|'.join(_UNITS)})\b", re.IGNORECASE)
_ROUND_THE_CLOCK = re.compile(r"\b(?:a?round[- ]the[- ]clock|day and night)\b", re.IGNORECASE)  # 24 hours
# A time of day is a value of its own, apart from every count (T0 + minutes since midnight): 11:30 = 11時半 =
# 11点半 = 11시 반; 5.30pm = 午後5時30分 = 17:30; an hour alone is its number too (5 pm = 午後5時 = 17 Uhr).
_T0 = Decimal(10) ** 12
_LATIN_CLOCK = re.compile(r"(?<![\d.,:])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])")
_AFTER_PM = re.compile(r"\s?p\.?m\.?(?![a-z])", re.IGNORECASE)
_CJK_CLOCK = re.compile(r"(午前|午後|上午|下午|晚上|早上|凌晨|오전|오후)?\s?([01]?\d|2[0-4])\s?(?:時|时|點|点|시)(?!間|间)"
                        r"\s?(?:([0-5]?\d)\s?(?:分|분)|(半|반))?")
_AFTERNOON = ("午後", "下午", "晚上", "오후")
_NOON = re.compile(r"正午|中午12点|정오")
_DECADE_SHORT = re.compile(r"(?<![\d])(?:['’]?(\d{2}))(?=s\b|er\b|-\w|['’]s\b)")

_TWELVE_HOUR = re.compile(r"(?::\d{2})?\s?(?:a\.?m\.?|p\.?m\.?)(?![a-z])", re.IGNORECASE)


@dataclass(frozen=True)
class Number:
    """A number as written (``text``) and the values it can mean; ``soft``: read from characters (``五``), so it
    may match a source number but is never flagged itself."""

    text: str
    values: frozenset[Decimal]
    digits: int
    soft: bool = False


@functools.cache
def _digit_table() -> dict[int, str]:
    """Every decimal digit outside ASCII (Arabic-Indic, Devanagari, …; all lie below U+20000) → its ASCII digit,
    and the Arabic decimal and group separators, for ``str.translate`` (made on first use)."""
    return {code: str(unicodedata.decimal(chr(code))) for code in range(0x80, 0x20000)
            if chr(code).isdecimal()} | {0x066B: ".", 0x066C: ","}


def _ascii_digits(text: str) -> str:
    """Every decimal digit as an ASCII digit (full-width by NFKC, Arabic-Indic and others by their value), Arabic
    decimal and group separators as ``.`` and ``,``."""
    if text.isascii():
        return text  # NFKC leaves ASCII as it is
    return unicodedata.normalize("NFKC", text).translate(_digit_table())


def _run_values(run: str) -> set[Decimal] | None:
    """The values a digit run with separators can mean (see the module); None when its separators do not make one
    number (then each group is a number of its own)."""
    groups = re.split(rf"[{re.escape(_GROUPERS)}]", run)
    seps = re.findall(rf"[{re.escape(_GROUPERS)}]", run)
    if not seps:
        return {Decimal(run)}
    values: set[Decimal] = set()
    tail = groups[1:]
    same = len(set(seps)) == 1
    if same and all(len(g) == 3 for g in tail) and len(groups[0]) <= 3:
        values.add(Decimal("".join(groups)))  # grouped: 1,000 / 1.000 / 1 000 / 1'000
    if same and seps[0] in ".," and len(seps) == 1:
        values.add(Decimal(f"{groups[0]}.{groups[1]}"))  # a decimal point or comma: 3.5 / 3,5
    if same and seps[0] == "," and len(groups) > 2 and len(groups[0]) <= 2 and tail[-1:] and len(tail[-1]) == 3 \
            and all(len(g) == 2 for g in tail[:-1]):
        values.add(Decimal("".join(groups)))  # Indian grouping: 2,06,737
    if not same and seps[-1] in ".," and seps.count(seps[-1]) == 1:
        whole = groups[:-1]
        if all(len(g) in (2, 3) for g in whole[1:]) and len(whole[0]) <= 3:
            values.add(Decimal(f"{''.join(whole)}.{groups[-1]}"))  # 1,000.5 / 1.000,5 / 1 000,5
    return values or None


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def _kanji_value(text: str) -> int | None:
    """二十八 → 28, 三千五百 → 3500, 五 → 5, 一億二千万 → 120,000,000; None when the characters make no number."""
    total, section, digit = 0, 0, None
    for ch in text:
        if ch in _KANJI_DIGITS:
            digit = (digit or 0) * 10 + _KANJI_DIGITS[ch] if digit is not None else _KANJI_DIGITS[ch]
        elif ch in ("十", "百", "千"):
            section += (digit if digit is not None else 1) * _CJK_MULTIPLIERS[ch]
            digit = None
        else:  # 万 億: a section of up to four digits times the multiplier
            total += (section + (digit or 0)) * _CJK_MULTIPLIERS[ch]
            section, digit = 0, None
    return total + section + (digit or 0)


def _masked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the characters of ``spans`` replaced by a mark that is no digit, no letter and no separator."""
    chars = list(text)
    for a, b in spans:
        chars[a:b] = "\x00" * (b - a)
    return "".join(chars)


def _free(start: int, end: int, taken: list[tuple[int, int]]) -> bool:
    """Whether ``start``–``end`` overlaps none of the spans ``taken``."""
    return all(end <= a or start >= b for a, b in taken)


def _cjk_numbers(text: str, taken: list[tuple[int, int]]) -> Iterator[Number]:
    """Numbers with CJK multipliers (2万8000, 4,500만) and centuries' decades (19世纪80年代) outside the spans
    ``taken``, their own spans added to it."""
    for m in _CENTURY_DECADE.finditer(text):
        if not _free(*m.span(), taken):
            continue
        taken.append(m.span())
        year = (int(m.group(1)) - 1) * 100 + int(m.group(2)) * 10
        yield Number(m.group(0), frozenset({Decimal(year)}), sum(ch.isdigit() for ch in m.group(0)))
    for m in _CJK_CHAIN.finditer(text):
        if not _free(*m.span(), taken):
            continue
        total = Decimal(0)
        for part in _CJK_PART.finditer(m.group(0)):
            total += Decimal(part.group(1).replace(",", "")) * _CJK_MULTIPLIERS[part.group(2)]
        if m.group(3):
            total += Decimal(m.group(3).replace(",", ""))
        taken.append(m.span())
        shown = m.group(0).strip()
        yield Number(shown, frozenset({total}), sum(ch.isdigit() for ch in shown))


def _clock(hour: int, minute: int) -> Decimal:
    return _T0 + (hour % 24) * 60 + minute


def _clocks(text: str, taken: list[tuple[int, int]]) -> Iterator[Number]:
    """Times of day (see :data:`_T0`) outside the spans ``taken``, their own spans added to it."""
    for m in _CJK_CLOCK.finditer(text):
        if not _free(*m.span(), taken):
            continue
        hour = int(m.group(2))
        if m.group(1) in _AFTERNOON and hour < 12:
            hour += 12
        minute = 30 if m.group(4) else int(m.group(3)) if m.group(3) else 0
        values = {_clock(hour, minute)} | ({Decimal(int(m.group(2))), Decimal(hour)} if m.group(3) is None
                                           and m.group(4) is None else set())
        taken.append(m.span())
        yield Number(m.group(0).strip(), frozenset(values), sum(ch.isdigit() for ch in m.group(0)))
    for m in _LATIN_CLOCK.finditer(text):
        if not _free(*m.span(), taken):
            continue
        hour, minute = int(m.group(1)), int(m.group(2))
        values = {_clock(hour, minute)} | ({_clock(hour + 12, minute)} if hour < 12 and (
            _AFTER_PM.match(text, m.end()) or any(a in text[max(0, m.start() - 4):m.start()] for a in _AFTERNOON))
            else set()) | ({Decimal(hour)} if minute == 0 else set())
        taken.append(m.span())
        yield Number(m.group(0), frozenset(values), sum(ch.isdigit() for ch in m.group(0)))
    for m in _NOON.finditer(text):
        if _free(*m.span(), taken):
            taken.append(m.span())
            yield Number(m.group(0), frozenset({_clock(12, 0), Decimal(12)}), 2, soft=True)


def _numbers(text: str, codes: list[tuple[int, int]]) -> Iterator[Number]:
    taken = list(codes)
    yield from _clocks(text, taken)
    yield from _cjk_numbers(text, taken)
    # Digit runs never reach into a code: "LR44 10-pack" is the code LR44 and the number 10 (a run "44 10" grouped
    # by its space took the 10 with the code). A number glued to letters is a number ("the50-pack").
    outside_codes = _masked(text, codes)
    for m in _RUN.finditer(outside_codes):
        start, end = m.span()
        if not _free(start, end, taken):
            continue
        run = m.group(0).rstrip(_SPACES + "'’")
        values = _run_values(run)
        pieces = [(run, values)] if values is not None else [
            (g, {Decimal(g)}) for g in re.split(rf"[{re.escape(_GROUPERS)}]", run) if g]
        after = text[start + len(run):]
        word = _MULTIPLIER_WORD.match(after)
        short = _SHORT_MULTIPLIER.match(after)
        hour = _TWELVE_HOUR.match(after)
        decade = _DECADE_SHORT.match(text, start - (start > 0 and text[start - 1] in "'’"))
        for k, (piece, piece_values) in enumerate(pieces):
            last = k == len(pieces) - 1
            more = set(piece_values)
            if decade is not None and len(pieces) == 1:  # 80-tych, '90s: the 1980s, the 1990s
                more |= {Decimal(1900) + v for v in piece_values} | {Decimal(2000) + v for v in piece_values}
            if len(piece) == 4 and piece[:2] in ("19", "20") and re.match(r"(?:s|er)\b", after):  # 1980s, 1990er
                more |= {v % 100 for v in piece_values}
            if last and word is not None:
                more |= {v * _WORD_MULTIPLIERS[word.group(1).lower()] for v in piece_values}
            elif last and short is not None:
                more |= {v * _SHORT_MULTIPLIERS[short.group(1).lower()] for v in piece_values}
            if k == 0 and hour is not None:
                more |= {v + 12 for v in piece_values if v < 12} | {v - 12 for v in piece_values if v >= 12}
                clock = re.fullmatch(r"(\d{1,2})[.:](\d{2})", piece)
                if clock is not None and int(clock.group(1)) <= 12 and int(clock.group(2)) < 60:  # 5.30pm
                    h, minute = int(clock.group(1)), int(clock.group(2))
                    more |= {_clock(h, minute), _clock(h + 12 if h < 12 else h - 12, minute)}
            yield Number(piece, frozenset(more), sum(ch.isdigit() for ch in piece))
    for m in _KANJI_NUMBER.finditer(text):
        value = _kanji_value(m.group(0))
        if value is not None and _free(*m.span(), taken):
            yield Number(m.group(0), frozenset({Decimal(value)}), len(str(value)), soft=True)
    yield from _words_as_numbers(text)


def _words_as_numbers(text: str) -> Iterator[Number]:
    """Month names and number words as soft numbers (see the module)."""
    compounds = []
    for m in _COMPOUND.finditer(text):
        compounds.append(m.span())
        total = _TENS[m.group(1).lower()] + _UNITS[m.group(2).lower()]
        yield Number(m.group(0), frozenset({Decimal(total)}), 2, soft=True)
    for m in _ROUND_THE_CLOCK.finditer(text):
        yield Number(m.group(0), frozenset({Decimal(24)}), 2, soft=True)
    for m in _WORDS.finditer(text):
        if not _free(*m.span(), compounds):
            continue
        word = m.group(0).lower()
        months = set(_MONTH_EXACT.get(word, ()))
        if not word.isascii():  # a stem outside ASCII can only begin a word outside ASCII
            months |= {n for stem, n in _MONTH_STEMS.get(word[0], ()) if word.startswith(stem)}
        if months:
            yield Number(m.group(0), frozenset(Decimal(n) for n in months), 2, soft=True)
        elif word in _NUMBER_WORDS:
            value = Decimal(_NUMBER_WORDS[word])
            multiplier = _MULTIPLIER_WORD.match(text, m.end())  # four million = 4,000,000 (or four)
            times = _WORD_MULTIPLIERS[multiplier.group(1).lower()] if multiplier is not None else 1
            yield Number(m.group(0), frozenset({value, value * times}), 2, soft=True)


def codes_in(text: str) -> list[tuple[str, str, tuple[int, int]]]:
    """The codes of ``text`` (see the module): (letters in upper case, digits, span); ``AM9`` and ``PM9`` are times."""
    return [(m.group(1).upper(), str(int(m.group(2))), m.span()) for m in _CODE.finditer(text)
            if m.group(1).upper() not in ("AM", "PM")]


def numbers_in(text: str) -> list[Number]:
    """The numbers of ``text`` with the values each can mean (codes and WMT's anonymised names left out)."""
    return list(_numbers_of(text))


@functools.lru_cache(maxsize=4096)  # a source line is checked against every system's candidate: read once
def _numbers_of(text: str) -> tuple[Number, ...]:
    text = _ascii_digits(text)
    names = [m.span() for m in _PLACEHOLDER.finditer(text)]
    return tuple(_numbers(text, [span for _, _, span in codes_in(text)] + names))


def _match(source: list[Number], target: list[Number]) -> tuple[list[Number], list[Number]]:
    """(source numbers no target number matches, target numbers matching no source number); fewer meanings first."""
    left = list(target)
    unmatched: list[Number] = []
    for number in sorted(source, key=lambda n: len(n.values)):
        found = next((t for t in left if t.values & number.values), None)
        if found is None:
            unmatched.append(number)
        else:
            left.remove(found)
    return unmatched, left


def changed_codes(source: str, target: str) -> list[str]:
    """Codes of the source the target writes with other digits (``G22`` → ``G29``) or fewer times (two ``GT-10`` in
    the source, one in the target): codes are matched one for one, as written (``COVID-19`` = ``COVID19``). A code
    the target lacks altogether is not said (a script may write it otherwise: ``Г7``)."""
    source, target = _ascii_digits(source), _ascii_digits(target)
    src = [((letters, digits), source[a:b]) for letters, digits, (a, b) in codes_in(source)]
    tgt = [((letters, digits), target[a:b]) for letters, digits, (a, b) in codes_in(target)]
    left = Counter(key for key, _ in tgt)
    unmatched = []
    for key, written in src:
        if left[key]:
            left[key] -= 1
        else:
            unmatched.append((key, written))
    others = []  # the target's codes no source code took
    for key, written in tgt:
        if left[key]:
            left[key] -= 1
            others.append((key, written))
    out = []
    for (letters, digits), written in unmatched:
        other = next((o for o in others if o[0][0] == letters), None)
        if other is not None:
            others.remove(other)
            out.append(f"{written} → {other[1]}")
        elif any(key == (letters, digits) for key, _ in tgt):
            n_src = sum(key == (letters, digits) for key, _ in src)
            n_tgt = sum(key == (letters, digits) for key, _ in tgt)
            out.append(f"{written} {n_src}× in the source, {n_tgt}× here")
    return list(dict.fromkeys(out))


_ANY_DIGIT = re.compile(r"\d")  # any script's decimal digit


def number_problems(source: str, target: str) -> str:
    """What the ``number`` check says of a segment ('' when nothing is wrong; see the module)."""
    if not (_ANY_DIGIT.search(source) or _ANY_DIGIT.search(target)):
        return ""  # every number flagged and every code holds a digit: number words alone are never flagged
    missing, extra = _match(numbers_in(source), numbers_in(target))
    said = []
    flagged_missing = [n.text for n in missing if n.digits >= 2 and not n.soft]
    if flagged_missing:
        said.append("source numbers missing or changed: " + ", ".join(flagged_missing))
    hard_missing = [n for n in missing if not n.soft]
    added = [n.text for n in extra if not n.soft and (n.digits >= 2 or hard_missing)]
    if added:
        said.append("numbers the source does not have: " + ", ".join(added))
    codes = changed_codes(source, target)
    if codes:
        said.append("codes changed: " + ", ".join(codes))
    return "; ".join(said)
