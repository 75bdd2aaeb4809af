"""A candidate one line off its references is caught, on every real set, and nothing aligned is flagged."""

from pathlib import Path

import pytest

from bleu_gui.core.analysis.misalignment import find_misalignment
from bleu_gui.core.inputs.text_files import read_segments

from .conftest import DATA


def real_sets():
    if not DATA.is_dir():
        return []
    out = []
    for folder in sorted(p for p in DATA.iterdir() if p.is_dir() and p.name != "formats"):
        refs = sorted(folder.glob("ref*.txt"))
        systems = sorted(p for p in folder.glob("*.txt") if not p.name.startswith(("ref", "src")))
        out += [pytest.param(system, refs, id=f"{folder.name}/{system.name}") for system in systems]
    return out


def lines(path: Path) -> list[str]:
    return read_segments(path).lines


@pytest.mark.slow
@pytest.mark.parametrize("system, refs", real_sets())
def test_no_false_alarm_and_a_dropped_or_doubled_line_is_found(system, refs):
    hyp, ref_lines = lines(system), [lines(r) for r in refs]
    assert find_misalignment(hyp, ref_lines) is None
    mid = len(hyp) // 2
    dropped = find_misalignment(hyp[:mid] + hyp[mid + 1:] + [""], ref_lines)
    assert dropped is not None and dropped.shift == 1 and abs(dropped.line - (mid + 1)) <= 6, dropped
    doubled = find_misalignment(hyp[:mid + 1] + hyp[mid:-1], ref_lines)
    assert doubled is not None and doubled.shift == -1 and abs(doubled.line - (mid + 2)) <= 6, doubled


def test_the_data_sets_are_there_or_the_test_says_so():
    if not DATA.is_dir():
        pytest.skip(f"real data sets not available at {DATA}")
    assert len(real_sets()) >= 20


def test_a_long_file_is_scanned_in_windows_and_the_break_found_exactly(monkeypatch):
    from bleu_gui.core.analysis import misalignment

    monkeypatch.setattr(misalignment, "_FULL_SCAN", 400)
    monkeypatch.setattr(misalignment, "_WINDOWS", 8)  # 8 windows of 50 lines: the break falls between two
    words = [f"w{i}" for i in range(5000)]
    ref = [" ".join(words[(7 * i + k) % 5000] for k in range(9)) for i in range(3000)]
    hyp = list(ref)
    assert find_misalignment(hyp, [ref]) is None
    broken = hyp[:2100] + hyp[2101:] + ["x"]
    found = find_misalignment(broken, [ref])
    assert found is not None and (found.line, found.shift) == (2101, 1)
    assert "misaligned from line 2101" in found.describe("sys.txt")


@pytest.mark.parametrize("references", [1, 2])
@pytest.mark.parametrize("at", [5, 430, 1000, 2107, 2960])
def test_a_break_in_any_window_or_between_two_is_placed_exactly(monkeypatch, at, references):
    """Windows at lines 0, 421, 843, 1264, 1686, 2107, 2529 and 2950: a break in the first, inside one, between
    two, at a window's first line and in the last, against one reference and two."""
    from bleu_gui.core.analysis import misalignment

    monkeypatch.setattr(misalignment, "_FULL_SCAN", 400)
    monkeypatch.setattr(misalignment, "_WINDOWS", 8)
    words = [f"w{i}" for i in range(5000)]
    ref = [" ".join(words[(7 * i + k) % 5000] for k in range(9)) for i in range(3000)]
    # A second reference words every third line otherwise (an aligned line still matches one reference best).
    other = [f"z{i} " + line if i % 3 == 0 else line for i, line in enumerate(ref)]
    refs = [ref, other][:references]
    dropped = find_misalignment(ref[:at] + ref[at + 1:] + ["x"], refs)
    assert dropped is not None and (dropped.line, dropped.shift) == (at + 1, 1)
    doubled = find_misalignment(ref[:at + 1] + ref[at:-1], refs)
    assert doubled is not None and (doubled.line, doubled.shift) == (at + 2, -1)


def test_a_rescore_reuses_the_misalignment_check(monkeypatch):
    """The check reads lines, not settings: changing a setting does not scan the files again."""
    from bleu_gui.core import BleuConfig, RunConfig, SegmentFile, run
    from bleu_gui.core.analysis.misalignment import MisalignmentCheck

    words = [f"w{i}" for i in range(500)]
    ref = [" ".join(words[(7 * i + k) % 500] for k in range(9)) for i in range(60)]
    hyp = ref[:30] + ref[31:] + ["x"]
    files = [SegmentFile(Path("sys.txt"), hyp, "utf-8"), SegmentFile(Path("ref.txt"), ref, "utf-8")]
    first = run.score_run(files[:1], files[1:], RunConfig((BleuConfig(),), significance=None))
    assert [(i, m.line, m.shift) for i, m in first.misaligned] == [(0, 31, 1)]
    monkeypatch.setattr(MisalignmentCheck, "find", lambda *a, **k: pytest.fail("scanned again"))
    again = run.rescore(first, config=RunConfig((BleuConfig(lowercase=True),)))
    assert again.misaligned == first.misaligned and again.bleu.config.lowercase


def _set_overlap(a: str, b: str) -> float:
    """The definition, written out with sets: lowercased words, or characters for a line of at most two
    words and more than eight characters."""
    def units(line: str) -> set[str]:
        words = line.lower().split()
        return {ch for ch in line if not ch.isspace()} if len(words) <= 2 and len(line) > 8 else set(words)
    ua, ub = units(a), units(b)
    return len(ua & ub) / max(len(ua), len(ub)) if ua and ub else 0.0


def test_the_vectorised_overlaps_equal_the_set_definition():
    import random

    from bleu_gui.core.analysis import misalignment

    rnd = random.Random(7)
    pool = ["the", "The", "cat", "sat", "on", "mat", ".", "猫が", "座った", "überall", "ÜBERALL", "a"]

    def line() -> str:
        kind = rnd.random()
        if kind < 0.1:
            return ""
        if kind < 0.25:  # text without spaces, compared by characters
            return "".join(rnd.choice("猫が座ったマットの上にabc") for _ in range(rnd.randint(5, 14)))
        return " ".join(rnd.choice(pool) for _ in range(rnd.randint(1, 9)))

    hyp = [line() for _ in range(120)]
    refs = [[line() for _ in range(120)] for _ in range(2)]
    check = misalignment.MisalignmentCheck(refs)
    units = misalignment._Units(hyp, check._vocabulary, check._ids)
    for lo, hi in [(0, 120), (0, 7), (50, 80), (113, 120)]:
        own = units.table(lo, hi)
        theirs = [r.table(lo - 2, hi + 2) for r in check.refs]
        for shift in (0, *misalignment.SHIFTS):
            got = misalignment._overlaps(own, lo, theirs, shift).tolist()
            want = [max((_set_overlap(hyp[i], ref[i + shift]) if 0 <= i + shift < 120 else 0.0) for ref in refs)
                    for i in range(lo, hi)]
            assert got == want, (lo, hi, shift)
