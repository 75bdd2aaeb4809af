"""Benchmark: the LLM judge against a local llama-server — requests a second at 1, 2 and 4 requests at once (the
anchor: one at a time, in the same run), then the re-open of the same run from the cache against its first run.

The server is llama.cpp's llama-server (scripts/build_llama_server.py builds it; --server names one) with
``--parallel 4``, serving the tiny random model of scripts/tiny_gguf.py: what is measured is our side (requests,
parsing, placing, the cache) and the server's scheduling, not a real model's speed. The segments are WMT22 en-ja's
first source and system lines from ../shared/data (skipped with a message when absent).

    python scripts/bench_llm.py --server PATH [--lines 200]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "wmt22-en-ja"


def _script(name: str):
    spec = importlib.util.spec_from_file_location(f"scripts_{name}", ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def judged(base: str, cache: Path, source: list[str], candidate: list[str], concurrency: int,
           model: str = "tiny") -> tuple[float, int]:
    """Seconds to judge ``candidate`` afresh or from ``cache``, and the segments scored."""
    from bleu_gui.core.inputs.text_files import SegmentFile
    from bleu_gui.core.metrics.llm.config import LlmConfig
    from bleu_gui.core.metrics.llm.metric import LlmJudge

    config = LlmConfig(endpoint=base, model=model, cache=str(cache), concurrency=concurrency,
                       max_tokens=4096).for_target_language(("en", "ja"))[0]
    metric = LlmJudge(config, len(source), source)
    start = time.perf_counter()
    stats = metric.system_statistics(SegmentFile(Path("sys1.txt"), candidate, "utf-8"))
    return time.perf_counter() - start, int(stats[:, 1].sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="llama-server (scripts/build_llama_server.py)")
    parser.add_argument("--lines", type=int, default=200)
    args = parser.parse_args()
    if not DATA.is_dir():
        print(f"skipped: {DATA} is not there")
        return
    source = (DATA / "src.txt").read_text(encoding="utf-8").splitlines()[:args.lines]
    candidate = (DATA / "sys1.txt").read_text(encoding="utf-8").splitlines()[:args.lines]
    work = Path(tempfile.mkdtemp(prefix="bench-llm-"))
    model = _script("tiny_gguf").write(work / "tiny.gguf")
    print(f"{len(source)} segments of WMT22 en-ja, llama-server --parallel 4, a tiny random model (our side measured)")
    with _script("llama_server").serving(args.server, str(model)) as server:
        rates = {}
        for concurrency in (1, 2, 4):
            took, scored = judged(server.base, work / f"cache-{concurrency}.sqlite", source, candidate, concurrency)
            rates[concurrency] = len(source) / took
            print(f"  {concurrency} at once: {took:6.2f} s, {rates[concurrency]:6.1f} requests/s "
                  f"({rates[concurrency] / rates[1]:.2f}× one at a time; {scored} scored)")
        reopened, _ = judged(server.base, work / "cache-4.sqlite", source, candidate, 4)
    took4 = len(source) / rates[4]
    print(f"  the same run re-opened from the cache: {reopened:.3f} s against {took4:.2f} s asked (4 at once): "
          f"{took4 / reopened:.0f}× faster")
    # Our side alone: an endpoint that answers at once (the raters' parrot answers "no error" to these texts).
    parrot = _script("parrot_judge").ParrotJudge({}).start()
    print("our side alone, against an endpoint that answers at once (scripts/parrot_judge.py):")
    alone = {}
    for concurrency in (1, 2, 4):
        took, _ = judged(parrot.base, work / f"parrot-{concurrency}.sqlite", source, candidate, concurrency, "parrot")
        alone[concurrency] = len(source) / took
        print(f"  {concurrency} at once: {alone[concurrency]:6.0f} requests/s ({alone[concurrency] / alone[1]:.2f}× "
              "one at a time)")
    parrot.shutdown()


if __name__ == "__main__":
    main()
