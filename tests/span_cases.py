"""The span cases that the span-agreement oracles scored (scripts/span_oracles.py) and the tests score again: the
hand-worked ones and seeded random corpora, each segment ``(length, predicted, gold)`` with spans as
``(start, end, severity, side)``; an omission is ``(None, None, severity, "target")``."""

from __future__ import annotations

import random

Span = tuple[int | None, int | None, str, str]
Segment = tuple[int, list[Span], list[Span]]

HAND: dict[str, list[Segment]] = {
    # "Ich möchte euch alle bitten" (27): gold 11..15 Major, predicted 8..15 Major: 4 of 7 predicted characters,
    # 4 of 4 gold ones.
    "partial overlap": [(27, [(8, 15, "major", "target")], [(11, 15, "major", "target")])],
    # The same characters, the severity wrong.
    "severity mismatch": [(27, [(11, 15, "minor", "target")], [(11, 15, "major", "target")])],
    # The gold marks an omission, the prediction too, and a span the gold does not have.
    "omission": [(20, [(None, None, "major", "target"), (0, 4, "minor", "target")],
                  [(None, None, "major", "target")])],
    # Two gold spans on one character (two raters' errors stacked), one predicted span over both.
    "two spans on one character": [(10, [(2, 6, "major", "target")],
                                    [(2, 5, "major", "target"), (4, 6, "minor", "target")])],
    "empty prediction": [(15, [], [(3, 9, "major", "target")])],
    "empty gold": [(15, [(3, 9, "minor", "target")], [])],
    "both empty": [(15, [], [])],
    # A source-side gold span (an omission marked in the source, as MQM raters do) and a target span.
    "source side": [(30, [(5, 9, "major", "source")], [(5, 10, "major", "source"), (0, 3, "minor", "target")])],
    # One predicted span overlapping two gold spans: one-to-one pairs it with one of them.
    "one over two": [(40, [(0, 20, "major", "target")], [(0, 5, "major", "target"), (10, 20, "major", "target")])],
    # Critical counts as Major where the measure knows two severities.
    "critical": [(12, [(0, 6, "major", "target")], [(0, 6, "critical", "target")])],
}


def random_corpus(seed: int, segments: int = 60) -> list[Segment]:
    """A corpus of segments with 0-4 spans per side: overlaps, nesting, both sides, every severity, omissions."""
    rng = random.Random(seed)

    def spans(length: int) -> list[Span]:
        out: list[Span] = []
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3, 4])):
            severity = rng.choice(["major", "minor", "minor", "critical"])
            if rng.random() < 0.08:
                out.append((None, None, severity, "target"))
                continue
            side = "source" if rng.random() < 0.15 else "target"
            start = rng.randrange(length)
            out.append((start, rng.randint(start + 1, min(length, start + 12)), severity, side))
        return out

    corpus = []
    for _ in range(segments):
        length = rng.randint(5, 60)
        gold = spans(length)
        if rng.random() < 0.5 and gold:  # a detector near the gold: shifted, trimmed, severity flipped
            predicted = []
            for start, end, severity, side in gold:
                if start is None or end is None or rng.random() < 0.2:
                    predicted.append((start, end, severity, side))
                    continue
                a = min(length - 1, max(0, start + rng.randint(-2, 2)))
                b = min(length, max(a + 1, end + rng.randint(-2, 2)))
                predicted.append((a, b, rng.choice([severity, severity, "minor", "major"]), side))
        else:
            predicted = spans(length)
        corpus.append((length, predicted, gold))
    return corpus


RANDOM_SEEDS = (1, 2, 3, 4, 5)


def detector_from(gold: list[Span], length: int, key: int) -> list[Span]:
    """A detector made from a rater's spans by a fixed rule, to score real annotations against: of every span
    (by ``key``, a segment's number, and its place) one in five is dropped, one in three has its severity flipped,
    the rest end one character later (within the text); every seventh segment gains a span on its first two
    characters. Omissions are kept."""
    out: list[Span] = []
    for k, (start, end, severity, side) in enumerate(gold):
        turn = key + k
        if turn % 5 == 0:
            continue
        if start is None or end is None:
            out.append((start, end, severity, side))
            continue
        if turn % 3 == 0:
            severity = "minor" if severity != "minor" else "major"
        out.append((start, min(length, end + 1) if end < length else end, severity, side))
    if key % 7 == 0 and length >= 2:
        out.append((0, 2, "minor", "target"))
    return out


def wmt24_latest(path, pair: str) -> dict:
    """WMT24's ESA lines of ``pair`` read here from the raw file (the systems', not refA's): the later of a rater's
    ratings of a segment counts, as WMT's ``humeval/tools.py`` counts. (system, line_id, annotator) → the line."""
    import json

    latest = {}
    for line in path.read_text("utf-8").splitlines():
        o = json.loads(line)
        if o["langs"] == pair and o["system"] != "refA":
            latest[(o["system"], o["line_id"], o["annotator"])] = o
    return latest


def utf16_span(text: str, start_unit: int, end_unit: int) -> tuple[int, int]:
    """Code points of the UTF-16 code units ``start_unit``..``end_unit`` (inclusive, as the raters' pages count): a
    character half selected (one unit of an emoji's pair) is selected whole."""
    ends, at = [], 0
    for ch in text:
        at += 2 if ord(ch) > 0xFFFF else 1
        ends.append(at)  # the unit after each character
    start = sum(1 for e in ends if e <= start_unit)
    end = sum(1 for e, ch in zip(ends, text) if e - (2 if ord(ch) > 0xFFFF else 1) <= end_unit)
    return start, end


def wmt24_gold(o: dict) -> list[Span]:
    """A WMT24 rating's spans as code-point spans ("missing": an omission; undecided: no error, left out)."""
    gold: list[Span] = []
    for span in o["esa_spans"]:
        if span["severity"] == "undecided":
            continue
        if span["start_i"] == "missing":
            gold.append((None, None, span["severity"], "target"))
            continue
        start, end = utf16_span(o["tgt"], int(span["start_i"]), int(span["end_i"]))
        if end > start:
            gold.append((start, end, span["severity"], "target"))
    return gold
