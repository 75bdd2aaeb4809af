"""chrF, chrF++ and TER against sacreBLEU's own classes: random corpora, every setting, every shared data set;
the TER evidence replayed into the reference."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF, TER

from bleu_gui.core.metrics.chrf.chrf import Chrf, ChrfConfig
from bleu_gui.core.metrics.ter.ter import Ter, TerConfig

from .conftest import data_set
from .strategies import corpus, sentence

# Few words, so that spans repeat and shifts pay; punctuation and CJK for the tokenizer's options.
FEW = ["a", "b", "c", "d", "A", "e.", ",", "the", "&amp;", "猫", "日本語", "x"]


@st.composite
def shifty(draw, max_words: int = 30):
    return " ".join(draw(st.lists(st.sampled_from(FEW), min_size=0, max_size=max_words)))


@st.composite
def shifty_corpus(draw, max_lines: int = 4, max_refs: int = 3, max_words: int = 30):
    n = draw(st.integers(1, max_lines))
    n_refs = draw(st.integers(1, max_refs))
    return ([draw(shifty(max_words)) for _ in range(n)],
            [[draw(shifty(max_words)) for _ in range(n)] for _ in range(n_refs)])


def _sacrebleu_ter(cfg: TerConfig, refs=None) -> TER:
    return TER(normalized=cfg.normalized, no_punct=cfg.no_punct, asian_support=cfg.asian_support,
               case_sensitive=cfg.case_sensitive, references=refs)


def _sacrebleu_chrf(cfg: ChrfConfig, refs=None) -> CHRF:
    return CHRF(char_order=cfg.char_order, word_order=cfg.word_order, beta=cfg.beta, lowercase=cfg.lowercase,
                whitespace=cfg.whitespace, eps_smoothing=cfg.eps_smoothing, references=refs)


TER_CONFIGS = [TerConfig(*flags) for flags in itertools.product([False, True], repeat=4)]
CHRF_CONFIGS = [ChrfConfig(), ChrfConfig(word_order=2), ChrfConfig(char_order=3, word_order=1, beta=1),
                ChrfConfig(lowercase=True), ChrfConfig(whitespace=True), ChrfConfig(eps_smoothing=True),
                ChrfConfig(word_order=2, eps_smoothing=True, lowercase=True), ChrfConfig(beta=0),
                ChrfConfig(char_order=0, word_order=2)]


def _check_ter(hyps, refs, cfg: TerConfig) -> None:
    ours = Ter(refs, cfg)
    stats = ours.statistics(hyps)
    theirs = _sacrebleu_ter(cfg, refs)
    assert ours.corpus_score(stats).score == theirs.corpus_score(hyps, None).score
    assert ours.signature() == theirs.get_signature().format()
    one = _sacrebleu_ter(cfg)
    for i, hyp in enumerate(hyps):
        expected = one.sentence_score(hyp, [r[i] for r in refs])
        assert ours.sentence_score(stats, i).score == expected.score, (hyp, refs)
        assert stats[i, 0] == expected.num_edits


@settings(max_examples=120)
@given(shifty_corpus(), st.sampled_from(TER_CONFIGS))
def test_ter_equals_sacrebleu_where_shifts_pay(data, cfg):
    _check_ter(*data, cfg)


@given(corpus(), st.sampled_from(TER_CONFIGS))
def test_ter_equals_sacrebleu_on_tricky_text(data, cfg):
    _check_ter(*data, cfg)


@settings(max_examples=40)
@given(shifty_corpus(max_lines=2, max_refs=1, max_words=140))
def test_ter_equals_sacrebleu_on_long_segments(data):
    """Long segments: the beam leaves cells out, spans sit more than 50 words apart, and a search tries 1,000
    candidates and stops."""
    _check_ter(*data, TerConfig())


def test_ter_searches_no_reference_that_cannot_beat_the_fewest_edits_found(monkeypatch):
    """sacreBLEU's count is shifts plus an edit distance, so at least as many edits as words one side has and the
    other lacks: a reference whose lack is no less than the fewest edits found already is not searched."""
    from bleu_gui.core.metrics.ter import ter as ter_module

    searched = []
    real = ter_module.search_pairs

    def counted(hyps, refs, progress=None, bounds=None, record=False):
        searched.append([metric.words(r) for r in refs])
        return real(hyps, refs, progress, bounds, record)

    monkeypatch.setattr(ter_module, "search_pairs", counted)
    hyps = ["a b c d", "the cat sat on", "one two three four five"]
    refs = [["x y z w", "the cat sat", "one two three four six"], ["a b c d", "cat the sat on", "five four three two one"]]
    metric = Ter(refs)
    stats = metric.statistics(hyps)
    # Each line first against the reference whose words it lacks fewest of (the second, each time): 0, 1 and 4
    # edits. Then the first reference only where it lacks fewer words than that: sentence 3 (one word, "six").
    assert searched[0] == [["a", "b", "c", "d"], ["cat", "the", "sat", "on"], ["five", "four", "three", "two", "one"]]
    assert searched[1:] == [[["one", "two", "three", "four", "six"]]]
    assert stats[:, 0].tolist() == [0, 1, 1]
    _check_ter(hyps, refs, TerConfig())


def test_ter_tries_no_shift_where_the_distance_is_the_fewest_edits_possible(monkeypatch):
    """ "the the cat the sat" against "the sat sat": three edits, as many as the hypothesis has words more than the
    reference (two "the", "cat"), so no shift can gain, though sacreBLEU tries three; "b a c" has every word of
    "a b c" and is two edits apart: its shifts are tried (and one is taken)."""
    from bleu_gui.core.metrics.ter import search

    tried = []
    real = search._candidate_distances

    def distances(pairs, rows, words, values, cands):
        tried.append(sorted(set(pairs.n[rows[cands.pair]].tolist())))  # the lengths of the pairs tried
        return real(pairs, rows, words, values, cands)

    monkeypatch.setattr(search, "_candidate_distances", distances)
    hyps, refs = ["the the cat the sat", "b a c"], [["the sat sat", "a b c"]]
    stats = Ter(refs).statistics(hyps)
    assert stats[:, 0].tolist() == [3, 1]
    assert tried[0] == [3]  # the first round: only the candidates of "b a c" (three words; the other has five)
    _check_ter(hyps, refs, TerConfig())


def test_ter_beam_with_lengths_far_apart():
    """A hypothesis ten times shorter than its reference: the beam widens (sacreBLEU's 'crazy sentences')."""
    rng = np.random.default_rng(7)
    refs = [[" ".join(rng.choice(FEW[:5], 130)) for _ in range(3)]]
    hyps = [" ".join(rng.choice(FEW[:5], 12)) for _ in range(3)]
    _check_ter(hyps, refs, TerConfig())
    _check_ter(refs[0], [hyps], TerConfig())


def _replay(evidence) -> list[str]:
    """Apply the evidence's shifts to the hypothesis words and check every step; the shifted words."""
    words = list(evidence.hypothesis)
    for shift in evidence.shifts:
        assert words[shift.start:shift.start + len(shift.words)] == shift.words
        rest = words[:shift.start] + words[shift.start + len(shift.words):]
        words = rest[:shift.landing] + shift.words + rest[shift.landing:]
    return words


@settings(max_examples=120)
@given(shifty_corpus(max_lines=1, max_refs=3), st.sampled_from(TER_CONFIGS[:4]))
def test_ter_evidence_replays_into_the_reference(data, cfg):
    hyps, refs = data
    metric = Ter(refs, cfg)
    evidence = metric.evidence(0, hyps[0])
    shifted = _replay(evidence)
    assert shifted == evidence.shifted
    ref = evidence.reference_words
    hyp_seen, ref_seen = [], []
    for step in evidence.alignment:
        if step.op in "=S":
            assert (shifted[step.hyp] == ref[step.ref]) == (step.op == "=")
        if step.op == "I":
            assert step.hyp is None
        if step.op == "D":
            assert step.ref is None
        hyp_seen += [step.hyp] if step.hyp is not None else []
        ref_seen += [step.ref] if step.ref is not None else []
    assert hyp_seen == list(range(len(shifted))) and ref_seen == list(range(len(ref)))
    edits = len(evidence.shifts) + sum(evidence.count(op) for op in "SID")
    theirs = _sacrebleu_ter(cfg).sentence_score(hyps[0], [r[0] for r in refs])
    assert edits == evidence.edits == theirs.num_edits
    assert evidence.score == theirs.score


def _check_chrf(hyps, refs, cfg: ChrfConfig) -> None:
    ours = Chrf(refs, cfg)
    stats = ours.statistics(hyps)
    theirs = _sacrebleu_chrf(cfg, refs)
    assert ours.corpus_score(stats).score == theirs.corpus_score(hyps, None).score
    assert ours.signature() == theirs.get_signature().format()
    assert ours.name == theirs.corpus_score(hyps, None).name
    one = _sacrebleu_chrf(cfg)
    for i, hyp in enumerate(hyps):
        expected = one.sentence_score(hyp, [r[i] for r in refs]).score
        assert ours.sentence_score(stats, i).score == expected, (hyp, refs)


@given(corpus(), st.sampled_from(CHRF_CONFIGS))
def test_chrf_equals_sacrebleu(data, cfg):
    _check_chrf(*data, cfg)


@given(st.lists(sentence(), min_size=1, max_size=3), st.lists(sentence(), min_size=1, max_size=3))
def test_chrf_evidence_counts_are_sacrebleus_statistics(hyps, refs):
    """The evidence's per-order counts are sacreBLEU's own segment statistics, and its shading covers exactly
    the characters chrF reads."""
    n = min(len(hyps), len(refs))
    hyps, refs = hyps[:n], refs[:n]
    cfg = ChrfConfig(word_order=2)
    metric = Chrf([refs], cfg)
    theirs = _sacrebleu_chrf(cfg, [refs])
    stats = theirs._extract_corpus_statistics(hyps, None)
    for i, hyp in enumerate(hyps):
        evidence = metric.evidence(i, hyp)
        assert [x for o in evidence.orders for x in (o.hyp_total, o.ref_total, o.matched)] == list(stats[i])
        chars = "".join(hyp.split())
        assert sum(c > 0 for c in evidence.hypothesis.covered) == (len(chars) if evidence.orders[0].ref_total else 0)


def _flags_of_the_evidence(metric: Chrf, index: int, hyp: str) -> list[tuple[int, int]]:
    """The window's evidence read as error recall reads chrF: runs of characters covered and never matched."""
    hits = metric.evidence(index, hyp).hypothesis
    spans: list[tuple[int, int]] = []
    for i, (covered, matched) in enumerate(zip(hits.covered, hits.matched)):
        if covered and not matched and not hyp[i].isspace():
            spans[-1:] = [(spans[-1][0], i + 1)] if spans and spans[-1][1] == i else [*spans[-1:], (i, i + 1)]
    return spans


# Few letters, so character n-grams repeat, overlap ("aaa") and are clipped; and the strategy's scripts.
REPEATING = st.text(alphabet="aab İı", max_size=14) | sentence()


@given(st.lists(st.tuples(REPEATING, REPEATING), min_size=1, max_size=3),
       st.sampled_from([ChrfConfig(), ChrfConfig(lowercase=True), ChrfConfig(whitespace=True, char_order=3),
                       ChrfConfig(char_order=0, word_order=2)]))
def test_chrf_flags_are_the_evidence_s_unmatched_characters(pairs, cfg):
    """What error recall reads of chrF (flagged, found without counting every n-gram) is what the evidence shows."""
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    metric = Chrf([refs], cfg)
    assert metric.flagged(list(range(len(hyps))), hyps) == [
        _flags_of_the_evidence(metric, i, h) for i, h in enumerate(hyps)]


@pytest.mark.parametrize("name", ["wmt22-en-ja", "wmt22-zh-en-2ref", "wmt21-en-de-3ref"])
def test_chrf_flags_are_the_evidence_s_on_shared_sets(name):
    hyps, refs = _shared(name, 150)
    metric = Chrf(refs)
    best = metric.best_references(range(len(hyps)), hyps)
    assert metric.flagged(list(range(len(hyps))), hyps) == [
        _flags_of_the_evidence(metric, i, h) for i, h in enumerate(hyps)]
    assert len(set(best)) == len(refs)  # every reference is the one taken somewhere


def _edited_in_the_evidence(evidence) -> list[int]:
    """The hypothesis' words (indices before any shift) the evidence's shifts move and its alignment substitutes
    or deletes, replayed shift by shift."""
    order = list(range(len(evidence.hypothesis)))
    edited: set[int] = set()
    for block in evidence.shifts:
        moved = order[block.start:block.start + len(block.words)]
        edited.update(moved)
        rest = order[:block.start] + order[block.start + len(block.words):]
        order = rest[:block.landing] + moved + rest[block.landing:]
    edited.update(order[a.hyp] for a in evidence.alignment if a.op in ("S", "D") and a.hyp is not None)
    return sorted(edited)


def _ter_flags_of_the_evidence(metric: Ter, index: int, hyp: str) -> list[tuple[int, int]]:
    from bleu_gui.core.metrics.alignment import char_spans

    evidence = metric.evidence(index, hyp)
    spans = char_spans(hyp, evidence.hypothesis, not metric.config.case_sensitive, "tercom")
    return [span for span in (spans[w] for w in _edited_in_the_evidence(evidence)) if span is not None]


@settings(deadline=None)
@given(corpus(max_lines=4, max_refs=3), st.sampled_from(TER_CONFIGS))
def test_ter_flags_kept_from_the_scoring_are_the_evidence_s(data, cfg):
    """What error recall reads of TER — the words the scoring's search edited, kept — is what the window's evidence
    shows (the same reference of equals too), and what a metric that never scored the lines searches anew."""
    hyps, refs = data
    scored, fresh = Ter(refs, cfg), Ter(refs, cfg)
    scored.statistics(hyps)
    rows = list(range(len(hyps)))
    expected = [_ter_flags_of_the_evidence(fresh, i, h) for i, h in enumerate(hyps)]
    searched_again = scored.search
    scored.search = lambda *args, **kwargs: pytest.fail("the scored lines were searched again")
    assert scored.flagged(rows, hyps) == expected
    scored.search = searched_again
    assert fresh.flagged(rows, hyps) == expected


@pytest.mark.parametrize("name", ["wmt21-en-de-3ref", "wmt22-en-ja"])
def test_ter_flags_kept_from_the_scoring_on_shared_sets(name):
    hyps, refs = _shared(name, 120)
    metric = Ter(refs)
    metric.statistics(hyps)
    flagged = metric.flagged(list(range(len(hyps))), hyps)
    assert flagged == [_ter_flags_of_the_evidence(metric, i, h) for i, h in enumerate(hyps)]
    assert sum(map(bool, flagged)) > len(hyps) // 2


TER_SETS = ["wmt22-en-ja", "wmt22-zh-en-2ref", "wmt21-en-de-3ref", "cmt-ted-sk-en", "sacrebleu-wmt17-en-de"]
CHRF_SETS = [*TER_SETS, "cmt-multited-ja", "kor-sacrebleu-doc1-en-ko", "mtce-en-cs-medium",
             "opusmt-flores101-en-ko-first100", "wmt22-en-zh-2ref", "wmt22-ja-en"]


def _shared(name: str, lines: int | None = None) -> tuple[list[str], list[list[str]]]:
    folder = data_set(name)
    read = lambda p: p.read_text(encoding="utf-8").split("\n")[:-1][:lines]  # noqa: E731
    refs = [read(p) for p in sorted(folder.glob("ref*.txt"))]
    return read(folder / "sys1.txt"), refs


@pytest.mark.parametrize("name", TER_SETS)
def test_ter_equals_sacrebleu_on_shared_sets(name):
    # sacreBLEU's own search takes about a millisecond a segment, far more on CJK split into characters.
    target = name.split("-")[2]
    for cfg, lines in ((TerConfig(), 80),
                       (TerConfig(asian_support=target in ("ja", "zh"), normalized=True, case_sensitive=True), 40)):
        hyps, refs = _shared(name, lines)
        ours = Ter(refs, cfg)
        stats = ours.statistics(hyps)
        theirs = _sacrebleu_ter(cfg, refs)
        their_stats = theirs._extract_corpus_statistics(hyps, None)
        assert np.array_equal(stats, np.array(their_stats, np.float64))
        # corpus_score's own two steps, its statistics found once (sacreBLEU's search is most of the test's time)
        assert ours.corpus_score(stats).score == theirs._aggregate_and_compute(their_stats).score


@pytest.mark.parametrize("name", CHRF_SETS)
def test_chrf_equals_sacrebleu_on_shared_sets(name):
    hyps, refs = _shared(name, 400)
    for cfg in (ChrfConfig(), ChrfConfig(word_order=2)):
        ours = Chrf(refs, cfg)
        stats = ours.statistics(hyps)
        theirs = _sacrebleu_chrf(cfg, refs)
        their_stats = theirs._extract_corpus_statistics(hyps, None)
        assert np.array_equal(stats, np.array(their_stats))
        assert ours.corpus_score(stats).score == theirs._aggregate_and_compute(their_stats).score


@pytest.mark.parametrize("make", [lambda refs: Ter(refs), lambda refs: Chrf(refs, ChrfConfig(word_order=2))])
def test_a_cancel_stops_scoring_between_blocks(make):
    """The window cancels a job by raising from its progress callback: chrF and TER stop at the next block."""
    from bleu_gui.core.errors import Cancelled

    rng = np.random.default_rng(3)
    refs = [[" ".join(rng.choice(FEW, 12)) for _ in range(3000)]]
    hyps = [" ".join(rng.choice(FEW, 12)) for _ in range(3000)]
    metric = make(refs)
    calls = []

    def progress(fraction: float) -> None:
        calls.append(fraction)
        if len(calls) > 1:
            raise Cancelled()

    with pytest.raises(Cancelled):
        metric.statistics(hyps, progress)
    assert len(calls) == 2 and calls[1] < 1.0


def test_chrf_shading_keeps_a_combining_mark_with_its_base_and_leaves_whitespace_plain():
    from bleu_gui.core.metrics.chrf.explain import chrf_html

    metric = Chrf([["cafe noir"]])  # "e" and its accent match in different shares: each has a shade of its own
    evidence = metric.evidence(0, "cafe\u0301  noir")
    own = [m / c for m, c in zip(evidence.hypothesis.matched, evidence.hypothesis.covered) if c]
    assert own[3] != own[4]
    html = chrf_html(evidence.hypothesis)
    assert ">\u0301" not in html  # never the start of a span of its own: it stays with its "e"
    plain = [i for i, ch in enumerate(evidence.hypothesis.text) if ch.isspace()]
    assert all(evidence.hypothesis.covered[i] == 0 for i in plain)
    assert all(evidence.hypothesis.covered[i] > 0 for i in range(len("cafe\u0301")))
    assert evidence.score == CHRF().sentence_score("cafe\u0301  noir", ["cafe noir"]).score
