"""What-if editing in the core: an edited sentence and the corpus score equal sacreBLEU's on the edited text."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_gui.core import BleuConfig
from bleu_gui.core.analysis.whatif import WhatIf, edited_lines
from bleu_gui.core.inputs.text_files import SegmentFile
from bleu_gui.core.run import RunConfig, bleu_lines, score_run

from .oracles import nltk_corpus, nltk_tokens, sacre_corpus, sacre_sentences
from .strategies import corpus


def make_run(hyps, refs, cfg=BleuConfig()):
    files = [SegmentFile(f"/tmp/h{i}.txt", list(h), "utf-8") for i, h in enumerate(hyps)]
    references = [SegmentFile(f"/tmp/r{i}.txt", list(r), "utf-8") for i, r in enumerate(refs)]
    return score_run(files, references, RunConfig((cfg,), significance=None, ngram_diffs=False, check_alignment=False))


@given(data=corpus(max_lines=4, max_refs=2), new=st.text(alphabet="ab c.", max_size=12), where=st.integers(0, 3),
       tok=st.sampled_from(["13a", "char", "none"]))
def test_edits_score_as_sacrebleu_scores_the_edited_file(data, new, where, tok):
    hyps, refs = data
    cfg = BleuConfig(tokenizer=tok)
    whatif = WhatIf(bleu_lines(make_run([hyps], refs, cfg), 0))
    index = where % len(hyps)
    line = whatif.set_text(index, new)
    edited = edited_lines(hyps, whatif.texts)
    assert edited[index] == new
    assert line.score == pytest.approx(sacre_sentences([new], [[r[index]] for r in refs], cfg)[0].score, abs=1e-9)
    assert whatif.corpus().score == pytest.approx(sacre_corpus(edited, refs, cfg).score, abs=1e-9)
    whatif.revert(index)
    assert whatif.corpus().score == pytest.approx(sacre_corpus(hyps, refs, cfg).score, abs=1e-9)


def test_nltk_edit_and_undo_to_the_original():
    hyps, refs = ["the cat sat", "a dog barked loudly today"], [["the cat sat down", "a dog barked today"]]
    cfg = BleuConfig(variant="nltk", nltk_smoothing=7)
    run = make_run([hyps], refs, cfg)
    whatif = WhatIf(bleu_lines(run, 0))
    whatif.set_text(1, "a dog barked today")
    edited = edited_lines(hyps, whatif.texts)
    hyp_toks, ref_toks = nltk_tokens(edited, refs, str.split)
    assert whatif.corpus().score == pytest.approx(100 * nltk_corpus(hyp_toks, ref_toks, cfg), abs=1e-9)
    whatif.set_text(1, hyps[1])  # typing the original text back is no edit
    assert whatif.texts == {} and whatif.corpus() == run.systems[0].results[0].corpus


def test_revert_all_and_line_breaks():
    lines = ["a b c d e", "b c d e f"]
    run = make_run([lines], [lines])
    whatif = WhatIf(bleu_lines(run, 0), {0: "x", 1: "y"})
    assert sorted(whatif.texts) == [0, 1] and whatif.corpus().score == 0
    whatif.revert_all()
    assert whatif.corpus() == run.systems[0].results[0].corpus and whatif.text(0) == "a b c d e"
    with pytest.raises(ValueError, match="line 2"):
        edited_lines(["a", "b"], {1: "b\nc"})
