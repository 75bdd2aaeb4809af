"""Make the campaign and its results the window's tests read (tests/data/pearmut-campaign/), with a real Pearmut.

Run it from the repository with bleu-gui installed, naming a Python >= 3.12 that has Pearmut
(``pip install pearmut==1.1.6``):

    python scripts/make_campaign_results.py PEARMUT_PYTHON tests/data/pearmut-campaign

1. ``bleu-score`` writes the campaign ``emoji.json`` (two raters, ESA) of the Japanese run in tests/data/pearmut
   (``src.txt``, ``A.txt``, ``B.txt``, ``ref.txt``) with its mapping file;
2. scripts/pearmut_rate.py adds it to a real Pearmut and rates it through Pearmut's HTTP API as the raters' pages
   do: both raters rate lines 1-4 (rater02's span across an emoji), rater01 submits line 4 again, nobody rates line 5;
3. the folder keeps the campaign, Pearmut's log (``emoji.jsonl``) and its dashboard's download
   (``emoji-download.json``). The mapping file, which names this machine's paths, is left out.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "tests" / "data" / "pearmut"

# What each rater says, by line: {line: {system: [score, [[marked text, severity] | "missing", ...]]}}.
SAYS = {
    "rater01": [{1: {"A.txt": [40, [["山", "major"]]], "B.txt": [90, []]}},
                {2: {"A.txt": [95, []], "B.txt": [97, []]}},
                {3: {"A.txt": [35, ["missing"]], "B.txt": [90, []]}},
                {4: {"A.txt": [60, [["地球", "minor"]]], "B.txt": [92, []]}}],
    "rater02": [{1: {"A.txt": [50, [["🌊、山", "major"]]], "B.txt": [88, []]}},
                {2: {"A.txt": [90, []], "B.txt": [93, []]}},
                {3: {"A.txt": [20, ["missing"]], "B.txt": [85, [["いろいろ", "minor"]]]}},
                {4: {"A.txt": [70, []], "B.txt": [90, []]}}],
}
RESUBMIT = ("rater01", 3, {4: {"A.txt": [65, [["、", "minor"], ["地球", "major"]]], "B.txt": [91, []]}})


def main() -> None:
    pearmut_python, out = sys.argv[1], Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        campaign = work / "emoji.json"
        subprocess.run([sys.executable, "-m", "bleu_gui.cli.bleu_score", str(RUN / "ref.txt"), "-i", str(RUN / "A.txt"),
                        str(RUN / "B.txt"), "--src", str(RUN / "src.txt"), "-m", "chrf", "--ask-humans", str(campaign),
                        "--raters", "2"], check=True)
        key = json.loads((work / "emoji.bleu-gui.json").read_text(encoding="utf-8"))["key"]

        def by_id(document: dict[int, object]) -> dict[str, object]:
            return {f"bleu-gui:{key}:{line}": said for line, said in document.items()}

        says = {"raters": {user: [by_id(doc) for doc in docs] for user, docs in SAYS.items()},
                "resubmit": [[RESUBMIT[0], RESUBMIT[1], by_id(RESUBMIT[2])]]}
        (work / "says.json").write_text(json.dumps(says, ensure_ascii=False), encoding="utf-8")
        subprocess.run([pearmut_python, str(ROOT / "scripts" / "pearmut_rate.py"), str(campaign), str(work / "says.json"),
                        str(work / "rated")], check=True)
        shutil.copy(campaign, out / "emoji.json")
        for name in ("emoji.jsonl", "emoji-download.json"):
            shutil.copy(work / "rated" / name, out / name)


if __name__ == "__main__":
    main()
