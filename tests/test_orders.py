"""The precomputed list orders equal Python's and numpy's own sorts, on any subset of the sentences."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from bleu_gui.core.analysis.orders import length_ratios, ordered, sentence_orders, text_order, value_order

from .conftest import data_set

# Strings that share long prefixes, differ only after nine characters, are prefixes of each other, hold
# U+0000 (the padding character), surrogates and characters outside the BMP.
pieces = st.sampled_from(["", "a", "The president", "The presidential", "The", "\0", "\0a", "b\0", "ä", "😀",
                          "\ud800", "z", " ", "The president said", "9"])
lines = st.lists(st.lists(pieces, max_size=4).map("".join), max_size=40)


@given(lines)
def test_text_order_is_pythons_stable_sort(values):
    assert text_order(values).tolist() == sorted(range(len(values)), key=values.__getitem__)


@given(lines)
def test_text_order_is_the_same_when_prefixes_are_encoded_in_pieces(values):
    from unittest import mock

    from bleu_gui.core.analysis import orders

    with mock.patch.object(orders, "_PIECE", 7):  # several pieces, the last one short
        assert text_order(values).tolist() == sorted(range(len(values)), key=values.__getitem__)


@given(lines, st.data())
def test_any_subset_in_the_precomputed_order_equals_sorting_the_subset(values, data):
    rows = np.array(sorted(data.draw(st.sets(st.integers(0, max(len(values) - 1, 0)))) if values else []),
                    np.int64)
    assert ordered(text_order(values), rows).tolist() == sorted(rows.tolist(), key=values.__getitem__)


@given(st.lists(st.one_of(st.floats(0, 100), st.just(float("nan"))), max_size=40), st.data())
def test_value_orders_are_stable_with_nan_as_minus_one(values, data):
    array = np.array(values, np.float64)
    rows = np.array(sorted(data.draw(st.sets(st.integers(0, max(len(values) - 1, 0)))) if values else []),
                    np.int64)
    key = [(-1.0 if np.isnan(array[r]) else array[r], r) for r in rows.tolist()]
    assert ordered(value_order(array), rows).tolist() == [r for _, r in sorted(key)]


def test_real_file_orders():
    folder = data_set("sacrebleu-wmt17-en-de")
    text = (folder / "sys1.txt").read_text(encoding="utf-8").split("\n")[:-1]
    scores = np.linspace(0, 1, len(text)) % 0.1
    hyp_len, ref_len = np.arange(len(text)) % 7, np.arange(len(text)) % 5
    orders = sentence_orders(text, scores, hyp_len, ref_len)
    assert orders.text.tolist() == sorted(range(len(text)), key=text.__getitem__)
    assert orders.score.tolist() == np.argsort(scores, kind="stable").tolist()
    assert orders.ratio.tolist() == np.argsort(np.nan_to_num(length_ratios(hyp_len, ref_len), nan=-1.0),
                                               kind="stable").tolist()


def test_text_matches_casefolds_both_sides():
    from bleu_gui.core.analysis.orders import casefolded, text_matches

    lines = casefolded(["Straße", "STRASSE", "strasse", "nothing", "", "ΣΟΦΟΣ"])
    assert text_matches(lines, "STRASSE").tolist() == [True, True, True, False, False, False]
    assert text_matches(lines, "σοφος").tolist() == [False] * 5 + [True]
    assert text_matches(lines, "").tolist() == [True] * 6
