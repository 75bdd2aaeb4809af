"""XLIFF, TMX and their inline tags; XML as untrusted input."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import sacrebleu

from bleu_gui.core import BleuConfig, InputError, RunConfig, score_run
from bleu_gui.core.inputs.format_table import ReadOptions
from bleu_gui.core.inputs.markup import flatten, mismatched_tags
from bleu_gui.core.inputs.run_inputs import read_run_inputs

from .conftest import corpus_of, data_set

NS12 = "{urn:oasis:names:tc:xliff:document:1.2}"


def test_flatten_takes_tags_out_and_remembers_where_they_stood():
    seg = ET.fromstring('<source>Click <g id="1">here</g>  to <x id="2"/>go <ph id="3">&lt;br/&gt;</ph></source>')
    text, tags = flatten(seg)
    assert text == "Click here to go"
    assert tags == ((6, "<g1>"), (10, "</g1>"), (14, "<x2/>"), (16, "<ph3/>"))
    assert text[6:10] == "here"
    kept, none = flatten(seg, keep_tags=True)
    assert kept == "Click <g1> here </g1> to <x2/> go <ph3/>" and none == ()


def test_tmx_native_code_is_not_text():
    seg = ET.fromstring('<seg>The big <bpt i="1">&lt;b></bpt>black<ept i="1">&lt;/b></ept> cat '
                        '<hi x="1">sleeps</hi>.</seg>')
    assert flatten(seg) == ("The big black cat sleeps.", ((8, "<bpt1/>"), (13, "<ept1/>"), (18, "<hi1>"),
                                                           (24, "</hi1>")))


def test_mismatched_tags_compares_counts_row_by_row():
    cand = (((0, "<x1/>"),), (), ((1, "<g1>"), (3, "</g1>")))
    ref = (((2, "<x1/>"),), ((0, "<x1/>"),), ((0, "<g1>"), (2, "</g1>")))
    assert mismatched_tags(cand, [ref]) == [1]
    assert mismatched_tags(None, [ref]) == [0, 1, 2]
    assert mismatched_tags(None, [None]) == []


def _plain_units(path: Path, side: str) -> list[str]:
    """The oracle for files without inline codes: ElementTree's own text of each unit's side, cleaned."""
    root = ET.parse(path).getroot()
    out = []
    for unit in root.iter(f"{NS12}trans-unit"):
        element = unit.find(f"{NS12}{side}")
        out.append(re.sub(r"\s+", " ", (element.text or "").strip()) if element is not None else "")
    return out


def test_xliff12_target_as_candidate_and_as_reference_scores_as_sacrebleu():
    root = data_set("formats") / "xliff12-symfony-validators"
    de, zh = root / "validators.de.xlf", root / "validators.zh_CN.xlf"
    inputs = read_run_inputs([zh], [de])
    assert inputs.systems[0].lines == _plain_units(zh, "target")
    assert inputs.references[0].lines == _plain_units(de, "target")
    assert inputs.context.source is not None and inputs.context.source.lines == _plain_units(zh, "source")
    run = score_run(inputs.systems, inputs.references, RunConfig((BleuConfig(),), significance=None), context=inputs.context)
    oracle = sacrebleu.corpus_bleu(_plain_units(zh, "target"), [_plain_units(de, "target")])
    assert run.systems[0].results[0].corpus.score == pytest.approx(oracle.score, abs=1e-9)
    assert any("untranslated state (needs-translation 6)" in n for n in run.notes)


def test_xliff12_placeholders_become_tags_and_a_dropped_one_is_flagged():
    path = data_set("formats") / "xliff12-angular-linotp" / "messages.de.xlf"
    corpus = corpus_of(path)
    source, target = corpus.context.source, corpus.translations[0]
    assert source is not None and source.tags is not None and target.tags is not None
    units = list(ET.parse(path).getroot().iter(f"{NS12}trans-unit"))
    assert len(source.lines) == len(units) == 415
    # Every <x/> of each source is one tag: the count equals the elements in the file.
    assert [len(t) for t in source.tags] == [len(u.find(f"{NS12}source").findall(f".//{NS12}x")) for u in units]
    row = next(i for i, line in enumerate(target.lines) if "{{userPhonel}}" in line)
    assert source.lines[row] == "The token will use your user mobile number:"
    assert [label for _, label in source.tags[row]] == ["<xSTART_BOLD_TEXT/>", "<xINTERPOLATION/>",
                                                        "<xCLOSE_BOLD_TEXT/>"]
    assert row in mismatched_tags(target.tags, [source.tags])


def test_xliff12_okapi_segments_are_the_mrk_seg_elements():
    path = data_set("formats") / "xliff12-matecat-okapi" / "calibre.docx.xliff"
    corpus = corpus_of(path, "xliff")
    root = ET.parse(path).getroot()
    marks = [m for s in root.iter(f"{NS12}seg-source") for m in s.iter(f"{NS12}mrk") if m.get("mtype") == "seg"]
    assert corpus.context.source is not None
    assert len(corpus.context.source.lines) == len(marks) == 240
    assert corpus.context.docs is not None and len(set(corpus.context.docs)) == 4  # per <file original=…>
    assert any("copy of their source" in n for n in corpus.notes)


def test_xliff20_segments_tags_and_missing_targets():
    real = data_set("formats") / "xliff20-matecat-realworld"
    pcec = corpus_of(real / "pcec.xlf", "xliff")
    assert pcec.format == "xliff-2.0" and len(pcec.translations[0].lines) == 21
    assert any("21 segment(s) have no target" in n for n in pcec.notes)
    oasis = data_set("formats") / "xliff20-oasis-tc" / "withReorderedCodes.xlf"
    corpus = corpus_of(oasis, "xliff")
    source, target = corpus.context.source, corpus.translations[0]
    assert source is not None and source.tags is not None and target.tags is not None
    assert source.lines[0] == "text" and [t for _, t in source.tags[0]] == ["<pc1>", "<ph2/>", "</pc1>", "<ph3/>"]
    assert [t for _, t in target.tags[0]] == ["<ph3/>", "<pc1>", "<ph2/>", "</pc1>"]
    assert 2 in mismatched_tags(target.tags, [source.tags])  # unit 3: the target drops <ph id="c1"/>


def test_tmx_encodings_languages_and_codes():
    kit = data_set("formats") / "tmx-lisa-compliance-kit"
    utf16 = corpus_of(kit / "ImportTest2A.tmx")
    assert utf16.context.source is not None
    assert utf16.context.source.lines[0] == "The big black cat sleeps."
    assert utf16.translations[0].lines[0] == "Le gros chat noir dors."
    assert utf16.translations[0].lines[5] == "Image:"  # <ph> holds markup, not text; FR-CA matched as fr-ca
    assert utf16.translations[0].lines[6] == "Du texte avec une portion délimitée."  # tuv order inverted
    with pytest.raises(InputError, match=r"langs SRC TGT \(the file has en-us, en-gb, ja-jp, fr-ca, es-es\)"):
        corpus_of(kit / "ImportTest1C.tmx", "tmx")
    chosen = corpus_of(kit / "ImportTest1C.tmx", "tmx", ReadOptions(langs=("EN-US", "ja-JP")))
    assert chosen.translations[0].lines[2] == "Third entry in Japanese"
    assert chosen.context.source is not None and chosen.context.source.lines[2] == "Third entry in US English"


# ImportTest2A.tmx's French side read by eye: native codes (<bpt>, <ept>, <it>, <ph>) are not text.
TMX_2A_FRENCH = ["Le gros chat noir dors.", 'Test pour caractères spéciaux = <=lt, >=gt, &=amp, "=quot.',
                 "Format en gigogne = gras+italique+souligné, gras+italique, gras.", "Première phrase.",
                 "Seconde phrase.", "Image:", "Du texte avec une portion délimitée."]


def test_tmx_target_scored_against_a_text_reference_as_sacrebleu(tmp_path):
    kit = data_set("formats") / "tmx-lisa-compliance-kit"
    ref = tmp_path / "ref.fr.txt"
    ref_lines = ["Le gros chat noir dort.", "Test des caractères spéciaux = <=lt, >=gt, &=amp, \"=quot.",
                 "Format imbriqué = gras+italique+souligné, gras+italique, gras.", "Première phrase.",
                 "Deuxième phrase.", "Image :", "Du texte avec une partie mise en évidence."]
    ref.write_text("\n".join(ref_lines) + "\n", encoding="utf-8")
    inputs = read_run_inputs([kit / "ImportTest2A.tmx"], [ref])
    assert inputs.systems[0].lines == TMX_2A_FRENCH
    run = score_run(inputs.systems, inputs.references, RunConfig((BleuConfig(),), significance=None), context=inputs.context)
    assert run.systems[0].results[0].corpus.score == pytest.approx(sacrebleu.corpus_bleu(TMX_2A_FRENCH, [ref_lines]).score,
                                                        abs=1e-9)
    assert any("en-us as source, fr-ca as target" in n for n in run.notes)
    with pytest.raises(InputError, match=r"line counts differ: .*ImportTest1C.tmx:target \(fr-ca\) has 3"):
        read_run_inputs([kit / "ImportTest1C.tmx"], [ref], options=ReadOptions(langs=("en-us", "fr-ca")))


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<xliff version="1.2"><file><body><trans-unit id="1"><source>&lol9;</source></trans-unit></body></file></xliff>
"""

EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE tmx [<!ENTITY secret SYSTEM "file://{target}">]>
<tmx version="1.4"><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>&secret;</seg></tuv>
<tuv xml:lang="fr"><seg>x</seg></tuv></tu></body></tmx>
"""


@pytest.mark.parametrize(("kind", "line"), [("billion-laughs", 3), ("external-entity", 2)])
def test_hostile_xml_is_refused_and_nothing_is_read(tmp_path, kind, line):
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET", encoding="utf-8")
    if kind == "billion-laughs":
        path = tmp_path / "laughs.xlf"
        path.write_text(BILLION_LAUGHS, encoding="utf-8")
    else:
        path = tmp_path / "xxe.tmx"
        path.write_text(EXTERNAL.format(target=secret), encoding="utf-8")
    with pytest.raises(InputError, match=rf"line {line}: the XML declares an entity .*refused") as info:
        read_run_inputs([path], [path], allow_identical=True)
    assert str(path) in str(info.value) and "SECRET" not in str(info.value)


def test_malformed_xml_names_line_and_column(tmp_path):
    path = tmp_path / "broken.xlf"
    path.write_text('<?xml version="1.0"?>\n<xliff version="1.2">\n<file><body>\n<trans-unit id="1"><source>a</sorce>'
                    "</trans-unit></body></file></xliff>\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"broken.xlf: line 4, column \d+: malformed XML \(mismatched tag\)"):
        corpus_of(path, "xliff")


def test_an_added_system_is_read_in_its_own_format(tmp_path):
    """File ▸ Add system with an XLIFF file adds its target, not the XML's lines."""
    from bleu_gui.core.inputs.run_inputs import read_more_systems

    root = data_set("formats") / "xliff12-symfony-validators"
    ref = tmp_path / "ref.de.txt"
    ref.write_text("\n".join(_plain_units(root / "validators.de.xlf", "target")) + "\n", encoding="utf-8")
    hyp = tmp_path / "hyp.de.txt"
    hyp.write_text("\n".join(line.upper() for line in _plain_units(root / "validators.de.xlf", "target")) + "\n",
                   encoding="utf-8")
    first = read_run_inputs([hyp], [ref])
    (added,) = read_more_systems([root / "validators.zh_CN.xlf"], first.systems, first.references)
    assert added.lines == _plain_units(root / "validators.zh_CN.xlf", "target")
