"""Old WMT/NIST "SGML" (``<srcset>``, ``<refset>``, ``<tstset>``; ``<doc docid sysid>``; ``<seg id>``).

It is not XML (raw ``&``, a literal ``<`` in text, ``<DOC`` closed by ``</doc>``,
a duplicated ``sysid``), so it is read line by line, exactly as sacreBLEU
reads it: lines end at LF only (sacreBLEU opens the file with ``newline="\n"``,
so a lone CR is whitespace inside its line), a line that starts with ``<seg ``
is one segment, its text is what lies between the first ``>`` and the last
``</seg>``, cleaned; entities stay as written. Files pair by line order. Document ids are read from ``<doc``/``<DOC``
lines (either case; they change no score); ``sysid`` is the first one given.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import InputError
from .corpus import Context, Corpus, field_file
from .markup import clean
from .raw_input import AUTO, wide_bom
from .text_files import codec_name, decode_text, detect_encoding

_SEG = re.compile(r"<seg.*?>(.*)</seg>.*?")
_DOC = re.compile(r"<doc\s", re.IGNORECASE)
_ATTR = {name: re.compile(rf"\b{name}\s*=\s*\"([^\"]*)\"", re.IGNORECASE) for name in ("docid", "sysid", "setid")}
_SET = re.compile(r"<(srcset|refset|tstset)\b", re.IGNORECASE)


def read_sgml(path: Path, data: bytes, encoding: str = "utf-8") -> Corpus:
    """Read one SGML file from its bytes: its segments, the document of each, and what kind of set it is."""
    detected = encoding == AUTO
    codec = (wide_bom(data) or detect_encoding([path], [data])) if detected else codec_name(encoding)
    text = decode_text(path, data, codec)
    segments: list[str] = []
    docs: list[str] = []
    doc, system, kind = "", "", ""
    unread: list[int] = []  # lines with a <seg> that sacreBLEU's reading skips (not at the start of the line)
    for number, line in enumerate(text.split("\n"), start=1):
        if not kind and (found := _SET.search(line)):
            kind = found.group(1).lower()
        if line.startswith("<seg "):
            segments.append(clean(_SEG.sub(r"\1", line)))
            docs.append(doc)
        elif "<seg" in line:
            unread.append(number)
        elif _DOC.match(line):
            doc = (m.group(1) if (m := _ATTR["docid"].search(line)) else "")
            system = system or (m.group(1) if (m := _ATTR["sysid"].search(line)) else "")
    if not segments:
        raise InputError(f"{path}: no line starts with <seg (is this a WMT SGML file?)")
    notes = []
    if unread:
        notes.append(f"{len(unread)} line(s) hold a <seg> that does not start the line (first: line {unread[0]}); "
                     "they are not segments, as in sacreBLEU's reading")
    name = "source" if kind == "srcset" else (system if kind == "tstset" and system else path.stem)
    lines = field_file(path, name, segments, encoding=codec, detected=detected)
    context = Context(lines if kind == "srcset" else None, tuple(docs) if any(docs) else None)
    return Corpus(path, "sgml", translations=[lines], context=context,
                  notes=tuple(f"{path.name}: {n}" for n in notes))
