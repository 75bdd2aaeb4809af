"""Letting go of a replaced run piece by piece: only what nothing else can reach is emptied."""

import threading
import types
import weakref
from dataclasses import dataclass

import pytest

from bleu_gui.core import runtime as release
from tests.conftest import HANG


@dataclass(frozen=True)
class File:
    lines: list


@dataclass(frozen=True)
class Run:
    systems: list
    references: list
    vocabulary: dict


class Line(str):
    """A line whose freeing can be watched (str itself takes no weak references)."""


def a_run(n=50):
    ref = File([Line(f"ref {i}") for i in range(n)])
    return Run([File([Line(f"sys {i}") for i in range(n)])], [ref, ref], {f"w{i}": i for i in range(n)})


@pytest.fixture(autouse=True)
def small_large(monkeypatch):
    monkeypatch.setattr(release, "_LARGE", 10)
    monkeypatch.setattr(release, "_SLICE", 7)
    monkeypatch.setattr(release, "_SETTLE", 0.0)


def watch(lines):
    return [weakref.ref(line) for line in lines]


def test_a_run_nothing_else_holds_is_emptied_even_where_it_holds_a_file_twice():
    run = a_run()
    sys_lines, ref_lines = watch(run.systems[0].lines), watch(run.references[0].lines)
    box = [run]
    del run
    assert release.empty_unreachable(box)
    # Emptied while the run itself still stands: its lines went in slices, not with it.
    assert box[0].systems[0].lines == [] and box[0].references[0].lines == [] and box[0].vocabulary == {}
    assert all(r() is None for r in sys_lines + ref_lines)


def test_a_file_the_next_run_still_shows_keeps_every_line():
    run = a_run()
    shown = run.references[0]  # the same reference, re-scored
    box = [run]
    del run
    assert release.empty_unreachable(box)
    assert len(shown.lines) == 50 and box[0].references[1].lines is shown.lines
    assert box[0].systems[0].lines == []


def test_a_list_held_from_outside_is_not_touched():
    run = a_run()
    lines = run.systems[0].lines
    box = [run]
    del run
    assert release.empty_unreachable(box)
    assert lines == [f"sys {i}" for i in range(50)]


def test_a_weakly_referenced_holder_keeps_its_lines():
    run = a_run()
    weak = weakref.ref(run.systems[0])
    box = [run]
    del run
    assert release.empty_unreachable(box)
    assert len(weak().lines) == 50


def test_a_run_still_held_elsewhere_is_not_emptied_at_all():
    run = a_run()
    box = [run]
    assert not release.empty_unreachable(box)
    assert len(run.systems[0].lines) == 50 and len(run.vocabulary) == 50


def test_short_containers_are_left_to_their_holder():
    run = Run([File([Line("a"), Line("b")])], [], {})
    box = [run]
    del run
    assert release.empty_unreachable(box)
    assert box[0].systems[0].lines == ["a", "b"]


def test_the_thread_empties_what_it_is_handed_once_the_caller_has_let_go(monkeypatch):
    emptied = threading.Event()
    outcomes = []
    empty = release.empty_unreachable

    def watched(box):
        outcomes.append((id(box[0]), empty(box)))
        if outcomes[-1] == (mine, True):
            emptied.set()
        return outcomes[-1][1]

    monkeypatch.setattr(release, "empty_unreachable", watched)
    run = a_run()
    mine, lines = id(run), watch(run.systems[0].lines)
    release.let_go(run)
    del run
    # Other tests' windows may have handed over runs they still show: the thread waits on each for a while.
    assert emptied.wait(HANG)
    assert all(r() is None for r in lines)


def test_nothing_is_emptied_until_the_window_has_had_time_to_show_the_new_run(monkeypatch):
    # A slice running while the window paints the new run makes each of its many grabs of the interpreter lock
    # wait: the releasing thread holds off for _SETTLE seconds after the hand-over. The thread's clock is a
    # fake here: it records each sleep and lets time pass at once, so the test waits on no clock of its own.
    monkeypatch.setattr(release, "_SETTLE", 0.5)
    events, emptied, clock = [], threading.Event(), [1000.0]

    def sleep(seconds):
        events.append(("sleep", seconds))
        clock[0] += seconds

    monkeypatch.setattr(release, "time", types.SimpleNamespace(monotonic=lambda: clock[0], sleep=sleep))
    empty = release.empty_unreachable

    def watched(box):
        done = empty(box)
        events.append(("empty", id(box[0]), done))
        if id(box[0]) == mine and done:
            emptied.set()
        return done

    monkeypatch.setattr(release, "empty_unreachable", watched)
    run = a_run()
    mine, lines = id(run), watch(run.systems[0].lines)
    release.let_go(run)
    del run
    assert emptied.wait(HANG)
    mine_at = events.index(("empty", mine, True))
    assert ("sleep", 0.5) in events[:mine_at]  # the whole settle time, before anything of it was emptied
    assert all(r() is None for r in lines)
