"""The one door for JSON from outside: files (score files, ratings, reviews, sessions), an LLM endpoint's answers,
cache rows, a worker's replies. Every reader of JSON that bleu-gui did not just write itself goes through here, so
that each hostile shape is refused the same way everywhere, in one line naming the file (or answer) and the line:

- **a key given twice** in one object (``{"score": 40, "score": 100}``): which one is meant cannot be told, and
  Python's ``json`` would silently keep the last;
- **NaN, Infinity, -Infinity**: not JSON (RFC 8259); a caller that documents ``NaN`` as a missing value (score
  files, as Python's own ``json`` writes one) asks for it to be read as null;
- **numbers too long or too large**: an integer of more than :attr:`Limits.digits` digits, or a number whose value
  is not finite as a float (``1e400``); Python would raise ``ValueError`` past 4,300 digits or return infinity;
- **nesting deeper than** :attr:`Limits.depth` levels: Python's parser recurses, and 1,000 levels raise
  ``RecursionError``; no file or answer we read nests beyond a dozen;
- **a lone UTF-16 surrogate** (``"\\ud800"``): no character; it would fail later, when the text is written;
- **more than** :attr:`Limits.chars` characters, where the caller bounds the size (an HTTP body).

JSON Lines are split at ``\\n`` alone (:func:`json_lines`): U+2028, U+2029 and U+0085, which ``str.splitlines``
treats as line breaks, are characters inside a string. The problem's position is found only when there is one: the
fast path is the standard library's C parser with hooks; a refused text is parsed again by its pure-Python scanner,
which knows where each value starts.
"""

from __future__ import annotations

import functools
import json
import json.decoder
import json.scanner
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import InputError


@dataclass(frozen=True)
class Limits:
    """What a JSON text may hold (see the module); the defaults are far beyond any real file or answer we read."""

    depth: int = 64
    digits: int = 40          # an integer's digits; a number literal's characters are bounded by twice as many
    chars: int | None = None  # the text's length (None: the caller bounded its input already)


DEFAULT = Limits()


class JsonRefused(InputError):
    """A JSON text that the door refuses; the message names where (file and line, or the answer) and why.
    ``syntax``: it is not JSON at all (a sniffer may try another format), rather than JSON the door refuses."""

    def __init__(self, message: str, syntax: bool = False):
        super().__init__(message)
        self.syntax = syntax


class _Problem(Exception):
    """Raised inside the parser's hooks; the door adds where it was and words it."""

    def __init__(self, what: str, pos: int | None = None):
        super().__init__(what)
        self.what, self.pos = what, pos


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise _Problem(f"the key {key!r} appears twice in one object (which value is meant cannot be told)")
            seen.add(key)
    return out


@dataclass(frozen=True)
class _Hooks:
    parse_int: Callable[[str], Any]
    parse_float: Callable[[str], Any]
    parse_constant: Callable[[str], Any]


def _hooks(limits: Limits, nan_as_null: bool) -> _Hooks:
    def parse_int(text: str) -> int:
        digits = len(text) - text.startswith("-")
        if digits > limits.digits:
            raise _Problem(f"a number of {digits:,} digits (at most {limits.digits} are read)")
        return int(text)

    def parse_float(text: str) -> float:
        if len(text) > 2 * limits.digits:
            raise _Problem(f"a number written with {len(text):,} characters (at most {2 * limits.digits} are read)")
        value = float(text)
        if not math.isfinite(value):
            raise _Problem(f"the number {text[:24]} is too large to be read as one")
        return value

    def parse_constant(word: str) -> Any:
        if word == "NaN" and nan_as_null:
            return None
        raise _Problem(f"{word} is not a JSON number (write a number, or null where there is none)")

    return _Hooks(parse_int, parse_float, parse_constant)


# The pure-Python parts of the standard parser (not in its type stubs): they know where each value starts.
_JSON_OBJECT: Callable[..., Any] = getattr(json.decoder, "JSONObject")  # noqa: B009
_JSON_ARRAY: Callable[..., Any] = getattr(json.decoder, "JSONArray")  # noqa: B009
_PY_SCANNER: Callable[..., Any] = getattr(json.scanner, "py_make_scanner")  # noqa: B009


class _Located(json.JSONDecoder):
    """The standard decoder on the pure-Python scanner, each value's start recorded in the problem it raises."""

    def __init__(self, strict: bool, hooks: _Hooks):
        super().__init__(strict=strict, object_pairs_hook=_unique, parse_int=hooks.parse_int,
                         parse_float=hooks.parse_float, parse_constant=hooks.parse_constant)

        def located(scan_once: Callable[[str, int], Any]) -> Callable[[str, int], Any]:
            def scan(text: str, idx: int) -> Any:
                try:
                    return scan_once(text, idx)
                except _Problem as problem:
                    if problem.pos is None:
                        problem.pos = idx
                    raise
            return scan

        def parse_object(s_and_end: tuple[str, int], strict: bool, scan_once: Callable[[str, int], Any],
                         *rest: Any) -> Any:
            try:
                return _JSON_OBJECT(s_and_end, strict, located(scan_once), *rest)
            except _Problem as problem:
                if problem.pos is None:
                    problem.pos = s_and_end[1] - 1  # the object's "{"
                raise

        def parse_array(s_and_end: tuple[str, int], scan_once: Callable[[str, int], Any], *rest: Any) -> Any:
            return _JSON_ARRAY(s_and_end, located(scan_once), *rest)

        self.parse_object = parse_object
        self.parse_array = parse_array
        self.scan_once = _PY_SCANNER(self)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_SURROGATE = re.compile(r"(?<!\\)((?:\\\\)*)\\u(d[89ab][0-9a-f]{2})(\\ud[c-f][0-9a-f]{2})?|"
                        r"(?<!\\)((?:\\\\)*)\\u(d[c-f][0-9a-f]{2})", re.IGNORECASE)


