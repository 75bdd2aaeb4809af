"""What ``bleu-gui --screenshot`` is asked for (read before Qt starts, so nothing here imports Qt)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

TABS = ("inspect", "compare", "documents")


def window_size(text: str) -> tuple[int, int]:
    """``1366x768`` as (width, height); :class:`ValueError` otherwise (argparse's message)."""
    m = re.fullmatch(r"\s*(\d{3,5})\s*[x×]\s*(\d{3,5})\s*", text)
    if m is None:
        raise ValueError(text)
    return int(m.group(1)), int(m.group(2))


@dataclass(frozen=True)
class ScreenshotOrder:
    """Where to write the picture, the window's size, the tab and the 1-based sentence to show."""

    path: Path
    size: tuple[int, int] = (1400, 860)
    tab: str = "inspect"
    sentence: int | None = None

    @property
    def json_path(self) -> Path:
        return self.path.with_suffix(".json")
