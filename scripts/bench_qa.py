"""The translator QA's two figures, measured on the shared data (``../shared/data``) in one run:

1. **False alarms**: flags per 100 segments of each check on professional references read as candidates, per
   target language (ja, zh, de, cs, ko, en; ru and hr where a set with that target and a source is there — the
   shared data has none today, and the table says so). The goal: at most 2 per check and language.
2. **Errors caught**: real errors planted in those references — a number changed, a sentence omitted, a sentence
   left untranslated (the source's), the target emptied, an inline tag dropped (the XLIFF files with tags) — and
   the share the check meant for each catches (the goal: 95% or more), beside how often *any* check flags the
   planted segment.

    python scripts/bench_qa.py            [--examples CHECK]   # prints both tables

The anchor is the same references unplanted: a check's catches count only where it did not flag the clean segment.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "data"

from bleu_gui.core.analysis.qa import CHECKS, run_checks, sentences  # noqa: E402
from bleu_gui.core.inputs.run_inputs import read_run_inputs  # noqa: E402

LANGUAGES = ("ja", "zh", "de", "cs", "ko", "en", "ru", "hr")
# The sets with a source whose first reference is in each language (a professional translation), as the app reads them.
SETS = {"wmt22-en-ja": "ja", "cmt-multited-ja": "ja", "wmt22-en-zh-2ref": "zh", "wmt21-en-de-3ref": "de",
        "sacrebleu-wmt17-en-de": "de", "mtce-en-cs-medium": "cs", "opusmt-flores101-en-ko-first100": "ko",
        "kor-sacrebleu-doc1-en-ko": "ko", "wmt22-ja-en": "en", "wmt22-zh-en-2ref": "en", "cmt-ted-sk-en-detok": "en"}
XML = {"wmt-xml-wmt21-ru-en": "en", "wmt-xml-wmt22-liv-en": "en"}
PLAIN_CHECKS = [c for c in CHECKS if c not in ("tag", "glossary")]


@dataclass(frozen=True)
class Clean:
    name: str
    language: str
    sources: list[str]
    targets: list[str]


def clean_sets() -> list[Clean]:
    out = []
    for name, language in SETS.items():
        folder = DATA / name
        if not (folder / "src.txt").is_file():
            continue
        inputs = read_run_inputs([folder / "ref1.txt"], [folder / "ref1.txt"], source=folder / "src.txt",
                                 allow_identical=True)
        assert inputs.context.source is not None
        out.append(Clean(name, language, inputs.context.source.lines, inputs.systems[0].lines))
    for name, language in XML.items():
        files = sorted((DATA / "formats" / name).glob("*.xml")) if (DATA / "formats" / name).is_dir() else []
        if files:
            inputs = read_run_inputs([], files)
            assert inputs.context.source is not None
            out.append(Clean(name, language, inputs.context.source.lines, inputs.references[0].lines))
    return out


# -- planted errors --------------------------------------------------------------------------------------------------
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*")
# A sentence ends at its mark and the closing quote after it: "… state." is one sentence, not "… state." and '"'.
_SOURCE_SENTENCES = re.compile(r"(?<=[.!?。！？])[\"”»」』]?\s+|(?<=[。！？])")


def plant_number(source: str, target: str, rng: random.Random) -> str | None:
    found = [m for m in re.finditer(r"(?<![\w.,-])\d{2,4}(?![\w.,]\d)", target)]
    if not found:
        return None
    m = rng.choice(found)
    value = int(m.group(0))
    return target[:m.start()] + str(value + rng.choice([1, 7, 13]) if value > 20 else value + 11) + target[m.end():]


def plant_omission(source: str, target: str, rng: random.Random) -> str | None:
    """One of the target's sentences left out, where the target has as many sentences as its source, two or more
    (each of five characters or more): a translation that had them all, one dropped."""
    parts = [p for p in _SENTENCE_END.split(target) if p]
    if len(parts) < 2 or min(len(p) for p in parts) < 5 or not sentences(source) == sentences(target) == len(parts):
        return None
    k = rng.randrange(len(parts))
    joiner = "" if re.search(r"[。！？]", target) else " "
    return joiner.join(p for i, p in enumerate(parts) if i != k)


def plant_untranslated(source: str, target: str, rng: random.Random) -> str | None:
    """A sentence of the source left untranslated: the target's last sentence replaced by the source's (a source
    of two sentences or more), or the whole target by the source."""
    parts = [p for p in _SOURCE_SENTENCES.split(source) if len(p.split()) >= 3 or re.search(r"[\u3040-\u9fff]", p)]
    if len(source.split()) < 4 and not re.search(r"[\u3040-\u9fff]", source):
        return None
    if len(parts) >= 2:
        kept = [p for p in _SENTENCE_END.split(target) if p][:-1] or [target]
        return (" " if not re.search(r"[。！？]", target) else "").join([*kept, parts[-1]])
    return source


def plant_empty(source: str, target: str, rng: random.Random) -> str | None:
    return "" if target.strip() else None


PLANTS: dict[str, tuple[Callable[[str, str, random.Random], str | None], str]] = {
    "a number changed": (plant_number, "number"),
    "a sentence omitted": (plant_omission, "omission"),
    "a sentence untranslated": (plant_untranslated, "untranslated"),
    "the target emptied": (plant_empty, "empty"),
}


def false_alarms(sets: list[Clean], examples: str | None) -> dict[str, dict[str, list[float]]]:
    checks = [c for c in PLAIN_CHECKS if c in CHECKS]
    by_language: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    print(f"{'set':34}{'lang':>5}{'segs':>6}" + "".join(f"{c[:10]:>11}" for c in checks))
    for clean in sets:
        flags = run_checks("ref", clean.targets, clean.sources, checks)
        n = len(clean.targets)
        cells = []
        for c in checks:
            flagged = len({f.segment for f in flags if f.check == c})
            by_language[clean.language][c][0] += flagged
            by_language[clean.language][c][1] += n
            cells.append(f"{100 * flagged / n:.2f}")
            if examples == c:
                for f in [f for f in flags if f.check == c][:8]:
                    print(f"    {clean.name} {f.segment + 1}: {f.detail}\n      src {clean.sources[f.segment][:120]}\n"
                          f"      tgt {clean.targets[f.segment][:120]}")
        print(f"{clean.name:34}{clean.language:>5}{n:>6}" + "".join(f"{cell:>11}" for cell in cells))
    print("\nflags per 100 segments, by target language (goal: at most 2 per check)")
    print(f"{'lang':6}{'segs':>7}" + "".join(f"{c[:10]:>11}" for c in checks))
    out: dict[str, dict[str, list[float]]] = {}
    for language in LANGUAGES:
        counts = by_language.get(language)
        if not counts:
            print(f"{language:6}{'–':>7}  no shared set has a source and a reference in this language")
            continue
        n = next(iter(counts.values()))[1]
        rates = {c: 100 * counts[c][0] / counts[c][1] for c in checks}
        out[language] = {c: [rates[c]] for c in checks}
        print(f"{language:6}{n:>7}" + "".join(f"{rates[c]:>10.2f}{'!' if rates[c] > 2 else ' '}" for c in checks))
    return out


def caught(sets: list[Clean], per_set: int = 120) -> None:
    print("\nplanted errors caught (the check meant for each; any check in brackets); goal: 95% or more")
    print(f"{'error':26}{'lang':>5}{'planted':>9}{'caught':>9}{'any':>8}")
    rng = random.Random(11)
    for what, (plant, check) in PLANTS.items():
        totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        for clean in sets:
            taken = 0
            for i, (source, target) in enumerate(zip(clean.sources, clean.targets)):
                before = {f.check for f in run_checks("ref", [target], [source], PLAIN_CHECKS + ["empty"]
                                                      if "empty" in CHECKS else PLAIN_CHECKS)}
                if check in before:
                    continue
                changed = plant(source, target, rng)
                if changed is None or changed == target:
                    continue
                after = _flags_in_context(clean, i, changed)
                t = totals[clean.language]
                t[0] += 1
                t[1] += check in after
                t[2] += bool(after - before)
                taken += 1
                if taken == per_set:
                    break
        for language, (n, hit, anything) in sorted(totals.items()):
            print(f"{what:26}{language:>5}{n:>9}{100 * hit / max(n, 1):>8.1f}%{100 * anything / max(n, 1):>7.1f}%")


TAGGED = ["xliff12-angular-linotp/messages.de.xlf", "xliff12-matecat-okapi/calibre.docx.xliff"]
_TARGET = re.compile(r"(<target\b[^>]*>)(.*?)(</target>)", re.DOTALL)
_INLINE = re.compile(r"<x\b[^>]*/>|<ph\b[^>]*>.*?</ph>|<bpt\b[^>]*>.*?</bpt>|<ept\b[^>]*>.*?</ept>", re.DOTALL)


def tags_dropped(tmp: Path) -> None:
    """An inline tag dropped from every other target that has one, in a copy of each real XLIFF with tags: the
    share of those segments the tag check flags (the file read as the app reads it, tags compared with the
    source's)."""
    from bleu_gui.core.metrics.registry import unscored
    from bleu_gui.core.run import RunConfig, score_run

    config = RunConfig(unscored(), significance=None, ngram_diffs=False)

    print(f"\n{'an inline tag dropped':26}{'file':>34}{'planted':>9}{'caught':>9}")
    for name in TAGGED:
        path = DATA / "formats" / name
        if not path.is_file():
            print(f"{'':26}{name:>34}  not in the shared data")
            continue
        text = path.read_text(encoding="utf-8")
        planted = [0]
        out: list[str] = []
        last = 0
        for k, m in enumerate(_TARGET.finditer(text)):
            inner = m.group(2)
            tag = _INLINE.search(inner)
            out.append(text[last:m.start()])
            if tag is not None and k % 2 == 0:
                planted[0] += 1
                inner = inner[:tag.start()] + inner[tag.end():]
            out.append(m.group(1) + inner + m.group(3))
            last = m.end()
        out.append(text[last:])
        copy = tmp / path.name
        copy.write_text("".join(out), encoding="utf-8")
        clean_run, run = (score_run(*_read(p), config, context=_context(p)) for p in (path, copy))
        before = set(clean_run.tag_mismatches(0))
        after = set(run.tag_mismatches(0)) - before
        flagged = {f.segment for f in run.qa_flags(0, ["tag"])} - before
        print(f"{'':26}{name:>34}{planted[0]:>9}{100 * len(flagged) / max(planted[0], 1):>8.1f}%  "
              f"({len(after)} segments with another number of tags)")


def _read(path: Path) -> tuple[list, list]:
    inputs = read_run_inputs([path], [])
    return inputs.systems, inputs.references


def _context(path: Path):  # noqa: ANN202 (the inputs' context)
    return read_run_inputs([path], []).context


def _flags_in_context(clean: Clean, i: int, changed: str) -> set[str]:
    """The checks that flag segment ``i`` once changed, with the corpus around it (length and consistency read
    the corpus)."""
    start = max(0, i - 150)
    targets = clean.targets[start:i + 150]
    targets[i - start] = changed
    checks = [c for c in CHECKS if c not in ("tag", "glossary")]
    return {f.check for f in run_checks("ref", targets, clean.sources[start:i + 150], checks) if f.segment == i - start}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--examples", metavar="CHECK", help="print the first flags of CHECK on the references")
    args = p.parse_args()
    if not DATA.is_dir():
        print(f"skipped: the shared data is not at {DATA}")
        return
    started = time.perf_counter()
    sets = clean_sets()
    false_alarms(sets, args.examples)
    caught(sets)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        tags_dropped(Path(tmp))
    print(f"\n{time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
