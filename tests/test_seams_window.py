"""Trust at the seams in the window (issue 45): "no scores" where a system has none, TER advised on Chinese and
Japanese and followed in one click, every metric's settings badged, never carried to other files unasked, and
every field of every metric's settings kept in the settings file."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from sacrebleu.metrics import TER

from bleu_gui.core import BleuConfig, RunConfig
from bleu_gui.core.inputs.run_inputs import InputRequest
from bleu_gui.core.metrics.chrf.chrf import ChrfConfig
from bleu_gui.core.metrics.ter.ter import TerConfig
from bleu_gui.gui.shell.settings import Settings
from bleu_gui.gui.state import OpenChoice

from .conftest import data_set


def test_ter_is_advised_on_japanese_and_chinese_but_not_korean_or_latin_text():
    said = TerConfig().advice([["これは日本語の文です。"]], "ja")
    assert said is not None and said.config == TerConfig(asian_support=True, normalized=True)
    assert "Asian support alone changes nothing" in said.text
    by_script = TerConfig().advice([["这是中文句子。"] * 3], "")
    assert by_script is not None and "Chinese script" in by_script.text
    assert TerConfig().advice([["이것은 한국어 문장입니다."]], "ko") is None  # written with spaces
    assert TerConfig().advice([["A sentence."]], "en") is None
    assert TerConfig(asian_support=True, normalized=True).advice([["これは日本語の文です。"]], "ja") is None
    off = TerConfig(asian_support=True).advice([["A sentence."]], "en")
    assert off is not None and off.config == TerConfig()


def test_the_command_advises_asian_support_for_ter_on_japanese(capsys):
    from bleu_gui.cli.bleu_score import run

    folder = data_set("wmt22-en-ja")
    code = run([str(folder / "ref1.txt"), "-i", str(folder / "sys1.txt"), "-m", "ter", "--langs", "en", "ja"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "advice: the target language is Japanese: TER splits words at spaces" in err


def test_badges_name_chrf_and_ter_settings_that_are_not_the_defaults():
    assert ChrfConfig(word_order=2, lowercase=True).non_default() == ["chrF word order: 2", "chrF lowercased"]
    assert TerConfig(asian_support=True, normalized=True).non_default() == ["TER Asian support", "TER normalized"]
    assert TerConfig().non_default() == ChrfConfig().non_default() == []


def test_every_field_of_every_metrics_settings_is_kept_but_what_follows_the_files(tmp_path):
    path = tmp_path / "s.ini"
    settings = Settings(QSettings(str(path), QSettings.Format.IniFormat))
    bleu = BleuConfig(variant="nltk", tokenizer="ja-mecab", lowercase=True, max_order=3, nltk_smoothing=7,
                      weights=(0.5, 0.3, 0.2), auto_reweigh=True, nltk_epsilon=0.2, nltk_alpha=4.0, nltk_k=3.0,
                      empty_refs="missing").validated()
    chrf = ChrfConfig(char_order=5, word_order=2, beta=3, whitespace=True, lowercase=True, eps_smoothing=True)
    ter = TerConfig(case_sensitive=True, asian_support=True, no_punct=True, normalized=True)
    settings.set_metrics((bleu, chrf, ter))
    settings.sync()
    again = Settings(QSettings(str(path), QSettings.Format.IniFormat))
    assert again.metrics() == (bleu.for_other_files(), chrf, ter.for_other_files()) and not again.problems
    assert again.metrics()[0].empty_refs == "missing" and again.metrics()[0].tokenizer is None


def _head(folder, names, out, n=40):
    """The first ``n`` lines of ``names`` of a shared set, under ``out``: the advice and the numbers need no more
    (test_chrf_ter compares TER with Asian support on 60 lines of each CJK set). sacreBLEU's own TER search is slow
    on Japanese split into characters: 400 lines took 15 s of the suite, almost all of it the oracle's."""
    out.mkdir()
    for name in names:
        lines = (folder / name).read_text(encoding="utf-8").splitlines()[:n]
        (out / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return out


def test_one_click_follows_the_ter_advice_and_other_files_start_without_it(qtbot, window, tmp_path):
    ja = _head(data_set("wmt22-en-ja"), ("sys1.txt", "ref1.txt"), tmp_path / "ja")
    zh = _head(data_set("wmt22-zh-en-2ref"), ("sys1.txt", "ref1.txt", "ref2.txt"), tmp_path / "zh")
    window.controller.choose_scoring((BleuConfig(), TerConfig()))
    request = InputRequest(systems=(str(ja / "sys1.txt"),), references=(str(ja / "ref1.txt"),))
    with qtbot.waitSignal(window.run_changed, timeout=120_000):
        window.run_actions.open_inputs(OpenChoice(request))
    bar = window.bars.more_advice
    assert bar.isVisibleTo(window) and "Japanese" in bar.label.text() and bar.button.text() == (
        "Use Asian support and normalization")
    with qtbot.waitSignal(window.run_changed, timeout=120_000):
        bar.button.click()
    run = window.controller.run
    k = run.metric_index("ter")
    assert run.config.metrics[k] == TerConfig(asian_support=True, normalized=True)
    hyps = (ja / "sys1.txt").read_text(encoding="utf-8").splitlines()
    refs = [(ja / "ref1.txt").read_text(encoding="utf-8").splitlines()]
    expected = TER(asian_support=True, normalized=True).corpus_score(hyps, refs).score
    assert run.systems[0].results[k].corpus.score == pytest.approx(expected, abs=1e-9)
    assert "TER Asian support" in window.bars.settings.label.text()  # said as not the default
    window.controller.set_metric(k)
    assert "TER Asian support" in window.inspect.header.badges.text()
    # Other files: the Asian support chosen for the Japanese ones is not carried, and a note says so.
    other = InputRequest(systems=(str(zh / "sys1.txt"),), references=(str(zh / "ref1.txt"), str(zh / "ref2.txt")))
    with qtbot.waitSignal(window.run_changed, timeout=120_000):
        window.run_actions.open_inputs(OpenChoice(other))
    run = window.controller.run
    assert run.config.metrics[run.metric_index("ter")] == TerConfig(normalized=True)
    assert any("TER Asian support: chosen for other files, not carried to these" in n for n in run.notes)
    assert window.settings_panel.group("ter").config() == TerConfig(normalized=True)


def test_a_system_with_no_scores_says_so_in_the_compare_table_and_the_report(qtbot, views, tmp_path):
    from bleu_gui.core import score_run
    from bleu_gui.core.inputs.text_files import read_segments
    from bleu_gui.core.metrics.imported.imported import attach_imported
    from bleu_gui.core.output.report import build_report
    from bleu_gui.core.run import Significance

    (tmp_path / "ref.txt").write_text("the cat sat\na dog ran\nhello world\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("the cat sat\na dog ran fast\nhello there world\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("the cat sit\na dog ran\nhello world\n", encoding="utf-8")
    (tmp_path / "s.tsv").write_text("system\tsegment\tcomet\na.txt\t1\t0.5\na.txt\t2\t0.2\na.txt\t3\t0.3\n",
                                    encoding="utf-8")
    systems = [read_segments(tmp_path / n) for n in ("a.txt", "b.txt")]
    request = InputRequest(scores=(str(tmp_path / "s.tsv"),), scores_partial=True)
    from bleu_gui.core.inputs.corpus import Context

    files, context, configs = attach_imported(request, systems, ["a.txt", "b.txt"], Context())
    run = score_run(files, [read_segments(tmp_path / "ref.txt")],
                    RunConfig(metrics=configs, significance=Significance(200, 500)), context=context)
    views.show_scored(qtbot, run)
    model = views.compare_view.systems.model
    row = next(r for r in range(model.rowCount()) if model.rows[r].name == "b.txt")
    assert model.cell(row, 0) == "–" and model.cell(row, 2) == "no scores"
    assert "no p-value: b.txt has no scores" in str(model.data(model.index(row, 5), 3))
    html = build_report(run)
    assert "no scores" in html and "nan" not in html.lower().replace("nano", "")
