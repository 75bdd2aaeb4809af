"""Defects from an adversarial pass: each test here failed before its fix."""


import os
import stat

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_gui.core import BleuConfig
from bleu_gui.core.metrics.ngram_stats import closest_ref_lengths

from .conftest import cli, data_set
from .oracles import sacre_corpus


@pytest.mark.slow
def test_latin1_slices_of_real_text_decode_alike(tmp_path, capsys):
    """5–20-line Latin-1 slices of real German: -e auto must give the UTF-8 score on every slice."""
    folder = data_set("sacrebleu-wmt17-en-de")
    ref_all = (folder / "ref1.txt").read_text(encoding="utf-8").splitlines()
    hyp_all = (folder / "sys1.txt").read_text(encoding="utf-8").splitlines()
    rng = np.random.default_rng(7)
    tried = 0
    for _ in range(200):
        size = int(rng.integers(5, 21))
        start = int(rng.integers(0, len(ref_all) - size))
        ref, hyp = ref_all[start:start + size], hyp_all[start:start + size]
        text = "\n".join(ref + hyp)
        if text.isascii() or any(ord(c) > 255 for c in text):
            continue  # only slices with accented letters that Latin-1 can hold
        (tmp_path / "ref.txt").write_bytes(("\n".join(ref) + "\n").encode("latin-1"))
        (tmp_path / "hyp.txt").write_bytes(("\n".join(hyp) + "\n").encode("latin-1"))
        code, out, err = cli(capsys, tmp_path / "ref.txt", "-i", tmp_path / "hyp.txt", "-e", "auto", "-b", "-w", "9")
        expected = sacre_corpus(hyp, [ref], BleuConfig()).score
        assert code == 0, err
        assert float(out) == pytest.approx(expected, abs=1e-7), (start, size, err)
        tried += 1
        if tried == 40:
            break
    assert tried >= 20


@settings(max_examples=300, deadline=None)
@given(hyp=st.integers(0, 2**45), refs=st.lists(st.integers(0, 2**45), min_size=1, max_size=4))
def test_closest_reference_length_is_exact_for_any_length(hyp, refs):
    from sacrebleu.metrics import BLEU

    ours = closest_ref_lengths(np.array([hyp]), np.array(refs)[:, None])[0]
    assert ours == BLEU()._get_closest_ref_len(hyp, refs)


def test_closest_reference_length_from_the_report():
    hyp, refs = 4_194_304, [3 * 2**22 - 1, 3 * 2**22]
    assert closest_ref_lengths(np.array([hyp]), np.array(refs)[:, None])[0] == 12_582_911
    # Missing references (-1) never win, however far the others are.
    assert closest_ref_lengths(np.array([5]), np.array([[-1], [2**50]]))[0] == 2**50


def _rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * 4096 / 2**20


def test_rescoring_with_ko_mecab_keeps_memory_flat():
    from bleu_gui.core import Bleu
    from bleu_gui.demo import demo_paths

    systems, refs = demo_paths("ko")
    hyp = systems[0].read_text(encoding="utf-8").splitlines()
    ref = [r.read_text(encoding="utf-8").splitlines() for r in refs]
    cfg = BleuConfig(tokenizer="ko-mecab")
    ev = Bleu(ref, cfg)
    first = ev.corpus_score(ev.statistics(hyp)).score
    before = _rss_mb()
    for _ in range(20):
        ev = Bleu(ref, cfg)
        assert ev.corpus_score(ev.statistics(hyp)).score == first
    assert _rss_mb() - before < 30  # was about 52 MB per evaluator


def test_one_tokenizer_object_per_name():
    from bleu_gui.core.metrics.tokenizers import Tokenization

    assert Tokenization("ko-mecab").tokenizer is Tokenization("ko-mecab", lowercase=True).tokenizer
    assert Tokenization("13a").tokenizer is Tokenization("13a").tokenizer


@pytest.fixture
def demo_files():
    from bleu_gui.demo import demo_paths

    systems, refs = demo_paths()
    return systems, refs


