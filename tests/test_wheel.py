"""A newcomer's install: the built wheel (not the editable checkout) runs the demo, offscreen."""

import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

from bleu_gui.core import BleuConfig

from .oracles import sacre_corpus

ROOT = Path(__file__).resolve().parents[1]

WINDOW_SCRIPT = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    import bleu_gui
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication
    from bleu_gui.demo import demo_paths
    from bleu_gui.gui.shell.main_window import MainWindow
    from bleu_gui.gui.shell.settings import Settings

    app = QApplication([])
    window = MainWindow(Settings(QSettings(sys.argv[1], QSettings.Format.IniFormat)))
    window.show()
    shown = []
    window.run_changed.connect(lambda run: (shown.append(run), app.quit()))
    window.error_shown.connect(lambda message: (print("ERROR", message), app.quit()))
    QTimer.singleShot(60_000, app.quit)
    window.run_actions.open_demo()
    app.exec()
    run = shown[0]
    systems, refs = demo_paths()
    print(json.dumps({"package": bleu_gui.__file__, "systems": [str(p) for p in systems],
                      "refs": [str(p) for p in refs], "scores": [s.results[0].corpus.score for s in run.systems],
                      "header": window.inspect.header.corpus_label.text()}))
    window.close()
""")


# One worker builds the wheel once for the module's tests (two workers building at once raced in CI).
pytestmark = pytest.mark.xdist_group("wheel")

# What a build writes or must not read: the checkout is copied without them, so building never writes into it.
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
                                    ".hypothesis", "out")


@pytest.fixture(scope="module")
def wheel_venv(tmp_path_factory):
    """A fresh venv with the built wheel installed; its dependencies come from the test venv (no network)."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                            str(tmp), str(source)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    wheel = next(tmp.glob("bleu_gui-*.whl"))
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = Path(subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    # Dependencies (PySide6, numpy, sacreBLEU) from the test environment; .pth files there are not run,
    # so the editable install of this checkout stays invisible.
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--no-deps",
                    "--no-index", "-q", str(wheel)], check=True, capture_output=True)
    return venv, tmp


def test_wheel_install_opens_the_demo_offscreen(wheel_venv):
    venv, tmp = wheel_venv
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYQTGRAPH_QT_LIB": "PySide6"}
    env.pop("PYTHONPATH", None)
    proc = subprocess.run([str(venv / "bin" / "python"), "-c", WINDOW_SCRIPT, str(tmp / "settings.ini")], cwd=tmp,
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    import json

    shown = json.loads(proc.stdout.strip().splitlines()[-1])
    assert shown["package"].startswith(str(venv)), shown["package"]  # the wheel, not this checkout
    assert all(p.startswith(str(venv)) for p in shown["systems"] + shown["refs"])
    refs = [Path(r).read_text(encoding="utf-8").splitlines() for r in shown["refs"]]
    for path, score in zip(shown["systems"], shown["scores"]):
        theirs = sacre_corpus(Path(path).read_text(encoding="utf-8").splitlines(), refs, BleuConfig())
        assert score == pytest.approx(theirs.score, abs=1e-9)
    assert shown["header"] == f"BLEU {shown['scores'][0]:.2f}"


def test_installed_bleu_gui_command_starts_on_the_demo(wheel_venv):
    venv, tmp = wheel_venv
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp / "config")}
    with pytest.raises(subprocess.TimeoutExpired):  # still running: it opened and waits for the user
        proc = subprocess.run([str(venv / "bin" / "bleu-gui"), "--demo"], cwd=tmp, env=env, capture_output=True,
                              text=True, timeout=8)
        pytest.fail(f"bleu-gui --demo exited with {proc.returncode}: {proc.stderr}")
    score = subprocess.run([str(venv / "bin" / "bleu-score"), "--help"], cwd=tmp, env=env, capture_output=True,
                           text=True, check=True)
    assert "sacreBLEU" in score.stdout


DOCS_SCRIPT = textwrap.dedent("""
    import json
    from importlib.resources import files
    from PySide6.QtWidgets import QApplication
    from bleu_gui.gui.shell.help_pages import DocPage, docs_folder

    app = QApplication([])
    folder = docs_folder()
    page = DocPage(None, folder, "window.md")
    page.on_link(__import__("PySide6.QtCore", fromlist=["QUrl"]).QUrl("formats.md"))
    print(json.dumps({"folder": str(folder), "title": page.windowTitle(), "text": page.browser.toPlainText()[:4000],
                      "icons": sorted(p.name for p in (files("bleu_gui") / "icons").iterdir()),
                      "desktop": sorted(p.name for p in (files("bleu_gui") / "desktop").iterdir())}))
""")


def test_the_wheel_shows_its_documentation_in_the_app_and_ships_its_desktop_files(wheel_venv):
    """Help ▸ Documentation reads the pages the wheel installs and shows them in a window of the app (no browser);
    a link to another page opens it there. The desktop entry's files ship in the package."""
    venv, tmp = wheel_venv
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("PYTHONPATH", None)
    proc = subprocess.run([str(venv / "bin" / "python"), "-c", DOCS_SCRIPT], cwd=tmp, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    import json

    shown = json.loads(proc.stdout.strip().splitlines()[-1])
    assert shown["folder"].startswith(str(venv)), shown["folder"]  # the wheel's copy, not this checkout's docs/
    assert "Input formats" in shown["title"] and "Input formats and rules" in shown["text"]
    assert {"bleu-gui.svg", "bleu-gui-16.png", "bleu-gui-256.png"} <= set(shown["icons"])
    assert shown["desktop"] == ["bleu-gui-mime.xml", "bleu-gui.desktop"]
