"""Reference folders that hold other files, and flags that would have been ignored. Each case failed before."""

from __future__ import annotations

import json

import pytest

from bleu_gui.core import BleuConfig

from .conftest import cli, data_set
from .oracles import sacre_corpus


def lines(path):
    return path.read_text(encoding="utf-8").splitlines()


@pytest.fixture
def fold(tmp_path):
    folder = tmp_path / "fold"
    folder.mkdir()
    texts = {"ref1.txt": "the cat sat on the mat\nhello world\n", "ref2.txt": "a cat sat on the mat\nhello, world\n",
             "sys1.txt": "the cat sat on a mat\nhello there world\n", "sys2.txt": "the cat is on the mat\nhello\n"}
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


# -- 16. folders -----------------------------------------------------------------------------------------------
def test_other_system_outputs_in_a_reference_folder_are_not_references(fold, capsys):
    code, out, err = cli(capsys, fold, "-i", fold / "sys1.txt", "-w", "6")
    assert code == 0, err
    expected = sacre_corpus(lines(fold / "sys1.txt"), [lines(fold / "ref1.txt"), lines(fold / "ref2.txt")],
                            BleuConfig())
    assert "nrefs:2|" in out and f"= {expected.score:.6f} " in out
    assert "not taken: sys1.txt (a system), sys2.txt (named as a system output)" in err


def test_a_folder_mixing_reference_names_with_others_is_ambiguous(fold, capsys):
    (fold / "notes.txt").write_text("one\ntwo\n", encoding="utf-8")
    code, out, err = cli(capsys, fold, "-i", fold / "sys1.txt")
    assert code == 2 and out == ""
    assert "which files are references?" in err and "ref1.txt, ref2.txt" in err and "notes.txt" in err
    assert "--refs ref1.txt ref2.txt" in err
    code, out, err = cli(capsys, fold, "-i", fold / "sys1.txt", "--refs", "ref1.txt", "ref2.txt", "-b")
    assert code == 0, err


def test_the_shared_data_folder_with_its_manifest_scores_as_its_references(capsys):
    folder = data_set("wmt21-en-de-3ref")
    code, out, err = cli(capsys, folder, "-i", folder / "sys1.txt", "-w", "6")
    assert code == 0, err
    refs = [lines(folder / f"ref{i}.txt") for i in (1, 2, 3)]
    expected = sacre_corpus(lines(folder / "sys1.txt"), refs, BleuConfig())
    assert "nrefs:3|" in out and f"= {expected.score:.6f} " in out
    assert "manifest.json (documentation or metadata)" in err


def test_json_that_is_not_json_lines_says_so(tmp_path, capsys):
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"sys1.txt": "A", "sys2.txt": "B"}, indent=2) + "\n", encoding="utf-8")
    hyp = tmp_path / "h.txt"
    hyp.write_text("a\n", encoding="utf-8")
    code, _out, err = cli(capsys, manifest, "-i", hyp)
    assert code == 2
    assert "manifest.json: valid JSON, but one document over several lines, not JSON Lines" in err
    assert "not JSON (" not in err


# -- 17. no flag silently ignored --------------------------------------------------------------------------------
@pytest.fixture
def two(tmp_path):
    ref, a, b = tmp_path / "ref.txt", tmp_path / "a.txt", tmp_path / "b.txt"
    ref.write_text("the cat sat on the mat\nhello world\n", encoding="utf-8")
    a.write_text("the cat sat on a mat\nhello there world\n", encoding="utf-8")
    b.write_text("a cat sat on the mat\nhello world\n", encoding="utf-8")
    return ref, a, b


@pytest.mark.parametrize("extra, message", [
    (["--paired-bs", "--paired-ar-n", "500"], "--paired-ar-n applies to --paired-ar"),
    (["--paired-ar", "--paired-bs-n", "500"], "--paired-bs-n applies to --paired-bs"),
    (["--paired-bs-n", "500"], "--paired-bs-n applies to --paired-bs"),
    (["--confidence-n", "500"], "--confidence-n applies to --confidence"),
    (["--paired-bs", "-f", "multi-bleu"], "--format multi-bleu"),
    (["--max-ngram-order", "2", "--variant", "nltk", "--weights", "0.25", "0.25", "0.25", "0.25"],
     "--max-ngram-order 2 with 4 weights"),
])
def test_a_flag_that_would_be_ignored_is_refused(two, capsys, extra, message):
    ref, a, b = two
    code, out, err = cli(capsys, ref, "-i", a, b, *extra)
    assert code == 2 and out == ""
    assert message in err


@pytest.mark.parametrize("extra, message", [
    (["--column", "candidate=hyp"], "--column applies to TSV, JSONL and workbook files"),
    (["--keep-tags"], "--keep-tags applies to XLIFF and TMX"),
])
def test_format_flags_with_plain_text_are_refused(two, capsys, extra, message):
    ref, a, _b = two
    code, out, err = cli(capsys, ref, "-i", a, *extra)
    assert code == 2 and out == "" and message in err


def test_flags_that_apply_are_taken(two, capsys):
    ref, a, b = two
    assert cli(capsys, ref, "-i", a, b, "--paired-bs", "--paired-bs-n", "200")[0] == 0
    assert cli(capsys, ref, "-i", a, b, "--all-pairs", "--paired-ar-n", "200", "--paired-bs-n", "200")[0] == 0
    assert cli(capsys, ref, "-i", a, "--confidence", "--confidence-n", "200")[0] == 0
    code, _out, err = cli(capsys, ref, "-i", a, "--variant", "nltk", "--weights", "0.5", "0.5",
                          "--max-ngram-order", "2")
    assert code == 0, err
