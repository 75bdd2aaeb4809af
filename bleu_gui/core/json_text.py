"""JSON as JSON: every document the command and the exports write parses with a strict parser.

Python's ``json`` writes a float NaN or infinity as the bare words ``NaN`` and ``Infinity``, which are not JSON.
A missing number (an undefined score, no p-value, an interval that cannot be drawn) is written ``null``; numpy's
numbers are written as the plain numbers they are.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np


def plain(value: Any) -> Any:
    """``value`` with every non-finite float as None and numpy scalars and arrays as Python numbers and lists."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def strict_dumps(obj: Any, indent: int | None = 1) -> str:
    """``obj`` as strict JSON text (see the module), UTF-8 characters kept as they are."""
    return json.dumps(plain(obj), ensure_ascii=False, indent=indent, allow_nan=False)
