"""scripts/profile_suite.py sorts py-spy's samples by whose code they are in: a hand-written raw file, counted by
hand."""

from pathlib import Path

import pytest

from .conftest import script

ROOT = Path(__file__).resolve().parents[1]

# py-spy's raw format: frames from the root, separated by ";", then the count. A process's command line may hold
# line breaks (a test's ``python -c`` code), so one record can span lines.
_ROOT = 'process 1:"python -m pytest"'
RAW = "".join(line + "\n" for line in [
    f"{_ROOT};serve (execnet/gateway_base.py:1806);test_a (tests/test_x.py:10);"
    "compute_bleu (sacrebleu/metrics/bleu.py:5);statistics (bleu_gui/core/x.py:3) 7",
    f"{_ROOT};test_a (tests/test_x.py:11);statistics (bleu_gui/core/x.py:3);tok (sacrebleu/tokenizers/t.py:2) 5",
    f'{_ROOT};process 2:"python -c import sys\nfrom bleu_gui.gui.shell.app import main\nmain()";'
    "main (bleu_gui/gui/shell/app.py:75) 3",
    f"{_ROOT};accept.<locals>.test_b (tests/test_y.py:4);run (hypothesis/core.py:9) 2",
    f"{_ROOT};_find_and_load (<frozen importlib._bootstrap>:1176) 1",
    f"{_ROOT};exec(eval(sys.stdin.readline())) 4",
])


@pytest.fixture(scope="module")
def profile():
    return script("profile_suite")


def test_samples_are_sorted_by_the_first_oracle_or_project_frame(profile, tmp_path, capsys):
    raw = tmp_path / "suite.raw"
    raw.write_text(RAW, encoding="utf-8")
    records = list(profile.samples(raw))
    assert [count for _, count in records] == [7, 5, 3, 2, 1, 4]
    assert [profile.owner(frames) for frames, _ in records] == [
        "sacreBLEU (oracle)", "ours (bleu_gui)", "ours (bleu_gui)", "Hypothesis", "imports",
        "other (pytest, Qt's event loop, waiting threads)"]
    assert profile.test_of(records[3][0]) == "test_b"
    profile.report(raw, 5)
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "1 s of samples in all"  # 22 samples at 20 a second
    assert "    0.4 s  36.4%  ours (bleu_gui)" in out  # 5 + 3 of 22
    assert "    0.3 s  31.8%  sacreBLEU (oracle)" in out
