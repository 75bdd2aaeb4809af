"""What a view asks the window to do, in one object: views call it (through the controller they hold) instead of
relaying signals up through the widgets that contain them. The window fills it with its scoring jobs and dialogs;
a view shown on its own (a test) gets one that records or does nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


def _nothing(*_args: object) -> None:
    return None


@dataclass(frozen=True)
class Actions:
    """- ``apply_slice(rows, description)``: show the whole run's segments ``rows`` as a corpus of their own;
    - ``clear_slice()``: show the whole corpus again;
    - ``apply_where(text, on_problem)``: show the segments where a slice expression holds; why it cannot (a bad
      expression, no segment) goes to ``on_problem(message)``;
    - ``compare_pair(a, b)``: make system ``a`` the baseline and compare it with ``b`` (-1: keep B);
    - ``rename(system)``: ask for a system's display name;
    - ``reset_settings()``: score again with the default settings;
    - ``reannotate(system, annotations, scores, source)``: score again with a system's (of the whole run) human
      error annotations replaced and segment score columns set (a reviewer's marks and ESA scores, read from the
      file ``source``): only the metrics that read them."""

    apply_slice: Callable[[Sequence[int], str], object] = _nothing
    clear_slice: Callable[[], object] = _nothing
    apply_where: Callable[[str, Callable[[str], object]], object] = _nothing
    compare_pair: Callable[[int, int], object] = _nothing
    rename: Callable[[int], object] = _nothing
    reset_settings: Callable[[], object] = _nothing
    reannotate: Callable[[int, tuple[object, ...], dict[str, tuple[float, ...]], str], object] = _nothing
