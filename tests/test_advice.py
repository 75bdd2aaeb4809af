"""sacreBLEU's tokenizer advice: given when CJK script is at least half of the references' letters, and only then."""

import pytest

from bleu_gui.core.metrics.bleu.config import BleuConfig, tokenizer_advice


@pytest.mark.parametrize("line, advised", [
    ("ab 中文字", "zh"),            # 3 of 5 letters are Han
    ("abcdef 中文字", None),         # 3 of 9: exactly twice as many ASCII letters, so they are counted in full
    ("abcdefg 中文字", None),        # 3 of 10
    ("1234567, 8 中", "zh"),        # digits and punctuation are not letters: 1 of 1
    ("ａｂｃ 中文", None),             # fullwidth Latin letters are letters, though not ASCII: 2 of 5
    ("ａｂ 中文", "zh"),               # 2 of 4
    ("abc ひらがな", "char"),          # Japanese; ja-mecab stands in as char when MeCab is not installed
])
def test_advice_follows_the_share_of_cjk_among_all_letters(line, advised):
    found = tokenizer_advice([[line, line]], BleuConfig())
    name = found[0] if found else None
    if advised == "char" and name == "ja-mecab":
        advised = "ja-mecab"
    assert name == advised


def test_no_advice_unless_the_tokenizer_is_13a():
    assert tokenizer_advice([["中文字"]], BleuConfig(tokenizer="char")) is None


def test_a_missing_mecab_extra_gets_the_readmes_install_hint(monkeypatch):
    from pathlib import Path

    from bleu_gui.core.metrics.bleu import config

    monkeypatch.setattr(config, "tokenizer_available", lambda name: False)
    found = tokenizer_advice([["ひらがなとカタカナ"]], BleuConfig())
    assert found is not None and found[0] == "char"
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    for hint in ("pip install 'bleu-gui[ja]'", "pip install -e '.[ja]'"):
        assert hint in found[1] and hint in readme
