"""The ids bleu-gui gives the items of a human campaign it writes (:mod:`..output.human_campaign`), read back from
the raters' results: ``bleu-gui:KEY:LINE`` — KEY the first 12 hex digits of the SHA-256 of the run's source (its
segments, one per line, UTF-8), LINE the segment's 1-based line in the run's inputs. A rating carrying one is placed
on that line, never by matching its text. Also what a campaign's flags and fields offer: the protocols, and the words a
rater reads an hour."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

PROTOCOLS = {"esa": "ESA", "mqm": "MQM", "da": "DA"}  # ours → Pearmut's protocol names
# Source words a rater reads in an hour, each system's translation counted apart: the median of WMT24's ESA raters
# of en-zh and en-hi (26 raters), from the times in WMT's release (scripts/esa_words_per_hour.py).
WORDS_PER_HOUR = 3000
ID_PREFIX = "bleu-gui"
_ID = re.compile(rf"^{ID_PREFIX}:([0-9a-f]{{12}}):([1-9][0-9]*)$")


def lines_digest(lines: Sequence[str]) -> str:
    """SHA-256 (hex) of a file's segments as a run read them (one per line, UTF-8)."""
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def source_key(source_lines: Sequence[str]) -> str:
    """The KEY of a run's item ids: what names its source."""
    return lines_digest(source_lines)[:12]


def item_id(key: str, line: int) -> str:
    """The id of the item of 1-based ``line``."""
    return f"{ID_PREFIX}:{key}:{line}"


def parse_item_id(value: object) -> tuple[str, int] | None:
    """(KEY, LINE) of an id :func:`item_id` made; None for any other value."""
    found = _ID.match(value) if isinstance(value, str) else None
    return (found.group(1), int(found.group(2))) if found else None
