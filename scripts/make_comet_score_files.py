"""Make the comet-score output the tests read (tests/data/comet-score/), with unbabel-comet's own command.

Run it with a Python that has unbabel-comet (the COMET worker's, never the app's); it needs nothing of bleu-gui:

    PYTHON_WITH_COMET scripts/make_comet_score_files.py tests/data/comet-score

It writes the texts (``src.txt``, ``ref.txt``, ``sys1.txt``, ``sys2.txt``: English into Japanese, emoji and
full-width punctuation included), builds a tiny regression checkpoint on them (scripts/tiny_comet.py: random weights,
no download) and runs ``comet-score -s src.txt -t sys1.txt sys2.txt -r ref.txt --to_json out.json`` in that folder,
keeping ``out.json`` as comet-score wrote it (its keys are the file names it was given) and ``made-with.txt`` (the
versions). The checkpoint is thrown away: the test reads the file, not the model.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

TEXTS = {
    "src": ["It is sunny today 🌞, so let's go to the sea.", "Thank you so much for everything.",
            "The meeting starts at 10:30 on 3 May.", "Where is the station?", "Prices rose by 2.5% last year."],
    "ref": ["今日は晴れ🌞なので、海に行こう。", "いろいろ本当にありがとう。", "会議は5月3日10時30分に始まります。",
            "駅はどこですか？", "昨年、物価は2.5％上昇した。"],
    "sys1": ["今日は晴れ🌞🌊、山に行こう。", "ありがとう。", "会議は3月5日10:30に始まる。", "駅はどこ？",
             "去年は価格が2.5%上がった。"],
    "sys2": ["今日は晴れです🌞。海に行きましょう。", "いろいろありがとうございました。",
             "会議は5月3日の10時30分からです。", "駅はどこですか？", "昨年、物価は2.5％上昇しました。"],
}


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, lines in TEXTS.items():
        (out / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with tempfile.TemporaryDirectory() as scratch:
        tiny = Path(__file__).with_name("tiny_comet.py")
        subprocess.run([sys.executable, str(tiny), scratch, "--kind", "regression", "--text",
                        *(str(out / f"{name}.txt") for name in TEXTS)], check=True)
        comet_score = Path(sys.executable).with_name("comet-score")
        subprocess.run([str(comet_score), "-s", "src.txt", "-t", "sys1.txt", "sys2.txt", "-r", "ref.txt", "--model",
                        str(Path(scratch) / "regression" / "checkpoints" / "model.ckpt"), "--gpus", "0",
                        "--to_json", "out.json", "--quiet"], check=True, cwd=out)
    (out / "made-with.txt").write_text(f"unbabel-comet {version('unbabel-comet')}, torch {version('torch')}\n",
                                       encoding="utf-8")


if __name__ == "__main__":
    main()
