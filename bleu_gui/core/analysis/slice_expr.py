"""Slice expressions: which segments to score as a corpus of their own, said as comparisons over segment fields
joined by ``and``, ``or`` and ``not`` (``--where``, the window's slice box).

    ref_words >= 20 and bleu[B] > bleu[A]
    origlang = en and not (doc = abc-1 or doc = abc-2)
    delta_bleu < -10 or COMET[B] < 0.5
    'number' in qa[B] and not 'number' in qa[A]

A field is a metadata column (``doc``, ``origlang``, ``domain``, any column of the input), a count of words
(``ref_words``, ``src_words``, ``hyp_words[NAME]``), a system's sentence score under a metric (``bleu[NAME]``,
``chrf[NAME]``, ``ter[NAME]``, an imported ``COMET[NAME]``) or a difference of the second system's and the
first's (``delta_bleu``, ``delta_chrf``, …); ``'CHECK' in qa[NAME]`` holds where that QA check flags the
system's segment. Text values may be quoted; a bare word that is not a field is
text, so ``doc=abc-123`` reads as before. Comparisons are ``= == != < <= > >=``; a text column compares as
numbers when every value is one. A bad expression is an :class:`InputError` with its position and what was
expected there; parentheses and ``not`` nest at most :data:`MAX_DEPTH` deep.

``=`` and ``!=`` compare numbers as they are shown: rounded to two decimals (or to the decimals of the number
typed, when it has more), so ``bleu[A] = 100`` finds the sentences shown at 100.00 (sacreBLEU computes a perfect
match as 100.00000000000004); ``<``, ``<=``, ``>`` and ``>=`` compare the numbers themselves.

A missing value (a segment without an imported score, an undefined sentence score, an empty metadata field, an
unrated segment's MQM severities) makes no comparison true, negated or not: ``COMET[A] != 0.5`` and
``not COMET[A] > 0.5`` both leave such a segment out (three-valued logic, as SQL's NULL: ``not`` of unknown is
unknown, ``and``/``or`` as Kleene's).
``COMET[A] is missing`` and ``COMET[A] is not missing`` select on purpose.

The parser knows nothing of runs: :func:`evaluate` asks a ``fields`` function for each field's values (one per
segment) and gives the segments where the expression holds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..errors import InputError, term

OPERATORS = ("<=", ">=", "==", "!=", "=", "<", ">")
KEYWORDS = ("and", "or", "not", "in", "is")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
MAX_DEPTH = 100  # nested parentheses and nots: far past any expression a person writes, far below Python's stack
_TOKEN = re.compile(r"""\s*(?:(?P<op><=|>=|==|!=|=|<|>)|(?P<paren>[()\[\]])|(?P<string>'[^']*'|"[^"]*")|"""
                    r"""(?P<number>-?\d+(?:\.\d+)?(?![\w.-]))|(?P<word>[^\s()\[\]=<>!'"]+))""")


@dataclass(frozen=True)
class Field:
    """A segment field: ``name``, or ``name[system]``."""

    name: str
    system: str | None = None

    def __str__(self) -> str:
        return f"{self.name}[{self.system}]" if self.system is not None else self.name


@dataclass(frozen=True)
class Compare:
    left: Field | float | str
    op: str                    # an operator, "in", or "missing" / "present" (``is missing``, ``is not missing``)
    right: Field | float | str


@dataclass(frozen=True)
class Logic:
    op: str  # "and", "or", "not"
    parts: tuple[Expression, ...]


Expression = Compare | Logic
Fields = Callable[[Field], np.ndarray]


@dataclass
class _Token:
    kind: str
    text: str
    at: int  # 0-based position in the expression


def _tokens(text: str) -> list[_Token]:
    out, at = [], 0
    while at < len(text):
        if text[at:].strip() == "":
            break
        m = _TOKEN.match(text, at)
        if m is None or m.end() == at:
            raise InputError(_where(text, at + len(text[at:]) - len(text[at:].lstrip()), "a field, a value or an "
                                    "operator", text[at:].strip()[:1]))
        kind = m.lastgroup or ""
        value = m.group(kind)
        out.append(_Token(kind, value, m.start(kind)))
        at = m.end()
    return out


_SHOWN = 36  # characters shown each side of the position in a long expression


def _where(text: str, at: int, expected: str, found: str) -> str:
    """The message for a bad expression: the position, what was expected there, and the expression with a caret
    (a long one cut to the part around the position)."""
    found_text = f"found {found!r}" if found else "found the end"
    start, end = max(0, at - _SHOWN), min(len(text), at + _SHOWN)
    shown = ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")
    caret = at - start + (1 if start else 0)
    quoted = repr(text) if len(text) <= 2 * _SHOWN else f"of {len(text):,} characters"
    return f"{term('where')} {quoted}: at position {at + 1}: expected {expected}, {found_text}\n  {shown}\n  {' ' * caret}^"


