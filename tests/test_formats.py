"""Readers of structured formats, on the real files in ../shared/data/formats.

The oracle for WMT XML and SGML is each folder's EXPECTED.md: figures computed
with sacreBLEU's own data-set code. For the other formats, what a reader
extracts is checked against the file's content read another way, and scores
against sacreBLEU on the extracted lines.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
import sacrebleu

from bleu_gui.core import BleuConfig, InputError, RunConfig, score_run
from bleu_gui.core.inputs.run_inputs import read_run_inputs

from .conftest import corpus_of, data_set

_ROW = re.compile(r"^\| (\S[^|]*?) \| (\S[^|]*?) \| (13a|zh|intl|char) \| ([0-9.]+) \| `nrefs:(\d)")


def expected_rows(folder: Path) -> list[tuple[str, str, str, float]]:
    """(hypothesis, reference(s), tokenizer, BLEU) rows of the folder's EXPECTED.md tables."""
    rows = []
    for line in (folder / "EXPECTED.md").read_text(encoding="utf-8").splitlines():
        m = _ROW.match(line)
        if m:
            rows.append((m.group(1), m.group(2), m.group(3), float(m.group(4))))
    assert rows, f"no score rows found in {folder / 'EXPECTED.md'}"
    return rows


WMT_XML = [("wmt-xml-wmt22-en-zh", "wmttest2022.en-zh.all.xml", 2037, 181),
           ("wmt-xml-wmt21-ru-en", "newstest2021.ru-en.all.xml", 1000, 107),
           ("wmt-xml-wmt22-liv-en", "wmttest2022.liv-en.all.xml", 420, 420)]


@pytest.mark.slow
@pytest.mark.parametrize(("folder", "name", "segments", "documents"), WMT_XML)
def test_wmt_xml_scores_equal_sacrebleu_dataset_reading(folder, name, segments, documents):
    root = data_set("formats") / folder
    inputs = read_run_inputs([], [root / name])
    assert len(inputs.systems[0].lines) == segments
    assert inputs.context.docs is not None and len(set(inputs.context.docs)) == documents
    assert inputs.context.source is not None and len(inputs.context.source.lines) == segments
    by_ref = {r.field: r for r in inputs.references}
    rows = expected_rows(root)
    checked = 0
    for tokenizer in sorted({r[2] for r in rows}):
        for ref_key in sorted({r[1] for r in rows if r[2] == tokenizer}):
            refs = [by_ref[k] for k in ref_key.split("+")]
            config = RunConfig((BleuConfig(tokenizer=tokenizer),), significance=None, ngram_diffs=False)
            run = score_run(inputs.systems, refs, config, context=inputs.context)
            scores = {s.name: s.results[0].corpus.score for s in run.systems}
            for system, ref, tok, bleu in rows:
                if tok == tokenizer and ref == ref_key:
                    assert scores[system] == pytest.approx(bleu, abs=1e-9), (system, ref, tok)
                    checked += 1
    assert checked == len(rows)


def test_wmt_xml_systems_and_references_by_name():
    root = data_set("formats") / "wmt-xml-wmt21-ru-en"
    inputs = read_run_inputs([], [root / "newstest2021.ru-en.all.xml"], refs_wanted=["B"],
                             systems_wanted=["Online-B", "NiuTrans"])
    assert [s.field for s in inputs.systems] == ["Online-B", "NiuTrans"]
    assert [r.field for r in inputs.references] == ["ref:B"]
    run = score_run(inputs.systems, inputs.references, RunConfig((BleuConfig(),), significance=None), context=inputs.context)
    expected = {s: b for s, r, t, b in expected_rows(root) if r == "ref:B"}
    assert [s.name for s in run.systems] == ["Online-B", "NiuTrans"]
    for s in run.systems:
        assert s.results[0].corpus.score == pytest.approx(expected[s.name], abs=1e-9)
    assert any("test-suite" in n for n in run.notes)  # the 9 skipped TED documents are said
    with pytest.raises(InputError, match="no system named 'Nobody'.*Facebook-AI"):
        read_run_inputs([], [root / "newstest2021.ru-en.all.xml"], systems_wanted=["Nobody"])


