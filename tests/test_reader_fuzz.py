"""Every reader on random text: XML special characters, whitespace runs and line separators, control and
private-use characters. Each reader extracts what sacreBLEU's own reader extracts (WMT XML, SGML), or what the
text was before it was written in the format (TSV, JSONL, TMX, XLIFF; whitespace cleaned as sacreBLEU cleans
data-set lines where the format is XML) — or refuses the file with an InputError, and only where the format
cannot carry the text."""

from __future__ import annotations

import csv
import io
import json
from xml.sax.saxutils import escape

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bleu_gui.core import InputError
from bleu_gui.core.inputs.markup import clean
from bleu_gui.core.inputs.text_files import read_segments

from .conftest import corpus_of
from .oracles import sacre_sgml_segments, sacre_wmt_xml_fields
from .test_reader_corners import wmt_xml

READERS = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))

PIECES = ["a", "Z", "word", "é", "e\u0301", "猫", "日本", "😀", "&", "<", ">", '"', "'", "&amp;", "<b>", "]]>",
          " ", "  ", "\t", "\n", "\r", "\r\n", "\u00a0", "\u3000", "\u2028", "\u2029", "\u0085", "\x0b", "\x0c",
          "\x1c", "\x1e", "\x01", "\x7f", "\x9f", "\ue000", "\uf8ff", "\U000f0000", "\ufeff", "\u200b", "\ufffd",
          "\ufffe", "\ud800", "\x00"]
text = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)
texts = st.lists(text, min_size=1, max_size=4)


def xml_char(c: str) -> bool:
    """XML 1.0's Char production: what an XML file can carry at all (escaped or not)."""
    o = ord(c)
    return o in (0x9, 0xA, 0xD) or 0x20 <= o <= 0xD7FF or 0xE000 <= o <= 0xFFFD or 0x10000 <= o <= 0x10FFFF


def xml_text(t: str) -> bool:
    return all(xml_char(c) for c in t)


def encodable(t: str) -> bool:
    return not any(0xD800 <= ord(c) <= 0xDFFF for c in t)


def lf(t: str) -> str:
    """Every line end (CR LF, CR) as LF, as XML parsers and a quoted TSV field give them."""
    return t.replace("\r\n", "\n").replace("\r", "\n")


def refused(path, fmt: str | None = None) -> None:
    with pytest.raises(InputError, match=str(path.name)):
        corpus_of(path, fmt)


@READERS
@given(hyps=texts, refs=texts)
def test_wmt_xml_reads_as_sacrebleu(tmp_path_factory, hyps, refs):
    n = min(len(hyps), len(refs))
    hyps, refs = hyps[:n], refs[:n]
    assume(all(encodable(t) for t in hyps + refs))
    path = tmp_path_factory.mktemp("x") / "f.xml"
    src = {i: f"source {i}" for i in range(1, n + 1)}
    path.write_bytes(wmt_xml([("d1", src, {"A": {i: escape(r) for i, r in enumerate(refs, 1)}},
                                       {"s1": {i: escape(h) for i, h in enumerate(hyps, 1)}})]).encode("utf-8"))
    if not all(xml_text(t) for t in hyps + refs):
        refused(path)  # lxml refuses it too: not well-formed XML
        return
    theirs = sacre_wmt_xml_fields(path)
    if not theirs["src"]:
        refused(path)  # sacreBLEU drops a segment no reference has text for: here every one
        return
    corpus = corpus_of(path)
    ours = {f.field: f.lines for f in [*corpus.systems, *corpus.references]}
    for name, lines in ours.items():
        assert lines == theirs[name], name


@READERS
@given(segments=texts)
def test_sgml_reads_as_sacrebleu(tmp_path_factory, segments):
    assume(all(encodable(t) and "\x00" not in t for t in segments))
    path = tmp_path_factory.mktemp("s") / "t.sgm"
    body = "".join(f'<seg id="{i}">{t}</seg>\n' for i, t in enumerate(segments, 1))
    path.write_bytes(('<tstset setid="t" srclang="any" trglang="de">\n<doc docid="d1" sysid="s">\n'
                      f'{body}</doc>\n</tstset>\n').encode())
    theirs = sacre_sgml_segments(path)
    try:
        corpus = corpus_of(path, "sgml")
    except InputError:
        # Text that breaks the one-segment-per-line layout may leave a file with no segment at all.
        assert theirs == [], theirs
        return
    assert corpus.translations[0].lines == theirs


@READERS
@given(hyps=texts, refs=texts)
def test_tsv_gives_back_what_the_csv_module_wrote(tmp_path_factory, hyps, refs):
    n = min(len(hyps), len(refs))
    hyps, refs = hyps[:n], refs[:n]
    # A CR ends a line in a TSV as in any text file we read, and csv.writer leaves a CR unquoted.
    assume(all(encodable(t) and "\x00" not in t and "\r" not in t for t in hyps + refs))
    out = io.StringIO()
    writer = csv.writer(out, delimiter="\t", lineterminator="\n")
    writer.writerow(["seg_id", "hypothesis", "reference"])
    writer.writerows([i, h, r] for i, (h, r) in enumerate(zip(hyps, refs), 1))
    path = tmp_path_factory.mktemp("t") / "t.tsv"
    path.write_bytes(out.getvalue().encode("utf-8"))
    corpus = corpus_of(path, "tsv")
    assert corpus.translations[0].lines == hyps  # a field holding an LF is quoted, and stays one field
    assert corpus.references[0].lines == refs


