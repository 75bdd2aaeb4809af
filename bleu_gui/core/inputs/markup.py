"""Inline markup of XLIFF and TMX segments: tags are not words.

A segment's XML is flattened to plain text plus a list of :data:`Tag`s, each
the character offset in the text where the tag stood and a short label
(``<g1>``, ``</g1>``, ``<x2/>``). Scoring reads the text; the window draws the
tags as chips at their offsets; a segment whose candidate carries a different
number of tags than its reference or source is flagged. With ``keep_tags`` the
labels stay in the text as tokens of their own instead.

Whitespace is cleaned as sacreBLEU cleans the lines of its data sets (strip,
every run of whitespace becomes one space), so pretty-printed XML and a tag
removed between two spaces leave no double space behind.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from xml.etree.ElementTree import Element

Tag = tuple[int, str]  # (character offset in the cleaned text, label)

_WHITESPACE = re.compile(r"\s+")

# Elements whose content is native code (the markup of the original document), never text.
_CODE = {"bpt", "ept", "it", "ph", "ut", "bx", "ex", "x", "sc", "ec", "originalData", "data"}
# Elements whose content is text, wrapped in a paired tag (chips before and after).
_PAIRED = {"g", "pc", "hi"}
# Elements that only annotate (terms, segmentation, comments): their text counts, no chip.
_TRANSPARENT = {"mrk", "sm", "em", "source", "target", "seg", "seg-source", "sub"}


class _TagMark:
    """Stands for a tag among a segment's text pieces while whitespace is cleaned (an object, not a character:
    any character, private-use ones too, may be real text)."""


_MARK = _TagMark()
Piece = str | _TagMark


def clean(text: str) -> str:
    """sacreBLEU's cleaning of data-set lines: strip, collapse whitespace runs to one space."""
    return _WHITESPACE.sub(" ", text.strip())


def local_name(element: Element) -> str:
    """The tag without its ``{namespace}``."""
    tag = element.tag if isinstance(element.tag, str) else ""
    return tag.rsplit("}", 1)[-1]


def _label(element: Element, closing: bool = False) -> str:
    name = local_name(element)
    ident = element.get("id") or element.get("i") or element.get("rid") or element.get("x") or ""
    if name in _PAIRED:
        return f"</{name}{ident}>" if closing else f"<{name}{ident}>"
    return f"<{name}{ident}/>"


def _walk(element: Element, labels: list[str], top: bool = True) -> Iterator[Piece]:
    """Text pieces of ``element`` in document order, one mark per tag (labels appended in order)."""
    name = local_name(element)
    if not top:
        if not name:  # a comment or processing instruction (a tag that is no name): not text
            yield element.tail or ""
            return
        if name == "cp":  # XLIFF 2.0: a code point XML cannot carry
            try:
                yield chr(int(element.get("hex", ""), 16))
            except ValueError:
                pass
            yield element.tail or ""
            return
        if name in _CODE:
            labels.append(_label(element))
            yield _MARK
            yield element.tail or ""
            return
        if name in _PAIRED:
            labels.append(_label(element))
            yield _MARK
    yield element.text or ""
    for child in element:
        yield from _walk(child, labels, top=False)
    if not top:
        if name in _PAIRED:
            labels.append(_label(element, closing=True))
            yield _MARK
        yield element.tail or ""


def _place(pieces: list[Piece], labels: list[str]) -> tuple[str, tuple[Tag, ...]]:
    """Clean whitespace and take the tag marks out, remembering where each stood in the cleaned text."""
    out: list[str] = []
    tags: list[Tag] = []
    space = False  # whitespace seen since the last character kept
    for piece in pieces:
        if isinstance(piece, _TagMark):
            # A tag after a space sits after the space that will separate the words around it.
            tags.append((len(out) + (1 if space and out else 0), labels[len(tags)]))
            continue
        for ch in piece:
            if ch.isspace():
                space = True
            else:
                if space and out:
                    out.append(" ")
                space = False
                out.append(ch)
    text = "".join(out)
    return text, tuple((min(offset, len(text)), label) for offset, label in tags)


def flatten(element: Element, keep_tags: bool = False) -> tuple[str, tuple[Tag, ...]]:
    """The cleaned text of a segment element and its inline tags (none when ``keep_tags``: the labels are
    then tokens in the text)."""
    labels: list[str] = []
    pieces = list(_walk(element, labels))
    if keep_tags:
        names = iter(labels)
        return clean("".join(f" {next(names)} " if isinstance(p, _TagMark) else p for p in pieces)), ()
    return _place(pieces, labels)


def mismatched_tags(candidate: tuple[tuple[Tag, ...], ...] | None,
                    others: list[tuple[tuple[Tag, ...], ...] | None]) -> list[int]:
    """Rows where the candidate carries a different number of inline tags than a reference or the source
    (files without tags on any row are not compared: plain text has no markup to keep)."""
    compared = [o for o in others if o is not None]
    if not compared and candidate is None:
        return []
    n = len(compared[0]) if compared else len(candidate or ())
    own = candidate if candidate is not None else ((),) * n
    return [i for i in range(n) if any(len(own[i]) != len(o[i]) for o in compared)]