class _Parser:
    def __init__(self, text: str, is_field: Callable[[str], bool]):
        self.text, self.is_field = text, is_field
        self.tokens = _tokens(text)
        self.i = 0
        self.depth = 0

    def peek(self) -> _Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def fail(self, expected: str) -> InputError:
        token = self.peek()
        return InputError(_where(self.text, token.at if token else len(self.text), expected,
                                 token.text if token else ""))

    def take(self, kind: str, text: str | None = None) -> _Token | None:
        token = self.peek()
        if token is not None and token.kind == kind and (text is None or token.text.lower() == text):
            self.i += 1
            return token
        return None

    def parse(self) -> Expression:
        expr = self.disjunction()
        if self.peek() is not None:
            raise self.fail("'and', 'or' or the end")
        return expr

    def disjunction(self) -> Expression:
        parts = [self.conjunction()]
        while self.take("word", "or"):
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else Logic("or", tuple(parts))

    def conjunction(self) -> Expression:
        parts = [self.negation()]
        while self.take("word", "and"):
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else Logic("and", tuple(parts))

    def negation(self) -> Expression:
        token = self.peek()
        if token is not None and (token.kind, token.text.lower()) in (("word", "not"), ("paren", "(")):
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise InputError(_where(self.text, token.at, f"at most {MAX_DEPTH} nested parentheses and nots",
                                        token.text))
            try:
                return self._nested()
            finally:
                self.depth -= 1
        return self.comparison()

    def _nested(self) -> Expression:
        if self.take("word", "not"):
            return Logic("not", (self.negation(),))
        self.take("paren", "(")
        inner = self.disjunction()
        if not self.take("paren", ")"):
            raise self.fail("')'")
        return inner

    def comparison(self) -> Compare:
        token = self.peek()
        if token is not None and token.kind == "string":  # 'number' in qa[B]
            self.i += 1
            if not self.take("word", "in"):
                raise self.fail("'in'")
            return Compare(token.text[1:-1], "in", self.operand(left=False))
        left = self.operand(left=True)
        if self.take("word", "is"):  # FIELD is missing, FIELD is not missing
            negated = self.take("word", "not") is not None
            if not isinstance(left, Field) or not self.take("word", "missing"):
                raise self.fail("'missing' (FIELD is missing, FIELD is not missing)")
            return Compare(left, "present" if negated else "missing", "")
        op = self.take("op")
        if op is None:
            raise self.fail(f"an operator ({' '.join(OPERATORS)}) or 'is missing'")
        return Compare(left, "==" if op.text == "=" else op.text, self.operand(left=False))

    def operand(self, left: bool) -> Field | float | str:
        token = self.peek()
        if token is None or token.kind not in ("word", "number", "string") or token.text.lower() in KEYWORDS:
            raise self.fail("a field" if left else "a value or a field")
        self.i += 1
        if token.kind == "number":
            return float(token.text)
        if token.kind == "string":
            return token.text[1:-1]
        if self.take("paren", "["):
            system = self.peek()
            if system is None or system.kind not in ("word", "number", "string"):
                raise self.fail("a system name")
            self.i += 1
            if not self.take("paren", "]"):
                raise self.fail("']'")
            name = system.text[1:-1] if system.kind == "string" else system.text
            return Field(token.text, name)
        if left or self.is_field(token.text):
            return Field(token.text)
        return token.text  # a bare value: doc=abc-123


def parse_where(texts: list[str] | tuple[str, ...], is_field: Callable[[str], bool]) -> Expression | None:
    """The expressions of ``--where`` (each one given; several must all hold), or None without any.
    ``is_field(word)``: whether a bare word on the right of a comparison is a field (else it is text). An empty
    expression is refused: it would read as a slice of everything."""
    if any(not text.strip() for text in texts):
        raise InputError(f"{term('where')}: an empty expression selects nothing; give a comparison such as doc = d1 or "
                         "bleu[B] > bleu[A] (or leave the slice out)")
    parsed = [_Parser(text, is_field).parse() for text in texts]
    if not parsed:
        return None
    return parsed[0] if len(parsed) == 1 else Logic("and", tuple(parsed))


def equals_text(field: str, value: str) -> str | None:
    """The expression ``field = value`` written so that it parses back to that comparison (the value quoted
    unless it is a bare word), or None when the value holds both kinds of quotes."""
    if re.fullmatch(r"[\w.-]+", value) and value.lower() not in KEYWORDS and _NUMBER.fullmatch(value) is None:
        return f"{field} = {value}"
    quote = "'" if "'" not in value else '"' if '"' not in value else None
    return f"{field} = {quote}{value}{quote}" if quote else None


def describe(expr: Expression) -> str:
    """The expression written out again, e.g. ``ref_words >= 20 and bleu[B] > bleu[A]``."""
    if isinstance(expr, Compare) and expr.op == "in":
        return f"{expr.left!r} in {expr.right}"
    if isinstance(expr, Compare) and expr.op in ("missing", "present"):
        return f"{expr.left} is {'not ' * (expr.op == 'present')}missing"
    if isinstance(expr, Compare):
        def side(value: Field | float | str) -> str:
            if isinstance(value, float):
                return f"{value:g}"
            return str(value) if isinstance(value, Field) else (value if re.fullmatch(r"[\w.-]+", value) else
                                                                repr(value))
        return f"{side(expr.left)} {'=' if expr.op == '==' else expr.op} {side(expr.right)}"
    if expr.op == "not":
        inner = expr.parts[0]
        return f"not ({describe(inner)})" if isinstance(inner, Logic) else f"not {describe(inner)}"
    return f" {expr.op} ".join(f"({describe(p)})" if isinstance(p, Logic) and p.op != "not" else describe(p)
                               for p in expr.parts)