@READERS
@given(hyps=texts, refs=texts, ascii_only=st.booleans())
def test_jsonl_gives_back_what_json_wrote(tmp_path_factory, hyps, refs, ascii_only):
    n = min(len(hyps), len(refs))
    hyps, refs = hyps[:n], refs[:n]
    path = tmp_path_factory.mktemp("j") / "t.jsonl"
    rows = [json.dumps({"seg_id": i, "hypothesis": h, "reference": r}, ensure_ascii=ascii_only) + "\n"
            for i, (h, r) in enumerate(zip(hyps, refs), 1)]
    if not ascii_only and not all(encodable(t) for t in hyps + refs):
        return  # a lone surrogate has no UTF-8 form: such a file cannot be written
    path.write_bytes("".join(rows).encode("utf-8"))
    if not all(encodable(t) for t in hyps + refs):
        refused(path, "jsonl")  # written as \\ud800: no text of any encoding holds it
        return
    corpus = corpus_of(path, "jsonl")
    assert corpus.translations[0].lines == hyps
    assert corpus.references[0].lines == refs


def _xml_file(path, template: str, units: list[tuple[str, str]], unit: str) -> None:
    body = "".join(unit.format(i=i, src=escape(s), tgt=escape(t)) for i, (s, t) in enumerate(units, 1))
    path.write_bytes(template.format(body=body).encode("utf-8"))


TMX = ('<?xml version="1.0" encoding="UTF-8"?><tmx version="1.4"><header srclang="en" datatype="plaintext" '
       'segtype="sentence" adminlang="en" o-tmf="x" creationtool="t" creationtoolversion="1"/><body>{body}</body></tmx>')
TMX_UNIT = '<tu><tuv xml:lang="en"><seg>{src}</seg></tuv><tuv xml:lang="de"><seg>{tgt}</seg></tuv></tu>'
XLIFF12 = ('<?xml version="1.0" encoding="UTF-8"?><xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
           '<file original="f" source-language="en" target-language="de" datatype="plaintext"><body>{body}</body>'
           '</file></xliff>')
XLIFF12_UNIT = '<trans-unit id="{i}"><source>{src}</source><target state="translated">{tgt}</target></trans-unit>'
XLIFF20 = ('<?xml version="1.0" encoding="UTF-8"?><xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" '
           'srcLang="en" trgLang="de"><file id="f">{body}</file></xliff>')
XLIFF20_UNIT = '<unit id="u{i}"><segment><source>{src}</source><target>{tgt}</target></segment></unit>'


@READERS
@given(sources=texts, targets=texts, kind=st.sampled_from(["tmx", "xliff-1.2", "xliff-2.0"]))
def test_tmx_and_xliff_give_back_the_text_cleaned_as_sacrebleu_cleans(tmp_path_factory, sources, targets, kind):
    n = min(len(sources), len(targets))
    # A word on each side, so that no unit is a copy of its source or empty (both are counted, not refused).
    units = [(f"s{i} {s}", f"t{i} {t}") for i, (s, t) in enumerate(zip(sources[:n], targets[:n]))]
    assume(all(encodable(s + t) for s, t in units))
    template, unit = {"tmx": (TMX, TMX_UNIT), "xliff-1.2": (XLIFF12, XLIFF12_UNIT),
                      "xliff-2.0": (XLIFF20, XLIFF20_UNIT)}[kind]
    path = tmp_path_factory.mktemp("m") / ("t.tmx" if kind == "tmx" else "t.xlf")
    _xml_file(path, template, units, unit)
    if not all(xml_text(s + t) for s, t in units):
        refused(path)
        return
    corpus = corpus_of(path)
    # XML turns every line end (CR LF, CR) into LF before the reader sees it; cleaning then makes any
    # whitespace run one space.
    assert corpus.translations[0].lines == [clean(lf(t)) for _s, t in units]
    assert corpus.context.source.lines == [clean(lf(s)) for s, _t in units]


@READERS
@given(lines=st.lists(text.filter(lambda t: "\n" not in t and "\r" not in t), min_size=1, max_size=5))
def test_plain_text_lines_are_the_lines_between_line_feeds(tmp_path_factory, lines):
    """sacreBLEU reads plain text one line per LF; U+2028, U+0085, form feeds and the like stay inside a line."""
    assume(all(encodable(t) for t in lines))
    path = tmp_path_factory.mktemp("p") / "p.txt"
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8"))
    if "\x00" in "".join(lines):
        with pytest.raises(InputError, match="binary"):
            read_segments(path)
        return
    # A byte order mark at the very start is the encoding's, not text (removed, and said in a note).
    assert read_segments(path).lines == [lines[0].removeprefix("\ufeff"), *lines[1:]]

