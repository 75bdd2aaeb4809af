"""``exp``, ``log`` and ``pow`` of many values as Python's :mod:`math` computes them: the C library's functions,
which sacreBLEU (``math.exp``, ``my_log``), NLTK (``math.log``, ``math.exp``, ``math.fsum``) and the d2l textbook
(``math.exp``, ``math.pow``) call.

NumPy's own vectorised ``np.exp``/``np.log`` (its SIMD loops, chosen by the CPU) may differ from the C library in
the last bit: measured on this project's machine, ``np.exp`` on 4.6% of a million values and ``np.log`` on 0.02%,
enough to change sacreBLEU's printed JSON score (10.18567630100432 against 10.185676301004321). Scores are
promised equal bit for bit, so every value goes through :mod:`math`, mapped over a list (about 40 ns a value).
Approximate randomization asks of its trials' scores only on which side of the observed difference they lie: it
takes NumPy's and scores again here the few trials near that difference (``analysis/randomization.py: _past``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np


def _each(function: Callable[..., float], *arrays: np.ndarray) -> np.ndarray:
    shaped = np.broadcast_arrays(*(np.asarray(a, dtype=np.float64) for a in arrays))
    flat = [a.ravel().tolist() for a in shaped]
    out = np.fromiter(map(function, *flat), dtype=np.float64, count=shaped[0].size)
    return out.reshape(shaped[0].shape)


def exp(values: np.ndarray) -> np.ndarray:
    """``math.exp`` of each value (float64)."""
    return _each(math.exp, values)


def log(values: np.ndarray) -> np.ndarray:
    """``math.log`` of each value; every value must be positive (callers choose what a zero becomes)."""
    return _each(math.log, values)


def power(base: np.ndarray, exponent: np.ndarray | float) -> np.ndarray:
    """``math.pow`` of each pair (base ≥ 0)."""
    return _each(math.pow, base, np.asarray(exponent, dtype=np.float64))


def fsum_rows(values: np.ndarray) -> np.ndarray:
    """``math.fsum`` of each row of a 2-D array (NLTK adds its weighted logs so: exactly rounded)."""
    return np.fromiter(map(math.fsum, np.asarray(values, dtype=np.float64).tolist()), dtype=np.float64,
                       count=len(values))