def _values(side: Field | float | str, fields: Fields, n: int) -> np.ndarray:
    if isinstance(side, Field):
        return fields(side)
    return np.full(n, side, dtype=np.float64 if isinstance(side, float) else object)


def _as_numbers(values: np.ndarray, what: str) -> np.ndarray:
    if values.dtype.kind == "f":
        return values
    gone = _missing(values)
    try:
        return np.asarray([math.nan if g else float(v) for v, g in zip(values, gone)], dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{term('where')}: {what} holds text, not numbers: compare it with = or !=") from None


def _missing(values: np.ndarray) -> np.ndarray:
    """Which values are missing: NaN, None, or empty text."""
    if values.dtype.kind == "f":
        return np.isnan(values)
    return np.asarray([v is None or (isinstance(v, float) and v != v) or (isinstance(v, str) and not v.strip())
                       for v in values], dtype=bool)


Truth = tuple[np.ndarray, np.ndarray]  # (holds, fails) per segment: neither where a value is missing


def _compare(expr: Compare, fields: Fields, n: int) -> Truth:
    if expr.op in ("missing", "present"):
        assert isinstance(expr.left, Field)
        gone = _missing(fields(expr.left))
        return (gone, ~gone) if expr.op == "missing" else (~gone, gone)
    if expr.op == "in":  # a name among a field's names per segment (the QA checks that flag it)
        if not isinstance(expr.right, Field):
            raise InputError(f"{term('where')}: 'in' takes a field on its right, e.g. qa[B]; got {expr.right!r}")
        sets = fields(expr.right)
        known = np.asarray([names is not None for names in sets], dtype=bool)  # None: an unrated segment's set
        holds = np.asarray([names is not None and expr.left in names for names in sets], dtype=bool)
        return holds, ~holds & known
    left, right = _values(expr.left, fields, n), _values(expr.right, fields, n)
    for side, values in ((expr.left, left), (expr.right, right)):
        if values.dtype.kind == "O" and isinstance(next((v for v in values if v is not None), None), frozenset):
            raise InputError(f"{term('where')}: {side} holds the names that flag a segment, not a value: ask "
                             f"'NAME' in {side}, e.g. 'number' in {side}")
    known = ~(_missing(left) | _missing(right))
    numeric = left.dtype.kind == "f" or right.dtype.kind == "f"
    if expr.op in ("==", "!=") and not numeric:
        equal = left.astype(str) == right.astype(str)
        holds = equal if expr.op == "==" else ~equal
    else:
        a, b = _as_numbers(left, str(expr.left)), _as_numbers(right, str(expr.right))
        if expr.op in ("==", "!="):
            a, b = _as_shown(a, expr), _as_shown(b, expr)
        with np.errstate(invalid="ignore"):
            holds = np.asarray({"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b,
                                ">=": a >= b}[expr.op], dtype=bool)
    return holds & known, ~holds & known


SHOWN_DECIMALS = 2  # the decimals a score is shown with (the window, bleu-score's text): = compares at this precision


def _decimals(value: Field | float | str) -> int:
    """The decimals a number typed in an expression has (``0.8234`` has 4)."""
    if not isinstance(value, float):
        return 0
    text = repr(value)
    return len(text.split(".")[1]) if "." in text and "e" not in text else 0


def _as_shown(values: np.ndarray, expr: Compare) -> np.ndarray:
    """Numbers as they are shown, for ``=`` and ``!=``: rounded to :data:`SHOWN_DECIMALS`, or to the decimals of
    the number typed when it has more (``COMET[A] = 0.8234``). sacreBLEU's sentence BLEU of a perfect match is
    100.00000000000004: shown 100.00, it equals ``bleu[A] = 100``."""
    decimals = max(SHOWN_DECIMALS, _decimals(expr.left), _decimals(expr.right))
    # round() per value rounds the number's exact binary value, as the shown text does (numpy's round scales first)
    return np.fromiter((v if v != v else round(v, decimals) for v in values.tolist()), np.float64, len(values))


def _truth(expr: Expression, fields: Fields, n: int) -> Truth:
    if isinstance(expr, Compare):
        return _compare(expr, fields, n)
    parts = [_truth(p, fields, n) for p in expr.parts]
    if expr.op == "not":
        holds, fails = parts[0]
        return fails, holds
    holds, fails = parts[0]
    for h, f in parts[1:]:
        if expr.op == "and":
            holds, fails = holds & h, fails | f
        else:
            holds, fails = holds | h, fails & f
    return holds, fails


def evaluate(expr: Expression, fields: Fields, n: int) -> np.ndarray:
    """Whether the expression holds for each of ``n`` segments (``fields(field)``: its values per segment); a
    segment where it depends on a missing value is left out (see the module)."""
    return _truth(expr, fields, n)[0]
