"""XML is untrusted input: parse it streaming, without entities, without the network.

defusedxml (the Python Security team's hardened front end to the standard
library's expat parser) refuses any entity declaration, so neither a "billion
laughs" file nor an external entity (``file:///etc/passwd``, a URL) can expand
or be fetched; nothing outside the file is ever read. A DOCTYPE that only names
a DTD (TMX's ``tmx14.dtd``) is allowed: expat never loads it. Every problem
becomes an :class:`InputError` naming the file, and the line and column when
the parser knows them. The bytes are read once by the caller (a pipe cannot be
read twice) and parsed from memory.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

import defusedxml
import defusedxml.ElementTree as safe_tree

from ..errors import InputError

_ENTITY = re.compile(rb"<!ENTITY", re.IGNORECASE)


def _entity_line(data: bytes) -> str:
    """Where the first entity declaration is (defusedxml does not say)."""
    head = data[:1 << 20]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        head = head.decode("utf-16", errors="replace").encode("utf-8")
    found = _ENTITY.search(head)
    if found is None:
        return ""
    line = head.count(b"\n", 0, found.start()) + 1
    return f"line {line}: "


def iter_elements(path: Path, data: bytes, tags: set[str], starts: frozenset[str] = frozenset(),
                  comments: bool = False) -> Iterator[Element]:
    """Each element whose local name is in ``tags``, complete, in document order; it is cleared after the
    caller has handled it. Elements named in ``starts`` are also yielded when they open (with their attributes,
    before their content), e.g. a ``<file>`` around units. ``comments``: comments and processing instructions
    stay in the tree as children (lxml keeps them, and a ``<seg>``'s text then ends where one starts)."""
    parser = None
    if comments:
        parser = safe_tree.DefusedXMLParser(target=TreeBuilder(insert_comments=True, insert_pis=True))
    try:
        for event, element in safe_tree.iterparse(io.BytesIO(data), events=("start", "end") if starts else ("end",),
                                                  parser=parser):
            name = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""
            if event == "start":
                if name in starts:
                    yield element
            elif name in tags:
                yield element
                element.clear()
    except (defusedxml.EntitiesForbidden, defusedxml.ExternalReferenceForbidden) as exc:
        raise InputError(f"{path}: {_entity_line(data)}the XML declares an entity ({getattr(exc, 'name', '?')}); "
                         "entities are refused in untrusted files (nothing was expanded or fetched)") from None
    except defusedxml.DTDForbidden:  # not raised with the defaults; kept for a stricter parser
        raise InputError(f"{path}: the XML has a document type declaration, which is refused") from None
    except ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        reason = str(exc).split(":")[0]
        raise InputError(f"{path}: line {line}, column {column + 1}: malformed XML ({reason})") from None
    except RecursionError:
        raise InputError(f"{path}: the XML nests elements too deeply to read") from None


_DECLARED = re.compile(rb"""<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


def xml_encoding(data: bytes) -> str:
    """The encoding the parser decodes the file with: its byte order mark, its declaration, or UTF-8."""
    head = data[:200]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    if head.startswith(b"\xef\xbb\xbf"):
        return "utf-8 (BOM)"
    declared = _DECLARED.search(head)
    return declared.group(1).decode("ascii").lower() if declared else "utf-8"
