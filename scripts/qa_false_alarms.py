"""How often each QA check flags a clean human reference read as a candidate (a false alarm), on every shared set
with a source (``../shared/data``: the plain-text sets and the WMT XML files, read as the app reads them): the
share of segments flagged per check and set, with the target language, and the worst.

    python scripts/qa_false_alarms.py [--examples] [--markdown]
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

from bleu_gui.core.analysis.qa import CHECKS, language_limits, run_checks
from bleu_gui.core.inputs.run_inputs import read_run_inputs

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
XML = {"wmt-xml-wmt22-en-zh": "zh", "wmt-xml-wmt21-ru-en": "en", "wmt-xml-wmt22-liv-en": "en"}


@dataclass(frozen=True)
class CleanSet:
    name: str
    language: str
    sources: list[str]
    references: list[str]


def _language(folder: Path) -> str:
    manifest = folder / "manifest.json"
    pair = json.loads(manifest.read_text(encoding="utf-8")).get("pair", "") if manifest.is_file() else ""
    return pair.split("-")[-1] if pair else folder.name.split("-")[-1]


def clean_sets(data: Path = DATA) -> list[CleanSet]:
    """Every shared set with a source: its first reference as the candidate."""
    out = []
    for folder in sorted(p for p in data.iterdir() if (p / "src.txt").is_file() and (p / "ref1.txt").is_file()):
        inputs = read_run_inputs([folder / "ref1.txt"], [folder / "ref1.txt"], source=folder / "src.txt",
                                 allow_identical=True)
        source = inputs.context.source
        assert source is not None
        out.append(CleanSet(folder.name, _language(folder), source.lines, inputs.systems[0].lines))
    for name, language in XML.items():
        folder = data / "formats" / name
        files = sorted(folder.glob("*.xml")) if folder.is_dir() else []
        if not files:
            continue
        inputs = read_run_inputs([], files)
        source = inputs.context.source
        assert source is not None
        out.append(CleanSet(name, language, source.lines, inputs.references[0].lines))
    return out


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--examples", action="store_true", help="print the first flags of each check")
    p.add_argument("--markdown", action="store_true", help="print the table as docs/qa.md shows it")
    args = p.parse_args()
    checks = [c for c in CHECKS if c not in ("tag", "glossary")]  # no tags or glossary in plain text
    names = {"number": "number", "untranslated": "untransl.", "repeated_word": "repeated", "brackets": "brackets",
             "url": "url", "email": "email", "punctuation_end": "punct. end", "length": "length",
             "whitespace": "whitespace", "inconsistent": "inconsistent"}
    if args.markdown:
        print("| set | target | segments | " + " | ".join(names[c] for c in checks) + " |")
        print("|---|---|---|" + "---|" * len(checks))
    else:
        print(f"{'set':34}{'lang':>5}{'segs':>6}" + "".join(f"{c[:9]:>10}" for c in checks))
    worst = dict.fromkeys(checks, 0.0)
    for clean in clean_sets():
        flags = run_checks("ref", clean.references, clean.sources, checks)
        skipped = {c for c in checks if any(note.startswith(c) for note in language_limits([c], clean.references))}
        n = len(clean.references)
        cells = []
        for c in checks:
            if c in skipped:
                cells.append("–")
                continue
            share = len({f.segment for f in flags if f.check == c}) / n
            worst[c] = max(worst[c], share)
            cells.append(f"{100 * share:.1f}%")
        if args.markdown:
            print(f"| {clean.name} | {clean.language} | {n:,} | " + " | ".join(cells) + " |")
        else:
            print(f"{clean.name:34}{clean.language:>5}{n:>6}" + "".join(f"{cell:>10}" for cell in cells))
        if args.examples:
            for c in checks:
                for f in [f for f in flags if f.check == c][:3]:
                    print(f"    {c}: line {f.segment + 1}: {f.detail}")
                    print(f"        src: {clean.sources[f.segment][:150]}")
                    print(f"        ref: {clean.references[f.segment][:150]}")
    if not args.markdown:
        print(f"{'worst':45}" + "".join(f"{100 * worst[c]:>9.1f}%" for c in checks))


if __name__ == "__main__":
    main()
