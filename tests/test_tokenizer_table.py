"""The tokenizer × case table: each cell equals sacreBLEU with that -tok and -lc, on a real set."""

import json

import pytest
from sacrebleu.metrics import BLEU

from bleu_gui.core import BleuConfig
from bleu_gui.core.analysis.tokenizer_table import TABLE_TOKENIZERS, tokenizer_table
from bleu_gui.core.inputs.text_files import SegmentFile
from bleu_gui.core.run import RunConfig, score_run, scored_already

from .conftest import data_set
from .test_cli import DEMO, cli, lines

N = 300  # lines of the real set: every cell is a full corpus score, twice (ours and sacreBLEU's)


def files(folder, names, n=N):
    return [SegmentFile(folder / name, lines(folder / name)[:n], "utf-8") for name in names]


@pytest.fixture(scope="module")
def en_ja():
    folder = data_set("wmt22-en-ja")
    systems, refs = files(folder, ["sys1.txt", "sys2.txt", "sys3.txt"]), files(folder, ["ref1.txt"])
    run = score_run(systems, refs, RunConfig((BleuConfig(),), significance=None, ngram_diffs=False))
    return run, tokenizer_table(scored_already(run), [r.lines for r in run.references])


def test_every_cell_equals_sacrebleu(en_ja):
    run, table = en_ja
    assert [tok for tok, lc in table.settings] == [t for t in TABLE_TOKENIZERS for _ in (0, 1)]
    assert table.unavailable == {}
    refs = [[line for line in r.lines] for r in run.references]
    for tok, lc in table.settings:
        metric = BLEU(tokenize=tok, lowercase=lc)
        for i, system in enumerate(run.systems):
            theirs = metric.corpus_score(system.lines, refs)
            assert table.scores[(tok, lc)][i] == pytest.approx(theirs.score, abs=1e-9), (tok, lc, system.name)
        assert table.signatures[(tok, lc)] == metric.get_signature().format()


def test_deltas_and_winner_flips(en_ja):
    run, table = en_ja
    assert table.current == ("13a", False)
    for setting in table.settings:
        for i in range(3):
            assert table.delta(setting, i) == table.scores[setting][i] - run.systems[i].results[0].corpus.score
    # Japanese scored with 13a (no word boundaries) against ja-mecab: the README of the data says the
    # winner between sys1 and sys3 changes; the table must say so for exactly the settings where it does.
    for a, b in ((0, 1), (0, 2), (1, 2)):
        expected = [s for s in table.settings
                    if (table.scores[s][a] > table.scores[s][b]) != (run.systems[a].results[0].corpus.score >
                                                                      run.systems[b].results[0].corpus.score)]
        assert table.flips(a, b) == expected
    assert ("ja-mecab", False) in table.flips(0, 2)
    assert table.ranking(("13a", False))[0] == 0 and table.ranking(("ja-mecab", False))[0] == 2


def test_exports(en_ja):
    _run, table = en_ja
    records = json.loads(table.to_json())
    assert len(records) == len(table.settings) * 3
    assert set(records[0]) == {"tokenizer", "lowercase", "system", "score", "signature"}
    csv_lines = table.to_csv().splitlines()
    assert csv_lines[0] == "tokenizer,lowercase,system,score,delta,signature" and len(csv_lines) == len(records) + 1
    latex = table.to_latex()
    assert latex.startswith("\\begin{tabular}{llrrr}") and "ja-mecab" in latex and "\\bottomrule" in latex


def test_cli_tokenizer_table_json(capsys):
    code, out, err = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", DEMO / "system-b.txt",
                         "--tokenizer-table", "-f", "json")
    assert code == 0, err
    records = json.loads(out)
    refs = [lines(DEMO / "ref1.txt")]
    for r in records:
        assert set(r) == {"tokenizer", "lowercase", "system", "score", "signature"}
        theirs = BLEU(tokenize=r["tokenizer"], lowercase=r["lowercase"]).corpus_score(
            lines(DEMO / r["system"]), refs)
        assert r["score"] == pytest.approx(theirs.score, abs=1e-9)
    assert {(r["tokenizer"], r["lowercase"]) for r in records} == {(t, lc) for t in TABLE_TOKENIZERS
                                                                     for lc in (False, True)}


def test_cli_tokenizer_table_text(capsys):
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", "--tokenizer-table")
    assert code == 0
    assert out.splitlines()[1].startswith("13a *") and "Signatures:" in out


def test_cli_explain(capsys):
    code, out, err = cli(capsys, DEMO / "ref1.txt", DEMO / "ref2.txt", "-i", DEMO / "system-b.txt", "--explain", "4")
    assert code == 0, err
    assert out.startswith("Sentence 4 — system-b.txt\nSentence BLEU ")
    assert "Brevity penalty:" in out and "Clipping:" in out
    code, out, err = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-b.txt", "--explain", "4", "-f", "json")
    assert json.loads(out)[0]["sentence"] == 4


@pytest.mark.parametrize("extra,message", [
    (["--explain", "0"], "from 1"),
    (["--explain", "99999"], "sentences"),
    (["--explain", "2", "-sl"], "not with -sl"),
    (["--explain", "2", "--tokenizer-table"], "not several"),
    (["--tokenizer-table", "-f", "multi-bleu"], "no multi-bleu form"),
])
def test_cli_views_refuse_what_they_would_drop(capsys, extra, message):
    code, _out, err = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", *extra)
    assert code == 2 and message in err and "Traceback" not in err
