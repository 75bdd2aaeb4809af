"""Exports replace only regular files: a link is followed, a device is written in place or refused, a read-only
file is refused even when root runs us. Each case failed before its fix."""

from __future__ import annotations

import os
import stat

import pytest

from bleu_gui.core.errors import ExportError
from bleu_gui.core.output.exports import write_atomic


def test_a_symbolic_link_is_followed_and_stays_a_link(tmp_path):
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    real = real_dir / "report.html"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.html"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in real_dir.iterdir()) == ["report.html"]  # no temporary left behind
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.html", "real"]


def test_a_dangling_link_writes_the_file_it_names(tmp_path):
    target = tmp_path / "made.txt"
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_atomic(link, "x")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "x"


def _device(path: str) -> None:
    """Skip unless ``path`` is a character device: some sandboxes (CI's among them) make /dev/null and /dev/full
    regular files."""
    if not os.path.exists(path) or not stat.S_ISCHR(os.stat(path).st_mode):
        pytest.skip(f"{path} is not a character device here")


def test_a_full_device_is_an_error_and_stays_a_device():
    _device("/dev/full")
    with pytest.raises(ExportError, match="/dev/full: cannot write"):
        write_atomic("/dev/full", "x" * 10)
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_dev_null_is_written_in_place():
    _device("/dev/null")
    write_atomic("/dev/null", "nothing")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ExportError, match="is a FIFO, not a regular file"):
        write_atomic(fifo, "x")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_read_only_file_is_refused_whoever_runs_us(tmp_path):
    target = tmp_path / "locked.csv"
    target.write_text("keep me", encoding="utf-8")
    target.chmod(0o444)
    with pytest.raises(ExportError, match=r"is read-only \(mode -r--r--r--\)"):
        write_atomic(target, "x")
    assert target.read_text(encoding="utf-8") == "keep me"


def test_a_link_loop_is_a_message(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(ExportError):
        write_atomic(a, "x")
