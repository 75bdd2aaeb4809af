"""Real files' odd corners: each reader extracts what sacreBLEU's own reader extracts, or refuses clearly.

The oracles are sacreBLEU's data-set readers themselves (``WMTXMLDataset`` with
lxml, ``FakeSGMLDataset``) and the d2l textbook's definition; every case here
failed before its fix.
"""

from __future__ import annotations

import json
import math

import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st

from bleu_gui.core import Bleu, BleuConfig, InputError, RunConfig, score_run
from bleu_gui.core.inputs.run_inputs import read_run_inputs

from .conftest import cli, corpus_of
from .oracles import sacre_sgml_segments, sacre_wmt_xml_fields
from .test_worked_examples import d2l_textbook


def wmt_xml(docs: list[tuple[str, dict[int, str], dict[str, dict[int, str]], dict[str, dict[int, str]]]]) -> str:
    """A WMT XML file: (doc id, source segments, references by translator, hypotheses by system) per document.
    Segment texts are written as given (they may hold markup)."""
    out = ['<?xml version="1.0" encoding="utf-8"?>', '<dataset id="test">', '<collection id="general">']
    for doc_id, src, refs, hyps in docs:
        out.append(f'<doc id="{doc_id}" origlang="en">')
        out.append('<src lang="en"><p>' + "".join(f'<seg id="{i}">{t}</seg>' for i, t in src.items()) + "</p></src>")
        for translator, segs in refs.items():
            out.append(f'<ref lang="de" translator="{translator}"><p>'
                       + "".join(f'<seg id="{i}">{t}</seg>' for i, t in segs.items()) + "</p></ref>")
        for system, segs in hyps.items():
            out.append(f'<hyp lang="de" system="{system}"><p>'
                       + "".join(f'<seg id="{i}">{t}</seg>' for i, t in segs.items()) + "</p></hyp>")
        out.append("</doc>")
    out += ["</collection>", "</dataset>", ""]
    return "\n".join(out)


def ours_by_field(path) -> dict[str, list[str]]:
    inputs = read_run_inputs([], [path])
    fields = {f.field: f.lines for f in [*inputs.systems, *inputs.references]}
    fields["src"] = inputs.context.source.lines
    return fields


def assert_same_as_sacrebleu(path) -> None:
    theirs = sacre_wmt_xml_fields(path)
    ours = ours_by_field(path)
    for name, lines in ours.items():
        assert lines == theirs[name], name


# -- 1. WMT XML: a reference segment of whitespace only -----------------------------------------------------
def test_a_whitespace_only_reference_keeps_its_segment_as_sacrebleu_does(tmp_path):
    path = tmp_path / "ws.xml"
    src = {1: "One two three.", 2: "Four five six.", 3: "Seven eight."}
    path.write_text(wmt_xml([("d1", src, {"A": {1: "Eins zwei drei.", 2: "   ", 3: "Sieben acht."}},
                                       {"s1": {1: "Eins zwei drei.", 2: "Vier fünf sechs.", 3: "Sieben."},
                                        "s2": {1: "Eins zwei.", 2: "", 3: "Sieben acht."}})]), encoding="utf-8")
    assert_same_as_sacrebleu(path)
    inputs = read_run_inputs([], [path])
    assert len(inputs.references[0].lines) == 3 and inputs.references[0].lines[1] == ""
    theirs = sacre_wmt_xml_fields(path)
    run = score_run(inputs.systems, inputs.references, RunConfig((BleuConfig(),), significance=None, ngram_diffs=False))
    for system in run.systems:
        expected = sacrebleu.corpus_bleu(theirs[system.file.field], [theirs["ref:A"]]).score
        assert system.results[0].corpus.score == pytest.approx(expected, abs=1e-9)


# -- 2. WMT XML: a comment or processing instruction inside <seg> -------------------------------------------
@pytest.mark.parametrize("markup", ["<!-- a note -->", "<?tool hint?>", "<b>bold</b>"])
def test_markup_inside_a_segment_cuts_it_where_lxml_does(tmp_path, markup):
    path = tmp_path / "c.xml"
    src = {1: "A cat sat on the mat.", 2: "A dog ran."}
    path.write_text(wmt_xml([("d1", src, {"A": {1: "Die Katze saß auf der Matte.", 2: "Ein Hund lief."}},
                                       {"s1": {1: f"Die Katze {markup} saß auf der Matte.", 2: "Ein Hund lief."}})]),
                    encoding="utf-8")
    assert_same_as_sacrebleu(path)
    corpus = corpus_of(path, "wmt-xml")
    note = next(n for n in corpus.notes if "only the text before" in n)
    assert "d1:1 (s1)" in note  # says which segment was cut, not only how many


