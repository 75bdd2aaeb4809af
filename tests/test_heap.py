"""Freed memory is handed back to the system after the references are indexed and after each system."""

import sys

import pytest

from bleu_gui.core import runtime
from bleu_gui.core.metrics.bleu import metric as bleu
from bleu_gui.core.metrics.bleu.metric import Bleu


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim is Linux only")
def test_glibc_gives_freed_memory_back():
    assert runtime.release_free_memory() is True


def test_an_evaluator_releases_memory_after_indexing_and_after_each_system(monkeypatch):
    calls = []
    monkeypatch.setattr(bleu, "release_free_memory", lambda: calls.append(1))
    ev = Bleu([["the cat sat", "a dog"]])
    assert len(calls) == 1
    ev.statistics(["the cat", "a dog"])
    ev.matched_statistics(["the cat", "a dog"])
    assert len(calls) == 3