@pytest.mark.parametrize("argv, env, message", [
    (["-e", "rot13"], {}, "'rot13' is not a text encoding"),
    (["-e", "base64"], {}, "'base64' is not a text encoding"),
    (["-w", "-1"], {}, "-w/--width must be 0..16"),
    (["--paired-bs", "-i2"], {"SACREBLEU_SEED": "abc"}, "SACREBLEU_SEED='abc' is not a seed"),
    (["--paired-bs", "-i2"], {"SACREBLEU_SEED": "-1"}, "SACREBLEU_SEED='-1' is not a seed"),
    (["--paired-bs", "-i2", "--paired-bs-n", str(10**12)], {}, "above the ceiling of 100,000"),
    (["--paired-ar", "-i2", "--paired-ar-n", "0"], {}, "--paired-ar-n must be at least 1"),
    (["--variant", "nltk", "--weights", "nan", "0.5"], {}, "weights must be finite numbers"),
    (["--variant", "nltk", "--weights", "inf", "0.5"], {}, "weights must be finite numbers"),
    (["-s", "floor", "-sv", "nan"], {}, "smoothing value must be a finite number"),
    (["-s", "floor", "-sv", "inf"], {}, "smoothing value must be a finite number"),
    (["-s", "floor", "-sv", "-1"], {}, "smoothing value must be a finite number"),
    (["--report", "/tmp/r.html", "--report-top", "-1"], {}, "--report-top must be at least 1"),
    (["--variant", "nltk", "-s", "floor"], {}, "-s/--smooth-method applies to the sacrebleu variant only"),
    (["--variant", "d2l", "-sv", "0.2"], {}, "-sv/--smooth-value applies to the sacrebleu variant only"),
    (["--nltk-smoothing", "3"], {}, "--nltk-smoothing applies to the nltk variant only, not sacrebleu"),
    (["--auto-reweigh"], {}, "--auto-reweigh applies to the nltk variant only"),
    (["--paired-bs", "-i2", "-b"], {}, "-b/--score-only does not apply to --paired-bs"),
    (["--confidence", "--format", "multi-bleu"], {}, "--confidence has no place in -b or --format multi-bleu"),
])
def test_bad_values_get_one_line_and_exit_2(demo_files, monkeypatch, capsys, argv, env, message):
    systems, refs = demo_files
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    inputs = ["-i", str(systems[0]), str(systems[1])] if "-i2" in argv else ["-i", str(systems[0])]
    argv = [a for a in argv if a != "-i2"]
    code, out, err = cli(capsys, refs[0], *inputs, *argv)
    assert code == 2 and out == "", err
    assert err.count("\n") == 1 and message in err, err


def test_files_that_cannot_be_read_get_one_line(tmp_path, capsys, monkeypatch, demo_files):
    from pathlib import Path

    systems, refs = demo_files
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    code, _, err = cli(capsys, refs[0], "-i", tmp_path / "loop")
    assert code == 2 and "symbolic link loop" in err and "no such file" not in err
    code, _, err = cli(capsys, refs[0], "-i", tmp_path / ("x" * 256))
    assert code == 2 and "file name too long" in err
    u16 = tmp_path / "u16.txt"
    u16.write_bytes("abc\n".encode("utf-16-le"))
    code, _, err = cli(capsys, u16, "-i", u16, "-e", "utf-16", "--allow-identical-refs")
    assert code == 2 and "utf-16-le" in err and err.count("\n") == 1
    folder = tmp_path / "refs"
    folder.mkdir()
    (folder / "ref1.txt").write_text("a\n", encoding="utf-8")
    real_iterdir = Path.iterdir

    def denied(self):
        if self == folder:
            raise PermissionError(13, "Permission denied")
        return real_iterdir(self)

    monkeypatch.setattr(Path, "iterdir", denied)
    code, _, err = cli(capsys, folder, "-i", systems[0])
    assert code == 2 and f"{folder}: permission denied" in err


def _command(*argv, **kwargs):
    import subprocess
    import sys
    from pathlib import Path

    exe = Path(sys.executable).with_name("bleu-score")
    return subprocess.run([str(exe), *map(str, argv)], capture_output=True, **kwargs)


