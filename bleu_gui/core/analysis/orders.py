"""The orders a sentence list can be sorted in, computed once per system (in the window's worker).

With an order at hand, sorting any subset of the sentences (what the list's
filters leave) is a mask walk over one array, a few milliseconds for a million
rows, instead of a sort on the GUI thread. A single ``sorted()`` of a million
lines holds the interpreter lock for about a second, which would freeze the
window even from a worker thread; :func:`text_order` instead sorts numeric
prefixes with numpy (which lets go of the lock) and only the sentences that
share a prefix with Python, a small group at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

_PREFIX = 9  # characters compared with numpy: three 21-bit code points to each of three 64-bit keys
_PIECE = 100_000  # lines whose prefixes are encoded in one call


@dataclass(frozen=True)
class SentenceOrders:
    """Stable ascending orders of all sentences: by text (as Python compares strings), by sentence score and by
    length ratio (undefined values first, as -1); the ratios themselves (NaN where undefined) and the sentences
    in each score band (:func:`score_bands`), which the list's histogram shows."""

    text: np.ndarray
    score: np.ndarray
    ratio: np.ndarray
    ratios: np.ndarray
    bands: np.ndarray
    scale: tuple[float, float] = (0.0, 100.0)  # the scores' range, split into the ten bands


def length_ratios(hyp_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    """Candidate length over effective reference length per sentence (NaN without a reference length)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(ref_len > 0, hyp_len / np.maximum(ref_len, 1), np.nan)


def value_order(values: np.ndarray) -> np.ndarray:
    """Stable ascending order of ``values``, NaN counted as -1."""
    return np.argsort(np.nan_to_num(np.asarray(values, np.float64), nan=-1.0), kind="stable")


def sentence_orders(lines: Sequence[str], scores: np.ndarray, hyp_len: np.ndarray,
                    ref_len: np.ndarray, text: np.ndarray | None = None,
                    scale: tuple[float, float] = (0.0, 100.0)) -> SentenceOrders:
    """The three orders of a system's sentences, its length ratios and score bands on ``scale`` (what a list
    shows); ``text``: the text order when it is known already (it is the same under every metric)."""
    ratios = length_ratios(hyp_len, ref_len)
    return SentenceOrders(text_order(lines) if text is None else text, value_order(scores), value_order(ratios),
                          ratios, score_bands(scores, scale), scale)


def score_bands(scores: np.ndarray, scale: tuple[float, float] = (0.0, 100.0)) -> np.ndarray:
    """How many sentence scores fall in each tenth of ``scale`` — [0, 10), [10, 20), ..., [90, 100] for the
    0-100 metrics, whose last band also holds TER's scores past 100 (more edits than reference words); a score
    outside the scale counts in the band at its end; undefined scores are left out. The window's histogram and
    the report's chart count alike."""
    low, high = scale
    step = (high - low) / 10
    finite = scores[np.isfinite(scores)]
    # Floor division by the band's width is exact at the band edges of 0-100 (multiples of 10).
    band = np.minimum(np.maximum((finite - low) // step, 0), 9).astype(np.int64)
    return np.bincount(band, minlength=10)


def _prefix_keys(lines: Sequence[str]) -> np.ndarray:
    """(lines × 3) uint64 keys whose lexicographic order is that of the lines' first nine characters,
    shorter lines padded with U+0000 (padding ties are settled by comparing whole lines)."""
    points = np.empty((len(lines), _PREFIX), np.uint64)
    for a in range(0, len(lines), _PIECE):
        # A piece at a time: joining and encoding a million prefixes in one call held the lock for ~50 ms.
        padded = "".join([line[:_PREFIX].ljust(_PREFIX, "\0") for line in lines[a:a + _PIECE]])
        piece = np.frombuffer(padded.encode("utf-32-le", "surrogatepass"), np.uint32)
        points[a:a + len(piece) // _PREFIX] = piece.reshape(-1, _PREFIX)
    return (points[:, 0::3] << np.uint64(42)) | (points[:, 1::3] << np.uint64(21)) | points[:, 2::3]


def text_order(lines: Sequence[str]) -> np.ndarray:
    """``sorted(range(len(lines)), key=lines.__getitem__)`` as an array, without holding the lock for long."""
    n = len(lines)
    if n == 0:
        return np.zeros(0, np.int64)
    keys = _prefix_keys(lines)
    order = np.lexsort(keys.T[::-1])  # stable; the last key given is the first compared
    ranked = keys[order]
    new = np.ones(n, bool)
    new[1:] = np.any(ranked[1:] != ranked[:-1], axis=1)
    starts = np.flatnonzero(new)
    ends = np.append(starts[1:], n)
    for a, b in zip(starts[ends - starts > 1].tolist(), ends[ends - starts > 1].tolist()):
        # Lines sharing a prefix, in index order (lexsort is stable): Python's stable sort settles them.
        order[a:b] = sorted(order[a:b].tolist(), key=lines.__getitem__)
    return order.astype(np.int64)


def ordered(order: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The sentences ``rows`` in the order ``order`` (a permutation of all sentences)."""
    keep = np.zeros(len(order), bool)
    keep[rows] = True
    return order[keep[order]]


_MATCH_CHUNK = 50_000  # lines handled between progress calls


def casefolded(lines: Sequence[str], progress: Callable[[float], None] | None = None) -> list[str]:
    """Every line casefolded (for case-insensitive search); ``progress`` is called between chunks."""
    out: list[str] = []
    for a in range(0, len(lines), _MATCH_CHUNK):
        if progress is not None:
            progress(a / len(lines))
        out.extend([line.casefold() for line in lines[a:a + _MATCH_CHUNK]])
    return out


def text_matches(folded: Sequence[str], needle: str, progress: Callable[[float], None] | None = None) -> np.ndarray:
    """For each casefolded line (see :func:`casefolded`): does it contain ``needle``, casefolded too?

    ``progress`` is called between chunks of lines (it may raise to stop).
    """
    needle = needle.casefold()
    out = np.empty(len(folded), bool)
    for a in range(0, len(folded), _MATCH_CHUNK):
        if progress is not None:
            progress(a / len(folded))
        part = folded[a:a + _MATCH_CHUNK]
        out[a:a + len(part)] = np.fromiter((needle in line for line in part), bool, len(part))
    return out
