"""Inputs read whole, once, bounded, and as sacreBLEU users type them: standard input, pipes, devices, and
input that used to end in a traceback. Every case failed before its fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import sacrebleu

from .conftest import cli, corpus_of

REF = ["The cat sat on the mat .", "A dog ran in the park today", "Birds sing in the early morning"]
HYP = ["The cat sat on a mat .", "The dog ran in a park today", "Birds sang early in the morning"]



def command(*argv, stdin=None, input=None, env=None):
    """``bleu-score`` in a process of its own (standard input, pipes and devices are real there)."""
    return subprocess.run([sys.executable, "-m", "bleu_gui.cli", *map(str, argv)], stdin=stdin, input=input,
                          capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=120)


@pytest.fixture
def files(tmp_path):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("\n".join(REF) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(HYP) + "\n", encoding="utf-8")
    return ref, hyp


def expected() -> str:
    return f"{sacrebleu.corpus_bleu(HYP, [REF]).score:.6f}"


# -- 12. standard input ---------------------------------------------------------------------------------------
def test_the_system_on_standard_input_as_sacrebleu_reads_it(files):
    ref, hyp = files
    with hyp.open("rb") as fh:
        done = command(ref, "-b", "-w", "6", stdin=fh)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == expected()


def test_dash_names_standard_input(files):
    ref, hyp = files
    done = subprocess.run(f"cat {hyp} | {sys.executable} -m bleu_gui.cli {ref} -i - -b -w 6", shell=True,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == expected()


def test_no_system_and_nothing_on_standard_input_says_so(files):
    ref, _hyp = files
    # An empty pipe, not /dev/null: some sandboxes (CI's among them) make /dev/null a regular file that
    # collects what earlier processes wrote to it.
    done = command(ref, input="")
    assert done.returncode == 2
    assert "<stdin>: empty file" in done.stderr and "Traceback" not in done.stderr


# -- 13. pipes: read once, sniffed from what was read ----------------------------------------------------------
def test_process_substitution_reads_every_byte(files, tmp_path):
    ref, hyp = files
    long_ref = tmp_path / "long_ref.txt"
    long_hyp = tmp_path / "long_hyp.txt"
    long_ref.write_text("\n".join(REF * 400) + "\n", encoding="utf-8")  # well over the 4 KB the sniff once ate
    long_hyp.write_text("\n".join(HYP * 400) + "\n", encoding="utf-8")
    done = subprocess.run(["bash", "-c", f"{sys.executable} -m bleu_gui.cli <(cat {long_ref}) -i <(cat {long_hyp}) "
                                         "-b -w 6"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{sacrebleu.corpus_bleu(HYP * 400, [REF * 400]).score:.6f}"


def test_a_structured_file_through_a_pipe(tmp_path):
    rows = [{"system": s, "seg_id": i, "hypothesis": h, "reference": r}
            for s, hyps in (("A", HYP), ("B", REF[::-1])) for i, (h, r) in enumerate(zip(hyps, REF), start=1)]
    table = tmp_path / "t.jsonl"
    table.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    done = subprocess.run(["bash", "-c", f"{sys.executable} -m bleu_gui.cli <(cat {table}) --systems A -b -w 6"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == expected()


# -- 14. endless or enormous input -----------------------------------------------------------------------------
def test_dev_zero_is_binary_at_once(files):
    ref, _hyp = files
    done = command(ref, "-i", "/dev/zero")
    assert done.returncode == 2
    assert "/dev/zero: binary, not text: a NUL byte at line 1, byte offset 0" in done.stderr


def test_an_endless_pipe_stops_at_the_limit(files):
    ref, _hyp = files
    done = subprocess.run(f"yes 'the cat sat' | {sys.executable} -m bleu_gui.cli {ref} -i -", shell=True,
                          capture_output=True, text=True, timeout=120, env={**os.environ, "BLEU_GUI_MAX_INPUT_GB": "0.01"})
    assert done.returncode == 2
    assert "<stdin>: larger than the 0.01 GB limit for one input" in done.stderr


def test_a_regular_file_over_the_limit_is_refused_before_reading(files, monkeypatch, capsys):
    ref, hyp = files
    monkeypatch.setenv("BLEU_GUI_MAX_INPUT_GB", str(10 / 2**30))  # ten bytes
    code, _out, err = cli(capsys, ref, "-i", hyp)
    assert code == 2 and "larger than the" in err


# -- 15. input that ended in a traceback -----------------------------------------------------------------------
def test_private_use_characters_in_xliff_are_text(tmp_path, capsys):
    path = tmp_path / "p.xlf"
    path.write_text('<?xml version="1.0"?><xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
                    '<file original="f" source-language="en" target-language="de"><body>'
                    '<trans-unit id="1"><source>Icon \ue000 here <x id="1"/> now</source>'
                    '<target>Symbol \ue000 hier <x id="1"/> jetzt</target></trans-unit>'
                    '</body></file></xliff>', encoding="utf-8")
    (target,) = corpus_of(path).translations
    assert target.lines == ["Symbol \ue000 hier jetzt"]
    assert target.tags is not None and [label for _, label in target.tags[0]] == ["<x1/>"]


def _table(tmp_path, text: str):
    path = tmp_path / "t.jsonl"
    path.write_text(text, encoding="utf-8")
    hyp = tmp_path / "h.txt"
    hyp.write_text("a b\n", encoding="utf-8")
    return path, hyp


def test_deeply_nested_jsonl_is_a_message(tmp_path, capsys):
    ref, hyp = _table(tmp_path, '{"reference": "a b", "x": ' + "[" * 200_000 + "]" * 200_000 + "}\n")
    code, _out, err = cli(capsys, ref, "-i", hyp)
    assert code == 2 and "t.jsonl: line 1, column 90: nested more than 64 levels deep" in err


def test_a_number_of_5000_digits_is_a_message(tmp_path, capsys):
    ref, hyp = _table(tmp_path, '{"reference": "a b", "n": ' + "7" * 5000 + "}\n")
    code, _out, err = cli(capsys, ref, "-i", hyp)
    assert code == 2 and "t.jsonl: line 1, column 27: a number of 5,000 digits" in err


def test_a_tsv_field_over_the_csv_modules_limit_is_read(tmp_path, capsys):
    long_text = " ".join(["word"] * 40_000)  # 199,999 characters
    path = tmp_path / "t.tsv"
    path.write_text(f"hypothesis\treference\n{long_text}\t{long_text}\n", encoding="utf-8")
    code, out, err = cli(capsys, path, "-i", path, "--allow-identical-refs", "-b")
    assert code == 0, err
    assert float(out) == 100.0


def test_a_codec_that_yields_lone_surrogates_is_refused(tmp_path, capsys):
    ref = tmp_path / "r.txt"
    ref.write_bytes(b"a b\nc +2AA- d\n")  # UTF-7 for a lone high surrogate
    hyp = tmp_path / "h.txt"
    hyp.write_bytes(b"a b\nc d\n")
    code, _out, err = cli(capsys, ref, "-i", hyp, "-e", "utf-7")
    assert code == 2 and "r.txt: line 2" in err and "lone surrogate" in err and "Traceback" not in err