def test_output_troubles_of_the_installed_command(demo_files, tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    systems, refs = demo_files
    # Output piped into `head`, which leaves after one line.
    exe = Path(sys.executable).with_name("bleu-score")
    big = tmp_path / "big.txt"
    big.write_text("a b c\n" * 20000, encoding="utf-8")
    pipe = subprocess.run(f"'{exe}' '{big}' -i '{big}' -sl --allow-identical-refs | head -n 1", shell=True,
                          capture_output=True, text=True)
    assert "Traceback" not in pipe.stderr and pipe.stdout.startswith("BLEU|")
    # An ASCII-only terminal and the μ of --confidence.
    proc = _command(refs[0], "-i", systems[0], "--confidence", "--confidence-n", "20", text=True,
                    env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert proc.returncode == 0 and "Traceback" not in proc.stderr and "\\u03bc" in proc.stdout


def test_output_on_a_full_device_is_one_line(demo_files):
    import subprocess
    import sys
    from pathlib import Path

    # Some sandboxes (CI's among them) make /dev/full a regular file, where writing succeeds.
    if not os.path.exists("/dev/full") or not stat.S_ISCHR(os.stat("/dev/full").st_mode):
        pytest.skip("/dev/full is not a character device here")
    systems, refs = demo_files
    exe = Path(sys.executable).with_name("bleu-score")
    with open("/dev/full", "w") as full:
        proc = subprocess.run([str(exe), str(refs[0]), "-i", str(systems[0])], stdout=full, stderr=subprocess.PIPE,
                              text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "cannot write the output: No space left on device" in proc.stderr


def test_cancel_checks_are_dense_in_every_stage(monkeypatch):
    """A cancel waits at most one chunk of work: with tiny chunks, the comparison of n-grams (sorting every
    reference n-gram) checks in once per chunk of table rows, and a cancel at any check stops the run.
    (The wall-clock figure at 300,000 lines is in scripts/bench_cancel.py.)"""
    from pathlib import Path

    from bleu_gui.core import Cancelled, RunConfig, SegmentFile, Significance, score_run
    from bleu_gui.core.analysis import compare, significance
    from bleu_gui.core.metrics import chunked, ngram_stats

    rng = np.random.default_rng(3)
    words = np.array([f"w{i}" for i in range(400)])

    def text(n):
        return [" ".join(words[np.minimum(rng.zipf(1.4, 12) - 1, 399)]) for _ in range(n)]

    ref = text(300)
    hyps = [[r if rng.random() < 0.5 else t for r, t in zip(ref, text(300))] for _ in range(2)]
    files = [SegmentFile(Path(f"s{i}.txt"), h, "utf-8") for i, h in enumerate(hyps)]
    refs = [SegmentFile(Path("ref.txt"), ref, "utf-8")]
    for module, name, value in ((chunked, "CHUNK", 64), (compare, "_CHUNK", 64), (ngram_stats, "_BLOCK", 40),
                                (significance, "_CHUNK_VALUES", 600)):
        monkeypatch.setattr(module, name, value)
    calls = []
    config = RunConfig((BleuConfig(),), significance=Significance(50, 64, 1))
    run = score_run(files, refs, config, progress=calls.append)
    table_rows = sum(len(t.local_keys) for t in run.bleu.index.tables)
    after_tests = len(calls) - next(i for i, f in enumerate(calls) if f >= 0.99)
    assert after_tests >= table_rows / 64  # the n-gram stage: at least one check per chunk of rows
    # A cancel at any of these checks ends the run with Cancelled (never a result).
    for stop_at in sorted({len(calls) // 7, len(calls) // 2, len(calls) - after_tests // 2, len(calls) - 2}):
        seen = []

        def cancelling(fraction, stop_at=stop_at, seen=seen):
            seen.append(fraction)
            if len(seen) == stop_at:
                raise Cancelled()

        with pytest.raises(Cancelled):
            score_run(files, refs, config, progress=cancelling)
