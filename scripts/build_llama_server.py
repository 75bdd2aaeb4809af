"""Build llama.cpp's ``llama-server`` (an OpenAI-compatible chat-completions server) from the llama.cpp that
llama-cpp-python's source package vendors, for the LLM judge's tests and benchmark: a real server on 127.0.0.1,
offline.

    python scripts/build_llama_server.py DIR      # DIR/llama-server when it is built (prints its path)

pip downloads the source package (``llama-cpp-python==0.3.36``, 77 MB), cmake builds the one target, statically and
for any x86-64 (``GGML_NATIVE=OFF``: a binary cached on one machine runs on another), without curl (the tests never
download a model). About 4–5 minutes on 2 cores; the binary is ~15 MB. Nothing of llama.cpp is committed: it is
built where it runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

SOURCE = "llama-cpp-python==0.3.36"
CMAKE_FLAGS = ("-DGGML_NATIVE=OFF", "-DLLAMA_CURL=OFF", "-DBUILD_SHARED_LIBS=OFF", "-DLLAMA_BUILD_SERVER=ON",
               "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF",
               # No optimisation and no debug information: the build takes a fraction of a Release build's time, and
               # a model of a few hundred KB runs as fast unoptimised (a real model would want Release).
               "-DCMAKE_BUILD_TYPE=None", "-DCMAKE_C_FLAGS=-O0", "-DCMAKE_CXX_FLAGS=-O0")


def missing_tools() -> list[str]:
    """The build tools this machine lacks (cmake and a C++ compiler)."""
    wanted = {"cmake": ("cmake",), "a C++ compiler": ("c++", "g++", "clang++")}
    return [name for name, commands in wanted.items() if not any(shutil.which(c) for c in commands)]


def build(into: Path, log=sys.stderr) -> Path:
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
        build_dir = work_dir / "build"
        _run(["cmake", "-S", str(source), "-B", str(build_dir), "-G", "Ninja" if shutil.which("ninja") else
              "Unix Makefiles", *CMAKE_FLAGS], log)
        _run(["cmake", "--build", str(build_dir), "--target", "llama-server", "-j", str(os.cpu_count() or 2)], log)
        built = next(build_dir.rglob("llama-server"))
        target = into / "llama-server"
        shutil.copy2(built, target)
    return target


def _run(command: list[str], log) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{' '.join(command[:4])} … failed:\n{(done.stdout + done.stderr)[-3000:]}")
    print(f"ran {' '.join(command[:4])} …", file=log)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("into", type=Path, help="the folder that receives llama-server")
    try:
        print(build(parser.parse_args().into))
    except RuntimeError as failed:
        print(failed, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
