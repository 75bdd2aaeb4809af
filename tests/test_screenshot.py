"""``bleu-gui … --screenshot OUT.png``: a picture and its provenance, exit 0; bad input: one line, exit 2."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_gui.demo import demo_paths

from .oracles import sacre_corpus


def bleu_gui(*argv, **env_set):
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    env.update(env_set)
    code = "import sys; from bleu_gui.gui.shell.app import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *map(str, argv)], capture_output=True, text=True, env=env,
                          timeout=300)


def png_size(path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_a_screenshot_of_the_demo_with_its_provenance(tmp_path):
    out = tmp_path / "shot.png"
    scratch = tmp_path / "tmp"  # the picture's screen and fresh settings are written here, and go with the app
    scratch.mkdir()
    done = bleu_gui("--demo", "--screenshot", out, "--size", "1366x768", "--tab", "compare", "--sentence", "4",
                    "-m", "bleu", "chrf", TMPDIR=str(scratch))
    assert done.returncode == 0, done.stderr
    assert list(scratch.iterdir()) == []
    assert done.stderr.strip().splitlines() == [f"bleu-gui: wrote {out} (1366×768) and {out.with_suffix('.json')}"]
    assert png_size(out) == (1366, 768)
    facts = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    systems, refs = demo_paths("en")
    assert facts["inputs"]["systems"] == [str(p) for p in systems]
    assert facts["view"] == {"size": [1366, 768], "tab": "compare", "sentence": 4, "metric": "BLEU",
                             "b": "system-b.txt"}
    assert facts["tokenizer"] == "13a: the sacrebleu variant's default"
    lines = [p.read_text(encoding="utf-8").splitlines() for p in refs]
    from bleu_gui.core import BleuConfig

    bleu = [s for s in facts["systems"] if s["metric"] == "BLEU"]
    for row, path in zip(bleu, systems):
        expected = sacre_corpus(path.read_text(encoding="utf-8").splitlines(), lines, BleuConfig())
        assert row["score"] == pytest.approx(expected.score, abs=1e-9)
        assert row["signature"] == "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    assert [s["metric"] for s in facts["systems"]] == ["BLEU", "chrF2", "BLEU", "chrF2"]


@pytest.mark.parametrize(("argv", "said"), [
    (["missing.txt", "-r", "missing-ref.txt"], "missing.txt: no such file"),
    (["--demo", "--sentence", "99"], "--sentence 99: the run has sentences 1..12"),
    (["--demo", "--tab", "documents"], "--tab documents needs inputs with document ids"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, argv, said):
    out = tmp_path / "shot.png"
    scratch = tmp_path / "tmp"  # a refused picture's screen and settings go with the app too
    scratch.mkdir()
    done = bleu_gui(*argv, "--screenshot", out, TMPDIR=str(scratch))
    assert done.returncode == 2
    assert list(scratch.iterdir()) == []
    assert done.stderr.strip().splitlines() == [f"bleu-gui: error: {done.stderr.split('error: ', 1)[1].strip()}"]
    assert said in done.stderr
    assert not out.exists() and not out.with_suffix(".json").exists()


def test_screenshot_options_need_a_screenshot():
    done = bleu_gui("--demo", "--size", "800x600")
    assert done.returncode == 2 and "--size: with --screenshot OUT.png only" in done.stderr


@pytest.mark.parametrize("platform", ["offscreen", "minimal"])
def test_the_picture_has_the_asked_size_whichever_platform_was_chosen(tmp_path, platform):
    """CI and headless users set QT_QPA_PLATFORM=offscreen themselves (an 800×800 screen): the picture is still
    the size asked, as is scripts/screenshot.py's."""
    out = tmp_path / "shot.png"
    env = {**{k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")},
           "QT_QPA_PLATFORM": platform}
    code = "import sys; from bleu_gui.gui.shell.app import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, "--demo", "--screenshot", str(out), "--size", "1366x768"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert png_size(out) == (1366, 768)
    script = Path(__file__).resolve().parents[1] / "scripts" / "screenshot.py"
    shot = tmp_path / "script.png"
    done = subprocess.run([sys.executable, str(script), str(shot), "--width", "1366", "--height", "768"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert png_size(shot) == (1366, 768)