# -- 3. Old WMT SGML: a lone CR inside a <seg> line ---------------------------------------------------------
def test_a_lone_cr_inside_an_sgml_segment_is_no_line_end(tmp_path):
    path = tmp_path / "t.sgm"
    text = ('<tstset setid="t" srclang="any" trglang="de">\n<doc docid="d1" sysid="s">\n'
            '<seg id="1">Eins zwei\rdrei vier.</seg>\n<seg id="2">Fünf sechs.</seg>\r\n</doc>\n</tstset>\n')
    path.write_bytes(text.encode("utf-8"))
    corpus = corpus_of(path, "sgml")
    assert corpus.translations[0].lines == sacre_sgml_segments(path) == ["Eins zwei drei vier.", "Fünf sechs."]


# -- 4. XLIFF 1.2: seg-source with mrk, but a plain target ---------------------------------------------------
def test_a_plain_target_beside_a_segmented_source_is_the_units_segment(tmp_path):
    path = tmp_path / "u.xlf"
    path.write_text(
        '<?xml version="1.0"?><xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
        '<file original="f" source-language="en" target-language="de"><body>'
        '<trans-unit id="1"><source>Hello there. Bye now.</source>'
        '<seg-source><mrk mtype="seg" mid="0">Hello there.</mrk> <mrk mtype="seg" mid="1">Bye now.</mrk></seg-source>'
        '<target>Hallo. Tschüss.</target></trans-unit>'
        '<trans-unit id="2"><source>One.</source><seg-source><mrk mtype="seg" mid="0">One.</mrk></seg-source>'
        '<target><mrk mtype="seg" mid="0">Eins.</mrk></target></trans-unit>'
        '</body></file></xliff>', encoding="utf-8")
    corpus = corpus_of(path, "xliff")
    assert corpus.translations[0].lines == ["Hallo. Tschüss.", "Eins."]
    assert corpus.context.source.lines == ["Hello there. Bye now.", "One."]
    assert any("plain <target>" in n for n in corpus.notes)


