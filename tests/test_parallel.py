"""Blocks of work on a few threads come back in order; a stop drops what has not started."""

import threading

import pytest

from bleu_gui.core.metrics.parallel import in_order
from tests.conftest import HANG


def test_results_come_in_the_items_order_whatever_finishes_first():
    # Item 0 finishes last: it waits until items 1 and 2 (on the other workers) are done.
    later = threading.Event()
    done = []

    def job(k):
        if k == 0:
            assert later.wait(HANG)
        done.append(k)
        if len({1, 2} & set(done)) == 2:
            later.set()
        return k * k

    assert list(in_order(job, range(20), workers=3)) == [(k, k * k) for k in range(20)]
    assert done.index(0) > done.index(1) and done.index(0) > done.index(2)


def test_a_failing_job_raises_at_its_item():
    def job(k):
        if k == 4:
            raise ValueError("block 4")
        return k

    got = []
    with pytest.raises(ValueError, match="block 4"):
        for item, _ in in_order(job, range(10), workers=2):
            got.append(item)
    assert got == [0, 1, 2, 3]


def test_stopping_early_starts_no_more_jobs_and_leaves_no_thread():
    started = []

    def job(k):
        started.append(k)
        return k

    blocks = in_order(job, range(1000), workers=2)
    for item, _ in blocks:
        if item == 5:
            break
    blocks.close()
    assert len(started) <= 5 + 1 + 2  # the items seen, and at most two started ahead
    assert not [t for t in threading.enumerate() if t.name.startswith("bleu-block")]
