"""Notes on what was read: a system output that looks tokenized already is noted exactly when sacreBLEU warns."""

import logging
from pathlib import Path

import pytest

from bleu_gui.core import BleuConfig, RunConfig, SegmentFile, score_run

from .conftest import data_set
from .oracles import sacre_corpus

TOKENIZED = "looks tokenized already"


def sacrebleu_warns(hyps: list[str], refs: list[list[str]], caplog) -> bool:
    """Whether sacreBLEU's BLEU warns that the hypotheses look tokenized (its command line strips each line)."""
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sacrebleu"):
        sacre_corpus([h.rstrip() for h in hyps], refs, BleuConfig())
    return any("tokenized period" in r.getMessage() for r in caplog.records)


def notes_of(hyps: list[str], refs: list[list[str]], cfg: BleuConfig = BleuConfig(), name: str = "hyp.txt"):
    files = [SegmentFile(Path(name), hyps, "utf-8", False, ())]
    references = [SegmentFile(Path(f"ref{i}.txt"), r, "utf-8", False, ()) for i, r in enumerate(refs, 1)]
    return [n for n in score_run(files, references, RunConfig((cfg,), check_alignment=False)).notes if TOKENIZED in n]


@pytest.mark.parametrize("tokenized, plain", [(99, 1), (100, 0), (100, 300), (250, 50)])
def test_a_tokenized_period_is_noted_from_sacrebleus_hundred_lines(tokenized, plain, caplog):
    hyps = [f"line {i} ends tokenized ." for i in range(tokenized)] + [f"line {i} ends plain." for i in range(plain)]
    refs = [[f"line {i} ends plain." for i in range(len(hyps))]]
    warned = sacrebleu_warns(hyps, refs, caplog)
    assert warned == (tokenized >= 100)  # the oracle's threshold, checked on both sides of it
    notes = notes_of(hyps, refs)
    assert len(notes) == int(warned)
    if warned:
        assert notes[0].startswith(f"hyp.txt: {tokenized:,} of {len(hyps):,} lines end in a tokenized period")


def test_trailing_whitespace_is_stripped_first_as_the_sacrebleu_command_does(caplog):
    hyps = ["a tokenized line . \t\u00a0"] * 100 + ["not this one .x"] * 5
    refs = [["a reference line."] * len(hyps)]
    assert sacrebleu_warns(hyps, refs, caplog)
    assert notes_of(hyps, refs)[0].startswith("hyp.txt: 100 of 105 lines")


def test_only_the_sacrebleu_variant_notes_it():
    """NLTK and the d2l textbook score tokens the user gives them: tokenized text is what they expect."""
    hyps = ["the cat sat on the mat ."] * 120
    refs = [["the cat sat on a mat ."] * 120]
    assert notes_of(hyps, refs)
    assert notes_of(hyps, refs, BleuConfig(variant="nltk")) == []
    assert notes_of(hyps, refs, BleuConfig(variant="d2l")) == []


@pytest.mark.parametrize("folder, expected", [("cmt-ted-sk-en", True), ("cmt-ted-sk-en-detok", False)])
def test_real_moses_tokenized_output_is_noted_and_its_detokenized_twin_is_not(folder, expected, caplog):
    path = data_set(folder)
    refs = [(path / "ref1.txt").read_text(encoding="utf-8").splitlines()]
    system = "sys1.txt"  # one of the set's systems: sacreBLEU's scoring of the whole set is the test's time
    hyps = (path / system).read_text(encoding="utf-8").splitlines()
    assert sacrebleu_warns(hyps, refs, caplog) == expected
    assert len(notes_of(hyps, refs, name=system)) == int(expected)


def test_the_command_line_prints_the_note_and_the_same_score(tmp_path, capsys):
    from bleu_gui.cli.bleu_score import run

    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("".join(f"sentence {i} , tokenized .\n" for i in range(120)), encoding="utf-8")
    ref.write_text("".join(f"sentence {i}, tokenized.\n" for i in range(120)), encoding="utf-8")
    assert run([str(ref), "-i", str(hyp), "-b"]) == 0
    out, err = capsys.readouterr()
    theirs = sacre_corpus(hyp.read_text(encoding="utf-8").splitlines(), [ref.read_text(encoding="utf-8").splitlines()],
                          BleuConfig())
    assert out.strip() == f"{theirs.score:.2f}"  # a note, never a changed number
    assert f"note: {hyp}: 120 of 120 lines end in a tokenized period" in err and TOKENIZED in err
