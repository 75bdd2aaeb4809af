"""The table of strings gives the ids a dict would, exactly, whatever the hashes do."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_gui.core.metrics import string_table
from bleu_gui.core.metrics.string_table import StringTable, Utf8Strings, utf8

# Short strings over a few characters repeat often; the rest covers empty strings, non-ASCII, a character
# outside the BMP, NUL and lone surrogates (a line that is not valid Unicode).
strings = st.text(alphabet=st.sampled_from(list("ab, é") + ["😀", "\x00", "\ud800", "\udfff"]), max_size=6)
batches = st.lists(st.lists(strings, max_size=40), max_size=6)


def check_against_dict(batches: list[list[str]]) -> None:
    table, model = StringTable(), {}
    for batch in batches:
        expected = [model.get(s, -1) for s in batch]
        assert table.find_strings(batch).tolist() == expected
        new = list(dict.fromkeys(s for s in batch if s not in model))
        assert table.add_strings(new).tolist() == list(range(len(model), len(model) + len(new)))
        model.update(zip(new, range(len(model), len(model) + len(new))))
        assert table.find_strings(batch).tolist() == [model[s] for s in batch]
    assert len(table) == len(model) and table.strings() == list(model)


@given(batches)
def test_ids_equal_a_dicts(batches):
    check_against_dict(batches)


@pytest.mark.parametrize("weak", [
    lambda starts, lengths, data: np.zeros(len(lengths), np.uint64),           # every string collides
    lambda starts, lengths, data: (lengths % 3).astype(np.uint64),             # strings of a length collide
])
@settings(max_examples=40)
@given(batches=batches)
def test_colliding_hashes_still_give_exact_ids(weak, batches):
    # Equal hashes of different strings must only make the search go on, never return the wrong id.
    with pytest.MonkeyPatch.context() as m:
        m.setattr(string_table, "string_hashes", weak)
        check_against_dict(batches)


def test_many_strings_grow_the_slots_and_keep_every_id():
    table = StringTable()
    words = [f"w{i}" for i in range(30_000)]
    for a in range(0, len(words), 7_000):
        table.add_strings(words[a:a + 7_000])
    assert table.find_strings(words[::-1] + ["w30000", "w"]).tolist() == list(range(29_999, -1, -1)) + [-1, -1]
    assert 2 * len(table) <= len(table._slots)


def test_strings_of_one_buffer_are_found_where_they_are():
    starts, lengths, data = utf8(["xx", "héllo", "", "a"])
    table = StringTable()
    table.add(starts[1:], lengths[1:], data)  # "héllo", "", "a"
    assert table.find(starts, lengths, data).tolist() == [-1, 0, 1, 2]
    assert table.find(starts[[3, 1]], lengths[[3, 1]], data).tolist() == [2, 0]


def test_a_copy_is_independent():
    table = StringTable()
    table.add_strings(["a", "b"])
    twin = table.copy()
    twin.add_strings(["c"])
    table.add_strings(["d"])
    assert table.strings() == ["a", "b", "d"] and twin.strings() == ["a", "b", "c"]
    assert table.find_strings(["c", "d"]).tolist() == [-1, 2] and twin.find_strings(["c", "d"]).tolist() == [2, -1]


def test_utf8_strings_decode_and_extend():
    keys = Utf8Strings.of(["a", "é", "b"])
    keys.extend(["\nx", "a"])
    assert keys.strings(list(range(len(keys)))) == ["a", "é", "b", "\nx", "a"]
    assert keys.strings([4, 1, 3]) == ["a", "é", "\nx"]
    table = StringTable()
    table.add_strings(["\nx", "é"])
    assert table.find(keys.starts, keys.lengths, keys.data).tolist() == [-1, 1, -1, 0, -1]
