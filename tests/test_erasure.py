"""Erasure's words and their tally across a corpus, by hand (the model's numbers are unbabel-comet's: see
tests/test_comet_explained.py)."""

from bleu_gui.core.analysis.erasure import Erasure, Word, erase_all, held_against, word_spans


def _erasure(text, deltas):
    spans = word_spans(text)
    return Erasure("target", text, 0.5, tuple(Word(a, b, text[a:b], d) for (a, b), d in zip(spans, deltas)))


def test_the_words_held_against_a_system_are_those_whose_erasure_raises_the_score_most_often():
    erasures = [
        (0, _erasure("The cat sat.", [0.1, 0.3, -0.2])),
        (1, _erasure("the dog, sat", [0.2, -0.1, 0.4])),
        (2, _erasure("Cat! The end", [-0.3, 0.05, 0.0])),
    ]
    held = held_against(erasures)
    # "the" (The, the, The: casefolded) raised the score 3 times of 3; "sat" (sat., sat) once of 2; "cat" (cat,
    # Cat!) once of 2 — tied with sat on count, behind it on the mean rise (+0.1 against 0.0); "end" (0.0) never.
    assert [(h.word, h.raised, h.occurrences, h.segments) for h in held] == [
        ("the", 3, 3, (0, 1, 2)), ("sat", 1, 2, (1,)), ("cat", 1, 2, (0,))]
    assert abs(held[0].mean_delta - (0.1 + 0.2 + 0.05) / 3) < 1e-12
    assert held_against(erasures, k=1) == held[:1]


def test_a_slice_is_erased_in_one_request_with_each_segments_own_variants():
    asked = []

    def score(variants):
        asked.append(list(variants))
        return [float(len(c)) for _i, _s, c in variants]  # a "model" that scores a text by its length

    found = erase_all("target", [(4, "src a", "a b"), (7, "src b", "c"), (9, "src c", "")], score)
    assert len(asked) == 1  # one request for the three segments
    assert asked[0] == [(4, "src a", "a b"), (4, "src a", "b"), (4, "src a", "a"), (7, "src b", "c"), (7, "src b", ""),
                        (9, "src c", "")]  # a segment's own text first: its score is what each delta is from
    assert [[(w.text, w.delta) for w in e.words] for e in found] == [[("a", -2.0), ("b", -2.0)], [("c", -1.0)], []]
    assert found[2].score == 0.0 and found[2].text == ""  # an empty candidate has no word to leave out