def _too_deep(text: str, limit: int) -> int | None:
    """Where ``text`` first nests deeper than ``limit`` (an offset), None when it does not. Counting the brackets
    is enough for almost every text; only one with more brackets than the limit is scanned, strings left out."""
    if text.count("[") + text.count("{") <= limit:
        return None
    blanked = _STRING.sub(lambda m: " " * len(m.group()), text)  # the same offsets, no bracket inside a string
    depth = 0
    for match in _BRACKET.finditer(blanked):
        depth += 1 if match.group() in "[{" else -1
        if depth > limit:
            return match.start()
    return None


_MAYBE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")  # what a surrogate's escape starts with (CJK's never does)


def _lone_surrogate(text: str) -> int | None:
    if "\\u" not in text or not _MAYBE_SURROGATE.search(text):
        return None
    for match in _SURROGATE.finditer(text):
        if match.group(2) is not None and match.group(3) is None:
            return match.start() + len(match.group(1))
        if match.group(5) is not None:
            return match.start() + len(match.group(4))
    return None


def _place(text: str, pos: int, line: int | None) -> str:
    """``line N`` (of the file) for an offset into ``text``: the text's own line where it is a whole document, the
    given line (a JSON Lines line) with the column."""
    if line is not None:
        return f"line {line}, column {pos + 1}"
    row = text.count("\n", 0, pos) + 1
    return f"line {row}, column {pos - (text.rfind(chr(10), 0, pos) + 1) + 1}"


_TOO_DEEP = object()  # what a parse that ran out of the interpreter's stack gave


def parse(text: str, where: str, *, line: int | None = None, strict: bool = True, nan_as_null: bool = False,
          limits: Limits = DEFAULT) -> Any:
    """One JSON value from ``text`` (see the module); :class:`JsonRefused` says why not, naming ``where`` (a file's
    path, or what the text is: "the answer") and the line. ``line``: the file's line when ``text`` is one line of
    JSON Lines. ``strict=False`` reads raw control characters inside strings (an LLM's answer may hold a raw
    newline); ``nan_as_null``: NaN is null (a caller's documented missing value)."""
    at = f"line {line}: " if line is not None else ""
    if limits.chars is not None and len(text) > limits.chars:
        raise JsonRefused(f"{where}: {at}{len(text):,} characters of JSON, more than the {limits.chars:,} read")
    try:
        value = _decoder(strict, nan_as_null, limits).decode(text)
    except json.JSONDecodeError as exc:
        place = f"line {line}, column {exc.colno}" if line is not None else f"line {exc.lineno}, column {exc.colno}"
        raise JsonRefused(f"{where}: {place}: not JSON ({exc.msg})", syntax=True) from None
    except _Problem as problem:
        pos = _position(text, strict, _hooks(limits, nan_as_null))
        place = _place(text, pos, line) if pos is not None else (f"line {line}" if line is not None else "")
        raise JsonRefused(f"{where}: {place + ': ' if place else ''}{problem.what}") from None
    except RecursionError:  # deeper than the interpreter lets the parser go: far deeper than the limit
        value = _TOO_DEEP
    # The checks of a text that parsed (or nested past the parser's own limit): counted only where it could fail.
    deep = _too_deep(text, limits.depth)
    if deep is not None:
        raise JsonRefused(f"{where}: {_place(text, deep, line)}: nested more than {limits.depth} levels deep (no "
                          "file or answer we read nests so)")
    if value is _TOO_DEEP:
        raise JsonRefused(f"{where}: {at}nested too deeply to read")
    lone = _lone_surrogate(text)
    if lone is not None:
        raise JsonRefused(f"{where}: {_place(text, lone, line)}: {text[lone:lone + 6]} is half of a UTF-16 surrogate "
                          "pair, not a character")
    return value


@functools.lru_cache(maxsize=32)
def _decoder(strict: bool, nan_as_null: bool, limits: Limits) -> json.JSONDecoder:
    """The standard library's C decoder with the door's hooks, made once per kind (``json.loads`` with hooks makes
    a decoder per call, which costs as much as reading a short line)."""
    hooks = _hooks(limits, nan_as_null)
    return json.JSONDecoder(strict=strict, object_pairs_hook=_unique, parse_int=hooks.parse_int,
                            parse_float=hooks.parse_float, parse_constant=hooks.parse_constant)


def _position(text: str, strict: bool, hooks: _Hooks) -> int | None:
    try:
        _Located(strict, hooks).decode(text)
    except _Problem as problem:
        return problem.pos
    except (ValueError, RecursionError):
        return None
    return None


def json_lines(text: str, where: str, *, nan_as_null: bool = False, limits: Limits = DEFAULT,
               first_line: int = 1) -> Iterator[tuple[int, Any]]:
    """Each non-blank line of JSON Lines ``text`` parsed (see :func:`parse`), with its 1-based line number. Lines
    are split at ``\\n`` alone (a ``\\r`` before it is dropped): a U+2028 inside a string is text."""
    for n, line in enumerate(text.split("\n"), first_line):
        line = line.removesuffix("\r")
        if line.strip():
            yield n, parse(line, where, line=n, nan_as_null=nan_as_null, limits=limits)


def lines_of(text: str) -> list[str]:
    """``text`` split at ``\\n`` alone, each line without its ``\\r`` (what :func:`json_lines` reads)."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def readable(text: str, **kwargs: Any) -> bool:
    """Whether ``text`` passes the door (for sniffing a format: nothing is said)."""
    try:
        parse(text, "", **kwargs)
    except JsonRefused:
        return False
    return True
