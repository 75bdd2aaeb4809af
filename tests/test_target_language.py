"""BLEU's tokenizer follows the declared target language as ``sacrebleu -l`` does: zh, ja-mecab, ko-mecab.

The oracle is sacreBLEU's own BLEU with ``trg_lang`` and no tokenizer, on the same lines.
"""

from __future__ import annotations

import pytest
from sacrebleu.metrics import BLEU

from bleu_gui.core import BleuConfig

from .conftest import cli, data_set
from .oracles import sacre_wmt_xml_fields


def score_of(line: str) -> float:
    return float(line.split(" = ")[1].split()[0])


@pytest.mark.slow
def test_wmt_xml_lang_chooses_zh_as_sacrebleu_does(capsys):
    path = data_set("formats") / "wmt-xml-wmt22-en-zh" / "wmttest2022.en-zh.all.xml"
    code, out, err = cli(capsys, path, "--systems", "DLUT", "--refs", "A", "-w", "6")
    assert code == 0
    assert "tokenizer zh for target language zh" in err and "sacrebleu -l en-zh" in err
    assert "|tok:zh|" in out
    fields = sacre_wmt_xml_fields(path)
    expected = BLEU(trg_lang="zh").corpus_score(fields["DLUT"], [fields["ref:A"]]).score
    assert score_of(out) == pytest.approx(expected, abs=1e-6)
    assert expected != pytest.approx(BLEU().corpus_score(fields["DLUT"], [fields["ref:A"]]).score, abs=0.1)


def test_a_tokenizer_given_wins_over_the_language(capsys):
    path = data_set("formats") / "wmt-xml-wmt22-en-zh" / "wmttest2022.en-zh.all.xml"
    code, out, err = cli(capsys, path, "--systems", "DLUT", "--refs", "A", "-tok", "13a")
    assert code == 0
    assert "|tok:13a|" in out and "target language" not in err


def test_plain_text_with_langs_is_sacrebleu_l_en_ja(capsys):
    folder = data_set("wmt22-en-ja")
    code, out, err = cli(capsys, folder / "ref1.txt", "-i", folder / "sys1.txt", "--langs", "en", "ja", "-w", "6")
    assert code == 0
    assert "tokenizer ja-mecab for target language ja (given)" in err
    hyps = (folder / "sys1.txt").read_text(encoding="utf-8").splitlines()
    refs = (folder / "ref1.txt").read_text(encoding="utf-8").splitlines()
    expected = BLEU(trg_lang="ja").corpus_score(hyps, [refs])
    assert score_of(out) == pytest.approx(expected.score, abs=1e-6)
    assert "|tok:ja-mecab" in out
    code, out, err = cli(capsys, folder / "ref1.txt", "-i", folder / "sys1.txt", "-w", "6")
    assert "|tok:13a|" in out and "target language" not in err


def test_tmx_target_chosen_with_langs_picks_ja_mecab(capsys):
    path = data_set("formats") / "tmx-lisa-compliance-kit" / "ImportTest1C.tmx"
    code, out, err = cli(capsys, path, "-i", path, "--langs", "en-us", "ja-jp", "--allow-identical-refs")
    assert code == 0, err
    assert "tokenizer ja-mecab for target language ja-jp" in err and "sacrebleu -l en-us-ja" in err


def test_xliff_target_language_with_a_region_is_its_language(capsys):
    path = data_set("formats") / "xliff12-symfony-validators" / "validators.zh_CN.xlf"
    code, out, err = cli(capsys, path, "-i", path, "--allow-identical-refs")
    assert code == 0, err
    assert "tokenizer zh for target language zh-CN" in err and "|tok:zh|" in out


def test_other_languages_and_other_variants_keep_their_default():
    assert BleuConfig().for_target_language(("en", "de"))[0].tokenizer is None
    assert BleuConfig().for_target_language(("en", ""))[0].tokenizer is None
    assert BleuConfig(variant="nltk").for_target_language(("en", "zh"))[0].tokenizer is None
    assert BleuConfig(tokenizer="char").for_target_language(("en", "ja"))[0].tokenizer == "char"
    assert BleuConfig().for_target_language(("en", "ko_KR"))[0].tokenizer == "ko-mecab"
    assert BleuConfig().for_target_language(("en", "zh-Hant-TW"))[0].tokenizer == "zh"