def _wmt(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "set.xml"
    path.write_text(f'<?xml version="1.0" encoding="utf-8"?>\n<dataset id="t">\n{body}\n</dataset>\n',
                    encoding="utf-8")
    return path


def _doc(doc_id: str, src: list[str], refs: dict[str, list[str]], hyps: dict[str, list[str]], extra: str = "") -> str:
    def segs(lines: list[str]) -> str:
        return "<p>" + "".join(f'<seg id="{i + 1}">{t}</seg>' for i, t in enumerate(lines) if t is not None) + "</p>"

    parts = [f'<src lang="en">{segs(src)}</src>']
    parts += [f'<ref lang="de" translator="{t}">{segs(lines)}</ref>' for t, lines in refs.items()]
    parts += [f'<hyp lang="de" system="{s}">{segs(lines)}</hyp>' for s, lines in hyps.items()]
    return f'<doc id="{doc_id}" origlang="en"{extra}>{"".join(parts)}</doc>'


def test_wmt_xml_rules_for_missing_text(tmp_path):
    """sacreBLEU's rules, by hand: a segment no reference has text for is dropped from every field; a
    translator lacking a segment gives ''; test-suite documents are skipped."""
    path = _wmt(tmp_path, "\n".join([
        _doc("d1", ["a b", "c d", "e f"], {"A": ["a b", "", "e f"], "B": ["a b", "", None]},
             {"S1": ["a b", "x", "e g"], "S2": ["a", "y", "e"]}),
        _doc("ts", ["q"], {"A": ["q"]}, {"S1": ["q"], "S2": ["q"]}, extra=' testsuite="ted"'),
    ]))
    inputs = read_run_inputs([], [path])
    assert [s.lines for s in inputs.systems] == [["a b", "e g"], ["a", "e"]]
    assert {r.field: r.lines for r in inputs.references} == {"ref:A": ["a b", "e f"], "ref:B": ["a b", ""]}
    assert inputs.context.docs == ("d1", "d1")
    assert inputs.context.source is not None and inputs.context.source.lines == ["a b", "e f"]


def test_a_docs_file_of_domain_and_document_as_wmt_writes_them(tmp_path):
    """WMT's and mt-metrics-eval's ``.docs`` files say ``domain<TAB>document`` per line: the document is the id, the
    domain a field of the slices (it was read as one id, "news\ttest-en-…")."""
    for name, lines in (("ref", ["a", "b", "c"]), ("hyp", ["a", "b", "d"])):
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "two.docs").write_text("news\tn.1\nnews\tn.1\nspeech\ts.7\n", encoding="utf-8")
    inputs = read_run_inputs([tmp_path / "hyp.txt"], [tmp_path / "ref.txt"], docs=tmp_path / "two.docs")
    assert inputs.context.docs == ("n.1", "n.1", "s.7") and inputs.context.meta == {"domain": ("news", "news", "speech")}
    (tmp_path / "one.docs").write_text("d1\nd1\nd2\n", encoding="utf-8")  # sacreBLEU's: one id a line
    inputs = read_run_inputs([tmp_path / "hyp.txt"], [tmp_path / "ref.txt"], docs=tmp_path / "one.docs")
    assert inputs.context.docs == ("d1", "d1", "d2") and inputs.context.meta == {}
    (tmp_path / "mixed.docs").write_text("news\tn.1\nn.1\nspeech\ts.7\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"mixed\.docs: line 2: .*domain.*tab"):
        read_run_inputs([tmp_path / "hyp.txt"], [tmp_path / "ref.txt"], docs=tmp_path / "mixed.docs")


def test_wmt24s_docs_file_gives_its_documents_and_domains():
    root = data_set("esa-wmt24-en-zh-en-hi") / "en-zh"
    inputs = read_run_inputs([root / "systems" / "Aya23.txt"], [root / "ref.txt"], docs=root / "documents.tsv")
    assert inputs.context.docs is not None and inputs.context.docs[1] == "test-en-news_beverly_press.3585"
    assert not any("\t" in d for d in inputs.context.docs)
    assert set(inputs.context.meta["domain"]) >= {"news", "canary"}


@pytest.mark.slow
def test_each_documents_score_is_sacrebleus_corpus_score_of_its_segments():
    from bleu_gui.core.analysis.documents import document_scores
    from bleu_gui.core.metrics.chrf.config import ChrfConfig
    from bleu_gui.core.metrics.ter.config import TerConfig

    root = data_set("formats") / "wmt-xml-wmt21-ru-en"
    inputs = read_run_inputs([], [root / "newstest2021.ru-en.all.xml"])
    refs = inputs.references[:2]  # two references: TER's lengths are their means, fractions
    config = RunConfig((BleuConfig(), ChrfConfig(), TerConfig()), significance=None, ngram_diffs=False)
    run = score_run(inputs.systems[:2], refs, config, context=inputs.context)
    oracles = [sacrebleu.BLEU(), sacrebleu.CHRF(), sacrebleu.TER()]
    for k, (metric, oracle) in enumerate(zip(run.metrics, oracles)):
        found = document_scores(run.context.docs, [s.results[k].stats for s in run.systems], metric)
        assert found is not None and len(found.ids) == 107
        for d in (0, 1, 50, 106):  # the first, a middle and the last document
            rows = found.rows[d].tolist()
            for i, system in enumerate(run.systems):
                want = oracle.corpus_score([system.lines[j] for j in rows], [[r.lines[j] for j in rows] for r in refs])
                assert found.scores[i, d] == want.score, (metric.name, found.ids[d], system.name)


def test_wmt_xml_system_missing_a_document_or_segment_is_named(tmp_path):
    missing_doc = _wmt(tmp_path, _doc("d1", ["a"], {"A": ["a"]}, {"S1": ["a"], "S2": ["a"]})
                       + _doc("d2", ["b"], {"A": ["b"]}, {"S1": ["b"]}))
    with pytest.raises(InputError, match=r"'S2' lacks d2"):
        read_run_inputs([], [missing_doc])
    missing_seg = _wmt(tmp_path, _doc("d1", ["a", "b"], {"A": ["a", "b"]}, {"S1": ["a", "b"], "S2": ["a", None]}))
    with pytest.raises(InputError, match=r"system 'S2' lacks segment 2 of document 'd1'"):
        read_run_inputs([], [missing_seg])


@pytest.mark.parametrize("name", ["newstest2014-deen", "usaar"])
def test_sgml_scores_equal_expected(name):
    if name == "usaar":
        root = data_set("formats") / "sgml-wmt15-usaar-tstset-ende"
    else:
        root = data_set("formats") / "sgml-wmt14-newstest2014-deen"
    for hyp, ref, tokenizer, bleu in expected_rows(root):
        hyp_file = root / hyp.split(" ")[0]
        inputs = read_run_inputs([hyp_file], [root / ref], allow_identical=hyp_file.name == ref)
        run = score_run(inputs.systems, inputs.references, RunConfig((BleuConfig(tokenizer=tokenizer),), significance=None))
        assert run.systems[0].results[0].corpus.score == pytest.approx(bleu, abs=1e-9), (hyp, ref)


def test_sgml_reads_documents_and_system_ids():
    root = data_set("formats") / "sgml-wmt15-usaar-tstset-ende"
    corpus = corpus_of(root / "output.ultron.ende.de.sgm", "sgml")
    assert corpus.translations[0].field == "usaar-ultron"  # the first of two sysid attributes
    assert corpus.context.docs is not None and len(set(corpus.context.docs)) == 81
    assert corpus.context.docs[0] == "1012-bbc"
    src = corpus_of(data_set("formats") / "sgml-wmt14-newstest2014-deen" / "newstest2014-deen-src.de.sgm", "sgml")
    assert src.context.source is not None
    assert src.context.source.lines[0] == "Gutach: Noch mehr Sicherheit für Fußgänger"


def test_sgml_source_beside_reference_and_system():
    root = data_set("formats") / "sgml-wmt14-newstest2014-deen"
    inputs = read_run_inputs([root / "newstest2014-deen-src.en.sgm"], [root / "newstest2014-deen-ref.de.sgm"],
                             source=root / "newstest2014-deen-src.de.sgm")
    assert inputs.context.source is not None and inputs.context.source.lines[0].startswith("Gutach: Noch")


def test_mqm_tsv_long_format_grouped_by_system():
    root = data_set("formats") / "tsv-mqm-wmt"
    path = root / "mqm_ted_ende.head588lines.tsv"
    inputs = read_run_inputs([], [path], refs_wanted=["ref"])
    names = [s.field for s in inputs.systems]
    assert "ref" not in names and len(names) == 13
    assert [r.field for r in inputs.references] == ["ref"]
    # The oracle: every system's first rated row for each segment, read with the csv module, marks taken out.
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    first: dict[tuple[str, str, str], str] = {}
    for row in rows:
        first.setdefault((row["system"], row["doc"], row["seg_id"]), re.sub("</?v>", "", row["target"]))
    keys = list(dict.fromkeys((r["doc"], r["seg_id"]) for r in rows))
    lines = {s: [first[(s, d, i)] for d, i in keys] for s in {r["system"] for r in rows}}
    for system in inputs.systems:
        assert system.lines == lines[system.field]
    run = score_run(inputs.systems, inputs.references, RunConfig((BleuConfig(),), significance=None))
    for s in run.systems:
        assert s.results[0].corpus.score == pytest.approx(sacrebleu.corpus_bleu(lines[s.name], [lines["ref"]]).score, abs=1e-9)
    assert any("<v>" in n for n in run.notes + inputs.context.notes)


def test_tsv_system_missing_segments_is_named():
    path = data_set("formats") / "tsv-mqm-wmt" / "mqm_newstest2020_ende.source-errors.tsv"
    with pytest.raises(InputError, match=r"system 'Tohoku-AIP-NTT.890' lacks 51 of the 129 segments"):
        read_run_inputs([], [path], refs_wanted=["Human-A.0"])


def test_jsonl_documents_scored_as_sacrebleu(tmp_path):
    path = data_set("formats") / "jsonl-wmt25-system-outputs" / "Kaze-MT.jsonl"
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    corpus = corpus_of(path)
    (system,) = corpus.systems
    assert system.field == records[0]["system"]
    assert system.lines == [r["hypothesis"] for r in records]
    assert corpus.context.docs == tuple(r["doc_id"] for r in records)
    # A pseudo-reference: the same documents with their first paragraph only.
    ref = tmp_path / "ref.jsonl"
    ref.write_text("\n".join(json.dumps({"doc_id": r["doc_id"], "reference": r["hypothesis"].split("\n")[0]})
                             for r in records), encoding="utf-8")
    inputs = read_run_inputs([path], [ref])
    run = score_run(inputs.systems, inputs.references, RunConfig((BleuConfig(tokenizer="zh"),), significance=None))
    oracle = sacrebleu.corpus_bleu(system.lines, [[r["hypothesis"].split("\n")[0] for r in records]], tokenize="zh")
    assert run.systems[0].results[0].corpus.score == pytest.approx(oracle.score, abs=1e-9)


def test_jsonl_errors_name_the_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"hypothesis": "a"}\n{"hypothesis": \n', encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.jsonl: line 2, column \d+: not JSON"):
        read_run_inputs([], [bad])
    ragged = tmp_path / "r.tsv"
    ragged.write_text("source\ttarget\na\tb\nc\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"r.tsv: line 3: 1 fields, the header has 2"):
        read_run_inputs([], [ragged])


def test_wmt_xml_segment_with_an_element_inside_is_read_as_sacrebleu_and_said(tmp_path):
    path = _wmt(tmp_path, _doc("d1", ["a b <b>c</b> d"], {"A": ["a b"]}, {"S1": ["a"], "S2": ["b"]}))
    inputs = read_run_inputs([], [path])
    assert inputs.context.source is not None and inputs.context.source.lines == ["a b"]  # seg.text only
    assert any("1 segment(s) hold an element" in n and "d1:1 (source)" in n for n in inputs.context.notes)


def test_a_table_says_the_encoding_it_was_read_with(tmp_path):
    path = tmp_path / "t.tsv"
    path.write_text("source\ttarget\treference\nEin Bär\tA bear\tThe bear\n", encoding="cp1252")
    (system,) = read_run_inputs([], [path], encoding="auto").systems
    assert system.detected and system.encoding not in ("auto", "utf-8")
    assert system.lines == ["A bear"]
