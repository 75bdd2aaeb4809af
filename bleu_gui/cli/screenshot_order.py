"""What ``bleu-gui --screenshot`` is asked for (read before Qt starts, so nothing here imports Qt)."""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from pathlib import Path

TABS = ("inspect", "compare", "documents")


# The largest window painted offscreen: 8192 px a side is an 8K screen and more; far larger, Qt's raster image
# cannot be allocated and the process dies (99999x99999 crashed with a segmentation fault).
MIN_SIDE, MAX_SIDE = 100, 8192


def window_size(text: str) -> tuple[int, int]:
    """``1366x768`` as (width, height), each side 100..8192; :class:`argparse.ArgumentTypeError` otherwise."""
    m = re.fullmatch(r"\s*(\d{1,9})\s*[x×]\s*(\d{1,9})\s*", text)
    if m is None:
        raise argparse.ArgumentTypeError(f"{text!r}: give the size as WIDTHxHEIGHT, e.g. 1366x768")
    width, height = int(m.group(1)), int(m.group(2))
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise argparse.ArgumentTypeError(f"{text}: each side must be {MIN_SIDE} to {MAX_SIDE} pixels (a larger "
                                         "picture cannot be painted)")
    return width, height


@dataclass(frozen=True)
class ScreenshotOrder:
    """Where to write the picture, the window's size, the tab, the 1-based sentence and the metric to show."""

    path: Path
    size: tuple[int, int] = (1400, 860)
    tab: str = "inspect"
    sentence: int | None = None
    metric: str | None = None  # the metric shown, by its key or name (None: the window's first)

    @property
    def json_path(self) -> Path:
        return self.path.with_suffix(".json")
