"""How often each QA check flags a clean human reference read as a candidate (a false alarm), on every shared
set with a source (``../shared/data``): the share of segments flagged per check and set, and the worst.

    python scripts/qa_false_alarms.py [--examples]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bleu_gui.core.analysis.qa import CHECKS, run_checks

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def sets() -> list[Path]:
    return sorted(p for p in DATA.iterdir() if (p / "src.txt").is_file() and (p / "ref1.txt").is_file())


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8-sig").split("\n")[:-1] or path.read_text(encoding="utf-8-sig").splitlines()


def rates(folder: Path) -> tuple[int, dict[str, list[tuple[int, str]]]]:
    src, ref = lines(folder / "src.txt"), lines(folder / "ref1.txt")
    flags = run_checks("ref1", ref, src)
    found: dict[str, list[tuple[int, str]]] = {c: [] for c in CHECKS}
    for f in flags:
        found[f.check].append((f.segment, f.detail))
    return len(ref), found


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--examples", action="store_true", help="print the first flags of each check")
    args = p.parse_args()
    checks = [c for c in CHECKS if c not in ("tag", "glossary")]  # no tags or glossary in plain text
    print(f"{'set':32}" + "".join(f"{c[:9]:>10}" for c in checks))
    worst = dict.fromkeys(checks, 0.0)
    for folder in sets():
        n, found = rates(folder)
        row = []
        for c in checks:
            share = len({s for s, _ in found[c]}) / n
            worst[c] = max(worst[c], share)
            row.append(f"{100 * share:>9.1f}%")
        print(f"{folder.name:32}" + "".join(row))
        if args.examples:
            for c in checks:
                for s, detail in found[c][:2]:
                    print(f"    {c}: line {s + 1}: {detail}")
    print(f"{'worst':32}" + "".join(f"{100 * worst[c]:>9.1f}%" for c in checks))


if __name__ == "__main__":
    main()
