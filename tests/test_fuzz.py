"""A differential fuzz test: the run model (what the command line and the window use) against sacreBLEU on
random corpora — random Unicode including characters outside the BMP, empty lines, 1–4 references — for corpus
scores, sentence scores and both paired tests. Fixed seed, bounded budget, so CI sees the same cases every run."""

import math
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleu_gui.core import BleuConfig, RunConfig, SegmentFile, Significance, score_run

from .oracles import sacre_corpus, sacre_sentences, with_missing
from .strategies import WORDS

# Random text from every plane, plus words that repeat (so n-grams match) and whitespace of every kind.
raw_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",), exclude_characters="\n\r"), max_size=12)
piece = st.one_of(st.sampled_from(WORDS), raw_text, st.sampled_from(["😀", "𠀀", "🇯🇵", "", " ", "\u3000", "\t"]))
line = st.lists(piece, max_size=10).map(" ".join)


@st.composite
def run_inputs(draw):
    n = draw(st.integers(1, 10))
    systems = draw(st.lists(st.lists(line, min_size=n, max_size=n), min_size=2, max_size=3))
    refs = draw(st.lists(st.lists(line, min_size=n, max_size=n), min_size=1, max_size=4))
    return systems, refs


FUZZ = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


def files(lines_list, stem):
    return [SegmentFile(Path(f"{stem}{i}.txt"), lines, "utf-8") for i, lines in enumerate(lines_list)]


@FUZZ
@given(data=run_inputs(), tok=st.sampled_from(["13a", "intl", "char", "none", "zh"]), lc=st.booleans(),
       rule=st.sampled_from(["empty", "missing"]))
def test_corpus_and_sentence_scores(data, tok, lc, rule):
    systems, refs = data
    cfg = BleuConfig(tokenizer=tok, lowercase=lc, empty_refs=rule)
    run = score_run(files(systems, "sys"), files(refs, "ref"), RunConfig((cfg,), significance=None))
    for system, hyps in zip(run.systems, systems):
        theirs = sacre_corpus(hyps, refs, cfg)
        assert math.isclose(system.results[0].corpus.score, theirs.score, rel_tol=1e-9, abs_tol=1e-9)
        assert (system.results[0].corpus.sys_len, system.results[0].corpus.ref_len) == (theirs.sys_len, theirs.ref_len)
        for ours, sent in zip(system.results[0].sentences, sacre_sentences(hyps, refs, cfg)):
            assert math.isclose(ours, sent.score, rel_tol=1e-9, abs_tol=1e-9)


@settings(FUZZ, max_examples=30)
@given(data=run_inputs(), rule=st.sampled_from(["empty", "missing"]))
def test_paired_tests(data, rule):
    systems, refs = data
    cfg = BleuConfig(empty_refs=rule)
    run = score_run(files(systems, "sys"), files(refs, "ref"), RunConfig((cfg,), significance=Significance(100, 256, 12345)))
    metric = BLEU(references=with_missing(refs, rule))
    named = [(s.name, hyps) for s, hyps in zip(run.systems, systems)]
    tested = run.comparison.by_metric[0]
    for kind, ours, n in (("bs", tested.bootstrap, 100), ("ar", tested.approximate, 256)):
        _, theirs = PairedTest(named, {"BLEU": metric}, references=None, test_type=kind, n_samples=n)()
        for o, t in zip(ours, theirs["BLEU"]):
            assert math.isclose(o.score, t.score, rel_tol=1e-12, abs_tol=1e-12)
            assert o.p_value == t.p_value
