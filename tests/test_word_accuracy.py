"""Word accuracy by frequency equals compare-mt 0.2.10's FreqWordBucketer on the same tokens."""

from __future__ import annotations

import json

import pytest

from bleu_gui.cli.bleu_score import run
from bleu_gui.core.analysis.word_accuracy import bucket_labels, frequency_counts, word_accuracy

from .conftest import data_set
from .oracles import sacre_tokenizer


def compare_mt(ref, outs, lowercase=False, freq_data=None):
    from compare_mt.bucketers import FreqWordBucketer  # here, not at collection: its import (NLTK's, SciPy's) is ~2 s

    bucketer = FreqWordBucketer(freq_data=freq_data or ref, case_insensitive=lowercase)
    statistics, *_ = bucketer.calc_statistics(ref, outs)
    return bucketer.bucket_strs, statistics


def words(path, n=None):
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    return [line.split() for line in lines[:n]]


@pytest.mark.parametrize("lowercase", [False, True])
def test_equal_to_compare_mt_on_wmt17(lowercase):
    folder = data_set("sacrebleu-wmt17-en-de")
    ref = words(folder / "ref1.txt", 800)
    outs = [words(folder / f"sys{k}.txt", 800) for k in (1, 2, 6)]
    labels, expected = compare_mt(ref, outs, lowercase)
    result = word_accuracy(ref, outs, frequency_counts(ref, lowercase), lowercase)
    assert result.labels == labels == bucket_labels()
    matched, reference, output = result.totals()
    recall, precision, fmeas = result.measures()
    for s, rows in enumerate(expected):
        for b, (m, r, o, rec, prec, f) in enumerate(rows):
            assert (matched[s, b], reference[b], output[s, b]) == (m, r, o)
            assert (recall[s, b], precision[s, b], fmeas[s, b]) == pytest.approx((rec, prec, f), abs=1e-12)


def test_frequencies_from_another_corpus_and_repeated_words():
    ref = [["the", "the", "cat"], ["a", "dog", "the"]]
    outs = [[["the", "the", "the", "cat"], ["dog", "dog", "a"]]]
    corpus = [["the"] * 12 + ["cat"] * 3, ["dog"]]
    labels, expected = compare_mt(ref, outs, freq_data=corpus)
    result = word_accuracy(ref, outs, frequency_counts(corpus))
    matched, reference, output = result.totals()
    assert [(matched[0, b], reference[b], output[0, b]) for b in range(len(labels))] == \
        [(m, r, o) for m, r, o, *_ in expected[0]]


def test_cli_json_has_the_issue_s_shape(capsys):
    folder = data_set("sacrebleu-wmt17-en-de")
    code = run([str(folder / "ref1.txt"), "-i", str(folder / "sys1.txt"), "--word-accuracy", "-tok", "none", "-f",
                "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)["word_accuracy"]
    assert data["buckets"] == bucket_labels()
    system = data["systems"][0]
    assert set(system) == {"system", "matched", "ref", "out", "recall", "precision", "fmeas"}
    ref, hyp = words(folder / "ref1.txt"), words(folder / "sys1.txt")
    _, expected = compare_mt(ref, [hyp])
    assert system["matched"] == [row[0] for row in expected[0]]
    assert system["fmeas"] == pytest.approx([row[5] for row in expected[0]], abs=1e-12)
    assert run([str(folder / "ref1.txt"), "-i", str(folder / "sys1.txt"), "--freq-file", "x.txt"]) == 2
    assert "--freq-file applies to --word-accuracy" in capsys.readouterr().err


def test_the_window_shows_word_accuracy_per_bucket(qtbot, window):

    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_demo()
    dialog = window.tools.open_word_accuracy()
    with qtbot.waitSignal(dialog.ready):
        pass
    run = window.controller.run
    tok = sacre_tokenizer("13a")
    ref = [tok(line).split() for line in run.references[0].lines]
    outs = [[tok(line).split() for line in s.lines] for s in run.systems]
    _, expected = compare_mt(ref, outs)
    assert dialog.table.rowCount() == len(bucket_labels())
    _matched, reference, _output = dialog.accuracy.totals()
    for b, row in enumerate(expected[1]):
        if reference[b] == 0:  # a bucket without reference words has no F-measure (compare-mt says 0)
            assert row[5] == 0 and dialog.table.item(b, 2).text() == "–"
        else:
            assert dialog.table.item(b, 2).text().startswith(f"{row[5]:.3f} [")  # system 2's F in its column
    dialog.close()


def test_a_bucket_lists_its_words_and_where_they_occur(qtbot, window):

    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_demo()
    dialog = window.tools.open_word_accuracy()
    with qtbot.waitSignal(dialog.ready):
        pass
    once = bucket_labels().index("1")
    dialog.show_words(once)
    run = window.controller.run
    tok = sacre_tokenizer("13a")
    ref = [tok(line).split() for line in run.references[0].lines]
    counts = frequency_counts(ref)
    expected = sorted(w for w, c in counts.items() if c == 1)
    listed = [dialog.words.item(r, 0).text() for r in range(dialog.words.rowCount())]
    assert sorted(listed) == expected
    word = listed[0]
    line = next(i for i, words in enumerate(ref) if word in words)
    assert dialog.words.item(0, 2).text() == str(line + 1)
    dialog.on_word_clicked(0, 0)
    assert (window.controller.system, window.controller.sentence) == (0, line)
    dialog.close()
