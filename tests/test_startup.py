"""Start-up anywhere: without a screen, or without Qt's system libraries, one clear line and exit 2 (never Qt's
abort with exit 134)."""

import os
import subprocess
import sys
from pathlib import Path

from bleu_gui.gui.shell import startup

COMMAND = str(Path(sys.executable).with_name("bleu-gui"))


def run_gui(**env_changes):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(env_changes)
    return subprocess.run([COMMAND, "--demo"], env=env, capture_output=True, text=True, timeout=60)


def test_no_display_is_one_line_and_exit_2():
    proc = run_gui()
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("bleu-gui: no display") and "QT_QPA_PLATFORM=offscreen" in proc.stderr


def test_an_unreachable_x_display_or_missing_libraries_is_one_line_and_exit_2():
    proc = run_gui(DISPLAY=":97")  # no X server there
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert ("cannot connect to the X display ':97'" in proc.stderr
            or ("Qt's X11 plugin cannot load: missing" in proc.stderr and "apt-get install" in proc.stderr))


def test_missing_libraries_are_named_with_their_debian_packages(monkeypatch):
    monkeypatch.setattr(startup, "_missing_libraries", lambda plugin: ["libxcb-cursor.so.0", "libxcb-icccm.so.4"])
    problem = startup.startup_problem({"DISPLAY": ":0"})
    assert problem == ("Qt's X11 plugin cannot load: missing libxcb-cursor.so.0, libxcb-icccm.so.4; "
                       "on Debian/Ubuntu: apt-get install libxcb-cursor0 libxcb-icccm4")
    assert startup.startup_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
