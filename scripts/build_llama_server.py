"""Build llama.cpp's ``llama-server`` (an OpenAI-compatible chat-completions server) from the llama.cpp that
llama-cpp-python's source package vendors, for the LLM judge's tests and benchmark: a real server on 127.0.0.1,
offline.

    python scripts/build_llama_server.py DIR      # DIR/llama-server when it is built (prints its path)
    python scripts/build_llama_server.py --test-cache   # where the tests look (once per machine; what .ci/run does)

pip downloads the source package (``llama-cpp-python==0.3.36``, 77 MB), cmake builds the one target, statically and
for any x86-64 (``GGML_NATIVE=OFF``: a binary cached on one machine runs on another), without curl (the tests never
download a model). Built for the tests' tiny model, not for speed: unoptimised and without debug information, without
llamafile's sgemm kernels, and as a unity build (several sources a compiler run) wherever the sources allow it: about
5 CPU-minutes here where a Release build took 21. Nothing of llama.cpp is committed: it is built where it runs.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import TextIO

SOURCE = "llama-cpp-python==0.3.36"
CMAKE_FLAGS = ("-DGGML_NATIVE=OFF", "-DLLAMA_CURL=OFF", "-DBUILD_SHARED_LIBS=OFF", "-DLLAMA_BUILD_SERVER=ON",
               "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF", "-DGGML_LLAMAFILE=OFF",
               # No optimisation and no debug information: a model of a few hundred KB runs as well unoptimised.
               "-DCMAKE_BUILD_TYPE=None", "-DCMAKE_C_FLAGS=-O0", "-DCMAKE_CXX_FLAGS=-O0",
               "-DCMAKE_UNITY_BUILD=ON", "-DCMAKE_UNITY_BUILD_BATCH_SIZE=16")
# A unity build wherever the sources allow it, set once every target exists (a call deferred to the end of the top
# directory): llama's core sources too (llama.cpp builds only its models so); not ggml-cpu (its sources define the
# same static helpers), common's json.cpp (it specialises templates other sources instantiate) nor mtmd's helpers
# (they refuse mtmd's internal headers). Of the unoptimised build's 760 CPU-seconds here, about 310 are left.
UNITY_HOOK = """
function(bleu_gui_unity)
  set_property(TARGET ggml-cpu PROPERTY UNITY_BUILD OFF)
  set_source_files_properties("${CMAKE_SOURCE_DIR}/common/json.cpp" DIRECTORY "${CMAKE_SOURCE_DIR}/common"
                              PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  set_source_files_properties("${CMAKE_SOURCE_DIR}/tools/mtmd/mtmd-helper.cpp"
                              "${CMAKE_SOURCE_DIR}/tools/mtmd/mtmd-helper-gen.cpp"
                              DIRECTORY "${CMAKE_SOURCE_DIR}/tools/mtmd" PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  get_directory_property(core DIRECTORY "${CMAKE_SOURCE_DIR}/src" DEFINITION LLAMA_CORE_SOURCES)
  list(FILTER core INCLUDE REGEX "[.]cpp$")
  list(TRANSFORM core PREPEND "${CMAKE_SOURCE_DIR}/src/")
  set_source_files_properties(${core} DIRECTORY "${CMAKE_SOURCE_DIR}/src" PROPERTIES SKIP_UNITY_BUILD_INCLUSION OFF)
endfunction()
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL bleu_gui_unity)
"""


def missing_tools() -> list[str]:
    """The build tools this machine lacks (cmake and a C++ compiler)."""
    wanted = {"cmake": ("cmake",), "a C++ compiler": ("c++", "g++", "clang++")}
    return [name for name, commands in wanted.items() if not any(shutil.which(c) for c in commands)]


def test_cache() -> Path:
    """The folder the tests take llama-server from (tests/conftest.py: llama_server_binary)."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "bleu-gui-tests" / f"llama-server-{SOURCE.split('==')[1]}"


def cached(home: Path, log: TextIO) -> Path:
    """``home/llama-server``, built there once per machine: a second caller (a test process, or the tests while
    .ci/run's early build runs) waits on the lock and takes the first's."""
    home.parent.mkdir(parents=True, exist_ok=True)
    with open(home.parent / f"{home.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (home / "ready").is_file():
            build(home, log)
            (home / "ready").write_text(SOURCE)
    return home / "llama-server"


def build(into: Path, log: TextIO = sys.stderr) -> Path:
    """``into/llama-server``, built from :data:`SOURCE` (raises :class:`RuntimeError` saying what failed)."""
    lacking = missing_tools()
    if lacking:
        raise RuntimeError(f"no {' and no '.join(lacking)} on this machine: llama-server cannot be built")
    into.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="llama-build-") as work:
        work_dir = Path(work)
        _run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", SOURCE, "-d",
              str(work_dir)], log)
        archive = next(work_dir.glob("llama_cpp_python-*.tar.gz"))
        with tarfile.open(archive) as tar:
            members = [m for m in tar.getmembers() if "/vendor/llama.cpp/" in m.name]
            tar.extractall(work_dir, members, filter="data")
        source = next(work_dir.glob("llama_cpp_python-*/vendor/llama.cpp"))
        hook = work_dir / "unity.cmake"
        hook.write_text(UNITY_HOOK)
        build_dir = work_dir / "build"
        _run(["cmake", "-S", str(source), "-B", str(build_dir), "-G", "Ninja" if shutil.which("ninja") else
              "Unix Makefiles", *CMAKE_FLAGS, f"-DCMAKE_PROJECT_INCLUDE={hook}"], log)
        _run(["cmake", "--build", str(build_dir), "--target", "llama-server", "-j", str(os.cpu_count() or 2)], log)
        built = next(p for p in build_dir.rglob("llama-server") if p.is_file())
        target = into / "llama-server"
        shutil.copy2(built, target)
    return target


def _run(command: list[str], log: TextIO) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{' '.join(command[:4])} … failed:\n{(done.stdout + done.stderr)[-3000:]}")
    print(f"ran {' '.join(command[:4])} …", file=log)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("into", type=Path, nargs="?", help="the folder that receives llama-server")
    parser.add_argument("--test-cache", action="store_true", help="build into the tests' cache folder, once")
    args = parser.parse_args()
    if args.into is None and not args.test_cache:
        parser.error("name a folder, or --test-cache")
    try:
        print(cached(test_cache(), sys.stderr) if args.test_cache else build(args.into))
    except RuntimeError as failed:
        print(failed, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
