"""Defects from an adversarial pass: each test here failed before its fix."""


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_gui.cli import run
from bleu_gui.core import BleuConfig
from bleu_gui.core.ngrams import closest_ref_lengths

from .conftest import data_set
from .oracles import sacre_corpus


def cli(capsys, *argv):
    code = run([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_latin1_slices_of_real_text_decode_alike(tmp_path, capsys):
    """5–20-line Latin-1 slices of real German: -e auto must give the UTF-8 score on every slice."""
    folder = data_set("sacrebleu-wmt17-en-de")
    ref_all = (folder / "ref1.txt").read_text(encoding="utf-8").splitlines()
    hyp_all = (folder / "sys1.txt").read_text(encoding="utf-8").splitlines()
    rng = np.random.default_rng(7)
    tried = 0
    for _ in range(200):
        size = int(rng.integers(5, 21))
        start = int(rng.integers(0, len(ref_all) - size))
        ref, hyp = ref_all[start:start + size], hyp_all[start:start + size]
        text = "\n".join(ref + hyp)
        if text.isascii() or any(ord(c) > 255 for c in text):
            continue  # only slices with accented letters that Latin-1 can hold
        (tmp_path / "ref.txt").write_bytes(("\n".join(ref) + "\n").encode("latin-1"))
        (tmp_path / "hyp.txt").write_bytes(("\n".join(hyp) + "\n").encode("latin-1"))
        code, out, err = cli(capsys, tmp_path / "ref.txt", "-i", tmp_path / "hyp.txt", "-e", "auto", "-b", "-w", "9")
        expected = sacre_corpus(hyp, [ref], BleuConfig()).score
        assert code == 0, err
        assert float(out) == pytest.approx(expected, abs=1e-7), (start, size, err)
        tried += 1
        if tried == 40:
            break
    assert tried >= 20


@settings(max_examples=300, deadline=None)
@given(hyp=st.integers(0, 2**45), refs=st.lists(st.integers(0, 2**45), min_size=1, max_size=4))
def test_closest_reference_length_is_exact_for_any_length(hyp, refs):
    from sacrebleu.metrics import BLEU

    ours = closest_ref_lengths(np.array([hyp]), np.array(refs)[:, None])[0]
    assert ours == BLEU()._get_closest_ref_len(hyp, refs)


def test_closest_reference_length_from_the_report():
    hyp, refs = 4_194_304, [3 * 2**22 - 1, 3 * 2**22]
    assert closest_ref_lengths(np.array([hyp]), np.array(refs)[:, None])[0] == 12_582_911
    # Missing references (-1) never win, however far the others are.
    assert closest_ref_lengths(np.array([5]), np.array([[-1], [2**50]]))[0] == 2**50


def _rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * 4096 / 2**20


def test_rescoring_with_ko_mecab_keeps_memory_flat():
    from bleu_gui.core import Evaluator
    from bleu_gui.demo import demo_paths

    systems, refs = demo_paths("ko")
    hyp = systems[0].read_text(encoding="utf-8").splitlines()
    ref = [r.read_text(encoding="utf-8").splitlines() for r in refs]
    cfg = BleuConfig(tokenizer="ko-mecab")
    ev = Evaluator(ref, cfg)
    first = ev.corpus_score(ev.statistics(hyp)).score
    before = _rss_mb()
    for _ in range(20):
        ev = Evaluator(ref, cfg)
        assert ev.corpus_score(ev.statistics(hyp)).score == first
    assert _rss_mb() - before < 30  # was about 52 MB per evaluator


def test_one_tokenizer_object_per_name():
    from bleu_gui.core.tokenizers import Tokenization

    assert Tokenization("ko-mecab").tokenizer is Tokenization("ko-mecab", lowercase=True).tokenizer
    assert Tokenization("13a").tokenizer is Tokenization("13a").tokenizer
