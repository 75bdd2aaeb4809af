"""Slices re-score: a document or metadata value gives the corpus BLEU and paired tests of that subset,
equal to sacreBLEU's on the same lines; the command line reads every format."""

from __future__ import annotations

import csv
import io
import json

import pytest
import sacrebleu

from bleu_gui.cli.bleu_score import run as cli
from bleu_gui.core import BleuConfig, InputError, RunConfig, Significance, score_run
from bleu_gui.core.inputs.run_inputs import read_run_inputs
from bleu_gui.core.output.exports import sentences_file
from bleu_gui.core.run import subset_run
from bleu_gui.core.where import where_rows

from .conftest import data_set
from .test_significance import assert_same, sacre_paired

EN_ZH = "wmt-xml-wmt22-en-zh/wmttest2022.en-zh.all.xml"


@pytest.fixture(scope="module")
def en_zh():
    path = data_set("formats") / EN_ZH
    return read_run_inputs([], [path], refs_wanted=["A"], systems_wanted=["Online-B", "Online-A"])


def test_a_domain_slice_equals_sacrebleu_on_the_subset(en_zh):
    cfg = BleuConfig(tokenizer="zh")
    whole = score_run(en_zh.systems, en_zh.references, RunConfig((cfg,), significance=Significance(1000, 10000)),
                      context=en_zh.context)
    rows, _said = where_rows(whole, ["domain=news"])
    assert 0 < len(rows) < whole.n_sentences
    part = subset_run(whole, rows, "domain = news")
    hyps = [[s.lines[i] for i in rows] for s in en_zh.systems]
    refs = [[en_zh.references[0].lines[i] for i in rows]]
    for system, lines in zip(part.systems, hyps):
        assert system.results[0].corpus.score == pytest.approx(sacrebleu.corpus_bleu(lines, refs, tokenize="zh").score,
                                                    abs=1e-9)
    assert part.comparison is not None
    assert_same(part.comparison.by_metric[0].bootstrap, sacre_paired(hyps, refs, cfg, "bs", 1000))
    assert_same(part.comparison.by_metric[0].approximate, sacre_paired(hyps, refs, cfg, "ar", 10000))
    assert part.slice is not None and part.slice.whole[0] == tuple(s.results[0].corpus.score for s in whole.systems)
    assert part.context.docs is not None and part.line_number(0) == rows[0] + 1
    assert set(part.context.meta["domain"]) == {"news"}


def test_slice_export_keeps_line_numbers_text_and_says_which_slice(en_zh):
    whole = score_run(en_zh.systems, en_zh.references, RunConfig((BleuConfig(tokenizer="zh"),), significance=None),
                      context=en_zh.context)
    doc = whole.context.docs[-1]
    part = subset_run(whole, where_rows(whole, [f"doc = '{doc}'"])[0], f"doc = {doc}")
    rows = list(csv.DictReader(io.StringIO(sentences_file(part, "x.csv"))))
    first = whole.context.docs.index(doc)
    assert rows[0]["index"] == str(first + 1) and rows[0]["doc"] == doc
    assert rows[0]["source"] == en_zh.context.source.lines[first]
    assert rows[0]["Online-B:text"] == en_zh.systems[0].lines[first]
    assert rows[0]["reference:ref:A"] == en_zh.references[0].lines[first]
    assert rows[0]["slice"].startswith(f"slice: doc = {doc}")
    meta = json.loads(sentences_file(part, "x.json"))
    assert meta["slice"].startswith("slice: doc = ")


def test_select_names_the_columns_it_has(en_zh):
    whole = score_run(en_zh.systems, en_zh.references, RunConfig((BleuConfig(),), significance=None),
                      context=en_zh.context)
    with pytest.raises(InputError, match=r"no field 'genre': not a metadata column \(doc, origlang, domain\)"):
        where_rows(whole, ["genre=news"])
    with pytest.raises(InputError, match="no segment has domain = poetry"):
        where_rows(whole, ["domain=poetry"])


def test_cli_scores_every_system_of_an_xml_file_as_json(capsys):
    path = data_set("formats") / "wmt-xml-wmt22-liv-en" / "wmttest2022.liv-en.all.xml"
    assert cli([str(path), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    results = json.loads(out)
    assert [r["system"] for r in results] == ["Liv4ever", "TAL-SJTU", "TartuNLP", "NiuTrans", "HuaweiTSC"]
    assert results[1]["score"] == pytest.approx(30.406700431163458, abs=1e-9)  # EXPECTED.md
    assert "source:" in err


def test_cli_where_prints_the_slice_beside_the_whole(capsys):
    path = data_set("formats") / EN_ZH
    assert cli([str(path), "--refs", "B", "--systems", "Online-B", "-tok", "zh", "--where", "domain=social", "-b"]) == 0
    out, err = capsys.readouterr()
    inputs = read_run_inputs([], [path], refs_wanted=["B"], systems_wanted=["Online-B"])
    keep = [i for i, d in enumerate(inputs.context.meta["domain"]) if d == "social"]
    oracle = sacrebleu.corpus_bleu([inputs.systems[0].lines[i] for i in keep],
                                   [[inputs.references[0].lines[i] for i in keep]], tokenize="zh")
    assert out.strip() == f"{oracle.score:.2f}"
    assert f"slice: domain = social ({len(keep):,} of 2,037 segments); the whole corpus scored Online-B 73.72" in err


@pytest.mark.parametrize(("args", "message"), [
    (["--where", "origlang"], "at position 9: expected an operator"),
    (["--column", "colour=x"], "ROLE one of source, candidate"),
    (["--systems", "Nobody"], "no system named 'Nobody'"),
])
def test_cli_input_flags_refuse_clearly(capsys, args, message):
    path = data_set("formats") / "wmt-xml-wmt22-liv-en" / "wmttest2022.liv-en.all.xml"
    assert cli([str(path), *args]) == 2
    assert message in capsys.readouterr().err


def test_cli_xliff_candidate_against_text_reference(tmp_path, capsys):
    xlf = data_set("formats") / "xliff12-symfony-validators" / "validators.de.xlf"
    ref = tmp_path / "ref.de.txt"
    inputs = read_run_inputs([xlf], [xlf], allow_identical=True)
    ref.write_text("\n".join(line.replace("Wert", "Inhalt") for line in inputs.systems[0].lines) + "\n",
                   encoding="utf-8")
    assert cli([str(ref), "-i", str(xlf), "-b"]) == 0
    out = capsys.readouterr().out
    oracle = sacrebleu.corpus_bleu(inputs.systems[0].lines, [ref.read_text(encoding="utf-8").splitlines()])
    assert out.strip() == f"{oracle.score:.2f}"
