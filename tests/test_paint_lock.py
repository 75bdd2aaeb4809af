"""A window repaint keeps the interpreter lock from a busy worker.

A paint of the sentence list calls the model's data() hundreds of times. If the
GUI thread let go of the interpreter lock between those calls, a busy worker took
it back after each one, and the GUI thread waited for it again: repainting the list
while a million lines were searched or scored took 90-300 ms instead of ~15 ms
(measured by scripts/bench_gui.py). The lists paint through a paintEvent written in
Python: called from Python, the base paint keeps the lock (the binding does not
release it there), so the worker only gets it when it asks and a switch interval has
passed. These tests hold that mechanism in place; the benchmark measures its effect.
"""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QTableView

from bleu_gui.gui.widgets.layout import Table


def test_tables_paint_from_python():
    assert Table.paintEvent is not QTableView.paintEvent
    assert "paintEvent" in Table.__dict__


def test_every_list_of_the_window_is_such_a_table(window):
    tables = window.findChildren(QTableView)
    assert tables and all(isinstance(t, Table) for t in tables), [type(t).__name__ for t in tables]


def test_workers_hand_the_lock_over_often(window):
    # Each of the window's calls into Python needs the lock: a worker keeps it at most half a millisecond while
    # the window waits (see core/runtime.py).
    assert sys.getswitchinterval() <= 0.0005