# -- 5. JSONL: rows of one document without segment ids, and documents matched by id ------------------------
def _jsonl(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def test_jsonl_rows_sharing_a_document_are_separate_segments(tmp_path, capsys):
    ref = _jsonl(tmp_path / "ref.jsonl", [{"doc_id": "d1", "reference": "the cat sat on the mat"},
                                          {"doc_id": "d1", "reference": "a dog ran in the park"}])
    hyp = _jsonl(tmp_path / "hyp.jsonl", [{"doc_id": "d1", "hypothesis": "the cat sat on a mat"},
                                          {"doc_id": "d1", "hypothesis": "one dog ran in the park today"}])
    code, out, err = cli(capsys, ref, "-i", hyp, "-b", "-w", "9")
    assert code == 0, err
    expected = sacrebleu.corpus_bleu(["the cat sat on a mat", "one dog ran in the park today"],
                                     [["the cat sat on the mat", "a dog ran in the park"]]).score
    assert float(out) == pytest.approx(expected, abs=1e-9)


def test_repeated_rows_merge_only_when_a_segment_id_says_so(tmp_path):
    path = _jsonl(tmp_path / "t.jsonl", [
        {"system": "s1", "doc_id": "d1", "seg_id": 1, "hypothesis": "a b", "reference": "a b c"},
        {"system": "s1", "doc_id": "d1", "seg_id": 1, "hypothesis": "a b", "reference": "a b c"},
        {"system": "s1", "doc_id": "d1", "seg_id": 2, "hypothesis": "d e", "reference": "d e f"}])
    inputs = read_run_inputs([], [path])
    assert inputs.systems[0].lines == ["a b", "d e"]


@pytest.mark.parametrize("hyp_docs", [["d2", "d1"], ["d1", "d3"]])
def test_jsonl_documents_are_matched_by_id_never_by_position(tmp_path, capsys, hyp_docs):
    ref = _jsonl(tmp_path / "ref.jsonl", [{"doc_id": "d1", "reference": "one two three"},
                                          {"doc_id": "d2", "reference": "four five six"}])
    hyp = _jsonl(tmp_path / "hyp.jsonl", [{"doc_id": d, "hypothesis": "one two three"} for d in hyp_docs])
    code, _out, err = cli(capsys, ref, "-i", hyp)
    assert code == 2
    assert "hyp.jsonl" in err and "ref.jsonl" in err and "d2" in err and "Traceback" not in err


# -- 6. JSONL: values that are not text ---------------------------------------------------------------------
@pytest.mark.parametrize("value, kind", [("null", "null"), ("3", "a number"),
                                         ('{"t": "x"}', "an object"), ("true", "true")])
def test_a_non_text_value_where_text_belongs_is_refused_naming_line_and_field(tmp_path, capsys, value, kind):
    ref = tmp_path / "ref.jsonl"
    ref.write_text('{"reference": "a b c"}\n{"reference": ' + value + "}\n", encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b c\na b c\n", encoding="utf-8")
    code, out, err = cli(capsys, ref, "-i", hyp)
    assert code == 2 and out == ""
    assert "ref.jsonl: line 2" in err and "'reference'" in err and kind in err
    assert "None" not in err or value == "null"


def test_nan_in_a_table_is_not_json_and_refused_naming_line_and_column(tmp_path, capsys):
    ref = tmp_path / "ref.jsonl"
    ref.write_text('{"reference": "a b c"}\n{"reference": NaN}\n', encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b c\na b c\n", encoding="utf-8")
    code, out, err = cli(capsys, ref, "-i", hyp)
    assert code == 2 and out == ""
    assert "ref.jsonl: line 2, column 15: NaN is not a JSON number" in err


def test_a_list_of_references_is_several_references(tmp_path, capsys):
    ref = _jsonl(tmp_path / "ref.jsonl", [{"references": ["the cat sat", "a cat sat"]},
                                          {"references": ["the dog ran", "one dog ran"]}])
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a cat sat\nthe dog ran fast\n", encoding="utf-8")
    code, out, err = cli(capsys, ref, "-i", hyp, "-b", "-w", "9")
    assert code == 0, err
    expected = sacrebleu.corpus_bleu(["a cat sat", "the dog ran fast"],
                                     [["the cat sat", "the dog ran"], ["a cat sat", "one dog ran"]]).score
    assert float(out) == pytest.approx(expected, abs=1e-9)


def test_lists_of_references_of_different_lengths_are_refused(tmp_path, capsys):
    ref = _jsonl(tmp_path / "ref.jsonl", [{"references": ["a", "b"]}, {"references": ["c"]}])
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a\nc\n", encoding="utf-8")
    code, _out, err = cli(capsys, ref, "-i", hyp)
    assert code == 2 and "line 2" in err and "references" in err


# -- 7. d2l: split(' '), as the textbook's code ------------------------------------------------------------
spaced = st.lists(st.sampled_from(["A", "B", "C", "", "\t", "D\u00a0E"]), min_size=0, max_size=8).map(" ".join)


@given(pred=spaced, label=spaced, k=st.integers(1, 4))
def test_d2l_equals_the_textbook_on_any_spacing(pred, label, k):
    ev = Bleu([[label]], BleuConfig(variant="d2l", max_order=k))
    ours = ev.sentence_rows(ev.statistics([pred])).score[0]
    expected = 100 * d2l_textbook(pred, label, k)
    assert math.isclose(ours, expected, rel_tol=1e-12, abs_tol=1e-12), (pred, label)


def test_d2l_details_count_the_empty_tokens_two_spaces_make():
    ev = Bleu([["a  b"]], BleuConfig(variant="d2l", max_order=2))
    details = ev.details(0, "a  b")
    assert details.hyp_tokens == ["a", "", "b"]


def test_other_variants_still_split_on_whitespace_runs():
    ev = Bleu([["a  b"]], BleuConfig(variant="nltk"))
    assert ev.details(0, "a  b").hyp_tokens == ["a", "b"]


def test_reading_errors_are_input_errors():
    with pytest.raises(InputError):
        read_run_inputs([], [])
