"""XML is untrusted input: parse it streaming, without entities, without the network.

defusedxml (the Python Security team's hardened front end to the standard
library's expat parser) refuses any entity declaration, so neither a "billion
laughs" file nor an external entity (``file:///etc/passwd``, a URL) can expand
or be fetched; nothing outside the file is ever read. A DOCTYPE that only names
a DTD (TMX's ``tmx14.dtd``) is allowed: expat never loads it. Every problem
becomes an :class:`InputError` naming the file, and the line and column when
the parser knows them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError

import defusedxml
import defusedxml.ElementTree as safe_tree

from .errors import InputError

_ENTITY = re.compile(rb"<!ENTITY", re.IGNORECASE)


def _entity_line(path: Path) -> str:
    """Where the first entity declaration is (defusedxml does not say)."""
    try:
        head = path.read_bytes()[:1 << 20]
    except OSError:
        return ""
    wide = head.startswith((b"\xff\xfe", b"\xfe\xff"))
    if wide:
        head = head.decode("utf-16", errors="replace").encode("utf-8")
    found = _ENTITY.search(head)
    if found is None:
        return ""
    line = head.count(b"\n", 0, found.start()) + 1
    return f"line {line}: "


def iter_elements(path: Path, tags: set[str], starts: frozenset[str] = frozenset()) -> Iterator[Element]:
    """Each element whose local name is in ``tags``, complete, in document order; it is cleared after the
    caller has handled it, so a large file is never held whole. Elements named in ``starts`` are also
    yielded when they open (with their attributes, before their content), e.g. a ``<file>`` around units."""
    try:
        for event, element in safe_tree.iterparse(str(path), events=("start", "end") if starts else ("end",)):
            name = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""
            if event == "start":
                if name in starts:
                    yield element
            elif name in tags:
                yield element
                element.clear()
    except (defusedxml.EntitiesForbidden, defusedxml.ExternalReferenceForbidden) as exc:
        raise InputError(f"{path}: {_entity_line(path)}the XML declares an entity ({getattr(exc, 'name', '?')}); "
                         "entities are refused in untrusted files (nothing was expanded or fetched)") from None
    except defusedxml.DTDForbidden:  # not raised with the defaults; kept for a stricter parser
        raise InputError(f"{path}: the XML has a document type declaration, which is refused") from None
    except ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        reason = str(exc).split(":")[0]
        raise InputError(f"{path}: line {line}, column {column + 1}: malformed XML ({reason})") from None
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror or exc}") from None


def root_name(path: Path) -> str:
    """The local name of the document element (read up to its start tag only)."""
    try:
        for _event, element in safe_tree.iterparse(str(path), events=("start",)):
            return element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""
    except (defusedxml.DefusedXmlException, ParseError, OSError):
        return ""
    return ""


_DECLARED = re.compile(rb"""<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


def xml_encoding(path: Path) -> str:
    """The encoding the parser decodes the file with: its byte order mark, its declaration, or UTF-8."""
    try:
        with path.open("rb") as fh:
            head = fh.read(200)
    except OSError:
        return "utf-8"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    if head.startswith(b"\xef\xbb\xbf"):
        return "utf-8 (BOM)"
    declared = _DECLARED.search(head)
    return declared.group(1).decode("ascii").lower() if declared else "utf-8"
