"""Freed memory is handed back to the system after a large run's references are indexed and after each of its
systems; a small run frees too little to pay for a trim, which walks the whole heap."""

import sys

import pytest

from bleu_gui.core import runtime
from bleu_gui.core.metrics.bleu.metric import Bleu


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim is Linux only")
def test_glibc_gives_freed_memory_back():
    assert runtime.release_free_memory(runtime.RELEASE_FROM_LINES) is True


@pytest.fixture
def trims(monkeypatch):
    calls: list[int] = []
    monkeypatch.setattr(runtime, "_malloc_trim", lambda: calls.append)
    return calls


def test_a_large_run_releases_memory_after_indexing_and_after_each_system(trims):
    n = runtime.RELEASE_FROM_LINES
    ev = Bleu([[f"the cat sat on mat {i}" for i in range(n)]])
    after_index = len(trims)
    assert after_index >= 1
    ev.statistics([f"the cat sat {i}" for i in range(n)])
    after_system = len(trims)
    assert after_system >= after_index + 1
    ev.matched_statistics([f"a cat {i}" for i in range(n)])
    assert len(trims) >= after_system + 1


def test_a_small_run_makes_no_trim(trims):
    n = runtime.RELEASE_FROM_LINES - 1
    ev = Bleu([[f"the cat sat on mat {i}" for i in range(n)]])
    ev.statistics([f"the cat sat {i}" for i in range(n)])
    ev.matched_statistics([f"a cat {i}" for i in range(n)])
    assert trims == []
