"""The character edit distance's settings and its family (the metric is :mod:`.edit`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..family import Family
from ..settings import MetricSettings, setting


@dataclass(frozen=True)
class EditConfig(MetricSettings):
    """The edit distance's settings."""

    lowercase: bool = setting(False, label="lowercased", help="lowercase both texts before counting edits")

    key: ClassVar[str] = "edit"
    badge: ClassVar[str] = "edit distance"
    name: ClassVar[str] = "EditDistance"

    def validated(self) -> EditConfig:
        return self

    def signature(self, nrefs: int | str, resampling: dict[str, object] | None = None) -> str:
        """What defines the number, e.g. ``nrefs:1|case:mixed|unit:char|ref:closest|rapidfuzz:3.14.6``."""
        import rapidfuzz  # its own version, without importlib.metadata (tens of ms at every start)

        extra = [f"{k}:{v}" for k, v in (resampling or {}).items()]
        return "|".join([f"nrefs:{nrefs}", *extra, f"case:{'lc' if self.lowercase else 'mixed'}", "unit:char",
                         "ref:closest", f"rapidfuzz:{rapidfuzz.__version__}"])


FAMILY = Family("edit", "Edit distance", EditConfig, "edit.edit",
                about="Character edit distance (Levenshtein over code points) to the closest reference, over its "
                      "length, as post-editing tools report it (lower is better)")
