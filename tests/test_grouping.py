"""The sort-based grouping equals np.unique and a plain binary search, packed or not."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from bleu_gui.core.metrics.grouping import counted, find, group

# Small keys pack with their positions; keys near 2^62 do not and take np.unique's path.
keys = st.lists(st.one_of(st.integers(0, 50), st.integers(0, 2**62)), max_size=200).map(
    lambda xs: np.array(xs, np.int64))


@given(keys)
def test_group_equals_unique(values):
    unique, inverse, counts = group(values)
    want_unique, want_inverse, want_counts = np.unique(values, return_inverse=True, return_counts=True)
    assert unique.tolist() == want_unique.tolist()
    assert inverse.tolist() == want_inverse.reshape(-1).tolist()
    assert counts.tolist() == want_counts.tolist()


@given(keys)
def test_counted_equals_unique(values):
    unique, counts = counted(values)
    want_unique, want_counts = np.unique(values, return_counts=True)
    assert (unique.tolist(), counts.tolist()) == (want_unique.tolist(), want_counts.tolist())


@given(keys, keys)
def test_find_gives_the_row_or_minus_one(table_values, queries):
    table = np.unique(table_values)
    rows = {int(k): i for i, k in enumerate(table)}
    assert find(table, queries).tolist() == [rows.get(int(q), -1) for q in queries]
