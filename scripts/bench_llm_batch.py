"""How long the LLM judge's batch hand-off takes for 100,000 requests: the export (keys, bodies, shards, manifest, the
cache's record) beside its anchor — the same lines dumped and written as plain JSON Lines — and the import of an
output of 100,000 lines in vLLM's shape (each line through the door, checked by key and shard, each answer read)
beside its anchor — the same lines read with ``json.loads``. Ratios printed.

    python scripts/bench_llm_batch.py [--requests 100000]

Texts: WMT22 en-ja (../shared/data), each segment numbered to make every request its own.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bleu_gui.core.inputs.text_files import SegmentFile  # noqa: E402
from bleu_gui.core.metrics.llm.batch import import_batch  # noqa: E402
from bleu_gui.core.metrics.llm.cache import AnswerCache  # noqa: E402
from bleu_gui.core.metrics.llm.config import LlmConfig  # noqa: E402
from bleu_gui.core.metrics.llm.metric import LlmJudge  # noqa: E402
from bleu_gui.core.output.llm_batch import write_batch  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "wmt22-en-ja"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100_000)
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"the shared data set is not at {DATA}")
    src = (DATA / "src.txt").read_text("utf-8").splitlines()
    hyp = (DATA / "sys1.txt").read_text("utf-8").splitlines()
    n = args.requests
    source = [f"{src[i % len(src)]} ({i})" for i in range(n)]
    lines = [f"{hyp[i % len(hyp)]}（{i}）" for i in range(n)]
    with tempfile.TemporaryDirectory() as tmp:
        config = LlmConfig(model="tiny-llama", cache=str(Path(tmp) / "cache.sqlite"), languages="en-ja")
        judge = LlmJudge(config, n, source)
        system = SegmentFile(Path("sys.txt"), lines, "utf-8")
        start = time.perf_counter()
        handed = judge.requests_missing([system])
        assert handed is not None
        written = write_batch(Path(tmp) / "batch", handed)
        export = time.perf_counter() - start
        start = time.perf_counter()
        plain = [json.dumps({"custom_id": i, "method": "POST", "url": "/v1/chat/completions", "body": b},
                            ensure_ascii=False) for i, b in handed.requests]
        (Path(tmp) / "plain.jsonl").write_text("\n".join(plain) + "\n", "utf-8")
        anchor_out = time.perf_counter() - start
        print(f"export of {written.requests:,} requests ({len(written.shards)} shards): {export:.2f} s; the same lines "
              f"dumped and written plainly {anchor_out:.2f} s: {export / anchor_out:.1f}×")
        output = Path(tmp) / "out.jsonl"
        with output.open("w", encoding="utf-8") as f:
            for k, (custom_id, body) in enumerate(handed.requests):
                f.write(json.dumps({"id": f"vllm-{k}", "custom_id": custom_id, "error": None, "response": {
                    "status_code": 200, "request_id": f"b-{k}", "body": {
                        "object": "chat.completion", "model": body["model"], "choices": [{
                            "index": 0, "finish_reason": "stop", "message": {
                                "role": "assistant", "content": '{"errors": [{"span": "注文", "category": '
                                                                '"Accuracy/Mistranslation", "severity": "minor"}]}'}}]}}})
                        + "\n")
        cache = AnswerCache(Path(config.cache))
        start = time.perf_counter()
        done = import_batch(cache, [output])
        imported = time.perf_counter() - start
        cache.close()
        start = time.perf_counter()
        with output.open(encoding="utf-8") as f:
            read = [json.loads(line) for line in f]
        anchor_in = time.perf_counter() - start
        print(f"import of {done.lines:,} output lines ({done.kept:,} kept): {imported:.2f} s; json.loads of the same "
              f"lines {anchor_in:.2f} s: {imported / anchor_in:.1f}× ({len(read):,} read)")


if __name__ == "__main__":
    main()
